// The two-level preconditioner of kk-cg / kk-gmres (coarse rigid-body,
// linalg/src/krylov_two_level.hpp):
//  - with one aggregate, Z holds the six rigid-body modes of the body, so
//    K_0 Z = 0 for the unconstrained stiffness at the reference (a rigid
//    motion changes no Green-Lagrange strain: Bonet & Wood 2008, ch. 3; a
//    fact of mechanics, not of the code);
//  - P = (I - Q A) M^-1 (I - A Q) + Q is symmetric: x^T P y = y^T P x for
//    random x, y (Tang, Nabben, Vuik & Erlangga 2009, Sec. 3);
//  - P A z = z for z in the span of Z (the algebra of the projections:
//    (I - A Q) A Z = 0 and Q A Z = Z), here a global rotation, which lies in
//    the span of the aggregates' local modes;
//  - kk-cg with the coarse level reproduces Eigen's LDL^T solution of a
//    clamped cantilever and needs fewer iterations than the one-level
//    preconditioners;
//  - a TimeStepper with kk-cg and the coarse level (node positions from the
//    stepper's set_rigid_body_layout / set_coefficients) steps a clamped
//    beam as one with Eigen's LDL^T does;
//  - bad options and a matrix that is not positive definite are refused
//    with messages that say why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "../../integrators/src/rigid_body_layout.hpp"
#include "../../linalg/src/krylov_two_level.hpp"
#include "../../linalg/src/rigid_body_modes.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/sparse_matrix.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/model/model.hpp"
#include "vectors.hpp"

namespace tlfea {
namespace {

using test::to_device;
using test::to_host;

DeviceView<unsigned char*> flags(const std::vector<unsigned char>& h) {
  DeviceView<unsigned char*> d("flags", h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < h.size(); ++i) m(i) = h[i];
  Kokkos::deep_copy(d, m);
  return d;
}

// A T10 box's stiffness at the reference (v = 0), optionally clamped at
// xmin with the stepper's elimination (unit diagonal, zero row and column).
struct Box {
  Model model;
  Mesh mesh;
  std::vector<Real> K, b;
  std::vector<unsigned char> free;
  Box(const std::array<Real, 3>& lengths, const std::array<int, 3>& divisions, bool clamp)
      : mesh(generate_box(ElementType::T10, lengths, divisions)) {
    const int body = model.add_body(mesh, MaterialSpec::svk(2e9, 0.3), 1000.0);
    if (clamp) model.clamp_node_set(body, "xmin");
    model.finalize();
    DeviceView<Real*> values("K", model.pattern().nnz());
    CoefView v("v", model.num_coefficients());
    model.block(0).tangent(model.reference(), v, 1.0, 0.0, values);
    K = to_host(values);
    const CrsPattern& p = model.pattern();
    const Ordinal n = p.num_rows();
    free.assign(n, 1);
    for (Ordinal c : model.clamped_coefficients())
      for (int a = 0; a < 3; ++a) free[3 * c + a] = 0;
    auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), p.row_map);
    auto en = Kokkos::create_mirror_view_and_copy(HostSpace(), p.entries);
    for (Ordinal r = 0; r < n; ++r)
      for (Offset k = rm(r); k < rm(r + 1); ++k)
        if (!free[r] || !free[en(k)]) K[k] = en(k) == r ? 1.0 : 0.0;
    // A transverse load on the free end: bending, the low-energy mode a
    // one-level preconditioner resolves slowly.
    b.assign(n, 0.0);
    for (Ordinal k : mesh.node_sets.at("xmax")) b[3 * k + 2] = -1.0;
  }
  Ordinal n() const { return model.pattern().num_rows(); }
  Real norm_inf() const {
    const CrsPattern& p = model.pattern();
    auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), p.row_map);
    Real m = 0;
    for (Ordinal r = 0; r < n(); ++r) {
      Real s = 0;
      for (Offset k = rm(r); k < rm(r + 1); ++k) s += std::fabs(K[k]);
      m = std::max(m, s);
    }
    return m;
  }
  std::vector<Real> matvec(const std::vector<Real>& x) const {
    const CrsPattern& p = model.pattern();
    auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), p.row_map);
    auto en = Kokkos::create_mirror_view_and_copy(HostSpace(), p.entries);
    return test::crs_matvec(rm, en, K, x);
  }
};

