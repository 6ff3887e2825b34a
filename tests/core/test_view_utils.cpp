// view_utils.hpp: upload_to_device copies a host vector element by element,
// SquaredNorm reduces to sum_i c_i^2 (reference values by hand and by the
// closed form sum_{i=1}^n i^2 = n (n + 1) (2 n + 1) / 6).
#include <gtest/gtest.h>

#include <vector>

#include "tlfea/core/view_utils.hpp"

namespace {

using tlfea::DeviceView;
using tlfea::Ordinal;
using tlfea::Real;

TEST(ViewUtils, UploadCopiesEveryElementAndTheLabel) {
  const std::vector<Ordinal> h = {3, -1, 7, 0, 42};
  const DeviceView<Ordinal*> d = tlfea::upload_to_device("tlfea::test::upload", h);
  ASSERT_EQ(d.extent(0), 5u);
  EXPECT_EQ(d.label(), "tlfea::test::upload");
  const auto back = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  const Ordinal expected[5] = {3, -1, 7, 0, 42};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(back(i), expected[i]) << "entry " << i;
}

TEST(ViewUtils, UploadOfAnEmptyVectorIsAnEmptyView) {
  const DeviceView<Real*> d = tlfea::upload_to_device("tlfea::test::empty", std::vector<Real>{});
  EXPECT_EQ(d.extent(0), 0u);
}

TEST(ViewUtils, SquaredNormOfAPythagoreanQuadruple) {
  // 3^2 + 4^2 + 12^2 = 169 = 13^2.
  const DeviceView<Real*> c = tlfea::upload_to_device("c", std::vector<Real>{3.0, -4.0, 12.0});
  Real s = -1.0;
  Kokkos::parallel_reduce("tlfea::test::squared_norm", Kokkos::RangePolicy<tlfea::ExecSpace>(0, 3),
                          tlfea::SquaredNorm{c}, s);
  EXPECT_EQ(s, 169.0);
}

TEST(ViewUtils, SquaredNormMatchesTheClosedFormSumOfSquares) {
  const int n = 1000;
  std::vector<Real> h(n);
  for (int i = 0; i < n; ++i) h[i] = i + 1;
  const DeviceView<Real*> c = tlfea::upload_to_device("c", h);
  Real s = 0.0;
  Kokkos::parallel_reduce("tlfea::test::squared_norm", Kokkos::RangePolicy<tlfea::ExecSpace>(0, n),
                          tlfea::SquaredNorm{c}, s);
  // n (n + 1) (2 n + 1) / 6 = 333833500; every partial sum is an integer
  // below 2^53, so the sum is exact in any order.
  EXPECT_EQ(s, 333833500.0);
}

}  // namespace
