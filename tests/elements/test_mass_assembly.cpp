// Consistent mass, body force and global assembly.
#include <Eigen/Dense>

#include "kernel_test_utils.hpp"

namespace tlfea::test {
namespace {

// Scalar mass matrix M (the 3D one is M (x) I3): entry (i, j) from the
// (0, 0) component of block (i, j).
Eigen::MatrixXd scalar_mass(System& s, Real alpha = 1.0) {
  DeviceView<Real*> M("M", s.pattern.nnz());
  s.block->mass(s.q0, alpha, M);
  const auto A = dense(s.pattern, M);
  const Ordinal n = s.ncoef();
  Eigen::MatrixXd m(n, n);
  for (Ordinal i = 0; i < n; ++i)
    for (Ordinal j = 0; j < n; ++j) {
      m(i, j) = A[3 * i][3 * j];
      // M (x) I3: the three diagonal components agree, off-diagonals vanish.
      EXPECT_EQ(A[3 * i + 1][3 * j + 1], m(i, j));
      EXPECT_EQ(A[3 * i + 2][3 * j + 2], m(i, j));
      EXPECT_EQ(A[3 * i][3 * j + 1], 0.0);
    }
  return m;
}

// Total mass: t^T M t = rho V for a rigid translation t (positions 1,
// gradients 0), V the closed-form volume of the generated body; M symmetric
// positive definite (Cholesky succeeds).
TEST(Mass, TotalMassIsRhoVAndMatrixIsSymmetricPositiveDefinite) {
  const Real rho = 2700.0;
  for (ElementType t : all_element_types()) {
    System s = make_system(small_mesh(t), MaterialSpec::svk(7e8, 0.33), rho);
    const Real V = t == ElementType::ANCF3243   ? 1.0 * 0.1 * 0.08
                   : t == ElementType::ANCF3443 ? 1.0 * 0.8 * 0.05
                                                : 1.0 * 0.8 * 0.6;
    Eigen::MatrixXd m = scalar_mass(s);
    const int cpn = s.mesh.coefficients_per_node();
    Eigen::VectorXd tr = Eigen::VectorXd::Zero(s.ncoef());
    for (Ordinal k = 0; k < s.ncoef(); k += cpn) tr(k) = 1.0;
    EXPECT_NEAR(tr.dot(m * tr), rho * V, 1e-12 * rho * V) << to_string(t);
    EXPECT_NEAR(s.block->volume(s.q0), V, 1e-12 * V) << to_string(t);
    EXPECT_LT((m - m.transpose()).norm(), 1e-14 * m.norm()) << to_string(t);
    Eigen::LLT<Eigen::MatrixXd> llt(m);
    EXPECT_EQ(llt.info(), Eigen::Success) << to_string(t);
    // Body force: resultant rho V g on the position coefficients.
    CoefView f("f", s.ncoef());
    s.block->body_force(s.q0, Vec3{{0.0, 0.0, -9.81}}, f);
    auto fh = to_host(f);
    Real fz = 0.0;
    for (Ordinal k = 0; k < s.ncoef(); k += cpn) fz += fh(k, 2);
    EXPECT_NEAR(fz, -9.81 * rho * V, 1e-12 * 9.81 * rho * V) << to_string(t);
  }
}

// ANCF 3243 single element, L = 1, 0.1 x 0.1, rho = 7850: the axial Hermite
// entries of the classical consistent beam mass matrix (e.g. Przemieniecki,
// Theory of Matrix Structural Analysis, or Shabana, Dynamics of Multibody
// Systems): 13/35 m, 11/210 m L, m L^2 / 105, 9/70 m, m = rho A L.
TEST(Mass, AncfBeamReproducesClassicalConsistentMassEntries) {
  const Real L = 1.0, rho = 7850.0, m = rho * 0.1 * 0.1 * L;
  System s = make_system(generate_beam_ancf3243(L, 0.1, 0.1, 1), MaterialSpec::svk(2e11, 0.3), rho);
  Eigen::MatrixXd M = scalar_mass(s);
  // Coefficients: 0 r1, 1 r1_u, 2 r1_v, 3 r1_w, 4 r2, 5 r2_u, ...
  EXPECT_NEAR(M(0, 0), 13.0 / 35.0 * m, 1e-13 * m);
  EXPECT_NEAR(M(0, 1), 11.0 / 210.0 * m * L, 1e-13 * m);
  EXPECT_NEAR(M(1, 1), m * L * L / 105.0, 1e-13 * m);
  EXPECT_NEAR(M(0, 4), 9.0 / 70.0 * m, 1e-13 * m);
  EXPECT_NEAR(M(4, 4), 13.0 / 35.0 * m, 1e-13 * m);
  EXPECT_NEAR(M(1, 5), -m * L * L / 140.0, 1e-13 * m);
  EXPECT_NEAR(M(0, 5), -13.0 / 420.0 * m * L, 1e-13 * m);
}

// Global assembly equals the sum of element contributions computed here on
// the host, element by element, from the block's own element data (F from the
// host copy of the coefficients, the element force by host quadrature through
// the same material law). Relative 1e-12: the order of the floating-point
// additions differs between threads (atomics), nothing else.
TEST(Assembly, GlobalForceAndMatrixEqualSumOfElementContributions) {
  for (ElementType t : all_element_types()) {
    Mesh mesh = t == ElementType::T10        ? generate_box(t, {1.0, 1.0, 1.0}, {3, 3, 2})
                : t == ElementType::Q27      ? generate_box(t, {1.0, 1.0, 1.0}, {2, 2, 2})
                : t == ElementType::ANCF3243 ? generate_beam_ancf3243(1.0, 0.1, 0.1, 6)
                                             : generate_plate_ancf3443(1.0, 1.0, 0.02, {3, 3});
    const MaterialSpec mat = MaterialSpec::mooney_rivlin(3e5, 2e5, 2e6).with_kelvin_voigt(1e3, 5e2);
    System s = make_system(mesh, mat);
    const Ordinal n = s.ncoef();
    auto q0 = to_host(s.q0);
    std::mt19937 rng(5);
    std::uniform_real_distribution<Real> u(-1.0, 1.0);
    CoefViewHost qh("q", n), vh("v", n);
    for (Ordinal k = 0; k < n; ++k)
      for (int a = 0; a < 3; ++a) {
        qh(k, a) = q0(k, a) + 0.003 * u(rng);
        vh(k, a) = 0.2 * u(rng);
      }
    CoefView q = to_device(qh, "q"), v = to_device(vh, "v");
    CoefView f("f", n);
    s.block->internal_force(q, v, f);
    auto fh = to_host(f);
    // Host reference: one element at a time through a one-element mesh of the
    // same element (the same kernels on a single element cannot race).
    CoefViewHost fref("fref", n);
    std::vector<std::vector<Real>> Kref(3 * n, std::vector<Real>(3 * n, 0.0));
    for (Ordinal e = 0; e < mesh.num_elements(); ++e) {
      Mesh one;
      one.type = mesh.type;
      one.source = "element";
      const int ne = mesh.coefficients_per_element();
      std::vector<Ordinal> ids(ne);
      for (int i = 0; i < ne; ++i) {
        ids[i] = mesh.coefficient(e, i);
        one.coefficients.push_back(mesh.coefficients[ids[i]]);
        one.connectivity.push_back(i);
      }
      if (!mesh.element_size.empty()) one.element_size.push_back(mesh.element_size[e]);
      System se = make_system(one, mat);
      CoefViewHost qe("qe", ne), ve("ve", ne);
      for (int i = 0; i < ne; ++i)
        for (int a = 0; a < 3; ++a) {
          qe(i, a) = qh(ids[i], a);
          ve(i, a) = vh(ids[i], a);
        }
      CoefView fe("fe", ne);
      se.block->internal_force(to_device(qe), to_device(ve), fe);
      auto feh = to_host(fe);
      DeviceView<Real*> Ke("Ke", se.pattern.nnz());
      se.block->tangent(to_device(qe), to_device(ve), 1.0, 0.3, Ke);
      const auto Kd = dense(se.pattern, Ke);
      for (int i = 0; i < ne; ++i) {
        for (int a = 0; a < 3; ++a) fref(ids[i], a) += feh(i, a);
        for (int j = 0; j < ne; ++j)
          for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 3; ++c)
              Kref[3 * ids[i] + a][3 * ids[j] + c] += Kd[3 * i + a][3 * j + c];
      }
    }
    Real num = 0.0, den = 0.0;
    for (Ordinal k = 0; k < n; ++k)
      for (int a = 0; a < 3; ++a) {
        num = std::max(num, std::fabs(fh(k, a) - fref(k, a)));
        den = std::max(den, std::fabs(fref(k, a)));
      }
    EXPECT_LE(num, 1e-12 * den) << to_string(t);
    DeviceView<Real*> K("K", s.pattern.nnz());
    s.block->tangent(q, v, 1.0, 0.3, K);
    const auto Kd = dense(s.pattern, K);
    Real kn = 0.0, kd = 0.0;
    for (Ordinal r = 0; r < 3 * n; ++r)
      for (Ordinal c = 0; c < 3 * n; ++c) {
        kn = std::max(kn, std::fabs(Kd[r][c] - Kref[r][c]));
        kd = std::max(kd, std::fabs(Kref[r][c]));
      }
    EXPECT_LE(kn, 1e-12 * kd) << to_string(t);
  }
}

// The pattern holds exactly the blocks that elements couple (and the
// diagonal), counted here independently by brute force over element pairs.
TEST(Assembly, PatternHasExactlyTheElementCouplings) {
  Mesh mesh = generate_box(ElementType::T10, {1.0, 1.0, 1.0}, {2, 2, 2});
  System s = make_system(mesh, MaterialSpec::svk(1e6, 0.3));
  const Ordinal n = s.ncoef();
  std::vector<std::vector<char>> coupled(n, std::vector<char>(n, 0));
  for (Ordinal e = 0; e < mesh.num_elements(); ++e)
    for (int i = 0; i < 10; ++i)
      for (int j = 0; j < 10; ++j) coupled[mesh.coefficient(e, i)][mesh.coefficient(e, j)] = 1;
  size_t blocks = 0;
  for (Ordinal i = 0; i < n; ++i)
    for (Ordinal j = 0; j < n; ++j) blocks += coupled[i][j];
  EXPECT_EQ(static_cast<size_t>(s.pattern.nnz()), 9 * blocks);
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.pattern.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.pattern.entries);
  for (Ordinal r = 0; r < 3 * n; ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k) {
      EXPECT_TRUE(coupled[r / 3][en(k) / 3]);
      if (k > rm(r)) {
        EXPECT_LT(en(k - 1), en(k));
      }
    }
}

}  // namespace
}  // namespace tlfea::test
