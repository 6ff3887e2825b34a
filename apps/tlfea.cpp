// tlfea: the command-line program.
//
//   tlfea run [SCENE] [--steps N] [--end-time T] [--output DIR]
//             [--set key.path=value ...] [--restart FILE] [--no-output]
//   tlfea check SCENE [--set key.path=value ...]
//   tlfea info
//   tlfea COMMAND --help (or -h): the usage of one command, exit 0
//
// Exit status: 0 done, 1 a step failed, 2 bad input (scene or command line;
// nothing written), 130 stopped by Ctrl-C (after the current step, output
// and checkpoint written).
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "tlfea/core/build_info.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/peak_memory.hpp"
#include "tlfea/elements/lane_force_dispatch.hpp"
#include "tlfea/integrators/contact_component.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/linalg/mpi_session.hpp"
#include "tlfea/scene/scene.hpp"
#include "tlfea/simulation/simulation.hpp"

#ifndef TLFEA_VERSION
#define TLFEA_VERSION "unknown"
#endif

extern const char* tlfea_default_scene_yaml;

namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_sigint(int) {
  g_stop = 1;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the program at once
}

const char* const kRunUsage =
    "usage: tlfea run [SCENE] [--steps N] [--end-time T] [--output DIR]\n"
    "                 [--set key.path=value ...] [--restart FILE] [--no-output]\n"
    "                 [--print-default]\n"
    "Runs SCENE (a YAML scene, docs/scene.md); without SCENE, the embedded default scene.\n"
    "  --steps N            run N steps (instead of the scene's time.end_time or time.steps)\n"
    "  --end-time T         run to time T (s)\n"
    "  --output DIR         write the output to DIR (instead of the scene's output.directory)\n"
    "  --set key.path=value override one scene key (repeatable), e.g. --set time.dt=1e-4\n"
    "  --restart FILE       continue from a checkpoint (DIR/checkpoint.h5 of an earlier run)\n"
    "  --no-output          write nothing\n"
    "  --print-default      print the embedded default scene and exit\n"
    "  -h, --help           print this help and exit\n"
    "Exit status: 0 done, 1 a step failed, 2 bad input (nothing written), 130 stopped by "
    "Ctrl-C.\n";
const char* const kCheckUsage =
    "usage: tlfea check SCENE [--set key.path=value ...]\n"
    "Loads SCENE, builds its model and prints its summary (bodies, unknowns, constraints,\n"
    "contact, time, solver, output), without running it. It also accepts run's options\n"
    "(--steps, --end-time, --output, --restart, --no-output) and checks their values.\n"
    "  --set key.path=value override one scene key (repeatable)\n"
    "  -h, --help           print this help and exit\n"
    "Exit status: 0 the scene is valid, 2 bad input (one FILE:LINE:COLUMN: message).\n";
const char* const kInfoUsage =
    "usage: tlfea info\n"
    "Prints the build: version, Kokkos backend, MPI, linear solvers, CPU kernels, BLAS "
    "threads,\n"
    "output layer. Takes no options but -h, --help.\n";

int usage(FILE* f) {
  std::fprintf(f,
               "usage: tlfea run [SCENE] [--steps N] [--end-time T] [--output DIR]\n"
               "                 [--set key.path=value ...] [--restart FILE] [--no-output]\n"
               "       tlfea check SCENE [--set key.path=value ...]\n"
               "       tlfea info\n"
               "Without SCENE, run uses the embedded default scene (tlfea run --print-default "
               "shows it).\n"
               "tlfea COMMAND --help prints the usage of one command.\n");
  return f == stderr ? 2 : 0;
}

// The usage of one subcommand (run, check, info).
const char* command_usage(const std::string& cmd) {
  return cmd == "run" ? kRunUsage : cmd == "check" ? kCheckUsage : kInfoUsage;
}

[[noreturn]] void bad(const std::string& msg) { throw tlfea::Error("tlfea: " + msg); }

struct Options {
  std::string scene;
  long steps = -1;
  double end_time = -1.0;
  std::string output, restart;
  bool no_output = false, print_default = false, help = false;
  std::vector<std::string> sets;
};

