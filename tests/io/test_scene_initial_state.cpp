// A scene's initial velocity (bodies[].velocity and angular_velocity) is the
// velocity written at t = 0: steps/000000.h5 /body<b>/velocity, read back by
// the independent reader (tools/check_output.py --dataset, h5py), equals the
// rigid motion v = v0 + w x (x - t) (docs/scene.md: t the placement
// translation) at every output point, computed here from the generators'
// documented geometry.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {
namespace {

std::string python() {
  if (const char* p = std::getenv("TLFEA_PYTHON")) return p;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

// Writes the points' rigid velocities v0 + w x (x - t) as a JSON array.
void write_expected(const std::string& path, const std::vector<Vec3>& x, const Vec3& v0,
                    const Vec3& w, const Vec3& t) {
  std::ofstream js(path);
  js.precision(17);
  js << "[";
  for (size_t p = 0; p < x.size(); ++p) {
    const Vec3 r{{x[p][0] - t[0], x[p][1] - t[1], x[p][2] - t[2]}};
    const Vec3 v{{v0[0] + w[1] * r[2] - w[2] * r[1], v0[1] + w[2] * r[0] - w[0] * r[2],
                  v0[2] + w[0] * r[1] - w[1] * r[0]}};
    js << (p ? ", " : "") << "[" << v[0] << ", " << v[1] << ", " << v[2] << "]";
  }
  js << "]\n";
}

// The points themselves (the geometry the expected velocities assume).
void write_points(const std::string& path, const std::vector<Vec3>& x) {
  std::ofstream js(path);
  js.precision(17);
  js << "[";
  for (size_t p = 0; p < x.size(); ++p)
    js << (p ? ", " : "") << "[" << x[p][0] << ", " << x[p][1] << ", " << x[p][2] << "]";
  js << "]\n";
}

int check_dataset(const std::string& file, const std::string& name, const std::string& expected) {
  const std::string cmd = python() + " " + std::string(TLFEA_TEST_DATA_DIR) +
                          "/../../tools/check_output.py --dataset '" + file + "' " + name + " '" +
                          expected + "' 1e-12";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

// A Q27 box (one element, 27 nodes: the output points are the nodes) and an
// ANCF 3243 beam (2 elements, output.samples 3: points at xi = -1, 0, 1
// along the axis and at the section corners), each placed by a translation
// and given a velocity and an angular velocity.
TEST(SceneInitialState, AngularVelocityIsWrittenAtTimeZero) {
  const std::string text =
      "time: {dt: 1.0e-3, steps: 1}\n"
      "output: {samples: 3}\n"
      "bodies:\n"
      "  - name: cube\n"
      "    element: Q27\n"
      "    mesh: {generator: box, lengths: [0.2, 0.1, 0.1], divisions: [1, 1, 1]}\n"
      "    placement: {translation: [1.0, 0.5, -0.25]}\n"
      "    material: {model: svk, E: 1.0e7, nu: 0.3}\n"
      "    density: 1000\n"
      "    velocity: [0.1, 0.0, -0.2]\n"
      "    angular_velocity: [1.0, -2.0, 10.0]\n"
      "  - name: beam\n"
      "    mesh: {generator: beam, length: 1.0, width: 0.04, height: 0.02, elements: 2}\n"
      "    placement: {translation: [0.0, 2.0, 0.0]}\n"
      "    material: {model: svk, E: 1.0e7, nu: 0.3}\n"
      "    density: 1000\n"
      "    angular_velocity: [0.0, 3.0, 5.0]\n";
  scene::Scene s = scene::load_scene_text(text, "spin.yaml", ".");
  TimeStepper stepper(*s.model, s.settings);
  s.apply_initial_state(stepper);
  const std::string dir = ::testing::TempDir() + "tlfea_io_scene_v0_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  io::OutputSettings os;
  os.directory = dir;
  os.samples = s.output.samples;
  {
    io::OutputWriter out(*s.model, stepper, os);
    out.finish();
  }
  // Q27 box [0, 0.2] x [0, 0.1] x [0, 0.1] + t: nodes on the 3 x 3 x 3
  // half-cell grid, index i + 3 j + 9 k (core/generators.hpp).
  const Vec3 tc{{1.0, 0.5, -0.25}};
  std::vector<Vec3> xc;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        xc.push_back(Vec3{{tc[0] + 0.1 * i, tc[1] + 0.05 * j, tc[2] + 0.05 * k}});
  write_expected(dir + "/v_cube.json", xc, Vec3{{0.1, 0.0, -0.2}}, Vec3{{1.0, -2.0, 10.0}}, tc);
  // Beam along +x from t, section 0.04 x 0.02 centred on the axis: per
  // element (length 0.5) the points xi_i = -1, 0, 1 (i fastest), section
  // corners eta_j, zeta_k = -1, 1 (io/src/visualisation_mesh.cpp: i + n0 (j + n1 k)).
  const Vec3 tb{{0.0, 2.0, 0.0}};
  std::vector<Vec3> xb;
  for (int e = 0; e < 2; ++e)
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i)
          xb.push_back(
              Vec3{{tb[0] + 0.5 * e + 0.25 * i, tb[1] - 0.02 + 0.04 * j, tb[2] - 0.01 + 0.02 * k}});
  write_expected(dir + "/v_beam.json", xb, Vec3{{0.0, 0.0, 0.0}}, Vec3{{0.0, 3.0, 5.0}}, tb);
  const std::string step0 = dir + "/steps/000000.h5";
  write_points(dir + "/x_cube.json", xc);
  write_points(dir + "/x_beam.json", xb);
  EXPECT_EQ(check_dataset(step0, "body0/x", dir + "/x_cube.json"), 0);
  EXPECT_EQ(check_dataset(step0, "body1/x", dir + "/x_beam.json"), 0);
  EXPECT_EQ(check_dataset(step0, "body0/velocity", dir + "/v_cube.json"), 0);
  EXPECT_EQ(check_dataset(step0, "body1/velocity", dir + "/v_beam.json"), 0);
  if (!HasFailure()) std::system(("rm -rf '" + dir + "'").c_str());
}

}  // namespace
}  // namespace tlfea
