// The backward-Euler augmented-Lagrangian step.
#include <gtest/gtest.h>

#include <cmath>

#include "mass_sums.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

// Free flight: an unconstrained body under gravity with a uniform initial
// velocity v0 follows the discrete backward-Euler solution exactly (f_int = 0
// for a rigid translation): v_n = v0 + n h g, x_n = X + n h v0 + h^2 g n(n+1)/2.
TEST(TimeStepper, FreeFlightFollowsDiscreteBackwardEulerExactly) {
  for (ElementType t : {ElementType::T10, ElementType::Q27, ElementType::ANCF3243}) {
    Model model;
    const Mesh mesh = t == ElementType::ANCF3243 ? generate_beam_ancf3243(1.0, 0.1, 0.1, 4)
                                                 : generate_box(t, {1.0, 0.5, 0.4}, {2, 1, 1});
    model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
    const Vec3 g{{0.0, 0.0, -9.81}};
    model.set_gravity(g);
    StepperSettings s;
    s.dt = 1e-2;
    TimeStepper stepper(model, s);
    const Real v0[3] = {1.0, -0.5, 2.0};
    CoefView v("v", model.num_coefficients());
    auto vh = Kokkos::create_mirror_view(v);
    const int cpn = mesh.coefficients_per_node();
    for (Ordinal k = 0; k < mesh.num_coefficients(); ++k)
      for (int a = 0; a < 3; ++a) vh(k, a) = (k % cpn == 0) ? v0[a] : 0.0;
    Kokkos::deep_copy(v, vh);
    stepper.set_velocities(v);
    const int n = 20;
    for (int i = 0; i < n; ++i) stepper.step();
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    auto vv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.velocities());
    const Real h = s.dt;
    Real err = 0.0;
    for (Ordinal k = 0; k < mesh.num_coefficients(); k += cpn)
      for (int a = 0; a < 3; ++a) {
        const Real x = mesh.coefficients[k][a] + n * h * v0[a] + h * h * g[a] * n * (n + 1) / 2;
        err = std::max(err, std::fabs(q(k, a) - x));
        err = std::max(err, std::fabs(vv(k, a) - (v0[a] + n * h * g[a])));
      }
    EXPECT_LT(err, 1e-10) << to_string(t);
  }
}

// A clamped coefficient stays exactly at its reference value and has zero
// velocity: it is eliminated, not penalised.
TEST(TimeStepper, ClampedCoefficientsDoNotMove) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.2, 0.2}, {4, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  for (int i = 0; i < 10; ++i) stepper.step();
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  Real moved = 0.0, tip = 0.0;
  for (Ordinal k : mesh.node_sets.at("xmin"))
    for (int a = 0; a < 3; ++a)
      moved = std::max(moved, std::fabs(q(k, a) - mesh.coefficients[k][a]));
  for (Ordinal k : mesh.node_sets.at("xmax"))
    tip = std::min(tip, q(k, 2) - mesh.coefficients[k][2]);
  EXPECT_EQ(moved, 0.0);
  EXPECT_LT(tip, -1e-7);  // the free end sags
}

// A point on a stiff body held at fixed distance L from a ground point by a
// DIST constraint: over 200 steps the weighted violation stays below the
// outer-loop tolerance and the point keeps its distance while it swings down.
TEST(TimeStepper, DistanceConstraintHoldsWhileTheBodySwings) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {0.2, 0.2, 0.2}, {1, 1, 1}, {1.0, -0.1, -0.1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e8, 0.3), 1000.0);
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  const Real xi[3] = {0.25, 0.25, 0.25};
  MaterialPoint P = make_material_point(model.block(body), 0, xi);
  MaterialPoint O = ground_point(Vec3{{0.0, 0.0, 0.0}});
  ConstraintSet& cs = model.constraints();
  auto q0h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  const Vec3 X = point_position(P, q0h);
  const Real L = std::sqrt(X[0] * X[0] + X[1] * X[1] + X[2] * X[2]);
  cs.add_dist(O, P, DrivingFunction::constant(L));
  StepperSettings s;
  s.dt = 1e-3;
  s.constraint_tolerance = 1e-9;
  TimeStepper stepper(model, s);
  Real worst = 0.0;
  for (int i = 0; i < 200; ++i) {
    const StepReport r = stepper.step();
    worst = std::max(worst, r.constraint_violation);
  }
  EXPECT_LT(worst, 1e-9);
  auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  const Vec3 x = point_position(P, qh);
  EXPECT_NEAR(std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), L, 1e-6 * L);
  // The body swung down: its point is below the start height.
  EXPECT_LT(x[2], X[2] - 1e-3);
}

