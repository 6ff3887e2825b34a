// Constraint primitives, joints and their Jacobian / Hessian kernels, checked
// against central finite differences of the code's own constraint values,
// dense host products (Eigen) and the mobility counts of docs/theory.md §5.5.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Three bodies: a T10 box [0,1]x[0,0.8]x[0,0.6]; an ANCF 3243 beam from the
// centre of the box's xmax face, (1, 0.4, 0.3), along +x to x = 2; an ANCF
// 3443 plate well away from both (used by the primitive tests only).
struct Bodies {
  std::vector<Mesh> mesh;
  std::vector<std::unique_ptr<ElementBlockBase>> block;
  std::vector<Ordinal> offset;
  Ordinal ncoef = 0;
  CoefView q0;
  CoefViewHost q0h;
  const ElementBlockBase& box() const { return *block[0]; }
  const ElementBlockBase& beam() const { return *block[1]; }
  const ElementBlockBase& plate() const { return *block[2]; }
  Ordinal ndof() const { return 3 * ncoef; }
};

void translate(Mesh& m, const Real c[3]) {
  const int cpn = m.coefficients_per_node();
  for (size_t k = 0; k < m.coefficients.size(); k += cpn)
    for (int a = 0; a < 3; ++a) m.coefficients[k][a] += c[a];
}

Bodies make_bodies() {
  Bodies b;
  b.mesh.push_back(generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {2, 1, 1}));
  b.mesh.push_back(generate_beam_ancf3243(1.0, 0.1, 0.08, 2));
  const Real beam_at[3] = {1.0, 0.4, 0.3};
  translate(b.mesh[1], beam_at);
  b.mesh.push_back(generate_plate_ancf3443(0.5, 0.4, 0.02, {1, 1}));
  const Real plate_at[3] = {0.2, -1.0, 2.0};
  translate(b.mesh[2], plate_at);
  const MaterialSpec mat = MaterialSpec::svk(2e6, 0.3);
  for (const Mesh& m : b.mesh) {
    b.offset.push_back(b.ncoef);
    b.block.push_back(make_element_block(m, b.ncoef, mat, 1000.0));
    b.ncoef += m.num_coefficients();
  }
  b.q0 = CoefView("q0", b.ncoef);
  for (size_t i = 0; i < b.mesh.size(); ++i)
    copy_reference_coefficients(b.mesh[i], b.offset[i], b.q0);
  b.q0h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.q0);
  return b;
}

CoefView to_device(const CoefViewHost& h) {
  CoefView d("q", h.extent(0));
  Kokkos::deep_copy(d, h);
  return d;
}
CoefViewHost copy(const CoefViewHost& h) {
  CoefViewHost c("copy", h.extent(0));
  Kokkos::deep_copy(c, h);
  return c;
}

CoefViewHost random_configuration(const Bodies& b, Real amplitude, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  CoefViewHost q = copy(b.q0h);
  for (Ordinal k = 0; k < b.ncoef; ++k)
    for (int a = 0; a < 3; ++a) q(k, a) += amplitude * u(gen);
  return q;
}

