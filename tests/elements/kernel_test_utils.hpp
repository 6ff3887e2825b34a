// Shared fixtures for the element-loop tests: a mesh, its block, the CRS
// pattern and host helpers that need nothing from the code under test.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "tlfea/core/crs_pattern.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/material_point_set.hpp"
#include "tlfea/elements/element_block.hpp"

namespace tlfea::test {

struct System {
  Mesh mesh;
  std::unique_ptr<ElementBlockBase> block;
  CrsPattern pattern;
  CoefView q0;
  Ordinal ncoef() const { return mesh.num_coefficients(); }
};

inline System make_system(const Mesh& mesh, const MaterialSpec& mat, Real rho = 1000.0) {
  System s;
  s.mesh = mesh;
  s.block = make_element_block(mesh, 0, mat, rho);
  std::vector<CliqueSet> cliques{s.block->cliques()};
  std::vector<DeviceView<Offset***>> offsets;
  s.pattern = build_crs_pattern(mesh.num_coefficients(), cliques, offsets);
  s.block->set_matrix_offsets(s.pattern, offsets[0]);
  s.q0 = CoefView("q0", mesh.num_coefficients());
  copy_reference_coefficients(mesh, 0, s.q0);
  return s;
}

// A point force: force at the material point (element, xi) of a block.
struct PointLoad {
  Ordinal element;
  Real xi[3];
  Vec3 force;
};

// f(id_l) += scale w_l F_k for every load k (MaterialPointSet::add_force).
struct ScatterPointLoads {
  MaterialPointSet points;
  DeviceView<Real* [3]> force;
  Real scale;
  bool plain;
  CoefView f;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    points.add_force(k, Vec3{{force(k, 0), force(k, 1), force(k, 2)}}, f, plain, scale);
  }
};

// Generalized forces of point loads on a block's n coefficients, through the
// path Model takes for its point loads (docs/theory.md §3.7): each point is
// sum_l s_l(xi) q(id_l) over the element's coefficients (shape_at,
// element_coefficients) in a MaterialPointSet, and f(id_l) += scale s_l F.
// plain: plain adds (one thread only), else atomic ones.
inline CoefView point_load_forces(const ElementBlockBase& block,
                                  const std::vector<PointLoad>& loads, Real scale, Ordinal n,
                                  bool plain = false) {
  MaterialPointSetHost ph;
  DeviceView<Real* [3]> force("force", loads.size());
  auto hf = Kokkos::create_mirror_view(force);
  for (size_t k = 0; k < loads.size(); ++k) {
    ph.add(block.element_coefficients(loads[k].element),
           block.shape_at(loads[k].element, loads[k].xi));
    for (int a = 0; a < 3; ++a) hf(k, a) = loads[k].force[a];
  }
  Kokkos::deep_copy(force, hf);
  CoefView f("f", n);
  Kokkos::parallel_for(
      "tlfea::test::point_loads",
      Kokkos::RangePolicy<ExecSpace>(0, static_cast<Ordinal>(loads.size())),
      ScatterPointLoads{upload_material_points("points", ph), force, scale, plain, f});
  return f;
}

// Small meshes of every element type (reference geometry from the generators).
inline Mesh small_mesh(ElementType t) {
  switch (t) {
    case ElementType::T10:
      return generate_box(t, {1.0, 0.8, 0.6}, {2, 1, 1});
    case ElementType::Q27:
      return generate_box(t, {1.0, 0.8, 0.6}, {2, 1, 1});
    case ElementType::ANCF3243:
      return generate_beam_ancf3243(1.0, 0.1, 0.08, 2);
    case ElementType::ANCF3443:
      return generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 2});
  }
  return {};
}

inline std::vector<ElementType> all_element_types() {
  return {ElementType::T10, ElementType::Q27, ElementType::ANCF3243, ElementType::ANCF3443};
}

// E = 2e6 Pa, nu = 0.3 and equivalent hyperelastic constants; viscous variants.
inline std::vector<MaterialSpec> all_materials() {
  const Real E = 2e6, nu = 0.3, mu = E / (2 * (1 + nu)), K = E / (3 * (1 - 2 * nu));
  std::vector<MaterialSpec> m{MaterialSpec::svk(E, nu),
                              MaterialSpec::mooney_rivlin(0.3 * mu, 0.2 * mu, K),
                              MaterialSpec::neo_hookean(mu, K)};
  const size_t n = m.size();
  for (size_t k = 0; k < n; ++k) m.push_back(m[k].with_kelvin_voigt(0.05 * mu, 0.02 * mu));
  return m;
}

inline CoefViewHost to_host(const CoefView& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(h, v);
  return h;
}
inline CoefView to_device(const CoefViewHost& h, const char* label = "v") {
  CoefView d(std::string(label), h.extent(0));
  Kokkos::deep_copy(d, h);
  return d;
}

// q = R q0 + c for positions; gradient coefficients are rotated only.
inline CoefViewHost rigid_motion(const Mesh& mesh, const Real R[3][3], const Real c[3]) {
  CoefViewHost h("rigid", mesh.num_coefficients());
  const int cpn = mesh.coefficients_per_node();
  for (Ordinal k = 0; k < mesh.num_coefficients(); ++k) {
    const bool position = (k % cpn) == 0;
    for (int a = 0; a < 3; ++a) {
      Real x = position ? c[a] : 0.0;
      for (int b = 0; b < 3; ++b) x += R[a][b] * mesh.coefficients[k][b];
      h(k, a) = x;
    }
  }
  return h;
}

// Rotation about a unit axis by angle t (Rodrigues' formula).
inline void rotation(const Real axis_in[3], Real t, Real R[3][3]) {
  const Real n =
      std::sqrt(axis_in[0] * axis_in[0] + axis_in[1] * axis_in[1] + axis_in[2] * axis_in[2]);
  const Real u[3] = {axis_in[0] / n, axis_in[1] / n, axis_in[2] / n};
  const Real c = std::cos(t), s = std::sin(t);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) R[a][b] = (a == b ? c : 0.0) + (1 - c) * u[a] * u[b];
  R[0][1] -= s * u[2];
  R[0][2] += s * u[1];
  R[1][0] += s * u[2];
  R[1][2] -= s * u[0];
  R[2][0] -= s * u[1];
  R[2][1] += s * u[0];
}

// Dense copy of a CRS matrix (host), for small test systems.
inline std::vector<std::vector<Real>> dense(const CrsPattern& p, const DeviceView<Real*>& values) {
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.entries);
  auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  const Ordinal n = p.num_rows();
  std::vector<std::vector<Real>> A(n, std::vector<Real>(n, 0.0));
  for (Ordinal r = 0; r < n; ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k) A[r][en(k)] += va(k);
  return A;
}

inline CoefViewHost zeros_host(Ordinal n) { return CoefViewHost("zeros", n); }

inline Real max_abs(const CoefViewHost& h) {
  Real m = 0.0;
  for (size_t k = 0; k < h.extent(0); ++k)
    for (int a = 0; a < 3; ++a) m = std::max(m, std::fabs(h(k, a)));
  return m;
}

}  // namespace tlfea::test
