// B1 benchmark (docs/theory.md §A.1): the T10 beam resolution study. One JSON
// object per run with the fields of docs/theory.md §A.1 and docs/guide/benchmarks.md.
//
//   tlfea_bench_t10_beam [--mesh-dir DIR] [--res R] [--steps N] [--dt DT]
//                        [--material svk|mr] [--solver NAME] [--generated]
//                        [--abs-tol A] [--rel-tol R] [--reuse-jacobian 0|1]
//                        [--breakdown 0|1] [--ordering default|nd|amd]
//                        [--preconditioner default|none|jacobi|block-jacobi|sgs|ilu0|ilu|muelu]
//
// Problem (B1): beam [0,3] x [0,2] x [0,1] m; every node with x = 0 clamped;
// 5000 N in +x split equally over every mesh node with x = 3 (midside nodes
// included); no gravity; SVK E = 7e8 Pa, nu = 0.33, rho = 2700 kg/m^3 (mr:
// compressible Mooney-Rivlin mu10 = 0.3 mu, mu01 = 0.2 mu, kappa = 1.5 K from
// the same E, nu); backward Euler from rest. The probe is the node at
// (3, 1, 0.5); "x_hist" is its x position after every step.
//
// Meshes: res 0, 2, 4, 8, 16 are the shipped TetGen meshes
// DIR/beam_3x2x1_res{R}.1.{node,ele}. Any other res (32, ...), or any res with
// --generated, is generate_box(T10) with (3k, 2k, k) cells of 6 Kuhn
// tetrahedra, k = max(1, round(8.33 (R/16)^(2.2/3))): the shipped meshes grow
// by about 2^2.2 = 4.6x in elements per doubling of res (4567 -> 20829 from
// res 8 to 16), and this k follows that law (res 8 -> k = 5, 4500 tets; res 16
// -> k = 8, 18432 tets; res 32 -> k = 14, 98784 tets, 421515 unknowns).
//
// Newton tolerances default to the B1 peer's (absolute and relative residual
// 1e-4, N): TLFEA's residual g = M (v - v_n)/h + f_int(q_n + h v) - f_ext is
// the same function, in the same units, as the displacement-form residual the
// dolfinx peer uses, so the same numbers mean the same convergence test.
//
// Under mpirun -np N (Trilinos build) the TimeStepper splits the elements
// between the ranks and solves with dist-cg (docs/guide/mpi.md);
// rank 0 prints one object with every rank's peak memory, steady step time
// and iteration counts gathered ("peak_rss_mib_per_rank", ..._max_rank,
// ..._min_rank: bench_stepper.hpp add_mpi_fields), the estimated breakdown
// below is skipped, and "stepper_*_s" are the StepReport timers summed over
// the steps (rank 0's).
//
// Time breakdown: with --breakdown 1
// (default) the driver times, after the run and on its final state, one
// internal-force pass, one tangent assembly, one factorisation and one solve
// with the same backend, and reports estimated totals = per-call time x the
// counts the stepper reported ("breakdown_estimated": true).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_stepper.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh_io.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/linalg/mpi_session.hpp"
#include "tlfea/model/model.hpp"

using namespace tlfea;