// Total linear momentum p = sum_ij M_ij v_j of all coefficients, host.
Vec3 momentum(const Model& model, const CoefView& v) {
  return test::momentum(model, v, 0, model.num_coefficients());
}

// Timed loads: a free body under a nodal force F and a dead traction t0 on
// its x = max face, both with amplitude a(t) = t. Internal forces are
// self-equilibrated, so backward Euler gives exactly
//   p_n = h sum_{k=1..n} (F + t0 A) t_k = (F + t0 A) h^2 n (n + 1) / 2.
TEST(TimeStepper, TimedNodalForceAndTractionChangeMomentumAsTheirResultant) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.5, 0.4}, {2, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  const Vec3 F{{10.0, -5.0, 2.0}}, t0{{0.0, 100.0, 50.0}};
  const TimeFunction ramp = [](Real t) { return t; };
  model.add_nodal_force(body, 3, F, ramp);
  model.add_traction(body, "xmax", t0, ramp);
  StepperSettings s;
  s.dt = 1e-2;
  TimeStepper stepper(model, s);
  const int n = 10;
  for (int i = 0; i < n; ++i) stepper.step();
  const Vec3 p = momentum(model, stepper.velocities());
  const Real A = 0.5 * 0.4, h = s.dt;
  for (int a = 0; a < 3; ++a) {
    const Real expect = (F[a] + t0[a] * A) * h * h * n * (n + 1) / 2;
    EXPECT_NEAR(p[a], expect, 1e-9 * (std::fabs(expect) + 1.0)) << a;
  }
}

// Nodal forces given in any mix of constant and timed ones: f_ext holds at
// each node the sum of its constant forces plus a(t) times its timed ones,
// and nothing elsewhere (the sums below written out by hand; the constant
// ones share one vector, each timed one has its own).
TEST(TimeStepper, ManyConstantAndTimedNodalForcesSumIntoTheExternalLoad) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.5, 0.4}, {2, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  const TimeFunction twice = [](Real t) { return 2.0 * t; };
  model.add_nodal_force(body, 3, {{1.0, 2.0, 3.0}});
  model.add_nodal_force(body, 3, {{0.5, 0.0, -1.0}}, twice);
  model.add_nodal_force(body, 5, {{-4.0, 0.25, 0.0}});
  model.add_nodal_force(body, 3, {{10.0, -20.0, 0.5}});
  model.add_nodal_force(body, 5, {{0.0, 8.0, 1.0}}, twice);
  for (int k = 0; k < 100; ++k) model.add_nodal_force(body, 7, {{0.01, 0.0, -0.02}});
  model.finalize();
  CoefView f("f", model.num_coefficients());
  model.external_load(0.75, model.reference(), f);  // a(0.75) = 1.5
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  const Real expect[3][3] = {{1.0 + 10.0 + 1.5 * 0.5, 2.0 - 20.0, 3.0 + 0.5 - 1.5},
                             {-4.0, 0.25 + 1.5 * 8.0, 1.5},
                             {1.0, 0.0, -2.0}};
  const Ordinal nodes[3] = {3, 5, 7};
  for (Ordinal k = 0; k < model.num_coefficients(); ++k)
    for (int a = 0; a < 3; ++a) {
      Real want = 0.0;
      for (int i = 0; i < 3; ++i)
        if (k == nodes[i]) want = expect[i][a];
      EXPECT_NEAR(h(k, a), want, 1e-13) << "coefficient " << k << " axis " << a;
    }
}