// Rotation about a unit axis (Rodrigues).
Eigen::Matrix3d rotation(const Eigen::Vector3d& axis, Real angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// q = R (q0 - X0) + X1 on positions, R q0 on gradient coefficients, for the
// coefficients of the listed bodies (others copied from q).
void rigid_motion(const Bodies& b, const std::vector<int>& bodies, const Eigen::Matrix3d& R,
                  const Eigen::Vector3d& X0, const Eigen::Vector3d& X1, CoefViewHost& q) {
  for (int i : bodies) {
    const int cpn = b.mesh[i].coefficients_per_node();
    for (Ordinal k = 0; k < b.mesh[i].num_coefficients(); ++k) {
      const Ordinal g = b.offset[i] + k;
      const bool position = (k % cpn) == 0;
      Eigen::Vector3d x(b.q0h(g, 0), b.q0h(g, 1), b.q0h(g, 2));
      if (position) x -= X0;
      Eigen::Vector3d y = R * x;
      if (position) y += X1;
      for (int a = 0; a < 3; ++a) q(g, a) = y[a];
    }
  }
}

std::vector<Real> values(ConstraintSet& cs, const CoefViewHost& qh, Real t) {
  DeviceView<Real*> c("c", cs.num_rows());
  cs.evaluate(to_device(qh), t, c);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  return std::vector<Real>(h.data(), h.data() + cs.num_rows());
}

// f = C_q^T y as a dense vector (dof 3 k + a).
VectorXd jacobian_transpose_times(const ConstraintSet& cs, const CoefView& q,
                                  const std::vector<Real>& y) {
  DeviceView<Real*> yd("y", cs.num_rows());
  auto yh = Kokkos::create_mirror_view(yd);
  for (Ordinal i = 0; i < cs.num_rows(); ++i) yh(i) = y[i];
  Kokkos::deep_copy(yd, yh);
  CoefView f("f", q.extent(0));
  cs.apply_jacobian_transpose(q, 0.0, yd, f);
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  VectorXd out(3 * q.extent(0));
  for (size_t k = 0; k < q.extent(0); ++k)
    for (int a = 0; a < 3; ++a) out[3 * k + a] = fh(k, a);
  return out;
}

// Dense Jacobian, row i = C_q^T e_i.
MatrixXd jacobian(const ConstraintSet& cs, const CoefViewHost& qh) {
  const CoefView q = to_device(qh);
  MatrixXd J(cs.num_rows(), 3 * qh.extent(0));
  for (Ordinal i = 0; i < cs.num_rows(); ++i) {
    std::vector<Real> e(cs.num_rows(), 0.0);
    e[i] = 1.0;
    J.row(i) = jacobian_transpose_times(cs, q, e).transpose();
  }
  return J;
}

MatrixXd dense(const CrsPattern& p, const DeviceView<Real*>& v) {
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.entries);
  auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  MatrixXd A = MatrixXd::Zero(p.num_rows(), p.num_rows());
  for (Ordinal r = 0; r < p.num_rows(); ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k) A(r, en(k)) += va(k);
  return A;
}

int rank(const MatrixXd& A, Real rel = 1e-9) {
  Eigen::JacobiSVD<MatrixXd> svd(A);
  const auto& s = svd.singularValues();
  int r = 0;
  for (int i = 0; i < s.size(); ++i) r += s[i] > rel * s[0] ? 1 : 0;
  return r;
}

// The five primitives on points of all three bodies and the ground, some
// sharing a point between slots (DP2 with R = P, as the cylindrical joint).
struct PrimitiveFixture {
  Bodies b = make_bodies();
  ConstraintSet cs{b.q0};
  PrimitiveFixture() {
    const Real x1[3] = {0.2, 0.3, 0.1}, x2[3] = {0.3, -0.2, 0.5}, x3[3] = {-0.5, 0.4, -0.3},
               x4[3] = {0.1, 0.15, 0.6}, x5[3] = {0.2, -0.7, 0.4};
    const MaterialPoint P = make_material_point(b.box(), 3, x1);
    const MaterialPoint Q = make_material_point(b.beam(), 1, x2);
    const MaterialPoint R = make_material_point(b.beam(), 0, x3);
    const MaterialPoint T = make_material_point(b.box(), 7, x4);
    const MaterialPoint S = make_material_point(b.plate(), 0, x5);
    const MaterialPoint G = ground_point(Vec3{{0.3, 2.0, -0.4}});
    cs.add_dp1(P, Q, R, T, DrivingFunction::constant(0.1));
    cs.add_dp1(P, S, Q, G, DrivingFunction::linear(0.05, 0.2));
    cs.add_dp2(P, Q, P, S, DrivingFunction::linear(-0.1, 0.3));
    cs.add_dist(P, Q, DrivingFunction::sinusoid(0.8, 0.1, 2.0));
    cs.add_dist(G, S, DrivingFunction::function([](Real t) { return 2.0 + t * t; }));
    cs.add_cd(P, Q, Vec3{{1.0, 2.0, 3.0}}, DrivingFunction::constant(0.2));
    cs.add_cd(G, T, Vec3{{0.0, 0.0, 1.0}}, DrivingFunction::constant(-0.3));
    cs.add_ddp(P, Q, R, S, DrivingFunction::constant(0.4), 0.7);
    cs.add_ddp(G, T, Q, P, DrivingFunction::linear(0.1, -0.2), 1.3);
    cs.finalize();
  }
};

