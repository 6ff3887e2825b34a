// Static friction on a slope: a block set down on a rigid
// plane inclined by alpha stays when tan(alpha) < mu_s and slides with the
// Coulomb acceleration g (sin alpha - mu_k cos alpha) when tan(alpha) > mu_s.
// References are the rigid-block Coulomb closed forms, computed here:
//   free kinetic sliding from rest, x(t) = 1/2 a_k t^2, a_k = g (sin a - mu_k cos a),
//   with gravity eased in linearly over T_r: x(t) = a_k t^3 / (6 T_r) for
//   t <= T_r, a_k (T_r^2 / 6 + T_r (t - T_r) / 2 + (t - T_r)^2 / 2) after.
// "Stays": the centre of mass moves along the slope by less than 1 % of that.
// The block holds below the friction angle because a contact's friction
// coefficient weakens from mu_s to mu_k only over a slip distance D_c
// (slip-weakening, contact_law.hpp; docs/theory.md §7.4): the microslip of
// lightly loaded vertices and the slip during a transient dip of the normal
// force stay below D_c, so the contacts keep mu_s and stick again. With the
// full weight at t = 0 the block also bounces and rocks on its contacts; an
// independent rigid-block integration of the same law (rigid_block_on_slope.hpp)
// is the reference for that case (docs/theory.md §7.4, "A block set down on
// a slope").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

#include "rigid_block_on_slope.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

constexpr Real kG = 9.81, kMuS = 0.25, kMuK = 0.2;

struct SlopeCase {
  ElementType type = ElementType::Q27;
  int divisions = 2;
  Real tan_alpha = 0.22;
  int patch = 0;          // 0: point law, 1: patch law, 2: smooth-max patch law
  Real ramp = 0.0;        // gravity eased in linearly over this time (0: on from t = 0)
  Real bulk_E = 1e7;      // the block's Young's modulus [Pa]
  Real contact_E = 1e7;   // the contact material's (ContactMaterial) [Pa]
  Real damping_mass = 0;  // > 0: every contact's dashpot mass (set_point_mass); 0: vertex masses
  bool shared = false;    // damping_mass divided among the loaded contacts (set_point_mass)
  Real mu_v = 0;          // > 0: Kelvin-Voigt bulk viscosity [Pa s] (lambda_v = 0)
  Real dt = 1e-4;         // time step [s]
  Real settle = 0;        // > 0: TimeStepper::settle over this pseudo-time before t = 0
};