namespace {

constexpr const char* kUsage =
    "usage: tlfea_bench_t10_beam [--mesh-dir DIR] [--res R] [--steps N] [--dt DT]\n"
    "                            [--material svk|mr] [--solver NAME] [--generated]\n"
    "                            [--abs-tol A] [--rel-tol R] [--reuse-jacobian 0|1]\n"
    "                            [--breakdown 0|1] [--ordering default|nd|amd]\n"
    "                            [--preconditioner P] [--partition default|metis|range]\n"
    "  B1 T10 beam (docs/theory.md §A.1): one JSON object on stdout.\n"
    "  --mesh-dir DIR   folder of beam_3x2x1_res{0,2,4,8,16}.1.{node,ele}\n"
    "                   (needed for those res unless --generated)\n"
    "  --res R          resolution, default 0; res not shipped (e.g. 32) is\n"
    "                   generate_box T10 (3k,2k,k) cells, k = round(8.33 (R/16)^0.733)\n"
    "  --steps N        time steps, default 50\n"
    "  --dt DT          time step [s], default 1e-3\n"
    "  --material M     svk (default) or mr (Mooney-Rivlin variant)\n"
    "  --solver NAME    linear-solver backend, default 'default'\n"
    "  --generated      use the generated mesh even for shipped res\n"
    "  --abs-tol A      Newton absolute residual tolerance [N], default 1e-4\n"
    "  --rel-tol R      Newton relative residual tolerance, default 1e-4\n"
    "  --reuse-jacobian 0|1  keep the factorisation while Newton converges fast (default 1)\n"
    "  --breakdown 0|1  estimate assembly/factorisation/solve times after the run (default 1)\n"
    "  --ordering O     Tacho fill-reducing order: default (nd with METIS, else amd), nd, amd\n"
    "  --preconditioner P  Belos / dist-* backends: default (ilu), none, jacobi, ilu,\n"
    "                   muelu (AMG on the rigid-body modes); kk-*: block-jacobi, sgs, ilu0\n"
    "  --partition P    several MPI ranks: default (metis with METIS, else range),\n"
    "                   metis, range (StepperSettings::partition)\n";

[[noreturn]] void bad_args(const std::string& msg) {
  std::fprintf(stderr, "tlfea_bench_t10_beam: %s\n%s", msg.c_str(), kUsage);
  std::exit(2);
}

// B1's own options; the stepping ones (steps, dt, solver, ordering, Newton
// tolerances, reuse-jacobian, breakdown) in `run` (bench_stepper.hpp).
struct Options {
  std::string mesh_dir, material = "svk";
  int res = 0;
  int ranks = 1, rank = 0;  // MPI_COMM_WORLD: several ranks split the elements (TimeStepper)
  bool generated = false;
  bench::StepperOptions run;
};

bool shipped(int res) { return res == 0 || res == 2 || res == 4 || res == 8 || res == 16; }

// Cells along z of the generated mesh for resolution res (see the header).
int generated_k(int res) {
  return std::max(1, static_cast<int>(std::lround(8.33 * std::pow(res / 16.0, 2.2 / 3.0))));
}

// Per-call times of the Newton building blocks on the state (q, v), with the
// stepper's matrix M/h + h K and its elimination of clamped dofs.
struct Breakdown {
  double internal_force_s = 0, tangent_s = 0, factorize_s = 0, solve_s = 0, analyze_s = 0;
};

Breakdown time_components(Model& model, const CoefView& q, const CoefView& v, Real h,
                          const LinearSolverOptions& lo) {
  Breakdown b;
  const CrsPattern& p = model.pattern();
  const Ordinal n = model.num_coefficients();
  CoefView f("bench::f", n);
  DeviceView<Real*> values("bench::values", p.nnz());
  auto timed = [](auto&& fn, int reps) {
    fn();  // warm-up
    Kokkos::fence();
    const double t0 = bench::now();
    for (int r = 0; r < reps; ++r) fn();
    Kokkos::fence();
    return (bench::now() - t0) / reps;
  };
  b.internal_force_s = timed(
      [&] {
        Kokkos::deep_copy(f, 0.0);
        model.block(0).internal_force(q, v, f);
      },
      3);
  b.tangent_s = timed(
      [&] {
        Kokkos::deep_copy(values, 0.0);
        model.block(0).tangent(q, v, h, 1.0, values);
      },
      3);
  // The stepper's matrix: M/h + h K, clamped rows and columns replaced by the identity.
  {
    auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
    auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
    auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
    auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.entries);
    std::vector<char> fixed(p.num_rows(), 0);
    for (Ordinal c : model.clamped_coefficients())
      for (int a = 0; a < 3; ++a) fixed[3 * c + a] = 1;
    for (Ordinal r = 0; r < p.num_rows(); ++r)
      for (Offset k = rm(r); k < rm(r + 1); ++k) {
        hv(k) += hm(k) / h;
        if (fixed[r] || fixed[en(k)]) hv(k) = en(k) == r ? 1.0 : 0.0;
      }
    Kokkos::deep_copy(values, hv);
  }
  auto solver = make_linear_solver(lo);
  double t0 = bench::now();
  solver->analyze(p);
  b.analyze_s = bench::now() - t0;
  DeviceView<Real*> rhs("bench::rhs", 3 * n), x("bench::x", 3 * n);
  Kokkos::deep_copy(rhs, 1.0);
  b.factorize_s = timed([&] { solver->factorize(values); }, 2);
  b.solve_s = timed([&] { solver->solve(rhs, x); }, 3);
  return b;
}

