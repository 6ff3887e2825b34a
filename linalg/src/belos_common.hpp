// TLFEA: what the Belos backends share, the one-rank belos-* of
// linear_solver_belos.cpp and the distributed dist-* of
// linear_solver_distributed.cpp: the Ifpack2 preconditioners, the Belos
// problem and solver manager, the statistics of a solve, and the guard that
// turns a Trilinos exception into tlfea::Error. Internal: only
// linalg/src/*.cpp include Trilinos headers.
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

#include "rigid_body_modes.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/linalg/linear_solver.hpp"
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
  if (options.max_iterations < 0)
    throw_error(backend, ": max_iterations must be >= 0 (0: automatic)");
  if (options.max_iterations == 0) options.max_iterations = 500;  // automatic
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
  // set_rigid_body_layout / set_coefficients of LinearSolver. The modes
  // (rows.extent(0) x 6 on `map`, rows the global scalar row of each local
  // one) are allocated here, once per analysis, and filled by
  // near_nullspace() at each factorization.
  void set_layout(const RigidBodyLayout& layout, const Teuchos::RCP<const TpetraMap>& map,
                  const DeviceView<Offset*>& rows) {
    if (options_.preconditioner != "muelu") return;  // only muelu uses the modes
    if (map.is_null()) throw_error(name_, ": set_rigid_body_layout() before analyze()");
    if (layout.position.extent(0) == 0 ||
        3 * layout.position.extent(0) != layout.free_rows.extent(0))
      throw_error(name_, ": rigid-body layout with ", layout.position.extent(0),
                  " coefficients and ", layout.free_rows.extent(0),
                  " free-row flags (expected 3 per coefficient)");
    layout_ = layout;
    modes_rows_ = rows;
    nullspace_ = Teuchos::rcp(new TpetraVector(map, 6));
    // The node map: one entry per 3-row block (global id row / 3).
    auto h = to_host(rows);
    if (h.extent(0) % 3 != 0) throw_error(name_, ": ", h.extent(0), " rows, not 3 per coefficient");
    std::vector<TpetraMap::global_ordinal_type> nodes(h.extent(0) / 3);
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (h(3 * i) % 3 != 0 || h(3 * i + 1) != h(3 * i) + 1 || h(3 * i + 2) != h(3 * i) + 2)
        throw_error(name_, ": the rows of a coefficient are not held together");
      nodes[i] = static_cast<TpetraMap::global_ordinal_type>(h(3 * i) / 3);
    }
    auto node_map = Teuchos::rcp(new TpetraMap(
        Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
        Teuchos::ArrayView<const TpetraMap::global_ordinal_type>(nodes.data(), nodes.size()), 0,
        map->getComm()));
    coordinates_ = Teuchos::rcp(new TpetraVector(node_map, 3));
  }
  void set_q(const CoefView& q) { q_ = q; }
  // The rigid-body modes at the coefficients last set (null without a
  // layout: MueLu's default translations).
  Teuchos::RCP<TpetraVector> near_nullspace() {
    if (nullspace_.is_null()) return Teuchos::null;
    if (q_.extent(0) == 0)
      throw_error(name_,
                  ": muelu with a rigid-body layout needs set_coefficients() before factorize()");
    auto view = nullspace_->getLocalViewDevice(Tpetra::Access::OverwriteAll);
    Kokkos::View<Real**, Kokkos::LayoutLeft, DeviceType, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        out(view.data(), view.extent(0), view.extent(1));
    if (view.stride(1) != view.extent(0))
      throw_error(name_, ": near-nullspace storage is not contiguous");
    fill_rigid_body_modes(name_.c_str(), q_, layout_, modes_rows_, out);
    {
      auto cv = coordinates_->getLocalViewDevice(Tpetra::Access::OverwriteAll);
      Kokkos::View<Real**, Kokkos::LayoutLeft, DeviceType, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
          co(cv.data(), cv.extent(0), cv.extent(1));
      fill_node_coordinates(q_, layout_, modes_rows_, co);
    }
    fence("tlfea::linalg::belos::near_nullspace");
    return nullspace_;
  }
  // The node positions at the coefficients last set (after near_nullspace()).
  Teuchos::RCP<TpetraVector> node_coordinates() const { return coordinates_; }
  // Drops every reference to the last preconditioner (this object's, the
  // Belos problem's and the solver manager's, which keeps the problem it
  // last solved), so that a new one (a MueLu hierarchy, or Ifpack2's L and U
  // and local matrix copy) is built after the old one is freed rather than
  // beside it: without this the setup's peak held both. The manager is
  // recreated (it holds no state across factorizations besides the problem).
  void release_preconditioner() {
    problem_ = Teuchos::null;
    preconditioner_ = Teuchos::null;
    solver_ = make_belos_manager(options_, kind_);
  }
  LinearSolverOptions options_;
  std::string kind_, name_;
  Teuchos::RCP<Ifpack2Preconditioner> ifpack2_;
  Teuchos::RCP<TpetraOperator> preconditioner_;
  Teuchos::RCP<BelosProblem> problem_;
  Teuchos::RCP<BelosManager> solver_;
  bool factorized_ = false;
  RigidBodyLayout layout_;
  CoefView q_;
  DeviceView<Offset*> modes_rows_;
  Teuchos::RCP<TpetraVector> nullspace_, coordinates_;
};

}  // namespace tlfea::detail
