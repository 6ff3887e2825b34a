// TLFEA: the element partition of a run on several MPI ranks (see
// distribution.hpp): per-rank element blocks, row ownership, the sums over
// ranks of the partial internal forces, and the distributed linear solver.
#include "distribution.hpp"

#include <algorithm>

#include "tlfea/core/error.hpp"
#include "tlfea/core/view_utils.hpp"

#ifdef TLFEA_HAVE_MPI
#include <mpi.h>
#endif

namespace tlfea::detail {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

struct AddAt {
  DeviceView<Real*> values, rep;
  DeviceView<Offset*> at;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset k) const { values(at(k)) += rep(at(k)); }
};

#ifdef TLFEA_HAVE_MPI
// Elements [begin, end) of `mesh` as a mesh of their own with every
// coefficient of the original (so its blocks number them as the body does).
Mesh element_range(const Mesh& mesh, Ordinal begin, Ordinal end) {
  Mesh sub;
  sub.type = mesh.type;
  sub.source = mesh.source;
  sub.coefficients = mesh.coefficients;
  const size_t n = static_cast<size_t>(mesh.coefficients_per_element());
  sub.connectivity.assign(mesh.connectivity.begin() + begin * n,
                          mesh.connectivity.begin() + end * n);
  if (!mesh.element_size.empty())
    sub.element_size.assign(mesh.element_size.begin() + begin, mesh.element_size.begin() + end);
  return sub;
}

// The CRS offset of block (a, b) (its (0, 0) entry) in the pattern, -1 for
// a negative id (the layout of core/crs_pattern.hpp).
struct OffsetFinder {
  HostView<Offset*> rm;
  HostView<Ordinal*> en;
  Offset operator()(Ordinal a, Ordinal b) const {
    if (a < 0 || b < 0) return -1;
    const Ordinal* first = en.data() + rm(3 * a);
    const Ordinal* last = en.data() + rm(3 * a + 1);
    const Ordinal* it = std::lower_bound(first, last, 3 * b);
    if (it == last || *it != 3 * b)
      throw_error("distribution: block (", a, ", ", b, ") is not in the Newton matrix pattern");
    return static_cast<Offset>(it - en.data());
  }
};
#endif

}  // namespace

Distribution::~Distribution() = default;

std::unique_ptr<Distribution> Distribution::make(Model& model) {
#ifdef TLFEA_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return nullptr;
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size == 1) return nullptr;
  std::unique_ptr<Distribution> d(new Distribution());
  d->rank_ = rank;
  d->size_ = size;
  const CrsPattern& p = model.pattern();
  d->pattern_ = &p;
  OffsetFinder find{Kokkos::create_mirror_view_and_copy(HostSpace(), p.row_map),
                    Kokkos::create_mirror_view_and_copy(HostSpace(), p.entries)};
  const Ordinal nc = model.num_coefficients();
  std::vector<int> toucher(nc, size);  // lowest rank touching each coefficient
  std::vector<char> touched(nc, 0);    // by this rank's elements
  for (int b = 0; b < model.num_bodies(); ++b) {
    const ElementBlockBase& full = model.block(b);
    if (model.is_rigid(b)) {  // whole on rank 0
      d->blocks_.push_back(rank == 0 ? &full : nullptr);
      if (rank == 0)
        for (Ordinal c : full.cliques().ids)
          if (c >= 0) touched[c] = 1;
      continue;
    }
    const Ordinal ne = full.num_elements();
    const Ordinal begin = static_cast<Ordinal>(static_cast<long long>(ne) * rank / size);
    const Ordinal end = static_cast<Ordinal>(static_cast<long long>(ne) * (rank + 1) / size);
    if (begin == end) {
      d->blocks_.push_back(nullptr);
      continue;
    }
    auto sub = make_element_block(element_range(model.mesh(b), begin, end),
                                  model.coefficient_offset(b), model.material(b), full.density());
    sub->set_scatter(full.scatter());
    sub->set_kernel_shape(full.kernel_shape());
    sub->set_reference_kernels(full.reference_kernels());
    const CliqueSet c = sub->cliques();
    const int k = c.size;
    DeviceView<Offset***> offsets("tlfea::solvers::distribution::offsets", end - begin, k, k);
    auto h = Kokkos::create_mirror_view(offsets);
    for (Ordinal e = 0; e < end - begin; ++e)
      for (int i = 0; i < k; ++i) {
        const Ordinal a = c.ids[static_cast<size_t>(e) * k + i];
        if (a >= 0) touched[a] = 1;
        for (int j = 0; j < k; ++j) h(e, i, j) = find(a, c.ids[static_cast<size_t>(e) * k + j]);
      }
    Kokkos::deep_copy(offsets, h);
    sub->set_matrix_offsets(p, offsets);
    d->blocks_.push_back(sub.get());
    d->own_.push_back(std::move(sub));
  }
  for (Ordinal c = 0; c < nc; ++c)
    if (touched[c]) toucher[c] = rank;
  MPI_Allreduce(MPI_IN_PLACE, toucher.data(), nc, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  d->owned_row_.assign(p.num_rows(), 0);
  for (Ordinal c = 0; c < nc; ++c) {
    const int owner = toucher[c] == size ? 0 : toucher[c];
    for (int a = 0; a < 3; ++a) {
      if (owner == rank) {
        d->owned_row_[3 * c + a] = 1;
        d->rows_.owned.push_back(3 * c + a);
      }
      if (owner == rank || touched[c]) d->rows_.touched.push_back(3 * c + a);
    }
  }
  std::vector<Offset> entries;
  for (Ordinal r : d->rows_.owned)
    for (Offset k = find.rm(r); k < find.rm(r + 1); ++k) entries.push_back(k);
  d->owned_entries_ = upload_to_device<Offset>("tlfea::solvers::distribution::owned", entries);
  d->replicated_ = DeviceView<Real*>("tlfea::solvers::distribution::replicated", p.nnz());
  return d;
#else
  (void)model;
  return nullptr;
#endif
}

