// TLFEA: the frictional contact law, pointwise (docs/theory.md §7.4; Hertz
// 1882, Mindlin 1949, Tsuji et al. 1992, Kloss et al. 2012). Damped Hertz
// normal force, clipped at zero, and a Mindlin-type tangential spring-dashpot
// with history and a Coulomb cap (static mu_s while the spring holds,
// weakening to kinetic mu_k over a slip distance D_c once sliding):
//   1/E* = (1 - nu_A^2)/E_A + (1 - nu_B^2)/E_B,
//   1/G* = 2(2 - nu_A)(1 + nu_A)/E_A + 2(2 - nu_B)(1 + nu_B)/E_B,
//   beta = -ln(e) / sqrt(ln(e)^2 + pi^2),
//   S_n = 2 E* sqrt(R* delta), k_n = (2/3) S_n,
//   gamma_n = 2 sqrt(5/6) beta sqrt(S_n m*),
//   F_n = max(0, k_n delta - gamma_n v_n)            (force on A: F_n n),
//   delta_t <- (I - n n^T)(delta_t + dt v_t),
//   S_t = 8 G* sqrt(R* delta), gamma_t = 2 sqrt(5/6) beta sqrt(S_t m*),
//   F_t = -S_t delta_t - gamma_t v_t, |F_t| <= mu |F_n|  (force on A).
// When the cap is hit the history is rescaled onto the Coulomb cone: the
// spring alone carries the capped force, delta_t = -F_t / S_t (as in the
// LIGGGHTS Hertz-Mindlin history model). The alternative that also books the
// dashpot into the history, delta_t = -(F_t + gamma_t v_t) / S_t (LAMMPS'
// granular rescale), leaves the spring pointing along the motion whenever
// gamma_t |v_t| > mu F_n, so a sudden stop would be followed by a push
// forward; the cone rescaling keeps the stored force opposed to the slip.
// Everything here is a trivially copyable struct or a KOKKOS_INLINE_FUNCTION,
// callable on the host and in kernels.
#pragma once

#include <cmath>

#include "tlfea/core/types.hpp"

