// Contact detection: surface extraction (closed-form areas of boxes, beams
// and shells, outward orientation, vertex positions from the coefficients),
// vertex-obstacle and vertex-triangle penetration against closed-form depths,
// the symmetry of deformable-deformable detection, and overflow reporting.
// Kernels run inside the library; results are compared on the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <tuple>
#include <vector>

#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea {
namespace {

using P3 = std::array<Real, 3>;

void translate(Mesh& m, const P3& c) {
  const int cpn = m.coefficients_per_node();
  for (size_t k = 0; k < m.coefficients.size(); k += cpn)
    for (int a = 0; a < 3; ++a) m.coefficients[k][a] += c[a];
}

CoefView reference_q(const std::vector<const Mesh*>& meshes) {
  Ordinal n = 0;
  for (const Mesh* m : meshes) n += m->num_coefficients();
  CoefView q("q", n);
  Ordinal off = 0;
  for (const Mesh* m : meshes) {
    copy_reference_coefficients(*m, off, q);
    off += m->num_coefficients();
  }
  return q;
}

P3 cross3(const P3& a, const P3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
P3 minus3(const P3& a, const P3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Real dot3(const P3& a, const P3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Device vertex positions after update_positions(q), on the host.
std::vector<P3> vertex_positions(const Surface& s, const CoefView& q) {
  s.update_positions(q);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.x);
  std::vector<P3> x(s.num_vertices());
  for (Ordinal v = 0; v < s.num_vertices(); ++v) x[v] = {h(v, 0), h(v, 1), h(v, 2)};
  return x;
}

Real total_area(const SurfaceHost& s, const std::vector<P3>& x) {
  Real a = 0.0;
  for (const auto& t : s.triangles) a += triangle_area(x[t[0]], x[t[1]], x[t[2]]);
  return a;
}

// Closed box surfaces: area 2 (ab + bc + ca) (quadratic faces of a straight
// box are flat, so the triangulation is exact to round-off), every triangle
// outward for the convex box (n . (centroid - box centre) > 0), vertices at
// the mesh nodes and on the box boundary.
void check_closed_box(ElementType type) {
  const P3 L{1.0, 0.8, 0.6};
  Mesh mesh = generate_box(type, L, {2, 2, 2}, {0.1, -0.2, 0.3});
  const SurfaceHost sh = extract_surface(mesh, 5, 0);
  Surface s(sh);
  // Offset 5: the combination must index global coefficient 5 + node.
  CoefView q("q", mesh.num_coefficients() + 5);
  copy_reference_coefficients(mesh, 5, q);
  const std::vector<P3> x = vertex_positions(s, q);
  const Real area = 2.0 * (L[0] * L[1] + L[1] * L[2] + L[2] * L[0]);
  EXPECT_NEAR(total_area(sh, x), area, 1e-12 * area);
  Real patch = 0.0;
  for (Real a : sh.vertex_area) patch += a;
  EXPECT_NEAR(patch, area, 1e-12 * area);
  // 2 (nx ny + ny nz + nz nx) box-face cells; T10: 2 T6 faces per cell face x
  // 4 triangles; Q27: 1 Q9 face x 8 triangles.
  EXPECT_EQ(sh.num_triangles(), 2 * (4 + 4 + 4) * 8);
  const P3 c{0.1 + 0.5 * L[0], -0.2 + 0.5 * L[1], 0.3 + 0.5 * L[2]};
  const P3 lo{0.1, -0.2, 0.3};
  for (const auto& t : sh.triangles) {
    const P3 n = cross3(minus3(x[t[1]], x[t[0]]), minus3(x[t[2]], x[t[0]]));
    const P3 g{(x[t[0]][0] + x[t[1]][0] + x[t[2]][0]) / 3.0,
               (x[t[0]][1] + x[t[1]][1] + x[t[2]][1]) / 3.0,
               (x[t[0]][2] + x[t[1]][2] + x[t[2]][2]) / 3.0};
    EXPECT_GT(dot3(n, minus3(g, c)), 0.0);
  }
  for (Ordinal v = 0; v < s.num_vertices(); ++v) {
    ASSERT_EQ(sh.vertex_ptr[v + 1] - sh.vertex_ptr[v], 1);
    const Ordinal node = sh.vertex_coef[sh.vertex_ptr[v]] - 5;
    for (int a = 0; a < 3; ++a) EXPECT_DOUBLE_EQ(x[v][a], mesh.coefficients[node][a]);
    bool on_boundary = false;
    for (int a = 0; a < 3; ++a)
      on_boundary |=
          std::fabs(x[v][a] - lo[a]) < 1e-12 || std::fabs(x[v][a] - lo[a] - L[a]) < 1e-12;
    EXPECT_TRUE(on_boundary);
  }
}

TEST(ContactSurface, T10BoxBoundaryIsClosedOutwardAndHasTheBoxArea) {
  check_closed_box(ElementType::T10);
}

TEST(ContactSurface, Q27BoxBoundaryIsClosedOutwardAndHasTheBoxArea) {
  check_closed_box(ElementType::Q27);
}

// ANCF 3443 plate in z = 0, thickness H: faces at z = +-H/2 (closed form of
// the flat reference shell), area 2 lx ly, normals +-e_z; the vertex
// combinations agree with the element block's shape functions.
TEST(ContactSurface, Ancf3443ShellFacesAreOffsetByHalfTheThickness) {
  const Real lx = 0.5, ly = 0.4, H = 0.02;
  Mesh mesh = generate_plate_ancf3443(lx, ly, H, {2, 2});
  SurfaceSettings set;
  set.shell_divisions = 3;
  const SurfaceHost sh = extract_surface(mesh, 0, 2, set);
  Surface s(sh);
  CoefView q = reference_q({&mesh});
  const std::vector<P3> x = vertex_positions(s, q);
  EXPECT_EQ(sh.num_triangles(), 4 * 2 * 3 * 3 * 2);
  EXPECT_NEAR(total_area(sh, x), 2.0 * lx * ly, 1e-12);
  for (Ordinal v = 0; v < s.num_vertices(); ++v) {
    EXPECT_EQ(sh.vertex_body[v], 2);
    EXPECT_NEAR(std::fabs(x[v][2]), 0.5 * H, 1e-14);
    EXPECT_NEAR(x[v][2], 0.5 * H * sh.vertex_xi[v][2], 1e-14);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(x[v][a], sh.vertex_reference[v][a], 1e-14);
  }
  for (const auto& t : sh.triangles) {
    const P3 n = cross3(minus3(x[t[1]], x[t[0]]), minus3(x[t[2]], x[t[0]]));
    EXPECT_GT(n[2] * x[t[0]][2], 0.0);  // top face up, bottom face down
  }
  auto block = make_element_block(mesh, 0, MaterialSpec::svk(2e9, 0.3), 1000.0);
  for (Ordinal v : {Ordinal(0), Ordinal(7), s.num_vertices() - 1}) {
    const Real xi[3] = {sh.vertex_xi[v][0], sh.vertex_xi[v][1], sh.vertex_xi[v][2]};
    const std::vector<Real> w = block->shape_at(sh.vertex_element[v], xi);
    const std::vector<Ordinal> ids = block->element_coefficients(sh.vertex_element[v]);
    ASSERT_EQ(static_cast<size_t>(sh.vertex_ptr[v + 1] - sh.vertex_ptr[v]), w.size());
    for (size_t l = 0; l < w.size(); ++l) {
      EXPECT_EQ(sh.vertex_coef[sh.vertex_ptr[v] + l], ids[l]);
      EXPECT_NEAR(sh.vertex_weight[sh.vertex_ptr[v] + l], w[l], 1e-13);
    }
  }
}

// ANCF 3243 beam of length L, width W, height H: lateral area 2 (W + H) L,
// normals pointing away from the axis, vertices on the lateral faces.
TEST(ContactSurface, Ancf3243BeamLateralSurfaceHasArea2WplusHtimesL) {
  const Real L = 1.2, W = 0.1, H = 0.08;
  Mesh mesh = generate_beam_ancf3243(L, W, H, 3);
  const SurfaceHost sh = extract_surface(mesh, 0, 0);
  Surface s(sh);
  CoefView q = reference_q({&mesh});
  const std::vector<P3> x = vertex_positions(s, q);
  EXPECT_NEAR(total_area(sh, x), 2.0 * (W + H) * L, 1e-12);
  for (Ordinal v = 0; v < s.num_vertices(); ++v) {
    const bool on_y = std::fabs(std::fabs(x[v][1]) - 0.5 * W) < 1e-14;
    const bool on_z = std::fabs(std::fabs(x[v][2]) - 0.5 * H) < 1e-14;
    EXPECT_TRUE(on_y || on_z);
  }
  for (const auto& t : sh.triangles) {
    const P3 n = cross3(minus3(x[t[1]], x[t[0]]), minus3(x[t[2]], x[t[0]]));
    const P3 g{0.0, (x[t[0]][1] + x[t[1]][1] + x[t[2]][1]) / 3.0,
               (x[t[0]][2] + x[t[1]][2] + x[t[2]][2]) / 3.0};
    EXPECT_GT(dot3(n, g), 0.0);
  }
}

// Host copy of the contacts.
struct Contact {
  P3 x, n;
  Real delta, area, radius;
  int body[2];
  int num[2];
  std::vector<Ordinal> id[2];
  std::vector<Real> w[2];
  P3 vb;
  unsigned long long key;
};

std::vector<Contact> read_contacts(const ContactPoints& cp) {
  auto count = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.count);
  auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.x);
  auto n = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.normal);
  auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.delta);
  auto ar = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.area);
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.radius);
  auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.body);
  auto nm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.num);
  auto id = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.id);
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.weight);
  auto vb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.obstacle_velocity);
  auto key = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cp.key);
  std::vector<Contact> out(count(0));
  for (Ordinal k = 0; k < count(0); ++k) {
    Contact& c = out[k];
    for (int a = 0; a < 3; ++a) {
      c.x[a] = x(k, a);
      c.n[a] = n(k, a);
      c.vb[a] = vb(k, a);
    }
    c.delta = d(k);
    c.area = ar(k);
    c.radius = r(k);
    c.key = key(k);
    for (int s = 0; s < 2; ++s) {
      c.body[s] = b(k, s);
      c.num[s] = nm(k, s);
      for (int l = 0; l < c.num[s]; ++l) {
        c.id[s].push_back(id(k, l, s));
        c.w[s].push_back(w(k, l, s));
      }
    }
  }
  return out;
}

