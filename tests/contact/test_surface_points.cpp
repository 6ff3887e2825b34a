// Contact surface vertices as a MaterialPointSet: positions of vertices with
// many coefficients, and the check that a triangle's combined vertices fit
// the slots of a contact side (contact_points.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tlfea/contact/contact_points.hpp"
#include "tlfea/contact/surface.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {
namespace {

// One triangle whose vertex v combines coefficients [v * stride, v * stride + n)
// with weights 1 / n (the mean of those coefficients).
SurfaceHost triangle_of_means(int n, int stride) {
  SurfaceHost s;
  for (int v = 0; v < 3; ++v) {
    s.vertex_body.push_back(0);
    s.vertex_element.push_back(0);
    s.vertex_xi.push_back({0.0, 0.0, 0.0});
    for (int l = 0; l < n; ++l) {
      s.vertex_coef.push_back(v * stride + l);
      s.vertex_weight.push_back(1.0 / n);
    }
    s.vertex_ptr.push_back(static_cast<Ordinal>(s.vertex_coef.size()));
    s.vertex_reference.push_back({0.0, 0.0, 0.0});
    s.vertex_area.push_back(1.0);
  }
  s.triangles.push_back({0, 1, 2});
  s.triangle_body.push_back(0);
  s.triangle_element.push_back(0);
  return s;
}

TEST(SurfacePoints, VertexPositionsAreTheirCombinations) {
  // Vertices of 20 coefficients each, overlapping (stride 4): 28 ids in all
  // would not fit a side, so use stride 3 (26 distinct ids).
  const SurfaceHost h = triangle_of_means(20, 3);
  const Surface s(h);
  const MaterialPointSetHost p = h.vertex_points();
  ASSERT_EQ(p.size(), 3);
  EXPECT_EQ(p.num_coefficients(2), 20);
  const Ordinal nc = 26;
  CoefViewHost qh("q", nc);
  for (Ordinal i = 0; i < nc; ++i)
    for (int a = 0; a < 3; ++a) qh(i, a) = 0.5 * i - a + 0.01 * i * i;
  CoefView q("q", nc);
  Kokkos::deep_copy(q, qh);
  s.update_positions(q);
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  // The reference r sums the 20 products in the same order, but a compiler
  // may contract r += w q into a fused multiply-add (nvcc does on the device
  // by default, a host compiler may on FMA hardware), so the results agree
  // to rounding, not bit for bit. Recursive summation of n products, fused or
  // not, is within gamma_n sum_l |w q_l| of the exact sum, gamma_n =
  // n u / (1 - n u), u = 2^-53 (Higham, Accuracy and Stability of Numerical
  // Algorithms, 2nd ed., section 3.1); two such evaluations differ by at most
  // twice that.
  const Real u = std::numeric_limits<Real>::epsilon() / 2;
  const Real gamma20 = 20 * u / (1 - 20 * u);
  for (int v = 0; v < 3; ++v)
    for (int a = 0; a < 3; ++a) {
      Real r = 0.0, magnitude = 0.0;
      for (int l = 0; l < 20; ++l) {
        r += (1.0 / 20) * qh(3 * v + l, a);
        magnitude += std::fabs((1.0 / 20) * qh(3 * v + l, a));
      }
      const Real bound = 2 * gamma20 * magnitude;
      EXPECT_NEAR(x(v, a), r, bound) << "vertex " << v << ", axis " << a;
      EXPECT_NEAR(p.position(v, qh)[a], r, bound) << "vertex " << v << ", axis " << a;
    }
}

TEST(SurfacePoints, TriangleBeyondTheContactSlotsIsRefused) {
  // 3 x 10 distinct coefficients: more than kMaxContactCoefficients.
  static_assert(kMaxContactCoefficients < 30, "the test needs a triangle past the slots");
  EXPECT_THROW(Surface(triangle_of_means(10, 10)), Error);
  EXPECT_NO_THROW(Surface(triangle_of_means(9, 9)));
}

}  // namespace
}  // namespace tlfea
