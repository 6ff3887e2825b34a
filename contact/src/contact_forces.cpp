// TLFEA: contact force evaluation and scatter (see contact_forces.hpp).
#include "tlfea/contact/contact_forces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea {

namespace {

struct RowSumMass {
  DeviceView<Offset*> row_map;
  DeviceView<Real*> values;
  DeviceView<Real*> m;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal a) const {
    Real s = 0.0;
    for (Offset j = row_map(3 * a); j < row_map(3 * a + 1); ++j) s += values(j);
    m(a) = s;
  }
};

// Mass an impulse at the material point sees: 1 / sum_l s_l^2 / |m_l|
// (0 when no coefficient carries mass).
KOKKOS_INLINE_FUNCTION Real point_mass(const ContactPoints& cp, const DeviceView<Real*>& lumped,
                                       const Ordinal k, const int side) {
  Real mobility = 0.0;
  const int n = cp.num(k, side);
  for (int l = 0; l < n; ++l) {
    const Real m = kmath::fabs(lumped(cp.id(k, l, side)));
    const Real w = cp.weight(k, l, side);
    if (m > 0.0) mobility += w * w / m;
  }
  return mobility > 0.0 ? 1.0 / mobility : 0.0;
}

// What every contact kernel reads: the contact points, velocities, the law
// table and the masses.
struct ContactKernelBase {
  ContactPoints cp;
  CoefView v;
  int num_bodies, num_participants;
  DeviceView<Real*> lumped;
  DeviceView<ContactLawParams*> law;
  DeviceView<Real*> body_point_mass;
  // Per body: 1 when its point mass is shared among the contacts of each
  // pair it is in (set_point_mass(b, m, true)); those counts, per pair slot.
  DeviceView<int*> body_mass_shared;
  DeviceView<Ordinal*> pair_contacts;

  KOKKOS_INLINE_FUNCTION int participant(int id) const {
    return id >= 0 ? id : num_bodies + (-1 - id);
  }

  KOKKOS_INLINE_FUNCTION void side_velocity(const Ordinal k, const int side, Real out[3]) const {
    out[0] = out[1] = out[2] = 0.0;
    const int n = cp.num(k, side);
    if (n == 0) {
      if (side == 1)
        for (int i = 0; i < 3; ++i) out[i] = cp.obstacle_velocity(k, i);
      return;
    }
    contact_side_gather(cp, k, side, v, out);
  }

  // v_rel = v_A - v_B: its normal component v_n (returned) and tangential part.
  KOKKOS_INLINE_FUNCTION Real relative_velocity(const Ordinal k, const Real n[3],
                                                Real vt[3]) const {
    Real va[3], vb[3];
    side_velocity(k, 0, va);
    side_velocity(k, 1, vb);
    Real vn = 0.0;
    for (int i = 0; i < 3; ++i) vn += (va[i] - vb[i]) * n[i];
    for (int i = 0; i < 3; ++i) vt[i] = va[i] - vb[i] - vn * n[i];
    return vn;
  }

  KOKKOS_INLINE_FUNCTION bool has_point_mass(const int b) const {
    return b >= 0 && b < num_bodies && body_point_mass(b) > 0.0;
  }

  // A side's damping mass: the body's point mass when set (divided among
  // the pair's loaded contacts when shared), else the lumped point mass.
  KOKKOS_INLINE_FUNCTION Real side_mass(const Ordinal k, const int side) const {
    if (cp.num(k, side) == 0) return 0.0;  // obstacle: infinite
    const int b = cp.body(k, side);
    if (!has_point_mass(b)) return point_mass(cp, lumped, k, side);
    const Real m = body_point_mass(b);
    if (!body_mass_shared(b)) return m;
    const Ordinal n =
        pair_contacts(patch_slot(participant(cp.body(k, 0)), participant(cp.body(k, 1))));
    return n > 1 ? m / static_cast<Real>(n) : m;
  }

