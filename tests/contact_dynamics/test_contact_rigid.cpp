// Contact of rigid bodies (natural coordinates, docs/theory.md §10) through
// their triangulated surfaces (rigid_surface, surface.hpp): each vertex is
// x = r + X_k r_k, and its contact force is scattered onto (r, r_k) with the
// weights (1, X_k). Checked against closed forms of the contact law
// (contact_law.hpp, docs/theory.md §7.4) computed by hand in each test:
//  - a rigid sphere on the ground plane settles at the static Hertz
//    compression of its pole vertex, m g = (4/3) E* sqrt(R) delta^{3/2};
//  - a rigid box sliding on the plane decelerates at mu_k g (Coulomb);
//  - a rigid box resting on a deformable Q27 block: the contact force on the
//    rigid body is its weight and the plane carries both weights.
// The rigid bodies' contact point mass is the body mass (set_point_mass), the
// choice the scene makes for them (docs/scene.md, contact).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

constexpr Real kE = 1e7, kNu = 0.3, kG = 9.81, kPi = 3.14159265358979323846;
constexpr Real kInf = std::numeric_limits<Real>::infinity();

TimeFunction ramp(Real t1) {
  return [t1](Real t) { return t < t1 ? t / t1 : 1.0; };
}

// Host copy of coefficient i of q.
Vec3 coef(const CoefView& q, Ordinal i) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  return Vec3{{h(i, 0), h(i, 1), h(i, 2)}};
}

std::shared_ptr<StepForce> contact_force(const std::shared_ptr<ContactDetection>& det,
                                         const std::shared_ptr<ContactForces>& cf) {
  return make_step_force(
      [det, cf](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
        det->detect(q, t);
        cf->compute(det->points(), q, v, h, f, t);
      });
}

// A rigid sphere (R = 0.05 m, rho = 1000 kg/m^3, E = 1e7 Pa, nu = 0.3) with
// its pole vertex on the rigid plane z = 0, gravity ramped in over 0.05 s,
// point law with R* = R. Only the pole vertex touches (the next latitude ring
// is R (1 - cos 15 deg) = 1.7 mm above the plane, 13 times delta_s), so the
// static equilibrium is m g = (4/3) E* sqrt(R) delta_s^{3/2}, E* = E / (1 - nu^2):
//   delta_s = (3 m g / (4 E* sqrt(R)))^{2/3},  m = (4/3) pi R^3 rho.
// After 0.3 s (16 contact periods 2 pi / sqrt(1.5 g / delta_s)) the centre is
// at R - delta_s within 1% of delta_s.
TEST(ContactRigid, SphereSettlesAtTheStaticHertzCompression) {
  const Real R = 0.05, rho = 1000.0;
  Model model;
  const int b = model.add_rigid_body(rigid_sphere(Vec3{{0.0, 0.0, R}}, R, rho));
  model.set_gravity({{0.0, 0.0, -kG}}, ramp(0.05));
  model.finalize();
  const Ordinal off = model.coefficient_offset(b);
  auto det = std::make_shared<ContactDetection>();
  det->add_surface(b, rigid_surface(rigid_sphere_shape(R, 12), {0.0, 0.0, R}, off, b), R);
  det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
  det->setup();
  auto cf = std::make_shared<ContactForces>();
  ContactPairSettings s;
  s.restitution = 0.5;
  s.mu_s = s.mu_k = 0.3;
  s.radius = R;
  const Real m = 4.0 / 3.0 * kPi * R * R * R * rho;
  cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()), {ContactMaterial{kE, kNu}},
            {ContactMaterial{kInf, 0.0}}, s);
  cf->set_point_mass(b, m);
  auto step_force = contact_force(det, cf);
  StepperSettings st;
  st.dt = 1e-4;
  TimeStepper stepper(model, st);
  stepper.add_step_force(step_force);
  Real delta_max = 0.0;
  for (int i = 0; i < 3000; ++i) {
    stepper.step();
    delta_max = std::max(delta_max, R - coef(stepper.positions(), off)[2]);
  }
  const Real Es = kE / (1.0 - kNu * kNu);
  const Real ds = std::pow(3.0 * m * kG / (4.0 * Es * std::sqrt(R)), 2.0 / 3.0);
  const Vec3 c = coef(stepper.positions(), off);
  const Real delta = R - c[2];
  std::printf("sphere: delta_s = %.6g m (closed form), delta = %.6g m (%.3g%%), max %.4f delta_s\n",
              ds, delta, 100.0 * (delta - ds) / ds, delta_max / ds);
  EXPECT_NEAR(delta, ds, 0.01 * ds);
  EXPECT_LT(delta_max, 1.1 * ds);  // the ramp loads it quasi-statically
  EXPECT_NEAR(c[0], 0.0, 1e-9);
  EXPECT_NEAR(c[1], 0.0, 1e-9);
}

