// TLFEA: a multibody model: bodies (meshes with a material), clamped
// coefficients, loads and constraints, with the global coefficient numbering
// (body b owns coefficients [offset(b), offset(b) + n_b)) and the fixed CRS
// pattern of the Newton matrix (elements + constraint couplings).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/elements/element_block.hpp"
#include "tlfea/model/rigid_body.hpp"
#include "tlfea/model/rotational_spring_damper.hpp"
#include "tlfea/model/spring_damper.hpp"

namespace tlfea {

class RigidBlock;

// A scalar function of time (load amplitude); empty means 1.
using TimeFunction = std::function<Real(Real)>;
// Prescribed position of a node: x(t, X) with X its reference position.
using MotionFunction = std::function<Vec3(Real t, const Vec3& X)>;

class Model {
 public:
  // Adds a body; returns its id. Bodies must all be added before
  // constraints() is first called.
  int add_body(const Mesh& mesh, const MaterialSpec& material, Real density);
  // Adds a rigid body (docs/theory.md §10; rigid_body.hpp): one node of four
  // coefficients (centre of mass r, directors r_1, r_2, r_3), mesh(body) a
  // one-node, element-less ANCF-type coefficient mesh (4 per node), block(body)
  // its RigidBlock; its six rigidity rows join the constraint set at
  // finalize(). Returns its id.
  int add_rigid_body(const RigidBodySpec& spec);
  bool is_rigid(int body) const { return bodies_.at(body).rigid != nullptr; }
  // The spec of a rigid body (throws Error for a deformable one).
  const RigidBodySpec& rigid_spec(int body) const;
  // Rows of the rigidity constraints of a rigid body (after finalize()).
  RowRange rigidity_rows(int body) const;
  // Pose and velocity of a rigid body from host copies of q (and v): centre
  // of mass, rotation R = [r_1 r_2 r_3] (columns), centre velocity and the
  // angular velocity omega = 1/2 sum_k r_k x v_k (v_k = omega x r_k for
  // orthonormal r_k, §10.5).
  struct RigidPose {
    Vec3 center{{0.0, 0.0, 0.0}};
    Mat3 rotation = identity3();
    Vec3 velocity{{0.0, 0.0, 0.0}};
    Vec3 angular_velocity{{0.0, 0.0, 0.0}};
  };
  // q, v: any host copy of the coefficients (a HostMirror, or a
  // create_mirror_view_and_copy(HostSpace) view, whose types differ on CUDA);
  // an empty v leaves the velocities at zero.
  using HostCoefs = Kokkos::View<const Real* [3], Kokkos::LayoutRight, Kokkos::HostSpace>;
  RigidPose rigid_pose(int body, HostCoefs q, HostCoefs v = HostCoefs()) const;
  // Writes the rigid body's velocity coefficients into v (host): v_r = v_c,
  // v_{r_k} = omega x r_k(q) (world axes).
  void set_rigid_velocity(int body, const Vec3& v_c, const Vec3& omega, const CoefViewHost& q,
                          const CoefViewHost& v) const;
  // A torque T (world axes, N m) on a rigid body, times f(t) when timed:
  // generalized forces (1/2) T x r_k on the directors (§10.4), with their
  // load stiffness in external_load_tangent.
  void add_torque(int body, const Vec3& T, TimeFunction amplitude = {});
  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  const Mesh& mesh(int body) const { return bodies_.at(body).mesh; }
  // Body b's element block (throws Error while it is released, below).
  ElementBlockBase& block(int body);
  const ElementBlockBase& block(int body) const;
  // A TimeStepper on several MPI ranks evaluates each deformable body
  // through per-rank blocks of its elements (integrators/src/distribution.hpp)
  // and frees the whole block meanwhile (its connectivity, reference
  // coefficients and matrix offsets; its quadrature data, as much memory as
  // the Newton matrix values on one rank, it never built unless it was used:
  // ElementBlockBase::prepare). Possible for a T10 or Q27 body without
  // follower pressures (whose load uses the whole block at every step):
  // can_release_block. While released, block(b) throws Error; restore_blocks
  // builds every released block again from its mesh (same element order,
  // offsets found again in the pattern, in row_layout()).
  bool can_release_block(int body) const;
  void release_block(int body);
  bool block_released(int body) const {
    whole();
    return !bodies_.at(body).block;
  }
  void restore_blocks();
  // The block structure of the pattern: block row b's block columns are
  // block_columns()(block_row_map()(b) .. block_row_map()(b + 1) - 1), in
  // CRS order; block_row_map()(b) = pattern().row_map(3 b) / 9, the index of
  // block row b's first block in block_mass(). After finalize().
  const DeviceView<Offset*>& block_row_map() const {
    whole();
    return block_row_map_;
  }
  const DeviceView<Ordinal*>& block_columns() const {
    whole();
    return block_columns_;
  }
  // A TimeStepper on several MPI ranks also frees the pattern's column
  // indices (pattern().entries where pattern() built them, and the block
  // columns of block_pattern(); empty meanwhile) once its setup has cut from
  // them what it keeps (its rank's rows); the row maps and the mass stay.
  // While released, set_row_layout and restore_blocks throw Error.
  // restore_structure brings back the whole layout, every released block
  // and the pattern (built again from the same cliques: the same pattern,
  // offsets in the whole layout).
  void release_pattern_entries();
  bool pattern_entries_released() const {
    whole();
    return entries_released_;
  }
  void restore_structure();
  // What a TimeStepper on several MPI ranks calls when it ends: the released
  // structure (blocks, column indices, mass rows) is restored
  // (restore_structure) by the first call that needs it, any accessor of
  // the structure, the mass or the matrix writers below, not now, so that a
  // run's end builds nothing on every rank that nothing uses (the rebuild
  // held the whole model on every rank: above a run's peak from 6 ranks on,
  // docs/guide/mpi.md). Drops the ranks' sum of release_mass_rows, which
  // belonged to that stepper.
  void restore_when_needed();
  bool restore_pending() const { return restore_pending_; }
  const MaterialSpec& material(int body) const { return bodies_.at(body).material; }
  Ordinal coefficient_offset(int body) const { return bodies_.at(body).offset; }
  Ordinal num_coefficients() const { return num_coefficients_; }