TEST(Constraints, JacobianRowsMatchFiniteDifferenceOfValues) {
  PrimitiveFixture fx;
  const Real t = 0.37;
  const CoefViewHost q = random_configuration(fx.b, 0.05, 11);
  const MatrixXd J = jacobian(fx.cs, q);
  // c is at most quadratic in q, so the central difference is exact up to
  // round-off ~ eps |c| / h.
  const Real h = 1e-6;
  MatrixXd Jfd(fx.cs.num_rows(), fx.b.ndof());
  for (Ordinal k = 0; k < fx.b.ncoef; ++k)
    for (int a = 0; a < 3; ++a) {
      CoefViewHost qp = copy(q), qm = copy(q);
      qp(k, a) += h;
      qm(k, a) -= h;
      const auto cp = values(fx.cs, qp, t), cm = values(fx.cs, qm, t);
      for (Ordinal i = 0; i < fx.cs.num_rows(); ++i) Jfd(i, 3 * k + a) = (cp[i] - cm[i]) / (2 * h);
    }
  for (Ordinal i = 0; i < fx.cs.num_rows(); ++i) {
    const Real scale = J.row(i).norm();
    ASSERT_GT(scale, 0.0) << "row " << i;
    EXPECT_LT((J.row(i) - Jfd.row(i)).norm(), 1e-7 * scale) << "row " << i;
  }
}

// The DDP rows' values against the definition c = w (r_P^T r_Q - r_R^T r_S
// - f(t)) evaluated on the host from the points' positions (point_position).
TEST(Constraints, DifferenceOfDotProductsRowsEvaluateTheirDefinition) {
  const Bodies b = make_bodies();
  ConstraintSet cs(b.q0);
  const Real x1[3] = {0.2, 0.3, 0.1}, x2[3] = {0.3, -0.2, 0.5}, x3[3] = {-0.5, 0.4, -0.3};
  const MaterialPoint P = make_material_point(b.box(), 3, x1);
  const MaterialPoint Q = make_material_point(b.beam(), 1, x2);
  const MaterialPoint R = make_material_point(b.plate(), 0, x3);
  const MaterialPoint G = ground_point(Vec3{{0.3, 2.0, -0.4}});
  cs.add_ddp(P, Q, R, G, DrivingFunction::linear(0.1, 0.5), 0.7);
  cs.add_ddp(G, R, P, P, DrivingFunction::constant(-0.2), 2.0);
  EXPECT_THROW(cs.add_ddp(P, Q, R, G, DrivingFunction::constant(0.0), 0.0), Error);
  cs.finalize();
  const CoefViewHost q = random_configuration(b, 0.05, 21);
  const Real t = 0.3;
  const std::vector<Real> c = values(cs, q, t);
  ASSERT_EQ(c.size(), 2u);
  const Vec3 p = point_position(P, q), qq = point_position(Q, q), r = point_position(R, q),
             g = point_position(G, q);
  EXPECT_NEAR(c[0], 0.7 * (dot(p, qq) - dot(r, g) - (0.1 + 0.5 * t)), 1e-13);
  EXPECT_NEAR(c[1], 2.0 * (dot(g, r) - dot(p, p) + 0.2), 1e-13);
}