P3 point_of(const Contact& c, int side, const CoefViewHost& q) {
  P3 r{0.0, 0.0, 0.0};
  for (int l = 0; l < c.num[side]; ++l)
    for (int a = 0; a < 3; ++a) r[a] += c.w[side][l] * q(c.id[side][l], a);
  return r;
}

// A T10 box [0,1] x [0,0.8] x [0,0.6] (2 x 2 x 2 cells) lowered by 1 mm onto
// the plane z = 0: exactly its bottom-face vertices penetrate, by
// delta = 1e-3, with n = +e_z; x_c halfway between vertex and plane.
TEST(ContactDetection, BoxPushedOneMillimetreIntoAPlane) {
  Mesh mesh = generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {2, 2, 2});
  translate(mesh, {0.0, 0.0, -1e-3});
  ContactDetection det;
  det.add_body(0, mesh, 0);
  const int k = det.add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 2.0}}));
  CoefView q = reference_q({&mesh});
  const Ordinal n = det.detect(q, 0.0);
  EXPECT_EQ(n, 5 * 5);  // (2 nx + 1) (2 ny + 1) bottom nodes
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  for (const Contact& c : read_contacts(det.points())) {
    EXPECT_NEAR(c.delta, 1e-3, 1e-15);
    EXPECT_NEAR(c.n[2], 1.0, 1e-15);
    EXPECT_NEAR(c.x[2], -0.5e-3, 1e-15);
    EXPECT_EQ(c.body[0], 0);
    EXPECT_EQ(c.body[1], -1 - k);
    EXPECT_EQ(c.num[1], 0);
    EXPECT_GT(c.area, 0.0);
    EXPECT_DOUBLE_EQ(c.radius, std::sqrt(c.area / 3.14159265358979323846));  // plane: R* = R_A
    const P3 ra = point_of(c, 0, qh);
    EXPECT_NEAR(ra[2], -1e-3, 1e-15);
    EXPECT_DOUBLE_EQ(c.vb[2], 0.0);
  }
}

