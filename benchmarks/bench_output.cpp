// Output cost per output step: a scene (default examples/rigid_pendulum.yaml,
// one rigid body on a revolute joint) run for N steps with the fields
// written every step (io/output.hpp, OutputWriter, output.every = 1) and
// without output; one JSON object per N.
//
//   tlfea_bench_output [--scene FILE] [--steps N[,N...]] [--repeat R] [--dir DIR]
//
// per_output_step_s = (wall with output - wall without) / N, the median over
// R repeats of each (the writer's construction, which writes step 0, and
// finish() included); per_output_step_cpu_s the same in CPU time of the
// process (user + system: what a busy machine's waiting does not inflate). record_first_tenth_s /
// record_last_tenth_s: the mean time of OutputWriter::record over the first and the last tenth of
// the steps of the last repeat; a cost that grows with the number of earlier output steps shows as
// a last tenth above the first.
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"
#include "tlfea/simulation/scene_output.hpp"

using namespace tlfea;

namespace {

// CPU time of this process, user + system [s], and its system part.
double cpu_now(double* system = nullptr) {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  const double user = static_cast<double>(u.ru_utime.tv_sec) + 1e-6 * u.ru_utime.tv_usec;
  const double sys = static_cast<double>(u.ru_stime.tv_sec) + 1e-6 * u.ru_stime.tv_usec;
  if (system) *system = sys;
  return user + sys;
}

struct Timing {
  double plain = 0.0, output = 0.0, plain_cpu = 0.0, output_cpu = 0.0, output_sys = 0.0;
  double first_tenth = 0.0, last_tenth = 0.0;
  std::uintmax_t xdmf_bytes = 0;
};

// N steps of the scene, with output into `dir` unless it is empty.
Timing run_once(const std::string& scene_path, long n, const std::string& dir) {
  scene::Scene s = scene::load_scene(scene_path, {"output.every=1"});
  TimeStepper stepper(*s.model, s.settings);
  s.attach_contact(stepper);
  s.apply_initial_state(stepper);
  Timing t;
  double s0 = 0.0;
  const double t0 = bench::now(), c0 = cpu_now(&s0);
  if (dir.empty()) {
    for (long i = 0; i < n; ++i) stepper.step();
    t.plain = bench::now() - t0;
    t.plain_cpu = cpu_now() - c0;
    return t;
  }
  io::OutputSettings os = tlfea::output_settings(s);
  os.directory = dir;
  io::OutputWriter out(*s.model, stepper, os);
  for (const auto& j : s.joints) out.add_joint(j.first, j.second);
  const long tenth = std::max<long>(1, n / 10);
  for (long i = 0; i < n; ++i) {
    const StepReport r = stepper.step();
    const double a = bench::now();
    out.record(r);
    const double d = bench::now() - a;
    if (i < tenth) t.first_tenth += d / tenth;
    if (i >= n - tenth) t.last_tenth += d / tenth;
  }
  out.finish();
  t.output = bench::now() - t0;
  double s1 = 0.0;
  t.output_cpu = cpu_now(&s1) - c0;
  t.output_sys = s1 - s0;
  t.xdmf_bytes = std::filesystem::file_size(out.xdmf_path());
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::string scene_path = std::string(TLFEA_SOURCE_DIR) + "/examples/rigid_pendulum.yaml";
  std::vector<long> sizes{500, 5000};
  int repeat = 3;
  std::string dir = std::filesystem::temp_directory_path().string() + "/tlfea_bench_output_" +
                    std::to_string(getpid());
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--scene" && i + 1 < argc) {
        scene_path = argv[++i];
      } else if (a == "--steps" && i + 1 < argc) {
        sizes.clear();
        std::stringstream ss(argv[++i]);
        for (std::string p; std::getline(ss, p, ',');) {
          sizes.push_back(bench::parse_int("--steps", p));
          if (sizes.back() < 1) bench::arg_error("--steps: " + p + " (must be >= 1)");
        }
      } else if (a == "--repeat" && i + 1 < argc) {
        repeat = static_cast<int>(bench::parse_int("--repeat", argv[++i]));
        if (repeat < 1) bench::arg_error("--repeat: must be >= 1");
      } else if (a == "--dir" && i + 1 < argc) {
        dir = argv[++i];
      } else {
        bench::arg_error("unknown argument '" + a + "'");
      }
    }
  } catch (const bench::ArgError& e) {
    std::fprintf(stderr,
                 "tlfea_bench_output: %s\nusage: tlfea_bench_output [--scene FILE] "
                 "[--steps N[,N...]] [--repeat R] [--dir DIR]\n",
                 e.what());
    return 2;
  }
  try {
    for (const long n : sizes) {
      std::vector<double> plain, output, plain_cpu, output_cpu, output_sys;
      Timing last;
      for (int r = 0; r < repeat; ++r) {
        const Timing p = run_once(scene_path, n, "");
        plain.push_back(p.plain);
        plain_cpu.push_back(p.plain_cpu);
        // A folder per run, all removed after the timings (the file system's
        // work of deleting thousands of files stays out of them).
        last = run_once(scene_path, n, dir + "/" + std::to_string(n) + "_" + std::to_string(r));
        output.push_back(last.output);
        output_cpu.push_back(last.output_cpu);
        output_sys.push_back(last.output_sys);
      }
      const double per_step = (bench::median(output) - bench::median(plain)) / n;
      bench::Json j;
      j.str("case", "output_every_step")
          .str("scene", std::filesystem::path(scene_path).filename().string())
          .integer("steps", n)
          .integer("repeat", repeat)
          .num("wall_without_output_s", bench::median(plain))
          .num("wall_with_output_s", bench::median(output))
          .num("per_output_step_s", per_step)
          .num("per_output_step_cpu_s", (bench::median(output_cpu) - bench::median(plain_cpu)) / n)
          .num("output_system_cpu_s", bench::median(output_sys))
          .num("record_first_tenth_s", last.first_tenth)
          .num("record_last_tenth_s", last.last_tenth)
          .integer("xdmf_bytes", static_cast<long long>(last.xdmf_bytes));
      bench::add_config(j).print();
    }
    std::filesystem::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlfea_bench_output: %s\n", e.what());
    std::filesystem::remove_all(dir);
    return 1;
  }
  return 0;
}