  // The mass the contact force acts on: m* of the two sides' lumped point
  // masses (an obstacle infinite), whatever point mass is set for damping.
  KOKKOS_INLINE_FUNCTION Real receiving_mass(const Ordinal k) const {
    const Real ma = cp.num(k, 0) == 0 ? 0.0 : point_mass(cp, lumped, k, 0);
    const Real mb = cp.num(k, 1) == 0 ? 0.0 : point_mass(cp, lumped, k, 1);
    return effective_mass(ma, mb);
  }

  // Patch law: the pair's slot lo * np + hi (lo < hi; self pairs use the point law).
  KOKKOS_INLINE_FUNCTION Ordinal patch_slot(const int pa, const int pb) const {
    const int lo = pa < pb ? pa : pb, hi = pa < pb ? pb : pa;
    return static_cast<Ordinal>(lo) * num_participants + hi;
  }
};

// Shared point masses: the loaded contacts (delta > 0) of each pair.
struct PairCountKernel : ContactKernelBase {
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    if (k >= cp.count(0) || !(cp.delta(k) > 0.0)) return;
    const Ordinal P = patch_slot(participant(cp.body(k, 0)), participant(cp.body(k, 1)));
    Kokkos::atomic_add(&pair_contacts(P), Ordinal(1));
  }
};

// Patch law, pass 1: the largest penetration and radius of each patch.
struct PatchExtentKernel : ContactKernelBase {
  DeviceView<Real*> delta, radius;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    if (k >= cp.count(0)) return;
    const int pa = participant(cp.body(k, 0)), pb = participant(cp.body(k, 1));
    const ContactLawParams p = law(pa * num_participants + pb);
    if (!p.patch || pa == pb || !(cp.delta(k) > 0.0)) return;  // self pairs: point law
    const Ordinal P = patch_slot(pa, pb);
    Kokkos::atomic_fetch_max(&delta(P), cp.delta(k));
    Kokkos::atomic_fetch_max(&radius(P), p.radius > 0.0 ? p.radius : cp.radius(k));
  }
};

// Patch law, pass 2: the contacts' weights w_k, and per patch W, sum w v_n
// and the summed point masses of the two partners. Smooth-max law (patch =
// 2): w_k = s_k = (delta_k / m)^(p-1) with m the patch's deepest
// penetration, W = T = sum s_k, and also S = sum s_k delta_k / m.
struct PatchWeightKernel : ContactKernelBase {
  DeviceView<Real*> delta, wsum, wvn, weight, ratio;
  DeviceView<Real* [2]> mass;
  DeviceView<Real*> ssum;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    if (k >= cp.count(0)) return;
    const int pa = participant(cp.body(k, 0)), pb = participant(cp.body(k, 1));
    const ContactLawParams p = law(pa * num_participants + pb);
    if (!p.patch || pa == pb) return;
    const Real dk = cp.delta(k);
    if (!(dk > 0.0)) {
      weight(k) = 0.0;
      return;
    }
    const Ordinal P = patch_slot(pa, pb);
    Real w = 0.0;
    if (p.patch == 2) {
      // Smooth max: s_k = (delta_k / m)^(p-1), S += s_k delta_k / m.
      const Real x = dk / delta(P);
      w = integer_power(x, kPatchSmoothMaxOrder - 1);
      weight(k) = w;
      if (!(w > 0.0)) return;
      Kokkos::atomic_add(&ssum(P), w * x);
    } else {
      const Real excess = dk - 0.5 * delta(P);
      const Real area = cp.area(k) > 0.0 ? cp.area(k) : 1.0;
      w = excess > 0.0 ? area * kmath::sqrt(excess) : 0.0;
      weight(k) = w;
      if (!(w > 0.0)) return;
    }
    const Real n[3] = {cp.normal(k, 0), cp.normal(k, 1), cp.normal(k, 2)};
    Real vt[3];
    const Real vn = relative_velocity(k, n, vt);  // the same for either direction
    Kokkos::atomic_add(&wsum(P), w);
    Kokkos::atomic_add(&wvn(P), w * vn);
    const Real mr = receiving_mass(k);
    if (mr > 0.0) Kokkos::atomic_fetch_min(&ratio(P), mr / w);
    // The vertex side's point mass (side 0, a surface vertex of body A): the
    // partner's own vertices in contact are counted by the contacts of the
    // other direction, so no node is counted through triangle points.
    if (cp.num(k, 0) > 0 && !has_point_mass(cp.body(k, 0)))
      Kokkos::atomic_add(&mass(P, pa == (pa < pb ? pa : pb) ? 0 : 1), point_mass(cp, lumped, k, 0));
  }
};