// A plane of any orientation: x = 1 - 1e-3 with normal -e_x catches the
// xmax face of the box.
TEST(ContactDetection, TiltedPlaneCatchesTheFacingSide) {
  Mesh mesh = generate_box(ElementType::Q27, {1.0, 0.8, 0.6}, {2, 2, 1});
  ContactDetection det;
  det.add_body(0, mesh, 0);
  det.add_obstacle(Obstacle::plane({{1.0 - 1e-3, 0.0, 0.0}}, {{-1.0, 0.0, 0.0}}));
  CoefView q = reference_q({&mesh});
  EXPECT_EQ(det.detect(q, 0.0), 5 * 3);
  for (const Contact& c : read_contacts(det.points())) {
    EXPECT_NEAR(c.delta, 1e-3, 1e-15);
    EXPECT_NEAR(c.n[0], -1.0, 1e-15);
  }
}

// A moving plane (constant velocity) and a rotated box obstacle: at t = 1 the
// plane z = -0.5 + 1e-3 + 0.5 t reaches z = 1e-3; the box obstacle's top face,
// rotated about z, sits at z = 1e-3. Both give delta = 1e-3 at the bottom
// vertices of a box resting on z = 0; the plane's velocity is reported.
TEST(ContactDetection, MovingPlaneAndRotatedBoxObstacles) {
  Mesh mesh = generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {2, 2, 1});
  CoefView q = reference_q({&mesh});
  {
    ContactDetection det;
    det.add_body(0, mesh, 0);
    det.add_obstacle(
        Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}})
            .with_motion(constant_velocity_motion({{0.0, 0.0, -0.5 + 1e-3}}, {{0.0, 0.0, 0.5}})));
    EXPECT_EQ(det.detect(q, 0.0), 0);
    EXPECT_EQ(det.detect(q, 1.0), 25);
    for (const Contact& c : read_contacts(det.points())) {
      EXPECT_NEAR(c.delta, 1e-3, 1e-12);
      EXPECT_DOUBLE_EQ(c.vb[2], 0.5);
    }
  }
  {
    const Real th = 0.5;
    Mat3 R = identity3();
    R(0, 0) = std::cos(th);
    R(0, 1) = -std::sin(th);
    R(1, 0) = std::sin(th);
    R(1, 1) = std::cos(th);
    ContactDetection det;
    det.add_body(0, mesh, 0);
    det.add_obstacle(Obstacle::box({{0.5, 0.4, -0.5 + 1e-3}}, {{2.0, 2.0, 0.5}}, R));
    EXPECT_EQ(det.detect(q, 0.0), 25);
    for (const Contact& c : read_contacts(det.points())) {
      EXPECT_NEAR(c.delta, 1e-3, 1e-12);
      EXPECT_NEAR(c.n[2], 1.0, 1e-12);
    }
  }
}

