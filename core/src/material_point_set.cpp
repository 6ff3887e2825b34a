// TLFEA: host builder, upload and download of material point sets
// (core/material_point_set.hpp; docs/theory.md §1.6).
#include "tlfea/core/material_point_set.hpp"

#include <algorithm>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"

namespace tlfea {

Ordinal MaterialPointSetHost::add(const Ordinal* ids, const Real* weights, Ordinal n,
                                  const Vec3& off) {
  if (n < 0) throw_error("material point set: a point with ", n, " coefficients");
  for (Ordinal l = 0; l < n; ++l)
    if (ids[l] < 0) throw_error("material point set: negative coefficient id ", ids[l]);
  id.insert(id.end(), ids, ids + n);
  weight.insert(weight.end(), weights, weights + n);
  ptr.push_back(static_cast<Ordinal>(id.size()));
  offset.push_back(off);
  return size() - 1;
}

Ordinal MaterialPointSetHost::add(const std::vector<Ordinal>& ids, const std::vector<Real>& weights,
                                  const Vec3& off) {
  if (ids.size() != weights.size())
    throw_error("material point set: ", ids.size(), " ids but ", weights.size(), " weights");
  return add(ids.data(), weights.data(), static_cast<Ordinal>(ids.size()), off);
}

Ordinal MaterialPointSetHost::add_ground(const Vec3& position) {
  return add(nullptr, nullptr, 0, position);
}

void MaterialPointSetHost::append(const MaterialPointSetHost& other) {
  const Ordinal shift = static_cast<Ordinal>(id.size());
  for (size_t k = 1; k < other.ptr.size(); ++k) ptr.push_back(other.ptr[k] + shift);
  id.insert(id.end(), other.id.begin(), other.id.end());
  weight.insert(weight.end(), other.weight.begin(), other.weight.end());
  offset.insert(offset.end(), other.offset.begin(), other.offset.end());
}

void MaterialPointSetHost::truncate(Ordinal n) {
  if (n < 0 || n > size()) throw_error("material point set: truncate to ", n, " of ", size());
  ptr.resize(n + 1);
  id.resize(ptr[n]);
  weight.resize(ptr[n]);
  offset.resize(n);
}

Vec3 MaterialPointSetHost::position(Ordinal k, const CoefViewHost& q) const {
  if (k < 0 || k >= size()) throw_error("material point set: point ", k, " of ", size());
  for (Ordinal l = ptr[k]; l < ptr[k + 1]; ++l)
    if (static_cast<size_t>(id[l]) >= q.extent(0))
      throw_error("material point: coefficient ", id[l], " outside q (", q.extent(0), " rows)");
  Real r[3] = {offset[k][0], offset[k][1], offset[k][2]};
  for (Ordinal l = ptr[k]; l < ptr[k + 1]; ++l)  // as gather_combination
    for (int a = 0; a < 3; ++a) r[a] += weight[l] * q(id[l], a);
  return Vec3{{r[0], r[1], r[2]}};
}

MaterialPointSet upload_material_points(const std::string& label, const MaterialPointSetHost& h) {
  if (h.ptr.size() != h.offset.size() + 1 || h.ptr.back() != static_cast<Ordinal>(h.id.size()) ||
      h.id.size() != h.weight.size())
    throw_error("material point set ", label, ": inconsistent host arrays");
  MaterialPointSet d;
  d.ptr = upload_to_device(label + "_ptr", h.ptr);
  d.id = upload_to_device(label + "_id", h.id);
  d.weight = upload_to_device(label + "_weight", h.weight);
  d.offset = DeviceView<Real* [3]>(label + "_offset", h.offset.size());
  auto o = host_mirror(d.offset);
  for (size_t k = 0; k < h.offset.size(); ++k)
    for (int a = 0; a < 3; ++a) o(k, a) = h.offset[k][a];
  copy_to_device(d.offset, o);
  return d;
}

CliqueSet MaterialPointSetHost::grouped_cliques(const int group) const {
  const Ordinal groups = group > 0 ? size() / group : 0;
  CliqueSet c;
  for (Ordinal g = 0; g < groups; ++g)
    c.size = std::max<int>(c.size, ptr[group * (g + 1)] - ptr[group * g]);
  for (Ordinal g = 0; g < groups; ++g) {
    const Ordinal b = ptr[group * g], end = ptr[group * (g + 1)];
    for (Ordinal l = b; l < end; ++l) c.ids.push_back(id[l]);
    for (Ordinal l = end - b; l < c.size; ++l) c.ids.push_back(-1);
  }
  return c;
}

MaterialPointSetHost download_material_points(const MaterialPointSet& d) {
  MaterialPointSetHost h;
  auto ptr = to_host(d.ptr);
  auto id = to_host(d.id);
  auto w = to_host(d.weight);
  auto o = to_host(d.offset);
  h.ptr.assign(ptr.data(), ptr.data() + ptr.extent(0));
  if (h.ptr.empty()) h.ptr.push_back(0);
  h.id.assign(id.data(), id.data() + id.extent(0));
  h.weight.assign(w.data(), w.data() + w.extent(0));
  h.offset.resize(o.extent(0));
  for (size_t k = 0; k < o.extent(0); ++k)
    for (int a = 0; a < 3; ++a) h.offset[k][a] = o(k, a);
  return h;
}

}  // namespace tlfea
