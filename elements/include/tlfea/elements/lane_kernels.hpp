// TLFEA: point-lane internal force of the ANCF 3443 shell with St.
// Venant-Kirchhoff laws (plain and Kelvin-Voigt; Poisson split on or off),
// docs/theory.md §3.13 (issue 13).
//
// The general loop (poisson_split.hpp SplitInternalForceFunctor, kernels.hpp
// InternalForceFunctor) evaluates one quadrature point at a time: about 340
// multiply-adds per point (F = sum_i x_i (x) h_i, 144; f_i += P h_i, 144;
// E, S, P), each a short dependency chain the compiler cannot vectorise. Here
// W points are evaluated side by side ("lanes"): the gradients are stored
// point-minor, HL(e, chunk, i, m, l) = h_i,m at point chunk * W + l, so that
// every operation of the point (F, E, S, P, the force update) is a loop over
// the W lanes with unit stride, which the compiler turns into SIMD
// instructions (SSE2: 2 lanes per instruction; AVX2 / AVX-512 with
// TLFEA_NATIVE: 4 / 8). Each lane keeps its own force sums, added once per
// element. The arithmetic per point is that of the general loop (same F sum
// order, the same near-reference Green-Lagrange form, the same split law
// coefficients), so the two agree to round-off, only the sum over points is
// ordered differently (tests/elements/test_lane_kernels.cpp).
//
// Laws (poisson_split.hpp add_split_stress; element frame for the split, any
// frame for the isotropic unsplit law):
//   S = a tr(E) I + 2 b E + c diag(E) + p (E_11 + E_22) diag(1, 1, 0)
//       [+ the same form of the viscous coefficients in Edot = sym(F^T Fdot)],
//   P = dV F S,   f_i += P h_i.
// SVK unsplit: (a, b, c, p) = (lambda, mu, 0, 0) on the 4x4x2 rule; split:
// D0 = (0, mu, 0, lambda*) on the 4x4x2 rule and Dv = (lambda, 0, 0,
// -lambda*) on the 4x4 mid-surface points (shell_split_from_lame).
//
// Host execution spaces only (the range loops); device spaces run the team
// loops (team_kernels.hpp), whose per-thread state this loop would exceed.
// Every point set fills whole chunks (the shell's 32 and 16 points).
#pragma once

#include "tlfea/elements/poisson_split.hpp"

namespace tlfea {

// Lanes per chunk: 8 doubles fill one AVX-512 register or two AVX2 ones.
inline constexpr int kForceLanes = 8;

// The point-lane data of one block: gradients, weights and, per chunk, the
// law set (0: full rule, 1: split mid-surface).
template <class E>
struct LanePoints {
  DeviceView<Real* * [E::n][3][kForceLanes]> H;  // (e, chunk, i, m, lane)
  DeviceView<Real** [kForceLanes]> dV;           // (e, chunk, lane)
  int nchunk = 0;                                // chunks per element
  int nchunk0 = 0;                               // chunks < nchunk0: law set 0
  SplitLaw el[2], vi[2];                         // elastic / viscous laws per set
  bool built() const { return nchunk > 0; }
};

// Host: lay out the point sets (H, dV, np) one after the other in lanes.
template <class E>
LanePoints<E> build_lane_points(const DeviceView<Real* * [E::n][3]> H[],
                                const DeviceView<Real**> dV[], const int np[], int nsets,
                                const SplitLaw el[], const SplitLaw vi[]) {
  constexpr int W = kForceLanes;
  LanePoints<E> lp;
  int chunks[2] = {0, 0};
  for (int s = 0; s < nsets; ++s) {
    if (np[s] % W != 0)
      throw_error("lane internal force: point set of ", np[s], " points, not a multiple of ", W);
    chunks[s] = np[s] / W;
  }
  lp.nchunk0 = chunks[0];
  lp.nchunk = chunks[0] + chunks[1];
  for (int s = 0; s < nsets; ++s) {
    lp.el[s] = el[s];
    lp.vi[s] = vi[s];
  }
  const Ordinal ne = static_cast<Ordinal>(H[0].extent(0));
  lp.H = DeviceView<Real* * [E::n][3][W]>("tlfea::elements::lane_H", ne, lp.nchunk);
  lp.dV = DeviceView<Real** [W]>("tlfea::elements::lane_dV", ne, lp.nchunk);
  auto hH = Kokkos::create_mirror_view(lp.H);
  auto hdV = Kokkos::create_mirror_view(lp.dV);
  for (int s = 0; s < nsets; ++s) {
    auto Hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H[s]);
    auto dVs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dV[s]);
    const int c0 = s == 0 ? 0 : chunks[0];
    for (Ordinal e = 0; e < ne; ++e)
      for (int p = 0; p < np[s]; ++p) {
        const int c = c0 + p / W, l = p % W;
        hdV(e, c, l) = dVs(e, p);
        for (int i = 0; i < E::n; ++i)
          for (int m = 0; m < 3; ++m) hH(e, c, i, m, l) = Hs(e, p, i, m);
      }
  }
  Kokkos::deep_copy(lp.H, hH);
  Kokkos::deep_copy(lp.dV, hdV);
  return lp;
}