// Rotating obstacles. Closed form of a rigid motion at
// constant v and omega about the point c(t) = c0 + v t (docs/theory.md §7.1):
// x(t) = c(t) + R(t) (X - c0), R(t) = exp(t [omega]x), material velocity
// v + omega x (x - c(t)). Here omega = w e_y, so R(t) is the rotation about y
// by w t, written out by hand: [[cos, 0, sin], [0, 1, 0], [-sin, 0, cos]].
TEST(ContactObstacleMotion, RotatingPlaneAndBoxPoseAndSurfaceVelocity) {
  const Real w = 0.7, t = 1.3;
  const P3 c0{0.2, -0.1, 0.4}, v{0.3, 0.05, -0.2}, p0{1.0, 0.5, 0.0};
  const Real cs = std::cos(w * t), sn = std::sin(w * t);
  auto Ry = [&](const P3& r) { return P3{cs * r[0] + sn * r[2], r[1], -sn * r[0] + cs * r[2]}; };
  const P3 c{c0[0] + v[0] * t, c0[1] + v[1] * t, c0[2] + v[2] * t};
  const P3 r = Ry(minus3(p0, c0));
  const P3 p{c[0] + r[0], c[1] + r[1], c[2] + r[2]};  // the plane's point at t
  const P3 omega{0.0, w, 0.0};
  Obstacle plane = Obstacle::plane({{p0[0], p0[1], p0[2]}}, {{0.0, 0.0, 1.0}});
  plane.with_motion(rigid_motion(plane.point, {{c0[0], c0[1], c0[2]}}, {{v[0], v[1], v[2]}},
                                 {{omega[0], omega[1], omega[2]}}));
  const ObstacleState st = evaluate_obstacle(plane, t);
  const P3 n = Ry({0.0, 0.0, 1.0});
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(st.center[a], p[a], 1e-14);
    EXPECT_NEAR(st.normal[a], n[a], 1e-14);
    EXPECT_EQ(st.angular_velocity[a], omega[a]);
  }
  // Surface velocity at a point x of the plane: v + omega x (x - c(t)).
  const P3 x{p[0] + 0.3 * cs, p[1] + 0.25, p[2] - 0.3 * sn};  // (x - p) . n = 0
  EXPECT_NEAR(dot3(minus3(x, p), n), 0.0, 1e-15);
  const P3 wr = cross3(omega, minus3(x, c));
  Real vx[3];
  const Real xx[3] = {x[0], x[1], x[2]};
  obstacle_velocity_at(st, xx, vx);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(vx[a], v[a] + wr[a], 1e-14);
  // The surface velocity is the time derivative of the material point's
  // position: central difference of x(s) = c(s) + R(s) (X - c0) for the
  // material point X at x at time t (h = 1e-6: truncation ~ h^2 w^3 ~ 1e-13,
  // round-off ~ 1e-16 / h = 1e-10).
  {
    const Real h = 1e-6;
    const P3 d = minus3(x, c);  // X - c0 = R(t)^T (x - c(t))
    const P3 X0{cs * d[0] - sn * d[2], d[1], sn * d[0] + cs * d[2]};
    auto pos = [&](Real s) {
      const Real C = std::cos(w * s), S = std::sin(w * s);
      return P3{c0[0] + v[0] * s + C * X0[0] + S * X0[2], c0[1] + v[1] * s + X0[1],
                c0[2] + v[2] * s - S * X0[0] + C * X0[2]};
    };
    const P3 xp = pos(t + h), xm = pos(t - h);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR((xp[a] - xm[a]) / (2 * h), vx[a], 1e-8);
  }
  // A box turning about its own centre: axes R(t), centre c0 + v t.
  Obstacle box = Obstacle::box({{c0[0], c0[1], c0[2]}}, {{0.5, 0.4, 0.3}});
  box.with_motion(
      rigid_motion(box.point, box.point, {{v[0], v[1], v[2]}}, {{omega[0], omega[1], omega[2]}}));
  const ObstacleState sb = evaluate_obstacle(box, t);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(sb.center[a], c[a], 1e-14);
    EXPECT_NEAR(sb.velocity[a], v[a], 1e-14);
    for (int b = 0; b < 3; ++b) {
      P3 e{0.0, 0.0, 0.0};
      e[b] = 1.0;
      EXPECT_NEAR(sb.axes(a, b), Ry(e)[a], 1e-14);
    }
  }
}

