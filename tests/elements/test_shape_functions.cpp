// Tests of the element shape functions (t10.hpp, q27.hpp, ancf3243.hpp,
// ancf3443.hpp).
//
// Reference numbers do not come from the code under test:
//  - node parent coordinates and material maps as written in core/mesh.hpp;
//  - partition of unity and exact reproduction of the coordinates (every
//    element interpolates linear fields exactly);
//  - central finite differences of shape() for shape_deriv();
//  - the closed-form cubic Hermite functions of the 3243 beam
//    (Gerstmayr and Shabana 2005) for B^-1 b;
//  - a polynomial field typed out here by hand, with its hand-written
//    derivatives, in the span of each ANCF basis, which the element must
//    reproduce exactly from its nodal values and gradients.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <random>

#include "tlfea/elements/element_types.hpp"

namespace {

using tlfea::Real;

// Random parent point in the element's parent domain.
template <class E>
void random_parent_point(std::mt19937& gen, Real xi[3]) {
  std::uniform_real_distribution<Real> U(-1.0, 1.0);
  if (E::type == tlfea::ElementType::T10) {
    std::uniform_real_distribution<Real> U01(0.0, 1.0);
    do {
      for (int k = 0; k < 3; ++k) xi[k] = U01(gen);
    } while (xi[0] + xi[1] + xi[2] > 1.0);
  } else {
    for (int k = 0; k < 3; ++k) xi[k] = U(gen);
  }
}

// Material coordinates of the ANCF parent maps, core/mesh.hpp.
void beam_map(Real L, Real W, Real H, const Real xi[3], Real u[3]) {
  u[0] = L * (xi[0] + 1) / 2;
  u[1] = W * xi[1] / 2;
  u[2] = H * xi[2] / 2;
}
void shell_map(Real L, Real W, Real H, const Real xi[3], Real u[3]) {
  u[0] = L * (xi[0] + 1) / 2;
  u[1] = W * (xi[1] + 1) / 2;
  u[2] = H * xi[2] / 2;
}

// Node parent coordinates, core/mesh.hpp.
const Real kT10Nodes[10][3] = {{0, 0, 0},     {1, 0, 0},     {0, 1, 0},   {0, 0, 1},
                               {0.5, 0, 0},   {0.5, 0.5, 0}, {0, 0.5, 0}, {0, 0, 0.5},
                               {0.5, 0, 0.5}, {0, 0.5, 0.5}};
const Real kShellNodesUV[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};  // in units of (L, W)

// ---------------------------------------------------------------------------

TEST(NodeLayout, NodeParentCoordinatesFollowCoreMesh) {
  Real xi[3];
  for (int a = 0; a < 10; ++a) {
    tlfea::T10::node_parent(a, xi);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(xi[k], kT10Nodes[a][k]) << "T10 node " << a;
  }
  const Real c[3] = {-1, 0, 1};
  for (int kk = 0; kk < 3; ++kk)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        tlfea::Q27::node_parent(i + 3 * j + 9 * kk, xi);
        EXPECT_EQ(xi[0], c[i]);
        EXPECT_EQ(xi[1], c[j]);
        EXPECT_EQ(xi[2], c[kk]);
      }
  const auto pb = tlfea::ANCF3243::make_param(2.0, 0.3, 0.2);
  for (int a = 0; a < 2; ++a) {
    Real u[3];
    tlfea::ANCF3243::node_parent(a, xi);
    beam_map(pb.L, pb.W, pb.H, xi, u);
    EXPECT_EQ(u[0], a == 0 ? 0.0 : 2.0);
    EXPECT_EQ(u[1], 0.0);
    EXPECT_EQ(u[2], 0.0);
  }
  for (int a = 0; a < 4; ++a) {
    Real u[3];
    tlfea::ANCF3443::node_parent(a, xi);
    shell_map(2.0, 3.0, 0.1, xi, u);
    EXPECT_EQ(u[0], 2.0 * kShellNodesUV[a][0]);
    EXPECT_EQ(u[1], 3.0 * kShellNodesUV[a][1]);
    EXPECT_EQ(u[2], 0.0);
  }
  static_assert(tlfea::T10::n == tlfea::T10::nodes * tlfea::T10::coef_per_node);
  static_assert(tlfea::Q27::n == tlfea::Q27::nodes * tlfea::Q27::coef_per_node);
  static_assert(tlfea::ANCF3243::n == tlfea::ANCF3243::nodes * tlfea::ANCF3243::coef_per_node);
  static_assert(tlfea::ANCF3443::n == tlfea::ANCF3443::nodes * tlfea::ANCF3443::coef_per_node);
}

