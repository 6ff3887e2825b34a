// Constraints on material points with more than 27 coefficients (the mean of
// points of two Q27 elements: 54 entries, shared face nodes repeated),
// checked against host sums and central finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea {
namespace {

std::vector<Real> values(ConstraintSet& cs, const CoefViewHost& qh) {
  CoefView q("q", qh.extent(0));
  Kokkos::deep_copy(q, qh);
  DeviceView<Real*> c("c", cs.num_rows());
  cs.evaluate(q, 0.0, c);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
  return std::vector<Real>(h.data(), h.data() + cs.num_rows());
}

TEST(CombinationPoints, RowsOnAPointOfFiftyFourCoefficients) {
  const Mesh mesh = generate_box(ElementType::Q27, {2.0, 1.0, 1.0}, {2, 1, 1});
  const auto block = make_element_block(mesh, 0, MaterialSpec::svk(1e6, 0.3), 1000.0);
  const Ordinal nc = mesh.num_coefficients();
  CoefView q0("q0", nc);
  copy_reference_coefficients(mesh, 0, q0);
  const auto q0h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q0);

  const Real xa[3] = {0.3, -0.2, 0.5}, xb[3] = {-0.4, 0.6, 0.1};
  const MaterialPoint A = make_material_point(*block, 0, xa);
  const MaterialPoint B = make_material_point(*block, 1, xb);
  std::vector<Ordinal> ids = A.id;
  ids.insert(ids.end(), B.id.begin(), B.id.end());
  std::vector<Real> w;
  for (const Real s : A.weight) w.push_back(0.5 * s);
  for (const Real s : B.weight) w.push_back(0.5 * s);
  const MaterialPoint M = combination_point(ids, w);
  ASSERT_EQ(M.num, 54);
  const MaterialPoint G = ground_point(Vec3{{1.0, 2.0, -1.0}});

  ConstraintSet cs(q0);
  cs.add_dist(G, M, DrivingFunction::constant(0.7));
  cs.add_dp1(G, M, A, B, DrivingFunction::constant(0.1));
  cs.add_cd(A, M, Vec3{{0.0, 1.0, 0.0}}, DrivingFunction::constant(0.0));
  cs.finalize();
  EXPECT_GE(cs.data().max_coefficients, 45);  // 54 entries, 9 shared nodes

  // Values against the host sums at a perturbed configuration.
  std::mt19937 gen(5);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  CoefViewHost q("q", nc);
  for (Ordinal k = 0; k < nc; ++k)
    for (int a = 0; a < 3; ++a) q(k, a) = q0h(k, a) + 0.05 * u(gen);
  const Vec3 rm = point_position(M, q), ra = point_position(A, q), rb = point_position(B, q);
  const Vec3 rg = G.offset;
  Vec3 a{{rm[0] - rg[0], rm[1] - rg[1], rm[2] - rg[2]}};
  const std::vector<Real> c = values(cs, q);
  const Real w0 = cs.row_weight(0), w1 = cs.row_weight(1);
  EXPECT_NEAR(c[0], 0.5 * w0 * (dot(a, a) - 0.49), 1e-12);
  const Vec3 b{{rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]}};
  EXPECT_NEAR(c[1], w1 * (dot(a, b) - 0.1), 1e-12);
  EXPECT_NEAR(c[2], rm[1] - ra[1], 1e-12);

  // C_q^T y against central differences of y . c along every coefficient.
  const std::vector<Real> y = {0.7, -1.3, 0.4};
  CoefView qd("q", nc), f("f", nc);
  Kokkos::deep_copy(qd, q);
  DeviceView<Real*> yd("y", 3);
  auto yh = Kokkos::create_mirror_view(yd);
  for (int i = 0; i < 3; ++i) yh(i) = y[i];
  Kokkos::deep_copy(yd, yh);
  cs.apply_jacobian_transpose(qd, 0.0, yd, f);
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  const Real h = 1e-6;
  Real fmax = 0.0;
  for (Ordinal k = 0; k < nc; ++k)
    for (int x = 0; x < 3; ++x) fmax = std::fmax(fmax, std::fabs(fh(k, x)));
  ASSERT_GT(fmax, 0.0);
  for (Ordinal k = 0; k < nc; ++k)
    for (int x = 0; x < 3; ++x) {
      CoefViewHost qp("qp", nc), qm("qm", nc);
      Kokkos::deep_copy(qp, q);
      Kokkos::deep_copy(qm, q);
      qp(k, x) += h;
      qm(k, x) -= h;
      const auto cp = values(cs, qp), cm = values(cs, qm);
      Real fd = 0.0;
      for (int i = 0; i < 3; ++i) fd += y[i] * (cp[i] - cm[i]) / (2 * h);
      EXPECT_NEAR(fh(k, x), fd, 1e-7 * fmax) << k << " " << x;
    }
}

}  // namespace
}  // namespace tlfea
