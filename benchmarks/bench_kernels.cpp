// Element-kernel benchmark: internal-force and tangent assembly for each
// element type on meshes of growing size. One JSON object per case.
//
//   tlfea_bench_kernels [--mesh-dir DIR] [--max-res R] [--repeat N] [--quick]
//                       [--only PREFIX] [--materials LIST] [--compare 0|1]
//                       [--team 0|1]
//
// --only runs the cases whose name starts with PREFIX (e.g. "ancf");
// --materials is a comma list of svk, svk_nosplit (ANCF Poisson split off),
// kv_svk (Kelvin-Voigt SVK), mr, nh (default svk,mr). With
// --compare 1 every case is timed twice more, interleaved: the block's
// default loop shapes ("default": the lane force where the block has one)
// and the range shape of both kernels ("range",
// ElementBlockBase::set_kernel_shapes), repeat times each,
// alternating, and the medians and their ratio are printed (one build, one
// run: the ratio is robust to a busy machine). The compare timings are the
// calling thread's CPU time when Kokkos runs one thread (Serial), so time
// spent descheduled on a shared machine does not count. --team 1 likewise
// times the one-thread-per-element loops against the team-per-element loops
// (team_kernels.hpp; ElementBlockBase::set_kernel_shapes).
//
// Without --mesh-dir the T10 cases use generated boxes; with it, the B1 beam
// meshes DIR/beam_3x2x1_res{0,2,4,8,16}.1.{node,ele} up to --max-res.
#include <cstdlib>
#include <cstring>
#include <ctime>
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

// CPU seconds of the calling thread (Serial backend: all the kernel's work),
// insensitive to the time the thread is not scheduled on a busy machine.
double thread_cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

// Seconds of one fenced call of fn: thread CPU time with the Serial backend
// (one thread does the work), wall time otherwise.
template <class Fn>
double timed(Fn&& fn) {
  const bool cpu = ExecSpace().concurrency() == 1;
  Kokkos::fence();
  const double t0 = cpu ? thread_cpu_s() : bench::now();
  fn();
  Kokkos::fence();
  return (cpu ? thread_cpu_s() : bench::now()) - t0;
}

void run_case(const Case& c, const MaterialSpec& mat, int repeat, bool compare, bool team) {
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
  const KernelShapes shape0 = block->kernel_shapes();  // the space's defaults
  // Interleaved default-shape / range-shape timings (per-call medians).
  std::vector<double> tf[2], tk[2];
  if (compare) {
    for (int r = 0; r < repeat; ++r)
      for (int ref = 0; ref < 2; ++ref) {
        block->set_kernel_shapes(ref == 1 ? KernelShapes::all(KernelShape::Range) : shape0);
        Kokkos::deep_copy(f, 0.0);
        tf[ref].push_back(timed([&] { block->internal_force(q, v, f); }));
        Kokkos::deep_copy(values, 0.0);
        tk[ref].push_back(timed([&] { block->tangent(q, v, 1.0, 0.0, values); }));
      }
    block->set_kernel_shapes(shape0);
  }
  // Interleaved range-shape / team-shape timings (per-call medians).
  std::vector<double> sf[2], sk[2];
  if (team) {
    for (int r = 0; r < repeat; ++r)
      for (int t = 0; t < 2; ++t) {
        block->set_kernel_shapes(
            KernelShapes::all(t == 1 ? KernelShape::Team : KernelShape::Range));
        Kokkos::deep_copy(f, 0.0);
        sf[t].push_back(timed([&] { block->internal_force(q, v, f); }));
        Kokkos::deep_copy(values, 0.0);
        sk[t].push_back(timed([&] { block->tangent(q, v, 1.0, 0.0, values); }));
      }
    block->set_kernel_shapes(shape0);
  }
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
      .num("peak_rss_mib", tlfea::peak_memory_mib());
  if (compare) {
    const double f0 = bench::median(tf[0]), f1 = bench::median(tf[1]);
    const double k0 = bench::median(tk[0]), k1 = bench::median(tk[1]);
    j.str("compare_timer", ExecSpace().concurrency() == 1 ? "thread_cpu" : "wall")
        .num("default_internal_force_elements_per_s", ne / f0)
        .num("range_internal_force_elements_per_s", ne / f1)
        .num("internal_force_speedup", f1 / f0)
        .num("default_tangent_elements_per_s", ne / k0)
        .num("range_tangent_elements_per_s", ne / k1)
        .num("tangent_speedup", k1 / k0);
  }
  if (team) {
    const double f0 = bench::median(sf[0]), f1 = bench::median(sf[1]);
    const double k0 = bench::median(sk[0]), k1 = bench::median(sk[1]);
    j.str("team_timer", ExecSpace().concurrency() == 1 ? "thread_cpu" : "wall")
        .str("default_shape_internal_force", to_string(shape0.internal_force))
        .str("default_shape_tangent", to_string(shape0.tangent))
        .num("range_internal_force_s", f0)
        .num("team_internal_force_s", f1)
        .num("range_tangent_s", k0)
        .num("team_tangent_s", k1);
  }
  bench::add_config(j).print();
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::string mesh_dir;
  int max_res = 16, repeat = 5;
  bool quick = false, compare = false, team = false;
  std::string only, materials = "svk,mr";
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
    else if (a == "--only")
      only = next("--only");
    else if (a == "--materials")
      materials = next("--materials");
    else if (a == "--compare")
      compare = next("--compare") == "1";
    else if (a == "--team")
      team = next("--team") == "1";
    else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: tlfea_bench_kernels [--mesh-dir DIR] [--max-res R] [--repeat N] [--quick]\n"
          "                           [--only PREFIX] [--materials svk,svk_nosplit,kv_svk,mr,nh]\n"
          "                           [--compare 0|1] [--team 0|1]\n");
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
    std::vector<MaterialSpec> mats;
    for (size_t b = 0; b <= materials.size();) {
      size_t e = materials.find(',', b);
      if (e == std::string::npos) e = materials.size();
      const std::string m = materials.substr(b, e - b);
      b = e + 1;
      if (m == "svk")
        mats.push_back(MaterialSpec::svk(E, nu));
      else if (m == "svk_nosplit")
        mats.push_back(
            MaterialSpec::svk(E, nu).with_ancf3243_poisson_split(false).with_ancf3443_poisson_split(
                false));
      else if (m == "kv_svk")
        mats.push_back(MaterialSpec::svk(E, nu).with_kelvin_voigt(0.01 * mu, 0.01 * mu));
      else if (m == "mr")
        mats.push_back(MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, 1.5 * K));
      else if (m == "nh")
        mats.push_back(MaterialSpec::neo_hookean(mu, 1.5 * K));
      else {
        std::fprintf(stderr, "tlfea_bench_kernels: unknown material '%s'\n", m.c_str());
        return 2;
      }
    }
    for (const Case& c : cases) {
      if (c.name.compare(0, only.size(), only) != 0) continue;
      for (const MaterialSpec& m : mats) run_case(c, m, repeat, compare, team);
    }
  } catch (const tlfea::Error& e) {
    std::fprintf(stderr, "tlfea_bench_kernels: %s\n", e.what());
    return 1;
  }
  return 0;
}
