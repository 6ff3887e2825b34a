// B2 benchmark (docs/theory.md §A.2): the ANCF 3243 cantilever resolution
// study. One JSON object per run (docs/guide/benchmarks.md).
//
//   tlfea_bench_ancf_beam [--elements N] [--steps S] [--dt DT] [--solver NAME]
//                         [--abs-tol A] [--rel-tol R] [--reuse-jacobian 0|1]
//                         [--breakdown 0|1] [--threads T]
//
// Problem (B2): beam 2 m along +x, 0.1 x 0.1 m section (generate_beam_ancf3243),
// node 0 clamped (position and all gradients), gravity -9.81 m/s^2 along z,
// SVK E = 7e8 Pa, nu = 0.33, rho = 2700 kg/m^3; backward Euler from rest,
// h = 1e-3 s, 200 steps. Resolutions 4, 8, 16, 32, 64, 128 elements. The
// probe is the tip node (x = 2); "z_hist" is its z after every step.
#include <string>

#include "bench_stepper.hpp"
#include "tlfea/core/generators.hpp"

using namespace tlfea;

namespace {

constexpr const char* kProg = "tlfea_bench_ancf_beam";
constexpr const char* kUsage =
    "usage: tlfea_bench_ancf_beam [--elements N] [options]\n"
    "  B2 ANCF 3243 cantilever (docs/theory.md §A.2): one JSON object on stdout.\n"
    "  --elements N     elements along the beam (study: 4 8 16 32 64 128), default 16\n";

int elements = 16;

int run(const bench::StepperOptions& o) {
  const double t_setup0 = bench::now();
  const Real L = 2.0, W = 0.1, H = 0.1, E = 7e8, nu = 0.33, rho = 2700.0;
  Mesh mesh = generate_beam_ancf3243(L, W, H, elements);
  return bench::run_gravity_case(
      mesh, MaterialSpec::svk(E, nu), rho, "end0", {{L, 0.0, 0.0}}, o, t_setup0,
      bench::case_json("b2_ancf3243_beam", mesh, "svk", std::to_string(elements)));
}

}  // namespace

int main(int argc, char** argv) {
  return bench::int_option_driver_main(argc, argv, kProg, kUsage, 200, "--elements", 1, 1000000,
                                       elements, run);
}
