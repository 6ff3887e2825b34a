// TLFEA: components of a TimeStepper that add a force evaluated once per
// step from the state at its start (q_n, v_n), explicit within the step
// (docs/theory.md §7.6: contact forces are explicit within a time step):
// it enters the residual g as -f_step and the Newton matrix not at all
// (its tangent is zero: nothing of it depends on the unknown v). The
// stepper holds its step forces (TimeStepper::add_step_force) and calls
// each once per attempt of a step, a halved retry from the same start state
// again. ContactComponent (contact_component.hpp) is the contact of a scene;
// CallableStepForce wraps a callable (a hand-wired force, a test's probe).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "tlfea/core/types.hpp"

namespace tlfea {

class StepForce {
 public:
  virtual ~StepForce() = default;
  // The name a model requires it by (Model::require_step_force) and
  // messages give ("contact").
  virtual const std::string& name() const = 0;
  // f += the force of the step from t to t + h, from (q, v) = (q_n, v_n).
  virtual void add(Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) = 0;
};

// fn(t_n, q_n, v_n, h, f) adds into f.
class CallableStepForce final : public StepForce {
 public:
  using Function =
      std::function<void(Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f)>;
  explicit CallableStepForce(Function fn, std::string name = "step force")
      : fn_(std::move(fn)), name_(std::move(name)) {}
  const std::string& name() const override { return name_; }
  void add(Real t, const CoefView& q, const CoefView& v, Real h, const CoefView& f) override {
    fn_(t, q, v, h, f);
  }

 private:
  Function fn_;
  std::string name_;
};

inline std::shared_ptr<StepForce> make_step_force(CallableStepForce::Function fn,
                                                  std::string name = "step force") {
  return std::make_shared<CallableStepForce>(std::move(fn), std::move(name));
}

}  // namespace tlfea
