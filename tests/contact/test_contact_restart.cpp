// Restart of the contact history (ContactForces::save_history /
// restore_history): a run interrupted after k steps, its history saved and
// restored into a fresh ContactForces, continues bit for bit like the run
// that was never interrupted. The reference is the uninterrupted run itself
// (identity, not a tolerance); the motion makes pairs stick, slide, appear
// and separate, so every branch of the history is exercised across the
// restart, and the first restored step is retried (step halving) once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"

namespace tlfea {
namespace {

// A Q27 box tilted about x by 0.05 rad, pressed into the plane z = 0 with a
// depth that oscillates (vertices enter and leave contact) while it is
// dragged along x with a speed that reverses (stick, then slip).
struct Drag {
  Mesh mesh;
  ContactDetection det;
  CoefView q, v, f;
  std::vector<std::array<Real, 3>> X;
  const Real dt = 1e-4;
  Drag() {
    mesh = generate_box(ElementType::Q27, {0.1, 0.1, 0.05}, {2, 2, 1}, {-0.05, -0.05, 0.0});
    const Real c = std::cos(0.05), s = std::sin(0.05);
    for (auto& x : mesh.coefficients) {
      const Real y = x[1], z = x[2];
      x[1] = c * y - s * z;
      x[2] = s * y + c * z + 0.05 * s;  // lowest corner at z = 0
    }
    X = mesh.coefficients;
    det.add_body(0, mesh, 0, 0.05);
    det.add_obstacle(Obstacle::plane({{0.0, 0.0, 0.0}}, {{0.0, 0.0, 1.0}}));
    det.setup();
    q = CoefView("q", mesh.num_coefficients());
    v = CoefView("v", mesh.num_coefficients());
    f = CoefView("f", mesh.num_coefficients());
  }
  // Prescribed state at step i: depth d(t) = 2e-3 (0.2 + sin(300 t)),
  // drag speed u(t) = 0.02 cos(200 t).
  void state(int i) {
    const Real t = i * dt;
    const Real d = 2e-3 * (0.2 + std::sin(300 * t)), dd = 2e-3 * 300 * std::cos(300 * t);
    const Real u = 0.02 * std::cos(200 * t), x = 0.02 / 200 * std::sin(200 * t);
    auto qh = Kokkos::create_mirror_view(q);
    auto vh = Kokkos::create_mirror_view(v);
    for (size_t k = 0; k < X.size(); ++k) {
      qh(k, 0) = X[k][0] + x;
      qh(k, 1) = X[k][1];
      qh(k, 2) = X[k][2] - d;
      vh(k, 0) = u;
      vh(k, 1) = 0.0;
      vh(k, 2) = -dd;
    }
    Kokkos::deep_copy(q, qh);
    Kokkos::deep_copy(v, vh);
  }
};

ContactForces make_forces(const Drag& d) {
  ContactForces cf;
  DeviceView<Real*> m("m", d.mesh.num_coefficients());
  Kokkos::deep_copy(m, 0.01);
  ContactPairSettings s;
  s.mu_s = 0.3;
  s.mu_k = 0.25;
  cf.setup(m, {ContactMaterial{1e7, 0.3}},
           {ContactMaterial{std::numeric_limits<Real>::infinity(), 0.0}}, s);
  return cf;
}

// Forces, per-contact results and history of one step, on the host.
struct StepResult {
  std::vector<Real> f, fn, ft, dtan;
  std::vector<unsigned long long> keys;
  std::vector<ContactHistory> hist;
  int active = 0, sliding = 0;
};

StepResult step(Drag& d, ContactForces& cf, int i, Real h) {
  d.state(i);
  d.det.detect(d.q, i * d.dt);
  Kokkos::deep_copy(d.f, 0.0);
  cf.compute(d.det.points(), d.q, d.v, h, d.f, i * d.dt);
  StepResult r;
  auto fh = Kokkos::create_mirror_view_and_copy(HostSpace(), d.f);
  for (size_t k = 0; k < fh.extent(0); ++k)
    for (int a = 0; a < 3; ++a) r.f.push_back(fh(k, a));
  r.active = cf.active_contacts();
  r.sliding = cf.sliding_contacts();
  auto fn = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.normal_force());
  auto ft = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_force());
  auto dtv = Kokkos::create_mirror_view_and_copy(HostSpace(), cf.tangential_displacement());
  for (int k = 0; k < r.active; ++k) {
    r.fn.push_back(fn(k));
    for (int a = 0; a < 3; ++a) {
      r.ft.push_back(ft(k, a));
      r.dtan.push_back(dtv(k, a));
    }
  }
  cf.save_history(r.keys, r.hist);
  return r;
}

