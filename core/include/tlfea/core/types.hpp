// TLFEA: Kokkos aliases shared by every layer.
#pragma once

#include <Kokkos_Core.hpp>

namespace tlfea {

// Device math (sqrt, fabs, cbrt, ...): Kokkos::Experimental before 3.7.
#if KOKKOS_VERSION >= 30700
namespace kmath = ::Kokkos;
#else
namespace kmath = ::Kokkos::Experimental;
#endif

using Real = double;
using Ordinal = int;  // coefficient, element and matrix row/column indices
using Offset = int;   // CRS value offsets (checked against overflow when built)

using ExecSpace = Kokkos::DefaultExecutionSpace;
using MemSpace = ExecSpace::memory_space;
using DeviceType = Kokkos::Device<ExecSpace, MemSpace>;
using HostExecSpace = Kokkos::DefaultHostExecutionSpace;
using HostSpace = Kokkos::HostSpace;

template <class DataType>
using DeviceView = Kokkos::View<DataType, DeviceType>;
template <class DataType>
using HostView = Kokkos::View<DataType, Kokkos::HostSpace>;

// Stack of coefficient vectors (positions, position gradients, velocities,
// forces): one row per coefficient, 3 scalars each. LayoutRight on every
// backend, so the data is also the flat vector (3 c + a) that the Newton
// matrix's rows and columns index.
using CoefView = Kokkos::View<Real* [3], Kokkos::LayoutRight, DeviceType>;
using CoefViewHost = CoefView::HostMirror;

}  // namespace tlfea
