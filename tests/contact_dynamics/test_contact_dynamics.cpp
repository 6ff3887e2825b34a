// Frictional contact through the whole chain: surface detection against a
// rigid plane, the Hertz-Mindlin law with history, and the backward-Euler
// stepper (contact forces explicit, evaluated once per step).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "mass_sums.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

// A 0.1 m Q27 cube (1 kg) on the plane z = 0, contact hooked into the model.
struct BlockOnPlane {
  Model model;
  Mesh mesh;
  std::shared_ptr<ContactDetection> det;
  std::shared_ptr<ContactForces> cf;
  std::shared_ptr<StepForce> step_force;  // the contact, added to each stepper
  const Real mass = 1.0;
  BlockOnPlane(Real mu_s, Real mu_k) {
    mesh = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {-0.05, -0.05, 0.0});
    model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
    model.set_gravity({{0.0, 0.0, -9.81}});
    model.finalize();
    det = std::make_shared<ContactDetection>();
    det->add_body(0, mesh, 0, 0.05);
    det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
    det->setup();
    cf = std::make_shared<ContactForces>();
    ContactPairSettings s;
    s.restitution = 0.5;
    s.mu_s = mu_s;
    s.mu_k = mu_k;
    cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()),
              {ContactMaterial{1e7, 0.3}},
              {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, s);
    auto d = det;
    auto c = cf;
    step_force = make_step_force(
        [d, c](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
          d->detect(q, t);
          c->compute(d->points(), q, v, h, f, t);
        });
  }
  Vec3 mean(const CoefView& x) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    Vec3 m{{0, 0, 0}};
    for (size_t k = 0; k < h.extent(0); ++k)
      for (int a = 0; a < 3; ++a) m[a] += h(k, a) / h.extent(0);
    return m;
  }
};

// At rest on the plane, the normal contact forces carry the weight m g
// (static equilibrium; 2%: the residual bounce of the damped Hertz contact).
TEST(ContactDynamics, RestingBlockCarriesItsWeight) {
  BlockOnPlane sc(0.25, 0.2);
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(sc.model, s);
  st.add_step_force(sc.step_force);
  for (int i = 0; i < 2000; ++i) st.step();
  auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sc.cf->normal_force());
  Real sum = 0.0;
  for (Ordinal k = 0; k < sc.cf->active_contacts(); ++k) sum += fn(k);
  EXPECT_GT(sc.cf->active_contacts(), 0);
  EXPECT_NEAR(sum, sc.mass * 9.81, 0.02 * sc.mass * 9.81);
}

// A block launched at v0 = 0.5 m/s on the plane with mu_k = 0.2 slides
// v0^2 / (2 mu_k g) = 0.0637 m before it stops (rigid Coulomb block; 5%
// covers the settling of the elastic contact and the tangential springs).
TEST(ContactDynamics, SlidingBlockStopsAfterCoulombDistance) {
  BlockOnPlane sc(0.2, 0.2);
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(sc.model, s);
  st.add_step_force(sc.step_force);
  for (int i = 0; i < 1000; ++i) st.step();  // settle on the plane
  const Real x0 = sc.mean(st.positions())[0];
  CoefView v("v", sc.model.num_coefficients());
  Kokkos::deep_copy(v, st.velocities());
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  for (size_t k = 0; k < vh.extent(0); ++k) vh(k, 0) += 0.5;
  Kokkos::deep_copy(v, vh);
  st.set_velocities(v);
  for (int i = 0; i < 4000; ++i) st.step();
  const Real d = sc.mean(st.positions())[0] - x0, ref = 0.25 / (2 * 0.2 * 9.81);
  EXPECT_NEAR(d, ref, 0.05 * ref);
  EXPECT_LT(std::fabs(sc.mean(st.velocities())[0]), 1e-2);
}

// Total linear momentum sum_ij M_ij v_j.
Vec3 momentum(const Model& model, const CoefView& v) {
  return test::momentum(model, v, 0, model.num_coefficients());
}

