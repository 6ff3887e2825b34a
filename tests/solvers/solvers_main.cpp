// Test main of the solvers suite: as tests/test_main.cpp, but MPI comes up
// first and goes down last (Tpetra, under KLU2 and Belos, needs it in the
// Trilinos build; tlfea::MpiSession does nothing in other builds).
#include <fenv.h>
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "tlfea/linalg/mpi_session.hpp"

int main(int argc, char** argv) {
  tlfea::MpiSession mpi(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int result = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    feenableexcept(FE_INVALID | FE_DIVBYZERO);
    result = RUN_ALL_TESTS();
    fedisableexcept(FE_INVALID | FE_DIVBYZERO);
  }
  return result;
}
