// Links TLFEATrilinos::solvers: Tpetra's MPI + Kokkos start-up, a Tpetra
// communicator, and a Kokkos Kernels BLAS call on a Kokkos View.
#include <KokkosBlas1_nrm2.hpp>
#include <Kokkos_Core.hpp>
#include <Tpetra_Core.hpp>
#include <cstdio>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  Kokkos::View<double*> v("v", 4);
  Kokkos::deep_copy(v, 1.0);
  const double norm = KokkosBlas::nrm2(v);
  std::printf("Tpetra ranks %d, Kokkos Kernels nrm2 %g\n", comm->getSize(), norm);
  return (comm->getSize() >= 1 && norm == 2.0) ? 0 : 1;
}
