// TLFEA: one interface to the sparse linear solvers of the Newton system.
//
// A backend is chosen by name. The matrix is the fixed-sparsity CRS matrix of
// core/crs_pattern.hpp (3 scalar rows per coefficient); the call sequence is
//   analyze(pattern)      symbolic work (ordering, elimination tree, graph),
//                         once per pattern;
//   factorize(values)     numeric factorisation or preconditioner setup, once
//                         per Newton matrix (same pattern, new values);
//   solve(b, x)           x = A^-1 b, any number of times per factorisation.
// Failures (unknown backend, singular matrix, no convergence) throw
// tlfea::Error. This header names no Trilinos or Eigen type: the backends live
// in linalg/src, one translation unit each.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

struct LinearSolverOptions {
  // "default", "tacho", "eigen-ldlt", "eigen-lu", "klu2", "belos-gmres",
  // "belos-cg", "belos-minres", "kk-cg", "kk-gmres", "cudss", "dist-cg",
  // "dist-gmres" (Belos over MPI_COMM_WORLD on the matrix summed over the
  // ranks: what a TimeStepper uses on several MPI ranks, where "default",
  // belos-cg and belos-gmres select them and the others are refused; on one
  // rank the same as belos-cg / belos-gmres). "default" is
  // cuDSS in a CUDA build with cuDSS, Tacho in the Trilinos build and Eigen's
  // LDL^T otherwise (KLU2 / Eigen's LU when symmetric is false, Eigen's LU
  // also in the Trilinos build when MPI is not running; cuDSS
  // factorizes either). kk-cg and kk-gmres (Kokkos Kernels Krylov, every
  // build) keep every vector in the execution space's memory.
  std::string backend = "default";
  bool symmetric = true;           // the matrix is symmetric (values, not only pattern)
  bool positive_definite = false;  // Tacho: Cholesky instead of LDL^T
  double tolerance = 1e-10;        // iterative: relative residual ||b - A x|| / ||b||
  // Iterative: iterations per solve; 0 (the default): automatic, for kk-*
  // krylov_iteration_limit (grows with the size), for Belos 500.
  int max_iterations = 0;
  // Iterative: "default" (ilu for Belos, block-jacobi for kk-*), "none",
  // "jacobi", "ilu" and "muelu" (Belos), "block-jacobi" (kk-*: the inverse of
  // each coefficient's 3 x 3 diagonal block), "sgs" (kk-*: one multicolour
  // symmetric Gauss-Seidel sweep).
  std::string preconditioner = "default";
  int ilu_level = 0;  // ILU(k) fill level
  // kk-cg / kk-gmres: "none", or "rigid-body": a second level on the
  // rigid-body modes of aggregates of nodes combined with the
  // preconditioner above (balancing form, linalg/src/krylov_two_level.hpp);
  // needs set_rigid_body_layout and set_coefficients (a TimeStepper gives
  // them). Other backends refuse anything but "none".
  std::string coarse = "none";
  // rigid-body: nodes per aggregate at most (>= 4); 0: automatic (about
  // sqrt(nnz) / 24 to sqrt(nnz) / 12 aggregates, at most 256).
  int coarse_aggregate_size = 0;
  // kk-cg: true (the default): each solve queues an iteration budget
  // predicted from the solver's earlier solves and reads CG's state once
  // (one host synchronisation per solve where the budget covers the stop;
  // on a GPU the iterations queued past the stop still run their product and
  // preconditioner); false: it reads at a few predicted checks per solve
  // (at most 11 + N / 16 for N iterations, under 16 iterations past the
  // stop). The same iterations, solution and errors either way. Scene key
  // solver.cg_budget.
  bool cg_budget = true;
  // Tacho fill-reducing order of the node graph: "nd" (METIS nested
  // dissection), "amd" (Eigen's approximate minimum degree) or "default" (nd
  // when built with METIS, else amd). Other backends ignore it.
  std::string ordering = "default";
};

struct SolverStats {
  std::string backend;       // name() of the solver that produced them
  int analyses = 0;          // analyze() calls
  int factorizations = 0;    // factorize() calls
  int solves = 0;            // solve() calls
  int last_iterations = 0;   // iterative: iterations of the last solve (0 for direct)
  int total_iterations = 0;  // iterative: over all solves
  // kk-cg: solves that read their state more than once, checking on after a
  // predicted iteration budget ran out before CG's stop (or with nothing
  // yet to predict from); the others read it once.
  int checked_solves = 0;
  double last_residual = 0;  // relative residual reported by the last solve (direct: 0)
  double analyze_seconds = 0;
  double factorize_seconds = 0;
  double solve_seconds = 0;
};

// What an algebraic-multigrid preconditioner (Belos "muelu") needs to build
// the near-nullspace of the Newton matrix, the rigid-body modes
// (linalg/src/rigid_body_modes.hpp, docs/theory.md §8.4):
// which coefficients are positions (1: moved by a translation; 0: ANCF
// gradients and rigid-body directors, which only rotate) and which scalar
// rows are free (0: an eliminated dof, a unit-diagonal row, given a zero row
// in the modes). Device views, lengths num_coefficients and 3 *
// num_coefficients.
struct RigidBodyLayout {
  DeviceView<unsigned char*> position;
  DeviceView<unsigned char*> free_rows;
};