// A turntable: the plane z = 1e-3 turning about the z axis at w, pressed
// 1 mm into the bottom face (z = 0) of a T10 box centred on the axis. Every
// contact gets the surface velocity omega x (x_c - c) = w (-y, x, 0) at its
// point x_c (closed form), depth 1 mm, normal +z (a rotation about the
// normal leaves the plane in place).
TEST(ContactObstacleMotion, TurntableContactsCarryTheSurfaceVelocity) {
  Mesh mesh = generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {2, 2, 1}, {-0.5, -0.4, 0.0});
  CoefView q = reference_q({&mesh});
  const Real w = 3.0;
  ContactDetection det;
  det.add_body(0, mesh, 0);
  Obstacle o = Obstacle::plane({{0.0, 0.0, 1e-3}}, {{0.0, 0.0, 1.0}});
  o.with_motion(rigid_motion(o.point, o.point, {{0.0, 0.0, 0.0}}, {{0.0, 0.0, w}}));
  det.add_obstacle(o);
  EXPECT_EQ(det.detect(q, 0.4), 25);
  for (const Contact& c : read_contacts(det.points())) {
    EXPECT_NEAR(c.delta, 1e-3, 1e-12);
    EXPECT_NEAR(c.n[2], 1.0, 1e-12);
    EXPECT_NEAR(c.vb[0], -w * c.x[1], 1e-12);
    EXPECT_NEAR(c.vb[1], w * c.x[0], 1e-12);
    EXPECT_NEAR(c.vb[2], 0.0, 1e-12);
  }
}

