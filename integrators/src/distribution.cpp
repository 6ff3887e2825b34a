// TLFEA: the element partition of a run on several MPI ranks (see
// distribution.hpp): the split of the elements (METIS or ranges), per-rank
// element blocks, row ownership, the sums over ranks of the partial internal
// forces, and the distributed linear solver.
#include "distribution.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"

#ifdef TLFEA_HAVE_MPI
#include <mpi.h>
#endif
#ifdef TLFEA_HAVE_METIS
#include <metis.h>
#endif

namespace tlfea::detail {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// values = 0 in the pattern rows rows(i), held at offset shift(row).
struct ZeroRows {
  DeviceView<Real*> values;
  DeviceView<Offset*> rm, shift;
  DeviceView<Ordinal*> rows;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Ordinal r = rows(i);
    for (Offset k = rm(r); k < rm(r + 1); ++k) values(k + shift(r)) = 0.0;
  }
};

#ifdef TLFEA_HAVE_MPI
// The elements `elements` (ascending) of `mesh` as a mesh of their own with
// every coefficient of the original (so its blocks number them as the body
// does).
Mesh element_subset(const Mesh& mesh, const std::vector<Ordinal>& elements) {
  Mesh sub;
  sub.type = mesh.type;
  sub.source = mesh.source;
  sub.coefficients = mesh.coefficients;
  const size_t n = static_cast<size_t>(mesh.coefficients_per_element());
  sub.connectivity.reserve(elements.size() * n);
  for (Ordinal e : elements)
    sub.connectivity.insert(sub.connectivity.end(), mesh.connectivity.begin() + e * n,
                            mesh.connectivity.begin() + (e + 1) * n);
  if (!mesh.element_size.empty())
    for (Ordinal e : elements) sub.element_size.push_back(mesh.element_size[e]);
  return sub;
}

// Contiguous ranges of the element numbering: element e to the rank r with
// ne r / size <= e < ne (r + 1) / size.
std::vector<int> range_parts(Ordinal ne, int size) {
  std::vector<int> part(static_cast<size_t>(ne));
  for (int r = 0; r < size; ++r) {
    const Ordinal begin = static_cast<Ordinal>(static_cast<long long>(ne) * r / size);
    const Ordinal end = static_cast<Ordinal>(static_cast<long long>(ne) * (r + 1) / size);
    for (Ordinal e = begin; e < end; ++e) part[e] = r;
  }
  return part;
}

#ifdef TLFEA_HAVE_METIS
// Coefficients two neighbouring elements share: a face of a solid (T10: 3
// vertices and 3 midside nodes; Q27: 3 x 3 nodes), an edge of an ANCF 3443
// shell (2 nodes of 4 coefficients), a node of an ANCF 3243 beam (4).
idx_t shared_coefficients(ElementType type) {
  switch (type) {
    case ElementType::T10:
      return 6;
    case ElementType::Q27:
      return 9;
    case ElementType::ANCF3243:
      return 4;
    case ElementType::ANCF3443:
      return 8;
  }
  return 1;
}

// METIS k-way partition of the element graph of `mesh` (elements adjacent
// when they share shared_coefficients(type) coefficients) into `size` parts;
// empty when METIS cannot take the mesh (more connectivity entries than its
// 32-bit indices hold) or fails, or leaves a part empty.
std::vector<int> metis_parts(const Mesh& mesh, int size) {
  const long long ne = mesh.num_elements();
  const long long n = mesh.coefficients_per_element();
  if (ne * n > std::numeric_limits<idx_t>::max()) return {};
  idx_t nel = static_cast<idx_t>(ne), nn = static_cast<idx_t>(mesh.num_coefficients());
  std::vector<idx_t> eptr(static_cast<size_t>(ne) + 1);
  for (long long e = 0; e <= ne; ++e) eptr[e] = static_cast<idx_t>(e * n);
  std::vector<idx_t> eind(mesh.connectivity.begin(), mesh.connectivity.end());
  idx_t ncommon = shared_coefficients(mesh.type), nparts = size, objval = 0;
  std::vector<idx_t> epart(static_cast<size_t>(ne)), npart(static_cast<size_t>(nn));
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  const int status =
      METIS_PartMeshDual(&nel, &nn, eptr.data(), eind.data(), nullptr, nullptr, &ncommon, &nparts,
                         nullptr, options, &objval, epart.data(), npart.data());
  if (status != METIS_OK) return {};
  std::vector<char> used(static_cast<size_t>(size), 0);
  for (idx_t p : epart) {
    if (p < 0 || p >= size) return {};
    used[p] = 1;
  }
  for (char u : used)
    if (!u) return {};
  return std::vector<int>(epart.begin(), epart.end());
}
#endif