TEST(Constraints, HessianMatchesFiniteDifferenceOfJacobian) {
  PrimitiveFixture fx;
  const CoefViewHost q = random_configuration(fx.b, 0.05, 12);
  std::vector<CliqueSet> cliques;
  for (const auto& blk : fx.b.block) cliques.push_back(blk->cliques());
  cliques.push_back(fx.cs.jacobian_cliques());
  std::vector<DeviceView<Offset***>> offsets;
  const CrsPattern pattern = build_crs_pattern(fx.b.ncoef, cliques, offsets);
  fx.cs.set_matrix_offsets(pattern, offsets.back());

  std::vector<Real> eta(fx.cs.num_rows());
  std::mt19937 gen(5);
  std::uniform_real_distribution<Real> u(-2.0, 2.0);
  for (auto& e : eta) e = u(gen);
  DeviceView<Real*> eta_d("eta", eta.size());
  auto eta_h = Kokkos::create_mirror_view(eta_d);
  for (size_t i = 0; i < eta.size(); ++i) eta_h(i) = eta[i];
  Kokkos::deep_copy(eta_d, eta_h);
  const Real scale = 2.5;
  DeviceView<Real*> vals("values", pattern.nnz());
  fx.cs.assemble_dp1_hessian(to_device(q), eta_d, scale, vals);
  const MatrixXd H = dense(pattern, vals);

  // d/dq (C_q^T eta) = sum_i eta_i grad^2 c_i; C_q is affine in q (exact FD).
  const Real h = 1e-6;
  MatrixXd Hfd(fx.b.ndof(), fx.b.ndof());
  for (Ordinal k = 0; k < fx.b.ncoef; ++k)
    for (int a = 0; a < 3; ++a) {
      CoefViewHost qp = copy(q), qm = copy(q);
      qp(k, a) += h;
      qm(k, a) -= h;
      Hfd.col(3 * k + a) = scale *
                           (jacobian_transpose_times(fx.cs, to_device(qp), eta) -
                            jacobian_transpose_times(fx.cs, to_device(qm), eta)) /
                           (2 * h);
    }
  ASSERT_GT(H.norm(), 0.0);
  EXPECT_LT((H - Hfd).norm(), 1e-7 * H.norm());
  EXPECT_LT((H - H.transpose()).norm(), 1e-14 * H.norm());
  // Indefinite (docs/theory.md §5.3): eigenvalues of both signs.
  Eigen::SelfAdjointEigenSolver<MatrixXd> eig(H);
  EXPECT_LT(eig.eigenvalues().minCoeff(), -1e-8 * H.norm());
  EXPECT_GT(eig.eigenvalues().maxCoeff(), 1e-8 * H.norm());
}

TEST(Constraints, GaussNewtonEqualsDenseJacobianProduct) {
  PrimitiveFixture fx;
  const CoefViewHost q = random_configuration(fx.b, 0.05, 13);
  std::vector<CliqueSet> cliques;
  for (const auto& blk : fx.b.block) cliques.push_back(blk->cliques());
  cliques.push_back(fx.cs.jacobian_cliques());
  std::vector<DeviceView<Offset***>> offsets;
  const CrsPattern pattern = build_crs_pattern(fx.b.ncoef, cliques, offsets);
  fx.cs.set_matrix_offsets(pattern, offsets.back());
  const Real scale = 0.7;
  DeviceView<Real*> vals("values", pattern.nnz());
  fx.cs.assemble_gauss_newton(to_device(q), 0.1, scale, vals);
  const MatrixXd A = dense(pattern, vals);
  const MatrixXd J = jacobian(fx.cs, q);
  const MatrixXd ref = scale * J.transpose() * J;
  EXPECT_LT((A - ref).norm(), 1e-13 * ref.norm());
}

TEST(Constraints, ViolationNormsOfValues) {
  PrimitiveFixture fx;
  const CoefViewHost q = random_configuration(fx.b, 0.05, 14);
  DeviceView<Real*> c("c", fx.cs.num_rows());
  fx.cs.evaluate(to_device(q), 0.2, c);
  auto ch = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  Real s = 0, m = 0;
  for (Ordinal i = 0; i < fx.cs.num_rows(); ++i) {
    s += ch(i) * ch(i);
    m = std::max(m, std::fabs(ch(i)));
  }
  EXPECT_NEAR(fx.cs.violation_norm(c), std::sqrt(s), 1e-14 * std::sqrt(s));
  EXPECT_DOUBLE_EQ(fx.cs.violation_max(c), m);
}

// ------------------------------------------------------------------ joints

enum class Joint { Spherical, Universal, Revolute, Fixed, Cylindrical, Prismatic };

RowRange add_joint(ConstraintSet& cs, Joint j, const JointFrame& a, const JointFrame& b) {
  switch (j) {
    case Joint::Spherical:
      return cs.add_spherical(a, b);
    case Joint::Universal:
      return cs.add_universal(a, b);
    case Joint::Revolute:
      return cs.add_revolute(a, b);
    case Joint::Fixed:
      return cs.add_fixed(a, b);
    case Joint::Cylindrical:
      return cs.add_cylindrical(a, b);
    case Joint::Prismatic:
      return cs.add_prismatic(a, b);
  }
  return {};
}

// A relative rigid motion of the beam: translation velocity t, angular
// velocity w about the joint point X (current configuration).
struct Motion {
  Eigen::Vector3d t, w;
};

