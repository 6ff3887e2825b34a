// TLFEA: contact as a component of a TimeStepper (a StepForce named
// "contact"): the detection and the forces with their tangential history
// (docs/theory.md §7.6). Each step: detection at the step's start state,
// then the forces, explicit within the step. The restart (io::save_checkpoint,
// load_checkpoint) saves and restores the history through it, and the
// output writer reads the forces and the points they were computed at.
// A scene with contact makes one (Scene::contact_step) and requires it of
// every stepper on its model (Model::require_step_force).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/detection.hpp"
#include "tlfea/integrators/step_force.hpp"

namespace tlfea {

class TimeStepper;

class ContactComponent final : public StepForce {
 public:
  // Throws Error when either is null.
  ContactComponent(std::shared_ptr<ContactDetection> detection,
                   std::shared_ptr<ContactForces> forces);
  static const std::string& component_name();  // "contact"
  const std::string& name() const override { return component_name(); }
  // Detection at (q, t), then f += the forces of the step of size h (a
  // retry with the same t restarts from the history that call started from).
  void add(Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) override;

  // What the output writer needs: the forces of the last step and the
  // points they were computed at.
  ContactForces& forces() const { return *forces_; }
  const ContactPoints& points() const { return detection_->points(); }
  ContactDetection& detection() const { return *detection_; }
  const std::shared_ptr<ContactForces>& shared_forces() const { return forces_; }
  const std::shared_ptr<ContactDetection>& shared_detection() const { return detection_; }

  // Restart: the history after the last step (pairs sorted by key), and
  // its restoration as if the last step had started at t_last.
  void save_history(std::vector<unsigned long long>& keys,
                    std::vector<ContactHistory>& values) const;
  void restore_history(const std::vector<unsigned long long>& keys,
                       const std::vector<ContactHistory>& values, Real t_last);

 private:
  std::shared_ptr<ContactDetection> detection_;
  std::shared_ptr<ContactForces> forces_;
};

// The stepper's contact component (null: none).
ContactComponent* find_contact(const TimeStepper& stepper);

}  // namespace tlfea
