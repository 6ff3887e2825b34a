// Contact surface vertices as a MaterialPointSet: positions of vertices with
// many coefficients, and the check that a triangle's combined vertices fit
// the slots of a contact side (contact_points.hpp).
#include <gtest/gtest.h>

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
  for (int v = 0; v < 3; ++v)
    for (int a = 0; a < 3; ++a) {
      Real r = 0.0;
      for (int l = 0; l < 20; ++l) r += (1.0 / 20) * qh(3 * v + l, a);
      EXPECT_EQ(x(v, a), r);  // same order of summation
      EXPECT_EQ(p.position(v, qh)[a], r);
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