// Parses the options of subcommand `cmd` (run, check or info). A bad option
// throws an Error naming the subcommand and the option (the caller prints the
// subcommand's usage after it and exits 2); -h / --help sets o.help (the
// caller prints the usage and exits 0).
Options parse(int argc, char** argv, int first, const std::string& cmd) {
  Options o;
  auto bad = [&cmd](const std::string& msg) { throw tlfea::Error("tlfea " + cmd + ": " + msg); };
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      o.help = true;
      return o;
    }
    if (cmd == "info") bad("takes no options or arguments, got '" + a + "'");
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) bad(a + " needs a value");
      return argv[++i];
    };
    if (a == "--steps") {
      const std::string v = value();
      char* end = nullptr;
      o.steps = std::strtol(v.c_str(), &end, 10);
      if (*end != '\0' || o.steps < 1) bad("--steps needs a positive integer, got '" + v + "'");
    } else if (a == "--end-time") {
      const std::string v = value();
      char* end = nullptr;
      o.end_time = std::strtod(v.c_str(), &end);
      if (*end != '\0' || !(o.end_time > 0))
        bad("--end-time needs a positive time, got '" + v + "'");
    } else if (a == "--output") {
      o.output = value();
    } else if (a == "--set") {
      o.sets.push_back(value());
    } else if (a.rfind("--set=", 0) == 0) {
      o.sets.push_back(a.substr(6));
    } else if (a == "--restart") {
      o.restart = value();
    } else if (a == "--no-output") {
      o.no_output = true;
    } else if (a == "--print-default" && cmd == "run") {
      o.print_default = true;
    } else if (!a.empty() && a[0] == '-') {
      bad("unknown option '" + a + "'");
    } else if (o.scene.empty()) {
      o.scene = a;
    } else {
      bad("more than one scene given ('" + o.scene + "', '" + a + "')");
    }
  }
  return o;
}

tlfea::scene::Scene load(const Options& o) {
  if (o.scene.empty())
    return tlfea::scene::load_scene_text(tlfea_default_scene_yaml, "<default scene>", ".", o.sets);
  return tlfea::scene::load_scene(o.scene, o.sets);
}

// restart: a --restart run, which does not settle (time.settle).
void print_summary(const tlfea::scene::Scene& s, FILE* f, bool restart = false) {
  std::fprintf(f, "scene %s (%s)\n", s.name.c_str(), s.file.c_str());
  if (!s.description.empty()) std::fprintf(f, "  %s\n", s.description.c_str());
  std::fprintf(f, "bodies: %zu\n", s.bodies.size());
  for (const auto& b : s.bodies)
    std::fprintf(f, "  %-16s %-8s %6ld elements %7ld coefficients  %s  mass %.6g kg\n",
                 b.name.c_str(), b.rigid ? "rigid" : tlfea::to_string(b.element),
                 static_cast<long>(b.elements), static_cast<long>(b.coefficients),
                 b.material.c_str(), b.mass);
  std::fprintf(f, "unknowns: %ld (of %ld coefficients x 3)\n", static_cast<long>(s.unknowns()),
               static_cast<long>(s.model->num_coefficients()));
  std::fprintf(f, "constraints: %ld rows in %zu joints\n", static_cast<long>(s.constraint_rows()),
               s.joints.size());
  for (const auto& j : s.joints)
    std::fprintf(f, "  %-16s %ld rows\n", j.first.c_str(), static_cast<long>(j.second.count));
  int rigid = 0;
  for (const auto& b : s.bodies) rigid += b.rigid ? 1 : 0;
  if (rigid > 0) std::fprintf(f, "  %-16s %d rows (6 per rigid body)\n", "rigidity", 6 * rigid);
  if (!s.springs.empty()) {
    std::fprintf(f, "springs: %zu spring-dampers\n", s.springs.size());
    for (const auto& n : s.springs) std::fprintf(f, "  %s\n", n.c_str());
  }
  std::fprintf(f, "contact: %s\n",
               s.detection ? (std::to_string(s.detection->surface().num_triangles()) +
                              " surface triangles, " +
                              std::to_string(s.detection->num_obstacles()) + " obstacles")
                                 .c_str()
                           : "none");
  if (s.settings.analysis == tlfea::Analysis::static_equilibrium)
    std::fprintf(f, "analysis: static, %ld load increments of %.6g to pseudo-time %.6g\n", s.steps,
                 s.settings.dt, s.end_time);
  else
    std::fprintf(f, "time: dt %.6g s, %ld steps, end time %.6g s%s\n", s.settings.dt, s.steps,
                 s.end_time,
                 s.settle.duration <= 0.0 ? ""
                 : restart                ? ", time.settle not repeated on --restart"
                 : s.settle_auto
                     ? ", settled before t = 0 by default: bodies start in contact under gravity "
                       "(time.settle: 0 turns this off)"
                     : ", settled before t = 0 (time.settle)");
  std::fprintf(f, "solver: inner %s, linear %s\n",
               tlfea::inner_solver_name(s.settings.inner_solver),
               s.settings.linear.backend.c_str());
  if (s.settings.integrator == tlfea::TimeIntegrator::generalized_alpha)
    std::fprintf(f, "integrator: generalized alpha, rho_inf %.6g (first step backward Euler)\n",
                 s.settings.rho_inf);
  std::fprintf(f, "output: %s\n", s.output.enabled ? s.output.directory.c_str() : "disabled");
}