  // Dirichlet conditions on whole coefficient vectors (eliminated from the
  // unknowns): every coefficient of the given nodes, or only their position.
  void clamp_nodes(int body, const std::vector<Ordinal>& nodes, bool gradients_too = true);
  void clamp_node_set(int body, const std::string& set, bool gradients_too = true);
  const std::vector<Ordinal>& clamped_coefficients() const;

  // Prescribed motion: the position coefficients of `nodes` follow
  // x(t, X) (their gradient coefficients, for ANCF, are clamped when
  // gradients_clamped). Eliminated from the unknowns like clamped ones.
  void prescribe_nodes(int body, const std::vector<Ordinal>& nodes, MotionFunction position,
                       bool gradients_clamped = true);
  // Any single coefficient vector of a node (k = 0 its position; for ANCF
  // k = 1, 2, 3 its gradients r_u, r_v, r_w) follows value(t, reference).
  void prescribe_coefficient(int body, Ordinal node, int k, MotionFunction value);
  // Single Cartesian components of one coefficient vector (k as above) held
  // at their reference values: axes[a] fixes component a (x, y, z). For
  // conditions a whole-vector clamp cannot state, e.g. a symmetry plane
  // x = 0 of an ANCF shell (r_x = 0, r_u || e_x, r_v and r_w in the plane;
  // tests/validation/test_shell_cylinder.cpp). Eliminated from the unknowns
  // like clamped coefficients; components of a prescribed coefficient follow
  // its prescription instead.
  void fix_components(int body, Ordinal node, int k, std::array<bool, 3> axes);
  // The fixed components as scalar dofs 3 c + a (c a global coefficient),
  // sorted, without those of prescribed coefficients.
  const std::vector<Ordinal>& fixed_components() const;

