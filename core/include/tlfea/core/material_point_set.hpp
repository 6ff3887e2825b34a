// TLFEA: sets of material points, each a fixed linear combination of
// coefficients, with the device gather (position, velocity) and scatter (force).
//
// A material point X has r_X = offset_X + sum_l w_l q(id_l) (docs/theory.md
// §1.3, r = N s, and §1.6): for a point (element, xi) of a body the ids are the
// element's coefficients and w_l = s_l(xi), offset 0; a ground point has no
// coefficients and r_X = offset_X. Hence dr_X/dq(id_l) = w_l I_3, so a force F
// at X adds w_l F to f(id_l) (§3.7, §5.2, §7.5). Any number of coefficients
// per point (e.g. a rigid body's 4, an ANCF element's 8 or 16, a Q27's 27, or
// the combination of several elements' points).
//
// Storage is compressed (CRS): point k has the entries [ptr[k], ptr[k+1]) of
// id / weight, and offset[k]. MaterialPointSetHost is the host builder and
// mirror (setup code); MaterialPointSet its device copy (trivially copyable,
// held by kernels). The free functions gather_combination /
// scatter_combination are the one sum over (id, weight) pairs that every
// gather and scatter goes through, also for storage other than a set (the
// contact pairs' slots, contact/contact_points.hpp).
#pragma once

#include <string>
#include <vector>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/core/types.hpp"

namespace tlfea {

// r[a] += sum_{l in [b, e)} w(l) q(id(l), a), summed in increasing l.
template <class Ids, class Weights, class Field>
KOKKOS_INLINE_FUNCTION void gather_combination(const Ordinal b, const Ordinal e, const Ids& id,
                                               const Weights& w, const Field& q, Real r[3]) {
  for (Ordinal l = b; l < e; ++l) {
    const Ordinal c = id(l);
    const Real wl = w(l);
    for (int a = 0; a < 3; ++a) r[a] += wl * q(c, a);
  }
}

// f(id(l), a) += (scale w(l)) F[a] for l in [b, e): plain adds (one writer per
// coefficient) or atomic ones.
template <class Ids, class Weights, class Field>
KOKKOS_INLINE_FUNCTION void scatter_combination(const Ordinal b, const Ordinal e, const Ids& id,
                                                const Weights& w, const Real scale, const Real F[3],
                                                const Field& f, const bool plain) {
  for (Ordinal l = b; l < e; ++l) {
    const Ordinal c = id(l);
    const Real wl = scale * w(l);
    for (int a = 0; a < 3; ++a) {
      if (plain)
        f(c, a) += wl * F[a];
      else
        Kokkos::atomic_add(&f(c, a), wl * F[a]);
    }
  }
}

// Host builder and host mirror of a set.
struct MaterialPointSetHost {
  std::vector<Ordinal> ptr{0};  // point k: entries [ptr[k], ptr[k+1])
  std::vector<Ordinal> id;      // global coefficient ids
  std::vector<Real> weight;     // w_l (shape-function values s_l(xi))
  std::vector<Vec3> offset;     // constant part of each point (ground position)

  Ordinal size() const { return static_cast<Ordinal>(offset.size()); }
  Ordinal num_coefficients(Ordinal k) const { return ptr.at(k + 1) - ptr.at(k); }
  bool is_ground(Ordinal k) const { return num_coefficients(k) == 0; }

  // Appends the point offset + sum_l weights[l] q(ids[l]) (n >= 0 entries);
  // returns its index. Throws Error for n < 0 or a negative id.
  Ordinal add(const Ordinal* ids, const Real* weights, Ordinal n,
              const Vec3& offset = Vec3{{0.0, 0.0, 0.0}});
  // The same from vectors (of equal length, else Error).
  Ordinal add(const std::vector<Ordinal>& ids, const std::vector<Real>& weights,
              const Vec3& offset = Vec3{{0.0, 0.0, 0.0}});
  // A fixed point in space.
  Ordinal add_ground(const Vec3& position);
  // Appends every point of `other`.
  void append(const MaterialPointSetHost& other);
  // Keeps the first n points (n <= size()): undoes later adds.
  void truncate(Ordinal n);

  // r_k at the host coefficients q; throws Error for an id outside q.
  Vec3 position(Ordinal k, const CoefViewHost& q) const;

  // The coefficient cliques of consecutive groups of `group` points (group g:
  // points [group g, group (g + 1))), each padded with -1 to the largest
  // group's count: the pattern entries of a force element that joins the
  // points of one group.
  CliqueSet grouped_cliques(int group) const;
};

// Device copy of a set.
struct MaterialPointSet {
  DeviceView<Ordinal*> ptr;      // size() + 1 entries
  DeviceView<Ordinal*> id;       // ptr(size()) entries
  DeviceView<Real*> weight;      // ptr(size()) entries
  DeviceView<Real* [3]> offset;  // size() rows

  KOKKOS_INLINE_FUNCTION Ordinal size() const { return static_cast<Ordinal>(offset.extent(0)); }
  KOKKOS_INLINE_FUNCTION Ordinal num_coefficients(const Ordinal k) const {
    return ptr(k + 1) - ptr(k);
  }

  // r_k = offset_k + sum_l w_l q(id_l).
  KOKKOS_INLINE_FUNCTION Vec3 position(const Ordinal k, const CoefView& q) const {
    Real r[3] = {offset(k, 0), offset(k, 1), offset(k, 2)};
    gather_combination(ptr(k), ptr(k + 1), id, weight, q, r);
    return Vec3{{r[0], r[1], r[2]}};
  }
  // v_k = sum_l w_l v(id_l) (the offset is constant; a ground point is at rest).
  KOKKOS_INLINE_FUNCTION Vec3 velocity(const Ordinal k, const CoefView& v) const {
    Real r[3] = {0.0, 0.0, 0.0};
    gather_combination(ptr(k), ptr(k + 1), id, weight, v, r);
    return Vec3{{r[0], r[1], r[2]}};
  }
  // f(id_l) += scale w_l F (the generalized force of F at point k): plain
  // adds where no other thread writes these coefficients, else atomic.
  KOKKOS_INLINE_FUNCTION void add_force(const Ordinal k, const Vec3& F, const CoefView& f,
                                        const bool plain, const Real scale = 1.0) const {
    const Real Fa[3] = {F[0], F[1], F[2]};
    scatter_combination(ptr(k), ptr(k + 1), id, weight, scale, Fa, f, plain);
  }
};

// Device copy of h (views labelled label + "_ptr", ...); allocates, so call
// it at setup only.
MaterialPointSet upload_material_points(const std::string& label, const MaterialPointSetHost& h);
// Host mirror of a device set.
MaterialPointSetHost download_material_points(const MaterialPointSet& d);

}  // namespace tlfea