// A table of a linear motion reproduces constant_velocity_motion (position
// and velocity) at times between and on the rows; a table with angles
// theta_i = w t_i about an axis reproduces rigid_motion with omega = w axis
// about the reference point. After the last row the pose is held with
// velocity 0.
TEST(ContactObstacleMotion, TableMotionReproducesLinearMotions) {
  const Vec3 p0{{0.1, 0.2, 0.3}}, v{{0.5, -0.25, 0.125}};
  const Real w = 0.8;
  const Vec3 axis{{0.0, 0.6, 0.8}};
  MotionTable tab;
  for (Real t : {0.0, 0.5, 1.25, 2.0}) {
    tab.time.push_back(t);
    tab.displacement.push_back(Vec3{{v[0] * t, v[1] * t, v[2] * t}});
  }
  Obstacle a = Obstacle::sphere(p0, 0.5), b = a;
  a.with_motion(table_motion(p0, tab));
  b.with_motion(constant_velocity_motion(p0, v));
  for (Real t : {0.0, 0.3, 0.5, 1.0, 1.25, 1.9}) {
    const ObstacleState sa = evaluate_obstacle(a, t), sb = evaluate_obstacle(b, t);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(sa.center[k], p0[k] + v[k] * t, 1e-15) << t;
      EXPECT_NEAR(sa.velocity[k], v[k], 1e-15) << t;
      EXPECT_NEAR(sa.center[k], sb.center[k], 1e-15) << t;
    }
  }
  const ObstacleState late = evaluate_obstacle(a, 3.0);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(late.center[k], p0[k] + v[k] * 2.0, 1e-15);
    EXPECT_EQ(late.velocity[k], 0.0);
  }
  // With angles: a box turning at w about `axis` through its moving centre.
  for (Real t : tab.time) tab.angle.push_back(w * t);
  tab.axis = axis;
  Obstacle c = Obstacle::box(p0, {{0.3, 0.2, 0.1}}), d = c;
  c.with_motion(table_motion(p0, tab));
  d.with_motion(rigid_motion(p0, p0, v, {{w * axis[0], w * axis[1], w * axis[2]}}));
  for (Real t : {0.2, 0.5, 1.7}) {
    const ObstacleState sc = evaluate_obstacle(c, t), sd = evaluate_obstacle(d, t);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(sc.center[k], sd.center[k], 1e-14) << t;
      EXPECT_NEAR(sc.velocity[k], sd.velocity[k], 1e-14) << t;
      EXPECT_NEAR(sc.angular_velocity[k], w * axis[k], 1e-14) << t;
      for (int l = 0; l < 3; ++l) EXPECT_NEAR(sc.axes(k, l), sd.axes(k, l), 1e-14) << t;
    }
  }
  // Malformed tables are refused.
  MotionTable bad = tab;
  bad.time[2] = bad.time[1];
  EXPECT_THROW(table_motion(p0, bad), Error);
  bad = tab;
  bad.displacement[1][0] = std::numeric_limits<Real>::quiet_NaN();
  EXPECT_THROW(table_motion(p0, bad), Error);
  bad = tab;
  bad.axis = Vec3{{0.0, 0.0, 0.0}};
  EXPECT_THROW(table_motion(p0, bad), Error);
  EXPECT_THROW(table_motion(p0, MotionTable{}), Error);
}

// Sphere obstacle of radius R touching the bottom face at (0.5, 0.4, 0) and
// 2 cm deep (deep enough to take in the neighbouring nodes): delta = R - |x - c| at every vertex
// inside it (closed form from the vertex positions), n = (x - c) / |x - c|, R* = R_A R / (R_A + R).
TEST(ContactDetection, SphereObstacleDepthIsRadiusMinusDistance) {
  Mesh mesh = generate_box(ElementType::T10, {1.0, 0.8, 0.6}, {4, 4, 2});
  const Real R = 0.5;
  const P3 c{0.5, 0.4, -R + 0.02};
  ContactDetection det;
  det.add_body(0, mesh, 0);
  det.add_obstacle(Obstacle::sphere({{c[0], c[1], c[2]}}, R));
  CoefView q = reference_q({&mesh});
  const Ordinal n = det.detect(q, 0.0);
  int expected = 0;
  for (const auto& p : det.surface().host().vertex_reference)
    if (std::sqrt(dot3(minus3(p, c), minus3(p, c))) < R) ++expected;
  EXPECT_EQ(n, expected);
  EXPECT_GT(n, 1);
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  bool centre_found = false;
  for (const Contact& k : read_contacts(det.points())) {
    const P3 p = point_of(k, 0, qh);
    const P3 d = minus3(p, c);
    const Real r = std::sqrt(dot3(d, d));
    EXPECT_NEAR(k.delta, R - r, 1e-14);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(k.n[a], d[a] / r, 1e-14);
    const Real ra = std::sqrt(k.area / 3.14159265358979323846);
    EXPECT_NEAR(k.radius, ra * R / (ra + R), 1e-14);
    if (std::fabs(p[0] - 0.5) < 1e-12 && std::fabs(p[1] - 0.4) < 1e-12) {
      centre_found = true;
      EXPECT_NEAR(k.delta, 0.02, 1e-14);
    }
  }
  EXPECT_TRUE(centre_found);
}

