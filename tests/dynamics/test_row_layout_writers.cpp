// Model::set_row_layout: every matrix writer of the model (scaled mass, the
// element tangent through the body's own offsets, the follower-pressure and
// rigid-torque load stiffness, the constraints' Gauss-Newton and DP1
// Hessian terms) fills a values array holding only some rows exactly as it
// fills those rows of the whole pattern (the layout a TimeStepper on several
// MPI ranks sets, integrators/src/distribution.hpp), and the whole layout comes
// back. The reference is the same writers on the whole pattern, read at the
// rows' packed positions computed here from the row map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/model/model.hpp"

namespace tlfea {
namespace {

TEST(RowLayoutWriters, HeldRowsMatchTheWholePatternAndTheLayoutIsRestored) {
  Model model;
  const Mesh mesh = generate_box(ElementType::Q27, {1.0, 1.0, 1.0}, {2, 1, 1});
  const int body = model.add_body(mesh, MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.add_pressure(body, "zmax", 1e4);
  RigidBodySpec s;
  s.mass = 5.0;
  s.center = Vec3{{3.0, 0.0, 0.0}};
  s.inertia = zero3();
  s.inertia(0, 0) = 2.0;
  s.inertia(1, 1) = 3.0;
  s.inertia(2, 2) = 4.0;
  const int rigid = model.add_rigid_body(s);
  model.add_torque(rigid, Vec3{{0.1, 0.2, 0.3}});
  model.finalize();
  ASSERT_TRUE(model.has_constraints());  // the rigid body's rigidity rows

  // A deformed state (so that the tangents are not those of the reference).
  const Ordinal n = model.num_coefficients();
  CoefView q("q", n), v("v", n);
  {
    auto h = Kokkos::create_mirror(model.reference());  // a copy, not the reference itself
    Kokkos::deep_copy(h, model.reference());
    for (Ordinal c = 0; c < n; ++c)
      for (int a = 0; a < 3; ++a) h(c, a) += 1e-3 * std::sin(0.7 * c + 1.3 * a);
    Kokkos::deep_copy(q, h);
  }
  const Ordinal m = model.constraints().num_rows();
  DeviceView<Real*> eta("eta", m);
  Kokkos::deep_copy(eta, 0.25);
  auto assemble = [&](const DeviceView<Real*>& values) {
    model.scaled_mass(2.0, values);
    model.block(body).tangent(q, v, 0.01, 1.0, values);
    model.external_load_tangent(0.0, q, -0.01, values);
    model.constraints().assemble_gauss_newton(q, 0.0, 3.0, values);
    model.constraints().assemble_dp1_hessian(q, eta, 0.5, values);
    Kokkos::fence();
  };
  const CrsPattern& p = model.pattern();
  DeviceView<Real*> whole("whole", p.nnz());
  assemble(whole);
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), whole);
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
  Real scale = 0.0;
  for (size_t k = 0; k < w.extent(0); ++k) scale = std::max(scale, std::abs(w(k)));
  ASSERT_GT(scale, 0.0);

  // The rows of every other coefficient: blocks on both sides of the cut,
  // in the Q27 body, the rigid body's coefficients and between them.
  std::vector<Ordinal> rows;
  for (Ordinal c = 0; c < n; c += 2)
    for (int a = 0; a < 3; ++a) rows.push_back(3 * c + a);
  model.set_row_layout(make_row_layout(p, rows));
  EXPECT_FALSE(model.row_layout().whole());
  EXPECT_THROW(model.set_row_layout(make_row_layout(p, rows)), Error);  // one layout at a time
  DeviceView<Real*> part("part", model.row_layout().nnz);
  assemble(part);
  auto l = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part);
  // Exact up to the order of the atomic additions of the threaded writers.
  const Real tol = 1e-13 * scale;
  Offset at = 0;
  Real diff = 0.0;
  for (Ordinal r : rows)
    for (Offset k = rm(r); k < rm(r + 1); ++k) diff = std::max(diff, std::abs(l(at++) - w(k)));
  EXPECT_EQ(at, model.row_layout().nnz);
  EXPECT_LE(diff, tol);

  // Back to the whole pattern: the same values as before.
  model.set_row_layout(RowLayout());
  EXPECT_TRUE(model.row_layout().whole());
  DeviceView<Real*> again("again", p.nnz());
  assemble(again);
  auto g = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), again);
  diff = 0.0;
  for (size_t k = 0; k < g.extent(0); ++k) diff = std::max(diff, std::abs(g(k) - w(k)));
  EXPECT_LE(diff, tol);
  // A values array of the wrong size is refused.
  EXPECT_THROW(model.scaled_mass(1.0, DeviceView<Real*>("short", p.nnz() - 1)), Error);
}

