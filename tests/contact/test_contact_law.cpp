// Tests of the contact law, its tangential history and the force scatter
// (docs/theory.md §7.4), on hand-made contact points
// (no detection). Golden numbers come from the written law (closed forms
// restated in this file), from an independent RK4 integration of the 1-DOF
// impact, and from rigid-body Coulomb mechanics (stopping distance
// v0^2 / (2 mu g), incline acceleration g (sin a - mu_k cos a)).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {
namespace {

constexpr Real kPi = 3.14159265358979323846;
constexpr Real kInf = std::numeric_limits<Real>::infinity();

// One hand-made contact.
struct HandContact {
  Real n[3] = {0.0, 0.0, 1.0};
  Real delta = 0.0;
  Real radius = 0.0;
  int body[2] = {0, -1};
  std::vector<Ordinal> ids_a, ids_b;
  std::vector<Real> w_a, w_b;
  Real obstacle_velocity[3] = {0.0, 0.0, 0.0};
  unsigned long long key = 0;
};

struct HandPoints {
  ContactPoints cp;
  HandPoints(Ordinal capacity, int max_coef) {
    cp.capacity = capacity;
    cp.count = DeviceView<Ordinal*>("count", 1);
    cp.x = DeviceView<Real* [3]>("x", capacity);
    cp.normal = DeviceView<Real* [3]>("normal", capacity);
    cp.delta = DeviceView<Real*>("delta", capacity);
    cp.area = DeviceView<Real*>("area", capacity);
    cp.radius = DeviceView<Real*>("radius", capacity);
    cp.body = DeviceView<int* [2]>("body", capacity);
    cp.num = DeviceView<int* [2]>("num", capacity);
    cp.id = DeviceView<Ordinal** [2]>("id", capacity, max_coef);
    cp.weight = DeviceView<Real** [2]>("weight", capacity, max_coef);
    cp.obstacle_velocity = DeviceView<Real* [3]>("obstacle_velocity", capacity);
    cp.key = DeviceView<unsigned long long*>("key", capacity);
  }
  void upload(const std::vector<HandContact>& cs) {
    auto count = Kokkos::create_mirror_view(cp.count);
    auto normal = Kokkos::create_mirror_view(cp.normal);
    auto delta = Kokkos::create_mirror_view(cp.delta);
    auto radius = Kokkos::create_mirror_view(cp.radius);
    auto body = Kokkos::create_mirror_view(cp.body);
    auto num = Kokkos::create_mirror_view(cp.num);
    auto id = Kokkos::create_mirror_view(cp.id);
    auto weight = Kokkos::create_mirror_view(cp.weight);
    auto ov = Kokkos::create_mirror_view(cp.obstacle_velocity);
    auto key = Kokkos::create_mirror_view(cp.key);
    count(0) = static_cast<Ordinal>(cs.size());
    for (size_t k = 0; k < cs.size(); ++k) {
      const HandContact& c = cs[k];
      for (int i = 0; i < 3; ++i) {
        normal(k, i) = c.n[i];
        ov(k, i) = c.obstacle_velocity[i];
      }
      delta(k) = c.delta;
      radius(k) = c.radius;
      body(k, 0) = c.body[0];
      body(k, 1) = c.body[1];
      num(k, 0) = static_cast<int>(c.ids_a.size());
      num(k, 1) = static_cast<int>(c.ids_b.size());
      for (size_t l = 0; l < c.ids_a.size(); ++l) {
        id(k, l, 0) = c.ids_a[l];
        weight(k, l, 0) = c.w_a[l];
      }
      for (size_t l = 0; l < c.ids_b.size(); ++l) {
        id(k, l, 1) = c.ids_b[l];
        weight(k, l, 1) = c.w_b[l];
      }
      key(k) = c.key;
    }
    Kokkos::deep_copy(cp.count, count);
    Kokkos::deep_copy(cp.normal, normal);
    Kokkos::deep_copy(cp.delta, delta);
    Kokkos::deep_copy(cp.radius, radius);
    Kokkos::deep_copy(cp.body, body);
    Kokkos::deep_copy(cp.num, num);
    Kokkos::deep_copy(cp.id, id);
    Kokkos::deep_copy(cp.weight, weight);
    Kokkos::deep_copy(cp.obstacle_velocity, ov);
    Kokkos::deep_copy(cp.key, key);
  }
};

DeviceView<Real*> masses(const std::vector<Real>& m) {
  DeviceView<Real*> d("mass", m.size());
  auto h = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < m.size(); ++i) h(i) = m[i];
  Kokkos::deep_copy(d, h);
  return d;
}

