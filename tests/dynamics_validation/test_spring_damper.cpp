// Translational spring-dampers (docs/theory.md §11) against closed forms: the
// tangent against central finite differences of the force, the spring's
// potential, and a mass on a spring-damper (damped frequency and damping
// ratio of the linear oscillator).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/integrators/diagnostics.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

CoefViewHost host(const CoefView& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

// The point X (reference position) of rigid body b whose centre is c:
// r_X = r + sum_k (X - c)_k r_k (docs/theory.md §10.1).
MaterialPoint rigid_point(const Model& m, int b, const Vec3& c, const Vec3& X) {
  const Ordinal o = m.coefficient_offset(b);
  return combination_point({o, o + 1, o + 2, o + 3}, {1.0, X[0] - c[0], X[1] - c[1], X[2] - c[2]});
}

// The dense matrix of a pattern's values (host), n = 3 * coefficients.
std::vector<double> dense(const CrsPattern& p, const DeviceView<Real*>& values) {
  const Ordinal n = p.num_rows();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.entries);
  auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  std::vector<double> A(static_cast<size_t>(n) * n, 0.0);
  for (Ordinal r = 0; r < n; ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k) A[static_cast<size_t>(r) * n + en(k)] += va(k);
  return A;
}

// f(q, v) of the model's force elements (host copy, flat).
std::vector<double> force(const Model& m, const CoefViewHost& qh, const CoefViewHost& vh) {
  CoefView q("q", qh.extent(0)), v("v", vh.extent(0)), f("f", qh.extent(0));
  Kokkos::deep_copy(q, qh);
  Kokkos::deep_copy(v, vh);
  m.force_element_load(q, v, f);
  auto fh = host(f);
  return std::vector<double>(fh.data(), fh.data() + 3 * fh.extent(0));
}

// The tangent blocks -df/dq (alpha_K = 1, alpha_D = 0) and -df/dv
// (alpha_K = 0, alpha_D = 1) of a finalized model's force elements against
// central differences of force_element_load at a perturbed state (not
// rigid, which the forces do not need); step 1e-6: truncation ~1e-12
// relative, round-off ~1e-10.
void expect_tangent_matches_finite_differences(Model& m) {
  const Ordinal nc = m.num_coefficients(), n = 3 * nc;
  CoefViewHost qh("q", nc), vh("v", nc);
  Kokkos::deep_copy(qh, host(m.reference()));
  for (Ordinal i = 0; i < nc; ++i)
    for (int a = 0; a < 3; ++a) {
      qh(i, a) += 0.03 * std::sin(1.3 * i + 2.1 * a + 0.4);
      vh(i, a) = 0.7 * std::cos(0.9 * i - 1.7 * a);
    }
  CoefView q("q", nc), v("v", nc);
  Kokkos::deep_copy(q, qh);
  Kokkos::deep_copy(v, vh);
  for (int part = 0; part < 2; ++part) {  // 0: -df/dq, 1: -df/dv
    DeviceView<Real*> values("values", m.pattern().nnz());
    m.force_element_tangent(q, v, part == 0 ? 1.0 : 0.0, part == 0 ? 0.0 : 1.0, values);
    const std::vector<double> A = dense(m.pattern(), values);
    const double eps = 1e-6;
    double worst = 0.0, scale = 0.0;
    for (Ordinal j = 0; j < n; ++j) {
      CoefViewHost qp("qp", nc), qm("qm", nc), vp("vp", nc), vm("vm", nc);
      Kokkos::deep_copy(qp, qh);
      Kokkos::deep_copy(qm, qh);
      Kokkos::deep_copy(vp, vh);
      Kokkos::deep_copy(vm, vh);
      if (part == 0) {
        qp(j / 3, j % 3) += eps;
        qm(j / 3, j % 3) -= eps;
      } else {
        vp(j / 3, j % 3) += eps;
        vm(j / 3, j % 3) -= eps;
      }
      const std::vector<double> fp = force(m, qp, vp), fm = force(m, qm, vm);
      for (Ordinal i = 0; i < n; ++i) {
        const double fd = -(fp[i] - fm[i]) / (2.0 * eps);
        worst = std::max(worst, std::fabs(A[static_cast<size_t>(i) * n + j] - fd));
        scale = std::max(scale, std::fabs(fd));
      }
    }
    EXPECT_GT(scale, 1.0) << "part " << part;  // the test sees a tangent at all
    EXPECT_LT(worst, 1e-6 * scale) << "part " << part;
  }
}