// A coarse space of `box` with aggregates of at most `size` nodes, set up on K.
struct Coarse {
  detail::RigidBodyCoarseSpace space;
  DeviceView<Real*> values;
  SparseMatrix matrix;
  Coarse(Box& box, int size) : space("test", size) {
    space.analyze(box.model.pattern());
    space.set_layout(detail::rigid_body_layout(box.model, flags(box.free)));
    space.set_coefficients(box.model.reference());
    values = to_device(box.K, "K");
    matrix = make_sparse_matrix(box.model.pattern(), values);
    // ||A||_inf in slot 0 of a device array, as the solver's state holds it.
    DeviceView<Real*> anorm("anorm", 1);
    Kokkos::deep_copy(anorm, box.norm_inf());
    space.factorize(values, anorm, 0);
  }
};

// y = dinv x, elementwise.
struct ScaleKernel {
  DeviceView<Real*> dinv, x, y;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const { y(i) = dinv(i) * x(i); }
};

// M^-1 = diag(A)^-1 (a symmetric positive definite one-level preconditioner).
struct DiagonalSmoother {
  DeviceView<Real*> dinv;
  void operator()(const DeviceView<Real*>& x, const DeviceView<Real*>& y) const {
    Kokkos::parallel_for("test::jacobi",
                         Kokkos::RangePolicy<ExecSpace>(0, static_cast<Ordinal>(x.extent(0))),
                         ScaleKernel{dinv, x, y});
  }
};

DiagonalSmoother diagonal_smoother(const Box& box) {
  const CrsPattern& p = box.model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), p.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(HostSpace(), p.entries);
  std::vector<Real> d(box.n(), 0.0);
  for (Ordinal r = 0; r < box.n(); ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k)
      if (en(k) == r) d[r] = 1.0 / box.K[k];
  return {to_device(d, "dinv")};
}

Real dot(const std::vector<Real>& a, const std::vector<Real>& b) {
  Real s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

TEST(KkTwoLevel, OneAggregateHoldsTheRigidBodyModes) {
  Box box({1.0, 0.3, 0.2}, {4, 2, 1}, false);
  Coarse c(box, 1 << 20);  // every node in one aggregate
  ASSERT_EQ(c.space.num_aggregates(), 1);
  // Each mode has zero energy on the unconstrained body, so each pivot of
  // E = Z^T K Z is round-off and its mode is dropped (not an error: its
  // sign says nothing).
  EXPECT_EQ(c.space.dropped_modes(), 6);
  auto z = Kokkos::create_mirror_view_and_copy(HostSpace(), c.space.modes());
  Real norm_k = 0;
  for (Real v : box.K) norm_k += v * v;
  norm_k = std::sqrt(norm_k);
  for (int k = 0; k < 6; ++k) {
    std::vector<Real> zk(box.n());
    for (Ordinal r = 0; r < box.n(); ++r) zk[r] = z(r, k);
    const std::vector<Real> kz = box.matvec(zk);
    const Real rel = std::sqrt(dot(kz, kz) / dot(zk, zk)) / norm_k;
    // Round-off of the quadrature sums, as for the muelu near-nullspace
    // (test_muelu_nullspace.cpp): a few hundred terms of relative error
    // 1e-16 each.
    EXPECT_LT(rel, 1e-12) << "mode " << k;
  }
}

TEST(KkTwoLevel, PreconditionerIsSymmetricAndExactOnTheCoarseSpace) {
  Box box({2.0, 0.2, 0.2}, {20, 2, 2}, true);
  Coarse c(box, 16);
  ASSERT_GT(c.space.num_aggregates(), 4);
  const DiagonalSmoother smooth = diagonal_smoother(box);
  const Ordinal n = box.n();
  auto apply = [&](const std::vector<Real>& x) {
    DeviceView<Real*> y("y", n);
    c.space.apply(to_device(x, "x"), y, smooth);
    return to_host(y);
  };
  std::mt19937 gen(7);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<Real> x(n), y(n);
    for (Ordinal i = 0; i < n; ++i) {
      x[i] = box.free[i] ? u(gen) : 0.0;
      y[i] = box.free[i] ? u(gen) : 0.0;
    }
    const std::vector<Real> px = apply(x), py = apply(y);
    const Real xpy = dot(x, py), ypx = dot(y, px);
    // P's terms are each symmetric in exact arithmetic; in floating point
    // the two sides differ by the round-off of sums of n terms
    // (n eps ~ 1e-12 relative to |x| |P y|).
    const Real scale = std::sqrt(dot(x, x) * dot(py, py));
    EXPECT_LT(std::fabs(xpy - ypx), 1e-11 * scale) << xpy << " vs " << ypx;
    EXPECT_GT(xpy * ypx, 0.0);
  }
  // A global rotation about the x axis through the clamped face (zero on
  // the clamped rows, like every column of Z): on each aggregate it is the
  // local rotation about the aggregate's centroid plus a translation, so it
  // lies in the span of Z, and P A z = z.
  const auto q = Kokkos::create_mirror_view_and_copy(HostSpace(), box.model.reference());
  std::vector<Real> z(n, 0.0);
  for (Ordinal c2 = 0; c2 < n / 3; ++c2) {
    if (!box.free[3 * c2]) continue;
    z[3 * c2 + 1] = -q(c2, 2);
    z[3 * c2 + 2] = q(c2, 1);
  }
  const std::vector<Real> paz = apply(box.matvec(z));
  std::vector<Real> d(n);
  for (Ordinal i = 0; i < n; ++i) d[i] = paz[i] - z[i];
  const Real rel = std::sqrt(dot(d, d) / dot(z, z));
  std::cout << "  |P A z - z| / |z| = " << rel << " (" << c.space.num_aggregates()
            << " aggregates)\n";
  // E^-1 E c = c to eps cond(E); cond(E) of this cantilever's coarse matrix
  // is at most cond(K) ~ 1e5 (Z^T K Z / Z^T Z lies in K's spectrum), so
  // 1e-16 * 1e5 with a factor 100 to spare.
  EXPECT_LT(rel, 1e-9);
}

