#include "tlfea/linalg/mpi_session.hpp"

#include <cstdio>
#include <cstdlib>

#ifdef TLFEA_HAVE_MPI
#include <mpi.h>
#endif

namespace tlfea {

MpiSession::MpiSession(int* argc, char*** argv) {
#ifdef TLFEA_HAVE_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // Kokkos Serial + one rank per process: funneled is all Tpetra asks for.
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    owns_ = true;
  }
#else
  (void)argc;
  (void)argv;
#endif
}

MpiSession::~MpiSession() {
#ifdef TLFEA_HAVE_MPI
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
#endif
}

int MpiSession::world_size() const {
#ifdef TLFEA_HAVE_MPI
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
#else
  return 1;
#endif
}

int MpiSession::world_rank() const {
#ifdef TLFEA_HAVE_MPI
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
#else
  return 0;
#endif
}

void MpiSession::barrier() const {
#ifdef TLFEA_HAVE_MPI
  MPI_Barrier(MPI_COMM_WORLD);
#endif
}

bool MpiSession::any(bool flag) const {
#ifdef TLFEA_HAVE_MPI
  int v = flag ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return v != 0;
#else
  return flag;
#endif
}

double MpiSession::max(double x) const {
#ifdef TLFEA_HAVE_MPI
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
  return x;
}

void MpiSession::abort(int code) const {
  std::fflush(stdout);
  std::fflush(stderr);
#ifdef TLFEA_HAVE_MPI
  MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

bool MpiSession::enabled() {
#ifdef TLFEA_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace tlfea
