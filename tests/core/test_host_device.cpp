// host_device.hpp: copies between host and device keep every value, also for
// strided views (a row of a LayoutLeft array, the layout a 2-D device view has
// on CUDA; a column of a LayoutRight one), and host arrays of another layout
// are rejected at compile time. The views here are given their layouts
// explicitly, so the strided paths run on every backend, the CPU ones too.
// Reference values: entry (i, j) is written as 100 i + j by a kernel, so the
// expected value of every copied entry is that formula.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "tlfea/core/host_device.hpp"

namespace {

using tlfea::ExecSpace;
using tlfea::MemSpace;
using tlfea::Ordinal;
using tlfea::Real;

template <class Layout>
using Device2 = Kokkos::View<Real**, Layout, MemSpace>;

// Static checks: the arrangement rule copy_to_device / copy_to_host enforce.
using tlfea::host_device_detail::SameArrangement;
static_assert(!SameArrangement<Device2<Kokkos::LayoutLeft>,
                               Kokkos::View<Real**, Kokkos::LayoutRight, Kokkos::HostSpace>>::value,
              "a LayoutRight host array must not be copied to a LayoutLeft device view");
static_assert(
    SameArrangement<Device2<Kokkos::LayoutLeft>, Device2<Kokkos::LayoutLeft>::HostMirror>::value,
    "a device view's own mirror is copyable");
static_assert(SameArrangement<Kokkos::View<Real*, Kokkos::LayoutLeft, MemSpace>,
                              Kokkos::View<Real*, Kokkos::LayoutRight, Kokkos::HostSpace>>::value,
              "1-D arrays are laid out alike in either layout");
static_assert(!SameArrangement<Kokkos::View<Real*, Kokkos::LayoutStride, MemSpace>,
                               Kokkos::View<Real*, Kokkos::HostSpace>>::value,
              "a strided view is never copied across directly");

template <class Layout>
Device2<Layout> numbered(Ordinal rows, Ordinal cols) {
  Device2<Layout> v("tlfea::test::numbered", rows, cols);
  Kokkos::parallel_for(
      "tlfea::test::number", Kokkos::RangePolicy<ExecSpace>(0, rows), KOKKOS_LAMBDA(const int i) {
        for (int j = 0; j < cols; ++j) v(i, j) = 100.0 * i + j;
      });
  return v;
}

TEST(HostDevice, RowOfALayoutLeftArrayIsStridedAndCopiesEveryValue) {
  const auto v = numbered<Kokkos::LayoutLeft>(7, 5);
  const auto row = Kokkos::subview(v, 3, Kokkos::ALL());
  ASSERT_EQ(row.stride(0), 7u);  // strided: the case a plain deep_copy cannot copy across
  const auto h = tlfea::to_host(row);
  ASSERT_EQ(h.extent(0), 5u);
  for (int j = 0; j < 5; ++j) EXPECT_EQ(h(j), 300.0 + j) << "column " << j;
}

TEST(HostDevice, ColumnOfALayoutRightArrayCopiesEveryValue) {
  const auto v = numbered<Kokkos::LayoutRight>(6, 4);
  const auto col = Kokkos::subview(v, Kokkos::ALL(), 2);
  ASSERT_EQ(col.stride(0), 4u);
  const auto h = tlfea::to_host(col);
  ASSERT_EQ(h.extent(0), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(h(i), 100.0 * i + 2) << "row " << i;
}

TEST(HostDevice, RowRangeOfALayoutLeftArrayCopiesEveryValue) {
  const auto v = numbered<Kokkos::LayoutLeft>(8, 3);
  const auto rows = Kokkos::subview(v, std::make_pair(2, 5), Kokkos::ALL());
  ASSERT_FALSE(rows.span_is_contiguous());
  const auto h = tlfea::to_host(rows);
  ASSERT_EQ(h.extent(0), 3u);
  ASSERT_EQ(h.extent(1), 3u);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(h(i, j), 100.0 * (i + 2) + j) << i << ", " << j;
}

TEST(HostDevice, ToHostIsACopyThatDoesNotAliasTheDeviceView) {
  const auto v = numbered<Kokkos::LayoutLeft>(2, 2);
  auto h = tlfea::to_host(v);
  h(1, 1) = -1.0;
  const auto again = tlfea::to_host(v);
  EXPECT_EQ(again(1, 1), 101.0);
}

TEST(HostDevice, MirrorRoundTripOfBothLayouts) {
  const auto left = numbered<Kokkos::LayoutLeft>(4, 3);
  auto hl = tlfea::host_mirror(left);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) hl(i, j) = -(10.0 * i + j);
  tlfea::copy_to_device(left, hl);
  const auto back = tlfea::to_host(left);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(back(i, j), -(10.0 * i + j));

  const auto right = numbered<Kokkos::LayoutRight>(4, 3);
  auto hr = tlfea::host_mirror(right);
  tlfea::copy_to_host(hr, right);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(hr(i, j), 100.0 * i + j);
}

TEST(HostDevice, CopiesOfDifferentSizesAreRejected) {
  Kokkos::View<Real*, MemSpace> d("tlfea::test::d", 4);
  EXPECT_THROW(tlfea::copy_to_device(d, std::vector<Real>{1.0, 2.0}), std::logic_error);
  auto h = Kokkos::View<Real*, Kokkos::HostSpace>("tlfea::test::h", 3);
  EXPECT_THROW(tlfea::copy_to_host(h, d), std::logic_error);
}

TEST(HostDevice, FillAndDeviceCopy) {
  Kokkos::View<Real*, MemSpace> a("tlfea::test::a", 5), b("tlfea::test::b", 5);
  tlfea::fill(a, 2.5);
  tlfea::device_copy(b, a);
  const auto h = tlfea::to_host(b);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(h(i), 2.5);
}

}  // namespace