struct ContactForceKernel : ContactKernelBase {
  CoefView f;
  Real dt;
  int limit_dashpot;
  ContactForces::HistoryMap previous, current;
  DeviceView<Real*> fn, mstar;
  DeviceView<Real*[3]> ft, dtv;
  DeviceView<int*> slide;
  DeviceView<Ordinal[3]> counters;
  // Patch law (read only where a pair's law has patch set).
  DeviceView<Real*> patch_delta, patch_radius, patch_w, patch_wvn, weight, patch_ratio;
  DeviceView<Real* [2]> patch_mass;
  DeviceView<Real*> patch_s;  // smooth-max law: S per patch

  // A patch partner's mass: obstacle infinite (0), the body's point mass, or
  // the summed point masses of the patch.
  KOKKOS_INLINE_FUNCTION Real partner_mass(const int part, const Real summed) const {
    if (part >= num_bodies) return 0.0;
    if (has_point_mass(part)) return body_point_mass(part);
    return summed;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    if (k >= cp.count(0)) return;
    const int pa = participant(cp.body(k, 0)), pb = participant(cp.body(k, 1));
    const ContactLawParams p = law(pa * num_participants + pb);
    const Real delta = cp.delta(k);
    const Real n[3] = {cp.normal(k, 0), cp.normal(k, 1), cp.normal(k, 2)};
    Real vt[3];
    const Real vn = relative_velocity(k, n, vt);

    ContactHistory h;
    h.delta_t[0] = h.delta_t[1] = h.delta_t[2] = 0.0;
    h.sliding = 0;
    h.slip = 0.0;
    const auto idx = previous.find(cp.key(k));
    if (previous.valid_at(idx)) h = previous.value_at(idx);
    Real Fn = 0.0, m_star = 0.0, Ft[3];
    int capped = 0;
    if (p.patch && pa != pb) {
      const Ordinal P = patch_slot(pa, pb);
      const Real W = patch_w(P);
      const Real share = W > 0.0 ? weight(k) / W : 0.0;
      const Real dp = patch_delta(P), Rp = patch_radius(P);
      const Real vnp = W > 0.0 ? patch_wvn(P) / W : 0.0;
      const int lo = pa < pb ? pa : pb, hi = pa < pb ? pb : pa;
      m_star =
          effective_mass(partner_mass(lo, patch_mass(P, 0)), partner_mass(hi, patch_mass(P, 1)));
      // Every contact's share of the dashpot stays below its m_k / h.
      const Real ratio = patch_ratio(P);
      const Real cap = (limit_dashpot && dt > 0.0 && ratio < 1e300) ? W * ratio / dt : 0.0;
      // The patch's depth: the deepest penetration (patch = 1) or the
      // smooth max D = m S^(1/p) (patch = 2).
      Real depth = dp;
      Real stiffening = 1.0;  // the patch's stiffnesses over the Hertz-Mindlin ones at depth
      if (p.patch == 2) {
        // F_n,k = share_k max(0, G H(D) - gamma_n(G^2 S_n(D)) v_p), G = T S^(-(p-1)/p):
        // the elastic part is dU/d delta_k = H(D) (delta_k / D)^(p-1). Its
        // stiffness under a uniform approach of the pair, d(G H(D))/d delta
        // with G fixed, is G^2 S_n(D) (sum_k dD/d delta_k = G); the dashpots
        // and the tangential spring take the same factor G^2, so that the
        // damping ratio is the restitution's and S_t / S_n is Mindlin's
        // (docs/theory.md §7.5).
        const Real S = patch_s(P);
        const Real inv_p = 1.0 / static_cast<Real>(kPatchSmoothMaxOrder);
        depth = S > 0.0 ? dp * kmath::pow(S, inv_p) : 0.0;
        const Real G = S > 0.0 ? W * kmath::pow(S, inv_p - 1.0) : 0.0;
        stiffening = G * G;
        Real F = 0.0;
        if (depth > 0.0) {
          const Real S_n = 2.0 * p.E_star * kmath::sqrt(Rp * depth);
          const Real gamma_n = capped_dashpot(contact_dashpot(p, stiffening * S_n, m_star), cap);
          F = G * (2.0 / 3.0) * S_n * depth - gamma_n * vnp;
        }
        Fn = share * (F > 0.0 ? F : 0.0);
      } else {
        Fn = share * contact_normal_force(p, Rp, m_star, dp, vnp, nullptr, cap);
      }
      const Real St = stiffening * contact_tangential_stiffness(p, Rp, depth);
      const Real gt = capped_dashpot(contact_dashpot(p, St, m_star), cap);
      capped = contact_tangential_spring(p, share * St, share * gt, Fn, n, vt, dt, h, Ft);
    } else {
      const Real radius = p.radius > 0.0 ? p.radius : cp.radius(k);
      m_star = effective_mass(side_mass(k, 0), side_mass(k, 1));
      const Real cap = (limit_dashpot && dt > 0.0) ? receiving_mass(k) / dt : 0.0;
      Fn = contact_normal_force(p, radius, m_star, delta, vn, nullptr, cap);
      capped = contact_tangential_force(p, radius, m_star, delta, Fn, n, vt, dt, h, Ft, cap);
    }
    if (delta > 0.0) {
      const auto r = current.insert(cp.key(k), h);
      if (r.failed()) Kokkos::abort("tlfea::contact: contact history map is full");
      if (r.success()) Kokkos::atomic_add(&counters(2), Ordinal(1));
    }

    Real F[3];
    for (int i = 0; i < 3; ++i) F[i] = Fn * n[i] + Ft[i];
    for (int side = 0; side < 2; ++side) {
      const Real sign = side == 0 ? 1.0 : -1.0;
      contact_side_scatter(cp, k, side, sign, F, f);
    }
    fn(k) = Fn;
    mstar(k) = m_star;
    for (int i = 0; i < 3; ++i) {
      ft(k, i) = Ft[i];
      dtv(k, i) = h.delta_t[i];
    }
    slide(k) = capped;
    Kokkos::atomic_add(&counters(0), Ordinal(1));
    if (capped) Kokkos::atomic_add(&counters(1), Ordinal(1));
  }
};

