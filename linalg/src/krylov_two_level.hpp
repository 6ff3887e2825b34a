// TLFEA: the two-level preconditioner of the Kokkos Kernels Krylov backends
// (kk-cg, kk-gmres; linear_solver_krylov.cpp): the one-level preconditioner
// M^-1 (block-jacobi, sgs, ilu0, ...) combined with a coarse space Z of the
// rigid-body modes of aggregates of nodes, in the balancing (BNN) form
//   P = (I - Q A) M^-1 (I - A Q) + Q,   Q = Z E^-1 Z^T,   E = Z^T A Z
// (Tang, Nabben, Vuik & Erlangga, "Comparison of two-level preconditioners
// derived from deflation, domain decomposition and multigrid methods",
// J. Sci. Comput. 39 (2009) 340-370, Table 2, P_BNN; Mandel, "Balancing
// domain decomposition", Commun. Numer. Methods Eng. 9 (1993) 233-241).
// P is symmetric, and positive definite for SPD A and SPD M (Tang et al.
// 2009, Sec. 3), so CG stays valid; P A z = z for every z in the span of Z
// (the coarse modes are solved exactly), which is what removes the
// low-energy modes a one-level M^-1 does not see: CG's iteration count
// follows the spectrum of P A restricted to the complement of Z.
//
// Coarse space (docs/theory.md §8.8): the free nodes (those with a free
// scalar row) are split into aggregates by recursive coordinate bisection
// of their positions (longest extent of the bounding box halved at the
// median, until at most `aggregate_size` nodes remain; once per pattern, on
// the host, at the first factorize after analyze). On aggregate a with
// centroid x_a of its position coefficients, Z holds the six rigid-body
// modes of rigid_body_modes.hpp restricted to a, with rotations about x_a:
//   position coefficient c:  dq_c = t + w x (q_c - x_a),
//   gradient coefficient c:  dq_c = w x q_c,
// t = e_k (k = 0, 1, 2), w = e_{k-3} (k = 3, 4, 5), an eliminated row zero.
// Coarse unknown 6 a + k is mode k of aggregate a; E is dense, 6 x
// aggregates square, factored on the device as L D L^T (right-looking, one
// kernel per column) and inverted explicitly (E^-1 = L^-T D^-1 L^-1, one
// column of L^-1 and one row of the product per thread), so a
// coarse solve is one dense matrix-vector product. A pivot that is zero
// to round-off (|d_k| <= max(1e-10 |E_kk|, 1e-12 ||A||_inf z_k^T z_k): a
// mode that is a combination of the previous ones, e.g. rotations of an
// aggregate whose free nodes lie on a line, a column whose rows are all
// eliminated, or a zero-energy mode of a singular A) drops that column from
// Z (its row and column of E^-1 are zero); a negative one beyond that means
// A is not positive definite and is an error naming the aggregate.
//
// The Newton matrix has three rows per coefficient and no multiplier rows
// (constraints, joints and a rigid body's rigidity enter as
// augmented-Lagrangian terms C_q^T C_q, docs/theory.md §6), so any model
// is taken: a rigid body's directors are gradient coefficients, and the
// modes stay a subspace of any SPD matrix. Every kernel writes only its
// own entries, so the sums run in the same order in every execution space
// and thread count.
//
// Application, y = P x (no allocation, nothing on the host; one
// application of M^-1, products with the sparse Z^T, A Z and Z^T A formed
// at the setup, two dense coarse products with E^-1):
//   y_c = Q x,  t = x - A y_c,  u = M^-1 t,  y = u - Q (A u) + y_c.
#pragma once

#include <KokkosBlas2_gemv.hpp>
#include <KokkosSparse_spmv.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/sparse_matrix.hpp"
#include "tlfea/linalg/linear_solver.hpp"

