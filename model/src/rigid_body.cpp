// TLFEA: rigid bodies in natural coordinates (docs/theory.md §10).
#include "tlfea/model/rigid_body.hpp"

#include <algorithm>
#include <cmath>

#include "rigid_block.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {

namespace {

constexpr Real kPi = 3.14159265358979323846;
constexpr Real kNoExtent = 1e3;  // half-extent of a body without shape: any point

Mat3 diag3(Real a, Real b, Real c) {
  Mat3 A = zero3();
  A(0, 0) = a;
  A(1, 1) = b;
  A(2, 2) = c;
  return A;
}

// values += alpha M_ij on the diagonal of block (i, j) (M (x) I_3).
struct RigidMass {
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> len;
  Ordinal off;
  Real M[16];
  Real alpha;
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const Offset l = len(off + i);
    for (int j = 0; j < 4; ++j) {
      const Offset o = offsets(0, i, j);
      for (int r = 0; r < 3; ++r) values(o + r * l + r) += alpha * M[4 * i + j];
    }
  }
};

// The same M once per 3 x 3 block (ElementBlockBase::block_mass): block
// row_map(3 c) / 9 + (o - row_map(3 c)) / 3 of coefficient c = off + i.
struct RigidBlockMass {
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> row_map;
  Ordinal off;
  Real M[16];
  Real alpha;
  DeviceView<Real*> blocks;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const Offset first = row_map(3 * (off + i));
    for (int j = 0; j < 4; ++j)
      blocks(first / 9 + (offsets(0, i, j) - first) / 3) += alpha * M[4 * i + j];
  }
};

// f_i += b int rho s_i dV = b M_0i (s_0 = 1).
struct RigidBodyForce {
  CoefView f;
  Ordinal off;
  Real m0[4];
  Real b[3];
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    for (int a = 0; a < 3; ++a) f(off + i, a) += m0[i] * b[a];
  }
};

// f_{r_k} += c T x r_k (c = s / 2), k = 1..3 (§10.4).
struct RigidTorque {
  CoefView q, f;
  Ordinal off;
  Real T[3];
  Real c;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    const Ordinal i = off + k;
    f(i, 0) += c * (T[1] * q(i, 2) - T[2] * q(i, 1));
    f(i, 1) += c * (T[2] * q(i, 0) - T[0] * q(i, 2));
    f(i, 2) += c * (T[0] * q(i, 1) - T[1] * q(i, 0));
  }
};

// values += c [T]_x on the (r_k, r_k) blocks, k = 1..3.
struct RigidTorqueTangent {
  DeviceView<Offset***> offsets;
  DeviceView<Offset*> len;
  DeviceView<Real*> values;
  Ordinal off;
  Real T[3];
  Real c;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    const Offset o = offsets(0, k, k), l = len(off + k);
    if (o < 0) return;  // a row another rank holds (Model::row_layout)
    const Real S[9] = {0.0, -T[2], T[1], T[2], 0.0, -T[0], -T[1], T[0], 0.0};
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s) values(o + r * l + s) += c * S[3 * r + s];
  }
};

}  // namespace

void rigid_mass_matrix(const RigidBodySpec& spec, Real M[16]) {
  // S = int rho X X^T dV = (tr I_c / 2) 1 - I_c  (I_c = int rho (|X|^2 1 - X X^T) dV).
  const Real half_trace = 0.5 * (spec.inertia(0, 0) + spec.inertia(1, 1) + spec.inertia(2, 2));
  for (int k = 0; k < 16; ++k) M[k] = 0.0;
  M[0] = spec.mass;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      M[4 * (a + 1) + (b + 1)] =
          (a == b ? half_trace : 0.0) - 0.5 * (spec.inertia(a, b) + spec.inertia(b, a));
}

