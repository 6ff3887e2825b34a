// TLFEA: contact as a TimeStepper component (contact_component.hpp).
#include "tlfea/integrators/contact_component.hpp"

#include <utility>

#include "tlfea/core/error.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

ContactComponent::ContactComponent(std::shared_ptr<ContactDetection> detection,
                                   std::shared_ptr<ContactForces> forces)
    : detection_(std::move(detection)), forces_(std::move(forces)) {
  if (!detection_ || !forces_)
    throw_error("ContactComponent: needs both the detection and the forces");
}

const std::string& ContactComponent::component_name() {
  static const std::string name = "contact";
  return name;
}

void ContactComponent::add(Real t, const CoefView& q, const CoefView& v, Real h,
                           const CoefView& f) {
  detection_->detect(q, t);
  forces_->compute(detection_->points(), q, v, h, f, t);
}

void ContactComponent::save_history(std::vector<unsigned long long>& keys,
                                    std::vector<ContactHistory>& values) const {
  forces_->save_history(keys, values);
}

void ContactComponent::restore_history(const std::vector<unsigned long long>& keys,
                                       const std::vector<ContactHistory>& values, Real t_last) {
  forces_->restore_history(keys, values, t_last);
}

ContactComponent* find_contact(const TimeStepper& stepper) {
  for (const auto& f : stepper.step_forces())
    if (auto* c = dynamic_cast<ContactComponent*>(f.get())) return c;
  return nullptr;
}

}  // namespace tlfea