// Two boxes overlapping by d = 1 mm: A = Q27 [0,1]^2 x [0,0.1] (4 x 4 x 1),
// B = T10 [0.3,0.7]^2 x [0.1-d, 0.2-d] (2 x 2 x 1). A's top nodes strictly
// inside B's footprint (x, y in {0.375, 0.5, 0.625}: 9) are behind B's bottom
// face by d with n = -e_z (from B to A); B's bottom nodes (5 x 5 = 25) are
// behind A's top face by d with n = +e_z. Body B's material point is the
// projection of A's vertex on the flat triangle.
struct TwoBoxes {
  Mesh a, b;
  TwoBoxes() {
    a = generate_box(ElementType::Q27, {1.0, 1.0, 0.1}, {4, 4, 1});
    b = generate_box(ElementType::T10, {0.4, 0.4, 0.1}, {2, 2, 1}, {0.3, 0.3, 0.1 - 1e-3});
  }
};

struct Key {
  int body_a;
  P3 x;
  bool operator<(const Key& o) const {
    return std::tie(body_a, x[0], x[1], x[2]) < std::tie(o.body_a, o.x[0], o.x[1], o.x[2]);
  }
};

TEST(ContactDetection, OverlappingBoxesGiveDepthAndNormalBothWays) {
  TwoBoxes m;
  const Real d = 1e-3;
  ContactDetection det;
  det.add_body(0, m.a, 0);
  det.add_body(1, m.b, m.a.num_coefficients());
  CoefView q = reference_q({&m.a, &m.b});
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  ASSERT_EQ(det.detect(q, 0.0), 9 + 25);
  int from_a = 0, from_b = 0;
  unsigned long long last_key = 0;
  bool first = true;
  for (const Contact& c : read_contacts(det.points())) {
    EXPECT_NEAR(c.delta, d, 1e-14);
    const Real sign = c.body[0] == 0 ? -1.0 : 1.0;
    EXPECT_NEAR(c.n[2], sign, 1e-14);
    EXPECT_EQ(c.body[1], 1 - c.body[0]);
    (c.body[0] == 0 ? from_a : from_b)++;
    const P3 ra = point_of(c, 0, qh), rb = point_of(c, 1, qh);
    Real wsum = 0.0;
    for (Real w : c.w[1]) wsum += w;
    EXPECT_NEAR(wsum, 1.0, 1e-14);
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(rb[a], ra[a] + d * c.n[a], 1e-14);  // projection on B
      EXPECT_NEAR(c.x[a], 0.5 * (ra[a] + rb[a]), 1e-14);
    }
    EXPECT_TRUE(first || c.key > last_key);  // keys increase
    first = false;
    last_key = c.key;
    Ordinal v;
    int partner;
    det.decode_key(c.key, v, partner);
    EXPECT_EQ(partner, c.body[1]);
    for (int a = 0; a < 3; ++a)
      EXPECT_DOUBLE_EQ(det.surface().host().vertex_reference[v][a], ra[a]);
  }
  EXPECT_EQ(from_a, 9);
  EXPECT_EQ(from_b, 25);
}