// T10 / Q27: partition of unity, and the nodal parent coordinates interpolate
// xi itself (isoparametric completeness); derivatives then sum to 0 and
// reproduce the identity.
template <class E>
void check_lagrange_completeness() {
  std::mt19937 gen(12345);
  const auto p = E::make_param(1, 1, 1);
  for (int trial = 0; trial < 50; ++trial) {
    Real xi[3], s[E::n], ds[E::n][3];
    random_parent_point<E>(gen, xi);
    E::shape(p, xi, s);
    E::shape_deriv(p, xi, ds);
    Real sum = 0.0, x[3] = {0, 0, 0}, dsum[3] = {0, 0, 0}, J[3][3] = {};
    for (int a = 0; a < E::n; ++a) {
      Real xa[3];
      E::node_parent(a, xa);
      sum += s[a];
      for (int k = 0; k < 3; ++k) {
        x[k] += s[a] * xa[k];
        dsum[k] += ds[a][k];
        for (int l = 0; l < 3; ++l) J[k][l] += xa[k] * ds[a][l];
      }
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(x[k], xi[k], 1e-14);
      EXPECT_NEAR(dsum[k], 0.0, 1e-13);
      for (int l = 0; l < 3; ++l) EXPECT_NEAR(J[k][l], k == l ? 1.0 : 0.0, 1e-13);
    }
  }
}

TEST(LagrangeElements, PartitionOfUnityAndCoordinateReproduction) {
  check_lagrange_completeness<tlfea::T10>();
  check_lagrange_completeness<tlfea::Q27>();
}

template <class E>
void check_kronecker_at_nodes() {
  const auto p = E::make_param(1, 1, 1);
  for (int b = 0; b < E::nodes; ++b) {
    Real xi[3], s[E::n];
    E::node_parent(b, xi);
    E::shape(p, xi, s);
    for (int a = 0; a < E::n; ++a) EXPECT_NEAR(s[a], a == b ? 1.0 : 0.0, 1e-15) << a << " " << b;
  }
}

TEST(LagrangeElements, KroneckerDeltaAtNodes) {
  check_kronecker_at_nodes<tlfea::T10>();
  check_kronecker_at_nodes<tlfea::Q27>();
}

// Reference coefficients of a straight ANCF element: r = node position,
// r_u = (1,0,0), r_v = (0,1,0), r_w = (0,0,1).
template <class E>
void reference_coefficients(const typename E::Param& p, Real e[E::n][3]) {
  for (int a = 0; a < E::nodes; ++a) {
    Real xi[3], u[3];
    E::node_parent(a, xi);
    if (E::type == tlfea::ElementType::ANCF3243)
      beam_map(p.L, p.W, p.H, xi, u);
    else
      shell_map(p.L, p.W, p.H, xi, u);
    for (int k = 0; k < 3; ++k) {
      e[4 * a][k] = u[k];
      for (int j = 1; j < 4; ++j) e[4 * a + j][k] = (j - 1 == k) ? 1.0 : 0.0;
    }
  }
}