// Two deformable blocks of different mass collide head-on (no gravity):
// contact forces act on both bodies as action and reaction and internal
// forces are self-equilibrated, so the total momentum is conserved to
// round-off through the impact, while each body's momentum changes.
TEST(ContactDynamics, HeadOnCollisionConservesMomentum) {
  Model model;
  const Mesh a =
      generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {-0.1005, -0.05, -0.05});
  const Mesh b = generate_box(ElementType::T10, {0.1, 0.1, 0.1}, {2, 2, 2}, {0.0005, -0.05, -0.05});
  const int ba = model.add_body(a, MaterialSpec::svk(1e7, 0.3), 1000.0);
  const int bb = model.add_body(b, MaterialSpec::svk(2e7, 0.3), 2000.0);
  model.finalize();
  auto det = std::make_shared<ContactDetection>();
  det->add_body(ba, a, model.coefficient_offset(ba), 0.05);
  det->add_body(bb, b, model.coefficient_offset(bb), 0.05);
  det->setup();
  auto cf = std::make_shared<ContactForces>();
  cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()),
            {ContactMaterial{1e7, 0.3}, ContactMaterial{2e7, 0.3}}, {}, ContactPairSettings{});
  int max_contacts = 0;
  auto step_force =
      make_step_force([&](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
        det->detect(q, t);
        cf->compute(det->points(), q, v, h, f, t);
        max_contacts = std::max<int>(max_contacts, cf->active_contacts());
      });
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(model, s);
  st.add_step_force(step_force);
  CoefView v("v", model.num_coefficients());
  auto vh = Kokkos::create_mirror_view(v);
  for (Ordinal k = 0; k < model.num_coefficients(); ++k)
    vh(k, 0) = k < model.coefficient_offset(bb) ? 1.0 : -0.25;
  Kokkos::deep_copy(v, vh);
  st.set_velocities(v);
  const Vec3 p0 = momentum(model, st.velocities());
  for (int i = 0; i < 600; ++i) st.step();
  const Vec3 p1 = momentum(model, st.velocities());
  // Momentum of body A alone after the impact: it must have changed.
  auto v1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.velocities());
  Real va = 0.0;
  for (Ordinal k = 0; k < model.coefficient_offset(bb); ++k) va += v1(k, 0);
  va /= model.coefficient_offset(bb);
  EXPECT_GT(max_contacts, 0);
  EXPECT_LT(va, 0.9);  // A was slowed (or reversed) by the impact
                       // Scale: body A's momentum, 1 kg m/s; p0 = 1 - 2 * 0.25 = 0.5 kg m/s.
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(p1[c], p0[c], 1e-10) << c;
}

// A block on a plane inclined by alpha with tan(alpha) = 0.3 > mu_s = 0.25
// slides with the Coulomb acceleration g (sin alpha - mu_k cos alpha),
// mu_k = 0.2 (rigid-block closed form; 2% as the issue asks), measured from
// the mean along-slope velocity between 0.05 s and 0.15 s of sliding.
TEST(ContactDynamics, BlockSlidesDownInclineWithKineticFrictionAcceleration) {
  const Real alpha = std::atan(0.3), g = 9.81;
  const Real ca = std::cos(alpha), sa = std::sin(alpha);
  Model model;
  Mesh mesh = generate_box(ElementType::Q27, {0.1, 0.1, 0.1}, {2, 2, 2}, {-0.05, -0.05, 0.0});
  // Rotate the block onto the incline: about y by -alpha (x down-slope).
  for (auto& X : mesh.coefficients) {
    const Real x = X[0], z = X[2];
    X[0] = ca * x + sa * z;
    X[2] = -sa * x + ca * z;
  }
  model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.set_gravity({{0.0, 0.0, -g}});
  model.finalize();
  const Vec3 n{{sa, 0.0, ca}};  // plane normal; down-slope direction (ca, 0, -sa)
  auto det = std::make_shared<ContactDetection>();
  det->add_body(0, mesh, 0, 0.05);
  det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, n));
  det->setup();
  auto cf = std::make_shared<ContactForces>();
  ContactPairSettings ps;
  ps.mu_s = 0.25;
  ps.mu_k = 0.2;
  cf->setup(row_sum_lumped_mass(model.pattern(), model.mass_values()), {ContactMaterial{1e7, 0.3}},
            {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, ps);
  auto step_force =
      make_step_force([&](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
        det->detect(q, t);
        cf->compute(det->points(), q, v, h, f, t);
      });
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(model, s);
  st.add_step_force(step_force);
  auto slope_velocity = [&]() {
    auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.velocities());
    Real u = 0.0;
    for (size_t k = 0; k < vh.extent(0); ++k) u += (ca * vh(k, 0) - sa * vh(k, 2)) / vh.extent(0);
    return u;
  };
  for (int i = 0; i < 500; ++i) st.step();
  const Real u0 = slope_velocity();
  for (int i = 0; i < 1000; ++i) st.step();
  const Real a = (slope_velocity() - u0) / (1000 * s.dt);
  const Real expect = g * (sa - 0.2 * ca);
  EXPECT_NEAR(a, expect, 0.02 * expect);
}

}  // namespace
}  // namespace tlfea