  // Loads (SI: N, Pa). Each may carry an amplitude f(t) (empty: constant).
  // Gravity g, optionally with an amplitude f(t) (e.g. a ramp to settle a
  // model): the body force at time t is rho g f(t) (empty: f = 1).
  void set_gravity(const Vec3& g, TimeFunction amplitude = {});
  const Vec3& gravity() const { return gravity_; }
  // f(t) of the gravity (1 without an amplitude): the gravity acting at t is
  // gravity() * gravity_factor(t).
  Real gravity_factor(Real t) const { return gravity_amplitude_ ? gravity_amplitude_(t) : 1.0; }
  // A force on the position coefficient of a node.
  void add_nodal_force(int body, Ordinal node, const Vec3& force, TimeFunction amplitude = {});
  // A force at the material point (element, xi) of a body.
  void add_point_force(int body, Ordinal element, const Real xi[3], const Vec3& force,
                       TimeFunction amplitude = {});
  // Dead traction t0 (force per reference area) on a named face set.
  void add_traction(int body, const std::string& face_set, const Vec3& t0,
                    TimeFunction amplitude = {});
  // Follower pressure p (on the current faces, against their outward normal).
  void add_pressure(int body, const std::string& face_set, Real p, TimeFunction amplitude = {});
  bool has_follower_loads() const { return !pressures_.empty() || !torques_.empty(); }

  // f_ext(t, q) into f (overwritten): gravity and constant loads, timed loads
  // scaled by their amplitude at t, follower pressures on the configuration q.
  void external_load(Real t, const CoefView& q, const CoefView& f) const;
  // values += alpha d f_ext / d q (the follower-pressure load stiffness), in
  // row_layout().
  void external_load_tangent(Real t, const CoefView& q, Real alpha,
                             const DeviceView<Real*>& values) const;

  // Coupling of a node set of body_i to body_j (a rigid or deformable body,
  // or the ground: body_j = -1) in one call (docs/theory.md §5.7):
  //  kinematic: every node's position equals body_j's material point at the
  //    node's reference position (3 CD rows per node); with rotation, an
  //    ANCF node's gradients r_u, r_v, r_w also follow body_j's directors,
  //    g = sum_k (g_ref)_k r_k (rigid body_j) or stay at g_ref (ground): 3
  //    more rows per gradient. T10 / Q27 nodes have no rotation of their own
  //    (their positions carry it).
  //  distributing: the weighted mean position sum_i w_i x_i of the set
  //    (w_i = weights, normalized; equal when empty) equals body_j's point
  //    at the reference mean X_c (3 CD rows), so the set deforms freely
  //    about its mean and a force on body_j reaches node i as w_i F. With
  //    rotation (body_j rigid or the ground), 3 more rows make the set's
  //    weighted best-fit rotation follow body_j's: with d_i = X_i - X_c and
  //    R body_j's rotation, g = sum_i w_i (R d_i) x (x_i - x_c) = 0 (the
  //    stationarity of min_R sum_i w_i |x_i - x_c - R d_i|^2), a moment M
  //    reaching node i as w_i mu x (R d_i), J mu = M with J the set's
  //    weighted polar moment; a collinear set is refused (Error). Only the
  //    nodes' positions enter (ANCF gradients stay free).
  // Returns the rows; throws Error for an empty or out-of-range node list, a
  // rigid body_i, or a combination it does not support.
  struct CouplingSpec {
    enum class Form { kinematic, distributing };
    Form form = Form::kinematic;
    bool rotation = false;
    std::vector<Real> weights;  // distributing: one per node (empty: equal)
  };
  RowRange add_coupling(int body_i, const std::vector<Ordinal>& nodes, int body_j,
                        const CouplingSpec& spec);