void set_coef(const CoefView& v, const std::vector<std::array<Real, 3>>& vals) {
  auto h = Kokkos::create_mirror_view(v);
  for (size_t c = 0; c < vals.size(); ++c)
    for (int i = 0; i < 3; ++i) h(c, i) = vals[c][i];
  Kokkos::deep_copy(v, h);
}

CoefViewHost to_host(const CoefView& v) {
  return Kokkos::create_mirror_view_and_copy(HostSpace(), v);
}

// A single point of body 0 (coefficient 0, weight 1) on a rigid obstacle
// with normal +z.
HandContact single_point(Real delta, Real radius, unsigned long long key = 7) {
  HandContact c;
  c.delta = delta;
  c.radius = radius;
  c.ids_a = {0};
  c.w_a = {1.0};
  c.key = key;
  return c;
}

// Law constants restated from docs/theory.md §7.4 (independent of contact_law.hpp).
struct RefLaw {
  Real E, nu, e, R;
  Real E_star() const { return E / (1.0 - nu * nu); }  // rigid partner
  Real G_star() const { return E / (2.0 * (2.0 - nu) * (1.0 + nu)); }
  Real beta() const { return -std::log(e) / std::sqrt(std::log(e) * std::log(e) + kPi * kPi); }
  Real S_n(Real d) const { return 2.0 * E_star() * std::sqrt(R * d); }
  Real S_t(Real d) const { return 8.0 * G_star() * std::sqrt(R * d); }
  Real gamma(Real S, Real m) const {
    return 2.0 * std::sqrt(5.0 / 6.0) * beta() * std::sqrt(S * m);
  }
  Real F_n(Real d, Real vn, Real m) const {
    if (d <= 0.0) return 0.0;
    return std::max(0.0, (2.0 / 3.0) * S_n(d) * d - gamma(S_n(d), m) * vn);
  }
  // Penetration at which the static Hertz force equals F.
  Real delta_for(Real F) const {
    return std::pow(F / ((4.0 / 3.0) * E_star() * std::sqrt(R)), 2.0 / 3.0);
  }
};

const RefLaw kLaw{1e7, 0.3, 0.5, 0.05};

ContactForces make_forces(const std::vector<Real>& m, Real mu_s = 0.25, Real mu_k = 0.2,
                          Real e = 0.5, Real slip_distance = -1.0) {
  ContactForces cf;
  ContactPairSettings s;
  if (slip_distance >= 0.0) s.slip_distance = slip_distance;
  s.restitution = e;
  s.mu_s = mu_s;
  s.mu_k = mu_k;
  cf.setup(masses(m), {ContactMaterial{kLaw.E, kLaw.nu}}, {ContactMaterial{kInf, 0.0}}, s);
  return cf;
}

TEST(ContactLaw, NormalForceIsHertzAtRestAndActionReaction) {
  const Real m = 2.0, delta = 1e-3;
  ContactForces cf = make_forces({m});
  HandPoints hp(1, 1);
  hp.upload({single_point(delta, kLaw.R)});
  CoefView v("v", 1), f("f", 1);
  cf.compute(hp.cp, v, v, 1e-3, f);
  auto fh = to_host(f);
  // Hertz: F = (4/3) E* sqrt(R*) delta^(3/2).
  const Real hertz = 4.0 / 3.0 * kLaw.E_star() * std::sqrt(kLaw.R) * std::pow(delta, 1.5);
  EXPECT_NEAR(fh(0, 2), hertz, 1e-12 * hertz);
  EXPECT_EQ(fh(0, 0), 0.0);
  EXPECT_EQ(fh(0, 1), 0.0);
  EXPECT_EQ(cf.active_contacts(), 1);
  EXPECT_EQ(cf.sliding_contacts(), 0);

  // Two deformable bodies, A on two coefficients, B on one, oblique normal:
  // the forces on A and B are equal and opposite and split by the weights.
  ContactForces cf2;
  cf2.setup(masses({1.0, 1.0, 3.0}), {ContactMaterial{1e7, 0.3}, ContactMaterial{2e7, 0.25}}, {},
            ContactPairSettings{});
  HandContact c;
  const Real s = 1.0 / std::sqrt(3.0);
  c.n[0] = c.n[1] = c.n[2] = s;
  c.delta = delta;
  c.radius = kLaw.R;
  c.body[0] = 0;
  c.body[1] = 1;
  c.ids_a = {0, 1};
  c.w_a = {0.25, 0.75};
  c.ids_b = {2};
  c.w_b = {1.0};
  c.key = 3;
  HandPoints hp2(1, 2);
  hp2.upload({c});
  CoefView v2("v", 3), f2("f", 3);
  cf2.compute(hp2.cp, v2, v2, 1e-3, f2);
  auto f2h = to_host(f2);
  // 1/E* = (1 - 0.09)/1e7 + (1 - 0.0625)/2e7.
  const Real E_star = 1.0 / ((1.0 - 0.09) / 1e7 + (1.0 - 0.0625) / 2e7);
  const Real F = 4.0 / 3.0 * E_star * std::sqrt(kLaw.R) * std::pow(delta, 1.5);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(f2h(0, i), 0.25 * F * s, 1e-12 * F);
    EXPECT_NEAR(f2h(1, i), 0.75 * F * s, 1e-12 * F);
    EXPECT_NEAR(f2h(2, i), -F * s, 1e-12 * F);
  }
  // m_A = 1 / (0.25^2/1 + 0.75^2/1) = 1/0.625, m_B = 3, m* = m_A m_B / (m_A + m_B).
  auto mh = Kokkos::create_mirror_view_and_copy(HostSpace(), cf2.effective_mass());
  const Real mA = 1.0 / 0.625, mB = 3.0;
  EXPECT_NEAR(mh(0), mA * mB / (mA + mB), 1e-14);
}

