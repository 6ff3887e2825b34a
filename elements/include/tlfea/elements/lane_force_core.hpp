// TLFEA: the point-lane internal force of one ANCF 3443 element
// (docs/theory.md §3.13; the loop around it is lane_kernels.hpp).
//
// W = kLanes quadrature points are evaluated side by side: the gradients are
// stored point-minor, H[((c n + i) 3 + m) W + l] = h_i,m at point c W + l of
// the element, and every quantity of a point is a Pack of W values, so every
// operation is a loop over the W lanes with unit stride, which the compiler
// turns into SIMD instructions. The point law (F, E, Edot, the split law S,
// P = F S) is point_law_core.hpp's, the same code the range and team loops
// run on doubles, here on packs; then P = dV P and f_i += P h_i, each lane
// keeping its own force sums, added in lane order at the end (the law set of
// chunk c is 0 for c < nchunk0, else 1).
//
// This header is compiled once per instruction set (elements/src/isa/): the
// same source built for SSE2 (the compiler's default), AVX2 + FMA and
// AVX-512, chosen at run time by lane_force_dispatch.hpp. Each build
// instantiates the templates below with its own Isa tag (and its own Pack
// type), so the symbols of the three builds are distinct and the linker
// cannot mix them; in those builds (TLFEA_LANE_ISA_BUILD) the headers hold no
// inline library code and no static initialiser that could run on a CPU
// without those instructions.
#pragma once

#include "tlfea/elements/point_law_core.hpp"

namespace tlfea::lane {

// Lanes per chunk: 8 doubles fill one AVX-512 register or two AVX2 ones.
inline constexpr int kLanes = 8;

// One split law (point_law_core.hpp).
using Law = SplitLaw;

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

// The arithmetic below is compiled only in the per-instruction-set units
// (elements/src/isa/); the rest of the library needs the declarations above.
#ifdef TLFEA_LANE_ISA_BUILD

// W values of one quantity, one per lane; element-wise arithmetic (hidden
// friends, so a double converts to a pack with every lane equal). With GCC
// and Clang the values are a vector-extension type, which the compiler keeps
// in SIMD registers (W / 2 SSE2, W / 4 AVX2 or one AVX-512 register) instead
// of going through the stack as it does for a struct holding an array.
#if defined(__GNUC__)
typedef double LaneVector __attribute__((vector_size(kLanes * sizeof(double))));
#endif
template <class Isa>
struct Pack {
#if defined(__GNUC__)
  LaneVector v;
  Pack() = default;
  TLFEA_POINT_FUNCTION Pack(double x) : v(LaneVector{} + x) {}  // NOLINT: broadcast
  TLFEA_POINT_FUNCTION static Pack load(const double* p) {
    Pack r;
    __builtin_memcpy(&r.v, p, sizeof r.v);
    return r;
  }
  TLFEA_POINT_FUNCTION double lane(int l) const { return v[l]; }
  TLFEA_POINT_FUNCTION friend Pack operator+(const Pack& x, const Pack& y) {
    Pack r;
    r.v = x.v + y.v;
    return r;
  }
  TLFEA_POINT_FUNCTION friend Pack operator-(const Pack& x, const Pack& y) {
    Pack r;
    r.v = x.v - y.v;
    return r;
  }
  TLFEA_POINT_FUNCTION friend Pack operator*(const Pack& x, const Pack& y) {
    Pack r;
    r.v = x.v * y.v;
    return r;
  }
#else
  double v[kLanes];
  Pack() = default;
  TLFEA_POINT_FUNCTION Pack(double x) {  // NOLINT: implicit, a scalar broadcast to every lane
    for (int l = 0; l < kLanes; ++l) v[l] = x;
  }
  TLFEA_POINT_FUNCTION static Pack load(const double* p) {
    Pack r;
    for (int l = 0; l < kLanes; ++l) r.v[l] = p[l];
    return r;
  }
  TLFEA_POINT_FUNCTION double lane(int l) const { return v[l]; }
  TLFEA_POINT_FUNCTION friend Pack operator+(const Pack& x, const Pack& y) {
    Pack r;
    for (int l = 0; l < kLanes; ++l) r.v[l] = x.v[l] + y.v[l];
    return r;
  }
  TLFEA_POINT_FUNCTION friend Pack operator-(const Pack& x, const Pack& y) {
    Pack r;
    for (int l = 0; l < kLanes; ++l) r.v[l] = x.v[l] - y.v[l];
    return r;
  }
  TLFEA_POINT_FUNCTION friend Pack operator*(const Pack& x, const Pack& y) {
    Pack r;
    for (int l = 0; l < kLanes; ++l) r.v[l] = x.v[l] * y.v[l];
    return r;
  }
#endif
};

template <class Isa, int n, bool viscous>
void element_force(const double* xe, const double* ve, const double* H, const double* dV,
                   int nchunk, int nchunk0, const Law* el, const Law* vi, double* fe) {
  constexpr int W = kLanes;
  using P = Pack<Isa>;
  P fl[n][3];
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) fl[i][a] = P(0.0);
  for (int c = 0; c < nchunk; ++c) {
    const int set = c < nchunk0 ? 0 : 1;
    const double* h = H + c * (n * 3 * W);  // h[(3 i + m) W + l]
    const auto grad = [h](int i, int m) { return P::load(h + (3 * i + m) * W); };
    P F[9], Fd[9], S[9], Pk[9];
    point::deformation_gradient<n>([xe](int i, int a) { return xe[3 * i + a]; }, grad, F);
    if constexpr (viscous)
      point::deformation_gradient<n>([ve](int i, int a) { return ve[3 * i + a]; }, grad, Fd);
    point::split_first_piola<viscous>(el[set], vi[set], F, Fd, S, Pk);
    // P = dV F S; f_i += P h_i.
    const P w = P::load(dV + c * W);
    for (int k = 0; k < 9; ++k) Pk[k] = w * Pk[k];
    for (int i = 0; i < n; ++i) {
      const P h0 = grad(i, 0), h1 = grad(i, 1), h2 = grad(i, 2);
      for (int a = 0; a < 3; ++a)
        fl[i][a] = fl[i][a] + (Pk[3 * a] * h0 + Pk[3 * a + 1] * h1 + Pk[3 * a + 2] * h2);
    }
  }
  for (int i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      double sum = 0.0;
      for (int l = 0; l < W; ++l) sum += fl[i][a].lane(l);
      fe[3 * i + a] = sum;
    }
}

#endif  // TLFEA_LANE_ISA_BUILD

}  // namespace tlfea::lane
