// Output: a run's HDF5/XDMF/CSV read back by an independent reader
// (tools/check_output.py: Debian's python3-h5py and python3-meshio) against
// closed-form values; a run killed with SIGKILL leaves a readable file; and
// output.xdmf is appended in place, not rewritten, after every output step.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"
#include "tlfea/simulation/scene_output.hpp"

namespace tlfea {
namespace {

std::string tools_dir() { return std::string(TLFEA_TEST_DATA_DIR) + "/../../tools"; }

// Debian's interpreter (where python3-h5py / python3-meshio live), unless
// TLFEA_PYTHON says otherwise. A missing module makes the script fail.
std::string python() {
  if (const char* p = std::getenv("TLFEA_PYTHON")) return p;
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

int run_checker(const std::string& args) {
  const std::string cmd = python() + " " + tools_dir() + "/check_output.py " + args;
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

void remove_tree(const std::string& d) {
  if (std::system(("rm -rf '" + d + "'").c_str()) != 0) ADD_FAILURE() << "cannot remove " << d;
}

std::string fresh_dir(const std::string& name) {
  // Per process, so concurrent runs of the suite (two builds) do not collide.
  const std::string d = ::testing::TempDir() + "tlfea_io_" + name + "_" + std::to_string(getpid());
  remove_tree(d);
  return d;
}

// Uniaxial patch: every node of a Q27 block and of a T10 block follows the
// homogeneous stretch x = F(t) X, F = I + (t / T) diag(a, b, b), with b
// chosen so that F(T) is the St. Venant-Kirchhoff uniaxial-stress state:
// E_22 = E_33 = -nu E_11 (then S = diag(Y E_11, 0, 0)). An ANCF 3243 beam
// translates rigidly by t / T (0.1, 0.2, 0.3) (gradients clamped).
// Closed forms at t = T: x = F X, u = (F - I) X, v = (F - I) X / T (linear
// ramp; the prescribed velocity is the difference quotient, exact for a
// linear motion), sigma_11 = (1 + a)^2 Y E_11 / J, J = (1 + a)(1 + b)^2,
// other components 0, von Mises |sigma_11|.
TEST(Output, IndependentReaderSeesTheClosedFormPatch) {
  const Real Y = 2e7, nu = 0.3, a = 0.02, T = 0.01;
  const Real E11 = 0.5 * ((1 + a) * (1 + a) - 1), E22 = -nu * E11;
  const Real b = std::sqrt(1 + 2 * E22) - 1;
  const Real J = (1 + a) * (1 + b) * (1 + b);
  const Real s11 = (1 + a) * (1 + a) * Y * E11 / J;
  const Vec3 shift{{0.1, 0.2, 0.3}};

  Model model;
  const Mesh hex = generate_box(ElementType::Q27, {1.0, 0.5, 0.5}, {2, 1, 1});
  const Mesh tet = generate_box(ElementType::T10, {0.5, 0.5, 0.5}, {1, 1, 1}, {2.0, 0.0, 0.0});
  const Mesh beam = generate_beam_ancf3243(1.0, 0.1, 0.1, 2);
  const int bh = model.add_body(hex, MaterialSpec::svk(Y, nu), 1000.0);
  const int bt = model.add_body(tet, MaterialSpec::svk(Y, nu), 1000.0);
  const int bb = model.add_body(beam, MaterialSpec::svk(Y, nu), 1000.0);
  auto stretch = [=](Real t, const Vec3& X) {
    const Real s = t / T;
    return Vec3{{X[0] * (1 + s * a), X[1] * (1 + s * b), X[2] * (1 + s * b)}};
  };
  // The T10 block's stretch about its own corner (2, 0, 0).
  auto stretch_t = [=](Real t, const Vec3& X) {
    Vec3 Y0{{X[0] - 2.0, X[1], X[2]}};
    Vec3 x = stretch(t, Y0);
    x[0] += 2.0;
    return x;
  };
  model.prescribe_nodes(bh, hex.node_sets.at("all"), stretch);
  model.prescribe_nodes(bt, tet.node_sets.at("all"), stretch_t);
  model.prescribe_nodes(bb, beam.node_sets.at("all"), [=](Real t, const Vec3& X) {
    return Vec3{{X[0] + t / T * shift[0], X[1] + t / T * shift[1], X[2] + t / T * shift[2]}};
  });
  StepperSettings s;
  s.dt = T / 4;
  TimeStepper stepper(model, s);
  const std::string dir = fresh_dir("patch");
  io::OutputSettings os;
  os.directory = dir;
  os.every = 2;
  io::OutputWriter out(model, stepper, os);
  for (int i = 0; i < 4; ++i) out.record(stepper.step());
  out.finish();

  // Expected values, from the closed forms above (not from the writer).
  std::ofstream js(dir + "/expected.json");
  js.precision(17);
  js << "{\n \"times\": [0, " << 2 * s.dt << ", " << 4 * s.dt << "],\n \"history_rows\": 5,\n";
  js << " \"bodies\": [\n";
  auto body = [&](const Mesh& m, const char* cell, bool last, auto motion) {
    js << "  {\"cell\": \"" << cell << "\", \"num_cells\": " << m.num_elements()
       << ", \"positions\": [";
    for (Ordinal n = 0; n < m.num_nodes(); ++n) {
      const auto& X = m.node_position(n);
      const Vec3 x = motion(T, Vec3{{X[0], X[1], X[2]}});
      js << (n ? ", " : "") << "[" << x[0] << ", " << x[1] << ", " << x[2] << "]";
    }
    js << "], \"reference\": [";
    for (Ordinal n = 0; n < m.num_nodes(); ++n) {
      const auto& X = m.node_position(n);
      js << (n ? ", " : "") << "[" << X[0] << ", " << X[1] << ", " << X[2] << "]";
    }
    js << "], \"velocity_over_displacement\": " << 1.0 / T << ", \"stress\": [" << s11
       << ", 0, 0, 0, 0, 0], \"von_mises\": " << std::fabs(s11) << "}" << (last ? "\n" : ",\n");
  };
  body(hex, "hexahedron27", false, stretch);
  body(tet, "tetra10", false, stretch_t);
  js << "  {\"cell\": \"hexahedron\", \"translation\": [" << shift[0] << ", " << shift[1] << ", "
     << shift[2] << "], \"bounds\": [0, 1, -0.05, 0.05, -0.05, 0.05]}\n ]\n}\n";
  js.close();
  // The stress tolerance (1e-9 relative) and position tolerance (1e-12 m)
  // are in the script: round-off of F over a few steps.
  EXPECT_EQ(run_checker("'" + dir + "' '" + dir + "/expected.json'"), 0);
  if (!HasFailure()) remove_tree(dir);
}

// The rigid pendulum of examples/rigid_pendulum.yaml: one rigid steel box
// hinged to the ground by a revolute joint (a step costs far less than its
// output, so the output's cost dominates).
const char* kPendulum = R"(
name: rigid_pendulum
time: {dt: 1.0e-3, end_time: 1.0}
gravity: [0, 0, -9.81]
bodies:
  - name: arm
    type: rigid
    shape: {type: box, size: [0.5, 0.02, 0.02]}
    center: [0.25, 0, 0]
    density: 7850
joints:
  - {name: hinge, type: revolute, body_i: ground, body_j: arm, point: [0, 0, 0], axis: [0, 1, 0]}
output: {every: 1}
)";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// Bytes this process has passed to write(2) and its relatives (wchar of
// /proc/self/io), -1 when the kernel does not say.
long long bytes_written() {
  std::ifstream in("/proc/self/io");
  std::string key;
  long long value = -1;
  while (in >> key >> value)
    if (key == "wchar:") return value;
  return -1;
}

// Output every step appends each step to output.xdmf instead of writing the
// index anew. Checked three ways over 300 output steps of the rigid
// pendulum, none of them timed:
//  - the file keeps its inode except when its free space runs out. The
//    writer before this one renamed a new index over the old one after every
//    output step (300 inodes here); a whole rewrite leaves at least 64 KiB
//    of free space (io/src/xdmf_index.cpp, kMinFree), so there are at most
//    (final size / 64 KiB + 1) of them;
//  - the text of step 0 stays at its offset, and after every step the index
//    is complete: it lists every step written so far and ends with </Xdmf>;
//  - the bytes written per output step (the step file, the index's new step,
//    a history row) do not grow with the step count: the median over steps
//    251-300 is within 2 % of that over steps 1-50 (the digits of a history
//    row vary). The writer before this one wrote the whole index each step,
//    several times more bytes at step 300 than at step 50.
TEST(Output, IndexIsAppendedInPlace) {
  const std::string dir = fresh_dir("append");
  scene::Scene s = scene::load_scene_text(kPendulum, "pendulum.yaml", ".");
  TimeStepper stepper(*s.model, s.settings);
  s.apply_initial_state(stepper);
  io::OutputSettings os = tlfea::output_settings(s);
  os.directory = dir;
  io::OutputWriter out(*s.model, stepper, os);
  for (const auto& j : s.joints) out.add_joint(j.first, j.second);
  const std::string xdmf = out.xdmf_path();
  std::string text = read_text(xdmf);
  const size_t first_at = text.find("   <Grid Name=\"step_000000\"");
  ASSERT_NE(first_at, std::string::npos);
  const std::string first =
      text.substr(first_at, text.find("   </Grid>\n", first_at) + 11 - first_at);
  struct stat st;
  ASSERT_EQ(stat(xdmf.c_str(), &st), 0);
  ino_t inode = st.st_ino;
  int rewrites = 0;
  const int steps = 300;
  std::vector<double> written;
  for (int i = 0; i < steps; ++i) {
    const StepReport r = stepper.step();
    const long long before = bytes_written();
    out.record(r);
    written.push_back(static_cast<double>(bytes_written() - before));
    ASSERT_EQ(stat(xdmf.c_str(), &st), 0);
    if (st.st_ino != inode) ++rewrites;
    inode = st.st_ino;
    text = read_text(xdmf);
    ASSERT_EQ(count_of(text, "<Time "), i + 2) << "after output step " << i + 1;
    ASSERT_EQ(text.substr(first_at, first.size()), first) << "after output step " << i + 1;
    ASSERT_GE(text.size(), 8u);
    ASSERT_EQ(text.substr(text.size() - 8), "</Xdmf>\n") << "after output step " << i + 1;
  }
  EXPECT_LE(rewrites, static_cast<int>(text.size() / 65536) + 1) << text.size() << " bytes";
  ASSERT_GE(bytes_written(), 0) << "/proc/self/io has no wchar";
  auto median = [](std::vector<double> x) {
    std::sort(x.begin(), x.end());
    return x[x.size() / 2];
  };
  const double early = median({written.begin(), written.begin() + 50});
  const double late = median({written.end() - 50, written.end()});
  EXPECT_GT(early, 0.0);
  EXPECT_LE(late, 1.02 * early) << "bytes per output step: " << early << " early, " << late
                                << " late";
  // finish(): the index without its free space, every step listed once.
  out.finish();
  text = read_text(xdmf);
  EXPECT_EQ(text.find("<?pad"), std::string::npos);
  EXPECT_EQ(count_of(text, "<Time "), steps + 1);
  EXPECT_EQ(run_checker("--killed '" + dir + "'"), 0);  // the index read by meshio
  if (!HasFailure()) remove_tree(dir);
}

// A child process writes output every step of a long run and is killed
// with SIGKILL once a few output steps exist; the files must then open
// read-only (h5py, i.e. the HDF5 library), and every dataset the XDMF index names must exist with
// the stated dimensions (checked by the independent reader, --killed), the histories holding as
// many rows as the index holds steps at least.
// Runs the writer child `child` (a DISABLED_ test of this file) and kills it
// `delay_ms` after its index lists 3 steps, then checks its directory.
void kill_and_check(const std::string& child, int delay_ms) {
  const std::string dir = fresh_dir("killed");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("TLFEA_IO_KILL_DIR", dir.c_str(), 1);
    const std::string filter = "--gtest_filter=Output." + child;
    execl("/proc/self/exe", "/proc/self/exe", "--gtest_also_run_disabled_tests", filter.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the index lists at least 3 steps (or 120 s), then kill.
  int steps_seen = 0;
  for (int i = 0; i < 1200 && steps_seen < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ifstream x(dir + "/output.xdmf");
    std::stringstream ss;
    ss << x.rdbuf();
    const std::string text = ss.str();
    steps_seen = 0;
    for (size_t p = text.find("<Time "); p != std::string::npos; p = text.find("<Time ", p + 1))
      ++steps_seen;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) FAIL() << "the writer child exited early";
  }
  ASSERT_GE(steps_seen, 3) << "the child produced no output";
  std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));  // inside a step
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_EQ(run_checker("--killed '" + dir + "'"), 0)
      << child << " killed " << delay_ms << " ms in";
  if (!::testing::Test::HasFailure()) remove_tree(dir);
}

TEST(Output, KilledRunLeavesReadableFiles) {
  // Three kills at different moments after the third output step (the
  // writer spends most of a step inside HDF5 calls: a single-file writer
  // with H5Fflush left "bad heap free list" files in about 1 of 40 kills).
  for (const int delay_ms : {3, 37, 71}) kill_and_check("DISABLED_KilledRunChild", delay_ms);
}

// The same for the rigid pendulum, whose steps are mostly output: the kills
// land at many points of the appends to output.xdmf (and, after tens to
// hundreds of steps, of its whole rewrites when its free space runs out),
// which must leave it complete.
TEST(Output, KilledAppendingRunLeavesReadableFiles) {
  for (const int delay_ms : {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377})
    kill_and_check("DISABLED_KilledPendulumChild", delay_ms);
}

// Joint reactions against the balance of linear momentum of the discrete
// step: for a body whose only external forces are gravity and the joint,
// sum_i (M (v_1 - v_0))_i / h = m g + F_joint (the internal forces of a T10
// body sum to zero). A 10 kg T10 bar (1 x 0.1 x 0.1 m, 1000 kg/m^3) pinned
// at one end by a spherical joint, one step from rest. Tolerance 1e-6 m g:
// the Newton residual tolerance (1e-8 N) and the 1e-8 constraint tolerance.
TEST(Output, JointReactionBalancesMomentum) {
  Model model;
  const Mesh bar = generate_box(ElementType::T10, {1.0, 0.1, 0.1}, {4, 1, 1}, {0.0, -0.05, -0.05});
  const int b = model.add_body(bar, MaterialSpec::svk(1e8, 0.3), 1000.0);
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  model.constraints();
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  const Vec3 X{{0.0, 0.0, 0.0}}, axis{{0.0, 1.0, 0.0}};
  const RowRange rows = model.constraints().add_spherical(
      body_joint_frame(model.block(b), q0, X, axis, 0.05), ground_joint_frame(X, axis, 0.05));
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  stepper.step();
  const Vec3 F = io::joint_reaction_per_body(model, stepper, rows)[0];
  const CrsPattern& p = model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.entries);
  auto mv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stepper.velocities());
  const Real* vf = v.data();
  Vec3 P{{0.0, 0.0, 0.0}};
  for (Ordinal r = 0; r < p.num_rows(); ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k) P[r % 3] += mv(k) * vf[en(k)];
  const Real m = 10.0, g = 9.81;
  const Vec3 expected{{P[0] / s.dt, P[1] / s.dt, P[2] / s.dt + m * g}};
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(F[a], expected[a], 1e-6 * m * g) << "component " << a;
  EXPECT_GT(F[2], 0.01 * m * g);  // the pin holds the bar up
}

