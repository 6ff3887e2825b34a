// TLFEA: MPI lifetime for programs that use the Trilinos solvers.
//
// Debian's Trilinos is built with MPI, and Tpetra (under KLU2 and Belos)
// needs MPI initialised before its default communicator is taken. A program
// creates one MpiSession before Kokkos is initialised and destroys it after
// Kokkos is finalised (declare it first in main). In a build without the
// Trilinos solvers it does nothing. It initialises MPI only when nobody has
// yet, and then finalises it in its destructor.
#pragma once

namespace tlfea {

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // Whether this build uses MPI at all (the Trilinos solvers are built).
  static bool enabled();
  // Whether this object called MPI_Init (and will call MPI_Finalize).
  bool owns_mpi() const { return owns_; }
  // Ranks in MPI_COMM_WORLD and this process's rank (1 and 0 without MPI).
  int world_size() const;
  int world_rank() const;
  // MPI_Barrier on MPI_COMM_WORLD (nothing without MPI).
  void barrier() const;
  // Whether `flag` is true on any rank (MPI_Allreduce, logical or; `flag`
  // itself without MPI). Collective: a decision every rank takes alike.
  bool any(bool flag) const;
  // The largest `x` over the ranks (MPI_Allreduce, max; `x` itself without
  // MPI). Collective.
  double max(double x) const;
  // MPI_Abort on MPI_COMM_WORLD: ends every rank, for an error on one rank
  // that the others cannot know of (they would wait in the next collective).
  // Without MPI: std::exit(code).
  [[noreturn]] void abort(int code) const;

 private:
  bool owns_ = false;
};

}  // namespace tlfea
