// The run object (tlfea::Simulation): a run settled, stepped, checkpointed
// and restored through it ends like the uninterrupted run, state and
// history.csv, as `tlfea run --restart` does (tests/scene/cli_test.sh,
// restart). Reference: the uninterrupted run itself (the claim is equality,
// not accuracy): bit for bit in Serial, to round-off with threads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/simulation/simulation.hpp"

namespace tlfea {
namespace {

namespace fs = std::filesystem;

constexpr bool kSerial = std::is_same<ExecSpace, Kokkos::Serial>::value;

std::string example(const std::string& name) {
  return std::string(TLFEA_TEST_DATA_DIR) + "/../../examples/" + name;
}

std::string fresh_dir(const std::string& name) {
  const fs::path d =
      fs::path(::testing::TempDir()) / ("tlfea_sim_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(d);
  return d.string();
}

// The block of examples/block_on_slope_settled.yaml, settled briefly (it
// still slides: its contacts carry sticking springs and slip state, which
// the checkpoint must carry over), output every 5 steps.
scene::Scene block() {
  return scene::load_scene(example("block_on_slope_settled.yaml"),
                           {"time.settle=0.01", "output.every=5", "time.end_time=0.003"});
}

// Serial: equal bit for bit; threads: within tol.
void expect_same(const CoefView& a, const CoefView& b, double tol, const char* what) {
  const auto ha = to_host(a), hb = to_host(b);
  ASSERT_EQ(ha.extent(0), hb.extent(0));
  int bad = 0;
  for (size_t k = 0; k < ha.extent(0); ++k)
    for (int c = 0; c < 3; ++c) {
      const bool differ = kSerial ? ha(k, c) != hb(k, c) : std::fabs(ha(k, c) - hb(k, c)) > tol;
      if (differ && bad++ < 5)
        ADD_FAILURE() << what << "(" << k << ", " << c << "): " << ha(k, c) << " vs " << hb(k, c);
    }
}

// history.csv: the header and the rows, without the wall-time column.
std::vector<std::vector<std::string>> history(const std::string& dir) {
  std::ifstream f(fs::path(dir) / "history.csv");
  std::vector<std::vector<std::string>> rows;
  std::string line;
  int wall = -1;
  while (std::getline(f, line)) {
    std::vector<std::string> cells;
    size_t at = 0;
    for (;;) {
      const size_t comma = line.find(',', at);
      cells.push_back(line.substr(at, comma - at));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (rows.empty())
      for (size_t k = 0; k < cells.size(); ++k)
        if (cells[k].find("wall") != std::string::npos) wall = static_cast<int>(k);
    if (wall >= 0 && wall < static_cast<int>(cells.size())) cells.erase(cells.begin() + wall);
    rows.push_back(cells);
  }
  return rows;
}

TEST(Simulation, RestartFromItsCheckpointEndsLikeTheUninterruptedRun) {
  // A: 30 steps in one run.
  RunOptions oa;
  oa.output_directory = fresh_dir("a");
  Simulation a(block(), oa);
  ASSERT_TRUE(a.will_settle());
  const SettleReport sr = a.settle();
  EXPECT_EQ(sr.steps, 100);  // time.settle / dt = 0.01 / 1e-4
  EXPECT_EQ(a.run(), 30);
  EXPECT_EQ(a.stepper().steps_taken(), 30);
  EXPECT_EQ(a.finish(), (fs::path(oa.output_directory) / "checkpoint.h5").string());

  // B: the same to step 15 (start() settles by itself), into its folder.
  RunOptions ob;
  ob.output_directory = fresh_dir("b");
  ob.steps = 15;
  {
    Simulation b(block(), ob);
    EXPECT_EQ(b.run(), 15);
    ASSERT_TRUE(b.settle_report().has_value());
    EXPECT_EQ(b.settle_report()->steps, 100);
    b.finish();
  }
  // C: restarted from B's checkpoint into B's folder, to step 30: no settle,
  // the output resumed there.
  RunOptions oc;
  oc.output_directory = ob.output_directory;
  oc.restart = (fs::path(ob.output_directory) / "checkpoint.h5").string();
  Simulation c(block(), oc);
  EXPECT_TRUE(c.restarted());
  EXPECT_FALSE(c.will_settle());
  EXPECT_EQ(c.stepper().steps_taken(), 15);
  EXPECT_EQ(c.run(), 15);
  EXPECT_FALSE(c.settle_report().has_value());
  c.finish();
  expect_same(c.stepper().positions(), a.stepper().positions(), 1e-9, "q");
  expect_same(c.stepper().velocities(), a.stepper().velocities(), 1e-6, "v");
  EXPECT_EQ(c.stepper().time(), a.stepper().time());
  const auto ha = history(oa.output_directory), hc = history(oc.output_directory);
  ASSERT_EQ(ha.size(), 32u);  // header, step 0, steps 1..30
  ASSERT_EQ(hc.size(), ha.size());
  if (kSerial)
    for (size_t r = 0; r < ha.size(); ++r) EXPECT_EQ(hc[r], ha[r]) << "history.csv row " << r;
}

TEST(Simulation, CheckpointAndRestoreMidRun) {
  // checkpoint(path) at step 12 of a run without output; a second
  // Simulation restores it and steps to 24 like the first.
  const std::string ck = fresh_dir("mid.h5");
  RunOptions o;
  o.output = false;
  o.steps = 24;
  Simulation a(block(), o);
  for (int k = 0; k < 12; ++k) a.step();
  a.checkpoint(ck);
  EXPECT_EQ(a.run(), 12);
  EXPECT_EQ(a.finish(), "");  // no output, no checkpoint
  Simulation b(block(), o);
  b.restore(ck);
  EXPECT_EQ(b.stepper().steps_taken(), 12);
  EXPECT_EQ(b.run(), 12);
  expect_same(b.stepper().positions(), a.stepper().positions(), 1e-9, "q");
  expect_same(b.stepper().velocities(), a.stepper().velocities(), 1e-6, "v");
  EXPECT_EQ(b.totals().steps, 12);
  EXPECT_EQ(a.totals().steps, 24);
  fs::remove(ck);
}

// A stepper made by hand on a scene with contact refuses to step or settle
// until the scene's contact is added to it (it would run without contact).
TEST(Simulation, HandMadeStepperWithoutTheSceneContactRefusesToStep) {
  scene::Scene s = block();
  TimeStepper st(*s.model, s.settings);
  for (int settle = 0; settle < 2; ++settle) {
    try {
      if (settle)
        st.settle(s.settle.duration > 0 ? s.settle : SettleSettings{0.01});
      else
        st.step();
      FAIL() << "expected an Error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("'contact'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("attach_contact"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(st.steps_taken(), 0);
  s.attach_contact(st);
  EXPECT_TRUE(st.step().converged);
}

// A checkpoint with contact history loads into a hand-made stepper only
// once the scene's contact component is on it (it would drop the history).
TEST(Simulation, ContactCheckpointLoadsOnlyWithTheContactComponent) {
  RunOptions o;
  o.output = false;
  o.settle = false;
  Simulation a(block(), o);
  a.step();
  const std::string ck = fresh_dir("contact.h5");
  a.checkpoint(ck);
  scene::Scene s = block();
  TimeStepper st(*s.model, s.settings);
  EXPECT_THROW(io::load_checkpoint(ck, st), Error);
  s.attach_contact(st);
  io::load_checkpoint(ck, st);
  EXPECT_EQ(st.steps_taken(), 1);
  fs::remove(ck);
}

TEST(Simulation, ContactIsAttachedOnceAndErrorsAreClear) {
  auto s = std::make_shared<scene::Scene>(block());
  // load_scene leaves the contact to the run's stepper, and has the model require it.
  EXPECT_EQ(s->model->required_step_forces(), std::vector<std::string>{"contact"});
  RunOptions o;
  o.output = false;
  o.settle = false;
  Simulation a(s, o), b(s, o);  // one model, one contact component, in each stepper once
  ASSERT_EQ(a.stepper().step_forces().size(), 1u);
  ASSERT_EQ(b.stepper().step_forces().size(), 1u);
  EXPECT_EQ(a.stepper().step_forces()[0], b.stepper().step_forces()[0]);
  EXPECT_EQ(find_contact(a.stepper()), s->contact_component.get());
  s->attach_contact(a.stepper());  // a second time: nothing
  EXPECT_EQ(a.stepper().step_forces().size(), 1u);
  EXPECT_THROW(a.stepper().add_step_force(s->contact_component), Error);
  EXPECT_NE(a.contact(), nullptr);
  EXPECT_NE(a.contact_points(), nullptr);
  EXPECT_FALSE(a.will_settle());
  a.step();
  EXPECT_THROW(a.settle(), Error);
  try {
    b.restore("/nonexistent/checkpoint.h5");
    ADD_FAILURE() << "restore of a missing file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no file '/nonexistent/checkpoint.h5'"), std::string::npos)
        << e.what();
  }
  RunOptions both;
  both.steps = 3;
  both.end_time = 1.0;
  EXPECT_THROW((void)Simulation(block(), both), Error);
  // end_time: round(end_time / dt) steps, 0.0021 / 1e-4 = 21.
  RunOptions to;
  to.output = false;
  to.end_time = 0.0021;
  EXPECT_EQ(Simulation(block(), to).steps(), 21);
}

}  // namespace
}  // namespace tlfea
