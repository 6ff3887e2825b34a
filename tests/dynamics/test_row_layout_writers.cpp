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
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), model.reference());
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

}  // namespace
}  // namespace tlfea
