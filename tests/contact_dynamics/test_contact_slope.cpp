// Static friction on a slope (issue 11, item 2): a block set down on a rigid
// plane inclined by alpha stays when tan(alpha) < mu_s and slides with the
// Coulomb acceleration g (sin alpha - mu_k cos alpha) when tan(alpha) > mu_s.
// References are the rigid-block Coulomb closed forms, computed here:
//   free kinetic sliding from rest, x(t) = 1/2 a_k t^2, a_k = g (sin a - mu_k cos a),
//   with gravity eased in linearly over T_r: x(t) = a_k t^3 / (6 T_r) for
//   t <= T_r, a_k (T_r^2 / 6 + T_r (t - T_r) / 2 + (t - T_r)^2 / 2) after.
// "Stays": the centre of mass moves along the slope by less than 1 % of that.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/solvers/time_stepper.hpp"

namespace tlfea {
namespace {

constexpr Real kG = 9.81, kMuS = 0.25, kMuK = 0.2;

struct SlopeCase {
  ElementType type = ElementType::Q27;
  int divisions = 2;
  Real tan_alpha = 0.22;
  bool patch = false;
  Real ramp = 0.0;  // gravity eased in linearly over this time (0: on from t = 0)
};

// A 0.1 m cube (1 kg, E = 1e7 Pa) set down on the plane through the origin
// with normal (sin a, 0, cos a): its bottom face touches the plane at t = 0,
// at rest. Down-slope direction (cos a, 0, -sin a).
// f += s g, a functor (nvcc allows no extended device lambda in a
// constructor or inside another lambda).
struct AddScaled {
  CoefView f, g;
  Real s;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int i = 0; i < 3; ++i) f(k, i) += s * g(k, i);
  }
};

struct BlockOnSlope {
  SlopeCase c;
  Real ca, sa;
  Model model;
  Mesh mesh;
  std::shared_ptr<ContactDetection> det;
  std::shared_ptr<ContactForces> cf;
  DeviceView<Real*> lumped;
  CoefView gravity_load;
  Real total_mass = 0.0;

  explicit BlockOnSlope(const SlopeCase& sc) : c(sc) {
    const Real alpha = std::atan(c.tan_alpha);
    ca = std::cos(alpha);
    sa = std::sin(alpha);
    const int d = c.divisions;
    mesh = generate_box(c.type, {0.1, 0.1, 0.1}, {d, d, d}, {-0.05, -0.05, 0.0});
    for (auto& X : mesh.coefficients) {
      const Real x = X[0], z = X[2];
      X[0] = ca * x + sa * z;
      X[2] = -sa * x + ca * z;
    }
    model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
    if (c.ramp <= 0.0) model.set_gravity({{0.0, 0.0, -kG}});
    model.finalize();
    lumped = row_sum_lumped_mass(model.pattern(), model.mass_values());
    auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lumped);
    for (size_t k = 0; k < mh.extent(0); ++k) total_mass += mh(k);
    // Consistent gravity load: f_k = (sum_j M_kj) g, the row-sum mass times g.
    gravity_load = CoefView("gravity_load", model.num_coefficients());
    auto gh = Kokkos::create_mirror_view(gravity_load);
    for (size_t k = 0; k < mh.extent(0); ++k) {
      gh(k, 0) = gh(k, 1) = 0.0;
      gh(k, 2) = -kG * mh(k);
    }
    Kokkos::deep_copy(gravity_load, gh);
    det = std::make_shared<ContactDetection>();
    det->add_body(0, mesh, 0, 0.05);
    det->add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{sa, 0.0, ca}}));
    det->setup();
    cf = std::make_shared<ContactForces>();
    ContactPairSettings ps;
    ps.mu_s = kMuS;
    ps.mu_k = kMuK;
    ps.patch = c.patch;
    cf->setup(lumped, {ContactMaterial{1e7, 0.3}},
              {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, ps);
    auto dd = det;
    auto cc = cf;
    const Real ramp = c.ramp;
    CoefView gl = gravity_load;
    model.add_step_force(
        [dd, cc, ramp, gl](Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) {
          dd->detect(q, t);
          cc->compute(dd->points(), q, v, h, f, t);
          if (ramp > 0.0) {
            // Gravity eased in: the load at the middle of the step (explicit).
            const Real s = std::min(1.0, (t + 0.5 * h) / ramp);
            Kokkos::parallel_for("slope_gravity",
                                 Kokkos::RangePolicy<ExecSpace>(0, gl.extent(0)),
                                 AddScaled{f, gl, s});
          }
        });
  }
  // Mass-weighted mean (centre of mass / its velocity) along the slope.
  Real along_slope(const CoefView& x) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lumped);
    Real s = 0.0;
    for (size_t k = 0; k < h.extent(0); ++k) s += mh(k) * (ca * h(k, 0) - sa * h(k, 2));
    return s / total_mass;
  }
  Real kinetic_acceleration() const { return kG * (sa - kMuK * ca); }
  // Closed-form free kinetic sliding distance from rest after time t.
  Real free_slide(Real t) const {
    const Real a = kinetic_acceleration(), T = c.ramp;
    if (T <= 0.0) return 0.5 * a * t * t;
    if (t <= T) return a * t * t * t / (6.0 * T);
    const Real s = t - T;
    return a * (T * T / 6.0 + 0.5 * T * s + 0.5 * s * s);
  }
};

