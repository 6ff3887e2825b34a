// TLFEA: the run object (simulation.hpp): a scene's stepper, contact,
// output and checkpoint, wired in the order of simulation.hpp's steps.
#include "tlfea/simulation/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "tlfea/core/error.hpp"
#include "tlfea/simulation/scene_output.hpp"

namespace tlfea {

namespace {
std::shared_ptr<scene::Scene> checked(std::shared_ptr<scene::Scene> s) {
  if (!s || !s->model) throw Error("Simulation: no scene (or a scene without a model)");
  return s;
}
}  // namespace

Simulation::Simulation(scene::Scene scene, const RunOptions& options)
    : Simulation(std::make_shared<scene::Scene>(std::move(scene)), options) {}

Simulation::Simulation(std::shared_ptr<scene::Scene> scene, const RunOptions& options)
    : scene_(checked(std::move(scene))), options_(options) {
  scene::Scene& s = *scene_;
  if (options_.steps > 0 && options_.end_time > 0)
    throw Error("Simulation: give RunOptions::steps or end_time, not both");
  const StepperSettings& settings = options_.settings ? *options_.settings : s.settings;
  if (options_.steps > 0) s.steps = options_.steps;
  if (options_.end_time > 0)
    s.steps = std::max<long>(1, std::lround(options_.end_time / settings.dt));
  if (!options_.output_directory.empty()) s.output.directory = options_.output_directory;
  if (!options_.output) s.output.enabled = false;
  // The stepper (a static analysis refuses a model with contact), and the
  // contact as its component: a force of the step's start state.
  stepper_ = std::make_unique<TimeStepper>(*s.model, settings);
  s.attach_contact(*stepper_);
  if (!options_.restart.empty()) restore(options_.restart);
}

Simulation::~Simulation() = default;

bool Simulation::will_settle() const {
  return !restarted_ && !settled_ && !started_ && options_.settle && scene_->settle.duration > 0.0;
}

SettleReport Simulation::settle() {
  if (started_) throw Error("Simulation::settle: only before the run has started");
  SettleReport r;
  if (!will_settle()) return r;
  // A settle step that fails leaves the state changed: no second try.
  settled_ = true;
  r = stepper_->settle(scene_->settle);
  settle_report_ = r;
  return r;
}

void Simulation::start() {
  if (started_) return;
  if (will_settle()) settle();
  // A restart continues from the checkpoint's velocities.
  if (!restarted_) scene_->apply_initial_state(*stepper_);
  started_ = true;
  if (options_.output && options_.write && scene_->output.enabled)
    output_ = make_output(output_settings());
}

StepReport Simulation::step() {
  start();
  StepReport r;
  try {
    r = stepper_->step();
  } catch (const Error& e) {
    throw StepFailed(e.what());
  }
  ++totals_.steps;
  totals_.newton_iterations += r.newton_iterations;
  totals_.outer_iterations += r.outer_iterations;
  totals_.worst_constraint_violation =
      std::max(totals_.worst_constraint_violation, static_cast<double>(r.constraint_violation));
  if (output_) output_->record(r);
  return r;
}

long Simulation::run(const StepCallback& after_step) {
  start();
  long done = 0;
  while (stepper_->steps_taken() < steps()) {
    const StepReport r = step();
    ++done;
    if (after_step && !after_step(r)) break;
  }
  return done;
}

std::string Simulation::finish() {
  if (finished_) return "";
  start();
  finished_ = true;
  if (!output_) return "";
  output_->finish();
  output_.reset();
  if (!options_.checkpoint) return "";
  // Contacts split between ranks: their history to rank 0 (collective).
  if (ContactComponent* c = find_contact(*stepper_)) c->gather_history();
  if (stepper_->partition_rank() != 0) return "";
  const std::string ck =
      (std::filesystem::path(scene_->output.directory) / "checkpoint.h5").string();
  checkpoint(ck);
  return ck;
}

void Simulation::checkpoint(const std::string& path) const {
  io::save_checkpoint(path, *stepper_);  // with the contact component's history
}

void Simulation::restore(const std::string& path) {
  if (output_)
    throw Error("Simulation::restore: the output is open (restore before the run starts)");
  if (!std::filesystem::is_regular_file(path))
    throw Error("Simulation::restore: no file '" + path + "'");
  // Before the start: the initial state, then the checkpoint's (which
  // replaces the velocities and the contact history).
  if (!started_ && !restarted_) scene_->apply_initial_state(*stepper_);
  io::load_checkpoint(path, *stepper_);
  if (!started_) restarted_ = true;
}

io::OutputSettings Simulation::output_settings() const {
  io::OutputSettings os = tlfea::output_settings(*scene_);
  // A restart continues the output in the directory (its steps up to the
  // checkpoint's are kept; docs/scene.md, "output").
  os.resume = restarted_;
  os.any_rank = options_.any_rank;
  return os;
}

std::unique_ptr<io::OutputWriter> make_output_writer(Model& model, TimeStepper& stepper,
                                                     const scene::Scene* scene,
                                                     const io::OutputSettings& os) {
  auto w = std::make_unique<io::OutputWriter>(model, stepper, os);
  if (const ContactComponent* c = find_contact(stepper)) w->set_contact(c);
  if (scene)
    for (const auto& j : scene->joints) w->add_joint(j.first, j.second);
  return w;
}

std::unique_ptr<io::OutputWriter> Simulation::make_output(const io::OutputSettings& os) {
  return make_output_writer(*scene_->model, *stepper_, scene_.get(), os);
}

const ContactPoints* Simulation::contact_points() const {
  return scene_->detection ? &scene_->detection->points() : nullptr;
}

}  // namespace tlfea
