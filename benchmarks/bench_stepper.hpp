// Shared part of the time-stepping benchmark drivers (B2 ANCF beam, B3 ANCF
// plate, B4 Q27 block): the common options, the timed step loop with its
// per-step breakdown and probe history, and the JSON fields every such driver
// prints (docs/guide/benchmarks.md). A driver builds its Model, names a probe
// coefficient and calls run_steps(), then add_run_fields().
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/linalg/mpi_session.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea::bench {

struct StepperOptions {
  int steps = 200;
  double dt = 1e-3;
  // Newton residual tolerances [N]: the B1 driver's (its peer's) 1e-4.
  double abs_tol = 1e-4, rel_tol = 1e-4;
  std::string solver = "default", ordering = "default";
  std::string preconditioner = "default";  // iterative backends (LinearSolverOptions)
  std::string coarse = "none";             // kk-*: LinearSolverOptions::coarse
  int coarse_size = 0;                     // LinearSolverOptions::coarse_aggregate_size
  bool cg_budget = true;                   // kk-cg: LinearSolverOptions::cg_budget
  std::string partition = "default";       // several MPI ranks (StepperSettings::partition)
  bool reuse_jacobian = true;
  bool breakdown = true;  // time one tangent assembly after the run (split of assembly_s)
  std::string kernel_shapes = "default";  // default, range or team (set_kernel_shapes)
  int threads = 0;                        // 0: Kokkos's default
  int krylov = -1;                        // StepperSettings::krylov_iterations (-1: its default)
  // The MPI ranks (set by driver_main): several ranks split the elements
  // (TimeStepper), rank 0 prints, add_mpi_fields gathers.
  const MpiSession* mpi = nullptr;
};

constexpr const char* kStepperUsage =
    "  --steps N        time steps (default: the problem's)\n"
    "  --dt DT          time step [s], default 1e-3\n"
    "  --solver NAME    linear-solver backend, default 'default'\n"
    "  --preconditioner P  iterative backends: default, none, jacobi, block-jacobi, sgs and\n"
    "                   ilu0 (kk-*), ilu, muelu (belos-* / dist-*)\n"
    "  --coarse C[:N]   kk-*: none or rigid-body (second level; N nodes per aggregate)\n"
    "  --cg-budget B    kk-cg: 1 (default) one read per solve after a predicted budget,\n"
    "                   0 reads at checks (LinearSolverOptions::cg_budget)\n"
    "  --partition P    several MPI ranks: default, metis, range (StepperSettings::partition)\n"
    "  --ordering O     Tacho fill-reducing order: default, nd, amd\n"
    "  --abs-tol A      Newton absolute residual tolerance [N], default 1e-4\n"
    "  --rel-tol R      Newton relative residual tolerance, default 1e-4\n"
    "  --reuse-jacobian 0|1  keep the factorisation while Newton converges fast (default 1)\n"
    "  --kernel-shapes S  element loop shape of both kernels: default, range, team\n"
    "  --breakdown 0|1  split assembly into residual / tangent with one timed tangent\n"
    "                   assembly after the run (default 1)\n"
    "  --threads N      Kokkos threads (OpenMP build; the Serial backend runs 1)\n"
    "  --krylov N       GMRES iterations tried on a stalled reused factorisation before\n"
    "                   refactoring (StepperSettings::krylov_iterations; 0: none)\n"
    "  --kokkos-*       passed to Kokkos\n";

// Consumes the common option `a` (reading its value with next()); false when
// `a` is not one of them.
inline bool parse_stepper_option(const std::string& a, const std::function<std::string()>& next,
                                 StepperOptions& o) {
  if (a == "--steps") {
    const long n = parse_int(a, next());
    if (n < 1 || n > 10000000) arg_error("--steps must be positive, got " + std::to_string(n));
    o.steps = static_cast<int>(n);
  } else if (a == "--dt") {
    o.dt = parse_double(a, next());
    if (!(o.dt > 0)) arg_error("--dt must be positive");
  } else if (a == "--solver") {
    o.solver = next();
  } else if (a == "--partition") {
    o.partition = next();
    if (o.partition != "default" && o.partition != "metis" && o.partition != "range")
      arg_error("--partition must be default, metis or range, got '" + o.partition + "'");
  } else if (a == "--preconditioner") {
    o.preconditioner = next();
    const std::string& pc = o.preconditioner;
    if (pc != "default" && pc != "none" && pc != "jacobi" && pc != "ilu" && pc != "muelu" &&
        pc != "block-jacobi" && pc != "sgs" && pc != "ilu0")
      arg_error(
          "--preconditioner must be default, none, jacobi, block-jacobi, sgs, ilu0, ilu or muelu, "
          "got '" +
          pc + "'");
  } else if (a == "--coarse") {
    const std::string v = next();
    o.coarse = v.substr(0, v.find(':'));
    if (v.find(':') != std::string::npos)
      o.coarse_size = static_cast<int>(parse_int(a, v.substr(v.find(':') + 1)));
  } else if (a == "--cg-budget") {
    const std::string v = next();
    if (v != "0" && v != "1") arg_error("--cg-budget must be 0 or 1, got '" + v + "'");
    o.cg_budget = v == "1";
  } else if (a == "--ordering") {
    o.ordering = next();
    if (o.ordering != "default" && o.ordering != "nd" && o.ordering != "amd")
      arg_error("--ordering must be default, nd or amd, got '" + o.ordering + "'");
  } else if (a == "--abs-tol" || a == "--rel-tol") {
    const double t = parse_double(a, next());
    if (!(t > 0)) arg_error(a + " must be positive");
    (a == "--abs-tol" ? o.abs_tol : o.rel_tol) = t;
  } else if (a == "--kernel-shapes") {
    o.kernel_shapes = next();
    if (o.kernel_shapes != "default" && o.kernel_shapes != "range" && o.kernel_shapes != "team")
      arg_error("--kernel-shapes must be default, range or team, got '" + o.kernel_shapes + "'");
  } else if (a == "--reuse-jacobian" || a == "--breakdown") {
    const std::string v = next();
    if (v != "0" && v != "1") arg_error(a + " must be 0 or 1, got '" + v + "'");
    (a == "--reuse-jacobian" ? o.reuse_jacobian : o.breakdown) = v == "1";
  } else if (a == "--krylov") {
    const long n = parse_int(a, next());
    if (n < 0 || n > 50) arg_error("--krylov must be in 0..50, got " + std::to_string(n));
    o.krylov = static_cast<int>(n);
  } else if (a == "--threads") {
    const long n = parse_int(a, next());
    if (n < 1 || n > 4096) arg_error("--threads must be in 1..4096, got " + std::to_string(n));
    o.threads = static_cast<int>(n);
  } else {
    return false;
  }
  return true;
}

// Consumes `name N` with lo <= N <= hi into `target`; false when `a` is
// another option.
inline bool int_option(const std::string& a, const std::function<std::string()>& next,
                       const char* name, long lo, long hi, int& target) {
  if (a != name) return false;
  const long n = parse_int(a, next());
  if (n < lo || n > hi)
    arg_error(a + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
              std::to_string(n));
  target = static_cast<int>(n);
  return true;
}

inline void check_solver_name(const std::string& solver) {
  const auto names = available_linear_solvers();
  if (std::find(names.begin(), names.end(), solver) != names.end()) return;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  arg_error("unknown or unavailable --solver '" + solver + "' (available: " + list + ")");
}

// Iterative backends keep no factor (their memory is the matrix and a few vectors).
inline bool iterative_solver(const std::string& solver) {
  return solver.rfind("kk-", 0) == 0 || solver.rfind("belos-", 0) == 0 ||
         solver.rfind("dist-", 0) == 0;
}

// The coefficient whose coordinate `axis` is recorded after every step.
struct Probe {
  Ordinal coefficient = 0;
  int axis = 2;
  Vec3 reference{{0.0, 0.0, 0.0}};
};

// Position coefficient of the mesh node nearest to x (body 0 of the model,
// coefficient offset 0); throws when it is farther than tol.
inline Probe probe_at(const Mesh& mesh, const Vec3& x, int axis, Real tol) {
  Ordinal best_node = -1;
  Real best = 1e300;
  for (Ordinal k = 0; k < mesh.num_nodes(); ++k) {
    const auto& X = mesh.node_position(k);
    const Real d = std::hypot(X[0] - x[0], X[1] - x[1], X[2] - x[2]);
    if (d < best) best = d, best_node = k;
  }
  if (best_node < 0 || best > tol)
    throw_error(mesh.source, ": no node at (", x[0], ", ", x[1], ", ", x[2], ") (nearest at ", best,
                " m)");
  Probe p;
  p.coefficient = best_node * mesh.coefficients_per_node();
  p.axis = axis;
  const auto& X = mesh.node_position(best_node);
  p.reference = {{X[0], X[1], X[2]}};
  return p;
}

// One step's wall time and its parts [s].
struct StepTimes {
  double wall = 0, assembly = 0, tangent_est = 0, factorization = 0, solve = 0, contact = 0;
  int newton = 0, factorizations = 0;
  double residual_est() const { return std::max(0.0, assembly - tangent_est); }
  double other() const { return std::max(0.0, wall - assembly - factorization - solve - contact); }
};

struct RunResult {
  double stepper_setup_s = 0;  // TimeStepper construction (pattern analysis of the solver)
  double wall_s = 0;           // all steps, probe read-back included
  std::vector<StepTimes> steps;
  std::vector<double> hist;  // probe coordinate after every step
  long newton = 0, outer = 0, factorizations = 0, retries = 0, krylov = 0;
  double tangent_call_s = -1;  // one tangent assembly on the final state (--breakdown 1)
  double peak_rss_mib = 0;
  double gpu_memory_peak_mib = -1;  // largest device_memory_used_mib() sample; -1 without CUDA
  SolverStats linear;
  BlasThreads blas;
  PartitionInfo partition;  // the element split over MPI ranks (TimeStepper::partition_info)
  // Entries of the whole Newton matrix pattern, read before the stepper: on
  // several ranks its end leaves the model's column indices to be rebuilt
  // when next needed (Model::restore_when_needed), which pattern() would do.
  long long nnz = 0;
};

// Seconds of one tangent assembly (M/h + h K into the Newton matrix values,
// every body) on the state (q, v), the median of 3 after a warm-up.
inline double time_tangent(Model& model, const CoefView& q, const CoefView& v, Real h) {
  DeviceView<Real*> values("bench::values", model.block_pattern().nnz());
  std::vector<double> t;
  for (int r = 0; r < 4; ++r) {
    Kokkos::fence();
    const double t0 = now();
    Kokkos::deep_copy(values, model.mass_values());
    for (int b = 0; b < model.num_bodies(); ++b) model.block(b).tangent(q, v, h, 1.0, values);
    Kokkos::fence();
    if (r > 0) t.push_back(now() - t0);
  }
  return median(t);
}

// Steps the finalized model o.steps times, timing each step and recording the
// probe; after the run (and the --breakdown tangent pass), after(stepper) may
// time more on the final state.
inline RunResult run_steps(Model& model, const StepperOptions& o, const Probe& probe,
                           const std::function<void(TimeStepper&)>& after = {}) {
  RunResult r;
  model.finalize();
  r.nnz = model.block_pattern().nnz();  // without building the column indices
  StepperSettings s;
  s.dt = o.dt;
  s.residual_abs_tol = o.abs_tol;
  s.residual_rel_tol = o.rel_tol;
  s.reuse_jacobian = o.reuse_jacobian;
  if (o.krylov >= 0) s.krylov_iterations = o.krylov;
  s.linear.backend = o.solver;
  s.linear.ordering = o.ordering;
  s.linear.preconditioner = o.preconditioner;
  s.linear.coarse = o.coarse;
  s.linear.coarse_aggregate_size = o.coarse_size;
  s.linear.cg_budget = o.cg_budget;
  s.partition = tlfea::parse_partition_method(o.partition);
  // The per-phase breakdown (assembly_s, factorization_s, solve_s) times the
  // work, as the results on the benchmark page did, not the launches.
  s.timing_fences = true;
  Kokkos::fence();
  const double t_setup = now();
  if (o.kernel_shapes != "default")
    for (int b = 0; b < model.num_bodies(); ++b)
      model.block(b).set_kernel_shapes(
          KernelShapes::all(o.kernel_shapes == "team" ? KernelShape::Team : KernelShape::Range));
  TimeStepper stepper(model, s);
  Kokkos::fence();
  r.stepper_setup_s = now() - t_setup;
  r.partition = stepper.partition_info();
  // GPU memory sampled after the setup and after every step, outside the
  // steps' times: the solver's buffers are allocated by the first
  // factorization, and contact or re-analysis may allocate later.
  r.gpu_memory_peak_mib = device_memory_used_mib();

  const double t0 = now();
  for (int n = 0; n < o.steps; ++n) {
    Kokkos::fence();
    const double ts = now();
    const StepReport rep = stepper.step();
    Kokkos::fence();
    StepTimes st;
    st.wall = now() - ts;
    st.assembly = rep.assembly_s;
    st.factorization = rep.factorization_s;
    st.solve = rep.solve_s;
    st.contact = rep.step_force_s;
    st.newton = rep.newton_iterations;
    st.factorizations = rep.factorizations;
    r.steps.push_back(st);
    r.gpu_memory_peak_mib = std::max(r.gpu_memory_peak_mib, device_memory_used_mib());
    r.newton += rep.newton_iterations;
    r.outer += rep.outer_iterations;
    r.factorizations += rep.factorizations;
    r.krylov += rep.krylov_iterations;
    r.retries += rep.retries;
    // One coordinate read back per step (outside the step's time, inside wall_s).
    auto qk = Kokkos::subview(stepper.positions(), probe.coefficient, probe.axis);
    Real x = 0.0;
    Kokkos::deep_copy(x, qk);
    r.hist.push_back(x);
  }
  r.wall_s = now() - t0;
  r.peak_rss_mib = peak_memory_mib();  // before the breakdown pass allocates
  r.linear = stepper.linear_stats();
  r.blas = configure_blas_threads();
  if (o.breakdown) {
    // Each factorization follows one tangent assembly (time_stepper.cpp
    // inner_newton); the rest of assembly_s is residual evaluations.
    r.tangent_call_s = time_tangent(model, stepper.positions(), stepper.velocities(), o.dt);
    for (auto& st : r.steps)
      st.tangent_est = std::min(st.assembly, st.factorizations * r.tangent_call_s);
  }
  if (after) after(stepper);
  return r;
}

// Median wall time of the steady steps [s]: all but the first (which
// factorises, or sets the preconditioner up, from scratch); the one step of
// a one-step run (as add_run_fields counts it).
inline double steady_median(const RunResult& r) {
  std::vector<double> w;
  for (size_t i = r.steps.size() > 1 ? 1 : 0; i < r.steps.size(); ++i) w.push_back(r.steps[i].wall);
  return median(w);
}

// The fields of a run on one or several MPI ranks (collective: every rank
// calls it; rank 0 prints): the rank count and the element split, and the
// values each rank measured, gathered (per_rank, add_per_rank in
// bench_common.hpp): peak resident memory (VmHWM after the steps, before any
// breakdown pass), the steady steps' median wall time, and the Newton and
// linear-solver iteration counts (the ranks take the same Newton decisions
// and run one distributed Krylov solve, so these agree unless that breaks),
// and peak_rss_mib_end: VmHWM now, after run() has destroyed its stepper,
// whose teardown on several ranks rebuilds the model's whole element
// blocks, pattern and mass (Model::restore_structure; a breakdown pass,
// --breakdown 1, counts there too). On one rank the same fields, lists of
// one.
inline Json& add_mpi_fields(Json& j, const MpiSession& comm, const RunResult& r) {
  j.integer("mpi_ranks", comm.world_size())
      .str("partition", r.partition.method)
      .integer("partition_elements_min", r.partition.elements_min)
      .integer("partition_elements_max", r.partition.elements_max)
      .integer("partition_shared_rows", r.partition.shared_rows_total)
      .integer("matrix_values_max_rank", r.partition.matrix_values_max);
  add_per_rank(j, "peak_rss_mib", per_rank(comm, r.peak_rss_mib));
  add_per_rank(j, "peak_rss_mib_end", per_rank(comm, peak_memory_mib()));
  add_per_rank(j, "s_per_step_steady_median", per_rank(comm, steady_median(r)));
  add_per_rank(j, "newton_iterations", per_rank(comm, static_cast<double>(r.newton)));
  add_per_rank(j, "linear_iterations",
               per_rank(comm, static_cast<double>(r.linear.total_iterations)));
  return j;
}

// {"wall_s": ..., "assembly_s": ..., ...} averaged over `steps`.
inline std::string breakdown_json(const std::vector<StepTimes>& steps, bool with_split) {
  auto avg = [&](auto f) {
    double s = 0;
    for (const auto& st : steps) s += f(st);
    return steps.empty() ? 0.0 : s / static_cast<double>(steps.size());
  };
  Json j;
  j.num("wall_s", avg([](const StepTimes& s) { return s.wall; }))
      .num("assembly_s", avg([](const StepTimes& s) { return s.assembly; }));
  if (with_split)
    j.num("residual_s_est", avg([](const StepTimes& s) { return s.residual_est(); }))
        .num("tangent_s_est", avg([](const StepTimes& s) { return s.tangent_est; }));
  j.num("factorization_s", avg([](const StepTimes& s) { return s.factorization; }))
      .num("solve_s", avg([](const StepTimes& s) { return s.solve; }))
      .num("contact_s", avg([](const StepTimes& s) { return s.contact; }))
      .num("other_s", avg([](const StepTimes& s) { return s.other(); }))
      .num("newton_iterations", avg([](const StepTimes& s) { return 1.0 * s.newton; }))
      .num("factorizations", avg([](const StepTimes& s) { return 1.0 * s.factorizations; }));
  return j.object();
}

// The opening fields of a driver's object: the case, its mesh and material.
inline Json case_json(const std::string& name, const Mesh& mesh, const std::string& material,
                      const std::string& resolution) {
  Json j;
  j.str("case", name)
      .str("element", to_string(mesh.type))
      .str("material", material)
      .str("resolution", resolution)
      .integer("elements", mesh.num_elements())
      .integer("nodes", mesh.num_nodes());
  return j;
}

// The fields common to the stepping drivers (after the problem's own), then
// the configuration (add_config) and the probe history.
inline Json& add_run_fields(Json& j, const RunResult& r, const StepperOptions& o, Model& model,
                            const Probe& probe, const std::string& hist_name) {
  const long long unknowns = 3LL * model.num_coefficients();
  const long long free_unknowns =
      3LL *
      (model.num_coefficients() - static_cast<long long>(model.clamped_coefficients().size()));
  // Steady steps: all but the first (which factorises from scratch).
  std::vector<StepTimes> steady(r.steps.size() > 1 ? r.steps.begin() + 1 : r.steps.begin(),
                                r.steps.end());
  std::vector<double> steady_wall;
  for (const auto& st : steady) steady_wall.push_back(st.wall);
  const double steady_mean = mean(steady_wall);
  j.integer("unknowns", unknowns)
      .integer("free_unknowns", free_unknowns)
      .integer("nnz", r.nnz)
      .integer("steps", o.steps)
      .num("dt", o.dt)
      .str("solver", o.solver)
      .str("preconditioner", o.preconditioner)
      .str("solver_backend", r.linear.backend)
      .str("ordering", o.ordering)
      .num("newton_abs_tol", o.abs_tol)
      .num("newton_rel_tol", o.rel_tol)
      .integer("reuse_jacobian", o.reuse_jacobian ? 1 : 0)
      .integer("krylov_iterations_max",
               o.krylov >= 0 ? o.krylov : StepperSettings{}.krylov_iterations)
      .str("kernel_shapes", o.kernel_shapes)
      .num("stepper_setup_s", r.stepper_setup_s)
      .num("wall_s", r.wall_s)
      .num("s_per_step", r.wall_s / std::max(1, o.steps))
      .num("s_first_step", r.steps.empty() ? 0.0 : r.steps.front().wall)
      .num("s_per_step_steady_mean", steady_mean)
      .num("s_per_step_steady_median", median(steady_wall))
      .integer("steady_steps", static_cast<long long>(steady.size()))
      .num("real_time_factor", steady_mean / o.dt)
      .num("unknowns_per_s", steady_mean > 0 ? free_unknowns / steady_mean : 0.0)
      .integer("newton_iterations", r.newton)
      .integer("outer_iterations", r.outer)
      .integer("factorizations", r.factorizations)
      .integer("krylov_iterations", r.krylov)
      .integer("retries", r.retries)
      .raw("breakdown_per_step", breakdown_json(steady, o.breakdown))
      .raw("breakdown_first_step",
           breakdown_json({r.steps.begin(), r.steps.begin() + std::min<size_t>(1, r.steps.size())},
                          o.breakdown));
  if (o.breakdown) j.num("tangent_call_s", r.tangent_call_s);
  j.raw("linear_stats", Json()
                            .str("backend", r.linear.backend)
                            .integer("analyses", r.linear.analyses)
                            .integer("factorizations", r.linear.factorizations)
                            .integer("solves", r.linear.solves)
                            .integer("total_iterations", r.linear.total_iterations)
                            .num("analyze_s", r.linear.analyze_seconds)
                            .num("factorize_s", r.linear.factorize_seconds)
                            .num("solve_s", r.linear.solve_seconds)
                            .object())
      .num("peak_rss_mib", r.peak_rss_mib);
  if (r.gpu_memory_peak_mib >= 0) j.num("gpu_memory_peak_mib", r.gpu_memory_peak_mib);
  j.integer("threads_requested", o.threads)
      .str("blas", r.blas.library)
      .integer("blas_threads", r.blas.threads)
      .str("blas_threads_source", r.blas.source);
  add_config(j);
  j.integer("probe_coefficient", probe.coefficient)
      .raw("probe", json_array({probe.reference[0], probe.reference[1], probe.reference[2]}))
      .str("probe_axis", std::string(1, "xyz"[probe.axis]))
      .num("probe_final", r.hist.empty() ? 0.0 : r.hist.back())
      .raw(hist_name, json_array(r.hist));
  return j;
}

// The gravity problem of the B2-B4 drivers: one body of `mesh` (built from
// t_setup0 on) of the material and density rho, node set `clamped` clamped
// (positions and gradients), gravity -9.81 m/s^2 along z. Builds the model,
// steps it and prints j (case_json and the driver's fields) with
// model_setup_s, add_run_fields and "z_hist", the z of the node at probe_x.
inline int run_gravity_case(const Mesh& mesh, const MaterialSpec& material, Real rho,
                            const std::string& clamped, const Vec3& probe_x,
                            const StepperOptions& o, double t_setup0, Json j) {
  Model model;
  const int body = model.add_body(mesh, material, rho);
  model.clamp_node_set(body, clamped, true);
  model.set_gravity({{0.0, 0.0, -9.81}});
  model.finalize();
  if (!o.mpi) throw_error("run_gravity_case: StepperOptions::mpi not set (driver_main sets it)");
  const Probe probe = probe_at(mesh, probe_x, 2, 1e-9);
  j.num("model_setup_s", now() - t_setup0);
  const RunResult r = run_steps(model, o, probe);
  add_mpi_fields(add_run_fields(j, r, o, model, probe, "z_hist"), *o.mpi, r);
  if (o.mpi->world_rank() == 0) j.print();
  return 0;
}

// main() of a stepping driver: MPI (before Kokkos), the common options and
// the driver's own (extra(a, next) returns false for an unknown argument),
// Kokkos with --threads, then run(options). Usage errors exit 2, tlfea::Error
// and other exceptions 1.
inline int driver_main(
    int argc, char** argv, const char* prog, const std::string& usage, StepperOptions& o,
    const std::function<bool(const std::string&, const std::function<std::string()>&)>& extra,
    const std::function<int(const StepperOptions&)>& run) {
  MpiSession mpi(&argc, &argv);
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const std::function<std::string()> next = [&]() -> std::string {
        if (i + 1 >= argc) arg_error(a + " needs a value");
        return argv[++i];
      };
      if (a == "--help" || a == "-h") {
        std::printf("%s%s", usage.c_str(), kStepperUsage);
        return 0;
      }
      if (a.rfind("--kokkos-", 0) == 0) continue;  // Kokkos's own, see KokkosArgs
      if (parse_stepper_option(a, next, o)) continue;
      if (!extra(a, next)) arg_error("unknown argument '" + a + "'");
    }
    check_solver_name(o.solver);
    o.mpi = &mpi;
    // On several ranks the TimeStepper frees the whole element block and the
    // pattern's column indices while it lives, which the breakdown's tangent
    // pass (time_tangent) reads: no breakdown there.
    if (mpi.world_size() > 1) o.breakdown = false;
  } catch (const ArgError& e) {
    std::fprintf(stderr, "%s: %s\n%s%s", prog, e.what(), usage.c_str(), kStepperUsage);
    return 2;
  }
  KokkosArgs kargs(argc, argv, o.threads);
  Kokkos::ScopeGuard guard(kargs.argc(), kargs.argv());
  if (o.threads > 0 && threads() != o.threads)
    std::fprintf(stderr, "%s: note: --threads %d asked, the %s backend runs %d\n", prog, o.threads,
                 backend().c_str(), threads());
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", prog, e.what());
    return 1;
  }
}

// driver_main for a driver whose one option of its own is `name N`,
// lo <= N <= hi, into `target`; `steps` is its default step count.
inline int int_option_driver_main(int argc, char** argv, const char* prog, const std::string& usage,
                                  int steps, const char* name, long lo, long hi, int& target,
                                  const std::function<int(const StepperOptions&)>& run) {
  StepperOptions o;
  o.steps = steps;
  return driver_main(
      argc, argv, prog, usage, o,
      [&](const std::string& a, const std::function<std::string()>& next) {
        return int_option(a, next, name, lo, hi, target);
      },
      run);
}

}  // namespace tlfea::bench