// Two rigid bodies joined by a linear spring-damper and by a tabulated one
// (with preload), and one to the ground: the tangent equals central
// differences of the force.
TEST(SpringDamper, TangentMatchesFiniteDifferences) {
  Model m;
  const Vec3 c0{{0.0, 0.0, 0.0}}, c1{{1.0, 0.2, -0.1}};
  const int b0 = m.add_rigid_body(rigid_box(c0, Vec3{{0.4, 0.3, 0.2}}, 1000.0));
  const int b1 = m.add_rigid_body(rigid_box(c1, Vec3{{0.4, 0.3, 0.2}}, 1000.0));
  SpringDamperSpec lin;
  lin.stiffness = 300.0;
  lin.damping = 7.0;
  lin.rest_length = 0.6;
  m.add_spring_damper(rigid_point(m, b0, c0, Vec3{{0.1, 0.1, 0.05}}),
                      rigid_point(m, b1, c1, Vec3{{0.9, 0.15, -0.05}}), lin);
  SpringDamperSpec tab;
  tab.damping = 3.0;
  tab.rest_length = 0.9;
  tab.preload = 25.0;
  tab.table = {{-0.2, -100.0}, {0.0, 0.0}, {0.05, 40.0}, {0.3, 500.0}};
  m.add_spring_damper(rigid_point(m, b0, c0, Vec3{{-0.1, 0.12, 0.0}}),
                      rigid_point(m, b1, c1, Vec3{{1.1, 0.3, 0.0}}), tab);
  m.add_spring_damper(ground_point(Vec3{{0.5, 1.0, 0.0}}),
                      rigid_point(m, b1, c1, Vec3{{1.0, 0.3, 0.0}}), lin);
  m.finalize();
  expect_tangent_matches_finite_differences(m);
}

// The potential: k delta^2 / 2 + F_0 delta for a linear spring, and the
// trapezoid integral of a table (here F_s = 100 delta for delta <= 0.1, then
// 10 + 300 (delta - 0.1): at delta = 0.2, 0.5 + (10 + 40) / 2 * 0.1 = 3 J).
TEST(SpringDamper, PotentialIsTheIntegralOfTheSpringForce) {
  Model m;
  const Vec3 c{{1.2, 0.0, 0.0}};
  const int b = m.add_rigid_body(rigid_sphere(c, 0.1, 1000.0));
  SpringDamperSpec lin;
  lin.stiffness = 400.0;
  lin.rest_length = 1.0;
  lin.preload = 5.0;
  m.add_spring_damper(ground_point(Vec3{{0.0, 0.0, 0.0}}), rigid_point(m, b, c, c), lin);
  SpringDamperSpec tab;
  tab.rest_length = 1.0;
  tab.table = {{0.0, 0.0}, {0.1, 10.0}, {0.3, 70.0}};
  m.add_spring_damper(ground_point(Vec3{{0.0, 0.0, 0.0}}), rigid_point(m, b, c, c), tab);
  m.finalize();
  // delta = 0.2: 400 * 0.04 / 2 + 5 * 0.2 = 9 J; the table's 3 J.
  EXPECT_NEAR(m.force_element_energy(m.reference()), 9.0 + 3.0, 1e-12);
  StateMeasures sm(m);
  CoefView v("v", m.num_coefficients());
  const Energies e = sm.energies(m.reference(), v, 0.0);
  EXPECT_NEAR(e.spring, 12.0, 1e-12);
  EXPECT_NEAR(e.total, e.kinetic + e.strain + e.gravity + 12.0, 1e-12);
  const SpringDamperState s = m.spring_dampers().state(1, host(m.reference()), CoefViewHost());
  EXPECT_NEAR(s.length, 1.2, 1e-15);
  EXPECT_NEAR(s.force, 10.0 + 300.0 * 0.1, 1e-12);
}