// The writer half of KilledRunLeavesReadableFiles (run only in the child).
TEST(Output, DISABLED_KilledRunChild) {
  const char* dir = std::getenv("TLFEA_IO_KILL_DIR");
  ASSERT_NE(dir, nullptr);
  Model model;
  const Mesh m = generate_box(ElementType::Q27, {1.0, 0.2, 0.2}, {4, 1, 1});
  const int b = model.add_body(m, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.clamp_node_set(b, "xmin");
  model.set_gravity(Vec3{{0.0, 0.0, -9.81}});
  StepperSettings s;
  s.dt = 1e-3;
  TimeStepper stepper(model, s);
  io::OutputSettings os;
  os.directory = dir;
  io::OutputWriter out(model, stepper, os);
  for (int i = 0; i < 100000; ++i) out.record(stepper.step());
}

// The writer half of KilledAppendingRunLeavesReadableFiles (run only in the
// child).
TEST(Output, DISABLED_KilledPendulumChild) {
  const char* dir = std::getenv("TLFEA_IO_KILL_DIR");
  ASSERT_NE(dir, nullptr);
  scene::Scene s = scene::load_scene_text(kPendulum, "pendulum.yaml", ".");
  TimeStepper stepper(*s.model, s.settings);
  s.apply_initial_state(stepper);
  io::OutputSettings os = tlfea::output_settings(s);
  os.directory = dir;
  io::OutputWriter out(*s.model, stepper, os);
  for (const auto& j : s.joints) out.add_joint(j.first, j.second);
  for (int i = 0; i < 1000000; ++i) out.record(stepper.step());
}

}  // namespace
}  // namespace tlfea
