// Element-kernel benchmark: internal-force and tangent assembly for each
// element type on meshes of growing size. One JSON object per case.
//
//   tlfea_bench_kernels [--mesh-dir DIR] [--max-res R] [--repeat N] [--quick]
//
// Without --mesh-dir the T10 cases use generated boxes; with it, the B1 beam
// meshes DIR/beam_3x2x1_res{0,2,4,8,16}.1.{node,ele} up to --max-res.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh_io.hpp"
#include "tlfea/elements/element_block.hpp"

using namespace tlfea;

namespace {

struct Case {
  std::string name;
  Mesh mesh;
  std::string resolution;
};

void run_case(const Case& c, const MaterialSpec& mat, int repeat) {
  const double t_setup0 = bench::now();
  auto block = make_element_block(c.mesh, 0, mat, 2700.0);
  std::vector<CliqueSet> cl{block->cliques()};
  std::vector<DeviceView<Offset***>> off;
  CrsPattern pattern = build_crs_pattern(c.mesh.num_coefficients(), cl, off);
  block->set_matrix_offsets(pattern, off[0]);
  const double t_setup = bench::now() - t_setup0;
  CoefView q0("q0", c.mesh.num_coefficients()), v("v", c.mesh.num_coefficients());
  copy_reference_coefficients(c.mesh, 0, q0);
  // A deformed state: 1% uniform stretch along x, so the laws do real work.
  CoefView q("q", c.mesh.num_coefficients());
  Kokkos::deep_copy(q, q0);
  {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    for (size_t k = 0; k < h.extent(0); ++k) h(k, 0) *= 1.01;
    Kokkos::deep_copy(q, h);
  }
  CoefView f("f", c.mesh.num_coefficients());
  DeviceView<Real*> values("values", pattern.nnz());
  // Warm-up, then timed repetitions fenced on both sides.
  block->internal_force(q, v, f);
  block->tangent(q, v, 1.0, 0.0, values);
  Kokkos::fence();
  double t0 = bench::now();
  for (int r = 0; r < repeat; ++r) {
    Kokkos::deep_copy(f, 0.0);
    block->internal_force(q, v, f);
  }
  Kokkos::fence();
  const double t_force = (bench::now() - t0) / repeat;
  t0 = bench::now();
  for (int r = 0; r < repeat; ++r) {
    Kokkos::deep_copy(values, 0.0);
    block->tangent(q, v, 1.0, 0.0, values);
  }
  Kokkos::fence();
  const double t_tangent = (bench::now() - t0) / repeat;
  const double ne = static_cast<double>(c.mesh.num_elements());
  bench::Json j;
  j.str("case", c.name)
      .str("element", to_string(c.mesh.type))
      .str("material", mat.name())
      .str("resolution", c.resolution)
      .integer("elements", c.mesh.num_elements())
      .integer("unknowns", 3LL * c.mesh.num_coefficients())
      .integer("nnz", pattern.nnz())
      .integer("quadrature_points", block->quadrature_points())
      .integer("repeat", repeat)
      .num("setup_s", t_setup)
      .num("internal_force_s", t_force)
      .num("tangent_s", t_tangent)
      .num("internal_force_elements_per_s", ne / t_force)
      .num("tangent_elements_per_s", ne / t_tangent)
      .num("peak_rss_mib", bench::peak_rss_mib());
  bench::add_config(j).print();
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::string mesh_dir;
  int max_res = 16, repeat = 5;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](const char* what) -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tlfea_bench_kernels: %s needs a value\n", what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--mesh-dir")
      mesh_dir = next("--mesh-dir");
    else if (a == "--max-res")
      max_res = std::atoi(next("--max-res").c_str());
    else if (a == "--repeat")
      repeat = std::max(1, std::atoi(next("--repeat").c_str()));
    else if (a == "--quick")
      quick = true;
    else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: tlfea_bench_kernels [--mesh-dir DIR] [--max-res R] [--repeat N] [--quick]\n");
      return 0;
    } else {
      std::fprintf(stderr, "tlfea_bench_kernels: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  try {
    std::vector<Case> cases;
    if (!mesh_dir.empty()) {
      for (int res : {0, 2, 4, 8, 16}) {
        if (res > max_res) break;
        const std::string base = mesh_dir + "/beam_3x2x1_res" + std::to_string(res) + ".1";
        cases.push_back({"b1_t10_beam", read_tetgen(base), "res" + std::to_string(res)});
      }
    } else {
      for (int n : quick ? std::vector<int>{2, 4} : std::vector<int>{4, 8, 16})
        cases.push_back(
            {"t10_box", generate_box(ElementType::T10, {3.0, 2.0, 1.0}, {3 * n, 2 * n, n}),
             std::to_string(3 * n) + "x" + std::to_string(2 * n) + "x" + std::to_string(n)});
    }
    for (int n : quick ? std::vector<int>{2, 4} : std::vector<int>{4, 8, 16})
      cases.push_back({"q27_box", generate_box(ElementType::Q27, {1.0, 1.0, 1.0}, {n, n, n}),
                       std::to_string(n) + "^3"});
    for (int n : quick ? std::vector<int>{16, 64} : std::vector<int>{16, 128, 1024})
      cases.push_back(
          {"ancf3243_beam", generate_beam_ancf3243(2.0, 0.1, 0.1, n), std::to_string(n)});
    for (int n : quick ? std::vector<int>{4, 8} : std::vector<int>{8, 32, 64})
      cases.push_back({"ancf3443_plate", generate_plate_ancf3443(1.0, 1.0, 0.01, {n, n}),
                       std::to_string(n) + "x" + std::to_string(n)});
    const Real E = 7e8, nu = 0.33, mu = E / (2 * (1 + nu)), K = E / (3 * (1 - 2 * nu));
    for (const Case& c : cases) {
      run_case(c, MaterialSpec::svk(E, nu), repeat);
      run_case(c, MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, 1.5 * K), repeat);
    }
  } catch (const tlfea::Error& e) {
    std::fprintf(stderr, "tlfea_bench_kernels: %s\n", e.what());
    return 1;
  }
  return 0;
}
