// TLFEA: simulation output and restart.
//
// OutputWriter writes, into settings.directory:
//   output.h5    HDF5 (serial C library): the meshes, one group per output
//                step with the fields, and the time histories;
//   output.xdmf  XDMF 3 index of output.h5 that ParaView opens directly as a
//                time series (rewritten atomically, tmp + rename, after every
//                output step);
//   history.csv  the time histories, one line per completed step.
// After every output step output.h5 is flushed (H5Fflush) and the XDMF index
// rewritten, so a run killed (even with SIGKILL) leaves a readable file up to
// its last completed output step. Between output steps the HDF5 file is not
// touched (the histories are buffered and appended at output steps).
//
// Fields per body:
//   T10 / Q27: the quadratic mesh itself (XDMF Tetrahedron_10 /
//     Hexahedron_27, node orders of VTK_QUADRATIC_TETRA /
//     VTK_TRIQUADRATIC_HEXAHEDRON), point data displacement and velocity,
//     cell data Cauchy stress (XDMF Tensor6 order xx, xy, xz, yy, yz, zz; elastic part of the
//     law, sigma = P F^T / J averaged over the element's stiffness
//     quadrature points) and its von Mises value.
//   ANCF 3243 / 3443: a visualisation mesh sampled from r(u, v, w) through
//     the element shape functions, `samples` points per parent direction per
//     element, as linear hexahedra, with displacement and velocity.
// Joint reactions (one Polyvertex point per joint at its first material
// point): the constraint force on each body, -h C_q^T lambda of the joint's
// rows summed over the body's position coefficients. Contact (Polyvertex):
// x_c, n, F_n, F_t and F = F_n n + F_t on body A, as used in the step just
// completed (contact is explicit: detected and evaluated at the step's start).
// HDF5 layout: /mesh/body<b>/{topology, reference}; /steps/<6 digits>/{time,
// step, body<b>/{x, displacement, velocity, stress, von_mises},
// joints/{x, reaction, reaction_per_body}, contact/{x, normal, normal_force,
// tangential_force, force}}; /history/<column>.
// Histories: time, kinetic energy 1/2 v^T M v, strain energy, gravity
// potential -sum_b integral rho g . x dV, constraint violation (max, weighted),
// Newton and outer iterations, factorizations, step wall time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/contact_points.hpp"
#include "tlfea/solvers/model.hpp"
#include "tlfea/solvers/time_stepper.hpp"

namespace tlfea::io {

struct OutputSettings {
  std::string directory;  // created if missing
  int every = 1;          // fields every `every` steps (histories every step)
  bool displacement = true, velocity = true, stress = true, reactions = true, contact = true;
  int samples = 3;  // ANCF visualisation points per parent direction per element (>= 2)
};

class OutputWriter {
 public:
  // Creates the directory and the files, writes step 0 (the state of the
  // stepper now). Throws Error when the directory or a file cannot be made.
  OutputWriter(Model& model, TimeStepper& stepper, const OutputSettings& s);
  ~OutputWriter();
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;

  // Optional: contact results to write (the ContactForces' last compute and
  // the ContactPoints it used).
  void set_contact(const ContactForces* forces, const ContactPoints* points);
  // Optional: a named joint (its rows) for the reaction output. Without any,
  // all constraint rows form one group "constraints".
  void add_joint(const std::string& name, RowRange rows);

  // After every completed step: histories every step, fields every `every`
  // steps.
  void record(const StepReport& report);
  // Writes the current state as an output step now (if not already written).
  void write_fields();
  // Final flush (the last step's fields if not written yet), closes files.
  void finish();

  std::string hdf5_path() const;
  std::string xdmf_path() const;
  std::string csv_path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The constraint force of the rows `rows` (a joint) on each body: the
// resultant of -h C_q^T lambda over the body's position coefficients, at the
// stepper's current state (h = settings.dt, the step that produced lambda;
// after a step halving the last substep was shorter and this is approximate).
std::vector<Vec3> joint_reaction_per_body(Model& model, const TimeStepper& stepper, RowRange rows);

// Restart: everything needed to continue bit-identically (Serial): time,
// step count, q, v, lambda, the prescribed-motion state, the Newton
// solver's Jacobian-reuse state (the point the current factorization was
// assembled at; load refactors there), and the contact history.
void save_checkpoint(const std::string& path, const TimeStepper& stepper,
                     const ContactForces* contact = nullptr);
// The stepper must belong to a model built like the saved one (same sizes;
// checked, Error otherwise).
void load_checkpoint(const std::string& path, TimeStepper& stepper,
                     ContactForces* contact = nullptr);

}  // namespace tlfea::io
