// TLFEA: internal factory entry points of the linear-solver backends (one
// translation unit each) and small helpers they share. Not installed.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "tlfea/linalg/distributed_solver.hpp"
#include "tlfea/linalg/linear_solver.hpp"

namespace tlfea::detail {

std::unique_ptr<LinearSolver> make_eigen_ldlt(const LinearSolverOptions& options);
std::unique_ptr<LinearSolver> make_eigen_lu(const LinearSolverOptions& options);
std::unique_ptr<LinearSolver> make_kk_cg(const LinearSolverOptions& options);
std::unique_ptr<LinearSolver> make_kk_gmres(const LinearSolverOptions& options);
#ifdef TLFEA_HAVE_CUDSS
std::unique_ptr<LinearSolver> make_cudss(const LinearSolverOptions& options);
#endif
#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
std::unique_ptr<LinearSolver> make_tacho(const LinearSolverOptions& options);
std::unique_ptr<LinearSolver> make_klu2(const LinearSolverOptions& options);
// kind: "GMRES", "CG" or "MINRES" (Belos::SolverFactory names).
std::unique_ptr<LinearSolver> make_belos(const LinearSolverOptions& options, const char* kind);
#endif

#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
// dist-cg / dist-gmres (linear_solver_distributed.cpp): Belos over
// MPI_COMM_WORLD on the sum over ranks of their partial values; kind "CG" or
// "GMRES".
std::unique_ptr<LinearSolver> make_distributed(const LinearSolverOptions& options, const char* kind,
                                               const RowPartition& rows);
#endif

// Wall-clock seconds since construction.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Throws unless x has n entries and every one is finite (a solve of a
// singular or badly scaled system that slipped past the factorisation).
void check_solution(const char* backend, const HostView<const Real*>& x, Ordinal n);

// The same check on the device, where x lives (one reduction, no copy of x).
void check_solution_device(const char* backend, const DeviceView<Real*>& x);

// Throws if length differs from expected ("<backend>: <what> has ...").
void check_length(const char* backend, const char* what, size_t length, size_t expected);

}  // namespace tlfea::detail
