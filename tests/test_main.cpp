// One test main for every suite: initialises Kokkos and traps invalid
// floating-point operations so a NaN fails the test that produced it.
#include <fenv.h>
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  feenableexcept(FE_INVALID | FE_DIVBYZERO);
  return RUN_ALL_TESTS();
}
