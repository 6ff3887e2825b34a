// B3 benchmark (docs/theory.md §A.3): the ANCF 3443 plate resolution study.
// One JSON object per run (docs/guide/benchmarks.md).
//
//   tlfea_bench_ancf_plate [--divisions N] [--steps S] [--dt DT] [--solver NAME]
//                          [--abs-tol A] [--rel-tol R] [--reuse-jacobian 0|1]
//                          [--breakdown 0|1] [--threads T]
//
// Problem (B3): square plate [0, 1] x [0, 1] m in the x-y plane, thickness
// 0.01 m (generate_plate_ancf3443, N x N elements), the edge x = 0 clamped
// (positions and all gradients), gravity -9.81 m/s^2 along z, the B2
// material (SVK E = 7e8 Pa, nu = 0.33, rho = 2700 kg/m^3); backward Euler
// from rest, h = 1e-3 s, 200 steps. Meshes 2x2, 4x4, ..., 64x64. The probe is
// the free corner (1, 1, 0); "z_hist" is its z after every step.
#include <string>

#include "bench_stepper.hpp"
#include "tlfea/core/generators.hpp"

using namespace tlfea;

namespace {

constexpr const char* kProg = "tlfea_bench_ancf_plate";
constexpr const char* kUsage =
    "usage: tlfea_bench_ancf_plate [--divisions N] [options]\n"
    "  B3 ANCF 3443 plate (docs/theory.md §A.3): one JSON object on stdout.\n"
    "  --divisions N    N x N elements (study: 2 4 8 16 32 64), default 8\n";

int divisions = 8;

int run(const bench::StepperOptions& o) {
  const double t_setup0 = bench::now();
  const Real side = 1.0, thickness = 0.01, E = 7e8, nu = 0.33, rho = 2700.0;
  Mesh mesh = generate_plate_ancf3443(side, side, thickness, {divisions, divisions});
  bench::Json j = bench::case_json("b3_ancf3443_plate", mesh, "svk",
                                   std::to_string(divisions) + "x" + std::to_string(divisions));
  j.integer("divisions", divisions);
  return bench::run_gravity_case(mesh, MaterialSpec::svk(E, nu), rho, "xmin", {{side, side, 0.0}},
                                 o, t_setup0, j);
}

}  // namespace

int main(int argc, char** argv) {
  return bench::int_option_driver_main(argc, argv, kProg, kUsage, 200, "--divisions", 1, 4096,
                                       divisions, run);
}