std::string fmt_time(double s) {
  char buf[64];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s / 3600),
                  static_cast<int>(s / 60) % 60);
  return buf;
}

// Warns on stderr when the output of the steps from `first` to s.steps is
// estimated above 10 GB (docs/scene.md, "Limits"): the initial and the last
// step plus one output step every output.every steps.
void warn_output_size(const tlfea::scene::Scene& s, long first) {
  if (!s.output.enabled) return;
  const long output_steps = std::max<long>(0, s.steps - first) / s.output.every + 2;
  const double total = s.output.step_bytes * static_cast<double>(output_steps);
  if (total > 10e9)
    std::fprintf(stderr,
                 "warning: the output is estimated at %.1f GB (%ld output steps of %.3g GB; "
                 "output.samples, output.every or the step count make it smaller)\n",
                 total / 1e9, output_steps, s.output.step_bytes / 1e9);
}

int cmd_check(const Options& o) {
  if (o.scene.empty()) bad("check needs a scene file");
  tlfea::scene::Scene s = load(o);
  print_summary(s, stdout);
  warn_output_size(s, 0);
  std::printf("ok\n");
  return 0;
}

int cmd_info(int ranks) {
  (void)tlfea::cpu_kernels();  // TLFEA_CPU_KERNELS checked before anything is printed
  std::printf("tlfea %s\n", TLFEA_VERSION);
  std::printf("Kokkos: %s backend, concurrency %d\n", Kokkos::DefaultExecutionSpace::name(),
              static_cast<int>(Kokkos::DefaultExecutionSpace().concurrency()));
  if (tlfea::MpiSession::enabled())
    std::printf(
        "MPI: built (Trilinos solvers); %d rank%s in this job; tlfea run on several ranks "
        "splits the element work and solves with dist-cg / dist-gmres (docs/guide/mpi.md)\n",
        ranks, ranks == 1 ? "" : "s");
  else
    std::printf("MPI: not built (1 rank)\n");
  std::string solvers;
  for (const auto& n : tlfea::available_linear_solvers())
    solvers += (solvers.empty() ? "" : ", ") + n;
  std::printf("linear solvers: %s\n", solvers.c_str());
  std::printf("CPU target: %s (CMake TLFEA_NATIVE_ARCH)\n", tlfea::cpu_target());
  {
    std::string isas;
    for (const auto& n : tlfea::available_cpu_kernels()) isas += (isas.empty() ? "" : ", ") + n;
    std::printf("CPU kernels: %s (of %s; environment TLFEA_CPU_KERNELS)\n", tlfea::cpu_kernels(),
                isas.c_str());
  }
  const tlfea::BlasThreads blas = tlfea::configure_blas_threads();
  if (blas.library == "none")
    std::printf("BLAS: no threaded BLAS linked\n");
  else
    std::printf("BLAS: %s, %d thread%s (%s)\n", blas.library.c_str(), blas.threads,
                blas.threads == 1 ? "" : "s", blas.source.c_str());
  std::printf("output: HDF5 + XDMF, checkpoint / restart\n");
  return 0;
}

