// TLFEA: the Poisson-split point law of the ANCF elements written once for
// every loop shape and value type (docs/theory.md §3.11-3.13, §4): T is
// double (the range and team loops, through point_laws.hpp SplitPointLaw) or
// a pack of W lanes, W points side by side (the lane loop, lane_force_core.hpp).
// Per point:
//   F = sum_i x_i (x) h_i                          (deformation_gradient)
//   E = (H + H^T + H^T H) / 2,  H = F - I          (green_lagrange)
//   Edot = sym(F^T Fdot)                           (strain_rate)
//   S = a tr(E) I + 2 b E + c diag(E) + p (E_11 + E_22) diag(1, 1, 0)
//       [+ the same form of the viscous law in Edot] (add_split_stress)
//   P = F S                                        (split_first_piola)
// with the coefficients (a, b, c, p) of poisson_split.hpp (SplitLaw).
//
// This header includes nothing but Kokkos's macro header (and not even that
// in the per-instruction-set builds of the lane loop, which define
// TLFEA_LANE_ISA_BUILD: there every function is a template instantiated with
// that build's own pack type, so the wide-instruction code cannot be mixed
// with other builds' by the linker).
#pragma once

#ifdef TLFEA_LANE_ISA_BUILD
#if defined(__GNUC__)
// Inlined into the lane loop, so that the packs stay in registers.
#define TLFEA_POINT_FUNCTION inline __attribute__((always_inline))
#else
#define TLFEA_POINT_FUNCTION inline
#endif
#else
#include <Kokkos_Macros.hpp>
#define TLFEA_POINT_FUNCTION KOKKOS_INLINE_FUNCTION
#endif

namespace tlfea {

// Coefficients (a, b, c, p) of one part of the split law (poisson_split.hpp).
struct SplitLaw {
  double a = 0.0, b = 0.0, c = 0.0, p = 0.0;
};

namespace point {

// F[3a + B] = sum_j x(j, a) h(j, B), j outermost (nine independent sums);
// x(j, a) a coefficient, h(j, B) a gradient (a value of type T).
template <int N, class T, class X, class Hf>
TLFEA_POINT_FUNCTION void deformation_gradient(const X& x, const Hf& h, T (&F)[9]) {
  for (int k = 0; k < 9; ++k) F[k] = T(0.0);
  for (int j = 0; j < N; ++j) {
    const T h0 = h(j, 0), h1 = h(j, 1), h2 = h(j, 2);
    for (int a = 0; a < 3; ++a) {
      const auto xa = x(j, a);
      F[3 * a] = F[3 * a] + xa * h0;
      F[3 * a + 1] = F[3 * a + 1] + xa * h1;
      F[3 * a + 2] = F[3 * a + 2] + xa * h2;
    }
  }
}

// E = (H + H^T + H^T H) / 2, H = F - I (StVenantKirchhoff::green_lagrange_strain).
template <class T>
TLFEA_POINT_FUNCTION void green_lagrange(const T (&F)[9], T (&E)[9]) {
  T H[9];
  for (int k = 0; k < 9; ++k) H[k] = F[k];
  H[0] = H[0] - 1.0;
  H[4] = H[4] - 1.0;
  H[8] = H[8] - 1.0;
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s) {
      const T hth = H[r] * H[s] + H[3 + r] * H[3 + s] + H[6 + r] * H[6 + s];
      E[3 * r + s] = 0.5 * (H[3 * r + s] + H[3 * s + r] + hth);
    }
}

// Edot = sym(F^T Fdot).
template <class T>
TLFEA_POINT_FUNCTION void strain_rate(const T (&F)[9], const T (&Fd)[9], T (&E)[9]) {
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s) {
      const T ars = F[r] * Fd[s] + F[3 + r] * Fd[3 + s] + F[6 + r] * Fd[6 + s];
      const T asr = F[s] * Fd[r] + F[3 + s] * Fd[3 + r] + F[6 + s] * Fd[6 + r];
      E[3 * r + s] = 0.5 * (ars + asr);
    }
}

// S += a tr(E) I + 2 b E + c diag(E) + p (E_11 + E_22) diag(1, 1, 0), in the
// element frame.
template <class T>
TLFEA_POINT_FUNCTION void add_split_stress(const SplitLaw& l, const T (&E)[9], T (&S)[9]) {
  const double b2 = 2.0 * l.b;
  for (int k = 0; k < 9; ++k) S[k] = S[k] + b2 * E[k];
  const T at = l.a * (E[0] + E[4] + E[8]);
  const T pt = l.p * (E[0] + E[4]);
  S[0] = S[0] + (at + l.c * E[0] + pt);
  S[4] = S[4] + (at + l.c * E[4] + pt);
  S[8] = S[8] + (at + l.c * E[8]);
}

// P = F S, S = the elastic split law `el` at E(F) (+ the viscous `vi` at
// Edot(F, Fd) when viscous). S is returned too (the tangent's geometric term).
template <bool viscous, class T>
TLFEA_POINT_FUNCTION void split_first_piola(const SplitLaw& el, const SplitLaw& vi, const T (&F)[9],
                                            const T (&Fd)[9], T (&S)[9], T (&P)[9]) {
  T E[9];
  green_lagrange(F, E);
  for (int k = 0; k < 9; ++k) S[k] = T(0.0);
  add_split_stress(el, E, S);
  if constexpr (viscous) {
    T Ed[9];
    strain_rate(F, Fd, Ed);
    add_split_stress(vi, Ed, S);
  } else {
    (void)vi;
    (void)Fd;
  }
  for (int a = 0; a < 3; ++a)
    for (int m = 0; m < 3; ++m)
      P[3 * a + m] = F[3 * a] * S[m] + F[3 * a + 1] * S[3 + m] + F[3 * a + 2] * S[6 + m];
}

}  // namespace point
}  // namespace tlfea