// Contact material separate from the bulk material
// (docs/theory.md §7.4 "Contact material"). The law takes E, nu of each
// partner's ContactMaterial, whatever the body's bulk material, and a pair
// may set E* (and G*) itself. References: Hertz F = (4/3) E* sqrt(R) d^(3/2)
// with E* from the closed forms of RefLaw / the pair's value; the
// composition rule (given by both partners: the smaller, by one: that one,
// by neither: the default; mu_k capped at mu_s) restated here.
TEST(ContactLaw, ContactMaterialAndPairModulusSetTheHertzForce) {
  const Real m = 2.0, delta = 1e-3, R = 0.05;
  auto hertz = [&](Real E_star) {
    return 4.0 / 3.0 * E_star * std::sqrt(R) * std::pow(delta, 1.5);
  };
  HandPoints hp(1, 1);
  hp.upload({single_point(delta, R)});
  CoefView v("v", 1);
  // A body whose contact modulus is 2e9 Pa, nu = 0.25 (e.g. a steel-like
  // skin on a soft bulk): E* = E / (1 - nu^2) against the rigid plane.
  {
    ContactForces cf;
    cf.setup(masses({m}), {ContactMaterial{2e9, 0.25}}, {ContactMaterial{kInf, 0.0}},
             ContactPairSettings{});
    CoefView f("f", 1);
    cf.compute(hp.cp, v, v, 1e-3, f);
    const Real ref = hertz(2e9 / (1.0 - 0.0625));
    EXPECT_NEAR(to_host(f)(0, 2), ref, 1e-12 * ref);
    // G* = E / (2 (2 - nu) (1 + nu)) (rigid partner).
    EXPECT_NEAR(cf.pair_law(0, -1).G_star, 2e9 / (2.0 * 1.75 * 1.25), 1e-3);
  }
  // A pair override of E* (and the G* it implies: the materials' ratio).
  {
    ContactForces cf = make_forces({m});
    ContactPairSettings s = cf.pair_settings(0, -1);
    EXPECT_EQ(s.E_star, 0.0);
    s.E_star = 3.5e8;
    cf.set_pair(0, -1, s);
    CoefView f("f", 1);
    cf.compute(hp.cp, v, v, 1e-3, f);
    const Real ref = hertz(3.5e8);
    EXPECT_NEAR(to_host(f)(0, 2), ref, 1e-12 * ref);
    // G*/E* = (1 - nu) / (2 (2 - nu)) for nu = 0.3 against a rigid partner.
    EXPECT_NEAR(cf.pair_law(-1, 0).G_star, 3.5e8 * 0.7 / (2.0 * 1.7), 1e-6);
    s.G_star = 1e8;
    cf.set_pair(-1, 0, s);
    EXPECT_EQ(cf.pair_law(0, -1).G_star, 1e8);
  }
}