// The meshes: Q27 2 x 2 x 2 (25 bottom vertices), Q27 3 x 3 x 3 (49), T10
// 2 x 2 x 2 (25, a stiffer, less regular lumping).
const SlopeCase kMeshes[] = {{ElementType::Q27, 2}, {ElementType::Q27, 3}, {ElementType::T10, 2}};

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
  std::shared_ptr<StepForce> step_force;  // the contact, added to each stepper
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
    MaterialSpec mat = MaterialSpec::svk(c.bulk_E, 0.3);
    if (c.mu_v > 0.0) mat = mat.with_kelvin_voigt(c.mu_v, 0.0);
    model.add_body(mesh, mat, 1000.0);
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
    ps.patch = c.patch != 0;
    ps.patch_smooth_max = c.patch == 2;
    if (const char* dc = std::getenv("SLOPE_DC")) ps.slip_distance = std::atof(dc);  // experiments
    cf->setup(lumped, {ContactMaterial{c.contact_E, 0.3}},
              {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, ps);
    if (c.damping_mass > 0.0) cf->set_point_mass(0, c.damping_mass, c.shared);
    auto dd = det;
    auto cc = cf;
    const Real ramp = c.ramp;
    CoefView gl = gravity_load;
    step_force = make_step_force([dd, cc, ramp, gl](Real t, const CoefView& q, const CoefView& v,
                                                    Real h, const CoefView& f) {
      dd->detect(q, t);
      cc->compute(dd->points(), q, v, h, f, t);
      if (ramp > 0.0) {
        // Gravity eased in: the load at the middle of the step (explicit).
        // (t < 0, a settle's pseudo-time, is not combined with this ramp.)
        const Real s = std::min(1.0, std::max(0.0, (t + 0.5 * h) / ramp));
        Kokkos::parallel_for("slope_gravity", Kokkos::RangePolicy<ExecSpace>(0, gl.extent(0)),
                             AddScaled{f, gl, s});
      }
    });
  }
  // Sums of the last step's contact forces on the block: normal, and
  // tangential along the down-slope direction.
  void contact_sums(Real& fn, Real& ft) const {
    auto n = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cf->normal_force());
    auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cf->tangential_force());
    fn = ft = 0.0;
    for (Ordinal k = 0; k < cf->active_contacts(); ++k) {
      fn += n(k);
      ft += ca * t(k, 0) - sa * t(k, 2);
    }
  }
  // Mass-weighted mean (centre of mass / its velocity) along the slope.
  Real along_slope(const CoefView& x) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lumped);
    Real s = 0.0;
    for (size_t k = 0; k < h.extent(0); ++k) s += mh(k) * (ca * h(k, 0) - sa * h(k, 2));
    return s / total_mass;
  }
  // Mass-weighted mean along the plane's normal.
  Real along_normal(const CoefView& x) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lumped);
    Real s = 0.0;
    for (size_t k = 0; k < h.extent(0); ++k) s += mh(k) * (sa * h(k, 0) + ca * h(k, 2));
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
                c.patch == 2 ? "pmax"
                : c.patch    ? "patch"
                             : "point",
                c.ramp);
  return buf;
}

// Settles the block before t = 0 when the case asks (c.settle > 0).
SettleReport maybe_settle(const SlopeCase& c, const BlockOnSlope& b, TimeStepper& st) {
  if (c.settle <= 0.0) return {};
  SettleSettings ss;
  ss.duration = c.settle;
  const Real x0 = b.along_slope(st.positions()), z0 = b.along_normal(st.positions());
  const SettleReport r = st.settle(ss);
  std::printf(
      "settle: %ld steps, %d velocity resets, kinetic energy %.3e J (peak %.3e J)%s, moved %.3e m "
      "along, %.3e m normal\n",
      r.steps, r.velocity_resets, r.kinetic_energy_final, r.kinetic_energy_peak,
      r.at_rest ? ", at rest" : ", not at rest", b.along_slope(st.positions()) - x0,
      b.along_normal(st.positions()) - z0);
  return r;
}

// Below the friction angle: the centre of mass moves less than 1 % of the
// free kinetic slide over the same time T.
Real run_stays(const SlopeCase& c, Real T, bool expect_stays = true) {
  BlockOnSlope b(c);
  StepperSettings s;
  s.dt = c.dt;
  TimeStepper st(b.model, s);
  st.add_step_force(b.step_force);
  maybe_settle(c, b, st);
  const Real x0 = b.along_slope(st.positions()), z0 = b.along_normal(st.positions());
  const int n = static_cast<int>(std::lround(T / s.dt));
  const bool debug = std::getenv("SLOPE_DEBUG") != nullptr;
  for (int i = 0; i < n; ++i) {
    st.step();
    if (debug && (i < 200 ? i % 10 == 0 : i % 100 == 0)) {
      auto fn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->normal_force());
      auto ft = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b.cf->tangential_force());
      const Ordinal na = b.cf->active_contacts();
      Real sn = 0.0, stt = 0.0;
      for (Ordinal k = 0; k < na; ++k) {
        sn += fn(k);
        stt += b.ca * ft(k, 0) - b.sa * ft(k, 2);
      }
      std::printf("t=%.4f n=%d slide=%d Fn=%.4f Ft=%.4f ratio=%.4f x=%.3e v=%.3e z=%.3e\n",
                  (i + 1) * s.dt, static_cast<int>(na), static_cast<int>(b.cf->sliding_contacts()),
                  sn, stt, sn > 0.0 ? stt / sn : 0.0, b.along_slope(st.positions()) - x0,
                  b.along_slope(st.velocities()), b.along_normal(st.positions()) - z0);
    }
  }
  const Real dx = b.along_slope(st.positions()) - x0, ref = b.free_slide(n * s.dt);
  std::printf("[%s] stays: moved %.3e m, free kinetic slide %.3e m (ratio %.4f)\n", name(c), dx,
              ref, dx / ref);
  if (expect_stays) EXPECT_LT(std::fabs(dx), 0.01 * ref) << name(c);
  return dx / ref;
}