// Rank of each element of a deformable body: METIS where asked, the body has
// at least 2 elements per rank and METIS gives every rank some (used_metis
// set), else contiguous ranges (a deterministic fallback: the split changes
// only the work per rank and the round-off of the sums, not the results;
// PartitionInfo::method reports it).
std::vector<int> element_parts(const Mesh& mesh, int size, PartitionMethod method,
                               bool& used_metis) {
  const Ordinal ne = mesh.num_elements();
  used_metis = false;
#ifdef TLFEA_HAVE_METIS
  if (method == PartitionMethod::metis && ne >= 2LL * size) {
    std::vector<int> part = metis_parts(mesh, size);
    if (!part.empty()) {
      used_metis = true;
      return part;
    }
  }
#else
  (void)method;
#endif
  return range_parts(ne, size);
}

// Joint neighbourhoods on one rank where the labels allow: the parts of a
// body are interchangeable (a permutation of the ranks keeps the balance and
// the cut of the body's own split), so rank 0 relabels the parts of each
// deformable body, in body order, to maximise the couplings of the Newton
// matrix pattern between the body's coefficients and those of the bodies
// already placed (the blocks a joint's Gauss-Newton term C_q^T C_q adds
// between two bodies) whose two coefficients one rank holds: a coupling
// between ranks is lost by the block-Jacobi preconditioner and its values
// cross ranks at every assembly. votes[p][o]: couplings from the
// coefficients of part p's elements to coefficients owned by rank o;
// greedy assignment, largest vote first; parts without votes keep their
// label where it is free, the rest take the free labels in order. `owner`
// (per coefficient, `size` for none yet) gains the body's coefficients,
// each owned by the lowest rank whose elements touch it (as make() decides).
void align_parts(std::vector<int>& part, const CliqueSet& cl, Ordinal lo, Ordinal hi,
                 const HostBlockPattern& pattern, std::vector<int>& owner, int size) {
  const Ordinal ne = cl.count();
  const int k = cl.size;
  // Owners of the partners of each coefficient of the body coupled to
  // other, already placed bodies (few: the joints' coefficients).
  std::vector<std::vector<int>> partners(static_cast<size_t>(hi - lo));
  bool any = false;
  for (Ordinal c = lo; c < hi; ++c)
    pattern.for_each_block_column(c, [&](Ordinal j) {
      if ((j < lo || j >= hi) && owner[j] < size) {
        partners[c - lo].push_back(owner[j]);
        any = true;
      }
    });
  if (any) {
    std::vector<long long> votes(static_cast<size_t>(size) * size, 0);
    for (Ordinal e = 0; e < ne; ++e)
      for (int i = 0; i < k; ++i) {
        const Ordinal c = cl.ids[static_cast<size_t>(e) * k + i];
        if (c >= lo && c < hi)
          for (int o : partners[c - lo]) ++votes[static_cast<size_t>(part[e]) * size + o];
      }
    std::vector<int> label(static_cast<size_t>(size), -1);
    std::vector<char> taken(static_cast<size_t>(size), 0);
    for (;;) {
      long long best = 0;
      int bp = -1, bo = -1;
      for (int p = 0; p < size; ++p)
        for (int o = 0; o < size; ++o)
          if (label[p] < 0 && !taken[o] && votes[static_cast<size_t>(p) * size + o] > best) {
            best = votes[static_cast<size_t>(p) * size + o];
            bp = p;
            bo = o;
          }
      if (bp < 0) break;
      label[bp] = bo;
      taken[bo] = 1;
    }
    for (int p = 0; p < size; ++p)
      if (label[p] < 0 && !taken[p]) {
        label[p] = p;
        taken[p] = 1;
      }
    for (int p = 0, o = 0; p < size; ++p)
      if (label[p] < 0) {
        while (taken[o]) ++o;
        label[p] = o;
        taken[o] = 1;
      }
    for (Ordinal e = 0; e < ne; ++e) part[e] = label[part[e]];
  }
  for (Ordinal e = 0; e < ne; ++e)
    for (int i = 0; i < k; ++i) {
      const Ordinal c = cl.ids[static_cast<size_t>(e) * k + i];
      if (c >= 0) owner[c] = std::min(owner[c], part[e]);
    }
}
#endif

}  // namespace