void expect_identical(const StepResult& a, const StepResult& b, int i) {
  ASSERT_EQ(a.active, b.active) << i;
  EXPECT_EQ(a.sliding, b.sliding) << i;
  EXPECT_EQ(a.f, b.f) << i;
  EXPECT_EQ(a.fn, b.fn) << i;
  EXPECT_EQ(a.ft, b.ft) << i;
  EXPECT_EQ(a.dtan, b.dtan) << i;
  ASSERT_EQ(a.keys, b.keys) << i;
  for (size_t k = 0; k < a.hist.size(); ++k) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(a.hist[k].delta_t[c], b.hist[k].delta_t[c]) << i;
    EXPECT_EQ(a.hist[k].sliding, b.hist[k].sliding) << i;
    EXPECT_EQ(a.hist[k].slip, b.hist[k].slip) << i;
  }
}

TEST(ContactRestart, RestoredHistoryContinuesBitIdentically) {
  const int k = 40, n = 120;
  Drag d;
  ContactForces full = make_forces(d), first = make_forces(d);
  std::vector<StepResult> ref;
  int max_active = 0, max_sliding = 0, max_hist = 0, min_active_after = 1 << 30;
  Real max_slip = 0.0;  // the slip-weakening history (ContactHistory::slip)
  for (int i = 0; i < n; ++i) {
    // Step k is attempted with dt, fails (in a stepper) and is retried with
    // dt / 2 from the same t; the run continues with dt / 2 after it.
    if (i == k) step(d, full, i, d.dt);
    ref.push_back(step(d, full, i, i >= k ? d.dt / 2 : d.dt));
    max_active = std::max(max_active, ref.back().active);
    max_sliding = std::max(max_sliding, ref.back().sliding);
    for (const ContactHistory& h : ref.back().hist) max_slip = std::max(max_slip, h.slip);
    max_hist = std::max<int>(max_hist, ref.back().keys.size());
    if (i >= k) min_active_after = std::min(min_active_after, ref.back().active);
  }
  // The scenario exercises what it should: contacts with history at the
  // restart, sliding, and pairs that come and go after it.
  ASSERT_GT(ref[k - 1].keys.size(), 0u);
  EXPECT_GT(max_sliding, 0);
  EXPECT_GT(max_slip, 0.0);
  EXPECT_LT(min_active_after, max_active);

  for (int i = 0; i < k; ++i) expect_identical(step(d, first, i, d.dt), ref[i], i);
  std::vector<unsigned long long> keys;
  std::vector<ContactHistory> values;
  first.save_history(keys, values);
  EXPECT_EQ(keys, ref[k - 1].keys);
  for (size_t j = 1; j < keys.size(); ++j) EXPECT_LT(keys[j - 1], keys[j]);  // sorted

  Drag d2;  // a fresh process: new detection, new forces
  ContactForces restarted = make_forces(d2);
  restarted.restore_history(keys, values, (k - 1) * d.dt);
  EXPECT_EQ(restarted.history_size(), static_cast<Ordinal>(keys.size()));
  for (int i = k; i < n; ++i) {
    if (i == k) step(d2, restarted, i, d.dt);  // the failed attempt, as above
    expect_identical(step(d2, restarted, i, d.dt / 2), ref[i], i);
  }
  std::printf("restart: %zu pairs restored, max active %d, max sliding %d, max history %d\n",
              keys.size(), max_active, max_sliding, max_hist);
}

TEST(ContactRestart, RestoreRejectsMismatchedOrRepeatedKeys) {
  Drag d;
  ContactForces cf = make_forces(d);
  ContactHistory h{{0.0, 0.0, 0.0}, 0};
  EXPECT_THROW(cf.restore_history({1, 2}, {h}, 0.0), Error);
  EXPECT_THROW(cf.restore_history({3, 3}, {h, h}, 0.0), Error);
  std::vector<unsigned long long> keys;
  std::vector<ContactHistory> values;
  cf.save_history(keys, values);  // nothing computed yet
  EXPECT_TRUE(keys.empty());
}

}  // namespace
}  // namespace tlfea