// A rigid sphere (m = 2 kg) on a spring-damper to the ground along x, no
// gravity, released from rest at x0 = 0.05 m from the rest length: the
// linear oscillator m x'' + c x' + k x = 0 with omega_n = sqrt(k / m) =
// 20 rad/s and zeta = c / (2 sqrt(k m)) = 0.1 oscillates at omega_d =
// omega_n sqrt(1 - zeta^2) with the logarithmic decrement
// ln(x_i / x_{i+1}) = 2 pi zeta / sqrt(1 - zeta^2) between successive maxima
// (e.g. Meirovitch, Fundamentals of Vibrations, §2.3). Backward Euler adds a
// damping ratio of about omega h / 2 = 1e-3 at h = 1e-4 (1 % of zeta) and
// changes the frequency by O((omega h)^2). Measured over four periods: the
// peaks (parabola through three samples), omega_d from their mean spacing
// (within 0.5 %) and zeta from their decrement (within 2 %).
TEST(SpringDamperValidation, MassOnSpringDamperHasTheClosedFormFrequencyAndDamping) {
  const double k = 800.0, zeta = 0.1, L0 = 0.5, x0 = 0.05, h = 1e-4;
  Model m;
  const Vec3 c{{L0 + x0, 0.0, 0.0}};
  RigidBodySpec s = rigid_sphere(c, 0.05, 1000.0);
  const double mass = 2.0;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) s.inertia(a, b) *= mass / s.mass;
  s.mass = mass;
  const int b = m.add_rigid_body(s);
  SpringDamperSpec sd;
  sd.stiffness = k;
  sd.damping = 2.0 * zeta * std::sqrt(k * mass);
  sd.rest_length = L0;
  m.add_spring_damper(ground_point(Vec3{{0.0, 0.0, 0.0}}), rigid_point(m, b, c, c), sd);
  m.finalize();
  StepperSettings st;
  st.dt = h;
  TimeStepper stepper(m, st);
  const double wn = std::sqrt(k / mass), wd = wn * std::sqrt(1.0 - zeta * zeta);
  const int steps = static_cast<int>(std::ceil(4.2 * 2.0 * M_PI / wd / h));
  std::vector<double> x{x0};
  const Ordinal o = m.coefficient_offset(b);
  for (int i = 0; i < steps; ++i) {
    const StepReport r = stepper.step();
    ASSERT_TRUE(r.converged) << "step " << i;
    auto qh = host(stepper.positions());
    x.push_back(qh(o, 0) - L0);
  }
  std::vector<double> tp, xp;  // peaks (time, value)
  for (size_t i = 1; i + 1 < x.size(); ++i)
    if (x[i] > x[i - 1] && x[i] >= x[i + 1]) {
      const double a = 0.5 * (x[i - 1] - 2.0 * x[i] + x[i + 1]), bq = 0.5 * (x[i + 1] - x[i - 1]);
      const double s = -bq / (2.0 * a);
      tp.push_back((static_cast<double>(i) + s) * h);
      xp.push_back(x[i] + bq * s + a * s * s);
    }
  ASSERT_GE(tp.size(), 3u);
  const double Td = (tp.back() - tp.front()) / static_cast<double>(tp.size() - 1);
  const double decrement = std::log(xp.front() / xp.back()) / static_cast<double>(xp.size() - 1);
  const double zeta_num = decrement / std::sqrt(4.0 * M_PI * M_PI + decrement * decrement);
  EXPECT_NEAR(2.0 * M_PI / Td, wd, 0.005 * wd);
  EXPECT_NEAR(zeta_num, zeta, 0.02 * zeta);
  RecordProperty("omega_d_rel_error", std::to_string((2.0 * M_PI / Td - wd) / wd));
  RecordProperty("zeta_rel_error", std::to_string((zeta_num - zeta) / zeta));
  std::printf("mass on spring-damper: omega_d %.6f (closed form %.6f), zeta %.6f (%.6f)\n",
              2.0 * M_PI / Td, wd, zeta_num, zeta);
}

// Rotational spring-dampers (docs/theory.md §11.2) between two rigid bodies
// (an oblique axis, a rest angle) and from the ground: the tangent equals
// central differences of the force.
TEST(RotationalSpringDamper, TangentMatchesFiniteDifferences) {
  Model m;
  const int b0 = m.add_rigid_body(rigid_box(Vec3{{0.0, 0.0, 0.0}}, Vec3{{0.4, 0.3, 0.2}}, 1000.0));
  const int b1 = m.add_rigid_body(rigid_box(Vec3{{1.0, 0.2, -0.1}}, Vec3{{0.4, 0.3, 0.2}}, 1000.0));
  const double nu = std::sqrt(0.3 * 0.3 + 0.2 * 0.2 + 0.9 * 0.9);
  const Vec3 u{{0.3 / nu, 0.2 / nu, 0.9 / nu}};
  const double na = std::sqrt(0.2 * 0.2 + 0.3 * 0.3);
  const Vec3 a{{0.2 / na, -0.3 / na, 0.0}};  // normal to u
  RotationalSpringDamperSpec r;
  r.stiffness = 80.0;
  r.damping = 4.0;
  r.angle0 = 0.3;
  m.add_rotational_spring_damper(m.rigid_vector(b0, u), m.rigid_vector(b0, a),
                                 m.rigid_vector(b1, a), r);
  m.add_rotational_spring_damper(m.rigid_vector(-1, Vec3{{0.0, 0.0, 1.0}}),
                                 m.rigid_vector(-1, Vec3{{1.0, 0.0, 0.0}}),
                                 m.rigid_vector(b1, Vec3{{1.0, 0.0, 0.0}}), r);
  m.finalize();
  expect_tangent_matches_finite_differences(m);
}

