#include "tlfea/solvers/linear_solver.hpp"

#include <cmath>

#include "backends.hpp"
#include "tlfea/core/error.hpp"

namespace tlfea {

LinearSolver::~LinearSolver() = default;

SolverStats LinearSolver::stats() const {
  SolverStats s = stats_;
  s.backend = name();
  return s;
}

std::vector<std::string> available_linear_solvers() {
  std::vector<std::string> names{"default"};
#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
  names.insert(names.end(), {"tacho", "klu2", "belos-gmres", "belos-cg", "belos-minres"});
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

bool is_known_name(const std::string& n) {
  for (const char* k : {"default", "tacho", "eigen-ldlt", "eigen-lu", "klu2", "belos-gmres",
                        "belos-cg", "belos-minres", "kk-cg", "kk-gmres", "cudss"})
    if (n == k) return true;
  return false;
}

}  // namespace

std::unique_ptr<LinearSolver> make_linear_solver(const LinearSolverOptions& options) {
  std::string name = options.backend;
  if (name == "default") {
#if defined(TLFEA_HAVE_CUDSS)
    name = "cudss";
#elif defined(TLFEA_HAVE_TRILINOS_SOLVERS)
    name = options.symmetric ? "tacho" : "klu2";
#else
    name = options.symmetric ? "eigen-ldlt" : "eigen-lu";
#endif
  }
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
#endif
  if (is_known_name(name))
    throw_error("linear solver \"", name,
                "\" is not built in this configuration (Trilinos solvers need "
                "TLFEA_ENABLE_TRILINOS=ON, cudss a CUDA build with TLFEA_ENABLE_CUDSS=ON);"
                " available: ",
                list_names());
  throw_error("unknown linear solver \"", name, "\"; available: ", list_names());
}

namespace detail {

void check_solution(const char* backend, const HostView<const Real*>& x, Ordinal n) {
  check_length(backend, "solution", x.extent(0), static_cast<size_t>(n));
  for (Ordinal i = 0; i < n; ++i)
    if (!std::isfinite(x(i)))
      throw_error(backend, ": solution entry ", i,
                  " is not finite (singular or badly conditioned matrix)");
}

void check_length(const char* backend, const char* what, size_t length, size_t expected) {
  if (length != expected)
    throw_error(backend, ": ", what, " has ", length, " entries, expected ", expected);
}

}  // namespace detail
}  // namespace tlfea
