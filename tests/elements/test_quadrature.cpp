// Tests of the quadrature rules in elements/quadrature.hpp and of each
// element's volume, mass and face rules.
//
// Reference numbers do not come from the code under test:
//  - monomial integrals in closed form: int_{-1}^{1} x^k dx = 2/(k+1) (k even)
//    or 0; unit tetrahedron int x^a y^b z^c = a! b! c! / (a+b+c+3)!; unit
//    triangle int x^a y^b = a! b! / (a+b+2)!;
//  - element integrals (s_i s_j, ds_i . ds_j) from an independent high-order
//    rule built here: Gauss-Legendre from Newton's method on the Legendre
//    recurrence, 8 points per direction (degree 15), and on the tetrahedron /
//    triangle the collapsed (Duffy) product of such rules;
//  - face geometry from the parent domains described in core/mesh.hpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "tlfea/core/mesh.hpp"
#include "tlfea/elements/element_types.hpp"

namespace {

using tlfea::Real;

// Independent n-point Gauss-Legendre rule on [-1, 1]: Newton on P_n(x) with the
// three-term recurrence (Golub-Welsch is not needed at n <= 12).
struct TestGauss {
  std::vector<Real> x, w;
  explicit TestGauss(int n) : x(n), w(n) {
    const Real pi = std::acos(-1.0);
    for (int i = 0; i < n; ++i) {
      Real z = std::cos(pi * (i + 0.75) / (n + 0.5));
      Real dp = 1.0;
      for (int it = 0; it < 100; ++it) {
        Real p0 = 1.0, p1 = z;
        for (int k = 2; k <= n; ++k) {
          const Real p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = n * (z * p1 - p0) / (z * z - 1.0);
        const Real dz = p1 / dp;
        z -= dz;
        if (std::fabs(dz) < 1e-16) break;
      }
      // Recompute the derivative at the converged root for the weight.
      Real p0 = 1.0, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const Real p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      x[n - 1 - i] = z;  // ascending
      w[n - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
  }
};

Real factorial(int k) {
  Real f = 1.0;
  for (int i = 2; i <= k; ++i) f *= i;
  return f;
}
Real line_moment(int k) { return (k % 2 == 0) ? 2.0 / (k + 1) : 0.0; }
Real tet_moment(int a, int b, int c) {
  return factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 3);
}
Real tri_moment(int a, int b) { return factorial(a) * factorial(b) / factorial(a + b + 2); }

void cross(const Real a[3], const Real b[3], Real c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
Real norm(const Real a[3]) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

// Reference rules on the parent domains (collapsed Gauss on simplices).
// Tetrahedron: xi = x, eta = y (1 - x), zeta = z (1 - x)(1 - y), x, y, z in
// [0, 1], Jacobian (1 - x)^2 (1 - y).
template <class F>
Real tet_reference_integral(F&& f, int n = 8) {
  TestGauss g(n);
  Real sum = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Real x = 0.5 * (g.x[i] + 1), y = 0.5 * (g.x[j] + 1), z = 0.5 * (g.x[k] + 1);
        const Real w = 0.125 * g.w[i] * g.w[j] * g.w[k] * (1 - x) * (1 - x) * (1 - y);
        const Real xi[3] = {x, y * (1 - x), z * (1 - x) * (1 - y)};
        sum += w * f(xi);
      }
  return sum;
}
template <class F>
Real cube_reference_integral(F&& f, int n = 8) {
  TestGauss g(n);
  Real sum = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Real xi[3] = {g.x[i], g.x[j], g.x[k]};
        sum += g.w[i] * g.w[j] * g.w[k] * f(xi);
      }
  return sum;
}

// T10 face corner vertices and outward normals, from core/mesh.hpp
// (f0 = (1,2,3), f1 = (0,3,2), f2 = (0,1,3), f3 = (0,2,1)).
const int kTetFaceVertices[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
const Real kTetVertex[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
void tet_face_normal(int f, Real nrm[3]) {
  const Real s = 1.0 / std::sqrt(3.0);
  const Real table[4][3] = {{s, s, s}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  for (int k = 0; k < 3; ++k) nrm[k] = table[f][k];
}
// Cube face f: axis f/2 at -1 (f even) or +1 (f odd), core/mesh.hpp.
void cube_face_normal(int f, Real nrm[3]) {
  for (int k = 0; k < 3; ++k) nrm[k] = 0.0;
  nrm[f / 2] = (f % 2 == 0) ? -1.0 : 1.0;
}

// Reference integral over face f of the parent domain of element E, with
// respect to parent face area.
template <class E, class F>
Real face_reference_integral(int f, F&& fun, int n = 8) {
  TestGauss g(n);
  Real sum = 0.0;
  if (E::type == tlfea::ElementType::T10) {
    const Real* p0 = kTetVertex[kTetFaceVertices[f][0]];
    const Real* p1 = kTetVertex[kTetFaceVertices[f][1]];
    const Real* p2 = kTetVertex[kTetFaceVertices[f][2]];
    Real t1[3], t2[3], c[3];
    for (int k = 0; k < 3; ++k) t1[k] = p1[k] - p0[k], t2[k] = p2[k] - p0[k];
    cross(t1, t2, c);
    const Real jac = norm(c);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const Real x = 0.5 * (g.x[i] + 1), y = 0.5 * (g.x[j] + 1);
        const Real a = x, b = y * (1 - x);
        const Real w = 0.25 * g.w[i] * g.w[j] * (1 - x) * jac;
        Real xi[3];
        for (int k = 0; k < 3; ++k) xi[k] = p0[k] + a * t1[k] + b * t2[k];
        sum += w * fun(xi);
      }
    return sum;
  }
  const int d = f / 2, d1 = (d + 1) % 3, d2 = (d + 2) % 3;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      Real xi[3];
      xi[d] = (f % 2 == 0) ? -1.0 : 1.0;
      xi[d1] = g.x[i];
      xi[d2] = g.x[j];
      sum += g.w[i] * g.w[j] * fun(xi);
    }
  return sum;
}

template <class E>
typename E::Param test_param() {
  // A non-square ANCF element so L, W, H enter differently; T10/Q27 ignore it.
  return E::make_param(1.7, 0.6, 0.25);
}

// ---------------------------------------------------------------------------

TEST(GaussLegendre, MatchesIndependentNewtonRule) {
  for (int n = 1; n <= 6; ++n) {
    TestGauss g(n);
    for (int i = 0; i < n; ++i) {
      Real x, w;
      tlfea::gauss_legendre(n, i, x, w);
      EXPECT_NEAR(x, g.x[i], 1e-15) << "n = " << n << " i = " << i;
      EXPECT_NEAR(w, g.w[i], 1e-15) << "n = " << n << " i = " << i;
    }
  }
}

TEST(GaussLegendre, IntegratesMonomialsUpToDegree2nMinus1AndNotBeyond) {
  for (int n = 1; n <= 6; ++n) {
    for (int k = 0; k <= 2 * n; ++k) {
      Real sum = 0.0;
      for (int i = 0; i < n; ++i) {
        Real x, w;
        tlfea::gauss_legendre(n, i, x, w);
        sum += w * std::pow(x, k);
      }
      if (k <= 2 * n - 1)
        EXPECT_NEAR(sum, line_moment(k), 1e-15) << "n = " << n << " k = " << k;
      else
        EXPECT_GT(std::fabs(sum - line_moment(k)), 1e-6) << "n = " << n << " k = " << k;
    }
  }
}

template <class Rule>
void check_tet_rule(Rule rule, int npts, int degree) {
  Real wsum = 0.0;
  for (int q = 0; q < npts; ++q) {
    Real xi[3], w;
    rule(q, xi, w);
    EXPECT_GT(w, 0.0);
    EXPECT_GT(xi[0], 0.0);
    EXPECT_GT(xi[1], 0.0);
    EXPECT_GT(xi[2], 0.0);
    EXPECT_LT(xi[0] + xi[1] + xi[2], 1.0);
    wsum += w;
  }
  EXPECT_NEAR(wsum, 1.0 / 6.0, 1e-16);
  Real worst_beyond = 0.0;
  for (int d = 0; d <= degree + 1; ++d)
    for (int a = 0; a <= d; ++a)
      for (int b = 0; a + b <= d; ++b) {
        const int c = d - a - b;
        Real sum = 0.0;
        for (int q = 0; q < npts; ++q) {
          Real xi[3], w;
          rule(q, xi, w);
          sum += w * std::pow(xi[0], a) * std::pow(xi[1], b) * std::pow(xi[2], c);
        }
        const Real err = std::fabs(sum - tet_moment(a, b, c));
        if (d <= degree)
          EXPECT_LT(err, 1e-16) << "x^" << a << " y^" << b << " z^" << c;
        else
          worst_beyond = std::fmax(worst_beyond, err / tet_moment(a, b, c));
      }
  // The stated degree is sharp: some monomial of degree + 1 is not exact.
  EXPECT_GT(worst_beyond, 1e-6);
}

TEST(TetRule4, IntegratesDegree2ExactlyAndNotDegree3) {
  check_tet_rule([](int q, Real xi[3], Real& w) { tlfea::tet_rule_4(q, xi, w); }, 4, 2);
}

TEST(TetRule14, IntegratesDegree5ExactlyAndNotDegree6) {
  check_tet_rule([](int q, Real xi[3], Real& w) { tlfea::tet_rule_14(q, xi, w); }, 14, 5);
}

TEST(TriangleRule7, IntegratesDegree5ExactlyAndNotDegree6) {
  Real wsum = 0.0;
  for (int q = 0; q < 7; ++q) {
    Real a, b, w;
    tlfea::triangle_rule_7(q, a, b, w);
    EXPECT_GT(w, 0.0);
    EXPECT_GT(a, 0.0);
    EXPECT_GT(b, 0.0);
    EXPECT_LT(a + b, 1.0);
    wsum += w;
  }
  EXPECT_NEAR(wsum, 0.5, 1e-16);
  Real worst_beyond = 0.0;
  for (int d = 0; d <= 6; ++d)
    for (int i = 0; i <= d; ++i) {
      const int j = d - i;
      Real sum = 0.0;
      for (int q = 0; q < 7; ++q) {
        Real a, b, w;
        tlfea::triangle_rule_7(q, a, b, w);
        sum += w * std::pow(a, i) * std::pow(b, j);
      }
      const Real err = std::fabs(sum - tri_moment(i, j));
      if (d <= 5)
        EXPECT_LT(err, 1e-16) << "a^" << i << " b^" << j;
      else
        worst_beyond = std::fmax(worst_beyond, err / tri_moment(i, j));
    }
  EXPECT_GT(worst_beyond, 1e-6);
}

// A tensor Gauss rule (nx, ny, nz) on the cube is exact for xi^a eta^b zeta^c
// with a <= 2nx-1 etc. and not for xi^(2nx) (so the point counts are as stated).
template <class Rule>
void check_cube_rule(Rule rule, int npts, int nx, int ny, int nz) {
  ASSERT_EQ(npts, nx * ny * nz);
  auto integrate = [&](int a, int b, int c) {
    Real sum = 0.0;
    for (int q = 0; q < npts; ++q) {
      Real xi[3], w;
      rule(q, xi, w);
      sum += w * std::pow(xi[0], a) * std::pow(xi[1], b) * std::pow(xi[2], c);
    }
    return sum;
  };
  for (int a = 0; a <= 2 * nx - 1; ++a)
    for (int b = 0; b <= 2 * ny - 1; ++b)
      for (int c = 0; c <= 2 * nz - 1; ++c)
        EXPECT_NEAR(integrate(a, b, c), line_moment(a) * line_moment(b) * line_moment(c), 1e-14)
            << a << " " << b << " " << c;
  EXPECT_GT(std::fabs(integrate(2 * nx, 0, 0) - 8.0 / (2 * nx + 1)), 1e-6);
  EXPECT_GT(std::fabs(integrate(0, 2 * ny, 0) - 8.0 / (2 * ny + 1)), 1e-6);
  EXPECT_GT(std::fabs(integrate(0, 0, 2 * nz) - 8.0 / (2 * nz + 1)), 1e-6);
}

TEST(ElementRules, VolumeRulesHaveTheStatedGaussPointCounts) {
  using namespace tlfea;
  check_cube_rule(Q27::quad_point, Q27::nq, 3, 3, 3);
  check_cube_rule(Q27::mass_quad_point, Q27::nq_mass, 3, 3, 3);
  check_cube_rule(ANCF3243::quad_point, ANCF3243::nq, 3, 2, 2);
  check_cube_rule(ANCF3243::mass_quad_point, ANCF3243::nq_mass, 4, 2, 2);
  check_cube_rule(ANCF3443::quad_point, ANCF3443::nq, 4, 4, 2);
  check_cube_rule(ANCF3443::mass_quad_point, ANCF3443::nq_mass, 4, 4, 2);
  check_tet_rule(T10::quad_point, T10::nq, 2);
  check_tet_rule(T10::mass_quad_point, T10::nq_mass, 5);
}

// int s_i s_j over the parent domain: the mass rule against the reference rule.
template <class E>
void check_mass_rule_exact() {
  const auto p = test_param<E>();
  std::vector<Real> M(E::n * E::n, 0.0);
  for (int q = 0; q < E::nq_mass; ++q) {
    Real xi[3], w, s[E::n];
    E::mass_quad_point(q, xi, w);
    E::shape(p, xi, s);
    for (int i = 0; i < E::n; ++i)
      for (int j = 0; j < E::n; ++j) M[i * E::n + j] += w * s[i] * s[j];
  }
  std::vector<Real> Mref(E::n * E::n, 0.0);
  Real scale = 0.0;
  for (int i = 0; i < E::n; ++i)
    for (int j = 0; j < E::n; ++j) {
      auto f = [&](const Real xi[3]) {
        Real s[E::n];
        E::shape(p, xi, s);
        return s[i] * s[j];
      };
      Mref[i * E::n + j] = (E::type == tlfea::ElementType::T10) ? tet_reference_integral(f)
                                                                : cube_reference_integral(f);
      scale = std::fmax(scale, std::fabs(Mref[i * E::n + j]));
    }
  for (int k = 0; k < E::n * E::n; ++k)
    EXPECT_NEAR(M[k], Mref[k], 1e-13 * scale) << "entry (" << k / E::n << ", " << k % E::n << ")";
}

TEST(ElementRules, MassRuleIntegratesShapeProductsExactly) {
  check_mass_rule_exact<tlfea::T10>();
  check_mass_rule_exact<tlfea::Q27>();
  check_mass_rule_exact<tlfea::ANCF3243>();
  check_mass_rule_exact<tlfea::ANCF3443>();
}

// int ds_i/dxi . ds_j/dxi over the parent domain with the stiffness rule: the
// linear-elastic stiffness integrand of an undistorted element (constant J0)
// has this polynomial degree, so the stated rules integrate it exactly.
template <class E>
void check_stiffness_rule_exact() {
  const auto p = test_param<E>();
  Real scale = 0.0, worst = 0.0;
  for (int i = 0; i < E::n; ++i)
    for (int j = 0; j < E::n; ++j) {
      auto f = [&](const Real xi[3]) {
        Real ds[E::n][3];
        E::shape_deriv(p, xi, ds);
        return ds[i][0] * ds[j][0] + ds[i][1] * ds[j][1] + ds[i][2] * ds[j][2];
      };
      Real k = 0.0;
      for (int q = 0; q < E::nq; ++q) {
        Real xi[3], w;
        E::quad_point(q, xi, w);
        k += w * f(xi);
      }
      const Real kref = (E::type == tlfea::ElementType::T10) ? tet_reference_integral(f)
                                                             : cube_reference_integral(f);
      scale = std::fmax(scale, std::fabs(kref));
      worst = std::fmax(worst, std::fabs(k - kref));
    }
  EXPECT_LT(worst, 1e-13 * scale);
}

TEST(ElementRules, StiffnessRuleIntegratesGradientProductsExactly) {
  check_stiffness_rule_exact<tlfea::T10>();
  check_stiffness_rule_exact<tlfea::Q27>();
  check_stiffness_rule_exact<tlfea::ANCF3243>();
  check_stiffness_rule_exact<tlfea::ANCF3443>();
}

// Face rules: points on the face, t1 x t2 along the outward normal, weights
// summing to the parent face area, and s_i s_j on the face integrated exactly.
template <class E>
void check_face_rules() {
  const bool tet = E::type == tlfea::ElementType::T10;
  const auto p = test_param<E>();
  for (int f = 0; f < E::nfaces; ++f) {
    Real nrm[3];
    if (tet)
      tet_face_normal(f, nrm);
    else
      cube_face_normal(f, nrm);
    const Real area = tet ? ((f == 0) ? 0.5 * std::sqrt(3.0) : 0.5) : 4.0;
    Real area_sum = 0.0;
    std::vector<Real> Mf(E::n * E::n, 0.0);
    for (int q = 0; q < E::nq_face; ++q) {
      Real xi[3], t1[3], t2[3], w, c[3];
      E::face_quad_point(f, q, xi, t1, t2, w);
      EXPECT_GT(w, 0.0);
      cross(t1, t2, c);
      const Real jac = norm(c);
      ASSERT_GT(jac, 0.0);
      EXPECT_NEAR((c[0] * nrm[0] + c[1] * nrm[1] + c[2] * nrm[2]) / jac, 1.0, 1e-15)
          << "face " << f << " point " << q;
      area_sum += w * jac;
      if (tet) {
        // On the face plane and inside the face.
        const Real* p0 = kTetVertex[kTetFaceVertices[f][0]];
        Real dist = 0.0;
        for (int k = 0; k < 3; ++k) dist += (xi[k] - p0[k]) * nrm[k];
        EXPECT_NEAR(dist, 0.0, 1e-15) << "face " << f << " point " << q;
        EXPECT_GE(xi[0], -1e-15);
        EXPECT_GE(xi[1], -1e-15);
        EXPECT_GE(xi[2], -1e-15);
        EXPECT_LE(xi[0] + xi[1] + xi[2], 1.0 + 1e-15);
      } else {
        const int d = f / 2;
        EXPECT_EQ(xi[d], (f % 2 == 0) ? -1.0 : 1.0) << "face " << f << " point " << q;
        for (int k = 0; k < 3; ++k) {
          EXPECT_LE(std::fabs(xi[k]), 1.0);
          if (k != d) {
            EXPECT_LT(std::fabs(xi[k]), 1.0);  // interior of the face
          }
        }
      }
      Real s[E::n];
      E::shape(p, xi, s);
      for (int i = 0; i < E::n; ++i)
        for (int j = 0; j < E::n; ++j) Mf[i * E::n + j] += w * jac * s[i] * s[j];
    }
    EXPECT_NEAR(area_sum, area, 1e-14) << "face " << f;
    Real scale = 0.0, worst = 0.0;
    for (int i = 0; i < E::n; ++i)
      for (int j = 0; j < E::n; ++j) {
        const Real ref = face_reference_integral<E>(f, [&](const Real xi[3]) {
          Real s[E::n];
          E::shape(p, xi, s);
          return s[i] * s[j];
        });
        scale = std::fmax(scale, std::fabs(ref));
        worst = std::fmax(worst, std::fabs(Mf[i * E::n + j] - ref));
      }
    EXPECT_LT(worst, 1e-13 * scale) << "face " << f;
  }
}

TEST(ElementFaces, FacePointsOnFaceOutwardTangentsAndExactShapeProducts) {
  check_face_rules<tlfea::T10>();
  check_face_rules<tlfea::Q27>();
  check_face_rules<tlfea::ANCF3243>();
  check_face_rules<tlfea::ANCF3443>();
}

// The face node lists of core/mesh.hpp agree with the element faces: the nodes
// lie on the face where the quadrature points lie, the shape functions of the
// other nodes vanish on the face, the lists are outward oriented, and the face
// rule's tangents run along the list's (a, b) grid directions.
template <class E>
void check_face_node_table() {
  const bool tet = E::type == tlfea::ElementType::T10;
  const auto p = E::make_param(1, 1, 1);
  for (int f = 0; f < E::nfaces; ++f) {
    const std::vector<int> nodes = tlfea::face_nodes(E::type, f);
    ASSERT_EQ(nodes.size(), tet ? 6u : 9u) << "face " << f;
    Real nrm[3];
    if (tet)
      tet_face_normal(f, nrm);
    else
      cube_face_normal(f, nrm);
    // Plane of the face, from its first quadrature point.
    Real xq[3], t1[3], t2[3], w;
    E::face_quad_point(f, 0, xq, t1, t2, w);
    std::vector<std::array<Real, 3>> pos;
    for (int a : nodes) {
      std::array<Real, 3> x;
      E::node_parent(a, x.data());
      Real dist = 0.0;
      for (int k = 0; k < 3; ++k) dist += (x[k] - xq[k]) * nrm[k];
      EXPECT_NEAR(dist, 0.0, 1e-15) << "face " << f << " node " << a;
      pos.push_back(x);
    }
    // Orientation: T10 corners (first three) counter-clockwise from outside;
    // Q27 grid (a fastest): (x[1] - x[0]) x (x[3] - x[0]) outward.
    const int ib = tet ? 2 : 3;
    Real e1[3], e2[3], c[3];
    for (int k = 0; k < 3; ++k) e1[k] = pos[1][k] - pos[0][k], e2[k] = pos[ib][k] - pos[0][k];
    cross(e1, e2, c);
    EXPECT_GT(c[0] * nrm[0] + c[1] * nrm[1] + c[2] * nrm[2], 0.0) << "face " << f;
    // The face rule's (a, b) axes are the node list's: t1 = x[1] - x[0] and
    // t2 = x[ib] - x[0] (T10: corner edges; Q27: unit grid spacing).
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(t1[k], e1[k]) << "face " << f;
      EXPECT_EQ(t2[k], e2[k]) << "face " << f;
    }
    // Shape functions of nodes off the face vanish at every face point.
    for (int q = 0; q < E::nq_face; ++q) {
      Real xi[3], s[E::n];
      E::face_quad_point(f, q, xi, t1, t2, w);
      E::shape(p, xi, s);
      for (int i = 0; i < E::n; ++i) {
        bool on_face = false;
        for (int a : nodes) on_face = on_face || (a == i);
        if (!on_face) {
          EXPECT_NEAR(s[i], 0.0, 1e-15) << "face " << f << " node " << i;
        }
      }
    }
  }
}

TEST(ElementFaces, CoreFaceNodeListsLieOnTheElementFaces) {
  check_face_node_table<tlfea::T10>();
  check_face_node_table<tlfea::Q27>();
  EXPECT_TRUE(tlfea::face_nodes(tlfea::ElementType::ANCF3243, 0).empty());
  EXPECT_TRUE(tlfea::face_nodes(tlfea::ElementType::ANCF3443, 5).empty());
}

}  // namespace
