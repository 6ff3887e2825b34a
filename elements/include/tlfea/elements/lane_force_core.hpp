// TLFEA: the arithmetic of the point-lane internal force of one ANCF 3443
// element (docs/theory.md §3.13; the loop around it is lane_kernels.hpp).
//
// W = kLanes quadrature points are evaluated side by side: the gradients are
// stored point-minor, H[((c n + i) 3 + m) W + l] = h_i,m at point c W + l of
// the element, so every operation of a point is a loop over the W lanes with
// unit stride, which the compiler turns into SIMD instructions. Per point:
//   F = sum_i x_i (x) h_i                        (i ascending, as frame_F)
//   E = (H + H^T + H^T H) / 2,  H = F - I        (Green-Lagrange)
//   S = a tr(E) I + 2 b E + c diag(E) + p (E_11 + E_22) diag(1, 1, 0)
//       [+ the same form of the viscous law in Edot = sym(F^T Fdot)]
//   P = dV F S,   f_i += P h_i
// (poisson_split.hpp add_split_stress; the law set of chunk c is 0 for c <
// nchunk0, else 1). Each lane keeps its own force sums, added in lane order
// at the end.
//
// This header is compiled once per instruction set (elements/src/isa/): the
// same source built for SSE2 (the compiler's default), AVX2 + FMA and
// AVX-512, chosen at run time by lane_force_dispatch.hpp. Each build
// instantiates the templates below with its own Isa tag, so the symbols of
// the three builds are distinct and the linker cannot mix them; the header
// includes nothing, so a wide-instruction translation unit holds no inline
// library code and no static initialiser that could run on a CPU without
// those instructions.
#pragma once

namespace tlfea::lane {

// Lanes per chunk: 8 doubles fill one AVX-512 register or two AVX2 ones.
inline constexpr int kLanes = 8;

// One split law (poisson_split.hpp SplitLaw, the same four coefficients).
struct Law {
  double a = 0.0, b = 0.0, c = 0.0, p = 0.0;
};

// fe (n x 3, overwritten) = the internal force of one element: xe, ve its
// coefficients and coefficient rates (n x 3 row-major; ve unused when the
// law is elastic), H and dV its nchunk chunks of gradients and weights.
using ElementForceFn = void (*)(const double* xe, const double* ve, const double* H,
                                const double* dV, int nchunk, int nchunk0, const Law* el,
                                const Law* vi, double* fe);

// Instruction-set tags (declared only; one per build of this header).
struct Generic;
struct Avx2;
struct Avx512;

// S += the split law applied to E (row-major 3 x 3 per lane).
template <class Isa>
inline void split_stress(const Law& law, const double (&E)[9][kLanes], double (&S)[9][kLanes]) {
  constexpr int W = kLanes;
  const double b2 = 2.0 * law.b;
  for (int k = 0; k < 9; ++k)
    for (int l = 0; l < W; ++l) S[k][l] += b2 * E[k][l];
  for (int l = 0; l < W; ++l) {
    const double at = law.a * (E[0][l] + E[4][l] + E[8][l]);
    const double pt = law.p * (E[0][l] + E[4][l]);
    S[0][l] += at + law.c * E[0][l] + pt;
    S[4][l] += at + law.c * E[4][l] + pt;
    S[8][l] += at + law.c * E[8][l];
  }
}

template <class Isa, int n, bool viscous>
void element_force(const double* xe, const double* ve, const double* H, const double* dV,
                   int nchunk, int nchunk0, const Law* el, const Law* vi, double* fe) {
  constexpr int W = kLanes;
  double fl[n][3][W];
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a)
      for (int l = 0; l < W; ++l) fl[i][a][l] = 0.0;
  for (int c = 0; c < nchunk; ++c) {
    const int set = c < nchunk0 ? 0 : 1;
    const double* h = H + c * (n * 3 * W);  // h[(3 i + m) W + l]
    const double* w = dV + c * W;
    // F[3a + m][l] = sum_i x_ia h_im.
    double F[9][W], Fd[9][W];
    for (int k = 0; k < 9; ++k)
      for (int l = 0; l < W; ++l) F[k][l] = Fd[k][l] = 0.0;
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a)
        for (int m = 0; m < 3; ++m) {
          const double x = xe[3 * i + a];
          const double* him = h + (3 * i + m) * W;
          for (int l = 0; l < W; ++l) F[3 * a + m][l] += x * him[l];
          if constexpr (viscous) {
            const double y = ve[3 * i + a];
            for (int l = 0; l < W; ++l) Fd[3 * a + m][l] += y * him[l];
          }
        }
    // E = (H + H^T + H^T H) / 2, H = F - I (StVenantKirchhoff::green_lagrange_strain).
    double Eg[9][W], S[9][W];
    for (int l = 0; l < W; ++l) {
      double Hd[9];
      for (int k = 0; k < 9; ++k) Hd[k] = F[k][l];
      Hd[0] -= 1.0;
      Hd[4] -= 1.0;
      Hd[8] -= 1.0;
      for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 3; ++s) {
          const double hth = Hd[r] * Hd[s] + Hd[3 + r] * Hd[3 + s] + Hd[6 + r] * Hd[6 + s];
          Eg[3 * r + s][l] = 0.5 * (Hd[3 * r + s] + Hd[3 * s + r] + hth);
        }
    }
    for (int k = 0; k < 9; ++k)
      for (int l = 0; l < W; ++l) S[k][l] = 0.0;
    split_stress<Isa>(el[set], Eg, S);
    if constexpr (viscous) {
      // Edot = sym(F^T Fdot) (strain_rate).
      double Ed[9][W];
      for (int l = 0; l < W; ++l)
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) {
            const double ars =
                F[r][l] * Fd[s][l] + F[3 + r][l] * Fd[3 + s][l] + F[6 + r][l] * Fd[6 + s][l];
            const double asr =
                F[s][l] * Fd[r][l] + F[3 + s][l] * Fd[3 + r][l] + F[6 + s][l] * Fd[6 + r][l];
            Ed[3 * r + s][l] = 0.5 * (ars + asr);
          }
      split_stress<Isa>(vi[set], Ed, S);
    }
    // P = dV F S; f_i += P h_i.
    double P[9][W];
    for (int a = 0; a < 3; ++a)
      for (int m = 0; m < 3; ++m)
        for (int l = 0; l < W; ++l)
          P[3 * a + m][l] = w[l] * (F[3 * a][l] * S[m][l] + F[3 * a + 1][l] * S[3 + m][l] +
                                    F[3 * a + 2][l] * S[6 + m][l]);
    for (int i = 0; i < n; ++i) {
      const double* hi = h + 3 * i * W;
      for (int a = 0; a < 3; ++a)
        for (int l = 0; l < W; ++l)
          fl[i][a][l] +=
              P[3 * a][l] * hi[l] + P[3 * a + 1][l] * hi[W + l] + P[3 * a + 2][l] * hi[2 * W + l];
    }
  }
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      double sum = 0.0;
      for (int l = 0; l < W; ++l) sum += fl[i][a][l];
      fe[3 * i + a] = sum;
    }
}

}  // namespace tlfea::lane