template <class E>
void check_ancf_completeness(Real L, Real W, Real H) {
  std::mt19937 gen(777);
  const auto p = E::make_param(L, W, H);
  Real e[E::n][3];
  reference_coefficients<E>(p, e);
  const Real half[3] = {L / 2, W / 2, H / 2};  // du/dxi, dv/deta, dw/dzeta
  const Real size = std::fmax(L, std::fmax(W, H));
  for (int trial = 0; trial < 50; ++trial) {
    Real xi[3], s[E::n], ds[E::n][3], u[3];
    random_parent_point<E>(gen, xi);
    if (E::type == tlfea::ElementType::ANCF3243)
      beam_map(L, W, H, xi, u);
    else
      shell_map(L, W, H, xi, u);
    E::shape(p, xi, s);
    E::shape_deriv(p, xi, ds);
    Real pos_sum = 0.0, r[3] = {0, 0, 0}, J[3][3] = {};
    for (int a = 0; a < E::nodes; ++a) pos_sum += s[4 * a];
    for (int i = 0; i < E::n; ++i)
      for (int k = 0; k < 3; ++k) {
        r[k] += s[i] * e[i][k];
        for (int l = 0; l < 3; ++l) J[k][l] += e[i][k] * ds[i][l];
      }
    EXPECT_NEAR(pos_sum, 1.0, 1e-13);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(r[k], u[k], 1e-13 * size) << "L = " << L;
      for (int l = 0; l < 3; ++l)
        EXPECT_NEAR(J[k][l], k == l ? half[k] : 0.0, 1e-12 * size) << "L = " << L;
    }
  }
}

TEST(AncfElements, PartitionOfUnityAndStraightReferenceReproducesCoordinates) {
  for (Real scale : {1.0, 1e-3, 50.0}) {
    check_ancf_completeness<tlfea::ANCF3243>(2.0 * scale, 0.3 * scale, 0.1 * scale);
    check_ancf_completeness<tlfea::ANCF3443>(1.5 * scale, 0.8 * scale, 0.05 * scale);
  }
}

// At node k, s and its u, v, w derivatives pick coefficient (r, r_u, r_v, r_w)
// of that node: s_i = delta(i, 4k), ds_i/du_d = delta(i, 4k + 1 + d).
template <class E>
void check_ancf_nodal_interpolation(Real L, Real W, Real H) {
  const auto p = E::make_param(L, W, H);
  const Real dxi_du[3] = {2 / L, 2 / W, 2 / H};
  for (int a = 0; a < E::nodes; ++a) {
    Real xi[3], s[E::n], ds[E::n][3];
    E::node_parent(a, xi);
    E::shape(p, xi, s);
    E::shape_deriv(p, xi, ds);
    for (int i = 0; i < E::n; ++i) {
      EXPECT_NEAR(s[i], i == 4 * a ? 1.0 : 0.0, 1e-13) << "node " << a << " s_" << i;
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(ds[i][d] * dxi_du[d], i == 4 * a + 1 + d ? 1.0 : 0.0, 1e-12)
            << "node " << a << " ds_" << i << "/du_" << d;
    }
  }
}

TEST(AncfElements, NodalValuesAndGradientsPickTheirCoefficient) {
  check_ancf_nodal_interpolation<tlfea::ANCF3243>(2.0, 0.3, 0.1);
  check_ancf_nodal_interpolation<tlfea::ANCF3243>(0.01, 0.002, 0.001);
  check_ancf_nodal_interpolation<tlfea::ANCF3443>(1.5, 0.8, 0.05);
  check_ancf_nodal_interpolation<tlfea::ANCF3443>(0.02, 0.03, 0.001);
}

// Closed-form 3243 shape functions (x = u/L): cubic Hermite along the axis,
// linear in v, w (Gerstmayr and Shabana 2005; docs/theory.md §3.3).
TEST(Ancf3243, ShapeFunctionsEqualClosedFormHermite) {
  std::mt19937 gen(99);
  for (Real L : {1.0, 2.5, 0.004}) {
    const Real W = 0.2 * L, H = 0.15 * L;
    const auto p = tlfea::ANCF3243::make_param(L, W, H);
    for (int trial = 0; trial < 30; ++trial) {
      Real xi[3], u[3], s[8];
      random_parent_point<tlfea::ANCF3243>(gen, xi);
      beam_map(L, W, H, xi, u);
      tlfea::ANCF3243::shape(p, xi, s);
      const Real x = u[0] / L, v = u[1], w = u[2];
      const Real ref[8] = {
          1 - 3 * x * x + 2 * x * x * x, L * (x - 2 * x * x + x * x * x), v * (1 - x), w * (1 - x),
          3 * x * x - 2 * x * x * x,     L * (-x * x + x * x * x),        v * x,       w * x};
      const Real tol[8] = {1e-14, 1e-14 * L, 1e-14 * L, 1e-14 * L,
                           1e-14, 1e-14 * L, 1e-14 * L, 1e-14 * L};
      for (int i = 0; i < 8; ++i) EXPECT_NEAR(s[i], ref[i], tol[i]) << "L = " << L << " i = " << i;
    }
  }
}

