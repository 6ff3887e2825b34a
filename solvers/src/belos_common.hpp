// TLFEA: what the Belos backends share, the one-rank belos-* of
// linear_solver_belos.cpp and the distributed dist-* of
// linear_solver_distributed.cpp: the Ifpack2 preconditioners, the Belos
// problem and solver manager, the statistics of a solve, and the guard that
// turns a Trilinos exception into tlfea::Error. Internal: only
// solvers/src/*.cpp include Trilinos headers.
#pragma once

#include <BelosLinearProblem.hpp>
#include <BelosSolverFactory.hpp>
#include <BelosSolverFactory_Tpetra.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Ifpack2_Factory.hpp>
#include <Teuchos_ParameterList.hpp>
#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "tlfea/core/error.hpp"
#include "tlfea/solvers/linear_solver.hpp"
#include "tpetra_system.hpp"

namespace tlfea::detail {

using Ifpack2Preconditioner =
    Ifpack2::Preconditioner<Real, TpetraMatrix::local_ordinal_type,
                            TpetraMatrix::global_ordinal_type, TpetraMatrix::node_type>;
using BelosProblem = Belos::LinearProblem<Real, TpetraVector, TpetraOperator>;
using BelosManager = Belos::SolverManager<Real, TpetraVector, TpetraOperator>;

// Runs f; a Trilinos (std::) exception becomes tlfea::Error naming the
// backend and the phase.
template <class F>
void guard_phase(const std::string& backend, const char* phase, F&& f) {
  try {
    f();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw_error(backend, ": ", phase, " failed (", e.what(), ")");
  }
}

// Checks the options of the Belos backend `backend` running `kind`, the
// preconditioner "default" becoming "ilu"; throws naming the backend (and
// `gmres`, the GMRES backend to use for an unsymmetric matrix).
inline void check_belos_options(LinearSolverOptions& options, const std::string& backend,
                                const std::string& kind, const char* gmres) {
  if (options.preconditioner == "default") options.preconditioner = "ilu";
  const std::string& p = options.preconditioner;
  if (p != "none" && p != "jacobi" && p != "ilu" && p != "muelu")
    throw_error(backend, ": unknown preconditioner \"", p,
                "\"; available: default (ilu), none, jacobi, ilu, muelu");
  if (options.ilu_level < 0) throw_error(backend, ": ilu_level must be >= 0");
  if (options.max_iterations < 1) throw_error(backend, ": max_iterations must be >= 1");
  if (!(options.tolerance > 0)) throw_error(backend, ": tolerance must be > 0");
  if (kind != "GMRES" && !options.symmetric)
    throw_error(backend, " needs a symmetric matrix (options.symmetric = false); use ", gmres);
}

// options.preconditioner "ilu": Ifpack2 RILUK with fill level
// options.ilu_level; "jacobi": one Jacobi sweep (RELAXATION); initialised
// (the symbolic phase: the graphs of L and U for ILU). Null for the others.
inline Teuchos::RCP<Ifpack2Preconditioner> make_ifpack2(
    const Teuchos::RCP<const TpetraRowMatrix>& A, const LinearSolverOptions& options) {
  const std::string& p = options.preconditioner;
  if (p != "ilu" && p != "jacobi") return Teuchos::null;
  Teuchos::ParameterList params;
  Teuchos::RCP<Ifpack2Preconditioner> prec;
  if (p == "ilu") {
    prec = Ifpack2::Factory::create<TpetraRowMatrix>("RILUK", A);
    params.set("fact: iluk level-of-fill", options.ilu_level);
  } else {
    prec = Ifpack2::Factory::create<TpetraRowMatrix>("RELAXATION", A);
    params.set("relaxation: type", std::string("Jacobi"));
    params.set("relaxation: sweeps", 1);
  }
  prec->setParameters(params);
  prec->initialize();
  return prec;
}

// A x = b, preconditioned by M (if any): on the right for GMRES, so that its
// residual is the true one; CG and MINRES take M^-1 on the left.
inline Teuchos::RCP<BelosProblem> make_belos_problem(const Teuchos::RCP<TpetraMatrix>& A,
                                                     const Teuchos::RCP<TpetraVector>& x,
                                                     const Teuchos::RCP<TpetraVector>& b,
                                                     const Teuchos::RCP<TpetraOperator>& M,
                                                     const std::string& kind) {
  auto problem = Teuchos::rcp(new BelosProblem(A, x, b));
  if (!M.is_null()) {
    if (kind == "GMRES")
      problem->setRightPrec(M);
    else
      problem->setLeftPrec(M);
  }
  return problem;
}

// The Belos solver `kind` ("CG", "MINRES", "GMRES": restarts every 200
// iterations) to options.tolerance within options.max_iterations.
inline Teuchos::RCP<BelosManager> make_belos_manager(const LinearSolverOptions& options,
                                                     const std::string& kind) {
  auto params = Teuchos::parameterList();
  params->set("Convergence Tolerance", options.tolerance);
  params->set("Maximum Iterations", options.max_iterations);
  params->set("Verbosity", static_cast<int>(Belos::Errors));
  if (kind == "GMRES") {
    const int restart = std::min(options.max_iterations, 200);
    params->set("Num Blocks", restart);
    params->set("Maximum Restarts", options.max_iterations / restart + 1);
  }
  Belos::SolverFactory<Real, TpetraVector, TpetraOperator> factory;
  return factory.create(kind, params);
}

// After solver.solve() returned `result`: the iteration and residual
// statistics; throws when it did not converge.
inline void record_belos_solve(SolverStats& stats, const std::string& backend,
                               const LinearSolverOptions& options, const BelosManager& solver,
                               Belos::ReturnType result, Real relative_residual) {
  const int iterations = solver.getNumIters();
  stats.last_iterations = iterations;
  stats.total_iterations += iterations;
  stats.last_residual = relative_residual;
  stats.solves++;
  if (result != Belos::Converged)
    throw_error(backend, ": did not converge in ", iterations, " iterations (relative residual ",
                relative_residual, ", tolerance ", options.tolerance, "; preconditioner ",
                options.preconditioner, ")");
}

// What both Belos backends hold: their options, the Belos kind and backend
// name, the preconditioner, problem and solver, and the phase guard.
struct BelosParts {
  BelosParts(const LinearSolverOptions& options, const char* kind, const std::string& name,
             const char* gmres)
      : options_(options), kind_(kind), name_(name) {
    check_belos_options(options_, name_, kind_, gmres);
  }
  template <class F>
  void guard(const char* phase, F&& f) {
    guard_phase(name_, phase, std::forward<F>(f));
  }
  LinearSolverOptions options_;
  std::string kind_, name_;
  Teuchos::RCP<Ifpack2Preconditioner> ifpack2_;
  Teuchos::RCP<TpetraOperator> preconditioner_;
  Teuchos::RCP<BelosProblem> problem_;
  Teuchos::RCP<BelosManager> solver_;
  bool factorized_ = false;
};

}  // namespace tlfea::detail