// Restart: the valid slots of a history map, by slot index.
struct ExtractHistory {
  ContactForces::HistoryMap map;
  DeviceView<unsigned long long*> keys;
  DeviceView<ContactHistory*> values;
  DeviceView<int*> valid;
  KOKKOS_INLINE_FUNCTION void operator()(const uint32_t i) const {
    if (map.valid_at(i)) {
      valid(i) = 1;
      keys(i) = map.key_at(i);
      values(i) = map.value_at(i);
    } else {
      valid(i) = 0;
    }
  }
};

struct InsertHistory {
  ContactForces::HistoryMap map;
  DeviceView<unsigned long long*> keys;
  DeviceView<ContactHistory*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const auto r = map.insert(keys(i), values(i));
    if (r.failed()) Kokkos::abort("tlfea::contact: restored history does not fit its map");
  }
};

}  // namespace

DeviceView<Real*> row_sum_lumped_mass(const CrsPattern& pattern, const DeviceView<Real*>& values) {
  DeviceView<Real*> m("tlfea::contact::lumped_mass", pattern.num_block_rows);
  Kokkos::parallel_for("tlfea::contact::row_sum_mass",
                       Kokkos::RangePolicy<ExecSpace>(0, pattern.num_block_rows),
                       RowSumMass{pattern.row_map, values, m});
  return m;
}

