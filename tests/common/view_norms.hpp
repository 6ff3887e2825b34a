// Host-side max norms of coefficient views for the dynamics and contact
// tests: the largest |component| of a view, and of the difference of two.
#pragma once

#include <algorithm>
#include <cmath>

#include "tlfea/core/types.hpp"

namespace tlfea::test {

// max_k,c |a(k, c) - b(k, c)| (views of equal extent).
inline Real max_abs_diff(const CoefView& a, const CoefView& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  Real m = 0.0;
  for (size_t k = 0; k < ha.extent(0); ++k)
    for (int c = 0; c < 3; ++c) m = std::max(m, std::fabs(ha(k, c) - hb(k, c)));
  return m;
}

// max_k,c |a(k, c)|.
inline Real max_abs(const CoefView& a) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  Real m = 0.0;
  for (size_t k = 0; k < ha.extent(0); ++k)
    for (int c = 0; c < 3; ++c) m = std::max(m, std::fabs(ha(k, c)));
  return m;
}

}  // namespace tlfea::test
