// TLFEA: physical measures of a model's state for histories and output:
// energies, per-body motion and the constraint (joint) forces, each a device
// reduction over the state where it lives (only the sums reach the host).
#pragma once

#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea {

// Energies of a state (docs/theory.md §9.3).
struct Energies {
  Real kinetic = 0.0;  // 1/2 v^T M v, consistent mass (§3.5)
  Real strain = 0.0;   // sum over the bodies of their strain energy
  Real gravity = 0.0;  // -f(t) f_g . q (f_g: dead gravity load, §3.6)
  Real spring = 0.0;   // the force elements' potential (spring-dampers, §11)
  Real total = 0.0;    // kinetic + strain + gravity + spring
};

// A body's motion (Model::body_motion) and its gravity potential
// -f(t) m g . c (= -f(t) f_g . q over the body's coefficients, since
// (f_g)_j = g int rho0 s_j dV0 = g (e^T M)_j; docs/theory.md §9.3).
struct BodyMeasures {
  Model::BodyMotion motion;
  Real gravity_potential = 0.0;
};

// The energy and motion measures of one finalized model. Holds the dead
// gravity load f_g on the reference configuration (made once, on the device).
// With a stepper, the element terms (f_g, the strain energy) come from the
// elements it evaluates on this process (TimeStepper::own_elements), summed
// over its MPI ranks: on several ranks the constructor and energies() are
// then collective (every rank calls them, in the same order).
class StateMeasures {
 public:
  explicit StateMeasures(Model& model, const TimeStepper* stepper = nullptr);
  Energies energies(const CoefView& q, const CoefView& v, Real t) const;
  BodyMeasures body(int body, const CoefView& q, const CoefView& v, Real t) const;

 private:
  // Body b's elements whose terms this process adds (nullptr: none).
  const ElementBlockBase* elements(int b) const;
  Model& model_;
  const TimeStepper* stepper_ = nullptr;  // set on several ranks only
  DeviceView<Real*> gravity_load_;        // f_g, flat (3 per coefficient)
};

// The force the constraint rows `rows` exert on each body at the stepper's
// state (docs/theory.md §9.4): F = -h C_q^T lambda (h = settings.dt, the step
// that produced lambda; after a step halving the last substep was shorter
// and this is approximate), summed over the body's position coefficients.
// Throws Error when `rows` is not within the constraint rows.
std::vector<Vec3> constraint_force_per_body(Model& model, const TimeStepper& stepper,
                                            RowRange rows);

// A joint's reaction for output (docs/theory.md §9.4): the per-body forces,
// the joint's location (its first row's first material point at the current
// q; the origin when it has no rows), and the body it is reported on: the
// body of that point, or, when the point is on the ground, the body with the
// largest force.
struct JointReaction {
  Vec3 location{{0.0, 0.0, 0.0}};
  int body = 0;
  std::vector<Vec3> per_body;
};
JointReaction joint_reaction(Model& model, const TimeStepper& stepper, RowRange rows);

}  // namespace tlfea
