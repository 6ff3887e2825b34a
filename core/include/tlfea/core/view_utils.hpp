// TLFEA: small Kokkos view helpers shared by the layers: a host vector copied
// into a new device view, the squared 2-norm and dot-product reduction
// functors, and the flat (3 n) view of a coefficient vector.
#pragma once

#include <string>
#include <vector>

#include "tlfea/core/types.hpp"

namespace tlfea {

// A new device view labelled `label` holding a copy of h (filled through a
// host mirror, one deep_copy). An empty h gives an empty view.
template <class T>
DeviceView<T*> upload_to_device(const std::string& label, const std::vector<T>& h) {
  DeviceView<T*> d(label, h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < h.size(); ++i) m(i) = h[i];
  Kokkos::deep_copy(d, m);
  return d;
}

// Reduction functor for Kokkos::parallel_reduce over [0, c.extent(0)):
// sum_i c(i)^2 (the squared Euclidean norm; the caller takes the root).
struct SquaredNorm {
  DeviceView<Real*> c;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& sum) const { sum += c(i) * c(i); }
};

// Reduction functor over coefficients [0, x.extent(0)): sum_k x_k . y_k.
struct CoefDot {
  CoefView x, y;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k, Real& s) const {
    s += x(k, 0) * y(k, 0) + x(k, 1) * y(k, 1) + x(k, 2) * y(k, 2);
  }
};

// The 3 n scalars of a coefficient vector as one unmanaged 1-D view (the
// linear solvers' vectors).
inline DeviceView<Real*> flat(const CoefView& x) {
  return DeviceView<Real*>(x.data(), 3 * x.extent(0));
}

}  // namespace tlfea