// Fields in the span of each ANCF basis, typed out by hand with their
// gradients (g[0] = f, g[1] = f_u, g[2] = f_v, g[3] = f_w).
void beam_field(const Real u[3], Real g[4]) {
  const Real x = u[0], v = u[1], w = u[2];
  g[0] =
      0.3 - 1.2 * x + 0.7 * v + 2.0 * w - 0.4 * x * v + 1.1 * x * w + 0.9 * x * x - 0.6 * x * x * x;
  g[1] = -1.2 - 0.4 * v + 1.1 * w + 1.8 * x - 1.8 * x * x;
  g[2] = 0.7 - 0.4 * x;
  g[3] = 2.0 + 1.1 * x;
}
void shell_field(const Real u[3], Real g[4]) {
  const Real x = u[0], y = u[1], z = u[2];
  // f = 0.5 + x - 2y + 0.8z + 0.3xy - 0.7xz + 1.3yz + 0.6xyz + 0.4x^2 - 0.9y^2
  //     + 0.2x^3 - 0.5y^3 + 0.45x^2y - 0.35xy^2 + 0.25x^3y - 0.15xy^3
  g[0] = 0.5 + x - 2 * y + 0.8 * z + 0.3 * x * y - 0.7 * x * z + 1.3 * y * z + 0.6 * x * y * z +
         0.4 * x * x - 0.9 * y * y + 0.2 * x * x * x - 0.5 * y * y * y + 0.45 * x * x * y -
         0.35 * x * y * y + 0.25 * x * x * x * y - 0.15 * x * y * y * y;
  g[1] = 1 + 0.3 * y - 0.7 * z + 0.6 * y * z + 0.8 * x + 0.6 * x * x + 0.9 * x * y - 0.35 * y * y +
         0.75 * x * x * y - 0.15 * y * y * y;
  g[2] = -2 + 0.3 * x + 1.3 * z + 0.6 * x * z - 1.8 * y - 1.5 * y * y + 0.45 * x * x - 0.7 * x * y +
         0.25 * x * x * x - 0.45 * x * y * y;
  g[3] = 0.8 - 0.7 * x + 1.3 * y + 0.6 * x * y;
}

template <class E>
void check_span_reproduction(Real L, Real W, Real H) {
  const bool beam = E::type == tlfea::ElementType::ANCF3243;
  const auto p = E::make_param(L, W, H);
  // Nodal coefficients from the field (the same scalar in each of the 3 components
  // would be enough; use the scalar field only).
  Real c[E::n];
  for (int a = 0; a < E::nodes; ++a) {
    Real xi[3], u[3], g[4];
    E::node_parent(a, xi);
    if (beam)
      beam_map(L, W, H, xi, u);
    else
      shell_map(L, W, H, xi, u);
    if (beam)
      beam_field(u, g);
    else
      shell_field(u, g);
    for (int j = 0; j < 4; ++j) c[4 * a + j] = g[j];
  }
  std::mt19937 gen(2024);
  for (int trial = 0; trial < 40; ++trial) {
    Real xi[3], u[3], g[4], s[E::n], ds[E::n][3];
    random_parent_point<E>(gen, xi);
    if (beam)
      beam_map(L, W, H, xi, u);
    else
      shell_map(L, W, H, xi, u);
    if (beam)
      beam_field(u, g);
    else
      shell_field(u, g);
    E::shape(p, xi, s);
    E::shape_deriv(p, xi, ds);
    Real f = 0.0, df[3] = {0, 0, 0};
    for (int i = 0; i < E::n; ++i) {
      f += s[i] * c[i];
      for (int d = 0; d < 3; ++d) df[d] += ds[i][d] * c[i];
    }
    const Real half[3] = {L / 2, W / 2, H / 2};
    EXPECT_NEAR(f, g[0], 1e-13);
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(df[d] / half[d], g[1 + d], 1e-12) << "d = " << d;
  }
}

