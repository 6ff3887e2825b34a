// TLFEA: point-lane internal force of the ANCF 3443 shell with St.
// Venant-Kirchhoff laws (plain and Kelvin-Voigt; Poisson split on or off),
// the Lanes loop shape (scatter_policy.hpp KernelShape), docs/theory.md §3.13.
//
// The range loop (range_kernels.hpp) evaluates one quadrature point at a
// time: about 340 multiply-adds per point (F = sum_i x_i (x) h_i, 144;
// f_i += P h_i, 144; E, S, P), each a short dependency chain the compiler
// cannot vectorise. Here W points are evaluated side by side ("lanes"): the
// gradients are stored point-minor, HL(e, chunk, i, m, l) = h_i,m at point
// chunk * W + l, and the point law (point_law_core.hpp, the same code the
// range and team loops run on doubles) runs on packs of W values, so every
// operation is a loop over the W lanes with unit stride, which the compiler
// turns into SIMD instructions (SSE2: 2 lanes per instruction, AVX2: 4,
// AVX-512: 8; lane_force_core.hpp is compiled for each and picked at run
// time, lane_force_dispatch.hpp). Each lane keeps its own force sums, added
// once per element; only the order of the sum over points differs from the
// other shapes (and AVX2 / AVX-512 fuse multiply-adds)
// (tests/elements/test_kernel_shapes.cpp).
//
// SVK unsplit: (a, b, c, p) = (lambda, mu, 0, 0) on the 4x4x2 rule; split:
// D0 = (0, mu, 0, lambda*) on the 4x4x2 rule and Dv = (lambda, 0, 0,
// -lambda*) on the 4x4 mid-surface points (shell_split_from_lame).
//
// Host execution spaces only; device spaces run the range and team loops,
// whose per-thread state this loop would exceed. Every point set fills whole
// chunks (the shell's 32 and 16 points).
#pragma once

#include <type_traits>

#include "tlfea/core/host_device.hpp"
#include "tlfea/elements/lane_force_core.hpp"
#include "tlfea/elements/poisson_split.hpp"

namespace tlfea {

inline constexpr int kForceLanes = lane::kLanes;
static_assert(std::is_same_v<Real, double>, "the lane force core is written for double");

// The point-lane data of one block: gradients, weights and, per chunk, the
// law set (0: full rule, 1: split mid-surface).
template <class E>
struct LanePoints {
  DeviceView<Real* * [E::n][3][kForceLanes]> H;  // (e, chunk, i, m, lane)
  DeviceView<Real** [kForceLanes]> dV;           // (e, chunk, lane)
  int nchunk = 0;                                // chunks per element
  int nchunk0 = 0;                               // chunks < nchunk0: law set 0
  lane::Law el[2], vi[2];                        // elastic / viscous laws per set
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
  auto hH = host_mirror(lp.H);
  auto hdV = host_mirror(lp.dV);
  for (int s = 0; s < nsets; ++s) {
    auto Hs = to_host(H[s]);
    auto dVs = to_host(dV[s]);
    const int c0 = s == 0 ? 0 : chunks[0];
    for (Ordinal e = 0; e < ne; ++e)
      for (int p = 0; p < np[s]; ++p) {
        const int c = c0 + p / W, l = p % W;
        hdV(e, c, l) = dVs(e, p);
        for (int i = 0; i < E::n; ++i)
          for (int m = 0; m < 3; ++m) hH(e, c, i, m, l) = Hs(e, p, i, m);
      }
  }
  copy_to_device(lp.H, hH);
  copy_to_device(lp.dV, hdV);
  return lp;
}

// f_i += sum_points P h_i dV (lane_force_core.hpp), W points at a time, by
// the build of the core chosen for this CPU (lane_force_dispatch.hpp). Host
// execution spaces only: operator() calls through a host function pointer.
template <class E, bool viscous>
struct LaneInternalForceFunctor {
  ElementGeometry<E> g;
  LanePoints<E> lp;
  CoefView q, v, f;
  lane::ElementForceFn core = nullptr;
  bool plain = false;  // add mode, set by for_each_element (scatter_policy.hpp)
  void operator()(const Ordinal e) const {
    constexpr int n = E::n;
    Real xe[n][3], ve[n][3], fe[n][3];
    detail::gather(g, q, e, xe);
    if constexpr (viscous) detail::gather(g, v, e, ve);
    core(&xe[0][0], &ve[0][0], &lp.H(e, 0, 0, 0, 0), &lp.dV(e, 0, 0), lp.nchunk, lp.nchunk0, lp.el,
         lp.vi, &fe[0][0]);
    for (int i = 0; i < n; ++i) {
      const Ordinal cf = g.conn(e, i);
      for (int a = 0; a < 3; ++a) scatter_add(plain, f(cf, a), fe[i][a]);
    }
  }
};

}  // namespace tlfea
