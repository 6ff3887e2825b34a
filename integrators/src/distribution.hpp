// TLFEA: the element partition of a TimeStepper run on several MPI ranks
// (replicated state, partitioned element work; docs/guide/mpi.md).
// Internal to the integrators layer.
//
// Every rank holds the whole Model and the whole state (q, v, lambda, the CRS
// pattern's row map), except the whole element blocks of the split T10 / Q27
// bodies, freed while the Distribution lives (Model::release_block: the
// rank's own blocks replace them; they never built their quadrature data,
// ElementBlockBase::prepare), and the pattern's column indices: the scalar
// ones are never built here (the setup reads the block structure,
// Model::block_pattern), the block columns are freed once the stepper's
// setup is done (Model::release_pattern_entries: the solver keeps its
// rank's rows); its destruction marks both, and the mass rows, for
// Model::restore_structure at the model's next use that needs them
// (Model::restore_when_needed). Each rank also holds the Krylov basis of the
// stale-Jacobian correction only in the coefficients it owns
// (stale_krylov.cpp), and the Newton matrix values only of the rows it
// touches or owns (RowLayout, core/crs_pattern.hpp: set on the Model for the
// Distribution's lifetime, so that the model's writers and the rank's
// element blocks fill that layout); the Tpetra matrix and its
// preconditioner are split (linear_solver_distributed.cpp). The
// elements of each deformable body are split between the ranks
// (StepperSettings::partition): "metis", a k-way
// partition of the body's element graph (elements adjacent when they share a
// face: 6 coefficients for T10, 9 for Q27; an edge of an ANCF 3443 shell, 8;
// a node of an ANCF 3243 beam, 4) by METIS (Karypis & Kumar, SIAM J. Sci.
// Comput. 20 (1998) 359-392), which balances the element counts (within
// METIS's default 3 %) and minimises the edges cut, hence the rows shared
// between ranks; or "range", contiguous ranges of the element numbering
// balanced by count (the only split without METIS, and the one for a body of
// fewer than 2 elements per rank or where METIS fails or leaves a rank
// without elements; PartitionInfo::method says so). The parts of each body
// are then relabelled (a permutation of the ranks: balance and cut are
// kept) so that a joint's coefficients on two bodies fall on one rank where
// the split allows (align_parts in distribution.cpp). The partition is
// computed on rank 0 and broadcast, so every rank holds the same. Rank r evaluates f_int and the
// tangent of its elements only, through an ElementBlock of them (a sub-mesh
// of the body, its elements in their body order, with all its coefficients,
// so the global coefficient ids and CRS offsets are the model's). Bodies
// without elements to split (rigid bodies) are evaluated whole by rank 0.
//
// Row ownership: coefficient c is owned by the lowest rank whose elements
// touch it (rank 0 when none does). A rank holds the values of the rows it
// owns and of those its elements touch (its shared rows): the owned rows
// packed in row order, then the shared rows, one array that the linear
// solver's Tpetra matrices keep as their values (the stepper assembles into
// it: no second copy). The replicated terms of the Newton matrix
// (M / h, constraints, follower loads, the unit diagonal of eliminated dofs),
// which every rank computes identically, are kept by each rank only in the
// rows it owns (the others zeroed before the rank's element tangents are
// added: no second nnz-sized array), so that their sum over ranks counts
// each once. The linear
// solver (dist-cg / dist-gmres) sums the ranks' partial values of the shared
// rows into their owners' rows (a Tpetra Export), in that array.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/linalg/distributed_solver.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea::detail {

// The element partition method for StepperSettings::partition (automatic:
// metis in a build with METIS, else range); throws Error for metis without
// METIS or a value out of the enumeration.
PartitionMethod resolve_partition(PartitionMethod method);

class Distribution {
 public:
  // nullptr unless MPI is initialised with more than one rank in
  // MPI_COMM_WORLD (always nullptr in a build without MPI). Collective.
  // `partition`: StepperSettings::partition.
  static std::unique_ptr<Distribution> make(Model& model, PartitionMethod partition);
  ~Distribution();

  int rank() const { return rank_; }
  int size() const { return size_; }
  // The same on every rank (reduced over the ranks in make()).
  const PartitionInfo& info() const { return info_; }
  // This rank's elements of body b, or nullptr when it has none.
  const ElementBlockBase* block(int body) const { return blocks_[body]; }
  // The rank evaluating each element of body b (the same on every rank);
  // empty for a body evaluated whole by rank 0 (a rigid body).
  const std::vector<int>& element_ranks(int body) const { return parts_[body]; }
  // x <- sum over ranks of x, bit-identical on every rank (reduced on rank 0
  // and broadcast, so that every rank takes the same Newton decisions).
  void sum(const CoefView& x) const;
  void sum(const DeviceView<Real*>& x) const;
  // x and y summed alike in one reduction and one broadcast.
  void sum(const CoefView& x, const CoefView& y) const;
  void sum(const DeviceView<Real*>& x, const DeviceView<Real*>& y) const;
  // The sum over ranks of one number per rank, added in rank order after an
  // all-gather: bit-identical on every rank (a dot product of vectors split
  // by owned rows).
  Real sum_scalar(Real x) const;
  // The same for n <= kMaxSums numbers in place (each summed in rank order).
  static constexpr int kMaxSums = 16;
  void sum_scalars(Real* x, int n) const;
  // The scalar rows this rank owns, ascending (the three rows of a
  // coefficient are owned together).
  const std::vector<Ordinal>& owned_rows() const { return rows_.owned; }
  // The coefficients (block rows) this rank owns, ascending.
  std::vector<Ordinal> owned_coefficients() const;
  // values = 0 in the rows this rank holds but does not own (values in the
  // rank's row layout, Model::row_layout).
  void zero_unowned_rows(const DeviceView<Real*>& values) const;
  // Whether this rank owns scalar row r.
  bool owns_row(Ordinal r) const { return owned_row_[r] != 0; }
  // The linear solver over the ranks for `options` (dist-cg / dist-gmres;
  // "default", belos-cg and belos-gmres map to them); throws Error naming the
  // rank count for a backend that cannot run distributed.
  std::unique_ptr<LinearSolver> make_solver(const LinearSolverOptions& options) const;

 private:
  Distribution() = default;
  Model* model_ = nullptr;  // whose row layout this sets (restored on destruction)
  int rank_ = 0, size_ = 1;
  std::vector<std::unique_ptr<ElementBlockBase>> own_;  // sub-blocks made here
  std::vector<const ElementBlockBase*> blocks_;         // per body
  std::vector<std::vector<int>> parts_;                 // per body: rank of each element
  RowPartition rows_;                                   // scalar rows touched / owned
  std::vector<unsigned char> owned_row_;                // per scalar row (host)
  const CrsPattern* pattern_ = nullptr;
  DeviceView<Ordinal*> unowned_rows_;  // the held scalar rows other ranks own
  mutable std::vector<Real> host_;     // sum(): the host copy summed over the ranks
  mutable std::vector<Real> partial_;  // sum_scalars(): kMaxSums numbers per rank
  PartitionInfo info_;
};

}  // namespace tlfea::detail
