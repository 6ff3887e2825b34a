// TLFEA: small Kokkos view helpers shared by the layers (host <-> device
// copies are in host_device.hpp, included here): the squared 2-norm and dot-product reduction
// functors, and the flat (3 n) view of a coefficient vector.
#pragma once

#include <string>
#include <vector>

#include "tlfea/core/host_device.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

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