TEST(ContactLaw, PartnerRestitutionAndFrictionCompose) {
  ContactPairSettings d;  // e = 0.5, mu_s = 0.25, mu_k = 0.2
  ContactMaterial a{1e7, 0.3}, b{2e7, 0.3}, rigid{kInf, 0.0};
  a.restitution = 0.8;
  a.mu_s = 0.6;
  a.mu_k = 0.5;
  b.restitution = 0.3;
  b.mu_s = 0.4;  // b's mu_k: the default 0.2
  rigid.mu_s = 0.1;
  ContactForces cf;
  cf.setup(masses({1.0}), {a, b}, {rigid, ContactMaterial{kInf, 0.0}}, d);
  auto beta = [](Real e) {
    return -std::log(e) / std::sqrt(std::log(e) * std::log(e) + kPi * kPi);
  };
  // (a, b): e = min(0.8, 0.3), mu_s = min(0.6, 0.4), mu_k = a's 0.5 (b gives
  // none), capped at mu_s = 0.4.
  EXPECT_NEAR(cf.pair_law(0, 1).beta, beta(0.3), 1e-15);
  EXPECT_EQ(cf.pair_law(0, 1).mu_s, 0.4);
  EXPECT_EQ(cf.pair_law(0, 1).mu_k, 0.4);
  // (a, plane 0): e = a's 0.8, mu_s = min(0.6, 0.1), mu_k = a's 0.5 capped at 0.1.
  EXPECT_NEAR(cf.pair_law(0, -1).beta, beta(0.8), 1e-15);
  EXPECT_EQ(cf.pair_law(0, -1).mu_s, 0.1);
  EXPECT_EQ(cf.pair_law(0, -1).mu_k, 0.1);
  // (b, plane 1): e = b's 0.3, mu_s = b's 0.4, mu_k = the default 0.2.
  EXPECT_NEAR(cf.pair_law(1, -2).beta, beta(0.3), 1e-15);
  EXPECT_EQ(cf.pair_law(1, -2).mu_s, 0.4);
  EXPECT_EQ(cf.pair_law(1, -2).mu_k, 0.2);
  // Neither gives any: the defaults. E* = 1 / ((1 - 0.09) / 1e7 + (1 - 0.09) / 2e7).
  ContactForces plain;
  plain.setup(masses({1.0}), {ContactMaterial{1e7, 0.3}, ContactMaterial{2e7, 0.3}}, {}, d);
  EXPECT_NEAR(plain.pair_law(0, 1).beta, beta(0.5), 1e-15);
  EXPECT_EQ(plain.pair_law(0, 1).mu_s, 0.25);
  EXPECT_EQ(plain.pair_law(0, 1).mu_k, 0.2);
  EXPECT_NEAR(plain.pair_law(0, 1).E_star, 1.0 / (0.91 / 1e7 + 0.91 / 2e7), 1e-6);
  // Out-of-range values are refused.
  ContactMaterial bad{1e7, 0.3};
  bad.mu_s = 0.1;
  bad.mu_k = 0.2;
  EXPECT_THROW(cf.setup(masses({1.0}), {bad}, {}, d), Error);
  ContactPairSettings s = d;
  s.mu_k = 0.3;
  EXPECT_THROW(cf.set_pair(0, 1, s), Error);
  s = d;
  s.restitution = 0.0;
  EXPECT_THROW(cf.set_pair(0, 1, s), Error);
}

TEST(ContactLaw, DampingOpposesApproachAndForceIsCompressiveOnly) {
  const Real m = 2.0, delta = 1e-3;
  ContactForces cf = make_forces({m});
  HandPoints hp(1, 1);
  hp.upload({single_point(delta, kLaw.R)});
  CoefView v("v", 1), f("f", 1);
  const Real k_n_delta = (2.0 / 3.0) * kLaw.S_n(delta) * delta;
  const Real gamma_n = kLaw.gamma(kLaw.S_n(delta), m);
  for (Real vn : {-0.5, 0.5, 100.0}) {
    set_coef(v, {{0.0, 0.0, vn}});
    Kokkos::deep_copy(f, 0.0);
    cf.compute(hp.cp, v, v, 1e-3, f);
    const Real Fz = to_host(f)(0, 2);
    const Real expect = std::max(0.0, k_n_delta - gamma_n * vn);
    EXPECT_NEAR(Fz, expect, 1e-12 * k_n_delta) << "v_n = " << vn;
    if (vn < 0.0) EXPECT_GT(Fz, k_n_delta);
    if (vn > 0.0) EXPECT_LT(Fz, k_n_delta);
  }
  EXPECT_EQ(to_host(f)(0, 2), 0.0);  // v_n = 100: clipped at zero
  // The obstacle's velocity enters v_rel with the opposite sign.
  HandContact c = single_point(delta, kLaw.R);
  c.obstacle_velocity[2] = 0.5;
  hp.upload({c});
  set_coef(v, {{0.0, 0.0, 0.0}});
  Kokkos::deep_copy(f, 0.0);
  cf.compute(hp.cp, v, v, 1e-3, f);
  EXPECT_NEAR(to_host(f)(0, 2), k_n_delta + gamma_n * 0.5, 1e-12 * k_n_delta);
}

