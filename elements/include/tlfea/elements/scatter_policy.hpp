// TLFEA: how element loops add their element vectors and matrices into shared
// coefficients (the scatter), chosen in one place per execution space, and the
// launch helpers that run a loop for the chosen strategy.
#pragma once

#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

// Plain:    one launch, dst += val (race-free only with one thread).
// Atomic:   one launch, Kokkos::atomic_add.
// Coloured: one launch per colour of the block's element colouring with plain
//           adds (no two elements of a colour share a coefficient; launches
//           on one execution space run in order).
enum class ScatterPolicy { Plain, Atomic, Coloured };

inline const char* to_string(ScatterPolicy p) {
  switch (p) {
    case ScatterPolicy::Plain:
      return "plain";
    case ScatterPolicy::Atomic:
      return "atomic";
    case ScatterPolicy::Coloured:
      return "coloured";
  }
  return "?";
}

// The default strategy (timings: docs/benchmarks.md, "Element scatter"):
//  - one thread (Serial, OMP_NUM_THREADS=1): Plain, cheaper than atomics,
//    and the sums run in element order;
//  - several host threads: Atomic; one fork/join per colour (78 colours for
//    the B1 res 16 T10 mesh) costs more than the atomics it saves;
//  - GPU memory spaces: Atomic (native double atomics from sm_60; one small
//    kernel per colour otherwise).
constexpr ScatterPolicy default_scatter_policy(bool device_space, int concurrency) {
  if (device_space) return ScatterPolicy::Atomic;
  return concurrency <= 1 ? ScatterPolicy::Plain : ScatterPolicy::Atomic;
}
template <class Space>
ScatterPolicy default_scatter_policy_for(const Space& space = Space()) {
  constexpr bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  return default_scatter_policy(device, space.concurrency());
}

// Plain adds race as soon as two threads run one launch.
inline void check_scatter_policy(ScatterPolicy p, int concurrency) {
  if (p == ScatterPolicy::Plain && concurrency > 1)
    throw_error("scatter policy 'plain' needs a one-thread execution space (concurrency ",
                concurrency, ")");
}

// dst += val with the add mode the launch helper chose: plain when the launch
// cannot race (one thread, or one colour), atomic otherwise.
KOKKOS_INLINE_FUNCTION void scatter_add(bool plain, Real& dst, Real val) {
  if (plain)
    dst += val;
  else
    Kokkos::atomic_add(&dst, val);
}

// Element colouring of a block: the elements grouped so that no two elements
// of one colour share a coefficient. Colour c is elements[offsets[c],
// offsets[c + 1]) (ascending element ids); every element is in exactly one
// colour. Built on the host once per topology.
struct ElementColouring {
  DeviceView<Ordinal*> elements;
  std::vector<Ordinal> offsets{0};  // host, num_colours() + 1 entries
  int num_colours() const { return static_cast<int>(offsets.size()) - 1; }
};
// Greedy colouring (first-fit in element order) of `num_elements` elements
// with `per_element` coefficient ids each, ids[e * per_element + i]
// (elements/src/element_block.cpp).
ElementColouring colour_elements(const std::vector<Ordinal>& ids, int per_element,
                                 Ordinal num_elements);

// Launch adaptor: work item k of a coloured launch is element
// list(begin + k) (one colour's slice of ElementColouring::elements).
template <class F>
struct ColouredElements {
  F fn;
  DeviceView<Ordinal*> list;
  Ordinal begin = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const { fn(list(begin + k)); }
};

// The one element-loop launch: runs fn(e) for e in [0, n) under `policy`,
// setting fn.plain (the functor's add mode, passed to scatter_add) here and
// nowhere else.
template <class F>
void for_each_element(const char* label, ScatterPolicy policy, const ElementColouring& colouring,
                      Ordinal n, F fn) {
  if (policy == ScatterPolicy::Coloured) {
    fn.plain = true;
    for (int c = 0; c < colouring.num_colours(); ++c) {
      const Ordinal b = colouring.offsets[c], e = colouring.offsets[c + 1];
      Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, e - b),
                           ColouredElements<F>{fn, colouring.elements, b});
    }
    return;
  }
  fn.plain = policy == ScatterPolicy::Plain;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, n), fn);
}

// The shape of the internal-force and tangent loops (docs/theory.md
// §3.11-3.13), each a generic driver around the point laws of
// point_laws.hpp:
// Range: one thread per element, the element matrix on the thread's stack
//        (range_kernels.hpp);
// Team:  one team per element, the per-point stress or tangent in team
//        scratch memory, one thread per output entry (team_kernels.hpp);
// Lanes: internal force only, host spaces only, the blocks that have it
//        (ANCF 3443 with St. Venant-Kirchhoff, plain or Kelvin-Voigt): one
//        thread per element, W points side by side in SIMD lanes
//        (lane_kernels.hpp).
enum class KernelShape { Range, Team, Lanes };