  // Force elements (docs/theory.md §11): a translational spring-damper
  // between material points a and b (of any bodies, or one on the ground);
  // before finalize(). Returns its index. Its force depends on q and v and
  // enters the step implicitly (force_element_load, force_element_tangent).
  int add_spring_damper(const MaterialPoint& a, const MaterialPoint& b,
                        const SpringDamperSpec& spec);
  // A rotational spring-damper (docs/theory.md §11.2) about the axis u of
  // body i, from the vector a of body i to the vector b of body j (each a
  // coefficient combination: for a rigid body sum_k w_k r_k, rigid_vector;
  // constant on the ground). Before finalize(); returns its index.
  int add_rotational_spring_damper(const MaterialPoint& u, const MaterialPoint& a,
                                   const MaterialPoint& b, const RotationalSpringDamperSpec& spec);
  // The vector of rigid body `body` that is w (world axes) in the reference
  // configuration: sum_k w_k r_k; the constant w for body = -1 (ground).
  MaterialPoint rigid_vector(int body, const Vec3& w) const;
  // The vector of ANCF node `node`'s frame (its gradient coefficients g_1,
  // g_2, g_3) that is w (world axes) in the reference configuration:
  // sum_k alpha_k g_k with alpha = G0^-1 w, G0 = [g_1 g_2 g_3] at the
  // reference. It turns with the node's gradients (and stretches with them).
  // Throws Error for a body that is not ANCF, a node out of range or a
  // singular reference frame.
  MaterialPoint node_vector(int body, Ordinal node, const Vec3& w);
  const RotationalSpringDampers& rotational_spring_dampers() const {
    whole();
    return rsdas_;
  }
  bool has_force_elements() const { return springs_.size() > 0 || rsdas_.size() > 0; }
  const SpringDampers& spring_dampers() const {
    whole();
    return springs_;
  }
  // f += the force elements' generalized forces at (q, v) (v empty: at rest).
  void force_element_load(const CoefView& q, const CoefView& v, const CoefView& f) const;
  // values += -alpha_K df/dq - alpha_D df/dv of those forces, in row_layout().
  void force_element_tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
                             const DeviceView<Real*>& values) const;
  // Their potential energy at q (springs; dampers store none).
  Real force_element_energy(const CoefView& q) const;

  // Forces evaluated once per step from the state at its start, explicit
  // within the step (frictional contact, docs/theory.md §7.6), are
  // components of the stepper (tlfea::StepForce, TimeStepper::add_step_force),
  // not of the model. A model whose problem has one records its name here
  // (a scene with contact: "contact"), and a TimeStepper on it refuses to
  // step without a step force of that name (and a static analysis refuses
  // the model), so that no stepper runs it silently without its contact.
  void require_step_force(const std::string& name);
  const std::vector<std::string>& required_step_forces() const { return required_step_forces_; }

  struct Prescribed {
    Ordinal coefficient;
    Vec3 reference;
    MotionFunction position;
  };
  const std::vector<Prescribed>& prescribed() const { return prescribed_; }

  // Constraint rows between material points (created on first use from the
  // reference coefficients).
  ConstraintSet& constraints();
  bool has_constraints() const { return constraints_ != nullptr && constraints_->num_rows() > 0; }

  // Builds reference coefficients, the CRS pattern (element cliques plus
  // constraint cliques), the mass matrix values and the constant load vector.
  void finalize();
  bool finalized() const { return finalized_; }

