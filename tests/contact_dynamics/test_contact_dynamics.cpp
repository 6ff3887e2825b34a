// Frictional contact through the whole chain: surface detection against a
// rigid plane, the Hertz-Mindlin law with history, and the backward-Euler
// stepper (contact forces explicit, evaluated once per step).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/solvers/time_stepper.hpp"

namespace tlfea {
namespace {

// A 0.1 m Q27 cube (1 kg) on the plane z = 0, contact hooked into the model.
struct BlockOnPlane {
  Model model;
  Mesh mesh;
  std::shared_ptr<ContactDetection> det;
  std::shared_ptr<ContactForces> cf;
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
    model.add_step_force(
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

}  // namespace
}  // namespace tlfea