// A rigid 0.1 m cube (1 kg) on the plane, sliding along x at v0 = 1 m/s,
// mu_s = mu_k = 0.3: Coulomb friction mu_k m g decelerates it at
//   a = mu_k g = 2.943 m/s^2  (by hand),
// until it stops at v0 / a = 0.34 s. Measured between t = 0.05 s (after the
// normal transient of the drop into the compliant contact) and 0.25 s; the
// normal force's mean over the window is m g up to m Delta v_z / T, so the
// mean deceleration is within 2% of mu_k g. No tipping: mu_k h / 2 = 0.015 m
// is less than the half-width 0.05 m.
TEST(ContactRigid, BoxSlidingOnThePlaneDeceleratesAtMuKG) {
  const Real a = 0.1, rho = 1000.0, mu = 0.3, v0 = 1.0;
  Model model;
  const int b = model.add_rigid_body(rigid_box(Vec3{{0.0, 0.0, 0.5 * a}}, Vec3{{a, a, a}}, rho));
  model.set_gravity({{0.0, 0.0, -kG}});
  model.finalize();
  const Ordinal off = model.coefficient_offset(b);
  auto det = std::make_shared<ContactDetection>();
  det->add_surface(b, rigid_surface(rigid_box_shape({a, a, a}, 4), {0.0, 0.0, 0.5 * a}, off, b),
                   0.05);
  det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
  det->setup();
  auto cf = std::make_shared<ContactForces>();
  ContactPairSettings s;
  s.restitution = 0.5;
  s.mu_s = s.mu_k = mu;
  s.radius = 0.05;
  cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()), {ContactMaterial{kE, kNu}},
            {ContactMaterial{kInf, 0.0}}, s);
  cf->set_point_mass(b, rho * a * a * a);
  auto step_force = contact_force(det, cf);
  StepperSettings st;
  st.dt = 1e-4;
  TimeStepper stepper(model, st);
  stepper.add_step_force(step_force);
  CoefView v("v", model.num_coefficients());
  auto vh = Kokkos::create_mirror_view(v);
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  model.set_rigid_velocity(b, Vec3{{v0, 0.0, 0.0}}, Vec3{{0.0, 0.0, 0.0}}, q0, vh);
  Kokkos::deep_copy(v, vh);
  stepper.set_velocities(v);
  Real v1 = 0.0, v2 = 0.0;
  for (int i = 1; i <= 2500; ++i) {
    stepper.step();
    if (i == 500) v1 = coef(stepper.velocities(), off)[0];
    if (i == 2500) v2 = coef(stepper.velocities(), off)[0];
  }
  const Real decel = (v1 - v2) / 0.2, expected = mu * kG;
  std::printf(
      "box: v(0.05) = %.6f, v(0.25) = %.6f m/s, deceleration %.5f m/s^2, mu_k g %.5f (%.3g%%)\n",
      v1, v2, decel, expected, 100.0 * (decel - expected) / expected);
  EXPECT_NEAR(decel, expected, 0.02 * expected);
  EXPECT_GT(v2, 0.0);  // still sliding
}