// What a run on several MPI ranks does not support (empty: supported).
// Contact, rigid bodies, static analysis and --restart run there: every term
// but f_int, the element tangents and the contact forces is computed whole
// and alike by every rank from the replicated state (contact: split between
// the ranks, its forces summed over them, or whole on every rank for the
// patch law; rigid bodies: rank 0's elements), and every rank reads the
// same checkpoint (docs/guide/mpi.md, tests mpi_scenes, mpi_contact).
std::string not_distributed(const tlfea::scene::Scene& s) {
  const std::string& l = s.settings.linear.backend;
  if (s.settings.inner_solver == tlfea::InnerSolver::newton && l != "default" && l != "belos-cg" &&
      l != "belos-gmres" && l != "dist-cg" && l != "dist-gmres")
    return "linear solver '" + l +
           "' cannot run on several ranks (use default, dist-cg or dist-gmres; belos-cg and "
           "belos-gmres select them)";
  const std::string& pc = s.settings.linear.preconditioner;
  if (s.settings.inner_solver == tlfea::InnerSolver::newton && pc != "default" && pc != "ilu" &&
      pc != "jacobi" && pc != "muelu" && pc != "none")
    return "preconditioner '" + pc +
           "' cannot run on several ranks (use ilu, jacobi, muelu or none)";
  return "";
}

// The settle's report (rank 0, after it).
void print_settle(const tlfea::scene::Scene& s, const tlfea::SettleReport& sr) {
  std::fprintf(stderr,
               "settle: %ld steps (%.6g s, loads eased in over %.6g s), %d velocity resets, "
               "newton %ld; kinetic energy at the end %.3g J (largest %.3g J)\n",
               sr.steps, static_cast<double>(s.settle.duration),
               static_cast<double>(s.settle.ramp < 0 ? 0.5 * s.settle.duration : s.settle.ramp),
               sr.velocity_resets, sr.newton_iterations,
               static_cast<double>(sr.kinetic_energy_final),
               static_cast<double>(sr.kinetic_energy_peak));
  if (!sr.at_rest)
    std::fprintf(stderr,
                 "warning: settle: the bodies are not at rest at its end (kinetic energy "
                 "%.3g J, %.3g of its largest): a body slides or falls, or vibrates without "
                 "damping; the run starts from its positions, at rest (settle longer, or see "
                 "docs/scene.md \"time\")\n",
                 static_cast<double>(sr.kinetic_energy_final),
                 sr.kinetic_energy_peak > 0
                     ? static_cast<double>(sr.kinetic_energy_final / sr.kinetic_energy_peak)
                     : 0.0);
}

