// TLFEA: contact forces from the detection's contact points (docs/theory.md
// §7.4-7.6): per active contact k, the velocities of the two material points
// v_X = sum_l s_l v(id_l) (an obstacle side: its
// given velocity), v_rel = v_A - v_B, v_n = v_rel . n, v_t = v_rel - v_n n,
// the law of contact_law.hpp with the pair's tangential history, and the
// scatter F = F_n n + F_t onto A (+) and B (-) through the shape-function
// weights, like point forces. Explicit: evaluated once per step.
//
// Effective mass: each side's point mass is the mass an impulse at the point
// sees with a lumped (diagonal) mass, m_X = 1 / sum_l s_l^2 / |m_l|, m_l the
// lumped mass of coefficient id_l (row sum of the consistent mass; the
// quadratic tetrahedron's corner row sums are negative, hence |m_l|), unless
// a point mass is set for the body; m* = m_A m_B / (m_A + m_B), m* = m_A
// against an obstacle.
//
// The forces are explicit, so the step must resolve the contact: with m_c the
// smallest point mass in contact, h < 2 / sqrt(S_n / m_c) and
// h gamma_n / m_c well below 2. A point mass set to the whole body's mass
// (set_point_mass) makes gamma_n large against a node's own mass: a Q27 block
// (1 kg, E = 1e7 Pa) dropped flat at 1 m/s rebounds with e = 0.56 at
// h = 4e-6 s but 0.94 (unresolved) at h = 2e-5 s; with the lumped-mass rule
// the nodes' small m* damp little and the block rebounds with about 0.88.
//
// Hertz with many loaded vertices. The point law (the default) applies the
// law per contact point, each vertex a Hertz spring of radius R* (the body's
// contact_radius, or the patch radius sqrt(A_patch / pi)), so the total is
// sum_i (4/3) E* sqrt(R*) delta_i^(3/2): the Hertz force of the body only
// while one vertex carries the load (a ball's pole on a plane). With N loaded
// vertices of a ball (delta_i = delta - r_i^2 / 2R) the sum exceeds
// (4/3) E* sqrt(R) delta^(3/2), and no local law of delta_i sums to Hertz,
// whose pressure p(r) = (2 E* / (pi R)) sqrt(R delta - r^2) depends on the
// largest penetration of the whole patch.
//
// The patch law (ContactPairSettings::patch) treats all contacts of a pair
// of partners in a step (both directions: A's vertices on B and B's on A) as
// one Hertz contact:
//   delta_p = max_k delta_k, R_p = the pair's radius or max_k R*_k,
//   w_k = A_k sqrt(max(0, delta_k - delta_p / 2))   (A_k: vertex patch area),
//   the Hertz pressure at the vertex: the geometric overlap of a sphere is
//   delta_k = delta_p - r_k^2 / 2R, and sqrt(R delta_p - r_k^2) =
//   sqrt(2R (delta_k - delta_p / 2)); the deepest vertex always has w > 0;
//   v_n,p = sum_k w_k v_n,k / W, W = sum_k w_k,
//   m_p = effective_mass(m_lo, m_hi): per partner its point mass set by
//   set_point_mass, else the sum of the lumped masses of its own surface
//   vertices in the patch (the vertex side of its contacts: the touching
//   surface layer), an obstacle infinite;
//   F_p = max(0, k_n(delta_p) delta_p - gamma_n(m_p) v_n,p), k_n, gamma_n of
//   the law at (R_p, delta_p); contact k gets F_n,k = (w_k / W) F_p;
//   tangential: contact k keeps its own history delta_t,k, with spring
//   (w_k / W) S_t,p and dashpot (w_k / W) gamma_t,p, S_t,p = 8 G* sqrt(R_p
//   delta_p), capped at mu F_n,k.
// So the pair's total normal force is exactly the damped Hertz law of the
// patch's largest penetration, however many vertices touch (tested against
// (4/3) E* sqrt(R) delta^(3/2) with 9 loaded vertices of a ball), and a body
// resting on its patch sees one Hertz spring. Use it for pairs that touch in
// one region (a ball on a plane or on another ball): contacts of one pair in
// two separate regions would be lumped into one patch.
//
// Explicit dashpot limit. The forces are explicit: a contact's dashpot
// gamma acts on the mass m_k its force is applied to (m* of the two sides'
// lumped point masses), and the step changes the relative normal velocity by
// about -(h gamma / m_k) v_n, which reverses it when h gamma / m_k > 1 and
// grows without bound past 2. A damping mass larger than m_k (the body's,
// set_point_mass) does that whenever h is not small: a Q27 ball (0.52 kg,
// E = 1e7 Pa, 4 divisions) dropped at 0.5 m/s with the ball's mass as
// damping mass left at 2.07 v0 with 96 times its kinetic energy at
// h = 1e-4 s (the blow-up starts while its pole vertex alone touches). So
// every contact's dashpot
// (normal and tangential) is limited to gamma <= m_k / h, the value that
// stops the relative normal velocity in one step; with the patch law each
// contact's share of the patch dashpot is limited the same way. A resolved
// contact (h small against m_k / gamma) is not affected; an unresolved one
// is damped less than its restitution asks, and rebounds higher, but does
// not gain energy. set_dashpot_limit(false) removes the limit.
//
// History: two device hash maps keyed by ContactPoints::key, the history at
// the start of the step (read) and at its end (written). A new step starts
// from the last call's result: a pair present in consecutive steps keeps its
// delta_t, a pair absent in a step is dropped. Keys must be unique within a
// step (a repeated key gets its forces, but only one history entry).
//
// Restart: save_history copies the end-of-step history (the map the next step
// starts from) to the host, sorted by key; restore_history loads it into the
// same map of this (or a fresh, set-up) ContactForces and sets the time of
// the last call, so the next compute(..., t) with t != t_last starts a new
// step from exactly the saved history. The history at the start of the saved
// step (what a retry at t_last would read) is not saved: a restart is written
// after a completed step, which is never retried; after a restore a call at
// t == t_last is treated as a retry of a step that started from the restored
// history. Lookups are by key, so the map's capacity and insertion order do
// not change any result: the continuation is bit-identical.
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
  // A fixed point mass for every contact point on body b (e.g. the body's
  // mass for a rigid-like body); <= 0 restores the lumped-mass rule.
  void set_point_mass(int body, Real mass);
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
  // trace in delta_t. Use this one from Model::add_step_force.
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
  std::vector<ContactMaterial> materials_;  // bodies then obstacles
  std::vector<ContactLawParams> law_host_;  // (np x np), row-major
  std::vector<ContactPairSettings> pair_host_;  // (np x np), the settings law_host_ came from
  int pair_index(int a, int b) const;
  std::vector<Real> point_mass_host_;       // per body
  bool dirty_ = true;
  DeviceView<Real*> lumped_mass_;
  DeviceView<ContactLawParams*> law_;
  DeviceView<Real*> point_mass_;
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
  DeviceView<Real*> patch_delta_, patch_radius_, patch_w_, patch_wvn_, patch_ratio_;
  DeviceView<Real* [2]> patch_mass_;
  DeviceView<Real*> weight_;  // per contact: w_k (patch law) or 1
};

}  // namespace tlfea