// delta q of the beam's coefficients for a motion (box and plate fixed).
VectorXd beam_motion(const Bodies& b, const CoefViewHost& q, const Eigen::Vector3d& X,
                     const Motion& m) {
  VectorXd d = VectorXd::Zero(b.ndof());
  const int cpn = b.mesh[1].coefficients_per_node();
  for (Ordinal k = 0; k < b.mesh[1].num_coefficients(); ++k) {
    const Ordinal g = b.offset[1] + k;
    const Eigen::Vector3d x(q(g, 0), q(g, 1), q(g, 2));
    const Eigen::Vector3d v =
        (k % cpn) == 0 ? Eigen::Vector3d(m.t + m.w.cross(x - X)) : Eigen::Vector3d(m.w.cross(x));
    d.segment<3>(3 * g) = v;
  }
  return d;
}

struct JointCase {
  Joint joint;
  int m;  // docs/theory.md §5.5
  std::vector<Motion> allowed, disallowed;
};

// Joint at the beam root X0 = (1, 0.4, 0.3) with a generic axis u, cross axis
// v (normal to u), both bodies carried by a generic rigid motion (R, X1).
struct JointScene {
  Bodies b = make_bodies();
  Eigen::Vector3d X0{1.0, 0.4, 0.3}, X1{0.3, -0.2, 0.5};
  Eigen::Vector3d u = Eigen::Vector3d(1.0, 0.6, -0.4).normalized();
  Eigen::Vector3d v = u.cross(Eigen::Vector3d(0.2, 1.0, 0.3)).normalized();
  Eigen::Matrix3d R = rotation(Eigen::Vector3d(0.3, -0.5, 0.8), 0.7);
  Vec3 vec(const Eigen::Vector3d& x) const { return Vec3{{x[0], x[1], x[2]}}; }
  CoefViewHost configuration() const {
    CoefViewHost q = copy(b.q0h);
    rigid_motion(b, {0, 1, 2}, R, X0, X1, q);
    return q;
  }
};

std::vector<JointCase> joint_cases(const JointScene& s) {
  const Eigen::Vector3d u = s.R * s.u, v = s.R * s.v, n = u.cross(v), z = Eigen::Vector3d::Zero();
  const Eigen::Vector3d ex = Eigen::Vector3d::UnitX(), ey = Eigen::Vector3d::UnitY(),
                        ez = Eigen::Vector3d::UnitZ();
  return {
      {Joint::Spherical, 3, {{z, ex}, {z, ey}, {z, ez}}, {{ex, z}, {ey, z}, {ez, z}}},
      {Joint::Universal, 4, {{z, u}, {z, v}}, {{z, n}, {ex, z}, {ez, z}}},
      {Joint::Revolute, 5, {{z, u}}, {{z, v}, {z, n}, {ey, z}, {u, z}}},
      {Joint::Fixed, 6, {}, {{z, u}, {z, v}, {z, n}, {u, z}, {v, z}}},
      {Joint::Cylindrical, 4, {{z, u}, {u, z}}, {{z, v}, {z, n}, {v, z}, {n, z}}},
      {Joint::Prismatic, 5, {{u, z}}, {{z, u}, {z, v}, {z, n}, {v, z}, {n, z}}},
  };
}

