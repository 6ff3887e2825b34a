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

// The default strategy (measured on the OpenMP build, README "Known limits"):
//  - one thread (Serial, OMP_NUM_THREADS=1): Plain, 25-35% faster than
//    atomics for the T10 tangent, and the sums run in element order;
//  - several host threads: Atomic; one fork/join per colour (78 colours for
//    the B1 res 16 T10 mesh) was slower on 2 threads (tangent 0.62 s vs
//    0.24 s);
//  - GPU memory spaces: Atomic (native double atomics from sm_60; one small
//    kernel per colour otherwise). Not measured on a GPU.
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

// Loops over load items (point loads, loaded faces), several of which may hit
// one element: no colouring, so Coloured scatters with atomics.
template <class F>
void for_each_load(const char* label, ScatterPolicy policy, Ordinal n, F fn) {
  fn.plain = policy == ScatterPolicy::Plain;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, n), fn);
}

}  // namespace tlfea