// Above: the along-slope acceleration of the centre of mass between T1 and
// T2 is g (sin a - mu_k cos a) within 3 %.
struct Slid {
  Real ratio = 0.0;      // measured / closed-form acceleration
  bool at_rest = false;  // the settle's report (c.settle > 0)
};
Slid run_slides(const SlopeCase& c, Real T1, Real T2) {
  BlockOnSlope b(c);
  StepperSettings s;
  s.dt = c.dt;
  TimeStepper st(b.model, s);
  st.add_step_force(b.step_force);
  const SettleReport sr = maybe_settle(c, b, st);
  const int n1 = static_cast<int>(std::lround(T1 / s.dt));
  const int n2 = static_cast<int>(std::lround(T2 / s.dt));
  for (int i = 0; i < n1; ++i) st.step();
  const Real u1 = b.along_slope(st.velocities());
  for (int i = n1; i < n2; ++i) st.step();
  const Real a = (b.along_slope(st.velocities()) - u1) / ((n2 - n1) * s.dt);
  const Real ref = b.kinetic_acceleration();
  std::printf("[%s] slides: a = %.5f m/s^2, closed form %.5f (ratio %.4f)\n", name(c), a, ref,
              a / ref);
  EXPECT_NEAR(a, ref, 0.03 * ref) << name(c);
  return {a / ref, sr.at_rest};
}

// Below the friction angle (tan a = 0.22 and, just below, 0.24 < mu_s =
// 0.25; above mu_k = 0.2): the block stays over 0.3 s, on each mesh.
// SLOPE_ONLY="mesh ramp" runs one case (with SLOPE_DEBUG=1 for a trace).
void stays_below(int patch, Real ramp) {
  const char* only = std::getenv("SLOPE_ONLY");
  for (int mi = 0; mi < 3; ++mi)
    for (Real tan_alpha : {0.22, 0.24}) {
      if (only && (std::atoi(only) != mi || std::atof(std::strchr(only, ' ') + 1) != ramp))
        continue;
      SlopeCase c = kMeshes[mi];
      c.tan_alpha = tan_alpha;
      c.patch = patch;
      c.ramp = ramp;
      run_stays(c, 0.3);
    }
}

// Point law, gravity eased in over 0.2 s: moved 0.25-0.44 % of the free
// kinetic slide (with D_c = 0, i.e. mu_k as soon as a vertex slips, 102 %).
TEST(ContactSlope, BlockStaysBelowFrictionAngle) { stays_below(0, 0.2); }