std::vector<Real> solve(Box& box, const std::string& backend, const std::string& pc,
                        const std::string& coarse, int size, int& iterations) {
  LinearSolverOptions o;
  o.backend = backend;
  o.preconditioner = pc;
  o.coarse = coarse;
  o.coarse_aggregate_size = size;
  o.tolerance = 1e-12;
  o.max_iterations = 5000;
  auto solver = make_linear_solver(o);
  solver->analyze(box.model.pattern());
  solver->set_rigid_body_layout(detail::rigid_body_layout(box.model, flags(box.free)));
  solver->set_coefficients(box.model.reference());
  solver->factorize(to_device(box.K, "K"));
  DeviceView<Real*> x("x", box.b.size());
  solver->solve(to_device(box.b, "b"), x);
  iterations = solver->stats().last_iterations;
  return to_host(x);
}

TEST(KkTwoLevel, CgMatchesTheDirectSolveInFewerIterations) {
  Box box({2.0, 0.2, 0.2}, {20, 2, 2}, true);
  int it_direct = 0;
  const std::vector<Real> x_ref = solve(box, "eigen-ldlt", "default", "none", 0, it_direct);
  for (const char* pc : {"block-jacobi", "sgs", "ilu0"}) {
    SCOPED_TRACE(pc);
    int it_one = 0, it_two = 0;
    const std::vector<Real> x_one = solve(box, "kk-cg", pc, "none", 0, it_one);
    const std::vector<Real> x_two = solve(box, "kk-cg", pc, "rigid-body", 16, it_two);
    const Real d = test::relative_difference(x_two, x_ref);
    std::cout << "  " << pc << ": CG iterations to 1e-12 " << it_one << " one-level, " << it_two
              << " with coarse rigid-body (aggregates of <= 16 nodes); |x - x_ldlt| / |x_ldlt| = "
              << d << "\n";
    // ||x - x*|| / ||x*|| <= cond(K) * 1e-12 (the stopping residual), cond(K)
    // ~1e5 for this cantilever (test_muelu_nullspace.cpp's estimate): 1e-6
    // with a factor 10 to spare.
    EXPECT_LT(d, 1e-6);
    // The slender cantilever's bending is the low-energy mode a one-level
    // preconditioner resolves over ~length / h iterations; the coarse space
    // of rigid aggregates holds it (piecewise rotations). Measured (the
    // line printed above, Serial build): block-jacobi 1055 -> 81, sgs
    // 485 -> 43, ilu0 306 -> 41; the bound asks for half, far inside each.
    EXPECT_LT(2 * it_two, it_one);
  }
}

TEST(KkTwoLevel, GmresWithTheCoarseLevelMatchesTheDirectSolve) {
  Box box({2.0, 0.2, 0.2}, {20, 2, 2}, true);
  int it = 0;
  const std::vector<Real> x_ref = solve(box, "eigen-ldlt", "default", "none", 0, it);
  const std::vector<Real> x = solve(box, "kk-gmres", "block-jacobi", "rigid-body", 16, it);
  // As for CG above.
  EXPECT_LT(test::relative_difference(x, x_ref), 1e-6);
}

