// Moving obstacles drag bodies through friction and a
// per-pair friction override changes the drag.
// Reference: rigid-block Coulomb mechanics, computed here. A block at rest
// set down on a belt (the plane z = 0 translating at V along x) slides
// against it, so kinetic friction mu_k m g drives it forward:
//   a = mu_k g until its velocity reaches V (at t* = V / (mu_k g)),
// then it rides with the belt (v = V). The same on a turntable, while the
// block's own motion is small against the surface's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

constexpr Real kG = 9.81;

// A 0.1 m Q27 cube (1 kg, E = 1e7 Pa, 2 x 2 x 2) resting on the plane z = 0
// that moves at V along x (constant_velocity_motion), gravity from t = 0,
// default contact pair mu_s = 0.25, mu_k = 0.2.
struct BlockOnBelt {
  Model model;
  Mesh mesh;
  std::shared_ptr<ContactDetection> det;
  std::shared_ptr<ContactForces> cf;
  std::shared_ptr<StepForce> step_force;  // the contact, added to each stepper
  DeviceView<Real*> lumped;
  Real total_mass = 0.0;
  explicit BlockOnBelt(Real V)
      : BlockOnBelt(constant_velocity_motion({{0.0, 0.0, 0.0}}, {{V, 0.0, 0.0}}), 0.0) {}
  // The plane z = 0 moved by `motion`, the block centred at (x0, 0).
  BlockOnBelt(std::function<RigidMotion(Real)> motion, Real x0) {
    mesh = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {x0 - 0.05, -0.05, 0.0});
    model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
    model.set_gravity({{0.0, 0.0, -kG}});
    model.finalize();
    lumped = row_sum_lumped_mass(model.pattern(), model.mass_values());
    auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lumped);
    for (size_t k = 0; k < mh.extent(0); ++k) total_mass += mh(k);
    det = std::make_shared<ContactDetection>();
    det->add_body(0, mesh, 0, 0.05);
    det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}).with_motion(motion));
    det->setup();
    cf = std::make_shared<ContactForces>();
    cf->setup(lumped, {ContactMaterial{1e7, 0.3}},
              {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, ContactPairSettings{});
    auto d = det;
    auto c = cf;
    step_force = make_step_force(
        [d, c](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
          d->detect(q, t);
          c->compute(d->points(), q, v, h, f, t);
        });
  }
  // Mass-weighted mean velocity component a (the centre of mass's).
  Real vx(const CoefView& v, int a = 0) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lumped);
    Real s = 0.0;
    for (size_t k = 0; k < h.extent(0); ++k) s += mh(k) * h(k, a);
    return s / total_mass;
  }
};

// Runs to T2 at h = 1e-4 s; returns the mean acceleration between T1 and T2
// (both before t*) and the velocity at T3 (after t*).
void run_belt(BlockOnBelt& b, Real T1, Real T2, Real T3, Real& a, Real& v3) {
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(b.model, s);
  st.add_step_force(b.step_force);
  const int n1 = static_cast<int>(std::lround(T1 / s.dt)),
            n2 = static_cast<int>(std::lround(T2 / s.dt)),
            n3 = static_cast<int>(std::lround(T3 / s.dt));
  for (int i = 0; i < n1; ++i) st.step();
  const Real u1 = b.vx(st.velocities());
  for (int i = n1; i < n2; ++i) st.step();
  a = (b.vx(st.velocities()) - u1) / ((n2 - n1) * s.dt);
  for (int i = n2; i < n3; ++i) st.step();
  v3 = b.vx(st.velocities());
}

// Default friction mu_k = 0.2, belt V = 0.5 m/s: a = mu_k g = 1.962 m/s^2
// while slipping (t* = 0.255 s; measured between 0.05 and 0.15 s, 3 % as the
// slope test's kinetic sliding), then the block moves with the belt: its
// velocity at 0.4 s is V within 2 %.
TEST(ContactConveyor, BlockOnBeltAcceleratesAtMuKGUntilBeltSpeed) {
  const Real V = 0.5;
  BlockOnBelt b(V);
  Real a, v3;
  run_belt(b, 0.05, 0.15, 0.4, a, v3);
  const Real ref = 0.2 * kG;
  std::printf("belt: a = %.5f m/s^2 (mu_k g = %.5f, ratio %.4f); v(0.4 s) = %.5f m/s (V = %.2f)\n",
              a, ref, a / ref, v3, V);
  EXPECT_NEAR(a, ref, 0.03 * ref);
  EXPECT_NEAR(v3, V, 0.02 * V);
}

// A per-pair override (mu_s = 0.5, mu_k = 0.4 for the block and the belt)
// doubles the drag: a = 0.4 g while slipping (V = 1 m/s, t* = 0.255 s).
TEST(ContactConveyor, PairFrictionOverrideSetsTheDrag) {
  const Real V = 1.0;
  BlockOnBelt b(V);
  ContactPairSettings p = b.cf->pair_settings(0, -1);
  p.mu_s = 0.5;
  p.mu_k = 0.4;
  b.cf->set_pair(0, -1, p);
  Real a, v3;
  run_belt(b, 0.05, 0.15, 0.4, a, v3);
  const Real ref = 0.4 * kG;
  std::printf(
      "belt, pair mu_k = 0.4: a = %.5f m/s^2 (mu_k g = %.5f, ratio %.4f); v(0.4 s) = %.5f\n", a,
      ref, a / ref, v3);
  EXPECT_NEAR(a, ref, 0.03 * ref);
  EXPECT_NEAR(v3, V, 0.02 * V);
}

// A turntable: the plane z = 0 turning at w = 2 rad/s about the z axis
// (rigid_motion), the block set down at rest centred at r = 0.5 m, where the
// surface moves at w r = 1 m/s along +y. The block slips, so kinetic friction
// accelerates it at mu_k g = 1.962 m/s^2 along the slip, which stays within
// 0.03 rad of +y over the window 0.05-0.15 s (the block moves < 2.5 cm and
// stays below a third of w r: rigid-block closed form, 3 % as above).
// Across the 0.1 m footprint the surface velocity turns by up to +-0.1 rad,
// which lowers the net friction by well under 1 % (measured -0.14 %).
TEST(ContactConveyor, BlockOnTurntableIsDraggedAtMuKG) {
  const Real w = 2.0, r = 0.5;
  BlockOnBelt b(
      rigid_motion({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}, {{0.0, 0.0, w}}), r);
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(b.model, s);
  st.add_step_force(b.step_force);
  for (int i = 0; i < 500; ++i) st.step();
  const Real ux = b.vx(st.velocities(), 0), uy = b.vx(st.velocities(), 1);
  for (int i = 500; i < 1500; ++i) st.step();
  const Real ax = (b.vx(st.velocities(), 0) - ux) / 0.1, ay = (b.vx(st.velocities(), 1) - uy) / 0.1;
  const Real a = std::hypot(ax, ay), ref = 0.2 * kG;
  std::printf(
      "turntable: |a| = %.5f m/s^2 (mu_k g = %.5f, ratio %.4f), direction %.4f rad from +y\n", a,
      ref, a / ref, std::atan2(-ax, ay));
  EXPECT_NEAR(a, ref, 0.03 * ref);
  EXPECT_LT(std::fabs(std::atan2(-ax, ay)), 0.03);
}

}  // namespace
}  // namespace tlfea