TEST(ContactLaw, CoulombCapRescalesHistoryAndSwitchesToKinetic) {
  const Real m = 2.0, delta = 1e-3, dt = 1e-3, mu_s = 0.25, mu_k = 0.2;
  ContactForces cf = make_forces({m}, mu_s, mu_k);
  HandPoints hp(1, 1);
  hp.upload({single_point(delta, kLaw.R)});
  CoefView v("v", 1), f("f", 1);
  const Real Fn = (2.0 / 3.0) * kLaw.S_n(delta) * delta;
  const Real S_t = kLaw.S_t(delta), gamma_t = kLaw.gamma(S_t, m);

  // Sticking: small v_t, the spring-dashpot force is below the cap.
  const Real vs = 1e-4;
  set_coef(v, {{vs, 0.0, 0.0}});
  cf.compute(hp.cp, v, v, dt, f);
  auto ft = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_force());
  auto dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
  EXPECT_NEAR(dth(0, 0), dt * vs, 1e-18);
  EXPECT_NEAR(ft(0, 0), -S_t * dt * vs - gamma_t * vs, 1e-12 * S_t * dt * vs);
  EXPECT_EQ(cf.sliding_contacts(), 0);

  // Fast slip: capped at mu_s F_n on the first capped step (static), history
  // rescaled onto the Coulomb cone: -S_t delta_t equals the capped force.
  const Real vf = 1.0;
  set_coef(v, {{vf, 0.0, 0.0}});
  Kokkos::deep_copy(f, 0.0);
  cf.compute(hp.cp, v, v, dt, f);
  ft = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_force());
  dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
  EXPECT_GT(S_t * dt * vf, mu_s * Fn);  // the trial force exceeds the cap
  EXPECT_NEAR(ft(0, 0), -mu_s * Fn, 1e-12 * Fn);
  EXPECT_NEAR(to_host(f)(0, 0), -mu_s * Fn, 1e-12 * Fn);
  EXPECT_NEAR(dth(0, 0), mu_s * Fn / S_t, 1e-15);
  EXPECT_EQ(dth(0, 1), 0.0);
  EXPECT_EQ(dth(0, 2), 0.0);
  EXPECT_EQ(cf.sliding_contacts(), 1);

  // Still slipping: now the kinetic coefficient.
  cf.compute(hp.cp, v, v, dt, f);
  ft = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_force());
  EXPECT_NEAR(ft(0, 0), -mu_k * Fn, 1e-12 * Fn);
  EXPECT_NEAR(ft(0, 1), 0.0, 1e-12 * Fn);
  const Real dt_slide = mu_k * Fn / S_t;

  // Reversed slowly: the spring (holding mu_k F_n against the slip) is
  // unloaded below the kinetic cap: stick, with the full spring-dashpot force.
  const Real vr = -1e-4;
  set_coef(v, {{vr, 0.0, 0.0}});
  cf.compute(hp.cp, v, v, dt, f);
  ft = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_force());
  EXPECT_NEAR(ft(0, 0), -S_t * (dt_slide + dt * vr) - gamma_t * vr, 1e-12 * Fn);
  EXPECT_LT(std::fabs(ft(0, 0)), mu_k * Fn);
  EXPECT_EQ(cf.sliding_contacts(), 0);
}

