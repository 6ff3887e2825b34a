// TLFEA: the run object. A Simulation is built from a scene description
// (tlfea::scene::Scene, what load_scene produces) and run options, and owns
// what a run needs: the model (through the scene), its TimeStepper, the
// contact (the scene's ContactComponent, a component of the stepper, its
// history saved and restored with the checkpoint), the output writer and
// the checkpoint. The
// tlfea program (`tlfea run`) and the Python package (Scene.stepper,
// OutputWriter, Stepper.save_checkpoint / load_checkpoint) both run through
// it, so a run is wired in this one place:
//
//   1. construction: the options' step count and output overrides are
//      applied to the scene, the stepper made and the scene's contact
//      added to it; with options.restart the checkpoint is restored (below);
//   2. settle(): time.settle on a fresh start (dynamic relaxation before
//      t = 0, TimeStepper::settle); a restart does not settle again;
//   3. start() (by the first step, run or finish when not called): the
//      scene's initial velocities on a fresh start, then the output writer
//      (step 0; a restart continues the output already in the directory);
//   4. step() / run(): steps, each recorded by the output;
//   5. finish(): the output's last step and histories, then
//      <output directory>/checkpoint.h5.
// checkpoint(path) / restore(path) save and load the state at any step
// (io::save_checkpoint / load_checkpoint: the stepper's state and the
// contact history; a restored run continues bit-identically in Serial).
//
// Several MPI ranks: every rank makes its Simulation alike (the stepper is
// collective); each writes its piece of the output (io::OutputWriter, with
// options.any_rank), rank 0 alone the histories, the index and the
// checkpoint.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tlfea/core/error.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/io/output.hpp"
#include "tlfea/scene/scene.hpp"

namespace tlfea {

struct RunOptions {
  // The number of steps to run to: > 0 instead of the scene's (time.steps or
  // time.end_time / dt); end_time > 0: round(end_time / dt) steps, at least
  // one. Not both.
  long steps = -1;
  double end_time = -1.0;
  // Stepper settings instead of the scene's.
  std::optional<StepperSettings> settings;
  // Output: to this directory instead of the scene's output.directory
  // (non-empty); output false: none (no files, no checkpoint at finish).
  std::string output_directory;
  bool output = true;
  // This process writes output (false: none here). Several MPI ranks: every
  // rank writes its piece, rank 0 the checkpoint; any_rank is then their
  // collective "`flag` on any rank" (io::OutputSettings::any_rank).
  bool write = true;
  std::function<bool(bool)> any_rank;
  // finish() writes <output directory>/checkpoint.h5 after the output.
  bool checkpoint = true;
  // A checkpoint to continue from (restore() at construction): no settle,
  // and the output resumes in its directory (io::OutputSettings::resume).
  std::string restart;
  // time.settle on a fresh start (false: the caller settles, or not).
  bool settle = true;
};

// A step that failed (TimeStepper::step's Error, its message unchanged):
// Simulation::step and run throw it; an Error of anything else (the output)
// is not one. The state stays at the last converged step.
class StepFailed : public Error {
 public:
  using Error::Error;
};

// What the steps taken through Simulation::step have done so far.
struct RunTotals {
  long steps = 0;
  long newton_iterations = 0, outer_iterations = 0;
  double worst_constraint_violation = 0.0;
};

// An output writer on `stepper` (a stepper on `model`) with the stepper's
// contact component (its forces and points) and, given a scene, the
// scene's joints: the output of a run (Simulation::make_output), and of a
// stepper made on a scene's model by hand (the Python Stepper(model)).
std::unique_ptr<io::OutputWriter> make_output_writer(Model& model, TimeStepper& stepper,
                                                     const scene::Scene* scene,
                                                     const io::OutputSettings& settings);

class Simulation {
 public:
  // Called after every step of run() with its report; false ends run().
  using StepCallback = std::function<bool(const StepReport&)>;

  // The options' step count and output overrides are written into the scene
  // (scene().steps, scene().output), where a summary of the run reads them.
  explicit Simulation(scene::Scene scene, const RunOptions& options = {});
  // A scene shared with other runs (the Python Scene: several steppers of
  // one loaded scene step its one model and share its contact history).
  explicit Simulation(std::shared_ptr<scene::Scene> scene, const RunOptions& options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Whether settle() would settle: a fresh start (no restore), options.settle,
  // time.settle > 0, not settled nor started yet.
  bool will_settle() const;
  // time.settle when will_settle() (else nothing; a report of 0 steps).
  // Error when a settle step fails, or after start().
  SettleReport settle();
  // The report of the settle, if one ran.
  const std::optional<SettleReport>& settle_report() const { return settle_report_; }
  // Settles when will_settle(), applies the initial velocities on a fresh
  // start, opens the output (step 0). Once; step(), run() and finish() call
  // it first.
  void start();
  // One step (TimeStepper::step), recorded by the output. StepFailed when
  // the step fails.
  StepReport step();
  // Steps until the step count (steps()) is reached or after_step returns
  // false; returns the number of steps taken. StepFailed propagates.
  long run(const StepCallback& after_step = {});
  // Closes the output (its last step's fields, the histories) and, with
  // options.checkpoint, writes <output directory>/checkpoint.h5; returns
  // that path ("" when nothing was written: no output, or not this rank).
  // Once; later steps are not recorded.
  std::string finish();

  // The stepper's state and the contact history (checkpoint format of
  // io::save_checkpoint).
  void checkpoint(const std::string& path) const;
  // Loads a checkpoint (Error when the file is missing or the model is
  // built otherwise); before start(), the run is a restart (no settle,
  // output resumed). Refused while the output is open.
  void restore(const std::string& path);

  // The output settings of this run: the scene's output section, the
  // options' directory, resume on a restart.
  io::OutputSettings output_settings() const;
  // An output writer on this run's stepper with its contact and joints
  // (make_output_writer; the Python OutputWriter; start() makes the run's
  // own one with it).
  std::unique_ptr<io::OutputWriter> make_output(const io::OutputSettings& os);

  long steps() const { return scene_->steps; }
  bool restarted() const { return restarted_; }
  bool started() const { return started_; }
  const RunTotals& totals() const { return totals_; }
  scene::Scene& scene() { return *scene_; }
  const scene::Scene& scene() const { return *scene_; }
  const std::shared_ptr<scene::Scene>& shared_scene() const { return scene_; }
  Model& model() { return *scene_->model; }
  TimeStepper& stepper() { return *stepper_; }
  const TimeStepper& stepper() const { return *stepper_; }
  // The contact forces (with their history) and the points they were
  // computed at; null without contact.
  ContactForces* contact() const { return scene_->contact.get(); }
  const ContactPoints* contact_points() const;
  // The run's output writer (null: none, not started, or finished).
  io::OutputWriter* output() { return output_.get(); }

 private:
  std::shared_ptr<scene::Scene> scene_;
  RunOptions options_;
  std::unique_ptr<TimeStepper> stepper_;
  std::unique_ptr<io::OutputWriter> output_;
  std::optional<SettleReport> settle_report_;
  RunTotals totals_;
  bool restarted_ = false, settled_ = false, started_ = false, finished_ = false;
};

}  // namespace tlfea