Distribution::~Distribution() {
  // The model's whole blocks, column indices and mass are built again by the
  // first use that needs them (Model::restore_when_needed), not here: a
  // run's end then builds nothing that nothing uses (a rebuild here held the
  // whole model on every rank beside what the run's end still held, above
  // the run's peak once that falls below the whole model: docs/guide/mpi.md).
  if (model_) model_->restore_when_needed();
}

}  // namespace tlfea::detail

namespace tlfea {
std::vector<std::string> available_partitions() {
#ifdef TLFEA_HAVE_METIS
  return {"default", "metis", "range"};
#else
  return {"default", "range"};
#endif
}
}  // namespace tlfea

namespace tlfea::detail {

PartitionMethod resolve_partition(PartitionMethod method) {
#ifdef TLFEA_HAVE_METIS
  constexpr bool have_metis = true;
#else
  constexpr bool have_metis = false;
#endif
  switch (method) {
    case PartitionMethod::automatic:
      return have_metis ? PartitionMethod::metis : PartitionMethod::range;
    case PartitionMethod::range:
      return method;
    case PartitionMethod::metis:
      if (!have_metis)
        throw_error(
            "StepperSettings: partition 'metis' needs METIS, and this build has none (the "
            "Trilinos build with libmetis-dev); use partition 'range' or 'default'");
      return method;
  }
  throw_error("StepperSettings: unknown partition");
}

std::unique_ptr<Distribution> Distribution::make(Model& model, PartitionMethod partition) {
  const PartitionMethod method = resolve_partition(partition);
#ifdef TLFEA_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return nullptr;
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size == 1) return nullptr;
  // Another stepper on several ranks holds the model (its pattern's column
  // indices and whole blocks freed): the same verdict on every rank.
  if (model.pattern_entries_released() || !model.row_layout().whole())
    throw_error(
        "TimeStepper: the model is in use by another TimeStepper on several MPI ranks (one at a "
        "time per model)");
  std::unique_ptr<Distribution> d(new Distribution());
  std::vector<DeviceView<Offset***>> sub_offsets;  // of own_, pattern offsets until the layout
  d->rank_ = rank;
  d->size_ = size;
  d->partial_.assign(static_cast<size_t>(size) * kMaxSums, 0.0);
  // The pattern without its scalar column indices (never built here: the
  // block structure places every value), read in place on the CPU backends.
  const CrsPattern& p = model.block_pattern();
  d->pattern_ = &p;
  const HostBlockPattern hp(p);
  const Ordinal nc = model.num_coefficients();
  std::vector<int> toucher(nc, size);  // lowest rank touching each coefficient
  std::vector<char> touched(nc, 0);    // by this rank's elements
  long long my_elements = 0;
  bool used_metis = false, used_range = false;  // over the deformable bodies
  // Rank 0: the owner of each coefficient of the bodies placed so far
  // (align_parts); rigid bodies are rank 0's from the start.
  std::vector<int> placed;
  if (rank == 0) {
    placed.assign(nc, size);
    for (int b = 0; b < model.num_bodies(); ++b)
      if (model.is_rigid(b))
        for (Ordinal c : model.block(b).cliques().ids)
          if (c >= 0) placed[c] = 0;
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    const ElementBlockBase& full = model.block(b);
    if (model.is_rigid(b)) {  // whole on rank 0
      d->blocks_.push_back(rank == 0 ? &full : nullptr);
      d->parts_.emplace_back();
      if (rank == 0)
        for (Ordinal c : full.cliques().ids)
          if (c >= 0) touched[c] = 1;
      continue;
    }
    // The partition of rank 0, broadcast: every rank holds the same. The
    // last entry says whether METIS made it. No error can escape rank 0
    // alone between the collectives: element_parts falls back to ranges.
    const Mesh& mesh = model.mesh(b);
    const Ordinal ne = full.num_elements();
    std::vector<int> part(static_cast<size_t>(ne) + 1);
    if (rank == 0) {
      bool by_metis = false;
      std::vector<int> p = element_parts(mesh, size, method, by_metis);
      const Ordinal lo = model.coefficient_offset(b);
      align_parts(p, full.cliques(), lo, lo + mesh.num_coefficients(), hp, placed, size);
      std::copy(p.begin(), p.end(), part.begin());
      part[ne] = by_metis ? 1 : 0;
    }
    MPI_Bcast(part.data(), static_cast<int>(ne) + 1, MPI_INT, 0, MPI_COMM_WORLD);
    (part[ne] ? used_metis : used_range) = true;
    d->parts_.emplace_back(part.begin(), part.begin() + ne);
    std::vector<Ordinal> mine;
    for (Ordinal e = 0; e < ne; ++e)
      if (part[e] == rank) mine.push_back(e);
    my_elements += static_cast<long long>(mine.size());
    if (mine.empty()) {
      d->blocks_.push_back(nullptr);
      continue;
    }
    const Ordinal ns = static_cast<Ordinal>(mine.size());
    auto sub = make_element_block(element_subset(mesh, mine), model.coefficient_offset(b),
                                  model.material(b), full.density());
    sub->set_scatter(full.scatter());
    sub->set_kernel_shapes(full.kernel_shapes());
    const CliqueSet c = sub->cliques();
    const int k = c.size;
    DeviceView<Offset***> offsets("tlfea::integrators::distribution::offsets", ns, k, k);
    auto h = host_mirror(offsets);
    for (Ordinal e = 0; e < ns; ++e)
      for (int i = 0; i < k; ++i) {
        const Ordinal a = c.ids[static_cast<size_t>(e) * k + i];
        if (a >= 0) touched[a] = 1;
        for (int j = 0; j < k; ++j)
          h(e, i, j) = hp.offset(a, c.ids[static_cast<size_t>(e) * k + j], "distribution");
      }
    copy_to_device(offsets, h);
    sub->set_matrix_offsets(p, offsets);
    sub_offsets.push_back(offsets);
    d->blocks_.push_back(sub.get());
    d->own_.push_back(std::move(sub));
  }
  for (Ordinal c = 0; c < nc; ++c)
    if (touched[c]) toucher[c] = rank;
  MPI_Allreduce(MPI_IN_PLACE, toucher.data(), nc, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  std::vector<int>& owner = toucher;  // rank 0 owns what no rank's elements touch
  for (int& o : owner)
    if (o == size) o = 0;
  d->owned_row_.assign(p.num_rows(), 0);
  std::vector<Ordinal> unowned;
  for (Ordinal c = 0; c < nc; ++c) {
    for (int a = 0; a < 3; ++a) {
      if (owner[c] == rank) {
        d->owned_row_[3 * c + a] = 1;
        d->rows_.owned.push_back(3 * c + a);
      } else {
        unowned.push_back(3 * c + a);
      }
      if (owner[c] == rank || touched[c]) d->rows_.touched.push_back(3 * c + a);
    }
  }
  // The unowned rows this rank holds (its shared rows).
  std::vector<Ordinal> held;
  for (Ordinal r : unowned)
    if (touched[r / 3]) held.push_back(r);
  d->unowned_rows_ = upload_to_device<Ordinal>("tlfea::integrators::distribution::unowned", held);
  d->rows_.partitioned = true;
  // This rank's values: the rows it owns, then its shared rows, each packed
  // in row order: the order of the distributed solver's two matrices, which
  // keep their values in this array (LinearSolver::matrix_storage). The
  // model's writers and the rank's element blocks write there from now on.
  d->rows_.layout = make_row_layout(p, d->rows_.owned, held);
  for (size_t k = 0; k < d->own_.size(); ++k)
    convert_offsets(p, d->own_[k]->cliques(), RowLayout(), d->rows_.layout, sub_offsets[k]);
  // The whole blocks of the split bodies go (the rank's blocks replace
  // them; the model builds them again when next needed after this ends).
  d->model_ = &model;
  for (int b = 0; b < model.num_bodies(); ++b)
    if (model.can_release_block(b)) model.release_block(b);
  model.set_row_layout(d->rows_.layout);
  // Couplings between bodies (joints) whose two coefficients different
  // ranks own: the same count on every rank (owner is).
  {
    std::vector<int> body_of(nc, -1);
    for (int b = 0; b < model.num_bodies(); ++b) {  // bodies hold consecutive ranges
      const Ordinal hi = b + 1 < model.num_bodies() ? model.coefficient_offset(b + 1) : nc;
      for (Ordinal c = model.coefficient_offset(b); c < hi; ++c) body_of[c] = b;
    }
    for (Ordinal c = 0; c < nc; ++c)
      hp.for_each_block_column(c, [&](Ordinal j) {
        if (body_of[j] != body_of[c]) {
          ++d->info_.body_couplings;
          if (owner[j] != owner[c]) ++d->info_.body_couplings_cut;
        }
      });
  }
  // The partition's figures, the same on every rank.
  const long long shared = static_cast<long long>(d->rows_.touched.size() - d->rows_.owned.size());
  const long long values = static_cast<long long>(d->rows_.layout.nnz);
  long long mins[2] = {my_elements, -my_elements}, sums[2] = {shared, values},
            maxs[2] = {shared, values};
  MPI_Allreduce(MPI_IN_PLACE, mins, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, maxs, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  d->info_.ranks = size;
  d->info_.method = used_metis && used_range ? "metis and range" : used_metis ? "metis" : "range";
  d->info_.elements_min = mins[0];
  d->info_.elements_max = -mins[1];
  d->info_.shared_rows_total = sums[0];
  d->info_.shared_rows_max = maxs[0];
  d->info_.matrix_values_total = sums[1];
  d->info_.matrix_values_max = maxs[1];
  return d;
#else
  (void)model;
  (void)method;
  return nullptr;
#endif
}

void Distribution::sum(const DeviceView<Real*>& x) const { sum(x, DeviceView<Real*>()); }

void Distribution::sum(const CoefView& x, const CoefView& y) const {
  sum(DeviceView<Real*>(x.data(), 3 * x.extent(0)), DeviceView<Real*>(y.data(), 3 * y.extent(0)));
}

void Distribution::sum(const DeviceView<Real*>& x, const DeviceView<Real*>& y) const {
#ifdef TLFEA_HAVE_MPI
  fence("tlfea::distribution::sum");  // x, y complete before MPI reads them
  // A host buffer kept across calls (no allocation inside a step once it
  // has the largest size asked for): x, then y.
  const size_t nx = x.extent(0), ny = y.extent(0);
  if (host_.size() < nx + ny) host_.resize(nx + ny);
  using Host = Kokkos::View<Real*, HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Host hx(host_.data(), nx), hy(host_.data() + nx, ny);
  copy_to_host(hx, x);
  if (ny > 0) copy_to_host(hy, y);
  const int n = static_cast<int>(nx + ny);
  if (rank_ == 0)
    MPI_Reduce(MPI_IN_PLACE, host_.data(), n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(host_.data(), nullptr, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Bcast(host_.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  copy_to_device(x, hx);
  if (ny > 0) copy_to_device(y, hy);
#else
  (void)x;
  (void)y;
#endif
}

std::vector<Ordinal> Distribution::owned_coefficients() const {
  std::vector<Ordinal> c;
  for (const Ordinal r : rows_.owned)
    if (r % 3 == 0) c.push_back(r / 3);
  return c;
}

Real Distribution::sum_scalar(Real x) const {
  sum_scalars(&x, 1);
  return x;
}

void Distribution::sum_scalars(Real* x, int n) const {
  if (n < 0 || n > kMaxSums)
    throw_error("Distribution::sum_scalars: ", n, " numbers, at most ", kMaxSums);
#ifdef TLFEA_HAVE_MPI
  // MPI_Allreduce may add in another order on each rank; the gathered
  // numbers added in rank order give every rank the same bits.
  MPI_Allgather(x, n, MPI_DOUBLE, partial_.data(), n, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < n; ++i) {
    Real s = 0.0;
    for (int r = 0; r < size_; ++r) s += partial_[static_cast<size_t>(r) * n + i];
    x[i] = s;
  }
#else
  (void)x;
#endif
}

void Distribution::sum(const CoefView& x) const {
  sum(DeviceView<Real*>(x.data(), 3 * x.extent(0)));
}

void Distribution::zero_unowned_rows(const DeviceView<Real*>& values) const {
  Kokkos::parallel_for("tlfea::integrators::distribution::zero_unowned_rows",
                       Range(0, unowned_rows_.extent(0)),
                       ZeroRows{values, pattern_->row_map, rows_.layout.shift, unowned_rows_});
}

std::unique_ptr<LinearSolver> Distribution::make_solver(const LinearSolverOptions& options) const {
  return make_partitioned_linear_solver(options, size_, rows_);
}

}  // namespace tlfea::detail