RigidBodySpec rigid_body_from_mesh(const Mesh& mesh, Real density) {
  if (mesh.type != ElementType::T10 && mesh.type != ElementType::Q27)
    throw_error(mesh.source, ": a rigid body's mesh must be T10 or Q27, not ",
                to_string(mesh.type));
  check_mesh(mesh);
  MaterialSpec mat;  // any material: only the mass integration is used
  mat.lambda = 1.0;
  mat.mu = 1.0;
  auto block = make_element_block(mesh, 0, mat, density);
  const Ordinal n = mesh.num_coefficients();
  std::vector<DeviceView<Offset***>> offs;
  const CrsPattern pat = build_crs_pattern(n, {block->cliques()}, offs);
  block->set_matrix_offsets(pat, offs[0]);
  DeviceView<Real*> values("tlfea::model::rigid_mesh_mass", pat.nnz());
  CoefView q0("tlfea::model::rigid_mesh_q0", n);
  copy_reference_coefficients(mesh, 0, q0);
  block->mass(q0, 1.0, values);
  auto rm = to_host(pat.row_map);
  auto en = to_host(pat.entries);
  auto mv = to_host(values);
  // Scalar rows 3i (x-rows) hold M_ij at columns 3j.
  Real m = 0.0, mx[3] = {0, 0, 0}, xx[3][3] = {};
  for (Ordinal i = 0; i < n; ++i)
    for (Offset k = rm(3 * i); k < rm(3 * i + 1); ++k) {
      if (en(k) % 3 != 0) continue;
      const Ordinal j = en(k) / 3;
      const Real Mij = mv(k);
      const auto& xi = mesh.coefficients[i];
      const auto& xj = mesh.coefficients[j];
      m += Mij;
      for (int a = 0; a < 3; ++a) {
        mx[a] += Mij * xj[a];
        for (int b = 0; b < 3; ++b) xx[a][b] += Mij * xi[a] * xj[b];
      }
    }
  if (!(m > 0)) throw_error(mesh.source, ": rigid body mesh has no mass");
  RigidBodySpec s;
  s.mass = m;
  for (int a = 0; a < 3; ++a) s.center[a] = mx[a] / m;
  // About the centre: S_c = int rho X X^T = xx - m c c^T; I_c = tr(S_c) 1 - S_c.
  Real Sc[3][3];
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) Sc[a][b] = xx[a][b] - m * s.center[a] * s.center[b];
  const Real tr = Sc[0][0] + Sc[1][1] + Sc[2][2];
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) s.inertia(a, b) = (a == b ? tr : 0.0) - 0.5 * (Sc[a][b] + Sc[b][a]);
  s.shape = mesh;
  return s;
}

RigidBodySpec rigid_box(const Vec3& center, const Vec3& size, Real density) {
  RigidBodySpec s;
  s.mass = density * size[0] * size[1] * size[2];
  s.center = center;
  const Real a2 = size[0] * size[0], b2 = size[1] * size[1], c2 = size[2] * size[2];
  s.inertia = diag3(s.mass * (b2 + c2) / 12, s.mass * (a2 + c2) / 12, s.mass * (a2 + b2) / 12);
  s.extent = Vec3{{0.5 * size[0], 0.5 * size[1], 0.5 * size[2]}};
  return s;
}

RigidBodySpec rigid_sphere(const Vec3& center, Real radius, Real density) {
  RigidBodySpec s;
  s.mass = density * 4.0 / 3.0 * kPi * radius * radius * radius;
  s.center = center;
  const Real I = 0.4 * s.mass * radius * radius;
  s.inertia = diag3(I, I, I);
  s.extent = Vec3{{radius, radius, radius}};
  return s;
}

RigidBodySpec rigid_cylinder(const Vec3& center, Real radius, Real length, Real density) {
  RigidBodySpec s;
  s.mass = density * kPi * radius * radius * length;
  s.center = center;
  const Real Ix = s.mass * (3 * radius * radius + length * length) / 12;
  s.inertia = diag3(Ix, Ix, 0.5 * s.mass * radius * radius);
  s.extent = Vec3{{radius, radius, 0.5 * length}};
  return s;
}

RigidBlock::RigidBlock(const RigidBodySpec& spec, Ordinal offset) : spec_(spec), offset_(offset) {
  if (!(spec.mass > 0)) throw_error("rigid body ", spec.name, ": mass must be positive");
  // I_c symmetric positive semi-definite with the triangle inequalities of a
  // body: S = tr(I)/2 - I must be positive semi-definite (second moments).
  rigid_mass_matrix(spec, M_);
  for (int a = 0; a < 3; ++a) {
    if (M_[5 * (a + 1)] < -1e-12 * (M_[5] + M_[10] + M_[15] + 1e-300) ||
        !std::isfinite(M_[5 * (a + 1)]))
      throw_error("rigid body ", spec.name,
                  ": inertia tensor violates I_aa <= I_bb + I_cc (not a physical body)");
  }
  // Box of material points: given, else the shape's around the centre, with
  // a 5 % margin (so that fibres from points on edges stay inside); else any
  // point.
  Real shape_ext[3] = {0.0, 0.0, 0.0};
  for (const auto& x : spec.shape.coefficients)
    for (int a = 0; a < 3; ++a)
      shape_ext[a] = std::max(shape_ext[a], std::fabs(x[a] - spec.center[a]));
  for (int a = 0; a < 3; ++a) {
    Real L = spec.extent[a];
    if (!(L > 0)) L = shape_ext[a] > 0 ? shape_ext[a] : kNoExtent;
    L_[a] = L < kNoExtent ? 1.05 * L : L;
  }
  volume_ = 8.0 * L_[0] * L_[1] * L_[2];
  if (!spec.shape.connectivity.empty()) {
    auto blk = make_element_block(spec.shape, 0, MaterialSpec{}, 1.0);
    CoefView q0("tlfea::model::rigid_shape_q0", spec.shape.num_coefficients());
    copy_reference_coefficients(spec.shape, 0, q0);
    volume_ = blk->volume(q0);
  }
}