ContactPairSettings combine_pair_settings(const ContactMaterial& a, const ContactMaterial& b,
                                          const ContactPairSettings& d) {
  // Given by both: the smaller; by one: that one; by neither: the default.
  auto pick = [](Real x, Real y, Real def) {
    const bool gx = x >= 0.0, gy = y >= 0.0;
    if (gx && gy) return std::min(x, y);
    if (gx) return x;
    if (gy) return y;
    return def;
  };
  ContactPairSettings s = d;
  s.restitution = pick(a.restitution, b.restitution, d.restitution);
  s.mu_s = pick(a.mu_s, b.mu_s, d.mu_s);
  s.mu_k = std::min(pick(a.mu_k, b.mu_k, d.mu_k), s.mu_s);
  return s;
}

ContactLawParams make_pair_law(const ContactMaterial& a, const ContactMaterial& b,
                               const ContactPairSettings& s) {
  if (!(s.restitution > 0.0 && s.restitution <= 1.0))
    throw_error("ContactForces: restitution must be in (0, 1], got ", s.restitution);
  if (!(s.mu_s >= 0.0) || !(s.mu_k >= 0.0) || s.mu_k > s.mu_s)
    throw_error("ContactForces: friction needs 0 <= mu_k <= mu_s, got mu_s = ", s.mu_s,
                ", mu_k = ", s.mu_k);
  if (s.E_star < 0.0 || s.G_star < 0.0 || !std::isfinite(s.E_star) || !std::isfinite(s.G_star))
    throw_error(
        "ContactForces: E_star and G_star must be finite and >= 0 (0: from the "
        "materials), got ",
        s.E_star, ", ", s.G_star);
  if (!(s.slip_distance >= 0.0) || !std::isfinite(s.slip_distance))
    throw_error("ContactForces: slip_distance must be finite and >= 0, got ", s.slip_distance);
  ContactLawParams p =
      make_contact_law(a, b, s.restitution, s.mu_s, s.mu_k, s.radius, s.patch, s.slip_distance);
  if (s.patch && s.patch_smooth_max) p.patch = 2;
  if (s.E_star > 0.0) {
    // G* = E_star (G*/E* of the materials); both rigid: nu = 0, G*/E* = 1/4.
    const Real ratio = p.E_star > 0.0 ? p.G_star / p.E_star : 0.25;
    p.E_star = s.E_star;
    p.G_star = ratio * s.E_star;
  }
  if (s.G_star > 0.0) p.G_star = s.G_star;
  return p;
}

void ContactForces::setup(const DeviceView<Real*>& lumped_mass,
                          const std::vector<ContactMaterial>& bodies,
                          const std::vector<ContactMaterial>& obstacles,
                          const ContactPairSettings& defaults) {
  if (!(defaults.restitution > 0.0 && defaults.restitution <= 1.0))
    throw_error("ContactForces: restitution must be in (0, 1]");
  lumped_mass_ = lumped_mass;
  num_bodies_ = static_cast<int>(bodies.size());
  num_obstacles_ = static_cast<int>(obstacles.size());
  materials_ = bodies;
  materials_.insert(materials_.end(), obstacles.begin(), obstacles.end());
  for (const ContactMaterial& m : materials_) {
    if (m.restitution >= 0.0 && !(m.restitution > 0.0 && m.restitution <= 1.0))
      throw_error("ContactForces: a material's restitution must be in (0, 1], got ", m.restitution);
    if (m.mu_s >= 0.0 && m.mu_k > m.mu_s)
      throw_error("ContactForces: a material's mu_k = ", m.mu_k, " exceeds its mu_s = ", m.mu_s);
  }
  const int np = num_bodies_ + num_obstacles_;
  law_host_.assign(static_cast<size_t>(np) * np, ContactLawParams{});
  pair_host_.assign(static_cast<size_t>(np) * np, defaults);
  for (int a = 0; a < np; ++a)
    for (int b = 0; b < np; ++b) {
      pair_host_[a * np + b] = combine_pair_settings(materials_[a], materials_[b], defaults);
      law_host_[a * np + b] = make_pair_law(materials_[a], materials_[b], pair_host_[a * np + b]);
    }
  point_mass_host_.assign(num_bodies_, 0.0);
  point_mass_shared_host_.assign(num_bodies_, 0);
  law_ = DeviceView<ContactLawParams*>("tlfea::contact::law", law_host_.size());
  point_mass_ = DeviceView<Real*>("tlfea::contact::point_mass", num_bodies_ > 0 ? num_bodies_ : 1);
  point_mass_shared_ =
      DeviceView<int*>("tlfea::contact::point_mass_shared", num_bodies_ > 0 ? num_bodies_ : 1);
  pair_contacts_ = DeviceView<Ordinal*>("tlfea::contact::pair_contacts", law_host_.size());
  counters_ = DeviceView<Ordinal[3]>("tlfea::contact::counters");
  dirty_ = true;
  upload_tables();
}