// A rigid 0.06 m cube (rho = 2000: 0.432 kg) resting on a Q27 0.1 m cube
// (1 kg, E = 1e7 Pa, 2 x 2 x 2 elements) that rests on the plane z = 0;
// gravity ramped in over 0.05 s. Equilibrium of forces: averaged over the
// last 0.1 s of 0.4 s, the contact force on the rigid body (the generalized
// force on its coefficient r: every contact point on it has weight 1 on r)
// is its weight m_r g, and the plane carries (m_r + m_d) g (= the contact
// force on the deformable body plus the one on the rigid body); 1% each.
TEST(ContactRigid, RigidBoxRestingOnADeformableBlock) {
  const Real rho_d = 1000.0, rho_r = 2000.0, a = 0.06;
  Model model;
  const Mesh mesh = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {-0.05, -0.05, 0.0});
  const int d = model.add_body(mesh, MaterialSpec::svk(kE, kNu), rho_d);
  const Vec3 c{{0.0, 0.0, 0.1 + 0.5 * a}};
  const int b = model.add_rigid_body(rigid_box(c, Vec3{{a, a, a}}, rho_r));
  model.set_gravity({{0.0, 0.0, -kG}}, ramp(0.05));
  model.finalize();
  const Ordinal off = model.coefficient_offset(b);
  auto det = std::make_shared<ContactDetection>();
  det->add_body(d, mesh, model.coefficient_offset(d), 0.05);
  det->add_surface(b, rigid_surface(rigid_box_shape({a, a, a}, 4), {c[0], c[1], c[2]}, off, b),
                   0.05);
  det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
  det->setup();
  auto cf = std::make_shared<ContactForces>();
  ContactPairSettings s;
  s.restitution = 0.5;
  s.mu_s = s.mu_k = 0.3;
  s.radius = 0.05;
  cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()),
            {ContactMaterial{kE, kNu}, ContactMaterial{kInf, 0.0}}, {ContactMaterial{kInf, 0.0}},
            s);
  const Real m_r = rho_r * a * a * a, m_d = rho_d * 1e-3;
  cf->set_point_mass(b, m_r);
  // The contact forces of each step: f after minus f before compute.
  const Ordinal nd = mesh.num_coefficients();
  auto sums = std::make_shared<std::vector<Real>>(2, 0.0);  // z: on the rigid, on the deformable
  auto fd = std::make_shared<CoefView>("f_before", model.num_coefficients());
  auto step_force =
      make_step_force([det, cf, sums, fd, off, nd](Real t, const CoefView& q, const CoefView& v,
                                                   Real h, const CoefView& f) {
        det->detect(q, t);
        Kokkos::deep_copy(*fd, f);
        cf->compute(det->points(), q, v, h, f, t);
        auto a1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), *fd);
        auto a2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
        (*sums)[0] = a2(off, 2) - a1(off, 2);
        Real s_d = 0.0;
        for (Ordinal i = 0; i < nd; ++i) s_d += a2(i, 2) - a1(i, 2);
        (*sums)[1] = s_d;
      });
  StepperSettings st;
  st.dt = 1e-4;
  TimeStepper stepper(model, st);
  stepper.add_step_force(step_force);
  Real on_rigid = 0.0, on_plane = 0.0;
  int n = 0;
  for (int i = 1; i <= 4000; ++i) {
    stepper.step();
    if (i > 3000) {
      on_rigid += (*sums)[0];
      on_plane += (*sums)[0] + (*sums)[1];
      ++n;
    }
  }
  on_rigid /= n;
  on_plane /= n;
  std::printf(
      "rigid on deformable: force on rigid %.6f N (weight %.6f, %.3g%%), plane %.6f N "
      "(weights %.6f, %.3g%%)\n",
      on_rigid, m_r * kG, 100.0 * (on_rigid - m_r * kG) / (m_r * kG), on_plane, (m_r + m_d) * kG,
      100.0 * (on_plane - (m_r + m_d) * kG) / ((m_r + m_d) * kG));
  EXPECT_NEAR(on_rigid, m_r * kG, 0.01 * m_r * kG);
  EXPECT_NEAR(on_plane, (m_r + m_d) * kG, 0.01 * (m_r + m_d) * kG);
  // It rests on top: the rigid box's centre is above the block's top face.
  EXPECT_GT(coef(stepper.positions(), off)[2], 0.1 + 0.5 * a - 1e-3);
}

}  // namespace
}  // namespace tlfea