CliqueSet RigidBlock::cliques() const {
  CliqueSet c;
  c.size = 4;
  for (int i = 0; i < 4; ++i) c.ids.push_back(offset_ + i);
  return c;
}

void RigidBlock::set_matrix_offsets(const CrsPattern& pattern, DeviceView<Offset***> offsets) {
  offsets_ = offsets;
  block_row_length_ = pattern.block_row_length;
}

void RigidBlock::mass(const CoefView&, Real alpha, const DeviceView<Real*>& values) const {
  RigidMass f{offsets_, block_row_length_, offset_, {}, alpha, values};
  for (int k = 0; k < 16; ++k) f.M[k] = M_[k];
  Kokkos::parallel_for("tlfea::model::rigid_mass", Kokkos::RangePolicy<ExecSpace>(0, 4), f);
}

void RigidBlock::block_mass(const CoefView&, Real alpha, const DeviceView<Offset*>& row_map,
                            const DeviceView<Real*>& blocks) const {
  RigidBlockMass f{offsets_, row_map, offset_, {}, alpha, blocks};
  for (int k = 0; k < 16; ++k) f.M[k] = M_[k];
  Kokkos::parallel_for("tlfea::model::rigid_block_mass", Kokkos::RangePolicy<ExecSpace>(0, 4), f);
}

void RigidBlock::body_force(const CoefView&, const Vec3& b, const CoefView& f) const {
  RigidBodyForce k{f, offset_, {M_[0], M_[1], M_[2], M_[3]}, {b[0], b[1], b[2]}};
  Kokkos::parallel_for("tlfea::model::rigid_body_force", Kokkos::RangePolicy<ExecSpace>(0, 4), k);
}

void RigidBlock::dead_traction(const CoefView&, const FaceList& faces, const Vec3&,
                               const CoefView&) const {
  if (faces.size() > 0) throw_error("rigid body ", spec_.name, ": no faces for a traction");
}
void RigidBlock::follower_pressure(const CoefView&, const FaceList& faces, Real,
                                   const CoefView&) const {
  if (faces.size() > 0) throw_error("rigid body ", spec_.name, ": no faces for a pressure");
}
void RigidBlock::follower_pressure_tangent(const CoefView&, const FaceList& faces, Real, Real,
                                           const DeviceView<Real*>&) const {
  if (faces.size() > 0) throw_error("rigid body ", spec_.name, ": no faces for a pressure");
}

std::vector<Real> RigidBlock::shape_at(Ordinal element, const Real xi[3]) const {
  if (element != 0) throw_error("rigid body ", spec_.name, ": element ", element, " out of range");
  return {1.0, L_[0] * xi[0], L_[1] * xi[1], L_[2] * xi[2]};
}

std::vector<Ordinal> RigidBlock::element_coefficients(Ordinal element) const {
  if (element != 0) throw_error("rigid body ", spec_.name, ": element ", element, " out of range");
  return {offset_, offset_ + 1, offset_ + 2, offset_ + 3};
}

void RigidBlock::torque(const CoefView& q, const Vec3& T, Real s, const CoefView& f) const {
  RigidTorque k{q, f, offset_, {T[0], T[1], T[2]}, 0.5 * s};
  Kokkos::parallel_for("tlfea::model::rigid_torque", Kokkos::RangePolicy<ExecSpace>(1, 4), k);
}

void RigidBlock::torque_tangent(const Vec3& T, Real s, Real alpha,
                                const DeviceView<Real*>& values) const {
  RigidTorqueTangent k{offsets_, block_row_length_,  values,
                       offset_,  {T[0], T[1], T[2]}, 0.5 * s * alpha};
  Kokkos::parallel_for("tlfea::model::rigid_torque_tangent", Kokkos::RangePolicy<ExecSpace>(1, 4),
                       k);
}

}  // namespace tlfea