namespace tlfea {

// Contact properties of one partner (docs/theory.md §7.4, "Contact
// material"). E, nu are the moduli the Hertz-Mindlin law uses for this
// partner's surface: by default the body's bulk material, or a separate
// contact modulus (as Chrono's ChContactMaterialSMC, LIGGGHTS' per-type
// youngsModulus or EDEM's material properties give), e.g. a stiff contact on
// a soft, coarsely meshed body whose mesh compliance would otherwise add to
// the contact's. A rigid obstacle has E = inf (or E <= 0), which removes its
// compliance from E* and G*.
// restitution, mu_s, mu_k < 0: not given, the pair default applies
// (ContactForces::setup); combination of two partners: combine_pair_settings.
struct ContactMaterial {
  Real E = 0.0;
  Real nu = 0.0;
  Real restitution = -1.0;
  Real mu_s = -1.0;
  Real mu_k = -1.0;
};

// Constants of the law for one pair of partners (precomputed on the host).
struct ContactLawParams {
  Real E_star = 0.0;  // effective Young's modulus E*
  Real G_star = 0.0;  // effective shear modulus G*
  Real beta = 0.0;    // damping factor from the restitution e
  Real mu_s = 0.0;    // static friction coefficient
  Real mu_k = 0.0;    // kinetic friction coefficient
  Real radius = 0.0;  // R* override; <= 0: take the detection's R* per contact
  int patch = 0;      // 1: the patch-level law, 2: the smooth-max patch law (contact_forces.hpp)
  // Slip-weakening distance D_c [m]: mu falls linearly from mu_s to mu_k over
  // the first D_c of slip since the contact last stuck (0: at once).
  Real slip_distance = 0.0;
};

// Per-pair tangential history (trivially copyable, lives in a device map).
struct ContactHistory {
  Real delta_t[3];  // tangential spring displacement
  int sliding;      // 1 once the Coulomb cap was hit and not released since
  Real slip;        // slip distance accumulated since the contact last stuck
};

// beta = -ln(e) / sqrt(ln(e)^2 + pi^2), e in (0, 1] (e = 1: beta = 0).
KOKKOS_INLINE_FUNCTION Real restitution_beta(Real e) {
  const Real pi = 3.14159265358979323846;
  const Real l = kmath::log(e);
  return -l / kmath::sqrt(l * l + pi * pi);
}

// Host: effective moduli of two partners (rigid partners add no compliance).
inline bool contact_material_rigid(const ContactMaterial& m) {
  return !(m.E > 0.0) || !std::isfinite(m.E);
}
inline Real effective_young(const ContactMaterial& a, const ContactMaterial& b) {
  Real c = 0.0;
  if (!contact_material_rigid(a)) c += (1.0 - a.nu * a.nu) / a.E;
  if (!contact_material_rigid(b)) c += (1.0 - b.nu * b.nu) / b.E;
  return c > 0.0 ? 1.0 / c : 0.0;
}
inline Real effective_shear(const ContactMaterial& a, const ContactMaterial& b) {
  Real c = 0.0;
  if (!contact_material_rigid(a)) c += 2.0 * (2.0 - a.nu) * (1.0 + a.nu) / a.E;
  if (!contact_material_rigid(b)) c += 2.0 * (2.0 - b.nu) * (1.0 + b.nu) / b.E;
  return c > 0.0 ? 1.0 / c : 0.0;
}
inline ContactLawParams make_contact_law(const ContactMaterial& a, const ContactMaterial& b,
                                         Real restitution, Real mu_s, Real mu_k, Real radius = 0.0,
                                         bool patch = false, Real slip_distance = 0.0) {
  ContactLawParams p;
  p.E_star = effective_young(a, b);
  p.G_star = effective_shear(a, b);
  p.beta = restitution_beta(restitution);
  p.mu_s = mu_s;
  p.mu_k = mu_k;
  p.radius = radius;
  p.patch = patch ? 1 : 0;
  p.slip_distance = slip_distance;
  return p;
}

// Smooth-max patch law (ContactLawParams::patch = 2): the order p of the
// p-norm D = (sum_k delta_k^p)^(1/p) that stands for the patch's depth.
constexpr int kPatchSmoothMaxOrder = 32;

// x^n for an integer n >= 0 (by squaring; device-clean).
KOKKOS_INLINE_FUNCTION Real integer_power(Real x, int n) {
  Real r = 1.0;
  while (n > 0) {
    if (n & 1) r *= x;
    x *= x;
    n >>= 1;
  }
  return r;
}

// m* of two partners with masses m_a, m_b (<= 0 or inf: rigid / infinite).
KOKKOS_INLINE_FUNCTION Real effective_mass(Real m_a, Real m_b) {
  const bool fa = m_a > 0.0 && m_a<1e300, fb = m_b> 0.0 && m_b < 1e300;
  if (fa && fb) return m_a * m_b / (m_a + m_b);
  if (fa) return m_a;
  if (fb) return m_b;
  return 0.0;
}

// A dashpot limited to gamma_cap (<= 0: no limit).
KOKKOS_INLINE_FUNCTION Real capped_dashpot(Real gamma, Real gamma_cap) {
  return (gamma_cap > 0.0 && gamma > gamma_cap) ? gamma_cap : gamma;
}

// Normal law at penetration delta and normal velocity v_n (< 0 approaching):
// returns F_n >= 0 and the normal stiffness S_n; gamma_n is limited to
// gamma_cap (<= 0: no limit; see contact_forces.hpp).
KOKKOS_INLINE_FUNCTION Real contact_normal_force(const ContactLawParams& p, Real radius,
                                                 Real m_star, Real delta, Real v_n,
                                                 Real* S_n_out = nullptr, Real gamma_cap = 0.0) {
  if (!(delta > 0.0)) {
    if (S_n_out) *S_n_out = 0.0;
    return 0.0;
  }
  const Real S_n = 2.0 * p.E_star * kmath::sqrt(radius * delta);
  const Real k_n = (2.0 / 3.0) * S_n;
  const Real gamma_n =
      capped_dashpot(2.0 * kmath::sqrt(5.0 / 6.0) * p.beta * kmath::sqrt(S_n * m_star), gamma_cap);
  if (S_n_out) *S_n_out = S_n;
  const Real F = k_n * delta - gamma_n * v_n;
  return F > 0.0 ? F : 0.0;
}

// Friction coefficient of a contact with history h (docs/theory.md §7.4,
// "Static and kinetic friction"): mu_s while it sticks; once slipping, the
// linear slip-weakening law (Ida 1972; Palmer and Rice 1973; Andrews 1976)
//   mu(s) = mu_k + (mu_s - mu_k) max(0, 1 - s / D_c)
// of the slip s accumulated since it last stuck; D_c = 0: mu_k at once.
KOKKOS_INLINE_FUNCTION Real contact_friction_coefficient(const ContactLawParams& p,
                                                         const ContactHistory& h) {
  if (!h.sliding) return p.mu_s;
  if (!(p.slip_distance > 0.0)) return p.mu_k;
  const Real r = 1.0 - h.slip / p.slip_distance;
  return p.mu_k + (p.mu_s - p.mu_k) * (r > 0.0 ? r : 0.0);
}

// Tangential law with given spring stiffness S_t and dashpot gamma_t:
// updates the history h (delta_t projected onto the current tangent plane
// and advanced by dt v_t; rescaled on the cap; sliding flag; slip distance)
// and returns the tangential force on A in F_t, capped at mu |F_n| with mu
// from contact_friction_coefficient. v_t must be tangential. On a capped
// step the slip grows by the plastic part of the tangential displacement,
// |delta_t(trial) - delta_t(rescaled)|; a step below the cap sticks and
// resets it (the contact at rest is static again).
// Returns 1 when the Coulomb cap is active this step.
KOKKOS_INLINE_FUNCTION int contact_tangential_spring(const ContactLawParams& p, Real S_t,
                                                     Real gamma_t, Real F_n, const Real n[3],
                                                     const Real v_t[3], Real dt, ContactHistory& h,
                                                     Real F_t[3]) {
  // delta_t <- (I - n n^T)(delta_t + dt v_t)
  Real d[3];
  for (int i = 0; i < 3; ++i) d[i] = h.delta_t[i] + dt * v_t[i];
  const Real dn = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
  for (int i = 0; i < 3; ++i) d[i] -= dn * n[i];
  Real f2 = 0.0;
  for (int i = 0; i < 3; ++i) {
    F_t[i] = -S_t * d[i] - gamma_t * v_t[i];
    f2 += F_t[i] * F_t[i];
  }
  const Real mu = contact_friction_coefficient(p, h);
  const Real cap = mu * kmath::fabs(F_n);
  int capped = 0;
  Real slip = 0.0;
  if (f2 > cap * cap) {
    capped = 1;
    Real trial[3];
    for (int i = 0; i < 3; ++i) trial[i] = d[i];
    const Real scale = cap / kmath::sqrt(f2);  // f2 > 0 here
    for (int i = 0; i < 3; ++i) F_t[i] *= scale;
    // Rescaled history on the Coulomb cone: -S_t delta_t = F_t (capped).
    if (S_t > 0.0) {
      for (int i = 0; i < 3; ++i) d[i] = -F_t[i] / S_t;
      const Real dn2 = d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
      for (int i = 0; i < 3; ++i) d[i] -= dn2 * n[i];
    } else {
      for (int i = 0; i < 3; ++i) d[i] = 0.0;
    }
    Real s2 = 0.0;
    for (int i = 0; i < 3; ++i) s2 += (trial[i] - d[i]) * (trial[i] - d[i]);
    slip = (h.sliding ? h.slip : 0.0) + kmath::sqrt(s2);
  }
  for (int i = 0; i < 3; ++i) h.delta_t[i] = d[i];
  h.sliding = capped;
  h.slip = slip;
  return capped;
}

// Mindlin stiffness S_t = 8 G* sqrt(R* delta) (0 when not in contact) and
// its dashpot gamma_t = 2 sqrt(5/6) beta sqrt(S_t m*).
KOKKOS_INLINE_FUNCTION Real contact_tangential_stiffness(const ContactLawParams& p, Real radius,
                                                         Real delta) {
  return delta > 0.0 ? 8.0 * p.G_star * kmath::sqrt(radius * delta) : 0.0;
}
KOKKOS_INLINE_FUNCTION Real contact_dashpot(const ContactLawParams& p, Real stiffness,
                                            Real m_star) {
  return 2.0 * kmath::sqrt(5.0 / 6.0) * p.beta * kmath::sqrt(stiffness * m_star);
}

// Tangential law of one contact point: S_t and gamma_t from (R*, delta, m*),
// gamma_t limited to gamma_cap (<= 0: no limit).
KOKKOS_INLINE_FUNCTION int contact_tangential_force(const ContactLawParams& p, Real radius,
                                                    Real m_star, Real delta, Real F_n,
                                                    const Real n[3], const Real v_t[3], Real dt,
                                                    ContactHistory& h, Real F_t[3],
                                                    Real gamma_cap = 0.0) {
  const Real S_t = contact_tangential_stiffness(p, radius, delta);
  return contact_tangential_spring(
      p, S_t, capped_dashpot(contact_dashpot(p, S_t, m_star), gamma_cap), F_n, n, v_t, dt, h, F_t);
}

}  // namespace tlfea