namespace tlfea::detail {

namespace two_level {

using Vector = DeviceView<Real*>;
// E, its factor and E^-1 by rows; L^-1 by columns (the loops below run
// along contiguous memory in each).
using Dense = Kokkos::View<Real**, Kokkos::LayoutRight, DeviceType>;
using DenseColumns = Kokkos::View<Real**, Kokkos::LayoutLeft, DeviceType>;
using Modes = Kokkos::View<Real* [6], Kokkos::LayoutRight, DeviceType>;

// Relative pivot below which a coarse mode is dropped (see above), and the
// round-off of a coarse entry relative to ||A|| z^T z.
constexpr Real kDropPivot = 1e-10;
constexpr Real kRoundoff = 1e-12;

// Per aggregate: the centroid of its position coefficients at q.
struct AggregateCentroid {
  DeviceView<Offset*> agg_map;  // aggregate a: coefficients agg_coefs(agg_map(a) .. agg_map(a+1)-1)
  DeviceView<Ordinal*> agg_coefs;  //
  DeviceView<unsigned char*> position;
  CoefView q;
  Kokkos::View<Real* [3], Kokkos::LayoutRight, DeviceType> centroid;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal a) const {
    Real s[3] = {0.0, 0.0, 0.0};
    Real count = 0.0;
    for (Offset p = agg_map(a); p < agg_map(a + 1); ++p) {
      const Ordinal c = agg_coefs(p);
      if (!position(c)) continue;
      for (int m = 0; m < 3; ++m) s[m] += q(c, m);
      count += 1.0;
    }
    for (int m = 0; m < 3; ++m) centroid(a, m) = count > 0.0 ? s[m] / count : 0.0;
  }
};

// modes(r, k): mode k of the aggregate of scalar row r (zero for a row of no
// aggregate or an eliminated one).
struct FillModes {
  Modes modes;
  CoefView q;
  DeviceView<unsigned char*> position, free_rows;
  DeviceView<Ordinal*> agg_of;  // per coefficient, -1: none
  Kokkos::View<Real* [3], Kokkos::LayoutRight, DeviceType> centroid;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    const Ordinal c = r / 3, a = agg_of(c);
    const int d = r % 3;
    const bool pos = position(c) != 0, live = a >= 0 && free_rows(r) != 0;
    Real x[3];
    for (int m = 0; m < 3; ++m) x[m] = q(c, m) - (pos && a >= 0 ? centroid(a, m) : 0.0);
    // (e_j x x)_d: e_0 x x = (0, -x_2, x_1), e_1 x x = (x_2, 0, -x_0),
    // e_2 x x = (-x_1, x_0, 0).
    const Real rot[3][3] = {{0.0, -x[2], x[1]}, {x[2], 0.0, -x[0]}, {-x[1], x[0], 0.0}};
    for (int k = 0; k < 3; ++k) modes(r, k) = live && pos && d == k ? 1.0 : 0.0;
    for (int j = 0; j < 3; ++j) modes(r, 3 + j) = live ? rot[j][d] : 0.0;
  }
};

// Values of Z^T (coarse row 6 a + k: the rows of aggregate a, mode k).
struct FillRestriction {
  DeviceView<Offset*> row_map;
  DeviceView<Ordinal*> entries;
  Vector values;
  Modes modes;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const int k = i % 6;
    for (Offset p = row_map(i); p < row_map(i + 1); ++p) values(p) = modes(entries(p), k);
  }
};

// A Z (n x 6 aggregates, sparse: row r holds the six columns of each
// aggregate that one of r's columns belongs to, az_cols sorted and grouped
// by 6): AZ(r, 6 b + l) = sum over the columns s of row r in aggregate b of
// A(r, s) Z(s, l). One thread per row, which writes only its own entries.
struct FillAZ {
  DeviceView<Offset*> row_map;
  DeviceView<Ordinal*> entries;
  Vector values;
  Modes modes;
  DeviceView<Ordinal*> agg_of;
  DeviceView<Offset*> az_map;
  DeviceView<Ordinal*> az_cols;
  Vector az;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    for (Offset p = az_map(r); p < az_map(r + 1); ++p) az(p) = 0.0;
    for (Offset q = row_map(r); q < row_map(r + 1); ++q) {
      const Ordinal s = entries(q), b = agg_of(s / 3);
      if (b < 0) continue;
      Offset p = az_map(r);
      while (az_cols(p) != 6 * b) p += 6;  // present by construction
      const Real v = values(q);
      for (int l = 0; l < 6; ++l) az(p + l) += v * modes(s, l);
    }
  }
};

// Z^T A (6 aggregates x n, sparse: row 6 a + k holds the union of the
// pattern columns of the rows of aggregate a, sorted): ZtA(6 a + k, s) =
// sum over the rows r of a of Z(r, k) A(r, s). One thread per coarse row;
// zta_pos(q) is the place of matrix entry q in the row of its row's
// aggregate (made with the structure).
struct FillZtA {
  DeviceView<Offset*> zt_map;
  DeviceView<Ordinal*> zt_rows;
  DeviceView<Offset*> row_map;
  Vector values;
  Modes modes;
  DeviceView<Offset*> zta_map;
  DeviceView<Ordinal*> zta_pos;
  Vector zta;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const int k = i % 6;
    const Offset base = zta_map(i);
    for (Offset p = base; p < zta_map(i + 1); ++p) zta(p) = 0.0;
    for (Offset p = zt_map(i); p < zt_map(i + 1); ++p) {
      const Ordinal r = zt_rows(p);
      const Real zk = modes(r, k);
      if (zk == 0.0) continue;
      for (Offset q = row_map(r); q < row_map(r + 1); ++q) zta(base + zta_pos(q)) += zk * values(q);
    }
  }
};

