// TLFEA: the rigid-body modes of the Newton matrix, the near-nullspace that
// smoothed-aggregation multigrid (muelu_preconditioner.hpp) interpolates
// exactly (Vanek, Mandel & Brezina 1996, Computing 56: the tentative
// prolongator restricts the near-nullspace to each aggregate; docs/theory.md
// §8.4). Internal to the linalg layer; the layout of a Model is made by
// integrators/src/rigid_body_layout.hpp.
//
// A rigid motion of the body, x -> t + w x x to first order, moves the
// coefficients of every element family by (docs/theory.md §3, §10):
//   position coefficient c (T10 / Q27 node, ANCF node position, rigid-body
//   centre):                      dq_c = t + w x (q_c - x0),
//   gradient coefficient c (ANCF dr/du, dr/dv, dr/dw, rigid-body directors
//   r_1, r_2, r_3, which a translation leaves unchanged):
//                                 dq_c = w x q_c,
// x0 the mean of the position coefficients (rotating about it instead of the
// origin adds a translation, which is in the span; it keeps the rotation
// columns of the size of the body rather than of its distance from the
// origin). Six columns: k = 0, 1, 2 the translations t = e_k, k = 3, 4, 5 the
// rotations w = e_{k-3}. An eliminated row (free_rows 0: clamped,
// prescribed or fixed, a unit diagonal in the Newton matrix) is zero in
// every column.
#pragma once

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/types.hpp"
#include "tlfea/linalg/linear_solver.hpp"

namespace tlfea::detail {

// Sums of the position coefficients and their count (value_count 4).
struct PositionSum {
  using value_type = Real[];
  using size_type = Ordinal;
  CoefView q;
  DeviceView<unsigned char*> position;
  unsigned value_count = 4;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal c, value_type s) const {
    if (!position(c)) return;
    for (int a = 0; a < 3; ++a) s[a] += q(c, a);
    s[3] += 1.0;
  }
};

// out(i, k) = mode k at scalar row rows(i) (the rows of the matrix this rank
// holds, in its local order); Out a rank-2 device view (Tpetra's
// MultiVector view).
template <class Out>
struct FillRigidBodyModes {
  Out out;
  CoefView q;
  DeviceView<unsigned char*> position, free_rows;
  DeviceView<Offset*> rows;
  Real x0[3];
  KOKKOS_INLINE_FUNCTION void operator()(const Offset i) const {
    const Offset r = rows(i);
    const Ordinal c = static_cast<Ordinal>(r / 3);
    const int a = static_cast<int>(r % 3);
    const bool pos = position(c) != 0;
    Real x[3];
    for (int m = 0; m < 3; ++m) x[m] = q(c, m) - (pos ? x0[m] : 0.0);
    // (e_j x x)_a = eps_{a j m} x_m: e_0 x x = (0, -x_2, x_1), e_1 x x =
    // (x_2, 0, -x_0), e_2 x x = (-x_1, x_0, 0).
    const Real rot[3][3] = {{0.0, -x[2], x[1]}, {x[2], 0.0, -x[0]}, {-x[1], x[0], 0.0}};
    const bool live = free_rows(r) != 0;
    for (int k = 0; k < 3; ++k) out(i, k) = live && pos && a == k ? 1.0 : 0.0;
    for (int j = 0; j < 3; ++j) out(i, 3 + j) = live ? rot[j][a] : 0.0;
  }
};

// out(i, m) = coordinate m of the node of coefficient rows(3 i) / 3: its
// position coefficient (a gradient coefficient's node position is the
// nearest position coefficient below it, at most 3 back: model.hpp's node
// layout). The "Coordinates" MueLu's repartitioning asks for.
template <class Out>
struct FillNodeCoordinates {
  Out out;
  CoefView q;
  DeviceView<unsigned char*> position;
  DeviceView<Offset*> rows;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset i) const {
    Ordinal c = static_cast<Ordinal>(rows(3 * i) / 3);
    for (int k = 0; k < 3 && c > 0 && !position(c); ++k) --c;
    for (int m = 0; m < 3; ++m) out(i, m) = q(c, m);
  }
};

template <class Out>
void fill_node_coordinates(const CoefView& q, const RigidBodyLayout& layout,
                           const DeviceView<Offset*>& rows, const Out& out) {
  Kokkos::parallel_for("tlfea::linalg::node_coordinates",
                       Kokkos::RangePolicy<ExecSpace>(0, out.extent(0)),
                       FillNodeCoordinates<Out>{out, q, layout.position, rows});
}

// Fills `out` (rows.extent(0) x 6) with the modes at q; throws for a layout
// that does not match q.
template <class Out>
void fill_rigid_body_modes(const char* backend, const CoefView& q, const RigidBodyLayout& layout,
                           const DeviceView<Offset*>& rows, const Out& out) {
  const Ordinal n = static_cast<Ordinal>(q.extent(0));
  if (static_cast<Ordinal>(layout.position.extent(0)) != n ||
      static_cast<Ordinal>(layout.free_rows.extent(0)) != 3 * n)
    throw_error(backend, ": rigid-body layout for ", layout.position.extent(0),
                " coefficients and ", layout.free_rows.extent(0), " rows, but q has ", n,
                " coefficients");
  if (out.extent(0) != rows.extent(0) || out.extent(1) != 6)
    throw_error(backend, ": near-nullspace of ", out.extent(0), " x ", out.extent(1), ", expected ",
                rows.extent(0), " x 6");
  Real s[4] = {0.0, 0.0, 0.0, 0.0};
  Kokkos::parallel_reduce("tlfea::linalg::position_mean", Kokkos::RangePolicy<ExecSpace>(0, n),
                          PositionSum{q, layout.position}, s);
  FillRigidBodyModes<Out> f{out, q, layout.position, layout.free_rows, rows, {0.0, 0.0, 0.0}};
  for (int m = 0; m < 3; ++m) f.x0[m] = s[3] > 0 ? s[m] / s[3] : 0.0;
  Kokkos::parallel_for("tlfea::linalg::rigid_body_modes",
                       Kokkos::RangePolicy<ExecSpace>(0, rows.extent(0)), f);
}

}  // namespace tlfea::detail