int ContactForces::pair_index(int a, int b) const {
  const int pa = participant(a), pb = participant(b), np = num_bodies_ + num_obstacles_;
  if (pa < 0 || pa >= np || pb < 0 || pb >= np)
    throw_error("ContactForces: unknown partner pair (", a, ", ", b, ")");
  return pa * np + pb;
}

void ContactForces::set_pair(int a, int b, const ContactPairSettings& s) {
  const int ab = pair_index(a, b), ba = pair_index(b, a);
  const int np = num_bodies_ + num_obstacles_;
  const ContactLawParams p = make_pair_law(materials_[ab / np], materials_[ab % np], s);
  law_host_[ab] = law_host_[ba] = p;
  pair_host_[ab] = pair_host_[ba] = s;
  dirty_ = true;
}

const ContactPairSettings& ContactForces::pair_settings(int a, int b) const {
  return pair_host_.at(pair_index(a, b));
}
const ContactLawParams& ContactForces::pair_law(int a, int b) const {
  return law_host_.at(pair_index(a, b));
}

void ContactForces::set_point_mass(int body, Real mass, bool shared) {
  if (!std::isfinite(mass))
    throw_error("ContactForces: body ", body, ": point mass must be finite, got ", mass);
  point_mass_host_.at(body) = mass;
  point_mass_shared_host_.at(body) = shared && mass > 0.0 ? 1 : 0;
  dirty_ = true;
}

void ContactForces::upload_tables() {
  if (!dirty_) return;
  auto lh = host_mirror(law_);
  for (size_t i = 0; i < law_host_.size(); ++i) lh(i) = law_host_[i];
  copy_to_device(law_, lh);
  auto mh = host_mirror(point_mass_);
  for (int b = 0; b < num_bodies_; ++b) mh(b) = point_mass_host_[b];
  copy_to_device(point_mass_, mh);
  auto sh = host_mirror(point_mass_shared_);
  for (int b = 0; b < num_bodies_; ++b) sh(b) = point_mass_shared_host_[b];
  copy_to_device(point_mass_shared_, sh);
  any_shared_ = std::any_of(point_mass_shared_host_.begin(), point_mass_shared_host_.end(),
                            [](int s) { return s != 0; });
  any_patch_ = std::any_of(law_host_.begin(), law_host_.end(),
                           [](const ContactLawParams& p) { return p.patch != 0; });
  const size_t np = static_cast<size_t>(num_bodies_ + num_obstacles_);
  if (any_patch_ && patch_delta_.extent(0) != np * np) {
    patch_delta_ = DeviceView<Real*>("tlfea::contact::patch_delta", np * np);
    patch_radius_ = DeviceView<Real*>("tlfea::contact::patch_radius", np * np);
    patch_w_ = DeviceView<Real*>("tlfea::contact::patch_weight_sum", np * np);
    patch_wvn_ = DeviceView<Real*>("tlfea::contact::patch_weighted_vn", np * np);
    patch_mass_ = DeviceView<Real* [2]>("tlfea::contact::patch_mass", np * np);
    patch_ratio_ = DeviceView<Real*>("tlfea::contact::patch_mass_per_weight", np * np);
    patch_s_ = DeviceView<Real*>("tlfea::contact::patch_smooth_max_sum", np * np);
  }
  dirty_ = false;
}