// Row i of E = Z^T A Z = (Z^T A) Z: E(i, 6 b + l) = sum over the columns s
// of row i of Z^T A in aggregate b of ZtA(i, s) Z(s, l). One thread per
// coarse row, which writes only its own row.
struct CoarseMatrix {
  DeviceView<Offset*> zta_map;
  DeviceView<Ordinal*> zta_cols;
  Vector zta;
  Modes modes;
  DeviceView<Ordinal*> agg_of;
  Dense e;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    for (Offset p = zta_map(i); p < zta_map(i + 1); ++p) {
      const Ordinal s = zta_cols(p), b = agg_of(s / 3);
      if (b < 0) continue;
      const Real v = zta(p);
      for (int l = 0; l < 6; ++l) e(i, 6 * b + l) += v * modes(s, l);
    }
  }
};

// The drop threshold of pivot i (see the header comment): the larger of
// kDropPivot |E_ii| and kRoundoff ||A||_inf z_i^T z_i, the round-off of
// z_i^T A z_i (a Rayleigh quotient of A times z_i^T z_i: a pivot below it
// is a mode of zero energy up to round-off, e.g. a rigid-body mode of an
// unconstrained body, whose sign says nothing).
struct PivotThreshold {
  Dense e;
  DeviceView<Offset*> zt_map;
  Vector zt_values, threshold;
  Vector anorm_at;  // ||A||_inf at anorm_at(anorm_slot), on the device
  int anorm_slot;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    Real zz = 0.0;
    for (Offset p = zt_map(i); p < zt_map(i + 1); ++p) zz += zt_values(p) * zt_values(p);
    const Real a = kDropPivot * kmath::fabs(e(i, i)), b = kRoundoff * anorm_at(anorm_slot) * zz;
    threshold(i) = a > b ? a : b;
  }
};

// Whether pivot d is kept against its threshold t.
KOKKOS_INLINE_FUNCTION bool keep_pivot(const Real d, const Real t) { return d > t; }

// Step k of the right-looking L D L^T of E (lower triangle only):
// E(i, j) -= E(i, k) E(j, k) / d_k for k < j <= i, d_k = E(k, k); nothing
// for a dropped pivot. Column k was copied to col (CopyColumn) so that each
// thread reads it contiguously; writes only rows and columns > k.
struct CopyColumn {
  Dense e;
  Vector col;
  Ordinal k;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const { col(i) = e(i, k); }
};
struct LdltStep {
  Dense e;
  Vector diag0, col;
  Ordinal k;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Real d = col(k);
    if (!keep_pivot(d, diag0(k))) return;
    const Real f = col(i) / d;
    for (Ordinal j = k + 1; j <= i; ++j) e(i, j) -= f * col(j);
  }
};

// After the steps: L(i, k) = E(i, k) / d_k below the diagonal (0 for a
// dropped k), dinv(k) = 1 / d_k (0 when dropped); counts dropped pivots
// (s[0]) and finds the first pivot that is negative or not finite (s[1],
// N when none).
struct LdltFinish {
  using value_type = Ordinal[];
  using size_type = Ordinal;
  unsigned value_count = 2;
  Dense e;
  Vector diag0, dinv;
  Ordinal n;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k, value_type s) const {
    const Real d = e(k, k), t = diag0(k);
    const bool keep = keep_pivot(d, t);
    const bool bad = !kmath::isfinite(d) || !kmath::isfinite(t) || d < -t;
    if (bad && k < s[1]) s[1] = k;
    if (!keep) ++s[0];
    dinv(k) = keep ? 1.0 / d : 0.0;
    for (Ordinal i = k + 1; i < n; ++i) e(i, k) = keep ? e(i, k) / d : 0.0;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type s) const {
    s[0] = 0;
    s[1] = n;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type d, const volatile value_type s) const {
    d[0] += s[0];
    if (s[1] < d[1]) d[1] = s[1];
  }
  KOKKOS_INLINE_FUNCTION void join(value_type d, const value_type s) const {
    d[0] += s[0];
    if (s[1] < d[1]) d[1] = s[1];
  }
};

// Column j of L^-1 (L unit lower, below the diagonal of l) by forward
// substitution from row j, into column j of linv.
struct LowerInverseColumn {
  Dense l;
  DenseColumns linv;
  Ordinal n;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal j) const {
    for (Ordinal i = 0; i < j; ++i) linv(i, j) = 0.0;
    linv(j, j) = 1.0;
    for (Ordinal i = j + 1; i < n; ++i) {
      Real s = 0.0;
      for (Ordinal m = j; m < i; ++m) s -= l(i, m) * linv(m, j);
      linv(i, j) = s;
    }
  }
};