void Distribution::sum(const DeviceView<Real*>& x) const {
#ifdef TLFEA_HAVE_MPI
  Kokkos::fence();  // x complete before MPI reads it
  // A host buffer kept across calls: no allocation inside a step.
  if (host_.size() != x.extent(0)) host_.resize(x.extent(0));
  Kokkos::View<Real*, HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(host_.data(),
                                                                            host_.size());
  Kokkos::deep_copy(h, x);
  const int n = static_cast<int>(h.extent(0));
  if (rank_ == 0)
    MPI_Reduce(MPI_IN_PLACE, h.data(), n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(h.data(), nullptr, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Bcast(h.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  Kokkos::deep_copy(x, h);
#else
  (void)x;
#endif
}

void Distribution::sum(const CoefView& x) const {
  sum(DeviceView<Real*>(x.data(), 3 * x.extent(0)));
}

void Distribution::add_owned_rows(const DeviceView<Real*>& rep,
                                  const DeviceView<Real*>& values) const {
  Kokkos::parallel_for("tlfea::solvers::distribution::owned_rows",
                       Range(0, owned_entries_.extent(0)), AddAt{values, rep, owned_entries_});
}

std::vector<Offset> Distribution::owned_offsets(const std::vector<Offset>& offsets) const {
  auto rm = Kokkos::create_mirror_view_and_copy(HostSpace(), pattern_->row_map);
  std::vector<Offset> out;
  for (Offset k : offsets) {
    // The row of offset k: the last r with rm(r) <= k.
    const Offset* it = std::upper_bound(rm.data(), rm.data() + rm.extent(0), k);
    const Ordinal r = static_cast<Ordinal>(it - rm.data()) - 1;
    if (owned_row_[r]) out.push_back(k);
  }
  return out;
}

std::unique_ptr<LinearSolver> Distribution::make_solver(const LinearSolverOptions& options) const {
  std::string name = options.backend;
  if (name == "default") name = options.symmetric ? "dist-cg" : "dist-gmres";
  if (name == "belos-cg") name = "dist-cg";
  if (name == "belos-gmres") name = "dist-gmres";
  if (name != "dist-cg" && name != "dist-gmres")
    throw_error("linear solver \"", options.backend, "\" cannot run on ", size_,
                " MPI ranks (direct and one-rank backends: tacho, klu2, eigen-ldlt, eigen-lu, "
                "cudss, kk-cg, kk-gmres, belos-minres); use dist-cg (symmetric) or dist-gmres "
                "(belos-cg / belos-gmres / default select them on several ranks)");
#ifdef TLFEA_HAVE_TRILINOS_SOLVERS
  configure_blas_threads();
  return make_distributed(options, name == "dist-cg" ? "CG" : "GMRES", rows_);
#else
  throw_error("linear solver \"", name, "\" needs the Trilinos solvers (TLFEA_ENABLE_TRILINOS=ON)");
#endif
}

}  // namespace tlfea::detail
