// TLFEA: a block of elements of one type and one material, behind a host-side
// interface. The virtual dispatch happens once per kernel launch on the host;
// the kernels themselves are the templated functors of kernels.hpp,
// instantiated for the closed set of element x material combinations.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/elements/scatter_policy.hpp"
#include "tlfea/materials/material_spec.hpp"

namespace tlfea {

// A list of faces (block-local element id, local face) carrying a surface load.
struct FaceList {
  DeviceView<Ordinal*> element;
  DeviceView<int*> face;
  Ordinal size() const { return static_cast<Ordinal>(element.extent(0)); }
};
FaceList make_face_list(const std::vector<FaceRef>& faces);

class ElementBlockBase {
 public:
  virtual ~ElementBlockBase() = default;
  virtual ElementType element_type() const = 0;
  virtual std::string material_name() const = 0;
  virtual bool is_viscous() const = 0;
  virtual Real density() const = 0;
  virtual Ordinal num_elements() const = 0;
  virtual int coefficients_per_element() const = 0;
  virtual int quadrature_points() const = 0;
  // True when the block integrates the ANCF 3243 / 3443 Poisson split
  // (poisson_split.hpp; MaterialSpec::ancf3243_poisson_split /
  // ancf3443_poisson_split), false for the plain continuum element and every
  // other element.
  virtual bool poisson_split() const { return false; }
  // Shapes of internal_force and tangent (scatter_policy.hpp): by default
  // default_kernel_shapes_for<ExecSpace>(block has a lane force);
  // set_kernel_shapes overrides them (tests and benchmarks force one shape)
  // and throws tlfea::Error for a shape the block lacks (Lanes on a block
  // without a lane loop, or on the tangent). Same results to round-off.
  virtual KernelShapes kernel_shapes() const { return {}; }
  virtual void set_kernel_shapes(KernelShapes) {}

  // Builds what internal_force, tangent, strain_energy and
  // deformation_gradients read besides the element list: the shape-function
  // gradients at every stiffness point (geometry.hpp: E::nq x n x 3 doubles
  // per element, most of a block's memory), if not built yet. A block builds
  // it at the first of those calls otherwise, so that a block only used for
  // the setup sums (mass, loads, pattern) never holds it: a T10 or Q27 body's
  // whole block on several MPI ranks, where each rank evaluates its own
  // elements (Model::release_block). A TimeStepper prepares every block it
  // evaluates at its setup, so that no step allocates. prepared() says
  // whether it is built.
  virtual void prepare() const {}
  virtual bool prepared() const { return true; }

  // Element coefficient lists, for the CRS pattern; then the offsets the
  // pattern builder returned for them.
  virtual CliqueSet cliques() const = 0;
  virtual void set_matrix_offsets(const CrsPattern& pattern, DeviceView<Offset***> offsets) = 0;

  // f += f_int(q, v).
  virtual void internal_force(const CoefView& q, const CoefView& v, const CoefView& f) const = 0;
  // values += alpha_K K(q, v) + alpha_D D(q, v) (D: Kelvin-Voigt velocity tangent).
  virtual void tangent(const CoefView& q, const CoefView& v, Real alpha_K, Real alpha_D,
                       const DeviceView<Real*>& values) const = 0;
  // values += alpha M (x) I3, M from the reference coefficients q0.
  virtual void mass(const CoefView& q0, Real alpha, const DeviceView<Real*>& values) const = 0;
  // The same M kept once per 3 x 3 block (Model::block_mass, docs/theory.md
  // §3.5): blocks(row_map(3 i) / 9 + (o - row_map(3 i)) / 3) += alpha M_ij,
  // o the offset of entry (3 i, 3 j) in the whole pattern (row_map its row
  // map; the block's offsets set for that pattern), so no nnz-sized array is
  // assembled.
  virtual void block_mass(const CoefView& q0, Real alpha, const DeviceView<Offset*>& row_map,
                          const DeviceView<Real*>& blocks) const = 0;
  // f += rho b int s dV.
  virtual void body_force(const CoefView& q0, const Vec3& b, const CoefView& f) const = 0;
  // Dead traction t0 (force per reference area) on faces: f += int s t0 dA0.
  virtual void dead_traction(const CoefView& q0, const FaceList& faces, const Vec3& t0,
                             const CoefView& f) const = 0;
  // Follower pressure p on faces in the configuration q: f += -p int s n da.
  virtual void follower_pressure(const CoefView& q, const FaceList& faces, Real p,
                                 const CoefView& f) const = 0;
  // values += alpha d(f_pressure)/dq.
  virtual void follower_pressure_tangent(const CoefView& q, const FaceList& faces, Real p,
                                         Real alpha, const DeviceView<Real*>& values) const = 0;
  // Sum of Psi(F) dV (elastic part).
  virtual Real strain_energy(const CoefView& q) const = 0;
  // Reference volume int dV (mass rule).
  virtual Real volume(const CoefView& q0) const = 0;
  // F at every stiffness quadrature point: (element, point, 3a+B).
  virtual DeviceView<Real** [9]> deformation_gradients(const CoefView& q) const = 0;
  // Shape functions at a material point (host), for tests and constraints.
  virtual std::vector<Real> shape_at(Ordinal element, const Real xi[3]) const = 0;
  // Global coefficient ids of an element (host copy).
  virtual std::vector<Ordinal> element_coefficients(Ordinal element) const = 0;
  // The block's element colouring (host copy of each colour's element list).
  virtual std::vector<std::vector<Ordinal>> element_colours() const = 0;
  // How the element and load loops scatter (scatter_policy.hpp): by default
  // default_scatter_policy_for<ExecSpace>(); set_scatter overrides it (e.g.
  // to compare the paths; Plain throws on a space with several threads).
  virtual ScatterPolicy scatter() const = 0;
  virtual void set_scatter(ScatterPolicy p) = 0;
  // Shorthand: true selects Coloured, false the default policy.
  bool coloured_assembly() const { return scatter() == ScatterPolicy::Coloured; }
  void set_coloured_assembly(bool on) {
    set_scatter(on ? ScatterPolicy::Coloured : default_scatter_policy_for<ExecSpace>());
  }
};

// Host-side factory: maps (mesh element type, material spec) to the matching
// instantiation. `coef_offset` is the global id of the mesh's coefficient 0.
std::unique_ptr<ElementBlockBase> make_element_block(const Mesh& mesh, Ordinal coef_offset,
                                                     const MaterialSpec& material, Real density);

// Uploads a mesh's reference coefficients into rows [offset, offset + n) of q0.
void copy_reference_coefficients(const Mesh& mesh, Ordinal offset, const CoefView& q0);

}  // namespace tlfea