// E^-1 = L^-T D^-1 L^-1: (E^-1)_ij = sum_{m >= max(i, j)} linv(m, i)
// dinv(m) linv(m, j). Thread i computes j <= i and writes (i, j) and
// (j, i): exactly symmetric, so P is symmetric to round-off.
struct InverseProduct {
  DenseColumns linv;
  Dense inv;
  Vector dinv;
  Ordinal n;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    for (Ordinal j = 0; j <= i; ++j) {
      Real s = 0.0;
      for (Ordinal m = i; m < n; ++m) s += linv(m, i) * dinv(m) * linv(m, j);
      inv(i, j) = s;
      inv(j, i) = s;
    }
  }
};

// yc = Z c and t = x - A yc = x - (A Z) c.
struct ProlongFirst {
  Modes modes;
  DeviceView<Ordinal*> agg_of;
  DeviceView<Offset*> az_map;
  DeviceView<Ordinal*> az_cols;
  Vector az, c, x, yc, t;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    const Ordinal a = agg_of(r / 3);
    Real s = 0.0;
    if (a >= 0)
      for (int k = 0; k < 6; ++k) s += modes(r, k) * c(6 * a + k);
    yc(r) = s;
    Real as = 0.0;
    for (Offset p = az_map(r); p < az_map(r + 1); ++p) as += az(p) * c(az_cols(p));
    t(r) = x(r) - as;
  }
};

// y = u - Z c + yc.
struct ProlongLast {
  Modes modes;
  DeviceView<Ordinal*> agg_of;
  Vector c, u, yc, y;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal r) const {
    const Ordinal a = agg_of(r / 3);
    Real s = 0.0;
    if (a >= 0)
      for (int k = 0; k < 6; ++k) s += modes(r, k) * c(6 * a + k);
    y(r) = u(r) - s + yc(r);
  }
};

}  // namespace two_level

// The coarse space and its application; owned by a KrylovSolver whose
// options ask for coarse "rigid-body".
class RigidBodyCoarseSpace {
 public:
  // Largest coarse space the dense coarse solve takes: n_c = 6 x aggregates
  // unknowns, E^-1 and L^-1 n_c^2 reals each (72 MiB each at the cap of 512
  // aggregates, 3072 unknowns) and a setup of about n_c^3 / 2 multiply-adds;
  // the automatic size stays below 1536 unknowns.
  static constexpr Ordinal kMaxCoarse = 6 * 512;
  // Automatic aggregate size: the free nodes / T with T = min(128,
  // ceil(sqrt(nnz(A)) / 24)) target aggregates, at least kMinAggregateSize
  // nodes each. Bisection gives between T and 2 T aggregates, so the
  // coarse unknowns n_c lie in [sqrt(nnz) / 4, sqrt(nnz) / 2) and the two
  // dense products with E^-1 of an application (2 n_c^2 multiply-adds)
  // cost an eighth to a half of a product with A; the cap keeps the dense
  // setup (n_c^3 / 2) below ~2e9 multiply-adds.
  static constexpr Ordinal kMaxAutoAggregates = 128;
  static constexpr Ordinal kMinAggregateSize = 4;

  RigidBodyCoarseSpace(std::string name, int aggregate_size)
      : name_(std::move(name)), aggregate_size_(aggregate_size) {
    if (aggregate_size != 0 && aggregate_size < kMinAggregateSize)
      throw_error(name_, ": coarse_aggregate_size must be >= ", kMinAggregateSize,
                  " nodes (an aggregate of fewer nodes carries fewer independent rigid-body "
                  "modes than unknowns; 0: automatic), got ",
                  aggregate_size);
  }

  void analyze(const CrsPattern& pattern) {
    pattern_ = pattern;
    n_ = pattern.num_rows();
    aggregated_ = false;
    factored_ = false;
  }
  void set_layout(const RigidBodyLayout& layout) {
    layout_ = layout;
    aggregated_ = false;
  }
  // The coefficients the modes are built from at each factorize. The first
  // call after the pattern and the layout are known also forms the
  // aggregates, from these positions (a TimeStepper passes the reference
  // configuration at its setup, so no step allocates them and a restart
  // gets the same aggregates).
  void set_coefficients(const CoefView& q) {
    q_ = q;
    if (!aggregated_ && n_ > 0 && layout_.position.extent(0) == q.extent(0) &&
        3 * static_cast<Ordinal>(q.extent(0)) == n_)
      aggregate();
  }

