// A scene run through the installed run object (TLFEA::simulation,
// docs/guide/embedding.md): the ANCF pendulum of examples/ancf_pendulum.yaml
// for 20 steps with output, then its files: history.csv (a header, step 0
// and one row per step) and the checkpoint finish() writes.
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tlfea/scene/scene.hpp"
#include "tlfea/simulation/simulation.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const char* text = R"(name: ancf_pendulum
gravity: [0, 0, -9.81]
time: {dt: 1.0e-3, end_time: 1.0}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 1.0, width: 0.02, height: 0.02, elements: 8}
    material: {model: svk, E: 7.0e9, nu: 0.33}
    density: 2700
joints:
  - {name: hinge, type: revolute, body_i: beam, body_j: ground, point: [0, 0, 0], axis: [0, 1, 0]}
)";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tlfea_sim_example_" + std::to_string(getpid()));
  tlfea::RunOptions options;
  options.output_directory = dir.string();
  options.steps = 20;
  tlfea::Simulation sim(tlfea::scene::load_scene_text(text, "pendulum.yaml", "."), options);
  sim.settle();
  const long steps = sim.run();
  const std::string ck = sim.finish();
  std::ifstream csv(dir / "history.csv");
  long lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  std::printf("%ld steps to t = %g s, history.csv %ld lines, checkpoint %s\n", steps,
              static_cast<double>(sim.stepper().time()), lines, ck.c_str());
  const bool ok = steps == 20 && lines == 22 && std::filesystem::is_regular_file(ck);
  std::filesystem::remove_all(dir);
  return ok ? 0 : 1;
}