void check_joint(const JointScene& s, const JointCase& jc, ConstraintSet& cs, RowRange rows,
                 const char* name) {
  SCOPED_TRACE(name);
  ASSERT_EQ(rows.count, jc.m);
  ASSERT_EQ(cs.num_rows(), jc.m);
  const CoefViewHost q = s.configuration();
  // The joint holds in the reference and so after a rigid motion of everything.
  for (Real c : values(cs, q, 0.0)) EXPECT_LT(std::fabs(c), 1e-12);
  const MatrixXd J = jacobian(cs, q);
  EXPECT_EQ(rank(J), jc.m);
  // The 6 relative rigid motions of the beam: the joint removes m of them.
  const Eigen::Vector3d X = s.R * Eigen::Vector3d::Zero() + s.X1;  // joint point now
  MatrixXd Phi(s.b.ndof(), 6);
  for (int k = 0; k < 6; ++k) {
    Motion m{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
    (k < 3 ? m.t : m.w)[k % 3] = 1.0;
    Phi.col(k) = beam_motion(s.b, q, X, m);
  }
  EXPECT_EQ(rank(J * Phi), jc.m);
  const Real Jn = J.norm();
  MatrixXd allowed(6, jc.allowed.size());
  for (size_t k = 0; k < jc.allowed.size(); ++k) {
    const VectorXd d = beam_motion(s.b, q, X, jc.allowed[k]);
    EXPECT_LT((J * d).norm(), 1e-10 * Jn * d.norm()) << "allowed motion " << k;
    allowed.col(k) << jc.allowed[k].t, jc.allowed[k].w;
  }
  // The allowed motions span the whole null space (6 - m of them, independent).
  if (!jc.allowed.empty()) EXPECT_EQ(rank(allowed), 6 - jc.m);
  for (size_t k = 0; k < jc.disallowed.size(); ++k) {
    const VectorXd d = beam_motion(s.b, q, X, jc.disallowed[k]);
    EXPECT_GT((J * d).norm(), 1e-2 * d.norm()) << "disallowed motion " << k;
  }
}

const char* joint_name(Joint j) {
  const char* names[] = {"spherical", "universal", "revolute", "fixed", "cylindrical", "prismatic"};
  return names[static_cast<int>(j)];
}

TEST(Joints, RankAndAllowedMotionsMatchSeedTable1) {
  JointScene s;
  const Real fiber = 0.02;
  for (const JointCase& jc : joint_cases(s)) {
    ConstraintSet cs(s.b.q0);
    const bool universal = jc.joint == Joint::Universal;
    const JointFrame fa = body_joint_frame(s.b.box(), s.b.q0h, s.vec(s.X0), s.vec(s.u), fiber);
    const JointFrame fb =
        body_joint_frame(s.b.beam(), s.b.q0h, s.vec(s.X0), s.vec(universal ? s.v : s.u), fiber);
    const RowRange rows = add_joint(cs, jc.joint, fa, fb);
    cs.finalize();
    check_joint(s, jc, cs, rows, joint_name(jc.joint));
  }
}

TEST(Joints, GroundJointsConstrainTheBodyOnly) {
  JointScene s;
  s.R = Eigen::Matrix3d::Identity();  // the ground does not move
  s.X1 = s.X0;
  const Real fiber = 0.02;
  for (const JointCase& jc : joint_cases(s)) {
    for (int order = 0; order < 2; ++order) {
      ConstraintSet cs(s.b.q0);
      const bool universal = jc.joint == Joint::Universal;
      const JointFrame g = ground_joint_frame(s.vec(s.X0), s.vec(s.u), fiber);
      const JointFrame fb =
          body_joint_frame(s.b.beam(), s.b.q0h, s.vec(s.X0), s.vec(universal ? s.v : s.u), fiber);
      const RowRange rows =
          order == 0 ? add_joint(cs, jc.joint, g, fb) : add_joint(cs, jc.joint, fb, g);
      cs.finalize();
      check_joint(s, jc, cs, rows, joint_name(jc.joint));
      // Only beam coefficients appear in the rows.
      const MatrixXd J = jacobian(cs, s.configuration());
      const Ordinal b0 = s.b.offset[1], b1 = b0 + s.b.mesh[1].num_coefficients();
      EXPECT_EQ(J.leftCols(3 * b0).norm(), 0.0);
      EXPECT_EQ(J.rightCols(3 * (s.b.ncoef - b1)).norm(), 0.0);
    }
  }
}

TEST(Joints, FiniteRotationAboutRevoluteAxisKeepsConstraintsExact) {
  JointScene s;
  ConstraintSet cs(s.b.q0);
  const JointFrame g = ground_joint_frame(s.vec(s.X0), s.vec(s.u), 0.02);
  const JointFrame fb = body_joint_frame(s.b.beam(), s.b.q0h, s.vec(s.X0), s.vec(s.u), 0.02);
  cs.add_revolute(g, fb);
  cs.finalize();
  CoefViewHost q = copy(s.b.q0h);
  rigid_motion(s.b, {1}, rotation(s.u, 0.9), s.X0, s.X0, q);
  for (Real c : values(cs, q, 0.0)) EXPECT_LT(std::fabs(c), 1e-12);
  // A finite rotation about the cross axis violates the DP1 rows.
  rigid_motion(s.b, {1}, rotation(s.v, 0.1), s.X0, s.X0, q);
  const auto c = values(cs, q, 0.0);
  EXPECT_GT(std::fabs(c[3]) + std::fabs(c[4]), 1e-3);
}

// Seed section 10.1: with fibers of length delta, unweighted DP1 rows are
// O(delta^2 / h) in coefficient space (both fiber ends share the element's
// shape functions) against O(1) for CD; the weights 1/delta^2 make them
// commensurate.
TEST(Joints, RowWeightsMakeDotProductRowsCommensurate) {
  JointScene s;
  const Real fiber = 1e-3;
  Real ratio[2][2];
  for (int weighted = 0; weighted < 2; ++weighted) {
    ConstraintSet cs(s.b.q0, weighted == 1);
    const JointFrame fa = body_joint_frame(s.b.box(), s.b.q0h, s.vec(s.X0), s.vec(s.u), fiber);
    const JointFrame fb = body_joint_frame(s.b.beam(), s.b.q0h, s.vec(s.X0), s.vec(s.u), fiber);
    cs.add_revolute(fa, fb);
    cs.finalize();
    const MatrixXd J = jacobian(cs, s.b.q0h);
    const Real cd = J.topRows(3).rowwise().norm().maxCoeff();
    for (int i = 3; i < 5; ++i) {
      ratio[weighted][i - 3] = J.row(i).norm() / cd;
      EXPECT_NEAR(cs.row_weight(i), weighted ? 1.0 / (fiber * fiber) : 1.0,
                  weighted ? 1e-6 / (fiber * fiber) : 0.0);
    }
  }
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k);
    EXPECT_GT(ratio[1][k], 0.1);
    EXPECT_LT(ratio[1][k], 10.0);
    EXPECT_LT(ratio[0][k], 1e-4);  // O(delta^2 / h)
    EXPECT_NEAR(ratio[1][k] / ratio[0][k], 1.0 / (fiber * fiber), 1e-6 / (fiber * fiber));
  }
}

