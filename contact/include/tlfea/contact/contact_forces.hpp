// TLFEA: contact forces from the detection's contact points: per active
// contact the relative velocity of its two material points, the Hertz-Mindlin
// law of contact_law.hpp with the pair's tangential history (device hash
// maps, start and end of step), and the scatter F = F_n n + F_t onto both
// sides through the shape-function weights. docs/theory.md §7.4 (law,
// effective mass), §7.5 (patch law), §7.6 (explicit coupling, dashpot limit
// gamma <= m_k / h, restart of the history).
#pragma once

#include <Kokkos_UnorderedMap.hpp>
#include <vector>

#include "tlfea/contact/contact_law.hpp"
#include "tlfea/contact/contact_points.hpp"
#include "tlfea/core/crs_pattern.hpp"

namespace tlfea {

// Constants of the law for a pair (or the default for every pair).
struct ContactPairSettings {
  Real restitution = 0.5;  // e in (0, 1]
  Real mu_s = 0.25;        // static friction
  Real mu_k = 0.2;         // kinetic friction
  Real radius = 0.0;       // R* [m]; <= 0: the detection's per-contact radius
  bool patch = false;      // the patch-level law (above) instead of the point law
  // With patch: the smooth-max patch law (ContactLawParams::patch = 2) in
  // place of the deepest-vertex one: the pair's elastic force is the
  // gradient of U = (8/15) E* sqrt(R) D^(5/2), D = (sum_k delta_k^p)^(1/p),
  // p = kPatchSmoothMaxOrder, so F_k = H(D) (delta_k / D)^(p - 1) with
  // H(D) = (4/3) E* sqrt(R) D^(3/2) (one vertex: exactly Hertz); its dashpots
  // and tangential spring on the patch's stiffness G^2 S(D), G = sum_k
  // (delta_k / D)^(p - 1); docs/theory.md §7.5 "Smooth-max patch".
  bool patch_smooth_max = false;
  // Slip-weakening distance D_c [m] (docs/theory.md §7.4): after sticking,
  // a contact's friction coefficient falls linearly from mu_s to mu_k over
  // the first D_c of slip; 0: mu_k as soon as it slips.
  Real slip_distance = 1e-4;
  // Effective moduli of the pair (docs/theory.md §7.4, "Contact material"):
  // E_star > 0 [Pa] replaces the E* of the partners' ContactMaterials;
  // G_star > 0 replaces G*, else G* = E_star (G*/E* of the partners'
  // materials), or E_star / 4 (the ratio at nu = 0) when both are rigid.
  // For two partners of one nu (or one rigid), G*/E* = (1 - nu) / (2 (2 - nu)).
  Real E_star = 0.0;
  Real G_star = 0.0;
};

// Pair settings of partners a and b from the default `d` (e, mu_s, mu_k of
// a ContactMaterial < 0: not given). Per property: given by both, the
// smaller (Chrono's default composition of friction and restitution); by
// one, that one; by neither, d's. Then mu_k <= mu_s is enforced (mu_k is
// capped at mu_s: one partner's mu_k may meet the other's smaller mu_s).
// radius, patch, E_star, G_star are d's.
ContactPairSettings combine_pair_settings(const ContactMaterial& a, const ContactMaterial& b,
                                          const ContactPairSettings& d);
// The law constants of a pair (E*, G* from the materials unless s overrides
// them; throws Error for a restitution outside (0, 1], a negative friction
// coefficient or mu_k > mu_s).
ContactLawParams make_pair_law(const ContactMaterial& a, const ContactMaterial& b,
                               const ContactPairSettings& s);

// Lumped mass per coefficient: the row sums of the consistent mass
// (sum_b M_ab, from scalar row 3a of the CRS values on `pattern`).
DeviceView<Real*> row_sum_lumped_mass(const CrsPattern& pattern, const DeviceView<Real*>& values);

class ContactForces {
 public:
  using HistoryMap = Kokkos::UnorderedMap<unsigned long long, ContactHistory, DeviceType>;

  ContactForces() = default;

  // lumped_mass: one entry per coefficient (row_sum_lumped_mass of the
  // model's mass, or any positive lumping). bodies[b] and obstacles[k] give
  // E, nu of body b and of obstacle k (ContactPoints::body id -1 - k); a
  // rigid partner has E = inf. `defaults` sets e, mu_s, mu_k, R* for every
  // pair, unless the partners' materials give e, mu_s, mu_k
  // (combine_pair_settings); set_pair overrides one pair.
  void setup(const DeviceView<Real*>& lumped_mass, const std::vector<ContactMaterial>& bodies,
             const std::vector<ContactMaterial>& obstacles, const ContactPairSettings& defaults);
  // Pair (a, b) in ContactPoints::body ids (obstacles -1 - k), symmetric:
  // replaces all of the pair's settings (start from pair_settings(a, b) to
  // change some).
  void set_pair(int a, int b, const ContactPairSettings& settings);
  // The settings and law constants pair (a, b) uses now (after setup).
  const ContactPairSettings& pair_settings(int a, int b) const;
  const ContactLawParams& pair_law(int a, int b) const;
  // A fixed damping mass m* for every contact point on body b (e.g. the
  // body's mass for a rigid-like body); <= 0 restores the lumped-mass rule.
  // shared: the mass is divided among the loaded contacts (delta > 0) of
  // each pair the body is in, counted every step, so N contacts of a flat
  // face each damp with m / N and the body's bounce on them has the pair's
  // restitution (docs/theory.md §7.4, "Damping mass"). The patch law lumps a
  // pair's contacts into one patch and uses m either way.
  void set_point_mass(int body, Real mass, bool shared = false);
  // The explicit-dashpot limit (above; on by default).
  void set_dashpot_limit(bool on) { limit_dashpot_ = on; }