// Not met without a settle (disabled measurements; docs/guide/contact.md "Limits";
// settled before t = 0 the same blocks stay: SettledBlockStays* below):
// gravity on in full at t = 0, the block set down at zero penetration bounces on its Hertz contacts
// (the normal force swings between about 0.2 and 2 times the load with a 10 ms period for some 80
// ms: Hertz stiffness vanishes at delta = 0 and the dashpot is sized by the touching nodes' masses)
// and slips down in every trough. Point law: 107 %, 94 %, 102 % (Q27 2^3, Q27 3^3, T10) at tan a =
// 0.22; with D_c = 1e-2 m (no weakening in practice) it still creeps 5.1 %
// (0.44 mm) before it holds. The rigid-block reference of the same law
// slides away too at tan a = 0.24 after this abrupt load (0.96 of the free
// slide; GravityFromStartSoftContactFollowsRigidReference), so "stays" is
// not what the law predicts there; at 0.22 the soft elastic block (its
// shear mode has the contact's period) slides where the rigid one holds,
// also with the shared damping mass and a Kelvin-Voigt bulk (87 %). With a
// stiffer, lightly damped block it holds from t = 0
// (GravityFromStartSharedDampingMassStays), and so does the smooth-max
// patch law (below). Patch law: the law rocks a flat
// block (normal force between 0.2 and 2 times the load), 170-260 % also
// with the ramp: its elastic force is no potential force (docs/theory.md
// §7.5).
TEST(ContactSlope, DISABLED_BlockStaysBelowFrictionAngleGravityFromStart) { stays_below(0, 0.0); }
TEST(ContactSlope, DISABLED_BlockStaysBelowFrictionAnglePatchLaw) {
  stays_below(1, 0.2);
  stays_below(1, 0.0);
}
// Settled before t = 0 (TimeStepper::settle, docs/theory.md §6.11: gravity
// eased in over the first half of 0.3 s of pseudo-time before t = 0, then
// held, with kinetic damping): the cases above that do not hold with the
// full weight applied at t = 0 at rest (the soft E = 1e7 Pa block with
// nodal damping masses, point law; the patch law) start the run in
// equilibrium. Checked against statics: the contacts carry the weight,
// sum F_n = m g cos a and sum F_t = m g sin a down the slope within 1 %
// (m = 1 kg, the lumped mass); the block is at rest (SettleReport); and
// over 0.3 s from t = 0 with gravity in full it moves less than 1 % of the
// free kinetic slide. Measured: moved 0 (the settled state is stationary:
// the first Newton residual of every step is below its tolerance);
// during the settle it moved 1.2e-5 to 1.8e-5 m down the slope (point
// law; the block's shear and its contacts' sticking springs) and 8e-5 m
// (patch law). Without the settle the same blocks slide away (94-107 %,
// DISABLED_BlockStaysBelowFrictionAngleGravityFromStart).
void settled_stays(const SlopeCase& mesh, int patch, Real tan_alpha) {
  SlopeCase c = mesh;
  c.tan_alpha = tan_alpha;
  c.patch = patch;
  c.settle = 0.3;
  BlockOnSlope b(c);
  StepperSettings s;
  s.dt = c.dt;
  TimeStepper st(b.model, s);
  st.add_step_force(b.step_force);
  const SettleReport r = maybe_settle(c, b, st);
  EXPECT_TRUE(r.at_rest) << name(c);
  EXPECT_EQ(st.time(), 0.0);
  EXPECT_EQ(st.steps_taken(), 0);
  // Statics of the settled block: the contact forces of the next step (at
  // the settled state) against the weight's components.
  const Real x0 = b.along_slope(st.positions());
  st.step();
  Real fn = 0.0, ft = 0.0;
  b.contact_sums(fn, ft);
  const Real w = kG * b.total_mass;
  std::printf("[%s] settled: sum F_n / (m g cos a) = %.5f, sum F_t / (m g sin a) = %.5f\n", name(c),
              fn / (w * b.ca), ft / (w * b.sa));
  EXPECT_NEAR(fn, w * b.ca, 0.01 * w * b.ca) << name(c);
  EXPECT_NEAR(ft, -w * b.sa, 0.01 * w * b.sa) << name(c);  // up the slope, on the block
  const int n = static_cast<int>(std::lround(0.3 / s.dt));
  for (int i = 1; i < n; ++i) st.step();
  const Real dx = b.along_slope(st.positions()) - x0, ref = b.free_slide(0.3);
  std::printf("[%s] settled, stays: moved %.3e m, free kinetic slide %.3e m (ratio %.4f)\n",
              name(c), dx, ref, dx / ref);
  EXPECT_LT(std::fabs(dx), 0.01 * ref) << name(c);
}
TEST(ContactSlope, SettledBlockStaysBelowFrictionAngle) {
  for (const SlopeCase& m : kMeshes)
    for (Real tan_alpha : {0.22, 0.24}) settled_stays(m, 0, tan_alpha);
}
TEST(ContactSlope, SettledBlockStaysBelowFrictionAnglePatchLaws) {
  for (int patch : {1, 2})
    for (Real tan_alpha : {0.22, 0.24}) settled_stays(kMeshes[0], patch, tan_alpha);
}
// Above the friction angle a settle cannot find a rest: the block slides
// during it, is reported not at rest, and from rest at t = 0 slides with
// g (sin a - mu_k cos a) (point law; measured within 0.01 %).
TEST(ContactSlope, SettledBlockSlidesAboveFrictionAngle) {
  for (const SlopeCase& m : kMeshes)
    for (Real tan_alpha : {0.27, 0.3}) {
      SlopeCase c = m;
      c.tan_alpha = tan_alpha;
      c.settle = 0.3;
      EXPECT_FALSE(run_slides(c, 0.1, 0.2).at_rest) << name(c);
    }
}