// A torsional pendulum: a rigid body (I_zz = 0.5 kg m^2, no gravity) on a
// rotational spring-damper about z to the ground, k = 200 N m/rad, c chosen
// for zeta = 0.1, released at theta = 0 with omega_0 = 2 rad/s about z. The
// linear oscillator I theta'' + c theta' + k theta = 0 (the spin stays about
// the principal axis z): omega_n = sqrt(k / I) = 20 rad/s, omega_d =
// omega_n sqrt(1 - zeta^2), logarithmic decrement 2 pi zeta / sqrt(1 -
// zeta^2) between successive maxima (Meirovitch, Fundamentals of
// Vibrations, §2.3); backward Euler adds about omega h / 2 = 1e-3 to zeta at
// h = 1e-4. Asserted: omega_d within 0.5 %, zeta within 2 %, and the
// potential k theta^2 / 2 at the last step.
TEST(RotationalSpringDamperValidation, TorsionalPendulumHasTheClosedFormFrequencyAndDamping) {
  const double k = 200.0, zeta = 0.1, Izz = 0.5, w0 = 2.0, h = 1e-4;
  Model m;
  RigidBodySpec s;
  s.mass = 1.0;
  s.inertia = zero3();
  s.inertia(0, 0) = 0.4;
  s.inertia(1, 1) = 0.3;
  s.inertia(2, 2) = Izz;
  const int b = m.add_rigid_body(s);
  RotationalSpringDamperSpec r;
  r.stiffness = k;
  r.damping = 2.0 * zeta * std::sqrt(k * Izz);
  const Vec3 ex{{1.0, 0.0, 0.0}}, ez{{0.0, 0.0, 1.0}};
  m.add_rotational_spring_damper(m.rigid_vector(-1, ez), m.rigid_vector(-1, ex),
                                 m.rigid_vector(b, ex), r);
  m.finalize();
  StepperSettings st;
  st.dt = h;
  TimeStepper stepper(m, st);
  CoefView v("v", m.num_coefficients());
  auto vh = Kokkos::create_mirror_view(v);
  m.set_rigid_velocity(b, Vec3{{0.0, 0.0, 0.0}}, Vec3{{0.0, 0.0, w0}}, host(m.reference()), vh);
  Kokkos::deep_copy(v, vh);
  stepper.set_velocities(v);
  const double wn = std::sqrt(k / Izz), wd = wn * std::sqrt(1.0 - zeta * zeta);
  const int steps = static_cast<int>(std::ceil(4.5 * 2.0 * M_PI / wd / h));
  std::vector<double> th{0.0};
  for (int i = 0; i < steps; ++i) {
    ASSERT_TRUE(stepper.step().converged) << "step " << i;
    th.push_back(m.rotational_spring_dampers().angle(0, host(stepper.positions())));
  }
  std::vector<double> tp, xp;  // maxima (time, value)
  for (size_t i = 1; i + 1 < th.size(); ++i)
    if (th[i] > th[i - 1] && th[i] >= th[i + 1]) {
      const double a = 0.5 * (th[i - 1] - 2.0 * th[i] + th[i + 1]),
                   bq = 0.5 * (th[i + 1] - th[i - 1]);
      const double x = -bq / (2.0 * a);
      tp.push_back((static_cast<double>(i) + x) * h);
      xp.push_back(th[i] + bq * x + a * x * x);
    }
  ASSERT_GE(tp.size(), 3u);
  const double Td = (tp.back() - tp.front()) / static_cast<double>(tp.size() - 1);
  const double dec = std::log(xp.front() / xp.back()) / static_cast<double>(xp.size() - 1);
  const double zeta_num = dec / std::sqrt(4.0 * M_PI * M_PI + dec * dec);
  std::printf(
      "torsional pendulum: omega_d %.6f (closed form %.6f), zeta %.6f (%.6f), first peak %.6f "
      "rad\n",
      2.0 * M_PI / Td, wd, zeta_num, zeta, xp.front());
  EXPECT_NEAR(2.0 * M_PI / Td, wd, 0.005 * wd);
  EXPECT_NEAR(zeta_num, zeta, 0.02 * zeta);
  EXPECT_NEAR(m.force_element_energy(stepper.positions()), 0.5 * k * th.back() * th.back(),
              1e-12 * k);
}

}  // namespace
}  // namespace tlfea
