// TLFEA: scalar constraint primitives on material points, joints as stacks of
// them, and their Jacobian / Hessian kernels (docs/theory.md §5.1-5.3;
// Haug 1989).
//
// Primitives (a = r_Q - r_P; every row is multiplied by its weight w):
//   DP1:  b = r_T - r_R,  c = w (a^T b - f(t))
//   DP2:  d = r_S - r_R,  c = w (a^T d - f(t))   (R on a's body, S on the other)
//   DIST:                 c = w (a^T a - f(t)^2) / 2
//   CD:   d fixed unit,   c = w (d^T a - f(t))
//   DDP:  difference of two dot products of the points themselves,
//         c = w (r_P^T r_Q - r_R^T r_S - f(t))
// The row's point slots are (P, Q, R, T|S); dc/dr_X = w * (+-b | +-a | +-d)
// (DDP: dc/dr_P = w r_Q, dc/dr_Q = w r_P, dc/dr_R = -w r_S, dc/dr_S = -w r_R),
// and dc/de_i = sum_X s_i(xi_X) dc/dr_X.
//
// Row weights (docs/theory.md §5.4: constant, from the reference configuration,
// so that rows have commensurate Jacobians; a0, b0 = reference directions):
//   CD   w = 1                 (c: a length; dc/de = O(1));
//   DP1  w = 1 / (|a0| |b0|)   (c: a cosine);
//   DP2  w = 1 / |a0|          (c: the offset along a unit a, a length);
//   DIST w = 1 / |a0|          (1 when the reference distance is zero).
//   DDP  w given by the caller (add_ddp).
// Why DP1 needs 1/delta^2 for fibers of length delta: both ends of a fiber
// sit in the same element, so da/de_i = (s_i(Q) - s_i(P)) I = O(delta / h)
// (h: element size) and dc/de = O(delta^2 / h) unweighted; weighted it is
// O(1 / h), within a small factor of CD's O(1) for elements of size ~0.1-1 in
// model units. (The TL-FEA papers' prose says "weights of order 1/delta", which
// only balances the gradient with respect to point positions, not
// coefficients; docs/theory.md §5.4, "Difference from the plan".)
// Weights can be switched off (all w = 1) or overridden per row.
//
// Joints (docs/theory.md §5.5; Haug 1989) are built from JointFrames of the
// two bodies (i, j):
//   spherical   3 CD (origin_j - origin_i along e_x, e_y, e_z)          m = 3
//   universal   + DP1 axis_i . axis_j  (the two cross-pin axes)          m = 4
//   revolute    + DP1 axis_i . cross1_j, axis_i . cross2_j               m = 5
//   fixed       revolute + DP1 cross1_i . cross2_j                       m = 6
//   cylindrical DP1 axis_i . cross1_j, axis_i . cross2_j,
//               DP2 cross1_i . (origin_j - origin_i), cross2_i . (...)   m = 4
//   prismatic   cylindrical + DP1 cross1_i . cross2_j                    m = 5
// Each joint row's f is the constant reference value, so a joint holds in the
// reference configuration it was built from.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/material_point_set.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

enum class PrimitiveType : int { DP1 = 0, DP2 = 1, DIST = 2, CD = 3, DDP = 4 };

// Driving function f(t), evaluated on the host only.
struct DrivingFunction {
  enum class Kind { Constant, Linear, Sinusoid, User };
  Kind kind = Kind::Constant;
  Real value = 0.0;      // constant; linear and sinusoid offset
  Real rate = 0.0;       // linear: f = value + rate t
  Real amplitude = 0.0;  // sinusoid: f = value + amplitude sin(omega t + phase)
  Real omega = 0.0, phase = 0.0;
  std::function<Real(Real)> user;

  static DrivingFunction constant(Real v);
  static DrivingFunction linear(Real v0, Real rate);
  static DrivingFunction sinusoid(Real offset, Real amplitude, Real omega, Real phase = 0.0);
  static DrivingFunction function(std::function<Real(Real)> f);
  Real operator()(Real t) const;
};

// Rows [first, first + count) of a ConstraintSet.
struct RowRange {
  Ordinal first = 0, count = 0;
};

// Device-side data of a finalized set (trivially copyable; held by kernels).
struct ConstraintData {
  Ordinal num_rows = 0;
  int max_coefficients = 0;  // K: clique width
  DeviceView<int*> type;
  DeviceView<Ordinal* [4]> point;   // point slots P, Q, R, T|S (-1 unused)
  DeviceView<Real* [3]> direction;  // CD direction
  DeviceView<Real*> weight;
  DeviceView<Real*> drive;             // f(t) per row, uploaded per evaluation time
  DeviceView<int*> num_coefficients;   // unique coefficients of each row
  DeviceView<Ordinal**> coefficient;   // (row, l) unique coefficient ids, -1 padded
  DeviceView<Real** [4]> slot_weight;  // (row, l, slot): d r_slot / d e_l (scalar)
  MaterialPointSet points;             // the rows' material points (point(row, k) indexes it)
  // CRS placement (after set_matrix_offsets).
  DeviceView<Offset***> offsets;         // (row, l, m)
  DeviceView<Offset*> block_row_length;  // of the pattern
};

class ConstraintSet {
 public:
  // q0: reference coefficients of the whole system (used for row weights,
  // joint reference values and point location). row_weights: see above.
  explicit ConstraintSet(const CoefView& q0, bool row_weights = true);