// Model::release_block / restore_blocks (what a TimeStepper on several MPI
// ranks does with a split body's whole block): a T10 body's block freed,
// block() refused meanwhile, and built again from the mesh, in the whole
// layout and in a layout of some rows, fills the same values (tangent, at
// the rows' packed positions) and internal forces as the block built by
// finalize() (same element order, same offsets): equal to 1e-12 of the
// largest entry, the round-off of a threaded scatter's order of sums (a
// wrong offset puts a whole entry elsewhere: an O(1) relative error); so does the
// structure rebuilt after the pattern's column indices were released
// (restore_structure). Bodies whose whole block a step needs are not
// released: one with a follower pressure, a rigid body.
TEST(RowLayoutWriters, ReleasedBlockIsRebuiltWithTheSameOffsets) {
  Model model;
  const int t10 = model.add_body(generate_box(ElementType::T10, {1.0, 0.5, 0.5}, {2, 1, 1}),
                                 MaterialSpec::svk(1e7, 0.3), 1000.0);
  const int q27 =
      model.add_body(generate_box(ElementType::Q27, {1.0, 1.0, 1.0}, {1, 1, 1}, {2.0, 0.0, 0.0}),
                     MaterialSpec::svk(1e7, 0.3), 1000.0);
  model.add_pressure(q27, "zmax", 1e4);
  RigidBodySpec s;
  s.mass = 5.0;
  s.center = Vec3{{5.0, 0.0, 0.0}};
  s.inertia = identity3();
  const int rigid = model.add_rigid_body(s);
  EXPECT_FALSE(model.can_release_block(t10));  // before finalize()
  model.finalize();
  EXPECT_TRUE(model.can_release_block(t10));
  EXPECT_FALSE(model.can_release_block(q27));    // its follower pressure
  EXPECT_FALSE(model.can_release_block(rigid));  // a rigid body
  EXPECT_THROW(model.release_block(q27), Error);

  const Ordinal n = model.num_coefficients();
  CoefView q("q", n), v("v", n);
  {
    // A copy (create_mirror allocates; a mirror view of a host array would
    // be the model's reference itself, which the restored mass is built on).
    auto h = Kokkos::create_mirror(model.reference());
    Kokkos::deep_copy(h, model.reference());
    for (Ordinal c = 0; c < n; ++c)
      for (int a = 0; a < 3; ++a) h(c, a) += 1e-3 * std::cos(0.9 * c + 0.4 * a);
    Kokkos::deep_copy(q, h);
  }
  const CrsPattern& p = model.pattern();
  auto tangent = [&](const DeviceView<Real*>& values) {
    model.block(t10).tangent(q, v, 1.0, 0.0, values);
    Kokkos::fence();
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  };
  auto force = [&]() {
    CoefView f("f", n);
    model.block(t10).internal_force(q, v, f);
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  };
  const auto k0 = tangent(DeviceView<Real*>("k0", p.nnz()));
  const auto f0 = force();
  Real kmax = 0.0, fmax = 0.0;
  for (Offset k = 0; k < p.nnz(); ++k) kmax = std::max(kmax, std::abs(k0(k)));
  for (Ordinal c = 0; c < n; ++c)
    for (int a = 0; a < 3; ++a) fmax = std::max(fmax, std::abs(f0(c, a)));
  const Real ktol = 1e-12 * kmax, ftol = 1e-12 * fmax;

  // Released and rebuilt in the whole layout.
  model.release_block(t10);
  EXPECT_TRUE(model.block_released(t10));
  EXPECT_THROW(model.block(t10), Error);
  model.restore_blocks();
  EXPECT_FALSE(model.block_released(t10));
  {
    const auto k1 = tangent(DeviceView<Real*>("k1", p.nnz()));
    const auto f1 = force();
    for (Offset k = 0; k < p.nnz(); ++k) ASSERT_NEAR(k1(k), k0(k), ktol) << "entry " << k;
    for (Ordinal c = 0; c < n; ++c)
      for (int a = 0; a < 3; ++a) ASSERT_NEAR(f1(c, a), f0(c, a), ftol);
  }

  // Released, a layout of every other block row set, rebuilt in it.
  model.release_block(t10);
  std::vector<Ordinal> rows;
  for (Ordinal b = 0; b < p.num_block_rows; b += 2)
    for (int a = 0; a < 3; ++a) rows.push_back(3 * b + a);
  const RowLayout layout = make_row_layout(p, rows);
  model.set_row_layout(layout);
  model.restore_blocks();
  {
    const auto k2 = tangent(DeviceView<Real*>("k2", layout.nnz));
    auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.row_map);
    Offset packed = 0;
    for (Ordinal r : rows)
      for (Offset k = rm(r); k < rm(r + 1); ++k, ++packed)
        ASSERT_NEAR(k2(packed), k0(k), ktol) << "row " << r;
    EXPECT_EQ(packed, layout.nnz);
  }
  model.set_row_layout(RowLayout());
  {
    const auto k3 = tangent(DeviceView<Real*>("k3", p.nnz()));
    for (Offset k = 0; k < p.nnz(); ++k) ASSERT_NEAR(k3(k), k0(k), ktol) << "entry " << k;
  }

  // Released with the pattern's column indices (in a rank's layout), then
  // the whole structure back: the same pattern as finalize()'s, the same
  // tangent and kinetic energy (the latter from the block structure, which
  // stays while the column indices are released).
  const auto en0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p.entries);
  CoefView w("w", n);
  Kokkos::deep_copy(w, 0.5);
  const Real ke0 = model.kinetic_energy(w);
  model.release_block(t10);
  model.set_row_layout(layout);
  model.release_pattern_entries();
  EXPECT_TRUE(model.pattern_entries_released());
  EXPECT_EQ(model.pattern().entries.extent(0), 0u);
  EXPECT_EQ(model.kinetic_energy(w), ke0);
  EXPECT_THROW(model.set_row_layout(RowLayout()), Error);
  EXPECT_THROW(model.restore_blocks(), Error);
  // mass_values() is sized by the pattern's entries: an error, not a write
  // past the end of an empty array, while they are released.
  EXPECT_THROW(model.mass_values(), Error);
  model.restore_structure();
  EXPECT_EQ(model.mass_values().extent(0), static_cast<size_t>(model.pattern().nnz()));
  EXPECT_FALSE(model.pattern_entries_released());
  EXPECT_FALSE(model.block_released(t10));
  EXPECT_TRUE(model.row_layout().whole());
  {
    const CrsPattern& p2 = model.pattern();
    ASSERT_EQ(p2.nnz(), static_cast<Offset>(en0.extent(0)));
    const auto en1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p2.entries);
    for (Offset k = 0; k < p2.nnz(); ++k) ASSERT_EQ(en1(k), en0(k)) << "entry " << k;
    const auto k4 = tangent(DeviceView<Real*>("k4", p2.nnz()));
    for (Offset k = 0; k < p2.nnz(); ++k) ASSERT_NEAR(k4(k), k0(k), ktol) << "entry " << k;
  }

  // Released again with the mass rows of every other block row, then left
  // to the first use (Model::restore_when_needed, what a TimeStepper on
  // several ranks does when it ends): nothing is rebuilt until an accessor
  // needs it, then the whole structure is back as finalize() built it (the
  // pattern's entries; the block mass and kinetic energy to 1e-14, the
  // round-off of a threaded scatter's order of sums; the tangent).
  const auto mass0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.block_mass());
  model.restore_when_needed();  // nothing released: nothing pending
  EXPECT_FALSE(model.restore_pending());
  model.release_block(t10);
  model.set_row_layout(layout);
  model.release_pattern_entries();
  std::vector<Ordinal> block_rows;
  for (Ordinal b = 0; b < p.num_block_rows; b += 2) block_rows.push_back(b);
  int sums = 0;
  model.release_mass_rows(block_rows, [&sums](Real*, int) { ++sums; });
  model.restore_when_needed();
  EXPECT_TRUE(model.restore_pending());
  EXPECT_EQ(model.pattern().nnz(), static_cast<Offset>(en0.extent(0)));  // restores
  EXPECT_FALSE(model.restore_pending());
  EXPECT_FALSE(model.pattern_entries_released());
  EXPECT_FALSE(model.mass_rows_released());
  EXPECT_FALSE(model.block_released(t10));
  EXPECT_TRUE(model.row_layout().whole());
  EXPECT_NEAR(model.kinetic_energy(w), ke0, 1e-14 * ke0);
  EXPECT_EQ(sums, 0);  // the dropped sum is never called
  {
    const CrsPattern& p3 = model.pattern();
    const auto en3 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p3.entries);
    for (Offset k = 0; k < p3.nnz(); ++k) ASSERT_EQ(en3(k), en0(k)) << "entry " << k;
    const auto mass3 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.block_mass());
    ASSERT_EQ(mass3.extent(0), mass0.extent(0));
    for (size_t i = 0; i < mass0.extent(0); ++i)
      ASSERT_NEAR(mass3(i), mass0(i), 1e-14 * std::abs(mass0(i))) << "block " << i;
    const auto k5 = tangent(DeviceView<Real*>("k5", p3.nnz()));
    for (Offset k = 0; k < p3.nnz(); ++k) ASSERT_NEAR(k5(k), k0(k), ktol) << "entry " << k;
  }
  // A const accessor restores too (the model is the same model).
  model.release_block(t10);
  model.restore_when_needed();
  const Model& cm = model;
  EXPECT_EQ(cm.block(t10).num_elements(), model.mesh(t10).num_elements());
  EXPECT_FALSE(model.restore_pending());
}

}  // namespace
}  // namespace tlfea