namespace detail {

// S[k][l] += the split law l applied to the strain E[k][l] (row-major 3 x 3
// per lane), as add_split_stress.
KOKKOS_INLINE_FUNCTION void lane_split_stress(const SplitLaw& law, const Real (&E)[9][kForceLanes],
                                              Real (&S)[9][kForceLanes]) {
  constexpr int W = kForceLanes;
  const Real b2 = 2.0 * law.b;
  for (int k = 0; k < 9; ++k)
    for (int l = 0; l < W; ++l) S[k][l] += b2 * E[k][l];
  for (int l = 0; l < W; ++l) {
    const Real at = law.a * (E[0][l] + E[4][l] + E[8][l]);
    const Real pt = law.p * (E[0][l] + E[4][l]);
    S[0][l] += at + law.c * E[0][l] + pt;
    S[4][l] += at + law.c * E[4][l] + pt;
    S[8][l] += at + law.c * E[8][l];
  }
}

}  // namespace detail

// f_i += sum_points P h_i dV (the laws above), W points at a time.
template <class E, bool viscous>
struct LaneInternalForceFunctor {
  ElementGeometry<E> g;
  LanePoints<E> lp;
  CoefView q, v, f;
  bool plain = false;  // add mode, set by for_each_element (scatter_policy.hpp)
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal e) const {
    constexpr int n = E::n, W = kForceLanes;
    Real xe[n][3], ve[n][3];
    detail::gather(g, q, e, xe);
    if constexpr (viscous) detail::gather(g, v, e, ve);
    Real fl[n][3][W];
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a)
        for (int l = 0; l < W; ++l) fl[i][a][l] = 0.0;
    for (int c = 0; c < lp.nchunk; ++c) {
      const int set = c < lp.nchunk0 ? 0 : 1;
      const Real* h = &lp.H(e, c, 0, 0, 0);  // h[(3 i + m) W + l]
      const Real* w = &lp.dV(e, c, 0);
      // F[3a + m][l] = sum_i x_ia h_im (i ascending, as frame_F).
      Real F[9][W], Fd[9][W];
      for (int k = 0; k < 9; ++k)
        for (int l = 0; l < W; ++l) F[k][l] = Fd[k][l] = 0.0;
      for (int i = 0; i < n; ++i)
        for (int a = 0; a < 3; ++a)
          for (int m = 0; m < 3; ++m) {
            const Real x = xe[i][a];
            const Real* him = h + (3 * i + m) * W;
            for (int l = 0; l < W; ++l) F[3 * a + m][l] += x * him[l];
            if constexpr (viscous) {
              const Real y = ve[i][a];
              for (int l = 0; l < W; ++l) Fd[3 * a + m][l] += y * him[l];
            }
          }
      // E = (H + H^T + H^T H) / 2, H = F - I (StVenantKirchhoff::green_lagrange_strain).
      Real Eg[9][W], S[9][W];
      for (int l = 0; l < W; ++l) {
        Real Hd[9];
        for (int k = 0; k < 9; ++k) Hd[k] = F[k][l];
        Hd[0] -= 1.0;
        Hd[4] -= 1.0;
        Hd[8] -= 1.0;
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) {
            const Real hth = Hd[r] * Hd[s] + Hd[3 + r] * Hd[3 + s] + Hd[6 + r] * Hd[6 + s];
            Eg[3 * r + s][l] = 0.5 * (Hd[3 * r + s] + Hd[3 * s + r] + hth);
          }
      }
      for (int k = 0; k < 9; ++k)
        for (int l = 0; l < W; ++l) S[k][l] = 0.0;
      detail::lane_split_stress(lp.el[set], Eg, S);
      if constexpr (viscous) {
        // Edot = sym(F^T Fdot) (strain_rate).
        Real Ed[9][W];
        for (int l = 0; l < W; ++l)
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s) {
              const Real ars =
                  F[r][l] * Fd[s][l] + F[3 + r][l] * Fd[3 + s][l] + F[6 + r][l] * Fd[6 + s][l];
              const Real asr =
                  F[s][l] * Fd[r][l] + F[3 + s][l] * Fd[3 + r][l] + F[6 + s][l] * Fd[6 + r][l];
              Ed[3 * r + s][l] = 0.5 * (ars + asr);
            }
        detail::lane_split_stress(lp.vi[set], Ed, S);
      }
      // P = dV F S; f_i += P h_i.
      Real P[9][W];
      for (int a = 0; a < 3; ++a)
        for (int m = 0; m < 3; ++m)
          for (int l = 0; l < W; ++l)
            P[3 * a + m][l] = w[l] * (F[3 * a][l] * S[m][l] + F[3 * a + 1][l] * S[3 + m][l] +
                                      F[3 * a + 2][l] * S[6 + m][l]);
      for (int i = 0; i < n; ++i) {
        const Real* hi = h + 3 * i * W;
        for (int a = 0; a < 3; ++a)
          for (int l = 0; l < W; ++l)
            fl[i][a][l] +=
                P[3 * a][l] * hi[l] + P[3 * a + 1][l] * hi[W + l] + P[3 * a + 2][l] * hi[2 * W + l];
      }
    }
    for (int i = 0; i < n; ++i) {
      const Ordinal cf = g.conn(e, i);
      for (int a = 0; a < 3; ++a) {
        Real sum = 0.0;
        for (int l = 0; l < W; ++l) sum += fl[i][a][l];
        scatter_add(plain, f(cf, a), sum);
      }
    }
  }
};

}  // namespace tlfea