  // Z at the coefficients last set, E = Z^T A Z and E^-1; aggregates first
  // when the pattern or layout is new. `values` are A's values on the
  // pattern; its ||A||_inf (the scale of the pivots' round-off) is
  // state(anorm_slot), reduced on the device by the caller.
  void factorize(const two_level::Vector& values, const two_level::Vector& state,
                 const int anorm_slot) {
    namespace tl = two_level;
    using Range = Kokkos::RangePolicy<ExecSpace>;
    factored_ = false;
    if (layout_.position.extent(0) == 0 || q_.extent(0) == 0)
      throw_error(name_,
                  ": coarse rigid-body needs the node positions: set_rigid_body_layout() "
                  "after analyze() and set_coefficients() before factorize() (a "
                  "TimeStepper gives both)");
    const Ordinal nc = static_cast<Ordinal>(q_.extent(0));
    if (3 * nc != n_ || static_cast<Ordinal>(layout_.position.extent(0)) != nc ||
        static_cast<Ordinal>(layout_.free_rows.extent(0)) != n_)
      throw_error(name_, ": coarse rigid-body: ", n_, " matrix rows, but ", nc, " coefficients, ",
                  layout_.position.extent(0), " position flags and ", layout_.free_rows.extent(0),
                  " free-row flags");
    if (!aggregated_) aggregate();
    Kokkos::parallel_for(
        "tlfea::linalg::two_level::centroids", Range(0, num_aggregates_),
        tl::AggregateCentroid{agg_map_, agg_coefs_, layout_.position, q_, centroid_});
    Kokkos::parallel_for(
        "tlfea::linalg::two_level::modes", Range(0, n_),
        tl::FillModes{modes_, q_, layout_.position, layout_.free_rows, agg_of_, centroid_});
    Kokkos::parallel_for("tlfea::linalg::two_level::restriction", Range(0, coarse_),
                         tl::FillRestriction{zt_map_, zt_rows_, zt_values_, modes_});
    Kokkos::parallel_for("tlfea::linalg::two_level::az", Range(0, n_),
                         tl::FillAZ{pattern_.row_map, pattern_.entries, values, modes_, agg_of_,
                                    az_map_, az_cols_, az_});
    Kokkos::parallel_for(
        "tlfea::linalg::two_level::zta", Range(0, coarse_),
        tl::FillZtA{zt_map_, zt_rows_, pattern_.row_map, values, modes_, zta_map_, zta_pos_, zta_});
    fill(e_, 0.0);
    Kokkos::parallel_for("tlfea::linalg::two_level::coarse_matrix", Range(0, coarse_),
                         tl::CoarseMatrix{zta_map_, zta_cols_, zta_, modes_, agg_of_, e_});
    Kokkos::parallel_for("tlfea::linalg::two_level::pivot_threshold", Range(0, coarse_),
                         tl::PivotThreshold{e_, zt_map_, zt_values_, diag0_, state, anorm_slot});
    for (Ordinal k = 0; k + 1 < coarse_; ++k) {
      Kokkos::parallel_for("tlfea::linalg::two_level::ldlt_column", Range(k, coarse_),
                           tl::CopyColumn{e_, c1_, k});
      Kokkos::parallel_for("tlfea::linalg::two_level::ldlt_step", Range(k + 1, coarse_),
                           tl::LdltStep{e_, diag0_, c1_, k});
    }
    auto& s = pivots_;
    Kokkos::parallel_reduce("tlfea::linalg::two_level::ldlt_finish", Range(0, coarse_),
                            tl::LdltFinish{2, e_, diag0_, dinv_, coarse_}, s);
    if (s(1) < coarse_) {
      const Ordinal k = s(1);
      const auto d = to_host(Kokkos::subview(e_, k, k));
      throw_error(name_, ": coarse matrix Z^T A Z is not positive definite at aggregate ", k / 6,
                  " (rigid-body mode ", k % 6, ": pivot ", d(),
                  "); A is not symmetric positive definite (use coarse none or a direct "
                  "solver)");
    }
    dropped_ = s(0);
    // L^-1 into linv_, then E^-1 into e_ (L is no longer needed).
    Kokkos::parallel_for("tlfea::linalg::two_level::lower_inverse", Range(0, coarse_),
                         tl::LowerInverseColumn{e_, linv_, coarse_});
    Kokkos::parallel_for("tlfea::linalg::two_level::inverse", Range(0, coarse_),
                         tl::InverseProduct{linv_, e_, dinv_, coarse_});
    factored_ = true;
  }

