// TLFEA: the one place where data crosses between host and device memory.
//
// Kokkos::deep_copy between memory spaces is a plain memcpy, so it needs both
// views contiguous and laid out alike. A device view's default layout is
// LayoutLeft on CUDA and LayoutRight on the CPU backends, and a row of a 2-D
// LayoutLeft view is strided; a copy that works on the CPU (where the "device"
// is the host) then has "no available copy mechanism" on a GPU. The helpers
// below make such a copy impossible to write:
// - host_mirror(d) and to_host(d) make the host array from the device view's
//   own type (same data type, same layout), so nothing else can be copied;
// - to_host(d) first gathers a non-contiguous view (a row of a LayoutLeft
//   view, a strided subview) into a contiguous view of its own memory space,
//   then copies across;
// - copy_to_device / copy_to_host check at compile time that the two arrays
//   have one data type and one layout and at run time that both are
//   contiguous, so a host array of another layout does not compile;
// - host_view(d) reads d on the host without a copy where d is host memory;
// - device_copy is for copies within one memory space (any layouts: Kokkos
//   runs a kernel there), and fill for setting every entry to one value.
// Host synchronisations (host_sync.hpp): to_host, copy_to_host and
// copy_to_device each wait for the device (Kokkos fences around a copy
// without an execution-space instance); device_copy and fill do not: they
// run on the view's execution-space instance, ordered with the kernels
// launched there, so a Newton iteration can copy and clear device arrays
// without stalling the launch queue.
// Library code copies only through these (tests/lint/check_host_device.cmake
// fails the build's tests on a Kokkos::deep_copy or create_mirror elsewhere).
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tlfea/core/host_sync.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

namespace host_device_detail {

// The contiguous layout a copy of V is made in: V's own layout, or, for a
// strided view, the default layout of V's memory space.
template <class V>
using ContiguousLayout = typename std::conditional<
    std::is_same<typename V::array_layout, Kokkos::LayoutStride>::value,
    typename Kokkos::View<typename V::non_const_data_type, typename V::memory_space>::array_layout,
    typename V::array_layout>::type;

// A contiguous, managed view of V's data type in V's memory space.
template <class V>
using Contiguous =
    Kokkos::View<typename V::non_const_data_type, ContiguousLayout<V>, typename V::memory_space>;

// True when two views can be copied between memory spaces: one data type and
// one layout (a 1-D array is laid out alike in LayoutLeft and LayoutRight).
template <class A, class B>
struct SameArrangement
    : std::integral_constant<
          bool,
          std::is_same<typename A::non_const_data_type, typename B::non_const_data_type>::value &&
              !std::is_same<typename A::array_layout, Kokkos::LayoutStride>::value &&
              !std::is_same<typename B::array_layout, Kokkos::LayoutStride>::value &&
              (std::is_same<typename A::array_layout, typename B::array_layout>::value ||
               (A::rank == 1 && B::rank == 1))> {};

template <class A, class B>
void check_contiguous(const A& a, const B& b, const char* what) {
  if (!a.span_is_contiguous() || !b.span_is_contiguous() || a.span() != b.span())
    throw std::logic_error(std::string("tlfea::") + what + ": '" + a.label() + "' and '" +
                           b.label() + "' are not contiguous arrays of one size");
}

// dst = src across memory spaces, D the device view's type and H the host
// array's (either may be the destination): one data type and one layout at
// compile time, both contiguous and of one size at run time.
template <class D, class H, class Dst, class Src>
void copy_across(const Dst& dst, const Src& src, const char* what) {
  static_assert(SameArrangement<D, H>::value,
                "tlfea::copy_to_device / copy_to_host: the host array must have the device "
                "view's data type and layout (make it with host_mirror(d))");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename H::memory_space>::accessible,
                "tlfea::copy_to_device / copy_to_host: the host array is not host memory");
  check_contiguous(dst, src, what);
  Kokkos::deep_copy(dst, src);
}

}  // namespace host_device_detail

// The host array type a copy of device view V arrives in.
template <class V>
using HostCopy = typename host_device_detail::Contiguous<V>::HostMirror;

// An uninitialised host array of d's type and layout (d itself when d is
// already host memory of a contiguous layout), to be filled and sent with
// copy_to_device.
template <class V>
typename V::HostMirror host_mirror(const V& d) {
  static_assert(!std::is_same<typename V::array_layout, Kokkos::LayoutStride>::value,
                "tlfea::host_mirror: a strided view has no contiguous mirror; use to_host");
  return Kokkos::create_mirror_view(d);
}

