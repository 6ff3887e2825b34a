// Tests of MaterialPointSet (core/material_point_set.hpp): device gather and
// scatter against hand-computed sums, ground points, variable lengths, more
// than 27 coefficients, and atomic scatter from many threads.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/material_point_set.hpp"

namespace tlfea {
namespace {

// Positions and velocities of every point of a set.
struct GatherAll {
  MaterialPointSet set;
  CoefView q, v, x, u;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    const Vec3 r = set.position(k, q), w = set.velocity(k, v);
    for (int a = 0; a < 3; ++a) {
      x(k, a) = r[a];
      u(k, a) = w[a];
    }
  }
};

// Force F_j = (j + 1) (1, -2, 0.5) at point j % n, for j in [0, m).
struct ScatterAll {
  MaterialPointSet set;
  CoefView f;
  bool plain;
  Real scale;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal j) const {
    const Real s = static_cast<Real>(j + 1);
    set.add_force(j % set.size(), Vec3{{s, -2.0 * s, 0.5 * s}}, f, plain, scale);
  }
};

CoefViewHost make_q(Ordinal n, Real shift) {
  CoefViewHost q("q", n);
  for (Ordinal i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) q(i, a) = shift + 0.25 * i + 1.5 * a - 0.125 * i * a;
  return q;
}

// Points of 1, 4, 0 (ground), 40 and 3 coefficients (ids may repeat).
MaterialPointSetHost sample_set() {
  MaterialPointSetHost h;
  h.add({7}, {1.0});
  h.add({0, 1, 2, 3}, {1.0, 0.5, -0.25, 2.0});
  h.add_ground(Vec3{{1.0, -2.0, 3.0}});
  std::vector<Ordinal> ids;
  std::vector<Real> w;
  for (int l = 0; l < 40; ++l) {
    ids.push_back((3 * l) % 50);
    w.push_back(0.01 * (l + 1) - 0.1);
  }
  h.add(ids, w);
  h.add({4, 4, 9}, {0.5, 0.5, -1.0}, Vec3{{0.5, 0.0, -0.5}});
  return h;
}

TEST(MaterialPointSet, HostBuilderLayout) {
  const MaterialPointSetHost h = sample_set();
  ASSERT_EQ(h.size(), 5);
  EXPECT_EQ(h.ptr, (std::vector<Ordinal>{0, 1, 5, 5, 45, 48}));
  EXPECT_EQ(h.num_coefficients(3), 40);
  EXPECT_TRUE(h.is_ground(2));
  EXPECT_FALSE(h.is_ground(0));
  EXPECT_THROW(h.num_coefficients(5), std::out_of_range);
  MaterialPointSetHost bad;
  EXPECT_THROW(bad.add({1, 2}, {1.0}), Error);
  EXPECT_THROW(bad.add({-1}, {1.0}), Error);
  EXPECT_EQ(bad.size(), 0);
}

TEST(MaterialPointSet, GatherMatchesHandSums) {
  const MaterialPointSetHost h = sample_set();
  const Ordinal nc = 50;
  const CoefViewHost qh = make_q(nc, 0.3), vh = make_q(nc, -1.7);
  CoefView q("q", nc), v("v", nc), x("x", h.size()), u("u", h.size());
  Kokkos::deep_copy(q, qh);
  Kokkos::deep_copy(v, vh);
  const MaterialPointSet d = upload_material_points("test::points", h);
  EXPECT_EQ(d.size(), 5);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(0, h.size()), GatherAll{d, q, v, x, u});
  auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  auto uh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  for (int a = 0; a < 3; ++a) {
    // Written out term by term.
    EXPECT_DOUBLE_EQ(xh(0, a), qh(7, a));
    EXPECT_DOUBLE_EQ(xh(1, a), qh(0, a) + 0.5 * qh(1, a) - 0.25 * qh(2, a) + 2.0 * qh(3, a));
    EXPECT_DOUBLE_EQ(uh(1, a), vh(0, a) + 0.5 * vh(1, a) - 0.25 * vh(2, a) + 2.0 * vh(3, a));
    const Real ground[3] = {1.0, -2.0, 3.0};
    EXPECT_EQ(xh(2, a), ground[a]);  // ground: its offset
    EXPECT_EQ(uh(2, a), 0.0);        // and at rest
    Real r40 = 0.0, v40 = 0.0;
    for (int l = 0; l < 40; ++l) {
      r40 += (0.01 * (l + 1) - 0.1) * qh((3 * l) % 50, a);
      v40 += (0.01 * (l + 1) - 0.1) * vh((3 * l) % 50, a);
    }
    EXPECT_EQ(xh(3, a), r40);  // same order of summation: bit-equal
    EXPECT_EQ(uh(3, a), v40);
    const Real off[3] = {0.5, 0.0, -0.5};
    EXPECT_DOUBLE_EQ(xh(4, a), off[a] + qh(4, a) - qh(9, a));
    EXPECT_DOUBLE_EQ(uh(4, a), vh(4, a) - vh(9, a));
    // The host mirror agrees bit for bit.
    EXPECT_EQ(h.position(3, qh)[a], xh(3, a));
    EXPECT_EQ(h.position(4, qh)[a], xh(4, a));
  }
  EXPECT_THROW(h.position(3, make_q(10, 0.0)), Error);  // id outside q
}