// Explicit per-step forces (the contact hook): a callback adding F(t_n) at
// one node, evaluated once per step at its start, changes the momentum by
// h F(t_n): p_n = h sum_{k=0..n-1} F k h = F h^2 n (n - 1) / 2 for F(t) = F t.
TEST(TimeStepper, StepForcesAreEvaluatedOncePerStepAtItsStart) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.5, 0.4}, {2, 1, 1});
  model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  const Vec3 F{{3.0, 0.0, -1.0}};
  int calls = 0;
  auto step_force =
      make_step_force([&](Real t, const CoefView&, const CoefView&, Real, const CoefView& f) {
        ++calls;
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
        for (int a = 0; a < 3; ++a) h(2, a) += F[a] * t;
        Kokkos::deep_copy(f, h);
      });
  StepperSettings s;
  s.dt = 1e-2;
  TimeStepper stepper(model, s);
  stepper.add_step_force(step_force);
  const int n = 8;
  for (int i = 0; i < n; ++i) stepper.step();
  EXPECT_EQ(calls, n);
  const Vec3 p = momentum(model, stepper.velocities());
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(p[a], F[a] * s.dt * s.dt * n * (n - 1) / 2, 1e-10) << a;
}

// Prescribed motion: the x = min nodes follow x(t) = X + (A sin(w t), 0, 0)
// exactly at every step (they are eliminated, not penalised), and the body
// follows them.
TEST(TimeStepper, PrescribedNodesFollowTheirMotionExactly) {
  Model model;
  const Mesh mesh = generate_box(ElementType::Q27, {1.0, 0.3, 0.3}, {2, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  const Real A = 0.01, w = 20.0;
  model.prescribe_nodes(body, mesh.node_sets.at("xmin"), [=](Real t, const Vec3& X) {
    return Vec3{{X[0] + A * std::sin(w * t), X[1], X[2]}};
  });
  StepperSettings s;
  s.dt = 2e-3;
  TimeStepper stepper(model, s);
  Real err = 0.0, far = 0.0;
  for (int i = 1; i <= 40; ++i) {
    stepper.step();
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    const Real dx = A * std::sin(w * i * s.dt);
    for (Ordinal k : mesh.node_sets.at("xmin")) {
      err = std::max(err, std::fabs(q(k, 0) - (mesh.coefficients[k][0] + dx)));
      err = std::max(err, std::fabs(q(k, 1) - mesh.coefficients[k][1]));
    }
    for (Ordinal k : mesh.node_sets.at("xmax"))
      far = std::max(far, std::fabs(q(k, 0) - mesh.coefficients[k][0]));
  }
  EXPECT_LT(err, 1e-14);
  EXPECT_GT(far, 0.2 * A);  // the far end moves too
}

// Follower pressure p on every face of a free Q27 block, one long
// backward-Euler step (h = 10 s: inertia M/h^2 is ~1e-6 of the stiffness, so
// the step is a static solve): the resultant vanishes (momentum stays 0) and
// the volume change is the small-strain closed form dV/V = -p/K within 1%
// (the finite-strain correction is of order p/K = 1.2e-3).
TEST(TimeStepper, FollowerPressureCompressesAFreeBlockByPOverK) {
  Model model;
  const Mesh mesh = generate_box(ElementType::Q27, {1.0, 1.0, 1.0}, {1, 1, 1});
  const Real E = 1e7, nu = 0.3, K = E / (3 * (1 - 2 * nu)), p = 1e4;
  const int body = model.add_body(mesh, MaterialSpec::svk(E, nu), 1000.0);
  for (const char* f : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"})
    model.add_pressure(body, f, p);
  StepperSettings s;
  s.dt = 10.0;
  TimeStepper stepper(model, s);
  const StepReport r = stepper.step();
  EXPECT_GT(r.newton_iterations, 0);
  const Real V = model.block(body).volume(stepper.positions());
  EXPECT_NEAR((V - 1.0) / 1.0, -p / K, 0.01 * p / K);
  const Vec3 mom = momentum(model, stepper.velocities());
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(mom[a], 0.0, 1e-8);
}

// Follower pressure makes the Newton matrix nonsymmetric (its load
// stiffness has no symmetry), so the stepper tells the linear solver so even
// when the settings say symmetric: the default backend is an LU one (which
// one depends on the build), and a backend that needs a symmetric matrix is
// refused with a message naming the reason rather than factoring one
// triangle of the matrix.
TEST(TimeStepper, FollowerPressureMakesTheLinearSolveNonsymmetric) {
  Model model;
  const Mesh mesh = generate_box(ElementType::Q27, {1.0, 1.0, 1.0}, {1, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.add_pressure(body, "zmax", 1e4);
  StepperSettings s;
  s.dt = 1e-3;
  ASSERT_TRUE(s.linear.symmetric);  // the default claims symmetry; the stepper overrides it
  {
    TimeStepper stepper(model, s);
    const std::string name = stepper.linear_solver_name();
    EXPECT_TRUE(name == "klu2" || name == "eigen-lu" || name == "cudss") << name;
  }
  s.linear.backend = "eigen-ldlt";
  try {
    TimeStepper stepper(model, s);
    ADD_FAILURE() << "eigen-ldlt accepted a nonsymmetric Newton matrix";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("symmetric"), std::string::npos) << e.what();
  }
}

// Prescribed ANCF gradients: node 0 of a beam has its position and r_v
// clamped and its gradients r_u, r_w driven through a rotation about y,
// r_u(t) = (cos wt, 0, -sin wt), r_w(t) = (sin wt, 0, cos wt) (a rigid
// rotation of the root section); the coefficients equal that at every step, and the
// stiff beam (first bending frequency ~80 Hz, far above w) follows the
// rotation nearly rigidly: after 0.1 s its tip is near z = -sin(0.2) = -0.199.
TEST(TimeStepper, PrescribedAncfGradientFollowsItsFunction) {
  Model model;
  const Mesh mesh = generate_beam_ancf3243(1.0, 0.05, 0.05, 4);
  const int body = model.add_body(mesh, MaterialSpec::svk(1e11, 0.3), 1000.0);
  const Real w = 2.0;
  model.prescribe_coefficient(body, 0, 1, [=](Real t, const Vec3&) {
    return Vec3{{std::cos(w * t), 0.0, -std::sin(w * t)}};
  });
  model.prescribe_coefficient(body, 0, 3, [=](Real t, const Vec3&) {
    return Vec3{{std::sin(w * t), 0.0, std::cos(w * t)}};
  });
  model.clamp_nodes(body, {0}, true);  // position and r_v; r_u, r_w stay prescribed
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  Real err = 0.0;
  for (int i = 1; i <= 100; ++i) {
    stepper.step();
    auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
    err = std::max(err, std::fabs(q(1, 0) - std::cos(w * i * s.dt)));
    err = std::max(err, std::fabs(q(1, 2) + std::sin(w * i * s.dt)));
    err = std::max(err, std::fabs(q(0, 0)) + std::fabs(q(0, 1)) + std::fabs(q(0, 2)));
  }
  EXPECT_LT(err, 1e-14);
  auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  const Ordinal tip = 4 * (mesh.num_nodes() - 1);
  EXPECT_NEAR(q(tip, 2), -std::sin(0.2), 0.03);  // a 15% band: the elastic lag
}

// The DP1 curvature term changes the Newton matrix, not the equations: a T10
// bar on a revolute joint to ground swinging under gravity reaches the same
// states with the term on (symmetric indefinite matrix) and off (Gauss-Newton),
// to the Newton tolerance.
TEST(TimeStepper, Dp1CurvatureTermLeavesTheStepSolutionUnchanged) {
  auto run = [](bool curvature) {
    Model model;
    const Mesh mesh =
        generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {5, 1, 1}, {0.0, -0.05, -0.05});
    const int body = model.add_body(mesh, MaterialSpec::svk(1e9, 0.3), 1000.0);
    model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
    model.constraints();  // freezes the bodies and builds the reference
    auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
    const Vec3 X{{0.0, 0.0, 0.0}}, axis{{0.0, 1.0, 0.0}};
    model.constraints().add_revolute(body_joint_frame(model.block(body), q0, X, axis, 0.05),
                                     ground_joint_frame(X, axis, 0.05));
    StepperSettings s;
    s.dt = 2e-3;
    s.dp1_curvature = curvature;
    s.constraint_tolerance = 1e-10;
    TimeStepper stepper(model, s);
    for (int i = 0; i < 20; ++i) stepper.step();
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  };
  const auto a = run(false), b = run(true);
  const Mesh ref = generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {5, 1, 1}, {0.0, -0.05, -0.05});
  Real diff = 0.0, moved = 0.0;
  for (size_t k = 0; k < a.extent(0); ++k) {
    moved = std::max(moved, std::fabs(a(k, 2) - ref.coefficients[k][2]));
    for (int c = 0; c < 3; ++c) diff = std::max(diff, std::fabs(a(k, c) - b(k, c)));
  }
  EXPECT_GT(moved, 1e-3);  // the bar swings down
  EXPECT_LT(diff, 1e-8);
}

// A linear solve that fails is a failed step, retried with half the step,
// not an abort. A free Q27 cube of Saint Venant-Kirchhoff material is thrown
// together along z (v_z = -c z, c = 3 /s): the Newton iterates of a step of
// h = 0.1 s compress it to stretches near 1 - c h = 0.7 and below, where SVK
// softens (dP/dlambda = E (3 lambda^2 - 1) / 2 < 0 for lambda < 1/sqrt(3))
// beyond what M / h^2 holds up, so the Newton matrix becomes indefinite and
// CG breaks down (p^T A p < 0). At h / 2 it stays positive definite. The
// halved step is compared with the same half steps by a direct solver (a
// reference independent of the Krylov path).
CoefViewHost thrown_together_velocities(Model& model, Real c) {
  auto q0 = tlfea::to_host(model.reference());
  CoefViewHost v("v", q0.extent(0));
  for (size_t k = 0; k < q0.extent(0); ++k) {
    v(k, 0) = v(k, 1) = 0.0;
    v(k, 2) = -c * q0(k, 2);
  }
  return v;
}

TEST(TimeStepper, KrylovFailureBecomesAHalvedStepWithAMessage) {
  Model model;
  const Mesh mesh = generate_box(ElementType::Q27, {1.0, 1.0, 1.0}, {1, 1, 1});
  model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.finalize();
  const Real c = 3.0, dt = 0.1;
  const CoefViewHost vh = thrown_together_velocities(model, c);
  CoefView v("v", vh.extent(0));
  tlfea::copy_to_device(v, vh);
  auto run = [&](const std::string& backend, Real h, int steps, StepReport& last) {
    StepperSettings s;
    s.dt = h;
    s.reuse_jacobian = false;
    s.linear.backend = backend;
    TimeStepper st(model, s);
    st.set_velocities(v);
    for (int n = 0; n < steps; ++n) last = st.step();
    return tlfea::to_host(st.velocities());
  };
  StepReport krylov, direct;
  const auto vk = run("kk-cg", dt, 1, krylov);
  EXPECT_TRUE(krylov.converged);
  ASSERT_EQ(krylov.retries, 1);
  EXPECT_NE(krylov.linear_failure.find("kk-cg: p^T A p"), std::string::npos)
      << krylov.linear_failure;
  const auto vd = run("eigen-lu", dt / 2, 2, direct);
  EXPECT_TRUE(direct.linear_failure.empty());
  // Both runs stop Newton at |g| <= residual_force_tol F (1e-8 F, F the force
  // scale at convergence). The Newton matrix is at least M / h here (positive
  // definite at h / 2), so each half step's velocity is within
  // h |g| / lambda_min(M) of the exact step solution. lambda_min of the
  // consistent Q27 mass of this unit cube: rho (2.411 / 30)^3 = 0.519 kg (the
  // 1-D quadratic element's mass L / 30 [[4, 2, -1], [2, 16, 2], [-1, 2, 4]]
  // has smallest eigenvalue (19 - sqrt(201)) / 60; the Q27 mass is its
  // tensor cube). Two runs of two half steps each: 4 such bounds.
  const Real lambda_min = 1000.0 * std::pow((19.0 - std::sqrt(201.0)) / 60.0, 3);
  const Real F = std::max(krylov.force_scale, direct.force_scale);
  const Real bound = 4.0 * (dt / 2) * 1e-8 * F / lambda_min;
  Real diff = 0.0;
  for (size_t k = 0; k < vk.extent(0); ++k)
    for (int a = 0; a < 3; ++a) diff = std::max(diff, std::fabs(vk(k, a) - vd(k, a)));
  EXPECT_LT(diff, bound);
  std::printf("[krylov retry] |v_kk-cg - v_eigen-lu| = %.2e m/s, bound %.2e m/s\n", diff, bound);
}

// A step that cannot converge (here: no Newton iteration allowed) is retried
// with halved steps, then fails with a message naming the step, and the
// state stays exactly the last converged one (bit for bit).
TEST(TimeStepper, NonConvergingStepThrowsAndKeepsTheLastConvergedState) {
  Model model;
  const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.2, 0.2}, {2, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.clamp_node_set(body, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  stepper.step();  // a normal step first
  auto q_before = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  auto v_before = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.velocities());
  const Real t_before = stepper.time();
  StepperSettings bad = s;
  bad.max_newton = 0;  // nothing can converge
  TimeStepper failing(model, bad);
  failing.set_velocities(stepper.velocities());
  EXPECT_THROW(failing.step(), Error);
  try {
    failing.step();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("did not converge"), std::string::npos) << e.what();
  }
  EXPECT_EQ(failing.time(), 0.0);
  // The original stepper is untouched and can go on.
  auto q_after = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.positions());
  for (size_t k = 0; k < q_before.extent(0); ++k)
    for (int a = 0; a < 3; ++a) EXPECT_EQ(q_after(k, a), q_before(k, a));
  auto qf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), failing.positions());
  auto vf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), failing.velocities());
  for (size_t k = 0; k < qf.extent(0); ++k)
    for (int a = 0; a < 3; ++a) {
      EXPECT_EQ(qf(k, a), mesh.coefficients[k][a]);  // still the reference
      EXPECT_EQ(vf(k, a), v_before(k, a));
    }
  EXPECT_EQ(stepper.time(), t_before);
}