// The smooth-max patch law (a potential force; its dashpots and tangential
// spring on the patch's stiffness G^2 S(D), docs/theory.md §7.5), gravity
// eased in and on from t = 0, every mesh, tan a = 0.22 and 0.24: moved
// 0.30-0.90 % of the free slide. With the dashpots and the spring on the
// Hertz-Mindlin S(D) alone (an earlier form) 0.59-1.07 %, and on
// Q27 3^3 from t = 0 1.67 % and 62 %: the tangential spring was softer than
// the patch's normal stiffness allows (its elastic offset under the slope
// load is most of what the block moves with the ramp), and the patch
// landing was under-damped (rebound 0.579 for e = 0.5, test
// FlatLandingRestitutionWithSharedDampingMass).
TEST(ContactSlope, BlockStaysBelowFrictionAnglePatchLawSmoothMax) {
  stays_below(2, 0.2);
  stays_below(2, 0.0);
}

// Gravity on in full at t = 0 against an independent reference: the same
// contact law on a rigid cube that may slide, bounce and rock
// (rigid_block_on_slope.hpp, integrated with a step 50 times finer). The FE
// block is made rigid-like (bulk E = 1e12 Pa; the contact keeps its own
// modulus through ContactMaterial) and every contact's dashpot mass is the
// reference's, the body's mass over its 25 bottom vertices. With a soft
// contact (E = 1e7 Pa, contact period ~8 ms) the abrupt load makes the block
// bounce and rock: at tan a = 0.22 both hold (0.6-0.7 % of the free slide);
// at tan a = 0.24 the law itself lets the reference slide away (0.96 of the
// free kinetic slide: the normal troughs of the rocking exceed the slip
// distance D_c = 0.1 mm), and the FE block follows it. With a stiff contact
// (E = 1e9 Pa) the transient is short and both hold at both angles from t =
// 0 (0.2-0.3 %). Agreement: |FE - reference| <= 2 % of the free slide (the
// FE steps the contact forces explicitly, 80 steps per contact period at
// 1e7 Pa; measured 0.01-0.9 %).
void against_rigid_reference(Real contact_E, Real dt, Real T, Real tan_alpha, bool stays) {
  SlopeCase c;
  c.tan_alpha = tan_alpha;
  c.bulk_E = 1e12;
  c.contact_E = contact_E;
  c.damping_mass = 1.0 / 25.0;  // 1 kg over the 5 x 5 bottom vertices
  c.dt = dt;
  const Real fe = run_stays(c, T, stays);
  rigid_slope::Params p;
  p.tan_alpha = tan_alpha;
  p.E = contact_E;
  p.damping_mass = c.damping_mass;
  p.dt = dt / 50.0;
  p.duration = T;
  BlockOnSlope b(c);  // for the free slide of the same case
  const Real ref = rigid_slope::slide(p) / b.free_slide(T);
  std::printf("[%s E_c=%.0e] FE %.4f, rigid-block reference %.4f of the free slide\n", name(c),
              contact_E, fe, ref);
  EXPECT_NEAR(fe, ref, 0.02) << name(c);
  if (stays) {
    EXPECT_LT(std::fabs(ref), 0.01) << "reference " << name(c);
  } else {
    EXPECT_GT(ref, 0.5) << "reference " << name(c);
  }
}
TEST(ContactSlope, GravityFromStartSoftContactFollowsRigidReference) {
  against_rigid_reference(1e7, 1e-4, 0.3, 0.22, true);
  against_rigid_reference(1e7, 1e-4, 0.3, 0.24, false);
}
TEST(ContactSlope, GravityFromStartStiffContactStays) {
  against_rigid_reference(1e9, 1e-5, 0.1, 0.22, true);
  against_rigid_reference(1e9, 1e-5, 0.1, 0.24, true);
}