  // y = P x (header comment) with M^-1 = smooth(in, out). The products
  // with A go through A Z and Z^T A, formed by factorize() (about 6 to 18
  // entries per row against A's ~80 for T10): y_c = Z E^-1 Z^T x,
  // t = x - (A Z) E^-1 Z^T x, u = M^-1 t, y = u - Z E^-1 (Z^T A) u + y_c.
  template <class Smoother>
  void apply(const two_level::Vector& x, const two_level::Vector& y, Smoother&& smooth) {
    namespace tl = two_level;
    using Range = Kokkos::RangePolicy<ExecSpace>;
    KokkosSparse::spmv("N", 1.0, zt_, x, 0.0, c1_);
    KokkosBlas::gemv("N", 1.0, e_, c1_, 0.0, c2_);
    Kokkos::parallel_for(
        "tlfea::linalg::two_level::prolong", Range(0, n_),
        tl::ProlongFirst{modes_, agg_of_, az_map_, az_cols_, az_, c2_, x, yc_, t_});
    smooth(t_, u_);
    KokkosSparse::spmv("N", 1.0, zta_matrix_, u_, 0.0, c1_);
    KokkosBlas::gemv("N", 1.0, e_, c1_, 0.0, c2_);
    Kokkos::parallel_for("tlfea::linalg::two_level::prolong_correct", Range(0, n_),
                         tl::ProlongLast{modes_, agg_of_, c2_, u_, yc_, y});
  }

  bool factored() const { return factored_; }
  Ordinal num_aggregates() const { return num_aggregates_; }
  Ordinal coarse_size() const { return coarse_; }
  Ordinal dropped_modes() const { return dropped_; }
  // Z (n x 6: mode k of the aggregate of each row), for tests.
  const two_level::Modes& modes() const { return modes_; }
  const DeviceView<Ordinal*>& aggregate_of() const { return agg_of_; }

