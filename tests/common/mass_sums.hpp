// Host-side sums with a model's consistent mass for the dynamics and contact tests
// (momentum, mass, centre-of-mass velocity, kinetic energy) and a uniform
// initial velocity. Reference quantities computed from the mass matrix, not
// from the contact code under test.
#pragma once

#include "tlfea/model/model.hpp"

namespace tlfea::test {

// Linear momentum sum_ij M_ij v_j of coefficients [first, last).
inline Vec3 momentum(const Model& model, const CoefView& v, Ordinal first, Ordinal last) {
  const CrsPattern& pat = model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.entries);
  auto mv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  Vec3 p{{0.0, 0.0, 0.0}};
  for (Ordinal r = 3 * first; r < 3 * last; ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k) p[r % 3] += mv(k) * vh(en(k) / 3, en(k) % 3);
  return p;
}

// Mass of coefficients [first, last): sum of the x-rows of the consistent
// mass (with density 1 the volume by quadrature).
inline Real total_mass(const Model& model, Ordinal first, Ordinal last) {
  const CrsPattern& pat = model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.row_map);
  auto mv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
  Real m = 0.0;
  for (Ordinal r = 3 * first; r < 3 * last; r += 3)
    for (Offset k = rm(r); k < rm(r + 1); ++k) m += mv(k);
  return m;
}

// Centre-of-mass velocity of coefficients [first, last).
inline Vec3 com_velocity(const Model& model, const CoefView& v, Ordinal first, Ordinal last) {
  Vec3 p = momentum(model, v, first, last);
  const Real m = total_mass(model, first, last);
  for (int a = 0; a < 3; ++a) p[a] /= m;
  return p;
}

// Kinetic energy v^T M v / 2 of the whole model.
inline Real kinetic_energy(const Model& model, const CoefView& v) {
  const CrsPattern& pat = model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.row_map);
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), pat.entries);
  auto mv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  Real e = 0.0;
  for (Ordinal r = 0; r < 3 * model.num_coefficients(); ++r)
    for (Offset k = rm(r); k < rm(r + 1); ++k)
      e += 0.5 * vh(r / 3, r % 3) * mv(k) * vh(en(k) / 3, en(k) % 3);
  return e;
}

// Every coefficient of the model moving with velocity (0, 0, vz).
inline CoefView uniform_velocity_z(const Model& model, Real vz) {
  CoefView v("v", model.num_coefficients());
  auto vh = Kokkos::create_mirror_view(v);
  for (Ordinal k = 0; k < model.num_coefficients(); ++k) vh(k, 2) = vz;
  Kokkos::deep_copy(v, vh);
  return v;
}

}  // namespace tlfea::test
