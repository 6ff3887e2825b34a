#include "tlfea/linalg/linear_solver.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>

#ifdef TLFEA_HAVE_MPI
#include <mpi.h>
#endif

#include "backends.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {

namespace {

// A positive thread count from the environment variable, or 0 if unset; a
// malformed value is an error naming the variable.
int env_threads(const char* name) {
  const char* s = std::getenv(name);
  if (!s || !*s) return 0;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*end != '\0' || v < 1 || v > 4096)
    throw_error(name, "='", s, "' is not a thread count (an integer from 1 to 4096)");
  return static_cast<int>(v);
}

}  // namespace

BlasThreads configure_blas_threads() {
  static std::once_flag once;
  static BlasThreads chosen;
  static std::string failure;
  std::call_once(once, [] {
    // OpenBLAS's thread controls, looked up among the libraries loaded into
    // the process (Debian's libblas.so.3 alternative is OpenBLAS), null if
    // none provides them.
    using SetThreads = void (*)(int);
    using GetThreads = int (*)();
    const auto openblas_set_num_threads =
        reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    const auto openblas_get_num_threads =
        reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    try {
      const int tlfea_env = env_threads("TLFEA_BLAS_THREADS");
      const int openblas_env = env_threads("OPENBLAS_NUM_THREADS");
      if (!openblas_set_num_threads || !openblas_get_num_threads) {
        chosen = {"none", 1, "no threaded BLAS linked"};
        return;
      }
      if (tlfea_env > 0) {
        openblas_set_num_threads(tlfea_env);
        chosen.source = "TLFEA_BLAS_THREADS";
      } else if (openblas_env > 0) {
        chosen.source = "OPENBLAS_NUM_THREADS";  // OpenBLAS read it at load
      } else {
        openblas_set_num_threads(1);
        chosen.source = "TLFEA default: BLAS runs inside a Kokkos thread";
      }
      chosen.library = "OpenBLAS";
      chosen.threads = openblas_get_num_threads();
    } catch (const Error& e) {
      failure = e.what();
    }
  });
  if (!failure.empty()) throw_error(failure);
  return chosen;
}

LinearSolver::~LinearSolver() = default;

// Backends without a near-nullspace preconditioner have no use for them.
void LinearSolver::set_rigid_body_layout(const RigidBodyLayout&) {}
void LinearSolver::set_coefficients(const CoefView&) {}
// Direct backends solve to round-off whatever Newton needs.
void LinearSolver::set_forcing_term(double) {}

DeviceView<Real*> LinearSolver::matrix_storage() { return DeviceView<Real*>(); }

std::vector<DeviceView<Real*>> LinearSolver::matrix_value_arrays() const { return {}; }

int krylov_iteration_limit(int configured, Ordinal n) {
  if (configured > 0) return configured;
  const double grown =
      std::ceil(50.0 * std::cbrt(static_cast<double>(std::max<Ordinal>(n, 0))) - 1e-6);
  return std::max(500, static_cast<int>(std::min(grown, 1e9)));
}

SolverStats LinearSolver::stats() const {
  SolverStats s = stats_;
  s.backend = name();
  return s;
}

std::vector<std::string> available_linear_solvers() {
  std::vector<std::string> names{"default"};
#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
  names.insert(names.end(), {"tacho", "klu2", "belos-gmres", "belos-cg", "belos-minres", "dist-cg",
                             "dist-gmres"});
#endif
#ifdef TLFEA_HAVE_CUDSS
  names.push_back("cudss");
#endif
  names.insert(names.end(), {"eigen-ldlt", "eigen-lu", "kk-cg", "kk-gmres"});
  return names;
}