// A filled host copy of d: d's data type, d's layout (for a strided d, the
// default layout of d's memory space). Contiguity is decided at run time (a
// LayoutLeft range subview may be strided too). Always a new array, also on
// the CPU backends, so writing to it never changes d.
template <class V>
HostCopy<V> to_host(const V& d) {
  using C = host_device_detail::Contiguous<V>;
  const typename C::array_layout layout(d.extent(0), d.extent(1), d.extent(2), d.extent(3),
                                        d.extent(4), d.extent(5), d.extent(6), d.extent(7));
  HostCopy<V> h(Kokkos::view_alloc(std::string(d.label()) + "_host", Kokkos::WithoutInitializing),
                layout);
  constexpr bool strided = std::is_same<typename V::array_layout, Kokkos::LayoutStride>::value;
  if (!strided && d.span_is_contiguous()) {
    Kokkos::deep_copy(h, d);  // one data type, one layout, both contiguous: a memcpy
    return h;
  }
  // Gather into a contiguous array of d's own memory space (a kernel there),
  // then one memcpy across.
  C c(Kokkos::view_alloc(std::string(d.label()) + "_contiguous", Kokkos::WithoutInitializing),
      layout);
  {
    host_sync_detail::Asynchronous gather;  // within d's memory space: no wait
    Kokkos::deep_copy(typename V::execution_space(), c, d);
  }
  Kokkos::deep_copy(h, c);
  return h;
}

// Read-only host access to d's values: d itself where d's memory is host
// memory (the CPU backends: no copy, no allocation), else a new host copy.
// For reading large arrays on the host (the Newton matrix pattern at setup),
// where to_host's copy would double their memory on the CPU backends. The
// result is a const view: use to_host for an array to modify.
template <class V>
auto host_view(const V& d) {
  static_assert(!std::is_same<typename V::array_layout, Kokkos::LayoutStride>::value,
                "tlfea::host_view: a strided view has no contiguous host image; use to_host");
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  return typename decltype(h)::const_type(h);
}

// Device view d filled from host array h, which must have d's data type and
// layout (host_mirror(d), to_host(d), or a host array declared alike).
template <class D, class H>
void copy_to_device(const D& d, const H& h) {
  host_device_detail::copy_across<D, H>(d, h, "copy_to_device");
}

// 1-D device view d filled from a host vector of its size.
template <class D>
void copy_to_device(const D& d, const std::vector<typename D::non_const_value_type>& h) {
  static_assert(D::rank == 1, "tlfea::copy_to_device: a vector fills a 1-D view only");
  using Unmanaged = Kokkos::View<const typename D::non_const_value_type*, Kokkos::HostSpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Unmanaged u(h.data(), h.size());
  host_device_detail::check_contiguous(d, u, "copy_to_device");
  Kokkos::deep_copy(d, u);
}

// Host array h filled from device view d (same data type and layout, both
// contiguous): the counterpart of copy_to_device for a host array kept
// between copies.
template <class H, class D>
void copy_to_host(const H& h, const D& d) {
  host_device_detail::copy_across<D, H>(h, d, "copy_to_host");
}

// A copy between two views of one memory space (a kernel of that space, so
// the layouts may differ), on dst's execution-space instance: ordered after
// the kernels launched before it and before those launched after, with no
// host synchronisation.
template <class D, class S>
void device_copy(const D& dst, const S& src) {
  static_assert(std::is_same<typename D::memory_space, typename S::memory_space>::value,
                "tlfea::device_copy: the views are in different memory spaces; use "
                "to_host / copy_to_device");
  host_sync_detail::Asynchronous quiet;
  Kokkos::deep_copy(typename D::execution_space(), dst, src);
}

// Every entry of v set to x (on v's execution-space instance, like
// device_copy).
template <class V>
void fill(const V& v, const typename V::non_const_value_type& x) {
  host_sync_detail::Asynchronous quiet;
  Kokkos::deep_copy(typename V::execution_space(), v, x);
}

// A new device view labelled `label` holding a copy of h (an empty h gives an
// empty view).
template <class T>
DeviceView<T*> upload_to_device(const std::string& label, const std::vector<T>& h) {
  DeviceView<T*> d(label, h.size());
  copy_to_device(d, h);
  return d;
}

}  // namespace tlfea