void ContactForces::reserve(Ordinal capacity) {
  if (capacity_ > 0 && capacity <= capacity_) return;
  const Ordinal c = capacity > 0 ? capacity : 1;
  // Rehash keeps both histories (a retry may still read base_).
  base_.rehash(static_cast<uint32_t>(c));
  result_.rehash(static_cast<uint32_t>(c));
  fn_ = DeviceView<Real*>("tlfea::contact::normal_force", c);
  mstar_ = DeviceView<Real*>("tlfea::contact::effective_mass", c);
  ft_ = DeviceView<Real* [3]>("tlfea::contact::tangential_force", c);
  dt_ = DeviceView<Real* [3]>("tlfea::contact::tangential_displacement", c);
  slide_ = DeviceView<int*>("tlfea::contact::sliding", c);
  weight_ = DeviceView<Real*>("tlfea::contact::patch_share", c);
  capacity_ = c;
}

void ContactForces::compute(const ContactPoints& points, const CoefView& q, const CoefView& v,
                            Real dt, const CoefView& f) {
  evaluate(points, q, v, dt, f, true);
}

void ContactForces::compute(const ContactPoints& points, const CoefView& q, const CoefView& v,
                            Real dt, const CoefView& f, Real t) {
  const bool new_step = !have_time_ || t != last_time_;
  have_time_ = true;
  last_time_ = t;
  evaluate(points, q, v, dt, f, new_step);
}

void ContactForces::evaluate(const ContactPoints& points, const CoefView& /*q*/, const CoefView& v,
                             Real dt, const CoefView& f, bool new_step) {
  if (!law_.is_allocated()) throw_error("ContactForces::compute called before setup");
  upload_tables();
  reserve(points.capacity);
  // A new step starts from the last call's history; a retry of the same
  // step (same t) starts again from the history that call started from.
  if (new_step) std::swap(base_, result_);
  result_.clear();
  fill(counters_, Ordinal(0));
  const ContactKernelBase base{points,        v,    num_bodies_, num_bodies_ + num_obstacles_,
                               lumped_mass_,  law_, point_mass_, point_mass_shared_,
                               pair_contacts_};
  if (points.capacity == 0) return;
  const Kokkos::RangePolicy<ExecSpace> range(0, points.capacity);
  if (any_shared_) {
    fill(pair_contacts_, Ordinal(0));
    Kokkos::parallel_for("tlfea::contact::pair_contacts", range, PairCountKernel{base});
  }
  if (any_patch_) {
    fill(patch_delta_, 0.0);
    fill(patch_radius_, 0.0);
    fill(patch_w_, 0.0);
    fill(patch_wvn_, 0.0);
    fill(patch_mass_, 0.0);
    fill(patch_s_, 0.0);
    Kokkos::parallel_for("tlfea::contact::patch_extent", range,
                         PatchExtentKernel{base, patch_delta_, patch_radius_});
    fill(patch_ratio_, std::numeric_limits<Real>::max());
    PatchWeightKernel wk{base,    patch_delta_, patch_w_,    patch_wvn_,
                         weight_, patch_ratio_, patch_mass_, patch_s_};
    Kokkos::parallel_for("tlfea::contact::patch_weights", range, wk);
  }
  ContactForceKernel kernel{base,         f,
                            dt,           limit_dashpot_ ? 1 : 0,
                            base_,        result_,
                            fn_,          mstar_,
                            ft_,          dt_,
                            slide_,       counters_,
                            patch_delta_, patch_radius_,
                            patch_w_,     patch_wvn_,
                            weight_,      patch_ratio_,
                            patch_mass_,  patch_s_};
  Kokkos::parallel_for("tlfea::contact::forces", range, kernel);
}