// Slip weakening (docs/theory.md §7.4): a contact slipping at a constant
// rate dt v per step (far above the spring's reach) is capped at
//   mu(s) = mu_k + (mu_s - mu_k) max(0, 1 - s / D_c)
// with s the slip booked up to the previous step; the slip of a capped step
// is |delta_t(trial) - delta_t(rescaled)|. Reversing slowly sticks and
// resets s: the next slip starts again from mu_s. D_c = 0: mu_k on the
// second capped step (the sudden switch).
TEST(ContactLaw, FrictionWeakensFromStaticToKineticOverTheSlipDistance) {
  const Real m = 2.0, delta = 1e-3, dt = 1e-3, mu_s = 0.25, mu_k = 0.2, Dc = 4e-3;
  const Real Fn = (2.0 / 3.0) * kLaw.S_n(delta) * delta;
  const Real S_t = kLaw.S_t(delta);
  const Real vf = 1.0;  // 1 mm per step
  ASSERT_GT(S_t * dt * vf, mu_s * Fn);
  for (Real dc : {Dc, 0.0}) {
    ContactForces cf = make_forces({m}, mu_s, mu_k, 0.5, dc);
    EXPECT_EQ(cf.pair_law(0, -1).slip_distance, dc);
    HandPoints hp(1, 1);
    hp.upload({single_point(delta, kLaw.R)});
    CoefView v("v", 1), f("f", 1);
    for (int round = 0; round < 2; ++round) {
      // From rest (round 1: after sticking again), slip in +x.
      set_coef(v, {{vf, 0.0, 0.0}});
      Real s = 0.0, d_prev = 0.0;  // booked slip, spring displacement (x)
      if (round == 1) {
        auto dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
        d_prev = dth(0, 0);
      }
      for (int i = 0; i < 8; ++i) {
        cf.compute(hp.cp, v, v, dt, f);
        auto ft = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_force());
        auto dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
        const Real mu =
            i == 0 ? mu_s : (dc > 0.0 ? mu_k + (mu_s - mu_k) * std::max(0.0, 1.0 - s / dc) : mu_k);
        EXPECT_NEAR(ft(0, 0), -mu * Fn, 1e-12 * Fn)
            << "D_c " << dc << " round " << round << " step " << i;
        EXPECT_EQ(cf.sliding_contacts(), 1);
        EXPECT_NEAR(dth(0, 0), mu * Fn / S_t, 1e-15);
        s += std::fabs(d_prev + dt * vf - dth(0, 0));  // trial minus rescaled
        d_prev = dth(0, 0);
      }
      if (dc > 0.0) EXPECT_GT(s, dc);  // the last steps were kinetic
      // Reversed slowly: the spring unloads below the cap and sticks (s = 0).
      set_coef(v, {{-1e-4, 0.0, 0.0}});
      cf.compute(hp.cp, v, v, dt, f);
      EXPECT_EQ(cf.sliding_contacts(), 0);
    }
  }
}

TEST(ContactLaw, HistoryFollowsTheKeyAndIsDroppedWhenThePairSeparates) {
  const Real m = 2.0, delta = 1e-3, dt = 1e-3, vs = 1e-4;
  ContactForces cf = make_forces({m, m});
  HandPoints hp(2, 1);
  HandContact a = single_point(delta, kLaw.R, 11), b = single_point(delta, kLaw.R, 22);
  b.ids_a = {1};
  CoefView v("v", 2), f("f", 2);
  set_coef(v, {{vs, 0.0, 0.0}, {0.0, vs, 0.0}});
  hp.upload({a, b});
  cf.compute(hp.cp, v, v, dt, f);
  EXPECT_EQ(cf.history_size(), 2);
  // Swapped order: each pair keeps its own delta_t.
  hp.upload({b, a});
  cf.compute(hp.cp, v, v, dt, f);
  auto dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
  EXPECT_NEAR(dth(0, 1), 2 * dt * vs, 1e-18);  // key 22 (coefficient 1, v along y)
  EXPECT_NEAR(dth(0, 0), 0.0, 1e-18);
  EXPECT_NEAR(dth(1, 0), 2 * dt * vs, 1e-18);  // key 11
  // Key 22 absent for one step: dropped; key 11 continues.
  hp.upload({a});
  cf.compute(hp.cp, v, v, dt, f);
  EXPECT_EQ(cf.history_size(), 1);
  dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
  EXPECT_NEAR(dth(0, 0), 3 * dt * vs, 1e-18);
  hp.upload({a, b});
  cf.compute(hp.cp, v, v, dt, f);
  dth = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
  EXPECT_NEAR(dth(0, 0), 4 * dt * vs, 1e-18);
  EXPECT_NEAR(dth(1, 1), 1 * dt * vs, 1e-18);  // restarted from zero
  // No contacts at all: everything dropped.
  hp.upload({});
  cf.compute(hp.cp, v, v, dt, f);
  EXPECT_EQ(cf.history_size(), 0);
  EXPECT_EQ(cf.active_contacts(), 0);
}

TEST(ContactLaw, RetryOfAStepRestartsFromTheHistoryAtItsStart) {
  // The stepper's step halving calls its step forces again from the same
  // state and time: the failed attempt must not advance delta_t.
  const Real m = 2.0, delta = 1e-3, h = 1e-3, vs = 1e-4;
  ContactForces cf = make_forces({m});
  HandPoints hp(1, 1);
  hp.upload({single_point(delta, kLaw.R)});
  CoefView v("v", 1), f("f", 1);
  set_coef(v, {{vs, 0.0, 0.0}});
  auto delta_t = [&]() {
    return Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement())(0, 0);
  };
  cf.compute(hp.cp, v, v, h, f, 0.0);
  EXPECT_NEAR(delta_t(), h * vs, 1e-18);
  cf.compute(hp.cp, v, v, h, f, h);  // attempt at t = h (fails in the stepper)
  EXPECT_NEAR(delta_t(), 2 * h * vs, 1e-18);
  cf.compute(hp.cp, v, v, h / 2, f, h);  // retry with h/2 from t = h
  EXPECT_NEAR(delta_t(), 1.5 * h * vs, 1e-18);
  cf.compute(hp.cp, v, v, h / 2, f, 1.5 * h);  // next substep
  EXPECT_NEAR(delta_t(), 2 * h * vs, 1e-18);
}

