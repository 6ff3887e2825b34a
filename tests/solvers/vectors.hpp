// Host <-> device vector copies, a host CRS product and the relative 2-norm
// difference shared by the linear-solver tests.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "tlfea/core/types.hpp"

namespace tlfea {
namespace test {

inline DeviceView<Real*> to_device(const std::vector<Real>& v, const char* label) {
  DeviceView<Real*> d(std::string(label), v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

inline std::vector<Real> to_host(const DeviceView<Real*>& d) {
  auto h = Kokkos::create_mirror_view_and_copy(HostSpace(), d);
  return std::vector<Real>(h.data(), h.data() + h.extent(0));
}

// y = A x on host CRS arrays (row_map, entries, values): the independent
// product the tests form right-hand sides with.
inline std::vector<Real> crs_matvec(const HostView<Offset*>& row_map,
                                    const HostView<Ordinal*>& entries,
                                    const std::vector<Real>& values, const std::vector<Real>& x) {
  const Ordinal n = static_cast<Ordinal>(row_map.extent(0)) - 1;
  std::vector<Real> y(n, 0.0);
  for (Ordinal r = 0; r < n; ++r)
    for (Offset q = row_map(r); q < row_map(r + 1); ++q) y[r] += values[q] * x[entries(q)];
  return y;
}

// |a - b|_2 / |b|_2
inline Real relative_difference(const std::vector<Real>& a, const std::vector<Real>& b) {
  Real num = 0, den = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

}  // namespace test
}  // namespace tlfea
