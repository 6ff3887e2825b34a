// TLFEA: simulation output and restart.
//
// OutputWriter writes, into settings.directory:
//   output.h5          HDF5 (serial C library): the meshes (from the start)
//                      and the time histories (at the end: finish());
//   steps/NNNNNN.h5    one HDF5 file per output step with its fields;
//   output.xdmf        XDMF 3 index of both that ParaView opens directly as
//                      a time series;
//   history.csv        the time histories, one line per completed step.
// On R > 1 MPI ranks (TimeStepper::partition_size()) rank k writes its piece
// (the elements the partition gives it, with the nodes they use; rigid
// bodies, joints and contact in piece 0) to output.h5 / steps/NNNNNN.h5
// (k = 0) or output.r<k>.h5 / steps/NNNNNN.r<k>.h5, rank 0 alone
// history.csv and output.xdmf, whose every step is a spatial collection of
// the R pieces.
// Every HDF5 file is written whole to NAME.tmp, closed and renamed into
// place (a step file once; output.h5 at the start with the meshes and at the
// end with the meshes and histories); no HDF5 file is modified in place.
// The XDMF index gets each output step appended in place, into free space
// (a processing instruction of blanks) kept before its closing tags, by a
// write inside that free space and a five-byte write that moves its start
// past the new step (io/src/xdmf_index.cpp): an output step costs the same
// however many came before, and the index is complete before and after each
// write. When the free space runs out, the index is written whole to
// output.xdmf.tmp with new free space of half its size and renamed into
// place; finish() writes it once more without free space. So a run killed
// at any moment (even with SIGKILL) leaves complete, readable files indexed
// up to its last completed output step, with the histories in history.csv
// (one flushed line per step). (HDF5 files modified in place are not
// crash-safe without SWMR: a single file flushed after every step was left
// unreadable, "bad heap free list", by about one SIGKILL in 40.) On an error
// a partly written NAME.tmp is closed and removed.
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
// HDF5 layout: output.h5: /mesh/body<b>/{topology, reference},
// /history/<column>; steps/<6 digits>.h5: /time, /step,
// /body<b>/{x, displacement, velocity, stress, von_mises},
// /joints/{x, reaction, reaction_per_body}, /contact/{x, normal,
// normal_force, tangential_force, force}.
// Histories (history.csv and /history/<column>): step, time, kinetic
// energy 1/2 v^T M v, strain energy, gravity potential -f(t) sum_b integral
// rho g . x dV (f: the gravity's time function, Model::set_gravity), total
// energy, constraint violation (max, weighted), Newton and outer iterations,
// factorizations, retries, step wall time; then per body b (in the model's
// order, named by OutputSettings::body_names, default "body<b>"):
//   <name>.com_{x,y,z}                centre of mass c = (e^T M q) / m,
//   <name>.momentum_{x,y,z}           p = e^T M v,
//   <name>.angular_momentum_{x,y,z}   L = sum_ij M_ij q_i x v_j (about the origin),
//   <name>.kinetic_energy             1/2 sum_ij M_ij v_i . v_j,
//   <name>.gravity_potential          -f(t) m g . c,
// with the body's consistent mass (Model::body_motion, a device reduction).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/contact/contact_forces.hpp"
#include "tlfea/contact/contact_points.hpp"
#include "tlfea/integrators/contact_component.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea::io {

struct OutputSettings {
  std::string directory;  // created if missing
  int every = 1;          // fields every `every` steps (histories every step)
  bool displacement = true, velocity = true, stress = true, reactions = true, contact = true;
  int samples = 3;  // ANCF visualisation points per parent direction per element (>= 2)
  // Continue the output already in `directory` (a restart from a checkpoint
  // at the stepper's step S): its step files and history rows up to step S
  // are kept, those beyond S (an abandoned continuation) removed, and the new
  // ones appended. Refused (Error, nothing changed) when the directory's
  // output cannot be the same run's: step files not numbered 0, 1, ..., steps
  // not increasing, other point counts, another time at step S, or another
  // history.csv header. Without it, step files of an earlier run are removed
  // and history.csv is started anew. Fields written by another number of
  // ranks (output.h5's /pieces, 1 without it): history.csv continues, the
  // step files of every piece are removed and the fields start anew at S.
  bool resume = false;
  // Names of the bodies for the per-body history columns, one per body in
  // the model's order (letters, digits, '_', '-'; distinct). Empty: body0,
  // body1, ...
  std::vector<std::string> body_names;
  // Several MPI ranks (TimeStepper::partition_size() > 1): every rank makes
  // an OutputWriter and writes its piece (docs/guide/output.md, "Several
  // ranks"); this is their collective "is `flag` true on any rank" (an
  // MPI_Allreduce; also the barrier before rank 0 indexes a step). Required
  // there, unused on one rank.
  std::function<bool(bool)> any_rank;
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
  // The same from a stepper's contact component; on several ranks with the
  // contacts split between them (ContactComponent::is_split) each output
  // step gathers every rank's points to rank 0 (write_step is collective).
  void set_contact(const ContactComponent* contact);
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
// The same as tlfea::constraint_force_per_body (integrators/diagnostics.hpp).
std::vector<Vec3> joint_reaction_per_body(Model& model, const TimeStepper& stepper, RowRange rows);

// Restart: everything needed to continue bit-identically (Serial): time,
// step count, q, v, lambda, the prescribed-motion state, the Newton
// solver's Jacobian-reuse state (the point the current factorization was
// assembled at; load refactors there), and the history of the stepper's
// contact component (ContactComponent, TimeStepper::step_forces).
void save_checkpoint(const std::string& path, const TimeStepper& stepper);
// The stepper must belong to a model built like the saved one (same sizes;
// checked, Error otherwise). A stepper with a contact component gets the
// saved contact history (Error when the file holds none); one without
// ignores any.
void load_checkpoint(const std::string& path, TimeStepper& stepper);

}  // namespace tlfea::io
