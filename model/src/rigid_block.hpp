// TLFEA (internal): the element block of one rigid body in natural
// coordinates (docs/theory.md §10; rigid_body.hpp). One "element" of four
// coefficients (r, r_1, r_2, r_3) with the shape functions
//   s(xi) = (1, L_1 xi_1, L_2 xi_2, L_3 xi_3)   (X = L .* xi, §10.1),
// L the half-extents of the body's box, so the parent domain [-1, 1]^3 of a
// hexahedral element is the box and locate_material_point / body_joint_frame
// find material points on the body as on any other block. It reports
// ElementType::ANCF3243 only for that parent-domain convention and its four
// coefficients per node; Model::is_rigid() tells rigid bodies apart.
#pragma once

#include "tlfea/elements/element_block.hpp"
#include "tlfea/model/rigid_body.hpp"

namespace tlfea {

class RigidBlock final : public ElementBlockBase {
 public:
  RigidBlock(const RigidBodySpec& spec, Ordinal offset);

  ElementType element_type() const override { return ElementType::ANCF3243; }
  std::string material_name() const override { return "rigid"; }
  bool is_viscous() const override { return false; }
  Real density() const override { return 0.0; }
  Ordinal num_elements() const override { return 1; }
  int coefficients_per_element() const override { return 4; }
  int quadrature_points() const override { return 0; }
  CliqueSet cliques() const override;
  void set_matrix_offsets(const CrsPattern& pattern, DeviceView<Offset***> offsets) override;
  // No internal force and no tangent: rigidity is a constraint (§10.2).
  void internal_force(const CoefView&, const CoefView&, const CoefView&) const override {}
  void tangent(const CoefView&, const CoefView&, Real, Real,
               const DeviceView<Real*>&) const override {}
  void mass(const CoefView& q0, Real alpha, const DeviceView<Real*>& values) const override;
  void block_mass(const CoefView& q0, Real alpha, const DeviceView<Offset*>& row_map,
                  const DeviceView<Real*>& blocks) const override;
  void body_force(const CoefView& q0, const Vec3& b, const CoefView& f) const override;
  void dead_traction(const CoefView&, const FaceList& faces, const Vec3&,
                     const CoefView&) const override;
  void follower_pressure(const CoefView&, const FaceList& faces, Real,
                         const CoefView&) const override;
  void follower_pressure_tangent(const CoefView&, const FaceList& faces, Real, Real,
                                 const DeviceView<Real*>&) const override;
  Real strain_energy(const CoefView&) const override { return 0.0; }
  Real volume(const CoefView&) const override { return volume_; }
  DeviceView<Real** [9]> deformation_gradients(const CoefView&) const override {
    return DeviceView<Real** [9]>("tlfea::model::rigid_F", 1, 0);
  } std::vector<Real> shape_at(Ordinal element, const Real xi[3]) const override;
  std::vector<Ordinal> element_coefficients(Ordinal element) const override;
  std::vector<std::vector<Ordinal>> element_colours() const override { return {{0}}; }
  // Every loop of this block writes each coefficient from one work item (no
  // shared coefficients to scatter into), so no policy changes its result.
  ScatterPolicy scatter() const override { return ScatterPolicy::Plain; }
  void set_scatter(ScatterPolicy) override {}

  // A torque T (world axes) as generalized forces on the directors (§10.4):
  //   f_{r_k} += (s/2) T x r_k,  k = 1, 2, 3,
  // whose virtual work sum_k f_k . (dtheta x r_k) = dtheta . T for
  // orthonormal r_k; and values += alpha (s/2) [T]_x on the (r_k, r_k) blocks.
  void torque(const CoefView& q, const Vec3& T, Real s, const CoefView& f) const;
  void torque_tangent(const Vec3& T, Real s, Real alpha, const DeviceView<Real*>& values) const;

  const RigidBodySpec& spec() const { return spec_; }
  const Vec3& extent() const { return L_; }
  Ordinal offset() const { return offset_; }

 private:
  RigidBodySpec spec_;
  Ordinal offset_;
  Vec3 L_;
  Real M_[16];
  Real volume_ = 0.0;
  DeviceView<Offset***> offsets_;
  DeviceView<Offset*> block_row_length_;
};

}  // namespace tlfea