// The run's summary line, the iterative solver's work and the peak memory
// (rank 0, at the end; status 0 done, 1 failed, 130 Ctrl-C).
void print_end(tlfea::Simulation& sim, int status, double wall, double peak, double peak_max,
               int ranks) {
  const tlfea::scene::Scene& s = sim.scene();
  const tlfea::TimeStepper& stepper = sim.stepper();
  const tlfea::RunTotals& tot = sim.totals();
  const long done = tot.steps, newton = tot.newton_iterations, outer = tot.outer_iterations;
  const double sim_time = done * s.settings.dt;
  if (s.settings.analysis == tlfea::Analysis::static_equilibrium)
    std::fprintf(stderr, "%s: %ld steps (load increments, to pseudo-time %.6g) in %s, newton %ld\n",
                 status == 130 ? "stopped by Ctrl-C"
                 : status == 1 ? "failed"
                               : "done",
                 done, static_cast<double>(stepper.time()), fmt_time(wall).c_str(), newton);
  else
    std::fprintf(
        stderr,
        "%s: %ld steps (to t = %.6g s) in %s, real-time factor %.3g (wall / simulated), "
        "newton %ld (%.2f per step), outer %ld (%.2f per step), worst constraint violation "
        "%.3g\n",
        status == 130 ? "stopped by Ctrl-C"
        : status == 1 ? "failed"
                      : "done",
        done, static_cast<double>(stepper.time()), fmt_time(wall).c_str(),
        sim_time > 0 ? wall / sim_time : 0.0, newton, done ? double(newton) / done : 0.0, outer,
        done ? double(outer) / done : 0.0, tot.worst_constraint_violation);
  // Iterative solvers: their work over the run (a direct solver's is the
  // factorizations, which Newton's reuse already shows).
  const tlfea::SolverStats ls = stepper.linear_stats();
  if (ls.total_iterations > 0)
    std::fprintf(stderr,
                 "linear solver %s: %d preconditioner setups, %d solves, %d iterations (%.1f "
                 "per solve)\n",
                 ls.backend.c_str(), ls.factorizations, ls.solves, ls.total_iterations,
                 ls.solves ? double(ls.total_iterations) / ls.solves : 0.0);
  if (ranks > 1)
    std::fprintf(stderr, "peak memory: %.0f MiB on rank 0, %.0f MiB on the largest of %d ranks\n",
                 peak, peak_max, ranks);
  else
    std::fprintf(stderr, "peak memory: %.0f MiB\n", peak);
}