const char* name(const SlopeCase& c) {
  static char buf[128];
  std::snprintf(buf, sizeof buf, "%s d=%d tan=%.2f %s ramp=%.2f",
                c.type == ElementType::Q27 ? "Q27" : "T10", c.divisions, c.tan_alpha,
                c.patch ? "patch" : "point", c.ramp);
  return buf;
}

// Below the friction angle: the centre of mass moves less than 1 % of the
// free kinetic slide over the same time T.
void expect_stays(const SlopeCase& c, Real T) {
  BlockOnSlope b(c);
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(b.model, s);
  const Real x0 = b.along_slope(st.positions());
  const int n = static_cast<int>(std::lround(T / s.dt));
  for (int i = 0; i < n; ++i) {
    st.step();
    if (std::getenv("SLOPE_DEBUG") && (i < 400 ? i % 20 == 0 : i % 500 == 0)) {
      auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->normal_force());
      auto ft = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->tangential_force());
      auto sl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->sliding());
      auto dtv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->tangential_displacement());
      auto em = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->effective_mass());
      Real dmean = 0, dmin = 1e9, dmax = -1e9;
      for (Ordinal k = 0; k < b.cf->active_contacts(); ++k) { const Real dd = b.ca * dtv(k, 0) - b.sa * dtv(k, 2); dmean += dd / b.cf->active_contacts(); dmin = std::min(dmin, dd); dmax = std::max(dmax, dd); }
      std::printf("   dt mean %.3e min %.3e max %.3e mstar0 %.3e\n", dmean, dmin, dmax, em(0));
      Real sn = 0, stt = 0, mn = 1e9, mx = 0, rmax = 0;
      const Ordinal na = b.cf->active_contacts();
      for (Ordinal k = 0; k < na; ++k) {
        sn += fn(k);
        const Real t = b.ca * ft(k, 0) - b.sa * ft(k, 2);
        stt += t;
        if (fn(k) > 0) { mn = std::min(mn, fn(k)); mx = std::max(mx, fn(k)); rmax = std::max(rmax, std::fabs(t) / fn(k)); }
      }
      std::printf("t=%.4f n=%d slide=%d Fn=%.4f Ft=%.4f ratio=%.4f fnmin=%.3g fnmax=%.3g rmax=%.3f v=%.3e x=%.3e\n",
                  (i + 1) * s.dt, (int)na, (int)b.cf->sliding_contacts(), sn, stt, stt / sn, mn, mx, rmax,
                  b.along_slope(st.velocities()), b.along_slope(st.positions()) - x0);
    }
  }
  const Real dx = b.along_slope(st.positions()) - x0, ref = b.free_slide(n * s.dt);
  std::printf("[%s] stays: moved %.3e m, free kinetic slide %.3e m (ratio %.4f)\n", name(c), dx,
              ref, dx / ref);
  EXPECT_LT(std::fabs(dx), 0.01 * ref) << name(c);
}

// Above: the along-slope acceleration of the centre of mass between T1 and
// T2 is g (sin a - mu_k cos a) within 3 %.
void expect_slides(const SlopeCase& c, Real T1, Real T2) {
  BlockOnSlope b(c);
  StepperSettings s;
  s.dt = 1e-4;
  TimeStepper st(b.model, s);
  const int n1 = static_cast<int>(std::lround(T1 / s.dt)), n2 = static_cast<int>(std::lround(T2 / s.dt));
  for (int i = 0; i < n1; ++i) st.step();
  const Real u1 = b.along_slope(st.velocities());
  for (int i = n1; i < n2; ++i) st.step();
  const Real a = (b.along_slope(st.velocities()) - u1) / ((n2 - n1) * s.dt);
  const Real ref = b.kinetic_acceleration();
  std::printf("[%s] slides: a = %.5f m/s^2, closed form %.5f (ratio %.4f)\n", name(c), a, ref,
              a / ref);
  EXPECT_NEAR(a, ref, 0.03 * ref) << name(c);
}

// Above the friction angle (tan a = 0.3 > mu_s = 0.25): kinetic sliding,
// Q27 and T10 blocks, gravity on from t = 0 and eased in over 0.05 s.
TEST(ContactSlope, BlockSlidesAboveFrictionAngle) {
  SlopeCase c;
  c.tan_alpha = 0.3;
  expect_slides(c, 0.05, 0.15);
  c.type = ElementType::T10;
  c.ramp = 0.05;
  expect_slides(c, 0.08, 0.18);
}

// Below the friction angle (tan a = 0.22 < mu_s = 0.25): the block should
// stay. Disabled: it fails (issue 11, item 2; README "Frictional contact",
// known limits). Measured with the law as it is (Q27, 2x2x2, h = 1e-4 s,
// 0.3 s): point law, gravity from t = 0, moved 1.21 x (T10 1.19) the free kinetic
// slide; eased in over 0.2 s, 1.02 x (T10 1.02); patch law 2.36 x and 1.74 x
// (T10 2.26 x and 1.80 x).
// Run with SLOPE_DEBUG=1 for the contact forces over time.
TEST(ContactSlope, DISABLED_BlockStaysBelowFrictionAngle) {
  for (bool patch : {false, true})
    for (Real ramp : {0.0, 0.2}) {
      SlopeCase c;
      c.patch = patch;
      c.ramp = ramp;
      expect_stays(c, 0.3);
      c.type = ElementType::T10;
      expect_stays(c, 0.3);
    }
}

}  // namespace
}  // namespace tlfea