// DIST between the beam tip and a ground point with f(t) = L0 + A sin(w t):
// translating the beam along x by 1 - f(t) satisfies the row at time t.
TEST(Constraints, DrivenDistanceVanishesAtMatchingConfiguration) {
  Bodies b = make_bodies();
  const Real xi_tip[3] = {1.0, 0.0, 0.0};
  const MaterialPoint tip = make_material_point(b.beam(), 1, xi_tip);  // at (2, 0.4, 0.3)
  const MaterialPoint G = ground_point(Vec3{{3.0, 0.4, 0.3}});
  const Real L0 = 1.0, A = 0.1, w = 3.0, t = 0.4;
  ConstraintSet cs(b.q0);
  cs.add_dist(tip, G, DrivingFunction::sinusoid(L0, A, w));
  cs.add_dist(tip, G, DrivingFunction::function([=](Real s) { return L0 + A * std::sin(w * s); }));
  cs.finalize();
  EXPECT_NEAR(cs.reference_position(tip)[0], 2.0, 1e-14);
  CoefViewHost q = copy(b.q0h);
  const Real shift = L0 - (L0 + A * std::sin(w * t));
  rigid_motion(b, {1}, Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(),
               Eigen::Vector3d(shift, 0, 0), q);
  for (Real c : values(cs, q, t)) EXPECT_LT(std::fabs(c), 1e-14);
  for (Real c : values(cs, q, 0.0)) EXPECT_GT(std::fabs(c), 1e-3);
  for (Real c : values(cs, b.q0h, 0.0)) EXPECT_LT(std::fabs(c), 1e-14);
}

TEST(Constraints, MaterialPointLocationReproducesPosition) {
  Bodies b = make_bodies();
  for (int body = 0; body < 3; ++body) {
    const Real xi[3] = {0.21, 0.17, 0.13};
    const Ordinal e = b.block[body]->num_elements() - 1;
    const MaterialPoint p = make_material_point(*b.block[body], e, xi);
    const Vec3 X = point_position(p, b.q0h);
    const MaterialPoint found = find_material_point(*b.block[body], b.q0h, X);
    const Vec3 Y = point_position(found, b.q0h);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(X[a], Y[a], 1e-12) << "body " << body;
  }
  EXPECT_THROW(find_material_point(b.box(), b.q0h, Vec3{{5.0, 5.0, 5.0}}), Error);
}