inline const char* to_string(KernelShape s) {
  return s == KernelShape::Team ? "team" : s == KernelShape::Lanes ? "lanes" : "range";
}

// The two element loops whose shape is chosen separately.
enum class AssemblyKernel { InternalForce, Tangent };

// One shape per assembly kernel.
struct KernelShapes {
  KernelShape internal_force = KernelShape::Range;
  KernelShape tangent = KernelShape::Range;
  constexpr KernelShape of(AssemblyKernel k) const {
    return k == AssemblyKernel::Tangent ? tangent : internal_force;
  }
  // Both kernels in one shape (tests and benchmarks force one shape).
  static constexpr KernelShapes all(KernelShape s) { return {s, s}; }
  constexpr bool operator==(const KernelShapes& o) const {
    return internal_force == o.internal_force && tangent == o.tangent;
  }
  constexpr bool operator!=(const KernelShapes& o) const { return !(*this == o); }
};

// The default shapes, chosen here and nowhere else (benchmarks/bench_kernels
// times the shapes of both kernels; docs/benchmarks.md):
// - host spaces: Range for both (the Team loops re-read the gradients once
//   per output entry), except Lanes for the internal force of the blocks
//   that have a lane loop (`lane_force`; docs/benchmarks.md);
// - GPU memory spaces: Range for the internal force (a thread keeps only the
//   n x 3 force sums of its element), Team for the tangent (the Range
//   element matrix, 52 KB for Q27, would spill to local memory).
constexpr KernelShapes default_kernel_shapes(bool device_space, bool lane_force = false) {
  return device_space ? KernelShapes{KernelShape::Range, KernelShape::Team}
                      : KernelShapes{lane_force ? KernelShape::Lanes : KernelShape::Range,
                                     KernelShape::Range};
}
template <class Space>
KernelShapes default_kernel_shapes_for(bool lane_force = false, const Space& = Space()) {
  constexpr bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;
  return default_kernel_shapes(device, lane_force);
}

// Launch adaptor of the team loops: league rank k is element k, or element
// list(begin + k) for one colour's slice of a coloured launch.
template <class F>
struct TeamElements {
  F fn;
  DeviceView<Ordinal*> list;  // empty: identity
  Ordinal begin = 0;
  bool coloured = false;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename Kokkos::TeamPolicy<ExecSpace>::member_type& m) const {
    const Ordinal k = m.league_rank();
    fn(m, coloured ? list(begin + k) : k);
  }
};

// The team policy of the element loops for `league` elements with `bytes`
// of level-0 scratch per team: team size 1 on host spaces (a team is one
// thread; the league is spread over the threads), Kokkos::AUTO on devices.
inline Kokkos::TeamPolicy<ExecSpace> element_team_policy(Ordinal league, size_t bytes) {
  constexpr bool device =
      !Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  if constexpr (device)
    return Kokkos::TeamPolicy<ExecSpace>(league, Kokkos::AUTO)
        .set_scratch_size(0, Kokkos::PerTeam(bytes));
  else
    return Kokkos::TeamPolicy<ExecSpace>(league, 1).set_scratch_size(0, Kokkos::PerTeam(bytes));
}

// for_each_element for the team loops: fn(member, e) for e in [0, n), one
// team per element, fn.scratch_reals() reals of team scratch, fn.plain set
// as in for_each_element (within a team the threads write distinct entries).
template <class F>
void for_each_element_team(const char* label, ScatterPolicy policy,
                           const ElementColouring& colouring, Ordinal n, F fn) {
  using Scratch =
      Kokkos::View<Real*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const size_t bytes = Scratch::shmem_size(fn.scratch_reals());
  if (policy == ScatterPolicy::Coloured) {
    fn.plain = true;
    for (int c = 0; c < colouring.num_colours(); ++c) {
      const Ordinal b = colouring.offsets[c], e = colouring.offsets[c + 1];
      Kokkos::parallel_for(label, element_team_policy(e - b, bytes),
                           TeamElements<F>{fn, colouring.elements, b, true});
    }
    return;
  }
  fn.plain = policy == ScatterPolicy::Plain;
  if (n == 0) return;
  Kokkos::parallel_for(label, element_team_policy(n, bytes), TeamElements<F>{fn, {}, 0, false});
}

// Loops over load items (point loads, loaded faces), several of which may hit
// one element: no colouring, so Coloured scatters with atomics.
template <class F>
void for_each_load(const char* label, ScatterPolicy policy, Ordinal n, F fn) {
  fn.plain = policy == ScatterPolicy::Plain;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, n), fn);
}

}  // namespace tlfea