// AdamW reaches the same step solution as Newton: a clamped soft T10 bar
// under gravity, 3 steps; the end-of-step velocities agree to the AdamW
// residual tolerance (relative 1e-6 of the velocity scale).
TEST(TimeStepper, AdamWMatchesNewtonStepSolution) {
  auto run = [](const std::string& inner) {
    Model model;
    const Mesh mesh = generate_box(ElementType::T10, {1.0, 0.2, 0.2}, {3, 1, 1});
    const int body = model.add_body(mesh, MaterialSpec::svk(1e5, 0.3), 1000.0);
    model.clamp_node_set(body, "xmin");
    model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
    StepperSettings s;
    s.dt = 1e-3;
    s.inner_solver = parse_inner_solver(inner);
    s.residual_rel_tol = 1e-9;
    s.adamw_learning_rate = 1e-3;
    s.adamw_lr_decay = 0.998;
    TimeStepper stepper(model, s);
    int iters = 0;
    for (int i = 0; i < 3; ++i) iters += stepper.step().newton_iterations;
    auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.velocities());
    return std::make_pair(v, iters);
  };
  const auto [vn, in] = run("newton");
  const auto [va, ia] = run("adamw");
  Real vmax = 0.0, diff = 0.0;
  for (size_t k = 0; k < vn.extent(0); ++k)
    for (int a = 0; a < 3; ++a) {
      vmax = std::max(vmax, std::fabs(vn(k, a)));
      diff = std::max(diff, std::fabs(vn(k, a) - va(k, a)));
    }
  EXPECT_GT(vmax, 0.02);  // 3 steps of free fall: ~3 h g at the free end
  EXPECT_LT(diff, 1e-6 * vmax) << "newton " << in << " iterations, adamw " << ia;
}

}  // namespace
}  // namespace tlfea