  // --- building (host; before finalize) ---
  Ordinal add_dp1(const MaterialPoint& P, const MaterialPoint& Q, const MaterialPoint& R,
                  const MaterialPoint& T, const DrivingFunction& f);
  Ordinal add_dp2(const MaterialPoint& P, const MaterialPoint& Q, const MaterialPoint& R,
                  const MaterialPoint& S, const DrivingFunction& f);
  Ordinal add_dist(const MaterialPoint& P, const MaterialPoint& Q, const DrivingFunction& f);
  // d is normalised.
  Ordinal add_cd(const MaterialPoint& P, const MaterialPoint& Q, const Vec3& d,
                 const DrivingFunction& f);
  // c = w (r_P^T r_Q - r_R^T r_S - f(t)), with w the row's automatic weight
  // (w > 0; the caller's scale, e.g. 1 / length to make c a length). The
  // rotation rows of a distributing coupling (docs/theory.md §5.7) are of
  // this form: r_k^T y_l - r_l^T y_k, r_k directors of body j, y_l weighted
  // sums of the coupled nodes' positions.
  Ordinal add_ddp(const MaterialPoint& P, const MaterialPoint& Q, const MaterialPoint& R,
                  const MaterialPoint& S, const DrivingFunction& f, Real w);

  // Joints between body frames i and j (either may be a ground frame). A
  // joint whose frames are degenerate throws Error and adds nothing.
  RowRange add_spherical(const JointFrame& i, const JointFrame& j);
  RowRange add_universal(const JointFrame& i, const JointFrame& j);
  RowRange add_revolute(const JointFrame& i, const JointFrame& j);
  RowRange add_fixed(const JointFrame& i, const JointFrame& j);
  RowRange add_cylindrical(const JointFrame& i, const JointFrame& j);
  RowRange add_prismatic(const JointFrame& i, const JointFrame& j);

  // Driven rotation of frame j relative to frame i about the unit axis u
  // (right-handed; the axis of a revolute or cylindrical joint between the
  // same frames, added separately): frame j's cross1 fiber a, measured
  // against frame i's cross fibers b1, b2, is held at the reference one
  // rotated by theta(t) (the reference configuration is theta = 0). Two DP1 rows,
  //   b1^T a = |b1| (alpha cos theta - beta sin theta),
  //   b2^T a = s2 |b2| (alpha sin theta + beta cos theta),
  // with alpha, beta the reference components of a along e1 = b1/|b1| and
  // e2 = u x e1, and s2 = sign(b2 . e2). One row alone is singular where its
  // target is extremal (e.g. a cos-driven row at theta = 0, pi); the pair
  // has full rank 1 along the rotation at every angle, so a crank can turn
  // through any number of revolutions. The two rows are redundant (rank 1
  // together): the augmented-Lagrangian iteration needs no independent rows.
  RowRange add_rotation_driver(const JointFrame& i, const JointFrame& j, const Vec3& u,
                               const DrivingFunction& theta);

  // Reference values, for building driven rows.
  Vec3 reference_position(const MaterialPoint& p) const { return point_position(p, q0_); }
  // The row weight in use (1 when weights are off); set_row_weight overrides
  // the automatic one (before finalize; ignored when weights are off).
  Real row_weight(Ordinal row) const;
  void set_row_weight(Ordinal row, Real w);
  PrimitiveType row_type(Ordinal row) const { return rows_.at(row).type; }

  // Uploads rows and points; after this no row can be added.
  void finalize();
  bool finalized() const { return finalized_; }
  Ordinal num_rows() const { return static_cast<Ordinal>(rows_.size()); }

  // --- evaluation (device kernels; no allocation) ---
  // c = weighted constraint values at (q, t); c has num_rows() entries.
  void evaluate(const CoefView& q, Real t, const DeviceView<Real*>& c);
  // f += C_q^T y (C_q of the weighted rows; y one value per row). The
  // Jacobian does not depend on t; t is accepted for a uniform interface.
  void apply_jacobian_transpose(const CoefView& q, Real t, const DeviceView<Real*>& y,
                                const CoefView& f) const;
  // All coefficients each row touches (width max_coefficients, -1 padded),
  // one clique per row, for build_crs_pattern; then the offsets it returned.
  CliqueSet jacobian_cliques() const;
  void set_matrix_offsets(const CrsPattern& pattern, DeviceView<Offset***> offsets);
  // values += scale C_q^T C_q.
  void assemble_gauss_newton(const CoefView& q, Real t, Real scale,
                             const DeviceView<Real*>& values) const;
  // values += scale sum_i eta_i grad^2 c_i over DP1, DP2, DIST and DDP rows (their
  // Hessians are constant; CD rows have none). q is not read.
  void assemble_dp1_hessian(const CoefView& q, const DeviceView<Real*>& eta, Real scale,
                            const DeviceView<Real*>& values) const;
  // Euclidean norm of c (weighted rows) and its largest entry in magnitude.
  Real violation_norm(const DeviceView<Real*>& c) const;
  Real violation_max(const DeviceView<Real*>& c) const;

  const ConstraintData& data() const { return data_; }

 private:
  struct Row {
    PrimitiveType type;
    Ordinal point[4];
    Vec3 direction;
    Real weight;  // automatic weight (applied only when row_weights_)
    DrivingFunction f;
  };
  Ordinal add_point(const MaterialPoint& p);
  Ordinal add_row(Row row);
  // Adds the rows of joint `kind` (constraint_set.cpp's table) all or none.
  RowRange add_joint(int kind, const JointFrame& i, const JointFrame& j);
  // Calls build(); where it throws, removes the rows and points it added.
  template <class Build>
  RowRange all_or_nothing(const Build& build);
  void require_finalized(const char* what) const;
  void upload_drive(Real t);

  CoefViewHost q0_;
  bool row_weights_;
  bool finalized_ = false;
  MaterialPointSetHost points_;
  std::vector<Row> rows_;
  ConstraintData data_;
  DeviceView<Real*>::HostMirror drive_host_;
  Real drive_time_ = 0.0;
  bool drive_valid_ = false;
};

}  // namespace tlfea
