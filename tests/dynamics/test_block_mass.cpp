// The model's consistent mass kept per 3x3 block (Model::block_mass,
// docs/theory.md §3.5) against closed-form integrals over boxes: total mass
// rho V, the kinetic energy and angular momentum of a rigid rotation
// (1/2 omega^2 I_z and omega I_z, I_z = rho int (x^2 + y^2) dV), and the
// expansion to M (x) I3 on the pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "tlfea/core/generators.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea {
namespace {

// int_{x0}^{x1} x^2 dx
Real int_x2(Real x0, Real x1) { return (x1 * x1 * x1 - x0 * x0 * x0) / 3.0; }

TEST(BlockMass, BoxesMatchClosedFormMassEnergyAndAngularMomentum) {
  const Real rho = 1250.0, omega = 3.0;
  struct Box {
    ElementType type;
    std::array<Real, 3> lengths, origin;
    std::array<int, 3> divisions;
  };
  // Both bodies are integrated exactly by their mass rules (degree 4 for T10,
  // 3x3x3 Gauss for Q27) for the quadratic integrands below.
  const Box boxes[2] = {{ElementType::T10, {0.4, 0.3, 0.2}, {0.0, 0.0, 0.0}, {2, 2, 1}},
                        {ElementType::Q27, {0.5, 0.2, 0.3}, {1.0, -0.5, 0.25}, {2, 1, 2}}};
  Model model;
  for (const Box& b : boxes)
    model.add_body(generate_box(b.type, b.lengths, b.divisions, b.origin),
                   MaterialSpec::svk(1e7, 0.3), rho);
  model.finalize();
  const Ordinal n = model.num_coefficients();
  EXPECT_EQ(model.block_mass().extent(0), static_cast<size_t>(model.pattern().nnz() / 9));

  // A rigid rotation about the z axis through the origin: v = omega e_z x x.
  auto q0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
  CoefView v("v", n);
  auto vh = Kokkos::create_mirror_view(v);
  for (Ordinal k = 0; k < n; ++k) {
    vh(k, 0) = -omega * q0(k, 1);
    vh(k, 1) = omega * q0(k, 0);
    vh(k, 2) = 0.0;
  }
  Kokkos::deep_copy(v, vh);

  auto lumped = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.lumped_mass());
  Real energy = 0.0;
  for (int i = 0; i < 2; ++i) {
    const Box& b = boxes[i];
    const Real x0 = b.origin[0], x1 = x0 + b.lengths[0];
    const Real y0 = b.origin[1], y1 = y0 + b.lengths[1];
    const Real z0 = b.origin[2], z1 = z0 + b.lengths[2];
    const Real mass = rho * b.lengths[0] * b.lengths[1] * b.lengths[2];
    const Real iz = rho * (int_x2(x0, x1) * (y1 - y0) + int_x2(y0, y1) * (x1 - x0)) * (z1 - z0);
    energy += 0.5 * omega * omega * iz;

    const Ordinal first = model.coefficient_offset(i);
    const Ordinal last = i == 0 ? model.coefficient_offset(1) : n;
    Real lumped_sum = 0.0;
    for (Ordinal k = first; k < last; ++k) lumped_sum += lumped(k);
    EXPECT_NEAR(lumped_sum, mass, 1e-12 * mass) << to_string(b.type);

    const Model::BodyMotion m = model.body_motion(i, model.reference(), v);
    EXPECT_NEAR(m.mass, mass, 1e-12 * mass) << to_string(b.type);
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(m.center_of_mass[a], b.origin[a] + 0.5 * b.lengths[a], 1e-12)
          << to_string(b.type);
    EXPECT_NEAR(m.angular_momentum[2], omega * iz, 1e-12 * omega * iz) << to_string(b.type);
    EXPECT_NEAR(m.kinetic_energy, 0.5 * omega * omega * iz, 1e-12 * omega * omega * iz)
        << to_string(b.type);
  }
  EXPECT_NEAR(model.kinetic_energy(v), energy, 1e-12 * energy);