TEST(MaterialPointSet, ScatterIsTheTransposeOfGather) {
  // Plain and atomic scatter of one force per point against sum_l w_l F.
  const MaterialPointSetHost h = sample_set();
  const Ordinal nc = 50, n = h.size();
  const MaterialPointSet d = upload_material_points("test::points", h);
  for (const bool plain : {true, false}) {
    CoefView f("f", nc);
    // One launch per point: the points share coefficients, so plain adds
    // need one writer at a time.
    for (Ordinal k = 0; k < n; ++k)
      Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(k, k + 1), ScatterAll{d, f, plain, 0.5});
    auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
    std::vector<Real> ref(3 * nc, 0.0);
    for (Ordinal k = 0; k < n; ++k) {
      const Real s = static_cast<Real>(k + 1), F[3] = {s, -2.0 * s, 0.5 * s};
      for (Ordinal l = h.ptr[k]; l < h.ptr[k + 1]; ++l)
        for (int a = 0; a < 3; ++a) ref[3 * h.id[l] + a] += 0.5 * h.weight[l] * F[a];
    }
    for (Ordinal i = 0; i < nc; ++i)
      for (int a = 0; a < 3; ++a) EXPECT_NEAR(fh(i, a), ref[3 * i + a], 1e-13) << i;
  }
}

TEST(MaterialPointSet, AtomicScatterFromManyThreads) {
  // 20000 forces on 5 points sharing coefficients, all at once: the atomic
  // adds must lose nothing whatever the thread count (OMP_NUM_THREADS).
  const MaterialPointSetHost h = sample_set();
  const Ordinal nc = 50, m = 20000, n = h.size();
  const MaterialPointSet d = upload_material_points("test::points", h);
  CoefView f("f", nc);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(0, m), ScatterAll{d, f, false, 1.0});
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f);
  // sum over j = k mod n of (j + 1): the total force scale per point.
  std::vector<Real> S(n, 0.0);
  for (Ordinal j = 0; j < m; ++j) S[j % n] += static_cast<Real>(j + 1);
  std::vector<Real> ref(3 * nc, 0.0);
  const Real dir[3] = {1.0, -2.0, 0.5};
  for (Ordinal k = 0; k < n; ++k)
    for (Ordinal l = h.ptr[k]; l < h.ptr[k + 1]; ++l)
      for (int a = 0; a < 3; ++a) ref[3 * h.id[l] + a] += h.weight[l] * S[k] * dir[a];
  for (Ordinal i = 0; i < nc; ++i)
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(fh(i, a), ref[3 * i + a], 1e-12 * (1.0 + std::abs(ref[3 * i + a]))) << i;
}

TEST(MaterialPointSet, AppendTruncateAndDownload) {
  MaterialPointSetHost a = sample_set(), b;
  b.add({1, 2}, {0.25, 0.75});
  b.add_ground(Vec3{{0.0, 0.0, 9.0}});
  a.append(b);
  ASSERT_EQ(a.size(), 7);
  EXPECT_EQ(a.ptr.back(), 50);
  EXPECT_EQ(a.id[48], 1);
  EXPECT_EQ(a.offset[6][2], 9.0);
  const MaterialPointSetHost back =
      download_material_points(upload_material_points("test::points", a));
  EXPECT_EQ(back.ptr, a.ptr);
  EXPECT_EQ(back.id, a.id);
  EXPECT_EQ(back.weight, a.weight);
  for (Ordinal k = 0; k < a.size(); ++k)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(back.offset[k][c], a.offset[k][c]);
  a.truncate(3);
  EXPECT_EQ(a.size(), 3);
  EXPECT_EQ(a.ptr, (std::vector<Ordinal>{0, 1, 5, 5}));
  EXPECT_EQ(a.id.size(), 5u);
  EXPECT_THROW(a.truncate(4), Error);
  const MaterialPointSet empty = upload_material_points("test::empty", MaterialPointSetHost{});
  EXPECT_EQ(empty.size(), 0);
}

}  // namespace
}  // namespace tlfea