  // Reference coefficients of all bodies (built on first use, which freezes
  // the list of bodies).
  const CoefView& reference() {
    build_reference();
    return q0_;
  }
  // The Newton matrix pattern with its scalar column indices (entries),
  // which the first call builds from the block structure (4 bytes per
  // matrix entry: the solvers on one rank need them; a TimeStepper on
  // several MPI ranks never asks, and frees the block columns while it
  // lives: entries and block_columns then empty, below).
  const CrsPattern& pattern() const;
  // The pattern without building its scalar column indices (entries empty
  // unless pattern() made them): its row map, row lengths and block
  // structure (CrsPattern, HostBlockPattern), all that the model's writers
  // and a stepper's setup on several ranks need.
  const CrsPattern& block_pattern() const {
    whole();
    return pattern_;
  }
  // The consistent mass M (x) I3 (docs/theory.md §3.5) as the scalars of M,
  // one per 3 x 3 block of the pattern: block row b's blocks in CRS order,
  // block (b, slot) at index block_row_map()(b) + slot, which is
  // pattern().row_map(3 b) / 9 + slot (every scalar row holds 3 entries per
  // block column; core/crs_pattern.hpp) unless the mass rows are released
  // (below). nnz / 9 values. After finalize().
  const DeviceView<Real*>& block_mass() const {
    whole();
    return mass_;
  }
  // M (x) I3 on the whole pattern (nnz values): a new array each call, for
  // tools and tests; after finalize(); throws Error while the mass rows are
  // released.
  DeviceView<Real*> mass_values() const;
  // A TimeStepper on several MPI ranks keeps the block mass only in the
  // block rows its rank owns (the rows it writes M into in the Newton matrix
  // and multiplies by M, the ranks' products summed): release_mass_rows
  // keeps block rows `block_rows` (ascending) of block_mass() and
  // block_columns() (block_row_map() gives every other row no blocks),
  // computes the lumped mass first and keeps it whole, and takes `sum`, the
  // sum over the ranks of n numbers in place (every rank called alike, the
  // same bits on every rank). Meanwhile kinetic_energy and body_motion sum
  // their rows' parts by it: collectives, called by every rank alike.
  // restore_structure assembles the whole mass again.
  using RankSum = std::function<void(Real* values, int n)>;
  void release_mass_rows(const std::vector<Ordinal>& block_rows, RankSum sum);
  bool mass_rows_released() const {
    whole();
    return mass_split_;
  }
  // values = scale (M (x) I3) in row_layout() (row_layout().size(pattern())
  // values, every one written).
  void scaled_mass(Real scale, const DeviceView<Real*>& values) const;
  // The layout of the Newton matrix values the model's matrix writers fill
  // (scaled_mass, external_load_tangent, the element blocks' and the
  // constraints' matrix offsets): the whole pattern unless a TimeStepper on
  // several MPI ranks has set its rank's rows (integrators/src/distribution.hpp)
  // for its lifetime. Setting converts every offset (after finalize(); a
  // layout other than whole() only from whole(), so two such steppers cannot
  // share a model).
  void set_row_layout(const RowLayout& layout);
  const RowLayout& row_layout() const {
    whole();
    return layout_;
  }
  // The row sums of M, one per coefficient (a new array); after finalize().
  DeviceView<Real*> lumped_mass() const;
  // Constant part of the external force (gravity and loads without amplitude).
  const CoefView& constant_load() const { return load_; }
  // Kinetic energy 1/2 v^T M v with the consistent mass matrix, computed
  // where v lives (one reduction over the block mass); after finalize(). A
  // collective while the mass rows are released (release_mass_rows).
  Real kinetic_energy(const CoefView& v) const;

  // Rigid-body measures of one body with its consistent mass M (scalar
  // blocks M_ij = int rho0 s_i s_j dV0, docs/theory.md §3.5; r = sum_i s_i q_i,
  // v = sum_j s_j v_j) and its position-coefficient indicator e (1 on the
  // position coefficients, 0 on ANCF gradients: sum_{i position} s_i = 1 is
  // a rigid translation, so int rho0 s_j dV0 = (e^T M)_j):
  //   mass m = e^T M e,          centre of mass c = (e^T M q) / m,
  //   momentum p = e^T M v,      angular momentum about the origin
  //   L = int rho0 r x v dV0 = sum_ij M_ij q_i x v_j,
  //   kinetic energy T = 1/2 sum_ij M_ij v_i . v_j (docs/theory.md §9.3).
  // One device reduction over the body's rows of M; after finalize(). A
  // collective while the mass rows are released (release_mass_rows).
  struct BodyMotion {
    Real mass = 0.0;
    Vec3 center_of_mass{{0.0, 0.0, 0.0}};
    Vec3 momentum{{0.0, 0.0, 0.0}};
    Vec3 angular_momentum{{0.0, 0.0, 0.0}};
    Real kinetic_energy = 0.0;
  };
  BodyMotion body_motion(int body, const CoefView& q, const CoefView& v) const;