 private:
  // The aggregates (recursive coordinate bisection of the free nodes, see
  // the header comment), the structure of Z^T and the work views; on the
  // host, once per pattern and layout.
  void aggregate() {
    const auto q = to_host(q_);
    const auto position = to_host(layout_.position);
    const auto free_rows = to_host(layout_.free_rows);
    const Ordinal nc = static_cast<Ordinal>(q.extent(0));
    // A node: a position coefficient and the gradient coefficients after it
    // (model.hpp's node layout); free when one of its rows is.
    std::vector<Ordinal> node_of(nc, -1), nodes;
    Ordinal node = -1;
    std::vector<unsigned char> node_free;
    for (Ordinal c = 0; c < nc; ++c) {
      if (position(c) || node < 0) {
        node = static_cast<Ordinal>(nodes.size());
        nodes.push_back(c);
        node_free.push_back(0);
      }
      node_of[c] = node;
      for (int d = 0; d < 3; ++d)
        if (free_rows(3 * c + d)) node_free[node] = 1;
    }
    std::vector<Ordinal> live;
    for (Ordinal k = 0; k < static_cast<Ordinal>(nodes.size()); ++k)
      if (node_free[k]) live.push_back(k);
    const Ordinal nl = static_cast<Ordinal>(live.size());
    if (nl == 0)
      throw_error(name_,
                  ": coarse rigid-body: no free node to aggregate (every row is eliminated)");
    Ordinal size = aggregate_size_;
    if (size == 0) {
      const Ordinal target = std::min<Ordinal>(
          kMaxAutoAggregates,
          static_cast<Ordinal>(std::ceil(std::sqrt(static_cast<double>(pattern_.nnz())) / 24.0)));
      size = std::max(kMinAggregateSize, (nl + target - 1) / std::max<Ordinal>(target, 1));
    }
    // Recursive coordinate bisection: parts of at most `size` nodes.
    std::vector<Ordinal> agg_of_node(nodes.size(), -1);
    Ordinal count = 0;
    auto coord = [&](Ordinal k, int m) { return q(nodes[k], m); };
    std::vector<std::array<Ordinal, 2>> stack{{0, nl}};
    std::vector<std::array<Ordinal, 2>> parts;
    while (!stack.empty()) {
      const auto [b, e] = stack.back();
      stack.pop_back();
      if (e - b <= size) {
        parts.push_back({b, e});
        continue;
      }
      Real lo[3], hi[3];
      for (int m = 0; m < 3; ++m) lo[m] = hi[m] = coord(live[b], m);
      for (Ordinal i = b; i < e; ++i)
        for (int m = 0; m < 3; ++m) {
          lo[m] = std::min(lo[m], coord(live[i], m));
          hi[m] = std::max(hi[m], coord(live[i], m));
        }
      int axis = 0;
      for (int m = 1; m < 3; ++m)
        if (hi[m] - lo[m] > hi[axis] - lo[axis]) axis = m;
      const Ordinal mid = b + (e - b) / 2;
      // Ties broken by node number: the same parts on every machine.
      std::nth_element(live.begin() + b, live.begin() + mid, live.begin() + e,
                       [&](Ordinal u, Ordinal v) {
                         const Real cu = coord(u, axis), cv = coord(v, axis);
                         return cu < cv || (cu == cv && u < v);
                       });
      stack.push_back({mid, e});
      stack.push_back({b, mid});
    }
    // Parts numbered in order of their smallest node (deterministic).
    for (auto& p : parts) std::sort(live.begin() + p[0], live.begin() + p[1]);
    std::sort(parts.begin(), parts.end(),
              [&](const auto& u, const auto& v) { return live[u[0]] < live[v[0]]; });
    for (const auto& p : parts) {
      for (Ordinal i = p[0]; i < p[1]; ++i) agg_of_node[live[i]] = count;
      ++count;
    }
    num_aggregates_ = count;
    coarse_ = 6 * count;
    if (coarse_ > kMaxCoarse)
      throw_error(name_, ": coarse rigid-body: ", count, " aggregates of at most ", size,
                  " nodes give ", coarse_, " coarse unknowns, more than the dense coarse solve's ",
                  kMaxCoarse, "; raise coarse_aggregate_size to at least ",
                  (nl * 6 + kMaxCoarse - 1) / kMaxCoarse * 2);
    std::vector<Ordinal> agg_of(nc, -1);
    for (Ordinal c = 0; c < nc; ++c) agg_of[c] = agg_of_node[node_of[c]];
    // Coefficients per aggregate (ascending), and Z^T's rows: row 6 a + k
    // holds the scalar rows of aggregate a.
    std::vector<Offset> agg_map(count + 1, 0);
    for (Ordinal c = 0; c < nc; ++c)
      if (agg_of[c] >= 0) ++agg_map[agg_of[c] + 1];
    for (Ordinal a = 0; a < count; ++a) agg_map[a + 1] += agg_map[a];
    std::vector<Ordinal> agg_coefs(agg_map[count]);
    std::vector<Offset> next(agg_map.begin(), agg_map.end() - 1);
    for (Ordinal c = 0; c < nc; ++c)
      if (agg_of[c] >= 0) agg_coefs[next[agg_of[c]]++] = c;
    std::vector<Offset> zt_map(coarse_ + 1, 0);
    std::vector<Ordinal> zt_rows;
    zt_rows.reserve(6 * 3 * static_cast<size_t>(agg_map[count]));
    for (Ordinal a = 0; a < count; ++a)
      for (int k = 0; k < 6; ++k) {
        for (Offset p = agg_map[a]; p < agg_map[a + 1]; ++p)
          for (int d = 0; d < 3; ++d) zt_rows.push_back(3 * agg_coefs[p] + d);
        zt_map[6 * a + k + 1] = static_cast<Offset>(zt_rows.size());
      }
    // A Z: per row, the aggregates its columns belong to (sorted), six
    // columns each; Z^T A: per aggregate, the union of its rows' columns
    // (sorted), the same for its six rows.
    const auto row_map = to_host(pattern_.row_map);
    const auto entries = to_host(pattern_.entries);
    std::vector<Offset> az_map(n_ + 1, 0);
    std::vector<Ordinal> az_cols, seen;
    for (Ordinal r = 0; r < n_; ++r) {
      seen.clear();
      for (Offset q = row_map(r); q < row_map(r + 1); ++q) {
        const Ordinal b = agg_of[entries(q) / 3];
        if (b >= 0) seen.push_back(b);
      }
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      for (Ordinal b : seen)
        for (int l = 0; l < 6; ++l) az_cols.push_back(6 * b + l);
      az_map[r + 1] = static_cast<Offset>(az_cols.size());
    }
    std::vector<Offset> zta_map(coarse_ + 1, 0);
    std::vector<Ordinal> zta_cols, zta_pos(pattern_.nnz(), 0);
    for (Ordinal a = 0; a < count; ++a) {
      seen.clear();
      for (Offset p = agg_map[a]; p < agg_map[a + 1]; ++p)
        for (int d = 0; d < 3; ++d) {
          const Ordinal r = 3 * agg_coefs[p] + d;
          for (Offset q = row_map(r); q < row_map(r + 1); ++q) seen.push_back(entries(q));
        }
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      for (Offset p = agg_map[a]; p < agg_map[a + 1]; ++p)
        for (int d = 0; d < 3; ++d) {
          const Ordinal r = 3 * agg_coefs[p] + d;
          for (Offset q = row_map(r); q < row_map(r + 1); ++q)
            zta_pos[q] = static_cast<Ordinal>(
                std::lower_bound(seen.begin(), seen.end(), entries(q)) - seen.begin());
        }
      for (int k = 0; k < 6; ++k) {
        zta_cols.insert(zta_cols.end(), seen.begin(), seen.end());
        zta_map[6 * a + k + 1] = static_cast<Offset>(zta_cols.size());
      }
    }
    az_map_ = upload_to_device("tlfea::linalg::two_level::az_map", az_map);
    az_cols_ = upload_to_device("tlfea::linalg::two_level::az_cols", az_cols);
    az_ = two_level::Vector("tlfea::linalg::two_level::az", az_cols.size());
    zta_map_ = upload_to_device("tlfea::linalg::two_level::zta_map", zta_map);
    zta_cols_ = upload_to_device("tlfea::linalg::two_level::zta_cols", zta_cols);
    zta_pos_ = upload_to_device("tlfea::linalg::two_level::zta_pos", zta_pos);
    zta_ = two_level::Vector("tlfea::linalg::two_level::zta", zta_cols.size());
    zta_matrix_ =
        SparseMatrix("tlfea::linalg::two_level::ZtA", coarse_, n_,
                     static_cast<Offset>(zta_cols.size()), SparseMatrix::values_type(zta_),
                     SparseMatrix::row_map_type(zta_map_), SparseMatrix::index_type(zta_cols_));
    agg_of_ = upload_to_device("tlfea::linalg::two_level::aggregate_of", agg_of);
    agg_map_ = upload_to_device("tlfea::linalg::two_level::aggregate_map", agg_map);
    agg_coefs_ = upload_to_device("tlfea::linalg::two_level::aggregate_coefficients", agg_coefs);
    zt_map_ = upload_to_device("tlfea::linalg::two_level::restriction_map", zt_map);
    zt_rows_ = upload_to_device("tlfea::linalg::two_level::restriction_rows", zt_rows);
    zt_values_ = two_level::Vector("tlfea::linalg::two_level::restriction_values", zt_rows.size());
    zt_ = SparseMatrix("tlfea::linalg::two_level::Zt", coarse_, n_,
                       static_cast<Offset>(zt_rows.size()), SparseMatrix::values_type(zt_values_),
                       SparseMatrix::row_map_type(zt_map_), SparseMatrix::index_type(zt_rows_));
    centroid_ = decltype(centroid_)("tlfea::linalg::two_level::centroids", count);
    modes_ = two_level::Modes("tlfea::linalg::two_level::modes", n_);
    e_ = two_level::Dense("tlfea::linalg::two_level::E", coarse_, coarse_);
    linv_ = two_level::DenseColumns("tlfea::linalg::two_level::L_inverse", coarse_, coarse_);
    diag0_ = two_level::Vector("tlfea::linalg::two_level::E_diagonal", coarse_);
    dinv_ = two_level::Vector("tlfea::linalg::two_level::D_inverse", coarse_);
    c1_ = two_level::Vector("tlfea::linalg::two_level::c1", coarse_);
    c2_ = two_level::Vector("tlfea::linalg::two_level::c2", coarse_);
    yc_ = two_level::Vector("tlfea::linalg::two_level::yc", n_);
    t_ = two_level::Vector("tlfea::linalg::two_level::t", n_);
    u_ = two_level::Vector("tlfea::linalg::two_level::u", n_);
    aggregated_ = true;
  }