// 1-DOF impact on a rigid plane: z height of the contact point (delta = -z),
// m z'' = F(z, z'), no gravity during the impact, classical RK4 from z = 0,
// z' = -v0 until the body has left (z > 0). Returns the realised
// restitution z'_out / v0.
template <class Force>
Real rk4_restitution(Real v0, Real h, Real m, Force force) {
  Real z = 0.0, w = -v0;
  for (int step = 0; step < 10000000; ++step) {
    const Real k1z = w, k1w = force(z, w) / m;
    const Real k2z = w + 0.5 * h * k1w, k2w = force(z + 0.5 * h * k1z, k2z) / m;
    const Real k3z = w + 0.5 * h * k2w, k3w = force(z + 0.5 * h * k2z, k3z) / m;
    const Real k4z = w + h * k3w, k4w = force(z + h * k3z, k4z) / m;
    z += h / 6.0 * (k1z + 2 * k2z + 2 * k3z + k4z);
    w += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w);
    if (step > 0 && z > 0.0) return w / v0;
  }
  return -1.0;
}

TEST(ContactLaw, RealisedRestitutionOfTheClippedDampedHertzLaw) {
  const Real m = 1.0, v0 = 1.0;
  // The written law, restated here (not the contact code).
  auto ref = [&](Real z, Real w) { return kLaw.F_n(-z, w, m); };
  const Real e_ref = rk4_restitution(v0, 1e-6, m, ref);
  const Real e_ref_coarse = rk4_restitution(v0, 1e-5, m, ref);
  EXPECT_NEAR(e_ref, e_ref_coarse, 1e-4);  // converged in the step
  // The clip at zero force makes the realised restitution exceed e = 0.5
  // (docs/theory.md §7.4: "about 0.55"; §A.5).
  EXPECT_GT(e_ref, 0.52);
  EXPECT_LT(e_ref, 0.60);
  // 0.5503: this RK4 at h = 1e-6 (m = 1 kg, v0 = 1 m/s, E = 1e7 Pa, nu = 0.3,
  // R* = 0.05 m on a rigid plane); the value depends on e only.
  EXPECT_NEAR(e_ref, 0.5503, 5e-4);
  std::printf("realised restitution for e = 0.5: %.6f\n", e_ref);
  // Tsuji-type damping (gamma ~ delta^1/4): independent of the impact speed.
  EXPECT_NEAR(rk4_restitution(0.1, 1e-6, m, ref), e_ref, 2e-3);

  // The same integrator driven by ContactForces on a hand-made point.
  ContactForces cf = make_forces({m});
  HandPoints hp(1, 1);
  CoefView v("v", 1), f("f", 1);
  auto code = [&](Real z, Real w) {
    if (-z > 0.0)
      hp.upload({single_point(-z, kLaw.R)});
    else
      hp.upload({});
    set_coef(v, {{0.0, 0.0, w}});
    Kokkos::deep_copy(f, 0.0);
    cf.compute(hp.cp, v, v, 1e-5, f);
    return to_host(f)(0, 2);
  };
  const Real e_code = rk4_restitution(v0, 1e-5, m, code);
  EXPECT_NEAR(e_code, e_ref_coarse, 1e-10);
}

// 1-DOF tangential model: a point of mass m (coefficient 0) on a rigid
// plane with the normal force held at F_n by a fixed penetration; the
// contact's tangential force and a driving force g_t m advance x along the
// plane with the symplectic Euler step.
struct SlidingBlock {
  Real m, g_n, dt;
  ContactForces cf;
  HandPoints hp{1, 1};
  CoefView v{"v", 1}, f{"f", 1};
  Real x = 0.0, u = 0.0;
  int slid_steps = 0;
  SlidingBlock(Real m_, Real g_n_, Real dt_, Real mu_s, Real mu_k) : m(m_), g_n(g_n_), dt(dt_) {
    cf = make_forces({m}, mu_s, mu_k);
    hp.upload({single_point(kLaw.delta_for(m * g_n), kLaw.R)});
  }
  Real step(Real g_t) {
    set_coef(v, {{u, 0.0, 0.0}});
    Kokkos::deep_copy(f, 0.0);
    cf.compute(hp.cp, v, v, dt, f);
    const Real Ft = to_host(f)(0, 0);
    slid_steps += cf.sliding_contacts();
    u += dt * (g_t + Ft / m);
    x += dt * u;
    return Ft;
  }
};

