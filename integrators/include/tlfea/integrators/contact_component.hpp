// TLFEA: contact as a component of a TimeStepper (a StepForce named
// "contact"): the detection and the forces with their tangential history
// (docs/theory.md §7.6). Each step: detection at the step's start state,
// then the forces, explicit within the step. The restart (io::save_checkpoint,
// load_checkpoint) saves and restores the history through it, and the
// output writer reads the forces and the points they were computed at.
// A scene with contact makes one (Scene::contact_step) and requires it of
// every stepper on its model (Model::require_step_force).
#pragma once

#include <functional>
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
  // its restoration as if the last step had started at t_last. Split
  // (below): save_history on rank 0 returns what the last gather_history
  // collected (throws Error when a step came after it); restore_history on
  // every rank keeps the pairs whose vertex the rank owns, so a history
  // saved on any rank count restores on any other.
  void save_history(std::vector<unsigned long long>& keys,
                    std::vector<ContactHistory>& values) const;
  void restore_history(const std::vector<unsigned long long>& keys,
                       const std::vector<ContactHistory>& values, Real t_last);

  // Several ranks (TimeStepper::add_step_force on a distributed stepper
  // calls it; docs/guide/mpi.md "Contact on several ranks"): the detection
  // is split between the ranks (ContactDetection::set_split; triangle t of
  // deformable body b belongs to element_ranks[b] of its element, of a
  // rigid body (element_ranks[b] empty) to rank 0), each rank computes the
  // contacts of its own vertices and their forces and history, and the
  // partial forces are summed over the ranks by `sum` (bit-identical on
  // every rank) before they are added. Not split (every rank computes all
  // contacts alike, as on one rank) when the forces couple the contacts of
  // a pair (ContactForces::couples_contacts). `num_coefficients`: the
  // length of the force vectors add() receives (the partial-force buffer is
  // made here, not inside a step). Collective.
  void distribute(int rank, int size, const std::vector<std::vector<int>>& element_ranks,
                  Ordinal num_coefficients, std::function<void(const CoefView&)> sum);
  bool is_split() const { return split_; }
  // Collective where split: the history after the last step of every rank
  // to rank 0, for save_history (a no-op unsplit).
  void gather_history();
  // Collective where split: the last step's contact points of every rank
  // on rank 0 (elsewhere: empty), in key order (the one-rank order):
  // positions x and normals (3 per point), F_n and F_t on A (3 per point).
  void gather_output(std::vector<Real>& x, std::vector<Real>& normal, std::vector<Real>& fn,
                     std::vector<Real>& ft) const;
  // This rank's contact surface: its own vertices and triangles, and the
  // vertices and triangles its detection holds (own, its vertices'
  // triangles, ghosts); unsplit, all four are the whole surface's.
  struct SurfaceCounts {
    long long own_vertices = 0, own_triangles = 0, held_vertices = 0, held_triangles = 0;
  };
  SurfaceCounts surface_counts() const;
  // Collective where split: every rank's counts, in rank order, on rank 0
  // (elsewhere empty); unsplit: this rank's alone.
  std::vector<SurfaceCounts> surface_counts_by_rank() const;

 private:
  std::shared_ptr<ContactDetection> detection_;
  std::shared_ptr<ContactForces> forces_;
  bool split_ = false;
  int rank_ = 0, size_ = 1;
  std::function<void(const CoefView&)> sum_;
  CoefView partial_;  // split: this rank's contact forces, then their sum
  long long steps_ = 0, gathered_at_ = -1;
  std::vector<unsigned long long> gathered_keys_;
  std::vector<ContactHistory> gathered_values_;
};

// The stepper's contact component (null: none).
ContactComponent* find_contact(const TimeStepper& stepper);

}  // namespace tlfea
