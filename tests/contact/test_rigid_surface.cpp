// Contact surfaces of rigid bodies (surface.hpp, docs/theory.md §10.7):
// closed surfaces oriented outward (the divergence theorem gives the enclosed
// volume, sum over triangles of (a . (b x c)) / 6: exactly a b c for a box,
// the closed-form volume of the inscribed polyhedron for a sphere and a
// cylinder, both by hand), vertices on the shape, merged vertices (the
// Euler characteristic V - E + F = 2 of a closed surface), patch areas that
// sum to the surface area, and the device vertex positions x = r + X_k r_k
// for a rotated, moved pose.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>
#include <utility>

#include "tlfea/contact/surface.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {
namespace {

using P3 = std::array<Real, 3>;
constexpr Real kPi = 3.14159265358979323846;

Real volume(const RigidShapeSurface& s) {
  Real v = 0.0;
  for (const auto& t : s.triangles) {
    const P3 &a = s.X[t[0]], &b = s.X[t[1]], &c = s.X[t[2]];
    v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
          a[2] * (b[0] * c[1] - b[1] * c[0])) /
         6.0;
  }
  return v;
}

// V - E + F (2 for a closed surface of sphere topology, every edge shared by
// exactly two triangles).
long euler(const RigidShapeSurface& s) {
  std::set<std::pair<Ordinal, Ordinal>> edges;
  for (const auto& t : s.triangles)
    for (int k = 0; k < 3; ++k) edges.insert(std::minmax(t[k], t[(k + 1) % 3]));
  return static_cast<long>(s.X.size()) - static_cast<long>(edges.size()) +
         static_cast<long>(s.triangles.size());
}

TEST(RigidSurface, BoxIsClosedOutwardAndExact) {
  const RigidShapeSurface s = rigid_box_shape({0.3, 0.2, 0.1}, 4);
  EXPECT_EQ(s.X.size(), 6u * 25u - 12u * 5u + 8u);  // faces' grids, edges and corners merged
  EXPECT_EQ(s.triangles.size(), 6u * 32u);
  EXPECT_EQ(euler(s), 2);
  EXPECT_NEAR(volume(s), 0.3 * 0.2 * 0.1, 1e-15);
  const SurfaceHost h = rigid_surface(s, {1.0, 2.0, 3.0}, 10, 2);
  Real area = 0.0;
  for (Real a : h.vertex_area) area += a;
  EXPECT_NEAR(area, 2.0 * (0.3 * 0.2 + 0.2 * 0.1 + 0.1 * 0.3), 1e-14);
}

// The inscribed polyhedra: the sphere's volume deficit (V_s - V) / V_s of
// the latitude-longitude polyhedron (vertices at theta = pi i / n, phi =
// pi j / n, each cell two tetrahedra with the centre), computed separately
// in Python from those vertex formulas: 0.10903849915796925 (n = 6),
// 0.028227205991626987 (n = 12).
TEST(RigidSurface, SphereAndCylinderAreClosedAndInscribed) {
  const Real R = 0.05;
  for (int n : {6, 12}) {
    const RigidShapeSurface s = rigid_sphere_shape(R, n);
    EXPECT_EQ(s.X.size(), static_cast<size_t>(2 + (n - 1) * 2 * n));
    EXPECT_EQ(euler(s), 2);
    for (const P3& x : s.X)
      EXPECT_NEAR(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), R, 1e-15);
    const Real Vs = 4.0 / 3.0 * kPi * R * R * R;
    const Real deficit = n == 6 ? 0.10903849915796925 : 0.028227205991626987;
    EXPECT_NEAR(volume(s), (1.0 - deficit) * Vs, 1e-12 * Vs);
  }
  // Cylinder: a prism over the regular 2n-gon, volume exactly
  // (1/2) (2n) R^2 sin(pi / n) L.
  const int n = 12;
  const Real L = 0.1;
  const RigidShapeSurface c = rigid_cylinder_shape(R, L, n);
  EXPECT_EQ(euler(c), 2);
  EXPECT_NEAR(volume(c), n * R * R * std::sin(kPi / n) * L, 1e-15);
}

TEST(RigidSurface, VerticesAreMaterialPointsOfTheFourCoefficients) {
  const RigidShapeSurface s = rigid_box_shape({0.2, 0.2, 0.2}, 1);
  const P3 c{0.5, -0.25, 1.0};
  const SurfaceHost h = rigid_surface(s, c, 4, 1);
  ASSERT_EQ(h.num_vertices(), 8);
  // Pose: centre r, axes of a rotation by 90 degrees about z.
  CoefView q("q", 8);
  auto qh = Kokkos::create_mirror_view(q);
  const Real pose[4][3] = {{1, 2, 3}, {0, 1, 0}, {-1, 0, 0}, {0, 0, 1}};
  for (int l = 0; l < 4; ++l)
    for (int a = 0; a < 3; ++a) qh(4 + l, a) = pose[l][a];
  Kokkos::deep_copy(q, qh);
  Surface dev(h);
  dev.update_positions(q);
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.x);
  for (Ordinal v = 0; v < 8; ++v) {
    const P3& X = s.X[v];
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(h.vertex_reference[v][a], c[a] + X[a], 1e-15);
      const Real expect = pose[0][a] + X[0] * pose[1][a] + X[1] * pose[2][a] + X[2] * pose[3][a];
      EXPECT_NEAR(x(v, a), expect, 1e-15);
    }
  }
}

TEST(RigidSurface, BadShapesAreRefused) {
  EXPECT_THROW(rigid_box_shape({1, 1, 1}, 0), Error);
  EXPECT_THROW(rigid_surface(RigidShapeSurface{}, {0, 0, 0}, 0, 0), Error);
  RigidShapeSurface s;
  s.X = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  s.triangles = {{0, 1, 3}};
  EXPECT_THROW(rigid_surface(s, {0, 0, 0}, 0, 0), Error);
  s.triangles = {{0, 1, 1}};
  EXPECT_THROW(rigid_surface(s, {0, 0, 0}, 0, 0), Error);
}

}  // namespace
}  // namespace tlfea