TEST(ContactLaw, SlidingBlockStopsAfterCoulombDistance) {
  const Real g = 9.81, v0 = 1.0, mu_s = 0.25, mu_k = 0.2, dt = 1e-4;
  SlidingBlock b(1.0, g, dt, mu_s, mu_k);
  b.u = v0;
  for (int i = 0; i < 10000; ++i) b.step(0.0);       // 1 s; the stop is at v0/(mu_k g) = 0.51 s
  const Real expected = v0 * v0 / (2.0 * mu_k * g);  // rigid-body Coulomb
  EXPECT_NEAR(b.x, expected, 0.01 * expected);
  EXPECT_LT(std::fabs(b.u), 1e-3);
  std::printf("stopping distance %.6f m, expected %.6f m\n", b.x, expected);
}

TEST(ContactLaw, BlockOnInclineStaysBelowStaticAndSlidesAboveWithKineticFriction) {
  const Real g = 9.81, mu_s = 0.25, mu_k = 0.2, dt = 1e-4;
  {
    // tan(alpha) = 0.24 < mu_s: the drive is ramped in smoothly over 0.5 s
    // (a sudden load overshoots the underdamped tangential spring by ~50 %
    // and would break the static limit); held for 0.5 s more.
    const Real alpha = std::atan(0.24);
    SlidingBlock b(1.0, g * std::cos(alpha), dt, mu_s, mu_k);
    const Real S_t = kLaw.S_t(kLaw.delta_for(g * std::cos(alpha)));
    const Real F = g * std::sin(alpha);
    Real xmax = 0.0;
    for (int i = 0; i < 10000; ++i) {
      const Real t = i * dt, ramp = t < 0.5 ? 0.5 * (1.0 - std::cos(kPi * t / 0.5)) : 1.0;
      b.step(F * ramp);
      xmax = std::max(xmax, std::fabs(b.x));
    }
    EXPECT_EQ(b.slid_steps, 0);
    // Tangential displacement bounded by the static spring deflection F / S_t.
    EXPECT_LT(xmax, 1.05 * F / S_t);
    EXPECT_NEAR(b.x, F / S_t, 0.02 * F / S_t);
  }
  {
    // tan(alpha) = 0.3 > mu_s: slides with a = g (sin a - mu_k cos a).
    const Real alpha = std::atan(0.3);
    SlidingBlock b(1.0, g * std::cos(alpha), dt, mu_s, mu_k);
    Real u1 = 0.0;
    for (int i = 0; i < 6000; ++i) {
      b.step(g * std::sin(alpha));
      if (i == 1999) u1 = b.u;
    }
    const Real a_num = (b.u - u1) / (4000 * dt);
    const Real a_ref = g * (std::sin(alpha) - mu_k * std::cos(alpha));
    EXPECT_NEAR(a_num, a_ref, 0.02 * a_ref);
    EXPECT_GT(b.slid_steps, 3900);
    std::printf("incline acceleration %.6f m/s^2, expected %.6f m/s^2\n", a_num, a_ref);
  }
}

TEST(ContactLaw, RowSumLumpedMassSumsEachBlockRow) {
  // Two coefficients in one clique; the CRS values hold M (x) I_3 with
  // M = [[2, 1], [1, 4]] written through the block offsets.
  CliqueSet cl;
  cl.size = 2;
  cl.ids = {0, 1};
  std::vector<DeviceView<Offset***>> offsets;
  CrsPattern p = build_crs_pattern(2, {cl}, offsets);
  DeviceView<Real*> values("values", p.nnz());
  auto vh = Kokkos::create_mirror_view(values);
  auto oh = Kokkos::create_mirror_view_and_copy(HostSpace(), offsets[0]);
  auto lh = Kokkos::create_mirror_view_and_copy(HostSpace(), p.block_row_length);
  const Real M[2][2] = {{2.0, 1.0}, {1.0, 4.0}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int r = 0; r < 3; ++r) vh(oh(0, i, j) + r * lh(i) + r) = M[i][j];
  Kokkos::deep_copy(values, vh);
  auto m = Kokkos::create_mirror_view_and_copy(HostSpace(), row_sum_lumped_mass(p, values));
  EXPECT_DOUBLE_EQ(m(0), 3.0);
  EXPECT_DOUBLE_EQ(m(1), 5.0);
}

}  // namespace
}  // namespace tlfea