// Several ranks (mpi->world_size() > 1): every rank loads the scene and
// steps the whole state (elements split between the ranks, TimeStepper);
// rank 0 alone prints; each rank writes its piece of the output. The run is a
// tlfea::Simulation (simulation/): this function parses nothing, it prints
// and keeps the ranks in step.
int cmd_run(const Options& o, const tlfea::MpiSession* mpi) {
  const int ranks = mpi ? mpi->world_size() : 1;
  const bool root = !mpi || mpi->world_rank() == 0;
  std::optional<tlfea::scene::Scene> loaded;
  std::string why;
  try {
    (void)tlfea::cpu_kernels();  // TLFEA_CPU_KERNELS checked before anything runs
    loaded.emplace(load(o));
    if (o.steps > 0 && o.end_time > 0) bad("give --steps or --end-time, not both");
    if (ranks > 1) {
      const std::string n = not_distributed(*loaded);
      if (!n.empty())
        why = "tlfea run: started on " + std::to_string(ranks) + " MPI ranks, but " + n +
              "; run it on one rank (without mpirun, or mpirun -np 1)";
    }
  } catch (const tlfea::Error& e) {
    why = e.what();
  }
  // Collective (every rank calls it alike): true when this or another rank
  // failed (why non-empty there); rank 0 then prints why, or `elsewhere`.
  auto any_failed = [&](const char* elsewhere) {
    if (!(ranks > 1 ? mpi->any(!why.empty()) : !why.empty())) return false;
    if (root) std::fprintf(stderr, "%s\n", why.empty() ? elsewhere : why.c_str());
    return true;
  };
  // Every rank stops here alike (the stepper below is collective); rank 0
  // says why, or that another rank failed.
  if (any_failed("tlfea: the scene failed to load on another rank")) return 2;
  tlfea::RunOptions ro;
  ro.steps = o.steps;
  ro.end_time = o.end_time;
  ro.output_directory = o.output;
  ro.output = !o.no_output;
  // Every rank writes its piece of the output; rank 0 the rest.
  if (ranks > 1) ro.any_rank = [mpi](bool flag) { return mpi->any(flag); };
  tlfea::Simulation sim(std::move(*loaded), ro);
  const tlfea::scene::Scene& s = sim.scene();
  if (!o.restart.empty()) {
    // Every rank reads the same checkpoint (the replicated state, any rank
    // count: it holds no partition); all of them stop alike when it cannot
    // be read, and none steps (nor rank 0 rewrites the file) before all have
    // read it. Simulation::restore checks the file (Error: no file, or a
    // checkpoint of another model).
    try {
      sim.restore(o.restart);
    } catch (const tlfea::Error& e) {
      why = std::string("tlfea: --restart: ") + e.what();
    }
    if (any_failed("tlfea: --restart: the checkpoint failed to load on another rank")) return 2;
  }
  // Contact split between the ranks: every rank's surface (collective).
  std::vector<tlfea::ContactComponent::SurfaceCounts> contact_counts;
  const tlfea::ContactComponent* contact = tlfea::find_contact(sim.stepper());
  if (ranks > 1 && contact) contact_counts = contact->surface_counts_by_rank();
  // Everything is validated: from here on the output directory is written.
  if (root) {
    print_summary(s, stderr, sim.restarted());
    if (ranks > 1) {
      const tlfea::PartitionInfo pi = sim.stepper().partition_info();
      std::fprintf(stderr,
                   "MPI: %d ranks, elements split between them by %s (%lld-%lld per rank; %lld "
                   "matrix rows shared; %lld of %lld joint couplings between bodies across "
                   "ranks), linear solver %s\n",
                   ranks, pi.method.c_str(), pi.elements_min, pi.elements_max, pi.shared_rows_total,
                   pi.body_couplings_cut, pi.body_couplings,
                   sim.stepper().linear_stats().backend.c_str());
      if (contact && !contact->is_split())
        std::fprintf(stderr,
                     "MPI: contact computed whole by every rank (the patch law or a shared "
                     "damping mass couples the contacts of a pair)\n");
      if (contact && contact->is_split()) {
        std::string own, held;
        for (const auto& c : contact_counts) {
          own += (own.empty() ? "" : ", ") + std::to_string(c.own_triangles);
          held += (held.empty() ? "" : ", ") + std::to_string(c.held_triangles);
        }
        std::fprintf(stderr,
                     "MPI: contact split between the ranks: surface triangles per rank %s own, %s "
                     "held (own, of own vertices, ghosts)\n",
                     own.c_str(), held.c_str());
      }
    }
    warn_output_size(s, sim.stepper().steps_taken());
  }
  // time.settle: dynamic relaxation before t = 0 on a fresh start (a restart
  // continues a settled run); nothing is written before it has ended, and a
  // settle step that fails ends the run like a failed step (exit 1), on
  // every rank alike.
  if (sim.will_settle()) {
    tlfea::SettleReport sr;
    try {
      if (root)
        std::fprintf(stderr, "settle: %ld steps of %g s before t = 0 ...\n",
                     std::max(1L, std::lround(s.settle.duration / s.settings.dt)),
                     static_cast<double>(s.settings.dt));
      sr = sim.settle();
    } catch (const tlfea::Error& e) {
      why = e.what();
    }
    if (any_failed("tlfea: the settle failed on another rank")) return 1;
    if (root) print_settle(s, sr);
  }
  sim.start();  // the initial velocities; rank 0: the output's step 0
  std::signal(SIGINT, on_sigint);
  const bool tty = isatty(2);
  const tlfea::TimeStepper& stepper = sim.stepper();
  const long total = sim.steps();
  const long todo = std::max<long>(0, total - stepper.steps_taken());
  const long every_line = std::max<long>(1, todo / 10);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto last_line = t0;
  int status = 0;
  std::string failure;
  try {
    sim.run([&](const tlfea::StepReport& r) {
      const long done = sim.totals().steps;
      if (root && r.retries > 0 && !r.linear_failure.empty())
        std::fprintf(stderr, "%swarning: step %ld retried with %d halving(s) after: %s\n",
                     tty ? "\n" : "", stepper.steps_taken(), r.retries, r.linear_failure.c_str());
      const auto now = clock::now();
      const double wall = std::chrono::duration<double>(now - t0).count();
      const long k = stepper.steps_taken();
      const bool last = k >= total;
      if (root && (tty || done % every_line == 0 || last ||
                   std::chrono::duration<double>(now - last_line).count() > 10.0)) {
        const double eta = wall / done * (total - k);
        std::fprintf(stderr, "%sstep %ld/%ld  t = %.6g s  wall %s  ETA %s  newton %d  outer %d%s",
                     tty ? "\r" : "", k, total, static_cast<double>(stepper.time()),
                     fmt_time(wall).c_str(), fmt_time(eta).c_str(), r.newton_iterations,
                     r.outer_iterations, tty ? "   " : "\n");
        std::fflush(stderr);
        last_line = now;
      }
      // Several ranks: stop together (Ctrl-C may reach the ranks at
      // different steps).
      if (ranks > 1 ? mpi->any(g_stop != 0) : g_stop != 0) {
        status = 130;
        return false;
      }
      return true;
    });
  } catch (const tlfea::StepFailed& e) {
    failure = e.what();
    status = 1;
  }
  // Peak memory of this process, and the largest over the ranks (collective:
  // every rank leaves the loop alike).
  const double peak = tlfea::peak_memory_mib();
  const double peak_max = ranks > 1 ? mpi->max(peak) : peak;
  const double wall = std::chrono::duration<double>(clock::now() - t0).count();
  // Collective: every rank ends its piece of the output.
  const std::string ck = sim.finish();  // the output's end, then its checkpoint.h5
  if (!root) return status;
  if (tty) std::fprintf(stderr, "\n");
  if (!ck.empty())
    std::fprintf(stderr, "output: %s (checkpoint %s)\n", s.output.directory.c_str(), ck.c_str());
  print_end(sim, status, wall, peak, peak_max, ranks);
  if (status == 1) std::fprintf(stderr, "tlfea: %s\n", failure.c_str());
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage(stderr);
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") return usage(stdout);
  // MPI (for the Trilinos solvers, before Kokkos) only where a solver may run.
  std::optional<tlfea::MpiSession> mpi;
  if (cmd == "run" || cmd == "info") mpi.emplace(&argc, &argv);
  if (cmd != "run" && cmd != "check" && cmd != "info") {
    std::fprintf(stderr, "tlfea: unknown command '%s'\n", tlfea::escape_control_bytes(cmd).c_str());
    return usage(stderr);
  }
  Options o;
  try {
    o = parse(argc, argv, 2, cmd);
  } catch (const tlfea::Error& e) {
    std::fprintf(stderr, "%s\n%s", e.what(), command_usage(cmd));
    return 2;
  }
  if (o.help) {
    std::fputs(command_usage(cmd), stdout);
    return std::fflush(stdout) == 0 ? 0 : 2;
  }
  // Data for stdout before Kokkos starts: its initialization warnings (e.g.
  // OMP_PROC_BIND not set) are printed to stdout and would land in the file.
  if (cmd == "run" && o.print_default) {
    std::fputs(tlfea_default_scene_yaml, stdout);
    return std::fflush(stdout) == 0 ? 0 : 2;
  }
  // Several MPI ranks: `info` answers from rank 0; a run splits the element
  // work between the ranks (cmd_run), or is refused on every rank, rank 0
  // saying why, before anything is written.
  const int ranks = mpi ? mpi->world_size() : 1;
  if (ranks > 1 && cmd != "run" && mpi->world_rank() != 0) return 0;
  int kargc = 1;
  Kokkos::ScopeGuard kokkos(kargc, argv);
  // An error past the collective start of a run on several ranks may be one
  // rank's alone: the others would wait for it, so it ends them all.
  auto fail = [&](const std::string& msg) {
    if (ranks > 1 && cmd == "run") {
      std::fprintf(stderr, "%s (MPI rank %d of %d; ending all ranks)\n", msg.c_str(),
                   mpi->world_rank(), ranks);
      mpi->abort(2);
    }
    std::fprintf(stderr, "%s\n", msg.c_str());
    return 2;
  };
  try {
    if (cmd == "info") return cmd_info(ranks);
    if (cmd == "check") return cmd_check(o);
    return cmd_run(o, mpi ? &*mpi : nullptr);
  } catch (const tlfea::Error& e) {
    return fail(e.what());
  } catch (const std::exception& e) {
    return fail("tlfea: " + tlfea::escape_control_bytes(e.what()));
  }
}
