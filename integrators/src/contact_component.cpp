// TLFEA: contact as a TimeStepper component (contact_component.hpp).
#include "tlfea/integrators/contact_component.hpp"

#include <algorithm>
#include <utility>

#ifdef TLFEA_HAVE_MPI
#include <mpi.h>
#endif

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {

namespace {

// The largest of x over the ranks (the same on every rank).
Real max_over_ranks(Real x) {
#ifdef TLFEA_HAVE_MPI
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
  return x;
}

// Every rank's `mine` (trivially copyable records), concatenated in rank
// order on rank 0; empty elsewhere.
template <class T>
std::vector<T> gather_to_root(const std::vector<T>& mine, int rank, int size) {
#ifdef TLFEA_HAVE_MPI
  int bytes = static_cast<int>(mine.size() * sizeof(T));
  std::vector<int> counts(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<T> all;
  if (rank == 0) {
    long long total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = static_cast<int>(total);
      total += counts[r];
    }
    all.resize(static_cast<size_t>(total) / sizeof(T));
  }
  MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  return all;
#else
  (void)rank;
  (void)size;
  return mine;
#endif
}

struct PointRecord {
  unsigned long long key;
  Real x[3], normal[3], fn, ft[3];
};

struct HistoryRecord {
  unsigned long long key;
  ContactHistory value;
};

}  // namespace

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

void ContactComponent::distribute(int rank, int size,
                                  const std::vector<std::vector<int>>& element_ranks,
                                  Ordinal num_coefficients,
                                  std::function<void(const CoefView&)> sum) {
  if (size <= 1 || forces_->couples_contacts()) return;
  if (!sum) throw_error("ContactComponent::distribute: no sum over the ranks");
  sum_ = std::move(sum);
  if (split_) {
    if (rank != rank_ || size != size_)
      throw_error("ContactComponent::distribute: split for rank ", rank_, " of ", size_,
                  " already, now rank ", rank, " of ", size);
    return;
  }
  const SurfaceHost& h = detection_->host_surface();
  std::vector<int> owner(h.num_triangles(), 0);
  for (Ordinal t = 0; t < h.num_triangles(); ++t) {
    const int b = h.triangle_body[t];
    if (b < 0 || b >= static_cast<int>(element_ranks.size()) || element_ranks[b].empty()) continue;
    const Ordinal e = h.triangle_element[t];
    if (e < 0 || e >= static_cast<Ordinal>(element_ranks[b].size()))
      throw_error("ContactComponent::distribute: triangle ", t, " of body ", b, ": element ", e,
                  " of ", element_ranks[b].size());
    owner[t] = element_ranks[b][e];
  }
  detection_->set_split(rank, std::move(owner), 0.0, max_over_ranks);
  partial_ = CoefView("tlfea::integrators::contact_partial", num_coefficients);
  split_ = true;
  rank_ = rank;
  size_ = size;
}

void ContactComponent::add(Real t, const CoefView& q, const CoefView& v, Real h,
                           const CoefView& f) {
  ++steps_;
  detection_->detect(q, t);
  if (!split_) {
    forces_->compute(detection_->points(), q, v, h, f, t);
    return;
  }
  if (partial_.extent(0) != f.extent(0))
    throw_error("ContactComponent::add: forces of ", f.extent(0), " coefficients, split for ",
                partial_.extent(0));
  fill(partial_, 0.0);
  forces_->compute(detection_->points(), q, v, h, partial_, t);
  sum_(partial_);  // the same bits on every rank
  const CoefView p = partial_;
  Kokkos::parallel_for(
      "tlfea::integrators::contact_add", Kokkos::RangePolicy<ExecSpace>(0, f.extent(0)),
      KOKKOS_LAMBDA(const Ordinal i) {
        for (int k = 0; k < 3; ++k) f(i, k) += p(i, k);
      });
}

void ContactComponent::save_history(std::vector<unsigned long long>& keys,
                                    std::vector<ContactHistory>& values) const {
  if (!split_) {
    forces_->save_history(keys, values);
    return;
  }
  if (gathered_at_ != steps_)
    throw_error(
        "ContactComponent::save_history: on several ranks the history is gathered to rank "
        "0 first (gather_history on every rank after the last step)");
  keys = gathered_keys_;
  values = gathered_values_;
}

void ContactComponent::gather_history() {
  if (!split_) return;
  std::vector<unsigned long long> keys;
  std::vector<ContactHistory> values;
  forces_->save_history(keys, values);
  std::vector<HistoryRecord> mine(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) mine[i] = {keys[i], values[i]};
  std::vector<HistoryRecord> all = gather_to_root(mine, rank_, size_);
  std::sort(all.begin(), all.end(),
            [](const HistoryRecord& a, const HistoryRecord& b) { return a.key < b.key; });
  gathered_keys_.resize(all.size());
  gathered_values_.resize(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    gathered_keys_[i] = all[i].key;
    gathered_values_[i] = all[i].value;
  }
  gathered_at_ = steps_;
}

void ContactComponent::restore_history(const std::vector<unsigned long long>& keys,
                                       const std::vector<ContactHistory>& values, Real t_last) {
  if (!split_) {
    forces_->restore_history(keys, values, t_last);
    return;
  }
  if (keys.size() != values.size())
    throw_error("ContactComponent::restore_history: ", keys.size(), " keys but ", values.size(),
                " values");
  std::vector<unsigned long long> k;
  std::vector<ContactHistory> h;
  for (size_t i = 0; i < keys.size(); ++i)
    if (detection_->key_owner(keys[i]) == rank_) {
      k.push_back(keys[i]);
      h.push_back(values[i]);
    }
  forces_->restore_history(k, h, t_last);
}

void ContactComponent::gather_output(std::vector<Real>& x, std::vector<Real>& normal,
                                     std::vector<Real>& fn, std::vector<Real>& ft) const {
  const ContactPoints& cp = detection_->points();
  std::vector<PointRecord> mine;
  if (cp.capacity > 0) {
    auto cnt = to_host(cp.count);
    const Ordinal n = std::min<Ordinal>(cnt(0), cp.capacity);
    auto xc = to_host(cp.x);
    auto nc = to_host(cp.normal);
    auto key = to_host(cp.key);
    auto fnh = to_host(forces_->normal_force());
    auto fth = to_host(forces_->tangential_force());
    mine.resize(n);
    for (Ordinal k = 0; k < n; ++k) {
      const bool valid = k < static_cast<Ordinal>(fnh.extent(0));
      PointRecord& r = mine[k];
      r.key = key(k);
      r.fn = valid ? fnh(k) : 0.0;
      for (int a = 0; a < 3; ++a) {
        r.x[a] = xc(k, a);
        r.normal[a] = nc(k, a);
        r.ft[a] = valid ? fth(k, a) : 0.0;
      }
    }
  }
  std::vector<PointRecord> all = split_ ? gather_to_root(mine, rank_, size_) : mine;
  // Unsplit the points are already in key order (vertex order).
  if (split_)
    std::sort(all.begin(), all.end(),
              [](const PointRecord& a, const PointRecord& b) { return a.key < b.key; });
  const size_t n = all.size();
  x.resize(3 * n);
  normal.resize(3 * n);
  fn.resize(n);
  ft.resize(3 * n);
  for (size_t k = 0; k < n; ++k) {
    fn[k] = all[k].fn;
    for (int a = 0; a < 3; ++a) {
      x[3 * k + a] = all[k].x[a];
      normal[3 * k + a] = all[k].normal[a];
      ft[3 * k + a] = all[k].ft[a];
    }
  }
}

ContactComponent::SurfaceCounts ContactComponent::surface_counts() const {
  detection_->setup();
  SurfaceCounts c;
  const Surface& s = detection_->surface();
  c.held_vertices = s.num_vertices();
  c.held_triangles = s.num_triangles();
  c.own_vertices = split_ ? detection_->num_own_vertices() : c.held_vertices;
  c.own_triangles = split_ ? detection_->num_own_triangles() : c.held_triangles;
  return c;
}

std::vector<ContactComponent::SurfaceCounts> ContactComponent::surface_counts_by_rank() const {
  const std::vector<SurfaceCounts> mine{surface_counts()};
  return split_ ? gather_to_root(mine, rank_, size_) : mine;
}

ContactComponent* find_contact(const TimeStepper& stepper) {
  for (const auto& f : stepper.step_forces())
    if (auto* c = dynamic_cast<ContactComponent*>(f.get())) return c;
  return nullptr;
}

}  // namespace tlfea