  // mass_values(): M (x) I3 on the pattern, its block (b, slot) the block
  // mass; the x-row sums are the lumped mass.
  const CrsPattern& p = model.pattern();
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  auto bm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.block_mass());
  auto full = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.mass_values());
  ASSERT_EQ(full.extent(0), static_cast<size_t>(p.nnz()));
  for (Ordinal b = 0; b < n; ++b) {
    Real row_sum = 0.0;
    for (int a = 0; a < 3; ++a)
      for (Offset k = rm(3 * b + a); k < rm(3 * b + a + 1); ++k) {
        const Offset j = k - rm(3 * b + a);
        const Real want = j % 3 == a ? bm(rm(3 * b) / 9 + j / 3) : 0.0;
        ASSERT_EQ(full(k), want) << "block row " << b << " component " << a;
        if (a == 0) row_sum += full(k);
      }
    EXPECT_NEAR(row_sum, lumped(b), 1e-14 * std::fabs(lumped(b)) + 1e-300);
  }
}

// The block mass assembled per block (ElementBlockBase::block_mass) equals
// each body's M (x) I3 assembled on the whole pattern by its mass() (the
// form the closed-form tests of tests/elements/test_mass_assembly.cpp
// check), for every element family and a rigid body: every block's (a, a)
// entries equal its block mass, its (a, c != a) entries are 0. Relative
// 1e-14 of the row's largest entry: the two assemblies sum the same element
// contributions, in orders that may differ under atomics.
TEST(BlockMass, EqualsTheMassAssembledOnThePatternForEveryFamily) {
  Model model;
  const MaterialSpec mat = MaterialSpec::svk(2e9, 0.3);
  model.add_body(generate_box(ElementType::T10, {0.4, 0.3, 0.2}, {2, 1, 1}), mat, 1200.0);
  model.add_body(generate_box(ElementType::Q27, {0.5, 0.2, 0.3}, {2, 1, 1}, {1.0, 0.0, 0.0}), mat,
                 900.0);
  model.add_body(generate_beam_ancf3243(1.0, 0.1, 0.08, 3), mat, 7800.0);
  model.add_body(generate_plate_ancf3443(1.0, 0.8, 0.05, {2, 2}), mat, 2700.0);
  RigidBodySpec rb;
  rb.mass = 5.0;
  rb.center = Vec3{{3.0, 0.5, 0.0}};
  rb.inertia = zero3();
  rb.inertia(0, 0) = 2.0;
  rb.inertia(1, 1) = 3.0;
  rb.inertia(2, 2) = 4.0;
  rb.inertia(0, 1) = rb.inertia(1, 0) = 0.25;
  model.add_rigid_body(rb);
  model.finalize();

  const CrsPattern& p = model.pattern();
  DeviceView<Real*> full("full", p.nnz());
  for (int b = 0; b < model.num_bodies(); ++b) model.block(b).mass(model.reference(), 1.0, full);
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), full);
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  auto bm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.block_mass());
  ASSERT_EQ(bm.extent(0), static_cast<size_t>(p.nnz() / 9));
  Real largest = 0.0;
  long long blocks = 0;
  for (Ordinal c = 0; c < model.num_coefficients(); ++c) {
    Real scale = 0.0;
    for (Offset k = rm(3 * c); k < rm(3 * c + 3); ++k) scale = std::max(scale, std::fabs(fh(k)));
    for (int a = 0; a < 3; ++a)
      for (Offset k = rm(3 * c + a); k < rm(3 * c + a + 1); ++k) {
        const Offset j = k - rm(3 * c + a);
        const Real want = j % 3 == a ? fh(rm(3 * c + a) + j) : 0.0;
        const Real got = j % 3 == a ? bm(rm(3 * c) / 9 + j / 3) : fh(k);
        ASSERT_LE(std::fabs(got - want), 1e-14 * scale)
            << "block row " << c << " component " << a << " entry " << j;
        if (a == 0 && j % 3 == 0) {
          largest = std::max(largest, std::fabs(got));
          ++blocks;
        }
      }
  }
  EXPECT_EQ(blocks, p.nnz() / 9);
  EXPECT_GT(largest, 0.0);
}

TEST(BlockMass, AccessorsBeforeFinalizeThrow) {
  Model model;
  model.add_body(generate_box(ElementType::T10, {1, 1, 1}, {1, 1, 1}), MaterialSpec::svk(1e7, 0.3),
                 1000.0);
  EXPECT_THROW(model.mass_values(), Error);
  EXPECT_THROW(model.lumped_mass(), Error);
}

}  // namespace
}  // namespace tlfea