// Points on the surface, edges, corners and element boundaries of finely
// divided ANCF bodies, and joint fibres shorter than an element (e.g.
// a 5 mm fibre on a 2 x 2 cm beam of 150 or more elements was "outside"):
// each is found and reproduces its position; a point 0.1 mm outside is not.
TEST(Constraints, MaterialPointsOnSurfacesOfFineAncfBodies) {
  const MaterialSpec mat = MaterialSpec::svk(7e9, 0.33);
  auto reference = [](const Mesh& m) {
    CoefView q0("q0", m.num_coefficients());
    copy_reference_coefficients(m, 0, q0);
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q0);
  };
  auto expect_found = [](const ElementBlockBase& blk, const CoefViewHost& q0, const Vec3& X) {
    const Vec3 Y = point_position(find_material_point(blk, q0, X), q0);
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(Y[a], X[a], 1e-13) << "(" << X[0] << ", " << X[1] << ", " << X[2] << ")";
  };
  // Beam 1 m x 2 cm x 2 cm, 300 elements of 3.3 mm (x in [0, 1], |y|, |z| <= 0.01).
  const Mesh beam = generate_beam_ancf3243(1.0, 0.02, 0.02, 300);
  const auto bb = make_element_block(beam, 0, mat, 2700.0);
  const CoefViewHost qb = reference(beam);
  for (const Vec3& X : {Vec3{{0, 0, 0}}, Vec3{{0, -0.005, 0}}, Vec3{{0, -0.01, 0}},
                        Vec3{{0, -0.01, -0.01}}, Vec3{{0.5, 0.01, 0.01}}, Vec3{{0.5, 0, 0}},
                        Vec3{{1, 0, 0.01}}, Vec3{{1, 0.01, -0.01}}, Vec3{{0.123, 0.004, -0.01}}})
    expect_found(*bb, qb, X);
  EXPECT_THROW(find_material_point(*bb, qb, Vec3{{0.5, 0.0101, 0}}), Error);
  EXPECT_THROW(find_material_point(*bb, qb, Vec3{{1.0001, 0, 0}}), Error);
  // A revolute frame at the end about y with 5 mm fibres: origin X, fibres
  // 5 mm from it along the axis and two normals.
  const Vec3 X0{{0, 0, 0}};
  const JointFrame f = body_joint_frame(*bb, qb, X0, Vec3{{0, 1, 0}}, 0.005);
  const Vec3 o = point_position(f.origin, qb);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(o[a], X0[a], 1e-13);
  for (const MaterialPoint* p : {&f.axis, &f.cross1, &f.cross2}) {
    const Vec3 y = point_position(*p, qb);
    EXPECT_NEAR(std::sqrt(dot(y, y)), 0.005, 1e-13);
  }
  EXPECT_NEAR(std::fabs(point_position(f.axis, qb)[1]), 0.005, 1e-13);
  // Plate 0.5 m x 0.5 m x 1 cm, 100 x 100 elements of 5 mm (|z| <= 0.005).
  const Mesh plate = generate_plate_ancf3443(0.5, 0.5, 0.01, {100, 100});
  const auto pb = make_element_block(plate, 0, mat, 2700.0);
  const CoefViewHost qp = reference(plate);
  for (const Vec3& X :
       {Vec3{{0, 0, 0}}, Vec3{{0, 0, -0.005}}, Vec3{{0.25, 0.25, 0.005}}, Vec3{{0.5, 0.5, 0.005}},
        Vec3{{0.5, 0.1234, 0}}, Vec3{{0.0025, 0.4975, -0.004}}})
    expect_found(*pb, qp, X);
  EXPECT_THROW(find_material_point(*pb, qp, Vec3{{0.25, 0.25, 0.0051}}), Error);
}

TEST(Constraints, MisuseIsReported) {
  Bodies b = make_bodies();
  ConstraintSet cs(b.q0);
  const MaterialPoint G = ground_point(Vec3{{0, 0, 0}});
  EXPECT_THROW(cs.add_dp1(G, G, G, ground_point(Vec3{{1, 0, 0}}), DrivingFunction::constant(0)),
               Error);
  DeviceView<Real*> c("c", 1);
  EXPECT_THROW(cs.evaluate(b.q0, 0.0, c), Error);
  const JointFrame f = ground_joint_frame(Vec3{{0, 0, 0}}, Vec3{{1, 0, 0}}, 0.01);
  EXPECT_THROW(cs.add_universal(f, f), Error);  // parallel cross-pin axes
  EXPECT_EQ(cs.num_rows(), 0);                  // a failed joint adds no rows
}

}  // namespace
}  // namespace tlfea