TEST(ContactDetection, SwappingBodiesGivesTheSameContacts) {
  TwoBoxes m;
  std::vector<std::tuple<Key, Real, P3>> sets[2];
  for (int swap = 0; swap < 2; ++swap) {
    ContactDetection det;
    const Mesh& first = swap ? m.b : m.a;
    const Mesh& second = swap ? m.a : m.b;
    det.add_body(0, first, 0);
    det.add_body(1, second, first.num_coefficients());
    CoefView q = reference_q({&first, &second});
    det.detect(q, 0.0);
    for (const Contact& c : read_contacts(det.points())) {
      const int a = swap ? 1 - c.body[0] : c.body[0];  // label by the original body
      sets[swap].push_back({Key{a, c.x}, c.delta, c.n});
    }
    std::sort(sets[swap].begin(), sets[swap].end(),
              [](const auto& p, const auto& r) { return std::get<0>(p) < std::get<0>(r); });
  }
  ASSERT_EQ(sets[0].size(), sets[1].size());
  for (size_t i = 0; i < sets[0].size(); ++i) {
    EXPECT_EQ(std::get<0>(sets[0][i]).body_a, std::get<0>(sets[1][i]).body_a);
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(std::get<0>(sets[0][i]).x[a], std::get<0>(sets[1][i]).x[a], 1e-14);
      EXPECT_NEAR(std::get<2>(sets[0][i])[a], std::get<2>(sets[1][i])[a], 1e-14);
    }
    EXPECT_NEAR(std::get<1>(sets[0][i]), std::get<1>(sets[1][i]), 1e-14);
  }
}

// A T10 box pressed 1 mm into the top face (w = +H/2) of an ANCF 3443 plate:
// the box's bottom nodes are behind the shell face by 1 mm with n = +e_z, the
// shell's top vertices under the box behind the box's bottom face with
// n = -e_z; the shell-side material points combine one element's 16
// coefficients and reproduce the projection on the flat triangle.
TEST(ContactDetection, BoxPressedIntoAShellFace) {
  const Real H = 0.02, d = 1e-3;
  Mesh shell = generate_plate_ancf3443(0.5, 0.4, H, {2, 2});
  Mesh box = generate_box(ElementType::T10, {0.2, 0.2, 0.1}, {2, 2, 1}, {0.11, 0.11, 0.5 * H - d});
  ContactDetection det;
  det.add_body(0, shell, 0);
  det.add_body(1, box, shell.num_coefficients());
  CoefView q = reference_q({&shell, &box});
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  det.setup();
  int shell_under_box = 0;
  const SurfaceHost& sh = det.surface().host();
  for (Ordinal v = 0; v < sh.num_vertices(); ++v) {
    const P3& p = sh.vertex_reference[v];
    if (sh.vertex_body[v] == 0 && p[2] > 0.0 && p[0] > 0.11 && p[0] < 0.31 && p[1] > 0.11 &&
        p[1] < 0.31)
      ++shell_under_box;
  }
  ASSERT_GT(shell_under_box, 0);
  const Ordinal n = det.detect(q, 0.0);
  EXPECT_EQ(n, 25 + shell_under_box);
  int from_box = 0;
  for (const Contact& c : read_contacts(det.points())) {
    EXPECT_NEAR(c.delta, d, 1e-13);
    EXPECT_NEAR(c.n[2], c.body[0] == 1 ? 1.0 : -1.0, 1e-13);
    if (c.body[0] == 1) {
      ++from_box;
      EXPECT_EQ(c.num[0], 1);
      EXPECT_EQ(c.num[1], 16);  // one shell element
    } else {
      EXPECT_EQ(c.num[0], 16);
    }
    const P3 ra = point_of(c, 0, qh), rb = point_of(c, 1, qh);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(rb[a], ra[a] + d * c.n[a], 1e-13);
  }
  EXPECT_EQ(from_box, 25);
}

TEST(ContactDetection, PairFilterAndOverflow) {
  TwoBoxes m;
  CoefView q = reference_q({&m.a, &m.b});
  {
    ContactDetection det;
    det.add_body(0, m.a, 0);
    det.add_body(1, m.b, m.a.num_coefficients());
    det.set_body_pair(0, 1, false);
    EXPECT_EQ(det.detect(q, 0.0), 0);
  }
  {
    DetectionSettings s;
    s.capacity = 4;
    ContactDetection det(s);
    det.add_body(0, m.a, 0);
    det.add_body(1, m.b, m.a.num_coefficients());
    EXPECT_THROW(det.detect(q, 0.0), Error);
  }
}

}  // namespace
}  // namespace tlfea