TEST(AncfElements, ReproduceEveryFieldInTheirBasisSpan) {
  check_span_reproduction<tlfea::ANCF3243>(1.3, 0.4, 0.2);
  check_span_reproduction<tlfea::ANCF3443>(1.1, 0.7, 0.08);
}

// shape_deriv against central differences of shape, h = 1e-6: truncation
// O(h^2 |s'''|) ~ 1e-12 and rounding O(eps / h) ~ 1e-10 relative, far below 1e-7.
template <class E>
void check_derivative_fd(const typename E::Param& p) {
  std::mt19937 gen(4242);
  const Real h = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    Real xi[3], ds[E::n][3];
    random_parent_point<E>(gen, xi);
    if (E::type == tlfea::ElementType::T10) {
      for (int k = 0; k < 3; ++k) xi[k] = 0.01 + 0.97 * xi[k];  // keep xi +- h inside
    }
    E::shape_deriv(p, xi, ds);
    Real scale = 0.0;
    for (int i = 0; i < E::n; ++i)
      for (int k = 0; k < 3; ++k) scale = std::fmax(scale, std::fabs(ds[i][k]));
    for (int k = 0; k < 3; ++k) {
      Real xp[3] = {xi[0], xi[1], xi[2]}, xm[3] = {xi[0], xi[1], xi[2]};
      xp[k] += h;
      xm[k] -= h;
      Real sp[E::n], sm[E::n];
      E::shape(p, xp, sp);
      E::shape(p, xm, sm);
      for (int i = 0; i < E::n; ++i) {
        const Real fd = (sp[i] - sm[i]) / (2 * h);
        EXPECT_LT(std::fabs(fd - ds[i][k]), 1e-7 * scale) << "i = " << i << " k = " << k;
      }
    }
  }
}

TEST(AllElements, ShapeDerivativeMatchesCentralFiniteDifference) {
  check_derivative_fd<tlfea::T10>(tlfea::T10::make_param(0, 0, 0));
  check_derivative_fd<tlfea::Q27>(tlfea::Q27::make_param(0, 0, 0));
  check_derivative_fd<tlfea::ANCF3243>(tlfea::ANCF3243::make_param(2.0, 0.3, 0.1));
  check_derivative_fd<tlfea::ANCF3443>(tlfea::ANCF3443::make_param(1.5, 0.8, 0.05));
}

TEST(AncfElements, MakeParamRejectsNonPositiveSize) {
  EXPECT_THROW(tlfea::ANCF3243::make_param(0.0, 0.1, 0.1), tlfea::Error);
  EXPECT_THROW(tlfea::ANCF3443::make_param(1.0, -1.0, 0.1), tlfea::Error);
}

TEST(ElementDispatch, DispatchSelectsTheMatchingElementStruct) {
  for (auto t : {tlfea::ElementType::T10, tlfea::ElementType::Q27, tlfea::ElementType::ANCF3243,
                 tlfea::ElementType::ANCF3443}) {
    const int n = tlfea::dispatch_element_type(t, [](auto e) { return decltype(e)::n; });
    const int expected[4] = {10, 27, 8, 16};
    EXPECT_EQ(n, expected[static_cast<int>(t)]);
    const auto type = tlfea::dispatch_element_type(t, [](auto e) { return decltype(e)::type; });
    EXPECT_EQ(type, t);
  }
}

// ---------------------------------------------------------------------------
// Device cleanliness: shape functions, derivatives and the quadrature rules
// evaluated inside Kokkos::parallel_for (named functor), compared on the host.

template <class E>
struct EvaluateAtMassPoints {
  using Param = typename E::Param;
  Param p;
  Kokkos::View<Real**, tlfea::DeviceType> xi, s;
  Kokkos::View<Real***, tlfea::DeviceType> ds;
  Kokkos::View<Real**, tlfea::DeviceType> stiff;  // per stiffness point: xi, w
  Kokkos::View<Real**, tlfea::DeviceType> face;   // per face point: xi, t1, t2, w

