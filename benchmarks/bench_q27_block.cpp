// B4 benchmark (docs/theory.md §A.4): the Q27 block resolution study. One
// JSON object per run (docs/guide/benchmarks.md).
//
//   tlfea_bench_q27_block [--divisions N] [--max-memory-gb G] [--steps S]
//                         [--dt DT] [--solver NAME] [--abs-tol A] [--rel-tol R]
//                         [--reuse-jacobian 0|1] [--breakdown 0|1] [--threads T]
//
// Problem (B4): cube [0, 1]^3 m (generate_box Q27, N^3 elements), every node
// of the base z = 0 clamped, gravity -9.81 m/s^2 along z, Neo-Hookean
// mu = 1e6 Pa, K = 1e7 Pa, rho = 1000 kg/m^3; backward Euler from rest,
// h = 1e-3 s, 50 steps. Meshes 2^3 to 64^3 as memory allows. The probe is
// the top corner (1, 1, 1); "z_hist" is its z after every step.
//
// Under mpirun -np N (Trilinos build, --solver dist-cg) the TimeStepper splits
// the elements between the ranks; rank 0 prints the one object, with every
// rank's peak memory, steady step time and iteration counts gathered
// (bench_stepper.hpp add_mpi_fields), and --breakdown is off.
//
// Memory: before building anything the driver estimates the peak (see
// memory_estimate_gib) and refuses, with a message and exit status 3, above
// --max-memory-gb (default 20).
#include <cmath>
#include <string>

#include "bench_stepper.hpp"
#include "tlfea/core/generators.hpp"

using namespace tlfea;

namespace {

constexpr const char* kProg = "tlfea_bench_q27_block";
constexpr const char* kUsage =
    "usage: tlfea_bench_q27_block [--divisions N] [--max-memory-gb G] [options]\n"
    "  B4 Q27 block (docs/theory.md §A.4): one JSON object on stdout.\n"
    "  --divisions N    N^3 elements (study: 2 4 8 16 32 64), default 4\n"
    "  --max-memory-gb G  refuse (exit 3) when the estimated peak exceeds G GiB, default 20\n";

int divisions = 4;
double max_memory_gb = 20.0;

// Estimated peak memory [GiB] of an N^3 Q27 block: a fit of the peak
// resident set measured with this driver (Serial, Tacho with METIS nested
// dissection, 2 steps) at N = 6, 10, 12, 16, within 2 % there:
//   64 MiB + 40 B x nnz + 107 B x s^2 (direct solvers),
// nnz = 9 (8N + 1)^3 the scalar entries of the Newton matrix (the node
// couplings of a structured Q27 grid, scene/src/size_limits.hpp box_pairs_per_axis; the
// 40 B cover its copies, the element data and the vectors) and s = 3 (2N + 1)^2
// the unknowns of the largest nested-dissection separator, a plane of nodes:
// the factor of a 3D grid grows like s^2. Iterative solvers keep no factor
// (kk-cg measured 36 B x nnz). Extrapolated: 32^3 about 21.7 GiB, 64^3 about
// 290 GiB (kk-cg: 5.8 and 45 GiB).
double memory_estimate_gib(int n, bool iterative) {
  const double side = 2.0 * n + 1.0;
  const double nnz = 9.0 * std::pow(8.0 * n + 1.0, 3);
  const double separator = 3.0 * side * side;
  const double base = 64.0 * 1024.0 * 1024.0;
  const double factor = iterative ? 0.0 : 107.0 * separator * separator;
  return (base + 40.0 * nnz + factor) / (1024.0 * 1024.0 * 1024.0);
}

int run(const bench::StepperOptions& o) {
  const double estimate = memory_estimate_gib(divisions, bench::iterative_solver(o.solver));
  if (estimate > max_memory_gb) {
    std::fprintf(stderr,
                 "%s: %d^3 elements need about %.1f GiB (estimate), above --max-memory-gb %.1f; "
                 "not run\n",
                 kProg, divisions, estimate, max_memory_gb);
    return 3;
  }
  const double t_setup0 = bench::now();
  const Real side = 1.0, mu = 1e6, K = 1e7, rho = 1000.0;
  Mesh mesh = generate_box(ElementType::Q27, {side, side, side}, {divisions, divisions, divisions});
  bench::Json j =
      bench::case_json("b4_q27_block", mesh, "neo_hookean", std::to_string(divisions) + "^3");
  j.integer("divisions", divisions)
      .num("memory_estimate_gib", estimate)
      .num("max_memory_gb", max_memory_gb);
  return bench::run_gravity_case(mesh, MaterialSpec::neo_hookean(mu, K), rho, "zmin",
                                 {{side, side, side}}, o, t_setup0, j);
}

}  // namespace

int main(int argc, char** argv) {
  bench::StepperOptions o;
  o.steps = 50;
  return bench::driver_main(
      argc, argv, kProg, kUsage, o,
      [](const std::string& a, const std::function<std::string()>& next) {
        if (bench::int_option(a, next, "--divisions", 1, 1024, divisions)) return true;
        if (a != "--max-memory-gb") return false;
        max_memory_gb = bench::parse_double(a, next());
        if (!(max_memory_gb > 0)) bench::arg_error("--max-memory-gb must be positive");
        return true;
      },
      run);
}