TEST(KkTwoLevel, TimeStepperWithTheCoarseLevelMatchesTheDirectSolver) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {10, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(2e9, 0.3), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.finalize();
  // A transverse velocity growing along the beam: it bends.
  const auto q0 = Kokkos::create_mirror_view_and_copy(HostSpace(), model.reference());
  CoefView v("v", q0.extent(0));
  auto vh = Kokkos::create_mirror_view(v);
  for (size_t k = 0; k < q0.extent(0); ++k) {
    vh(k, 0) = vh(k, 1) = 0.0;
    vh(k, 2) = q0(k, 0);
  }
  Kokkos::deep_copy(v, vh);
  auto run = [&](const std::string& backend, const std::string& pc, const std::string& coarse) {
    StepperSettings s;
    s.dt = 1e-3;
    s.linear.backend = backend;
    s.linear.preconditioner = pc;
    s.linear.coarse = coarse;
    s.linear.coarse_aggregate_size = 8;
    TimeStepper st(model, s);
    st.set_velocities(v);
    for (int n = 0; n < 3; ++n) EXPECT_TRUE(st.step().converged);
    return Kokkos::create_mirror_view_and_copy(HostSpace(), st.positions());
  };
  const auto qd = run("eigen-ldlt", "default", "none");
  const auto qk = run("kk-cg", "sgs", "rigid-body");
  Real num = 0, den = 0;
  for (size_t k = 0; k < q0.extent(0); ++k)
    for (int a = 0; a < 3; ++a) {
      num += (qk(k, a) - qd(k, a)) * (qk(k, a) - qd(k, a));
      den += (qd(k, a) - q0(k, a)) * (qd(k, a) - q0(k, a));
    }
  const Real rel = std::sqrt(num / den);
  std::cout << "  |q_kk - q_ldlt| / |q_ldlt - q_0| after 3 steps = " << rel << "\n";
  // Both runs meet the stepper's Newton tolerance |g| <= 1e-10 |g_0| each
  // step; the converged positions then differ by at most cond(J) times that
  // relative to the step's update, cond(J) <= ~1e3 for this
  // mass-dominated Newton matrix (M / h^2 + K at h = 1e-3 s), so 1e-6 with
  // a factor 10 to spare (measured: 8e-10).
  EXPECT_LT(rel, 1e-6);
}

// The message of the Error f throws (empty if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(KkTwoLevel, BadOptionsAndMatricesAreRefused) {
  Box box({1.0, 0.2, 0.2}, {6, 2, 2}, true);
  LinearSolverOptions o;
  o.backend = "kk-cg";
  o.coarse = "rigid-body";
  o.coarse_aggregate_size = 2;
  EXPECT_NE(error_of([&] { make_linear_solver(o); }).find("coarse_aggregate_size must be >= 4"),
            std::string::npos);
  o.coarse_aggregate_size = 0;
  o.coarse = "deflation";
  EXPECT_NE(error_of([&] { make_linear_solver(o); }).find("coarse \"deflation\" is not available"),
            std::string::npos);
  o.coarse = "rigid-body";
  o.backend = "eigen-ldlt";
  EXPECT_NE(error_of([&] { make_linear_solver(o); }).find("is for kk-cg and kk-gmres only"),
            std::string::npos);
  // A nonsymmetric matrix (kk-gmres with follower loads): the coarse
  // factorization reads one triangle of Z^T A Z, so it is refused.
  o.backend = "kk-gmres";
  o.symmetric = false;
  EXPECT_NE(
      error_of([&] { make_linear_solver(o); }).find("coarse rigid-body needs a symmetric matrix"),
      std::string::npos);
  o.symmetric = true;
  // No node positions: the coarse level cannot be built.
  o.backend = "kk-cg";
  auto solver = make_linear_solver(o);
  solver->analyze(box.model.pattern());
  EXPECT_NE(error_of([&] {
              solver->factorize(to_device(box.K, "K"));
            }).find("coarse rigid-body needs the node positions"),
            std::string::npos);
  // -K: negative definite; the coarse matrix's first pivot is negative.
  std::vector<Real> neg = box.K;
  for (Real& v : neg) v = -v;
  solver->set_rigid_body_layout(detail::rigid_body_layout(box.model, flags(box.free)));
  solver->set_coefficients(box.model.reference());
  const std::string e = error_of([&] { solver->factorize(to_device(neg, "-K")); });
  EXPECT_NE(e.find("coarse matrix Z^T A Z is not positive definite at aggregate 0"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace tlfea