int run(const Options& o, const tlfea::MpiSession& mpi) {
  const double t_setup0 = bench::now();
  Mesh mesh;
  std::string mesh_kind, mesh_source;
  if (shipped(o.res) && !o.generated) {
    if (o.mesh_dir.empty())
      bad_args("res " + std::to_string(o.res) +
               " is a shipped B1 mesh: give --mesh-dir DIR (or --generated)");
    mesh_source = o.mesh_dir + "/beam_3x2x1_res" + std::to_string(o.res) + ".1";
    mesh = read_tetgen(mesh_source);
    mesh_kind = "tetgen";
  } else {
    const int k = generated_k(o.res);
    mesh = generate_box(ElementType::T10, {3.0, 2.0, 1.0}, {3 * k, 2 * k, k});
    mesh_kind = "generated";
    mesh_source = "generate_box(T10, 3x2x1, " + std::to_string(3 * k) + "x" +
                  std::to_string(2 * k) + "x" + std::to_string(k) + ")";
  }
  if (mesh.type != ElementType::T10) throw_error(mesh_source, ": not a T10 mesh");

  const Real E = 7e8, nu = 0.33, rho = 2700.0, total_force = 5000.0;
  const Real mu = E / (2 * (1 + nu)), K = E / (3 * (1 - 2 * nu));
  const MaterialSpec mat = o.material == "svk"
                               ? MaterialSpec::svk(E, nu)
                               : MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, 1.5 * K);

  const Real tol = 1e-9 * 3.0;
  const std::vector<Ordinal> clamped = nodes_where(mesh, 0, 0.0, tol);
  const std::vector<Ordinal> loaded = nodes_where(mesh, 0, 3.0, tol);
  if (clamped.empty() || loaded.empty())
    throw_error(mesh_source, ": no nodes at x = 0 or x = 3 (is this the 3x2x1 beam?)");
  // Probe: the x coordinate of the node at (3, 1, 0.5) (T10: coefficient = node).
  mesh.source = mesh_source;
  const bench::Probe probe = bench::probe_at(mesh, {{3.0, 1.0, 0.5}}, 0, 1e-6);

  Model model;
  const int body = model.add_body(mesh, mat, rho);
  model.clamp_nodes(body, clamped);
  const Real fn = total_force / static_cast<Real>(loaded.size());
  for (Ordinal k : loaded) model.add_nodal_force(body, k, Vec3{{fn, 0.0, 0.0}});
  model.finalize();
  const double model_setup = bench::now() - t_setup0;

  // The timed steps (bench::run_steps, peak RSS before the breakdown pass,
  // which builds a second factorisation), then this driver's own breakdown
  // on the final state instead of run_steps' tangent pass.
  const bench::StepperOptions& so = o.run;
  bench::StepperOptions steps_only = so;
  steps_only.breakdown = false;
  Breakdown b;
  const bool breakdown = so.breakdown && o.ranks == 1;  // its solver would be a 1-rank one
  const bench::RunResult r = bench::run_steps(model, steps_only, probe, [&](TimeStepper& stepper) {
    if (!breakdown) return;
    LinearSolverOptions lo;
    lo.backend = so.solver;
    lo.ordering = so.ordering;
    lo.preconditioner = so.preconditioner;
    b = time_components(model, stepper.positions(), stepper.velocities(), so.dt, lo);
  });
  const double t_setup = model_setup + r.stepper_setup_s;
  const double wall = r.wall_s, peak_rss = r.peak_rss_mib;
  const long newton = r.newton, outer = r.outer, factorizations = r.factorizations;
  std::vector<double> step_s;
  double assembly = 0, factorization = 0, solve = 0;  // the stepper's own timers
  for (const bench::StepTimes& st : r.steps) {
    step_s.push_back(st.wall);
    assembly += st.assembly;
    factorization += st.factorization;
    solve += st.solve;
  }

  const Vec3& P = probe.reference;
  bench::Json j;
  j.str("case", "b1_t10_beam")
      .str("element", to_string(mesh.type))
      .str("material", o.material)
      .str("resolution", "res" + std::to_string(o.res))
      .integer("res", o.res)
      .str("mesh", mesh_kind)
      .str("mesh_source", mesh_source)
      .integer("elements", mesh.num_elements())
      .integer("nodes", mesh.num_nodes())
      .integer("unknowns", 3LL * model.num_coefficients())
      .integer("free_unknowns", 3LL * (model.num_coefficients() -
                                       static_cast<long long>(model.clamped_coefficients().size())))
      .integer("nnz", r.nnz)
      .integer("clamped_nodes", static_cast<long long>(clamped.size()))
      .integer("loaded_nodes", static_cast<long long>(loaded.size()))
      .num("load_total_n", fn * static_cast<Real>(loaded.size()))
      .integer("steps", so.steps)
      .num("dt", so.dt)
      .str("solver", so.solver)
      .str("ordering", so.ordering)
      .str("preconditioner", so.preconditioner)
      .str("coarse", so.coarse)
      .integer("cg_budget", so.cg_budget ? 1 : 0)
      .num("newton_abs_tol", so.abs_tol)
      .num("newton_rel_tol", so.rel_tol)
      .integer("reuse_jacobian", so.reuse_jacobian ? 1 : 0)
      .num("setup_s", t_setup)
      .num("wall_s", wall)
      .num("s_per_step", wall / std::max(1, so.steps))
      .num("s_per_step_median", bench::median(step_s))
      .num("s_per_step_steady_median", bench::steady_median(r))
      .integer("steady_steps", std::max(0, so.steps - 1))
      .num("s_first_step", step_s.empty() ? 0.0 : step_s.front())
      .num("real_time_factor", wall / (so.steps * so.dt))
      .num("unknowns_per_s", 3.0 * model.num_coefficients() * so.steps / wall)
      .integer("newton_iterations", newton)
      .integer("outer_iterations", outer)
      .integer("factorizations", factorizations)
      .integer("retries", r.retries)
      .str("linear_backend", r.linear.backend)
      .integer("linear_iterations", r.linear.total_iterations)
      .integer("linear_solves", r.linear.solves)
      .num("linear_iterations_per_solve",
           r.linear.solves ? 1.0 * r.linear.total_iterations / r.linear.solves : 0.0)
      .num("linear_setup_s", r.linear.factorize_seconds)
      .num("linear_solve_s", r.linear.solve_seconds)
      .num("stepper_assembly_s", assembly)
      .num("stepper_factorization_s", factorization)
      .num("stepper_solve_s", solve);
  if (breakdown) {
    // Estimated: residual evaluations >= Newton iterations + one per step
    // (line-search backtracking adds more; not reported by the stepper).
    const double n_res = static_cast<double>(newton + so.steps);
    j.integer("breakdown_estimated", 1)
        .num("internal_force_call_s", b.internal_force_s)
        .num("tangent_call_s", b.tangent_s)
        .num("factorize_call_s", b.factorize_s)
        .num("solve_call_s", b.solve_s)
        .num("analyze_s", b.analyze_s)
        .num("assembly_s", n_res * b.internal_force_s + factorizations * b.tangent_s)
        .num("factorization_s", factorizations * b.factorize_s)
        .num("solve_s", newton * b.solve_s)
        .num("contact_s", 0.0)
        .num("output_s", 0.0);
  }
  // Rank 0's peak; add_mpi_fields adds every rank's (memory per rank).
  j.num("peak_rss_mib", peak_rss);
  if (r.gpu_memory_peak_mib >= 0) j.num("gpu_memory_peak_mib", r.gpu_memory_peak_mib);
  bench::add_mpi_fields(j, mpi, r)
      .integer("probe_node", probe.coefficient)
      .raw("probe", bench::json_array({P[0], P[1], P[2]}))
      .raw("x_hist", bench::json_array(r.hist));
  if (o.rank == 0) bench::add_config(j).print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  tlfea::MpiSession mpi(&argc, &argv);
  Options o;
  o.run.steps = 50;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const std::function<std::string()> next = [&]() -> std::string {
        if (i + 1 >= argc) bench::arg_error(a + " needs a value");
        return argv[++i];
      };
      if (a == "--help" || a == "-h") {
        std::printf("%s", kUsage);
        return 0;
      } else if (a == "--mesh-dir") {
        o.mesh_dir = next();
      } else if (bench::int_option(a, next, "--res", 0, 1024, o.res)) {
      } else if (a == "--material") {
        o.material = next();
        if (o.material != "svk" && o.material != "mr")
          bench::arg_error("--material must be svk or mr, got '" + o.material + "'");
      } else if (a == "--generated") {
        o.generated = true;
      } else if (a.rfind("--kokkos-", 0) == 0) {
        // Kokkos's own options (--kokkos-num-threads=N ...), read by ScopeGuard.
      } else if (a == "--threads" || !bench::parse_stepper_option(a, next, o.run)) {
        bench::arg_error("unknown argument '" + a + "'");
      }
    }
    bench::check_solver_name(o.run.solver);
    if (shipped(o.res) && !o.generated && o.mesh_dir.empty())
      bench::arg_error("res " + std::to_string(o.res) +
                       " is a shipped B1 mesh: give --mesh-dir DIR (or --generated)");
  } catch (const bench::ArgError& e) {
    bad_args(e.what());
  }
  o.ranks = mpi.world_size();
  o.rank = mpi.world_rank();
  Kokkos::ScopeGuard guard(argc, argv);
  try {
    return run(o, mpi);
  } catch (const tlfea::Error& e) {
    std::fprintf(stderr, "tlfea_bench_t10_beam: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlfea_bench_t10_beam: %s\n", e.what());
    return 1;
  }
}