namespace {

std::string list_names() {
  std::string s;
  for (const auto& n : available_linear_solvers()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool mpi_running() {
#ifdef TLFEA_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
#else
  return false;
#endif
}

bool is_known_name(const std::string& n) {
  for (const char* k :
       {"default", "tacho", "eigen-ldlt", "eigen-lu", "klu2", "belos-gmres", "belos-cg",
        "belos-minres", "kk-cg", "kk-gmres", "cudss", "dist-cg", "dist-gmres"})
    if (n == k) return true;
  return false;
}

}  // namespace

std::unique_ptr<LinearSolver> make_linear_solver(const LinearSolverOptions& options) {
  configure_blas_threads();
  std::string name = options.backend;
  if (name == "default") {
#if defined(TLFEA_HAVE_CUDSS)
    name = "cudss";
#elif defined(TLFEA_HAVE_TRILINOS_SOLVERS)
    // KLU2 runs on Tpetra, which needs MPI running; without it (a program
    // that made no MpiSession) the nonsymmetric default is Eigen's LU.
    name = options.symmetric ? "tacho" : mpi_running() ? "klu2" : "eigen-lu";
#else
    name = options.symmetric ? "eigen-ldlt" : "eigen-lu";
#endif
  }
  // The second level on the rigid-body modes is kk-cg's / kk-gmres's.
  if (options.coarse != "none" && name != "kk-cg" && name != "kk-gmres")
    throw_error("linear solver \"", name, "\": coarse \"", options.coarse,
                "\" is for kk-cg and kk-gmres only (other backends take coarse none)");
  if (name == "eigen-ldlt") return detail::make_eigen_ldlt(options);
  if (name == "eigen-lu") return detail::make_eigen_lu(options);
  if (name == "kk-cg") return detail::make_kk_cg(options);
  if (name == "kk-gmres") return detail::make_kk_gmres(options);
#ifdef TLFEA_HAVE_CUDSS
  if (name == "cudss") return detail::make_cudss(options);
#endif
#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
  if (name == "tacho") return detail::make_tacho(options);
  if (name == "klu2") return detail::make_klu2(options);
  if (name == "belos-gmres") return detail::make_belos(options, "GMRES");
  if (name == "belos-cg") return detail::make_belos(options, "CG");
  if (name == "belos-minres") return detail::make_belos(options, "MINRES");
  // On one rank (all rows owned); a TimeStepper on several ranks makes them
  // with its element partition (integrators/src/distribution.hpp).
  if (name == "dist-cg") return detail::make_distributed(options, "CG", {});
  if (name == "dist-gmres") return detail::make_distributed(options, "GMRES", {});
#endif
  if (is_known_name(name))
    throw_error("linear solver \"", name,
                "\" is not built in this configuration (Trilinos solvers need "
                "TLFEA_ENABLE_TRILINOS=ON, cudss a CUDA build with TLFEA_ENABLE_CUDSS=ON);"
                " available: ",
                list_names());
  throw_error("unknown linear solver \"", name, "\"; available: ", list_names());
}

std::unique_ptr<LinearSolver> make_partitioned_linear_solver(const LinearSolverOptions& options,
                                                             int ranks, const RowPartition& rows) {
  std::string name = options.backend;
  if (name == "default") name = options.symmetric ? "dist-cg" : "dist-gmres";
  if (name == "belos-cg") name = "dist-cg";
  if (name == "belos-gmres") name = "dist-gmres";
  if (options.coarse != "none")
    throw_error("linear solver \"", name, "\": coarse \"", options.coarse, "\" cannot run on ",
                ranks, " MPI ranks (kk-cg and kk-gmres only, on one rank)");
  if (name != "dist-cg" && name != "dist-gmres")
    throw_error("linear solver \"", options.backend, "\" cannot run on ", ranks,
                " MPI ranks (direct and one-rank backends: tacho, klu2, eigen-ldlt, eigen-lu, "
                "cudss, kk-cg, kk-gmres, belos-minres); use dist-cg (symmetric) or dist-gmres "
                "(belos-cg / belos-gmres / default select them on several ranks)");
#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
  configure_blas_threads();
  return detail::make_distributed(options, name == "dist-cg" ? "CG" : "GMRES", rows);
#else
  (void)rows;
  throw_error("linear solver \"", name, "\" needs the Trilinos solvers (TLFEA_ENABLE_TRILINOS=ON)");
#endif
}

namespace detail {

void check_solution(const char* backend, const HostView<const Real*>& x, Ordinal n) {
  check_length(backend, "solution", x.extent(0), static_cast<size_t>(n));
  for (Ordinal i = 0; i < n; ++i)
    if (!std::isfinite(x(i)))
      throw_error(backend, ": solution entry ", i,
                  " is not finite (singular or badly conditioned matrix)");
}

namespace {
struct CountNonFinite {
  DeviceView<Real*> x;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& bad) const {
    const Real v = x(i);
    if (!(v - v == 0.0)) ++bad;  // NaN or +-inf: v - v is NaN
  }
};
}  // namespace

void check_solution_device(const char* backend, const DeviceView<Real*>& x) {
  Ordinal bad = 0;
  Kokkos::parallel_reduce("tlfea::linalg::finite_check",
                          Kokkos::RangePolicy<ExecSpace>(0, static_cast<Ordinal>(x.extent(0))),
                          CountNonFinite{x}, bad);
  if (bad > 0)
    throw_error(backend, ": ", bad,
                " solution entries are not finite (singular or badly conditioned matrix)");
}

void check_length(const char* backend, const char* what, size_t length, size_t expected) {
  if (length != expected)
    throw_error(backend, ": ", what, " has ", length, " entries, expected ", expected);
}

}  // namespace detail
}  // namespace tlfea