 private:
  struct Body {
    Mesh mesh;
    std::unique_ptr<ElementBlockBase> block;
    Ordinal offset = 0;
    MaterialSpec material;
    Real density = 0.0;
    RigidBlock* rigid = nullptr;  // block, for a rigid body
    // A released block's settings, for restore_blocks.
    ScatterPolicy scatter = ScatterPolicy::Coloured;
    KernelShapes shapes{};
    RowRange rigidity;  // its rigidity rows
  };
  void build_reference();
  // A released body's block made again from its mesh, with its scatter
  // policy and loop shapes (without matrix offsets).
  static std::unique_ptr<ElementBlockBase> rebuilt_block(const Body& b);
  // The pattern, every clique set's offsets (whole layout) and the block
  // structure, from the blocks, constraints and force elements.
  void build_structure();
  std::vector<Body> bodies_;
  Ordinal num_coefficients_ = 0;
  // Sorted; may still hold coefficients prescribed since (clamped_stale_),
  // dropped when read.
  mutable std::vector<Ordinal> clamped_;
  mutable bool clamped_stale_ = false;
  mutable std::vector<Ordinal> fixed_components_;  // scalar dofs 3 c + a
  struct NodalForce {
    Ordinal coefficient;
    Vec3 force;
    TimeFunction amplitude;
  };
  struct PointForce {
    int body;
    Ordinal element;
    Vec3 xi, force;
    TimeFunction amplitude;
  };
  struct Traction {
    int body;
    std::vector<FaceRef> faces;
    Vec3 t0;
    TimeFunction amplitude;
  };
  struct Pressure {
    int body;
    FaceList faces;
    Real p;
    TimeFunction amplitude;
  };
  struct TimedLoad {
    CoefView f;
    TimeFunction amplitude;
  };
  std::vector<NodalForce> nodal_forces_;
  std::vector<PointForce> point_forces_;
  std::vector<Traction> tractions_;
  std::vector<Pressure> pressures_;
  std::vector<TimedLoad> timed_;
  struct Torque {
    int body;
    Vec3 T;
    TimeFunction amplitude;
  };
  std::vector<Torque> torques_;
  std::vector<Prescribed> prescribed_;
  std::unordered_set<Ordinal> prescribed_set_;  // the coefficients of prescribed_
  std::vector<std::string> required_step_forces_;
  SpringDampers springs_;
  int springs_offsets_ = -1;  // index of the spring-dampers' offsets in offsets_
  RotationalSpringDampers rsdas_;
  int rsdas_offsets_ = -1;
  Vec3 gravity_{{0.0, 0.0, 0.0}};
  TimeFunction gravity_amplitude_;
  std::unique_ptr<ConstraintSet> constraints_;
  CoefView q0_, load_;
  CrsPattern pattern_;
  // The matrix offsets of each body's block, then of the constraints (the
  // views the blocks and the constraint set hold), and their layout.
  std::vector<DeviceView<Offset***>> offsets_;
  RowLayout layout_;
  DeviceView<Real*> mass_;  // block_mass()
  DeviceView<Offset*> block_row_map_;
  DeviceView<Ordinal*> block_columns_;
  // While the mass rows are released: the ranks' sum (while their stepper
  // lives), and the whole lumped mass.
  RankSum mass_sum_;
  bool mass_split_ = false;
  DeviceView<Real*> lumped_;
  // restore_when_needed() has marked the structure for restore_structure,
  // which whole() runs first thing in every accessor of the structure (a
  // const one too: the model is the same model, rebuilt as it was).
  bool restore_pending_ = false;
  void whole() const {
    if (restore_pending_) const_cast<Model*>(this)->restore_structure();
  }
  void assemble_block_mass();  // mass_ from the bodies' blocks (whole layout)
  bool reference_built_ = false, finalized_ = false, entries_released_ = false;
};

}  // namespace tlfea