  // f += contact forces of the contacts in `points` at velocities v (q is
  // not needed: the material points and x_c come from detection), and
  // advances the tangential history by dt. Allocates only when the contact
  // capacity grows; no host synchronisation.
  // Every call is a new step.
  void compute(const ContactPoints& points, const CoefView& q, const CoefView& v, Real dt,
               const CoefView& f);
  // The same, with t the time at the start of the step: a call with the
  // same t as the previous call is a retry of that step (the stepper's step
  // halving calls its step forces again from the same state) and restarts
  // from the history that call started from, so failed attempts leave no
  // trace in delta_t. Use this one from a step force (ContactComponent).
  void compute(const ContactPoints& points, const CoefView& q, const CoefView& v, Real dt,
               const CoefView& f, Real t);

  // Restart (see above): the history pairs after the last compute, sorted by
  // key (empty before the first compute).
  void save_history(std::vector<unsigned long long>& keys,
                    std::vector<ContactHistory>& values) const;
  // Replaces the history by (keys, values) as if the last compute had been
  // at time t_last; throws Error on a size mismatch or a repeated key.
  void restore_history(const std::vector<unsigned long long>& keys,
                       const std::vector<ContactHistory>& values, Real t_last);

  // Whether a contact's force depends on the other contacts of its pair
  // (a pair with the patch law, or a body with a shared point mass): then
  // the contacts cannot be split between ranks (docs/guide/mpi.md).
  bool couples_contacts() const;

  // Counters of the last compute (each reads one device value).
  Ordinal active_contacts() const;
  Ordinal sliding_contacts() const;

  // Per-contact results of the last compute, indexed like the contact
  // points (entries [0, count) valid): normal force F_n, tangential force
  // F_t on A, the updated tangential displacement delta_t, the sliding
  // flag, and m*.
  const DeviceView<Real*>& normal_force() const { return fn_; }
  const DeviceView<Real* [3]>& tangential_force() const {
    return ft_;
  } const DeviceView<Real* [3]>& tangential_displacement() const {
    return dt_;
  } const DeviceView<int*>& sliding() const {
    return slide_;
  }
  const DeviceView<Real*>& effective_mass() const { return mstar_; }
  // Pairs held in the history after the last compute (UnorderedMap::size()
  // is stale after clear() in Kokkos 3.4, so this counts the inserts).
  Ordinal history_size() const;

 private:
  int participant(int id) const { return id >= 0 ? id : num_bodies_ + (-1 - id); }
  void upload_tables();
  void evaluate(const ContactPoints& points, const CoefView& q, const CoefView& v, Real dt,
                const CoefView& f, bool new_step);
  void reserve(Ordinal capacity);

  int num_bodies_ = 0, num_obstacles_ = 0;
  std::vector<ContactMaterial> materials_;      // bodies then obstacles
  std::vector<ContactLawParams> law_host_;      // (np x np), row-major
  std::vector<ContactPairSettings> pair_host_;  // (np x np), the settings law_host_ came from
  int pair_index(int a, int b) const;
  std::vector<Real> point_mass_host_;        // per body
  std::vector<int> point_mass_shared_host_;  // per body
  bool dirty_ = true;
  DeviceView<Real*> lumped_mass_;
  DeviceView<ContactLawParams*> law_;
  DeviceView<Real*> point_mass_;
  DeviceView<int*> point_mass_shared_;
  DeviceView<Ordinal*> pair_contacts_;  // loaded contacts per pair slot (shared point masses)
  HistoryMap base_, result_;
  bool have_time_ = false;
  Real last_time_ = 0.0;
  Ordinal capacity_ = 0;
  DeviceView<Real*> fn_, mstar_;
  DeviceView<Real*[3]> ft_, dt_;
  DeviceView<int*> slide_;
  DeviceView<Ordinal[3]> counters_;  // active, sliding, history entries
  // Patch law (allocated when a pair uses it), indexed lo * np + hi over the
  // participants lo <= hi: delta_p, R_p, W, sum w v_n, the two masses.
  bool any_patch_ = false;
  bool limit_dashpot_ = true;
  bool any_shared_ = false;
  DeviceView<Real*> patch_delta_, patch_radius_, patch_w_, patch_wvn_, patch_ratio_;
  DeviceView<Real*> patch_s_;  // smooth-max law: S = sum_k (delta_k / m)^p per patch
  DeviceView<Real* [2]> patch_mass_;
  DeviceView<Real*> weight_;  // per contact: w_k (patch law), s_k (smooth max) or 1
};

}  // namespace tlfea