bool ContactForces::couples_contacts() const {
  for (const ContactPairSettings& p : pair_host_)
    if (p.patch) return true;
  for (int shared : point_mass_shared_host_)
    if (shared) return true;
  return false;
}

void ContactForces::save_history(std::vector<unsigned long long>& keys,
                                 std::vector<ContactHistory>& values) const {
  keys.clear();
  values.clear();
  const uint32_t cap = result_.capacity();
  if (cap == 0) return;
  DeviceView<unsigned long long*> k("tlfea::contact::save_keys", cap);
  DeviceView<ContactHistory*> v("tlfea::contact::save_values", cap);
  DeviceView<int*> valid("tlfea::contact::save_valid", cap);
  Kokkos::parallel_for("tlfea::contact::save_history",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<uint32_t>>(0, cap),
                       ExtractHistory{result_, k, v, valid});
  auto kh = to_host(k);
  auto vh = to_host(v);
  auto ch = to_host(valid);
  std::vector<uint32_t> slots;
  for (uint32_t i = 0; i < cap; ++i)
    if (ch(i)) slots.push_back(i);
  std::sort(slots.begin(), slots.end(), [&](uint32_t a, uint32_t b) { return kh(a) < kh(b); });
  keys.reserve(slots.size());
  values.reserve(slots.size());
  for (uint32_t i : slots) {
    keys.push_back(kh(i));
    values.push_back(vh(i));
  }
}

void ContactForces::restore_history(const std::vector<unsigned long long>& keys,
                                    const std::vector<ContactHistory>& values, Real t_last) {
  if (keys.size() != values.size())
    throw_error("ContactForces::restore_history: " + std::to_string(keys.size()) + " keys but " +
                std::to_string(values.size()) + " values");
  std::vector<unsigned long long> sorted(keys);
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end())
    throw_error("ContactForces::restore_history: key " + std::to_string(*dup) + " repeated");
  const Ordinal n = static_cast<Ordinal>(keys.size());
  // Fresh maps (the capacity of the run that saved need not be known): the
  // next compute's reserve() grows them, keeping the entries.
  const Ordinal cap = std::max<Ordinal>({n, capacity_, 1});
  base_ = HistoryMap(static_cast<uint32_t>(std::max<Ordinal>(capacity_, 1)));
  result_ = HistoryMap(static_cast<uint32_t>(cap));
  if (n > 0) {
    DeviceView<unsigned long long*> k("tlfea::contact::restore_keys", n);
    DeviceView<ContactHistory*> v("tlfea::contact::restore_values", n);
    auto kh = host_mirror(k);
    auto vh = host_mirror(v);
    for (Ordinal i = 0; i < n; ++i) {
      kh(i) = keys[i];
      vh(i) = values[i];
    }
    copy_to_device(k, kh);
    copy_to_device(v, vh);
    Kokkos::parallel_for("tlfea::contact::restore_history", Kokkos::RangePolicy<ExecSpace>(0, n),
                         InsertHistory{result_, k, v});
  }
  have_time_ = true;
  last_time_ = t_last;
  if (counters_.is_allocated()) {
    auto ch = host_mirror(counters_);
    ch(0) = ch(1) = 0;
    ch(2) = n;
    copy_to_device(counters_, ch);
  }
}

Ordinal ContactForces::active_contacts() const {
  if (!counters_.is_allocated()) return 0;
  auto h = to_host(counters_);
  return h(0);
}

Ordinal ContactForces::sliding_contacts() const {
  if (!counters_.is_allocated()) return 0;
  auto h = to_host(counters_);
  return h(1);
}

Ordinal ContactForces::history_size() const {
  if (!counters_.is_allocated()) return 0;
  auto h = to_host(counters_);
  return h(2);
}

}  // namespace tlfea