  std::string name_;
  Ordinal aggregate_size_ = 0;
  CrsPattern pattern_;
  Ordinal n_ = 0;
  RigidBodyLayout layout_;
  CoefView q_;
  bool aggregated_ = false, factored_ = false;
  Ordinal num_aggregates_ = 0, coarse_ = 0, dropped_ = 0;
  // factorize's pivot report: dropped pivots, first negative pivot.
  Kokkos::View<Ordinal[2], Kokkos::HostSpace> pivots_{"tlfea::linalg::two_level::pivots"};
  DeviceView<Ordinal*> agg_of_, agg_coefs_, zt_rows_;
  DeviceView<Offset*> agg_map_, zt_map_;
  two_level::Vector zt_values_, diag0_, dinv_, c1_, c2_, yc_, t_, u_;
  DeviceView<Offset*> az_map_, zta_map_;
  DeviceView<Ordinal*> az_cols_, zta_cols_, zta_pos_;
  two_level::Vector az_, zta_;
  SparseMatrix zta_matrix_;  // Z^T A, 6 x aggregates rows
  SparseMatrix zt_;          // Z^T, 6 x aggregates rows
  Kokkos::View<Real* [3], Kokkos::LayoutRight, DeviceType> centroid_;
  two_level::Modes modes_;
  two_level::Dense e_;  // E, then its L D L^T factor, then E^-1 (after factorize)
  two_level::DenseColumns linv_;
};

}  // namespace tlfea::detail