// What a user does (docs/scene.md `damping_mass: shared`): an elastic block
// (E = 1e9 Pa for the body and the contact, a light Kelvin-Voigt viscosity
// mu_v = 2e3 Pa s, about 2.5 % of critical in its first shear mode) with the
// body's mass shared among its loaded contacts as damping mass, gravity on
// in full at t = 0, on each mesh: stays below the friction angle (< 1 % of
// the free slide, the bar; measured 0.25-0.40 %) and slides above
// it with g (sin a - mu_k cos a) within 3 %. Measured and not asserted: with
// the nodal masses as damping masses the same block moves 2.4 % (tan a =
// 0.22) and 41 % (0.24); with shared masses but no bulk viscosity, 104 %
// (the block's undamped high modes, driven by the explicit contact forces,
// make the contacts chatter; mu_v = 200 Pa s already holds it: 0.3-0.4 %).
SlopeCase damped_stiff_block(const SlopeCase& mesh, Real tan_alpha) {
  SlopeCase c = mesh;
  c.tan_alpha = tan_alpha;
  c.bulk_E = c.contact_E = 1e9;
  c.mu_v = 2e3;
  c.damping_mass = 1.0;  // the block's mass, shared among its loaded contacts
  c.shared = true;
  c.dt = 2e-5;
  return c;
}
TEST(ContactSlope, GravityFromStartSharedDampingMassStays) {
  for (const SlopeCase& m : kMeshes)
    for (Real tan_alpha : {0.22, 0.24}) run_stays(damped_stiff_block(m, tan_alpha), 0.1);
}
TEST(ContactSlope, GravityFromStartSharedDampingMassSlidesAbove) {
  for (Real tan_alpha : {0.27, 0.3})
    run_slides(damped_stiff_block(kMeshes[0], tan_alpha), 0.05, 0.1);
}

// Above the friction angle: just above (tan a = 0.27) and at tan a = 0.3,
// kinetic sliding with a = g (sin a - mu_k cos a) once the slip exceeds D_c,
// gravity on from t = 0 and eased in over 0.05 s, acceleration measured
// over [0.1 s, 0.2 s].
void slides_above(int patch) {
  for (const SlopeCase& m : kMeshes)
    for (Real tan_alpha : {0.27, 0.3})
      for (Real ramp : {0.0, 0.05}) {
        SlopeCase c = m;
        c.tan_alpha = tan_alpha;
        c.patch = patch;
        c.ramp = ramp;
        run_slides(c, 0.1, 0.2);
      }
}
// Point law: within 0.35 % on every mesh.
TEST(ContactSlope, BlockSlidesAboveFrictionAngle) { slides_above(0); }
// Not met (disabled): the patch law rocks the sliding block, 0.91-1.24 times.
TEST(ContactSlope, DISABLED_BlockSlidesAboveFrictionAnglePatchLaw) { slides_above(1); }
// The smooth-max patch law (ContactPairSettings::patch_smooth_max, scene
// `law: patch_smooth_max`; docs/theory.md §7.5), whose elastic force is the
// gradient of a potential, does not rock: 0.982-1.009 on every case.
TEST(ContactSlope, BlockSlidesAboveFrictionAnglePatchLawSmoothMax) { slides_above(2); }

}  // namespace
}  // namespace tlfea