  KOKKOS_INLINE_FUNCTION void operator()(const int q) const {
    if (q < E::nq_mass) {
      Real x[3], w, sv[E::n], dsv[E::n][3];
      E::mass_quad_point(q, x, w);
      E::shape(p, x, sv);
      E::shape_deriv(p, x, dsv);
      for (int k = 0; k < 3; ++k) xi(q, k) = x[k];
      xi(q, 3) = w;
      for (int i = 0; i < E::n; ++i) {
        s(q, i) = sv[i];
        for (int k = 0; k < 3; ++k) ds(q, i, k) = dsv[i][k];
      }
    }
    if (q < E::nq) {
      Real xs[3], ws;
      E::quad_point(q, xs, ws);
      for (int k = 0; k < 3; ++k) stiff(q, k) = xs[k];
      stiff(q, 3) = ws;
    }
    if (q < E::nfaces * E::nq_face) {
      Real fx[3], t1[3], t2[3], fw;
      E::face_quad_point(q / E::nq_face, q % E::nq_face, fx, t1, t2, fw);
      for (int k = 0; k < 3; ++k) {
        face(q, k) = fx[k];
        face(q, 3 + k) = t1[k];
        face(q, 6 + k) = t2[k];
      }
      face(q, 9) = fw;
    }
  }
};

template <class E>
void check_device_evaluation(const typename E::Param& p) {
  const int nq = E::nq_mass;
  const int nf = E::nfaces * E::nq_face;
  const int npts = std::max({nq, nf, int(E::nq)});
  EvaluateAtMassPoints<E> fun;
  fun.p = p;
  fun.xi = Kokkos::View<Real**, tlfea::DeviceType>("xi", npts, 4);
  fun.stiff = Kokkos::View<Real**, tlfea::DeviceType>("stiff", npts, 4);
  fun.s = Kokkos::View<Real**, tlfea::DeviceType>("s", npts, E::n);
  fun.ds = Kokkos::View<Real***, tlfea::DeviceType>("ds", npts, E::n, 3);
  fun.face = Kokkos::View<Real**, tlfea::DeviceType>("face", npts, 10);
  Kokkos::parallel_for("tlfea::tests::evaluate_shape",
                       Kokkos::RangePolicy<tlfea::ExecSpace>(0, npts), fun);
  auto xi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fun.xi);
  auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fun.s);
  auto ds = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fun.ds);
  auto stiff = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fun.stiff);
  auto face = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fun.face);
  for (int q = 0; q < npts; ++q) {
    if (q < nq) {
      Real x[3], w, sh[E::n], dsh[E::n][3];
      E::mass_quad_point(q, x, w);
      E::shape(p, x, sh);
      E::shape_deriv(p, x, dsh);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(xi(q, k), x[k], 1e-15);
      EXPECT_NEAR(xi(q, 3), w, 1e-15);
      for (int i = 0; i < E::n; ++i) {
        EXPECT_NEAR(s(q, i), sh[i], 1e-14);
        for (int k = 0; k < 3; ++k) EXPECT_NEAR(ds(q, i, k), dsh[i][k], 1e-13);
      }
    }
    if (q < E::nq) {
      Real x[3], w;
      E::quad_point(q, x, w);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(stiff(q, k), x[k], 1e-15);
      EXPECT_NEAR(stiff(q, 3), w, 1e-15);
    }
    if (q < nf) {
      Real fx[3], t1[3], t2[3], fw;
      E::face_quad_point(q / E::nq_face, q % E::nq_face, fx, t1, t2, fw);
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(face(q, k), fx[k], 1e-15);
        EXPECT_NEAR(face(q, 3 + k), t1[k], 1e-15);
        EXPECT_NEAR(face(q, 6 + k), t2[k], 1e-15);
      }
      EXPECT_NEAR(face(q, 9), fw, 1e-15);
    }
  }
}

TEST(DeviceEvaluation, ShapeFunctionsInParallelForMatchHost) {
  check_device_evaluation<tlfea::T10>(tlfea::T10::make_param(0, 0, 0));
  check_device_evaluation<tlfea::Q27>(tlfea::Q27::make_param(0, 0, 0));
  check_device_evaluation<tlfea::ANCF3243>(tlfea::ANCF3243::make_param(2.0, 0.3, 0.1));
  check_device_evaluation<tlfea::ANCF3443>(tlfea::ANCF3443::make_param(1.5, 0.8, 0.05));
}

}  // namespace
