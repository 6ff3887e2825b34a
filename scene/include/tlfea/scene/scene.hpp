// TLFEA: scene files. A YAML scene (docs/scene.md lists every key, its
// default and unit; SI units throughout) describes bodies, clamped and
// prescribed node sets, loads with time functions, joints, contact, solver
// settings, time and output; load_scene validates all of it and builds the
// Model, the stepper settings and the contact (detection and forces, a
// component of the run's stepper: attach_contact, tlfea::Simulation). Every problem in the
// input (YAML syntax, unknown key, missing required key, wrong type, unknown
// name, missing mesh file, a joint point outside its body, a non-positive dt,
// ...) throws one tlfea::Error whose message is "FILE:LINE:COLUMN: message"
// (line and column 1-based, of the offending node). Nothing is written to
// disk by load_scene.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/integrators/contact_component.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea::scene {

// A scalar time function f(t) of a load amplitude, a prescribed motion or a
// joint drive (closed forms in docs/scene.md).
struct TimeFunctionSpec {
  enum class Kind { Constant, Ramp, Sine, Table };
  Kind kind = Kind::Constant;
  Real value = 1.0;           // constant
  Real t0 = 0.0, t1 = 1.0;    // ramp: from t0 to t1 [s]
  Real from = 0.0, to = 1.0;  // ramp: values before t0 and after t1
  Real amplitude = 1.0, frequency = 1.0, phase = 0.0, offset = 0.0;  // sine [-, Hz, rad, -]
  std::vector<std::pair<Real, Real>> table;                          // (t, f) with increasing t
  Real operator()(Real t) const;
};

struct SceneOutput {
  bool enabled = true;
  std::string directory;  // default "tlfea_out/<scene name>"
  int every = 1;
  bool displacement = true, velocity = true, stress = true, reactions = true, contact = true;
  int samples = 3;          // ANCF visualisation points per parent direction per element
  double step_bytes = 0.0;  // estimated size of one output step's fields [bytes]
};

struct SceneBodyInfo {
  std::string name;
  ElementType element = ElementType::T10;
  Ordinal elements = 0, coefficients = 0;
  std::string material;
  Real mass = 0.0;     // rho * reference volume [kg]; a rigid body's mass
  bool rigid = false;  // type: rigid (element: its ANCF-type coefficient node)
};

struct Scene {
  std::string file;         // the scene file (or "<default scene>")
  std::string name;         // scene name (default: the file's stem)
  std::string description;  // free text
  std::unique_ptr<Model> model;
  StepperSettings settings;
  long steps = 0;       // steps to run (from time.steps or time.end_time / dt)
  Real end_time = 0.0;  // steps * dt [s]
  SceneOutput output;
  std::vector<SceneBodyInfo> bodies;
  std::vector<std::pair<std::string, RowRange>> joints;  // name, constraint rows
  std::vector<std::string> springs;  // spring-damper names (Model::spring_dampers() order)
  // Contact (empty when the scene has no contact section): the detection
  // and the forces with their history, and the stepper component of both
  // (ContactComponent). The model requires the component of every stepper
  // on it (Model::require_step_force: a stepper without it refuses to
  // step); a run adds it (attach_contact) and saves and restores its
  // history with the checkpoint (tlfea::Simulation, simulation/).
  std::shared_ptr<ContactDetection> detection;
  std::shared_ptr<ContactForces> contact;
  std::shared_ptr<ContactComponent> contact_component;
  // Initial velocity per coefficient (empty: at rest).
  std::vector<Vec3> initial_velocity;
  // time.settle: settle before t = 0 (duration > 0; TimeStepper::settle),
  // on a fresh start, not on a restart. Then apply_initial_state.
  SettleSettings settle;
  // The settle above was chosen by default, not by time.settle: the scene
  // has contact, constant gravity and bodies touching at t = 0
  // (docs/scene.md, "time"); time.settle: 0 turns it off.
  bool settle_auto = false;

  Ordinal unknowns() const;  // 3 * free coefficients
  Ordinal constraint_rows() const;
  // Applies the initial velocities to a stepper built on `model`.
  void apply_initial_state(TimeStepper& stepper) const;
  // Adds the contact component (if any) to `stepper`, a stepper on `model`,
  // once (a second call does nothing; steppers on one model share the
  // component and its history): detection at the state of the step's
  // start, then the forces, explicit within the step (docs/theory.md §7.6).
  // tlfea::Simulation calls it; Error for a static analysis.
  void attach_contact(TimeStepper& stepper) const;
};

// Overrides "key.path=value" (sequence entries by index: bodies.0.density=10)
// are applied to the YAML tree before validation; value is parsed as YAML.
Scene load_scene(const std::string& path, const std::vector<std::string>& overrides = {});
// The same from text; `file` names it in messages, relative mesh paths are
// taken from `base_dir`.
Scene load_scene_text(const std::string& text, const std::string& file, const std::string& base_dir,
                      const std::vector<std::string>& overrides = {});

}  // namespace tlfea::scene