class LinearSolver {
 public:
  virtual ~LinearSolver();
  virtual std::string name() const = 0;
  // Symbolic phase, once per pattern. The pattern's views may be released
  // afterwards: backends keep what they need.
  virtual void analyze(const CrsPattern& pattern) = 0;
  // Numeric phase for values laid out on the analysed pattern (length nnz).
  virtual void factorize(const DeviceView<Real*>& values) = 0;
  // x = A^-1 b; b and x have length 3 * num_block_rows and may not alias.
  virtual void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) = 0;
  virtual SolverStats stats() const;
  // Optional hooks for a preconditioner built on the rigid-body modes (the
  // Belos backends with preconditioner "muelu", kk-cg / kk-gmres with
  // coarse "rigid-body"; the others ignore them). The
  // layout, once after analyze(); the coefficients q at which the next
  // factorize()'s matrix was assembled (the lever arms of the rotations),
  // read during that factorize(): the view must hold them until then.
  // Without them muelu uses MueLu's default near-nullspace, the three
  // translations of each 3-row block.
  virtual void set_rigid_body_layout(const RigidBodyLayout& layout);
  virtual void set_coefficients(const CoefView& q);
  // Inexact Newton: the relative residual ||b - A x|| / ||b|| the next
  // solves may stop at (the Newton iteration's forcing term eta_k, see
  // TimeStepper). The kk-* Krylov backends stop at max(options.tolerance,
  // eta); the others ignore it. 0 restores options.tolerance.
  virtual void set_forcing_term(double eta);
  // Whether solve() checks its solution for non-finite entries (default:
  // yes; a non-finite entry throws). The backends whose solution stays on
  // the device (cudss, tacho) check it with a reduction read by the host, a
  // host synchronisation of its own; a caller that checks the solution in
  // a reduction of its own (TimeStepper: the next residual's) turns their
  // check off. The others check where the check costs no synchronisation
  // and ignore this.
  void set_solution_check(bool on) { solution_check_ = on; }
  // The array the backend's matrix keeps its values in, for the caller to
  // assemble into (length nnz of the analysed layout), or an empty view: the
  // backend copies the values factorize() is given (every backend but
  // dist-cg / dist-gmres on several MPI ranks, whose Tpetra matrices keep
  // their values in it). Valid from analyze() on, until the next analyze().
  // factorize() given this array works on it in place: it sums other
  // ranks' rows in and reorders rows for Tpetra, so that the caller must
  // assemble the whole matrix again before the next factorize(), and must
  // not write to it while the factorization is in use (the Krylov solvers
  // apply the matrix from it).
  virtual DeviceView<Real*> matrix_storage();
  // The arrays in which the backend keeps an assembled matrix's values
  // (dist-cg / dist-gmres: its Tpetra matrices'; they may lie in
  // matrix_storage()), for the count of the memory a rank holds; empty for
  // the other backends (a factorization's own arrays are not listed).
  virtual std::vector<DeviceView<Real*>> matrix_value_arrays() const;

 protected:
  SolverStats stats_;
  bool solution_check_ = true;
};

// Throws tlfea::Error for an unknown name, or one not built into this
// configuration, listing the available ones; or for options the backend
// cannot honour (e.g. an unsymmetric matrix with an LDL^T backend).
std::unique_ptr<LinearSolver> make_linear_solver(const LinearSolverOptions& options);

// The iteration limit of one Krylov solve (kk-cg, kk-gmres) on n unknowns:
// `configured` when positive, else (automatic) max(500, ceil(50 n^(1/3))). For a 3-D elliptic
// operator on a quasi-uniform mesh of size h, kappa = O(h^-2) = O(n^(2/3)) also after
// (block-)Jacobi scaling, and CG needs O(sqrt(kappa)) = O(n^(1/3)) iterations
// for a fixed reduction of the residual (Saad, Iterative Methods for Sparse
// Linear Systems, 2nd ed., 2003, sec. 6.11.3), so a fixed limit that suits a
// coarse mesh fails a fine one. 50 n^(1/3) equals 500, the former fixed
// default, at n = 1000, so small problems keep their limit.
int krylov_iteration_limit(int configured, Ordinal n);

// Backend names usable in this build, "default" first.
std::vector<std::string> available_linear_solvers();

// BLAS threads. The factorizations that call BLAS (Tacho's dense blocks) run
// inside one Kokkos thread of the Serial build or beside busy OpenMP threads,
// so a threaded BLAS only oversubscribes the cores (OpenBLAS threads spin in
// sched_yield against each other and any other process). make_linear_solver
// therefore sets OpenBLAS to one thread unless the user chose a count with
// OPENBLAS_NUM_THREADS or TLFEA_BLAS_THREADS (the latter wins).
struct BlasThreads {
  std::string library;  // "OpenBLAS", or "none" when no threaded BLAS is linked
  int threads = 1;      // current thread count (1 when library is "none")
  std::string source;   // "TLFEA default", "OPENBLAS_NUM_THREADS" or "TLFEA_BLAS_THREADS"
};
// Applies the rule above once per process and reports the result.
BlasThreads configure_blas_threads();

}  // namespace tlfea
