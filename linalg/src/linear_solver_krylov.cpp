// Kokkos Kernels Krylov backends: preconditioned CG ("kk-cg", symmetric
// positive definite) and restarted GMRES(m) with right preconditioning
// ("kk-gmres", general), built in every configuration. Everything of size n
// stays where the Newton matrix lives (the execution space's memory): the
// matrix is the pattern + values viewed as a KokkosSparse::CrsMatrix
// (core/sparse_matrix.hpp), products are KokkosSparse::spmv, vector updates
// and inner products KokkosBlas or this file's kernels; only scalars reach
// the host. CG keeps its scalars on the device and reads them once per solve
// where a predicted iteration budget covers its stop (KrylovSolver::cg,
// cg_budget), at a few checks otherwise; GMRES reads its Hessenberg column
// once per Arnoldi step (the small least-squares system is solved on the
// host).
//
// Preconditioners, set up by factorize():
//   "block-jacobi" (default): M = blockdiag(A_bb), the 3 x 3 diagonal block of
//                  each coefficient, inverted once per matrix;
//   "jacobi":      M = diag(A);
//   "sgs":         one symmetric block Gauss-Seidel sweep from zero, the
//                  blocks the same 3 x 3 diagonal blocks: with A = L + D + U
//                  (D = blockdiag(A_bb), L / U the blocks below / above it in
//                  the sweep order), M = (D + L) D^-1 (D + U), symmetric
//                  positive definite for SPD A (Saad 2003, Sec. 4.1.1 and
//                  eq. 10.8 with blocks), so CG stays valid. The sweep order
//                  is multicolour: the coefficient graph is coloured once
//                  per pattern (Kokkos Kernels' deterministic distance-1
//                  colouring), no two coefficients of one colour couple, so
//                  each colour is one parallel kernel (forward: colours
//                  1..C, backward: C-1..1, 2C - 1 kernels per application,
//                  each off-diagonal block read once) and no triangular
//                  solve runs serially. The colouring fixes the
//                  order, not the symmetry of M, and is the same in every
//                  execution space and thread count. analyze() colours and
//                  lays out the off-diagonal blocks by colour, L part then U
//                  part per row; factorize() gathers the values into that
//                  layout (16 bytes per matrix entry beside the matrix);
//   "none":        M = I.
// With coarse "rigid-body" any of them is the one-level part of the
// two-level preconditioner of krylov_two_level.hpp (a coarse space of
// rigid-body modes of aggregates, balancing form), which precondition()
// applies around it.
// Algorithms: CG as in Saad, Iterative Methods for Sparse Linear Systems
// (2nd ed., 2003), Alg. 9.1; GMRES(m) with right preconditioning, Alg. 9.5,
// with classical Gram-Schmidt applied twice (each pass two gemv) and Givens
// rotations for the least-squares problem (Alg. 6.10). Convergence, checked
// on the true residual r = b - A x after the method's own (recurrence or
// Givens) test: ||r||_2 <= tolerance ||b||_2, or x at the round-off floor of
// the problem: normwise backward error
//   eta = ||r||_inf / (||A||_inf ||x||_inf + ||b||_inf) <= 1e-13
// (Rigal & Gaches 1967; Higham, Accuracy and Stability of Numerical
// Algorithms, 2002, Thm. 7.1): a backward-stable direct solve reaches eta ~
// 1e-16, a Krylov recurrence of a few hundred steps loses two to three digits
// of that, and a tolerance below the floor (ill-conditioned A) cannot be met
// by any restart. Restarts from x continue while they halve ||r||.
#include <KokkosBlas1_axpby.hpp>
#include <KokkosBlas1_nrm2.hpp>
#include <KokkosBlas1_scal.hpp>
#include <KokkosBlas2_gemv.hpp>
#include <KokkosGraph_Distance1Color.hpp>
#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spiluk.hpp>
#include <KokkosSparse_spmv.hpp>
#include <KokkosSparse_sptrsv.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "backends.hpp"
#include "krylov_two_level.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/sparse_matrix.hpp"

namespace tlfea::detail {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;
using Vector = DeviceView<Real*>;
using Basis = Kokkos::View<Real**, Kokkos::LayoutLeft, DeviceType>;

// Offset of column 3b in each scalar row 3b + r (the first entry of the
// diagonal 3 x 3 block: block columns are stored whole and sorted, see
// core/crs_pattern.hpp); -1 if the pattern has no diagonal block.
struct FindDiagonalBlock {
  DeviceView<Offset*> row_map;
  DeviceView<Ordinal*> entries;
  DeviceView<Offset*> diag;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal row) const {
    const Ordinal col = row - row % 3;
    Offset lo = row_map(row), hi = row_map(row + 1);
    while (lo < hi) {  // lower bound of col in the sorted row
      const Offset mid = lo + (hi - lo) / 2;
      if (entries(mid) < col)
        lo = mid + 1;
      else
        hi = mid;
    }
    diag(row) = (lo + 2 < row_map(row + 1) && entries(lo) == col && entries(lo + 2) == col + 2)
                    ? lo
                    : Offset(-1);
  }
};

// inv(b, 3 r + s) = (A_bb^-1)_rs by the adjugate; counts blocks that are
// missing or singular relative to their size (|det| <= 1e-14 prod ||row||).
struct InvertBlocks {
  DeviceView<Real*> values;
  DeviceView<Offset*> diag;
  Kokkos::View<Real* [9], Kokkos::LayoutRight, DeviceType> inv;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal b, Ordinal& bad) const {
    Real a[3][3];
    Real scale = 1.0;
    for (int r = 0; r < 3; ++r) {
      const Offset k = diag(3 * b + r);
      if (k < 0) {
        ++bad;
        return;
      }
      Real rn = 0.0;
      for (int s = 0; s < 3; ++s) {
        a[r][s] = values(k + s);
        rn += a[r][s] * a[r][s];
      }
      scale *= kmath::sqrt(rn);
    }
    const Real c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    const Real c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    const Real c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    const Real det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    if (!(kmath::fabs(det) > 1e-14 * scale)) {
      ++bad;
      return;
    }
    const Real d = 1.0 / det;
    inv(b, 0) = c00 * d;
    inv(b, 1) = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * d;
    inv(b, 2) = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * d;
    inv(b, 3) = c01 * d;
    inv(b, 4) = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * d;
    inv(b, 5) = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * d;
    inv(b, 6) = c02 * d;
    inv(b, 7) = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * d;
    inv(b, 8) = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * d;
  }
};

// Block-row lengths of the coefficient graph: coefficient b couples to
// (row_map(3b + 1) - row_map(3b)) / 3 coefficients (whole 3 x 3 blocks).
struct CoefficientDegree {
  DeviceView<Offset*> row_map;
  DeviceView<Ordinal*> graph_map;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal b, Ordinal& sum, const bool last) const {
    const Ordinal d = (row_map(3 * b + 1) - row_map(3 * b)) / 3;
    if (last) graph_map(b) = sum;
    sum += d;
    if (last && b + 1 == static_cast<Ordinal>(graph_map.extent(0)) - 1) graph_map(b + 1) = sum;
  }
};

// Coefficient graph: the block columns of scalar row 3b, divided by 3.
struct CoefficientGraph {
  DeviceView<Offset*> row_map;
  DeviceView<Ordinal*> entries, graph_map, graph;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal b) const {
    const Offset k0 = row_map(3 * b);
    for (Ordinal i = graph_map(b); i < graph_map(b + 1); ++i)
      graph(i) = entries(k0 + 3 * (i - graph_map(b))) / 3;
  }
};

// dst(k) = src(from(k)): the off-diagonal values in the sweep's layout.
struct Gather {
  DeviceView<Offset*> from;
  Vector src, dst;
  KOKKOS_INLINE_FUNCTION void operator()(const Offset k) const { dst(k) = src(from(k)); }
};

// One colour of a block Gauss-Seidel sweep, with A = L + D + U split by
// colour (L: blocks A_bc with colour(c) < colour(b), U: colour(c) >
// colour(b), D: the diagonal blocks). Forward, (D + L) y1 = x:
//   y_b = A_bb^-1 (x_b - sum_{colour(c) < colour(b)} A_bc y_c);
// backward, (D + U) y = x - L y1 = D y1 (the forward equation), so
//   y_b = y1_b - A_bb^-1 sum_{colour(c) > colour(b)} A_bc y_c,
// which together give y = (D + U)^-1 D (D + L)^-1 x = M^-1 x and read each
// off-diagonal block once per application, not twice. Coefficients of one
// colour do not couple, so they update y independently. The three scalar
// rows of b hold the same block columns in the same order
// (core/crs_pattern.hpp), so the product runs block by block: 9 independent
// sums (row r, column q of the block) over one list of column indices.
// Layout (built once per pattern): coefficient b = order(p) in colour order
// has rows 3p..3p+2, each holding its L blocks at [0, split(p)) and its U
// blocks at [split(p), len), the diagonal block left out; so each colour's
// rows are contiguous and each sweep reads only its own half.
struct BlockGaussSeidelColour {
  DeviceView<Offset*> row_map;   // of the rows in colour order
  DeviceView<Ordinal*> entries;  // original column indices
  DeviceView<Real*> values;
  DeviceView<Offset*> split;  // per position p: length of the L part of each row
  Kokkos::View<Real* [9], Kokkos::LayoutRight, DeviceType> inv;
  DeviceView<Ordinal*> order;  // coefficients sorted by colour
  Ordinal begin;               // first of this colour in order
  bool backward;
  Vector x, y;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Ordinal p = begin + i, b = order(p);
    const Offset k0 = row_map(3 * p), k1 = row_map(3 * p + 1), k2 = row_map(3 * p + 2);
    const Offset lo = backward ? split(p) : 0, hi = backward ? k1 - k0 : split(p);
    Real s[3][3] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    for (Offset j = lo; j < hi; j += 3) {
      const Ordinal c = entries(k0 + j);
      for (int q = 0; q < 3; ++q) {
        const Real yc = y(c + q);
        s[0][q] += values(k0 + j + q) * yc;
        s[1][q] += values(k1 + j + q) * yc;
        s[2][q] += values(k2 + j + q) * yc;
      }
    }
    const Real t0 = s[0][0] + s[0][1] + s[0][2];
    const Real t1 = s[1][0] + s[1][1] + s[1][2];
    const Real t2 = s[2][0] + s[2][1] + s[2][2];
    const Real u0 = inv(b, 0) * t0 + inv(b, 1) * t1 + inv(b, 2) * t2;
    const Real u1 = inv(b, 3) * t0 + inv(b, 4) * t1 + inv(b, 5) * t2;
    const Real u2 = inv(b, 6) * t0 + inv(b, 7) * t1 + inv(b, 8) * t2;
    if (backward) {
      y(3 * b) -= u0;
      y(3 * b + 1) -= u1;
      y(3 * b + 2) -= u2;
    } else {
      const Real x0 = x(3 * b), x1 = x(3 * b + 1), x2 = x(3 * b + 2);
      y(3 * b) = inv(b, 0) * x0 + inv(b, 1) * x1 + inv(b, 2) * x2 - u0;
      y(3 * b + 1) = inv(b, 3) * x0 + inv(b, 4) * x1 + inv(b, 5) * x2 - u1;
      y(3 * b + 2) = inv(b, 6) * x0 + inv(b, 7) * x1 + inv(b, 8) * x2 - u2;
    }
  }
};

struct ApplyBlockInverse {
  Kokkos::View<Real* [9], Kokkos::LayoutRight, DeviceType> inv;
  Vector x, y;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal b) const {
    const Real x0 = x(3 * b), x1 = x(3 * b + 1), x2 = x(3 * b + 2);
    y(3 * b) = inv(b, 0) * x0 + inv(b, 1) * x1 + inv(b, 2) * x2;
    y(3 * b + 1) = inv(b, 3) * x0 + inv(b, 4) * x1 + inv(b, 5) * x2;
    y(3 * b + 2) = inv(b, 6) * x0 + inv(b, 7) * x1 + inv(b, 8) * x2;
  }
};

// dinv(i) = 1 / a_ii; counts zero (or non-finite) diagonals.
struct InvertDiagonal {
  DeviceView<Real*> values;
  DeviceView<Offset*> diag;
  Vector dinv;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& bad) const {
    const Offset k = diag(i);
    const Real a = k < 0 ? 0.0 : values(k + i % 3);
    if (!(kmath::fabs(a) > 0.0) || !(kmath::fabs(a) < 1e300)) {
      ++bad;
      dinv(i) = 0.0;
      return;
    }
    dinv(i) = 1.0 / a;
  }
};

// ||A||_inf = max_i sum_j |a_ij|
struct RowAbsSumMax {
  DeviceView<Offset*> row_map;
  DeviceView<Real*> values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& m) const {
    Real s = 0.0;
    for (Offset k = row_map(i); k < row_map(i + 1); ++k) s += kmath::fabs(values(k));
    if (s > m) m = s;
  }
};

struct ApplyDiagonal {
  Vector dinv, x, y;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const { y(i) = dinv(i) * x(i); }
};

// The solver's scalars on the device (KrylovSolver::s_): CG's inner products
// and its stopping decision, and the norms the host reads, so that a CG
// iteration queues kernels without waiting for any result and the host
// reads all of them in one copy when it checks (KrylovSolver::cg).
enum Slot : int {
  kRz = 0,       // r.z of the current and of the next iteration (two slots, alternating)
  kPw = 2,       // p.A p
  kRr = 3,       // r.r after the iteration's update
  kRr0 = 4,      // r.r at the start of the CG round
  kStop = 5,     // -1 while CG runs; else the iteration it stopped at
  kReason = 6,   // why it stopped: kConverged or kBreakdown
  kPwBad = 7,    // p.A p of a breakdown
  kBb = 8,       // b.b, max |b_i|, (unused): Norms of b
  kBinf = 9,     //
  kRes2 = 11,    // r.r, max |r_i|, max |x_i| of the true residual r = b - A x
  kResInf = 12,  //
  kXInf = 13,    //
  kAnorm = 14,   // ||A||_inf of the factorized matrix (factorize)
  kBad = 15,     // singular diagonal blocks / zero diagonal entries found by factorize
  kSlots = 16
};
constexpr Real kConverged = 1.0, kBreakdown = 2.0;
using State = DeviceView<Real*>;

// s[0] = a.a, s[1] = max_i |a_i|, s[2] = max_i |c_i|: the norms the
// convergence and backward-error tests need, in one pass. A NaN entry makes
// s[0] NaN and is left out of the maxima (an ordered comparison with NaN
// raises FE_INVALID; == does not).
struct Norms {
  using value_type = Real[];
  using size_type = Ordinal;
  unsigned value_count = 3;
  Vector a, c;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    const Real ai = a(i), aa = kmath::fabs(ai), ca = kmath::fabs(c(i));
    s[0] += ai * ai;
    if (aa == aa && aa > s[1]) s[1] = aa;
    if (ca == ca && ca > s[2]) s[2] = ca;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type s) const { s[0] = s[1] = s[2] = 0.0; }
  // Kokkos 3 joins through volatile references, Kokkos 4 through plain ones.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type d, const volatile value_type s) const {
    d[0] += s[0];
    if (s[1] > d[1]) d[1] = s[1];
    if (s[2] > d[2]) d[2] = s[2];
  }
  KOKKOS_INLINE_FUNCTION void join(value_type d, const value_type s) const {
    d[0] += s[0];
    if (s[1] > d[1]) d[1] = s[1];
    if (s[2] > d[2]) d[2] = s[2];
  }
};

// a.b; nothing once CG has stopped (stoppable: the iterations queued after
// the stop, which the host has not seen yet, do no work).
struct Dot {
  Vector a, b;
  State s;
  bool stoppable;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& sum) const {
    if (stoppable && s(kStop) >= 0.0) return;
    sum += a(i) * b(i);
  }
};

// CG's update (Saad Alg. 9.1, lines 4-5) with alpha = r.z / p.A p read on
// the device: x += alpha p, r -= alpha A p, and r.r of the new r. Skipped
// once CG has stopped or when p.A p <= 0 (CgDecide records the breakdown),
// so x stays the iterate CG stopped at.
struct CgUpdate {
  Vector x, r, p, w;
  State s;
  int rz;  // slot of the current r.z
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& rr) const {
    const Real pw = s(kPw);
    if (!(s(kStop) < 0.0 && pw > 0.0)) return;
    const Real alpha = s(rz) / pw;
    x(i) += alpha * p(i);
    const Real ri = r(i) - alpha * w(i);
    r(i) = ri;
    rr += ri * ri;
  }
};

// dst = src where |b| (already reduced) is finite, else 0: a right-hand side
// that is not finite enters no arithmetic (inf - inf and ordered
// comparisons with NaN raise FE_INVALID); the host reports it at its first
// read (KrylovSolver::read_state).
struct CopyIfFinite {
  Vector dst, src;
  State s;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    dst(i) = kmath::isfinite(s(kBb)) ? src(i) : 0.0;
  }
};

// s(kBad) = the count of singular diagonal blocks (or zero diagonal
// entries) that factorize() reduced on the device: read with the solve's
// state, which reports them before anything else (read_state).
struct StoreBadCount {
  DeviceView<Ordinal> bad;
  State s;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal) const { s(kBad) = bad(); }
};

// r.z of the new r and z, and CG's stopping decision (one thread, from the
// completed reductions of this iteration, before anything reads kStop
// again): iteration it (0-based) breaks down if p.A p <= 0 (or is not a
// number) and stops converged at it + 1 if not |r|^2 > tol^2 |b|^2; it < 0:
// the round's start, stopped (at 0) if r_0 already meets the tolerance, b
// is not finite or the preconditioner found a singular block.
struct CgDecide {
  Vector r, z;
  State s;
  int it;
  Real tol2;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& sum) const {
    sum += r(i) * z(i);
    if (i != 0) return;
    const Real threshold = tol2 * s(kBb);
    if (it < 0) {
      s(kStop) = !kmath::isfinite(s(kBb)) || s(kBad) > 0.0 || !(s(kRr0) > threshold) ? 0.0 : -1.0;
      s(kReason) = kConverged;
    } else if (s(kStop) < 0.0) {
      const Real pw = s(kPw);
      if (!(pw > 0.0)) {
        s(kStop) = it;
        s(kReason) = kBreakdown;
        s(kPwBad) = pw;
      } else if (!(s(kRr) > threshold)) {
        s(kStop) = it + 1;
        s(kReason) = kConverged;
      }
    }
  }
};

// p = z + beta p, beta = r_new.z_new / r.z (Saad Alg. 9.1, line 8), read on
// the device; nothing once CG has stopped.
struct CgDirection {
  Vector z, p;
  State s;
  int rz, rz_new;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    if (s(kStop) >= 0.0) return;
    p(i) = z(i) + s(rz_new) / s(rz) * p(i);
  }
};

enum class Method { CG, GMRES };
enum class Preconditioner { None, Jacobi, BlockJacobi, SymmetricGaussSeidel, Ilu0 };

// The preconditioner names kk-cg / kk-gmres accept ("default": block-jacobi).
constexpr const char* kPreconditionerNames = "block-jacobi, jacobi, sgs, ilu0 or none";

// Kokkos Kernels' spiluk (3.4, KokkosSparse_spiluk_numeric_impl.hpp with
// KEEP_DIAG, which its handle header defines) leaves L with its unit
// diagonal last in each row and U with its pivot first, the layout its
// triangular solves (sptrsv) read, and replaces a zero pivot by 1e6.
constexpr Real kSpilukZeroPivot = 1e6;

// Per row of the ILU(0) factors: s[0] counts rows whose pivot is missing
// or not first, or that hold an entry that is not finite; s[1] rows whose
// pivot is spiluk's zero-pivot mark (a true pivot of exactly 1e6 looks the
// same; KrylovSolver::zero_pivots tells them apart). isfinite first: an
// ordered comparison with NaN raises FE_INVALID.
struct CheckIlu0 {
  using value_type = Ordinal[];
  using size_type = Ordinal;
  unsigned value_count = 2;
  DeviceView<Offset*> l_row_map, u_row_map;
  DeviceView<Ordinal*> u_entries;
  Vector l_values, u_values;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    bool ok = true;
    for (Offset k = l_row_map(i); k < l_row_map(i + 1); ++k)
      if (!kmath::isfinite(l_values(k))) ok = false;
    for (Offset k = u_row_map(i); k < u_row_map(i + 1); ++k)
      if (!kmath::isfinite(u_values(k))) ok = false;
    const Offset d = u_row_map(i);
    if (!(d < u_row_map(i + 1) && u_entries(d) == i)) ok = false;
    if (!ok)
      ++s[0];
    else if (u_values(d) == kSpilukZeroPivot || u_values(d) == 0.0)
      ++s[1];
  }
  KOKKOS_INLINE_FUNCTION void init(value_type s) const { s[0] = s[1] = 0; }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type d, const volatile value_type s) const {
    d[0] += s[0];
    d[1] += s[1];
  }
  KOKKOS_INLINE_FUNCTION void join(value_type d, const value_type s) const {
    d[0] += s[0];
    d[1] += s[1];
  }
};

using KernelHandle =
    KokkosKernels::Experimental::KokkosKernelsHandle<Ordinal, Ordinal, Real, ExecSpace, MemSpace,
                                                     MemSpace>;

class KrylovSolver final : public LinearSolver {
 public:
  KrylovSolver(const LinearSolverOptions& options, Method method)
      : options_(options), method_(method) {
    name_ = method == Method::CG ? "kk-cg" : "kk-gmres";
    const std::string& p = options.preconditioner;
    if (p == "default" || p == "block-jacobi")
      prec_ = Preconditioner::BlockJacobi;
    else if (p == "jacobi")
      prec_ = Preconditioner::Jacobi;
    else if (p == "sgs")
      prec_ = Preconditioner::SymmetricGaussSeidel;
    else if (p == "ilu0")
      prec_ = Preconditioner::Ilu0;
    else if (p == "none")
      prec_ = Preconditioner::None;
    else
      throw_error(name_, ": preconditioner \"", p, "\" is not available (kk-cg / kk-gmres take ",
                  kPreconditionerNames, ")");
    if (options.coarse == "rigid-body")
      coarse_ = std::make_unique<RigidBodyCoarseSpace>(name_, options.coarse_aggregate_size);
    else if (options.coarse != "none")
      throw_error(name_, ": coarse \"", options.coarse,
                  "\" is not available (kk-cg / kk-gmres take none or rigid-body)");
    if (method == Method::CG && !options.symmetric)
      throw_error(name_, ": CG needs a symmetric matrix (symmetric: false given); use kk-gmres");
    // The coarse factorization (L D L^T of Z^T A Z) reads one triangle.
    if (coarse_ && !options.symmetric)
      throw_error(name_,
                  ": coarse rigid-body needs a symmetric matrix (symmetric: false given, e.g. by "
                  "follower loads); use coarse none");
    if (!(options.tolerance > 0.0 && options.tolerance < 1.0))
      throw_error(name_, ": tolerance must lie in (0, 1), got ", options.tolerance);
    if (options.max_iterations < 0)
      throw_error(name_, ": max_iterations must be >= 0 (0: automatic), got ",
                  options.max_iterations);
  }

  std::string name() const override { return name_; }

  void set_forcing_term(double eta) override { forcing_ = eta > 0.0 && eta < 1.0 ? eta : 0.0; }

  // The coarse level's node positions (coarse rigid-body; ignored otherwise).
  void set_rigid_body_layout(const RigidBodyLayout& layout) override {
    if (coarse_) coarse_->set_layout(layout);
  }
  void set_coefficients(const CoefView& q) override {
    if (coarse_) coarse_->set_coefficients(q);
  }

  void analyze(const CrsPattern& pattern) override {
    const Stopwatch clock;
    pattern_ = pattern;
    n_ = pattern.num_rows();
    limit_ = krylov_iteration_limit(options_.max_iterations, n_);
    check_length(name_.c_str(), "pattern row map", pattern.row_map.extent(0),
                 static_cast<size_t>(n_) + 1);
    diag_ = DeviceView<Offset*>("tlfea::linalg::krylov::diagonal", n_);
    Kokkos::parallel_for("tlfea::linalg::krylov::find_diagonal", Range(0, n_),
                         FindDiagonalBlock{pattern.row_map, pattern.entries, diag_});
    values_ = Vector("tlfea::linalg::krylov::values", pattern.nnz());
    matrix_ = make_sparse_matrix(pattern_, values_, "tlfea::linalg::krylov::A");
    const bool blocks =
        prec_ == Preconditioner::BlockJacobi || prec_ == Preconditioner::SymmetricGaussSeidel;
    block_inv_ = decltype(block_inv_)("tlfea::linalg::krylov::block_inverse", blocks ? n_ / 3 : 0);
    diag_inv_ =
        Vector("tlfea::linalg::krylov::diagonal_inverse", prec_ == Preconditioner::Jacobi ? n_ : 0);
    if (prec_ == Preconditioner::SymmetricGaussSeidel) colour_coefficients();
    if (prec_ == Preconditioner::Ilu0) analyze_ilu0();
    if (coarse_) coarse_->analyze(pattern);
    r_ = Vector("tlfea::linalg::krylov::r", n_);
    z_ = Vector("tlfea::linalg::krylov::z", n_);
    p_ = Vector("tlfea::linalg::krylov::p", n_);
    w_ = Vector("tlfea::linalg::krylov::w", n_);
    s_ = State("tlfea::linalg::krylov::state", kSlots);
    s_host_ = host_mirror(s_);
    bad_ = DeviceView<Ordinal>("tlfea::linalg::krylov::bad_count");
    cg_count_ = cg_next_ = 0;
    if (method_ == Method::GMRES) {
      restart_ = std::max(1, std::min(limit_, kRestart));
      basis_ = Basis("tlfea::linalg::krylov::basis", n_, restart_ + 1);
      h_ = Vector("tlfea::linalg::krylov::h", restart_ + 1);
      h2_ = Vector("tlfea::linalg::krylov::h2", restart_ + 1);
      h_host_ = host_mirror(h_);
      hess_.assign((restart_ + 1) * restart_, 0.0);
      cs_.assign(restart_, 0.0);
      sn_.assign(restart_, 0.0);
      g_.assign(restart_ + 1, 0.0);
      y_.assign(restart_, 0.0);
    }
    analyzed_ = true;
    ++stats_.analyses;
    stats_.analyze_seconds += clock.seconds();
  }

  void factorize(const DeviceView<Real*>& values) override {
    if (!analyzed_) throw_error(name_, ": factorize() before analyze()");
    check_length(name_.c_str(), "values", values.extent(0), static_cast<size_t>(pattern_.nnz()));
    const Stopwatch clock;
    factored_ = false;
    device_copy(values_, values);
    // The count of singular blocks (zero diagonals) and ||A||_inf stay on
    // the device (no host synchronisation here): the solve reads them with
    // its state, and reports a singular preconditioner before anything else
    // (read_state), with CG stopped at its start (CgDecide).
    if (prec_ == Preconditioner::SymmetricGaussSeidel)
      Kokkos::parallel_for("tlfea::linalg::krylov::colour_values",
                           Range(0, static_cast<Offset>(colour_values_.extent(0))),
                           Gather{colour_from_, values_, colour_values_});
    if (prec_ == Preconditioner::BlockJacobi || prec_ == Preconditioner::SymmetricGaussSeidel)
      reduce_on_device("tlfea::linalg::krylov::invert_blocks", Range(0, n_ / 3),
                       InvertBlocks{values_, diag_, block_inv_}, bad_);
    else if (prec_ == Preconditioner::Jacobi)
      reduce_on_device("tlfea::linalg::krylov::invert_diagonal", Range(0, n_),
                       InvertDiagonal{values_, diag_, diag_inv_}, bad_);
    else
      fill(bad_, Ordinal(0));
    Kokkos::parallel_for("tlfea::linalg::krylov::store_bad_count", Range(0, 1),
                         StoreBadCount{bad_, s_});
    if (prec_ == Preconditioner::Ilu0) {
      KokkosSparse::Experimental::spiluk_numeric(
          ilu_.get(), 0, ilu_a_row_map_, ilu_a_entries_, values_, lower_row_map_, lower_entries_,
          lower_values_, upper_row_map_, upper_entries_, upper_values_);
      Kokkos::View<Ordinal[2], Kokkos::HostSpace> counts("tlfea::linalg::krylov::ilu0_counts");
      Kokkos::parallel_reduce("tlfea::linalg::krylov::ilu0_check", Range(0, n_),
                              CheckIlu0{2, lower_row_map_, upper_row_map_, upper_entries_,
                                        lower_values_, upper_values_},
                              counts);
      const Ordinal zero = counts(1) > 0 ? zero_pivots() : 0;
      if (counts(0) > 0 || zero > 0)
        throw_error(name_, ": ", counts(0) + zero,
                    " rows of the ILU(0) factors have a zero or non-finite pivot (ilu0 "
                    "preconditioner); try preconditioner block-jacobi or jacobi, or a direct "
                    "solver");
    }
    reduce_on_device("tlfea::linalg::krylov::norm_inf", Range(0, n_),
                     RowAbsSumMax{pattern_.row_map, values_},
                     Kokkos::Max<Real, MemSpace>(Kokkos::subview(s_, int(kAnorm))));
    if (coarse_) coarse_->factorize(values_, s_, int(kAnorm));
    factored_ = true;
    ++stats_.factorizations;
    stats_.factorize_seconds += clock.seconds();
  }

  void solve(const DeviceView<Real*>& b, const DeviceView<Real*>& x) override {
    if (!factored_) throw_error(name_, ": solve() before factorize()");
    check_length(name_.c_str(), "right-hand side", b.extent(0), static_cast<size_t>(n_));
    check_length(name_.c_str(), "solution", x.extent(0), static_cast<size_t>(n_));
    const Stopwatch clock;
    // |b|_2^2 and |b|_inf stay on the device (CG's tolerance reads them
    // there) until the host's first read of the state (read_state).
    reduce_on_device("tlfea::linalg::krylov::norms_b", Range(0, n_), Norms{3, b, b},
                     Kokkos::subview(s_, std::make_pair(int(kBb), int(kBb) + 3)));
    fill(x, 0.0);
    // The tolerance of this solve: the configured one, or the Newton
    // iteration's forcing term when that is looser (set_forcing_term).
    tol_ = std::max(options_.tolerance, forcing_);
    checked_ = false;
    int iterations = 0;
    Real rel = 0.0;
    bool converged = false;
    // GMRES's least-squares test needs |b| on the host from its first step;
    // CG reads it with its first check (b = 0: CG stops at its start, x = 0).
    bool zero_rhs = false;
    if (method_ == Method::GMRES) {
      read_state();
      zero_rhs = !(s_host_(kBb) > 0.0);
    }
    if (!zero_rhs) {
      // The recurrences' residual is confirmed by the true one; where round-off
      // left the true residual above the tolerance, the method restarts from x
      // while iterations remain. The true residual's norms and |x|_inf come
      // in one reduction and one read per round.
      Real previous = std::numeric_limits<Real>::infinity();
      while (true) {
        int it = 0;
        if (method_ == Method::CG) {
          // r_0.r_0 / b.b of this round: 1 from x = 0, else the last round's.
          const Real start = iterations == 0 ? 1.0 : s_host_(kRes2) / s_host_(kBb);
          cg(b, x, limit_ - iterations, start, it);  // ends with the true residual's read
        } else {
          gmres(b, x, std::sqrt(s_host_(kBb)), limit_ - iterations, it);
          true_residual(b, x);
          read_state();
        }
        iterations += it;
        const Real bnorm = std::sqrt(s_host_(kBb));
        if (!(bnorm > 0.0)) {  // b = 0: x = 0 (CG stopped at its start)
          converged = true;
          rel = 0.0;
          break;
        }
        rel = std::sqrt(s_host_(kRes2)) / bnorm;
        if (!std::isfinite(rel)) break;
        const Real eta = s_host_(kResInf) / (s_host_(kAnorm) * s_host_(kXInf) + s_host_(kBinf));
        converged = !(rel > tol_) || !(eta > kBackwardErrorFloor);
        if (converged || iterations >= limit_ || it == 0 || !(rel < 0.5 * previous)) break;
        previous = rel;
      }
    } else {
      converged = true;
    }
    ++stats_.solves;
    stats_.last_iterations = iterations;
    stats_.total_iterations += iterations;
    if (checked_) ++stats_.checked_solves;
    stats_.last_residual = rel;
    stats_.solve_seconds += clock.seconds();
    if (!std::isfinite(rel))
      throw_error(name_, ": solution is not finite (singular or badly conditioned matrix)");
    if (!converged)
      throw_error(name_, ": no convergence in ", iterations, " iterations (relative residual ", rel,
                  ", tolerance ", tol_, "; preconditioner ", options_.preconditioner, ")");
  }

 private:
  static constexpr int kRestart = 50;
  static constexpr Real kBackwardErrorFloor = 1e-13;

  // r = b - A x (r = 0 for a b that is not finite: CopyIfFinite)
  void residual(const Vector& b, const Vector& x, const Vector& r) {
    Kokkos::parallel_for("tlfea::linalg::krylov::copy_b", Range(0, n_), CopyIfFinite{r, b, s_});
    KokkosSparse::spmv("N", -1.0, matrix_, x, 1.0, r);
  }
  void residual(const Vector& b, const Vector& x) { residual(b, x, r_); }

  // The true residual w = b - A x of a round's end (w_: free between
  // iterations) and its norms with |x|_inf, into the state (kRes2..kXInf).
  void true_residual(const Vector& b, const Vector& x) {
    residual(b, x, w_);
    reduce_on_device("tlfea::linalg::krylov::norms_r", Range(0, n_), Norms{3, w_, x},
                     Kokkos::subview(s_, std::make_pair(int(kRes2), int(kRes2) + 3)));
  }

  // y = P x: the two-level preconditioner around M^-1 when coarse is
  // rigid-body (krylov_two_level.hpp), else y = M^-1 x.
  void precondition(const Vector& x, const Vector& y) {
    if (coarse_)
      coarse_->apply(x, y, [this](const Vector& a, const Vector& b) { smooth(a, b); });
    else
      smooth(x, y);
  }

  // y = M^-1 x
  void smooth(const Vector& x, const Vector& y) {
    switch (prec_) {
      case Preconditioner::BlockJacobi:
        Kokkos::parallel_for("tlfea::linalg::krylov::block_jacobi", Range(0, n_ / 3),
                             ApplyBlockInverse{block_inv_, x, y});
        break;
      case Preconditioner::Jacobi:
        Kokkos::parallel_for("tlfea::linalg::krylov::jacobi", Range(0, n_),
                             ApplyDiagonal{diag_inv_, x, y});
        break;
      case Preconditioner::SymmetricGaussSeidel: {
        // y = M^-1 x: forward over colours 0..C-1, backward over C-2..0 (the
        // last colour has no block above it in U).
        const int colours = static_cast<int>(colour_begin_.size()) - 1;
        for (int i = 0; i < 2 * colours - 1; ++i) {
          const bool backward = i >= colours;
          const int c = backward ? 2 * colours - 2 - i : i;
          const Ordinal begin = colour_begin_[c];
          Kokkos::parallel_for("tlfea::linalg::krylov::block_gauss_seidel",
                               Range(0, colour_begin_[c + 1] - begin),
                               BlockGaussSeidelColour{colour_row_map_, colour_entries_,
                                                      colour_values_, colour_split_, block_inv_,
                                                      colour_order_, begin, backward, x, y});
        }
        break;
      }
      case Preconditioner::Ilu0:
        // y = U^-1 L^-1 x
        KokkosSparse::Experimental::sptrsv_solve(lower_.get(), lower_row_map_, lower_entries_,
                                                 lower_values_, x, ilu_t_);
        KokkosSparse::Experimental::sptrsv_solve(upper_.get(), upper_row_map_, upper_entries_,
                                                 upper_values_, ilu_t_, y);
        break;
      case Preconditioner::None:
        device_copy(y, x);
        break;
    }
  }

  // ilu0: the sparsity of L and U (ILU(0): A's own pattern split at the
  // diagonal; Kokkos Kernels' spiluk, level 0) and the level schedules of
  // the two triangular solves (sptrsv), once per pattern.
  void analyze_ilu0() {
    namespace kse = KokkosSparse::Experimental;
    const Offset nnz = pattern_.nnz();
    ilu_a_row_map_ = pattern_.row_map;
    ilu_a_entries_ = pattern_.entries;
    ilu_ = std::make_unique<KernelHandle>();
    ilu_->create_spiluk_handle(kse::SPILUKAlgorithm::SEQLVLSCHD_TP1, n_, nnz, nnz);
    lower_row_map_ = DeviceView<Offset*>("tlfea::linalg::krylov::ilu0_L_row_map", n_ + 1);
    upper_row_map_ = DeviceView<Offset*>("tlfea::linalg::krylov::ilu0_U_row_map", n_ + 1);
    lower_entries_ = DeviceView<Ordinal*>("tlfea::linalg::krylov::ilu0_L_entries", nnz);
    upper_entries_ = DeviceView<Ordinal*>("tlfea::linalg::krylov::ilu0_U_entries", nnz);
    kse::spiluk_symbolic(ilu_.get(), 0, ilu_a_row_map_, ilu_a_entries_, lower_row_map_,
                         lower_entries_, upper_row_map_, upper_entries_);
    const auto h = ilu_->get_spiluk_handle();
    Kokkos::resize(lower_entries_, h->get_nnzL());
    Kokkos::resize(upper_entries_, h->get_nnzU());
    lower_values_ = Vector("tlfea::linalg::krylov::ilu0_L_values", h->get_nnzL());
    upper_values_ = Vector("tlfea::linalg::krylov::ilu0_U_values", h->get_nnzU());
    ilu_t_ = Vector("tlfea::linalg::krylov::ilu0_t", n_);
    lower_ = std::make_unique<KernelHandle>();
    lower_->create_sptrsv_handle(kse::SPTRSVAlgorithm::SEQLVLSCHD_TP1, n_, true);
    kse::sptrsv_symbolic(lower_.get(), lower_row_map_, lower_entries_);
    upper_ = std::make_unique<KernelHandle>();
    upper_->create_sptrsv_handle(kse::SPTRSVAlgorithm::SEQLVLSCHD_TP1, n_, false);
    kse::sptrsv_symbolic(upper_.get(), upper_row_map_, upper_entries_);
  }

  // ilu0, rows whose pivot is spiluk's zero-pivot mark: the true pivot
  // again, on the host (a rare path), from the ILU(0) identity on the
  // diagonal, (L U)_ii = a_ii, so u_ii = a_ii - sum_{k < i} l_ik u_ki
  // (Saad 2003, Alg. 10.4). A mark is a zero pivot where that is nearer 0
  // than the mark. Returns the number of zero pivots.
  Ordinal zero_pivots() {
    const auto ar = to_host(pattern_.row_map);
    const auto ae = to_host(pattern_.entries);
    const auto av = to_host(values_);
    const auto lr = to_host(lower_row_map_);
    const auto le = to_host(lower_entries_);
    const auto lv = to_host(lower_values_);
    const auto ur = to_host(upper_row_map_);
    const auto ue = to_host(upper_entries_);
    const auto uv = to_host(upper_values_);
    Ordinal zero = 0;
    for (Ordinal i = 0; i < n_; ++i) {
      if (!(uv(ur(i)) == kSpilukZeroPivot || uv(ur(i)) == 0.0)) continue;
      Real pivot = 0.0;
      for (Offset k = ar(i); k < ar(i + 1); ++k)
        if (ae(k) == i) pivot = av(k);
      for (Offset k = lr(i); k < lr(i + 1); ++k) {
        const Ordinal j = le(k);
        if (j == i) continue;
        for (Offset q = ur(j); q < ur(j + 1); ++q)
          if (ue(q) == i) pivot -= lv(k) * uv(q);
      }
      if (std::fabs(pivot) < std::fabs(pivot - kSpilukZeroPivot)) ++zero;
    }
    return zero;
  }

  // sgs: colours the coefficient graph and sorts the coefficients by colour
  // (colour_order_, colour_begin_). Kokkos Kernels' vertex-based
  // deterministic colouring (COLORING_VBD) gives the same colours in every
  // execution space and thread count.
  void colour_coefficients() {
    const Ordinal nb = n_ / 3;
    DeviceView<Ordinal*> graph_map("tlfea::linalg::krylov::coefficient_graph_map", nb + 1);
    Ordinal edges = 0;
    Kokkos::parallel_scan("tlfea::linalg::krylov::coefficient_degree", Range(0, nb),
                          CoefficientDegree{pattern_.row_map, graph_map}, edges);
    DeviceView<Ordinal*> graph("tlfea::linalg::krylov::coefficient_graph", edges);
    Kokkos::parallel_for("tlfea::linalg::krylov::coefficient_graph", Range(0, nb),
                         CoefficientGraph{pattern_.row_map, pattern_.entries, graph_map, graph});
    KernelHandle handle;
    handle.create_graph_coloring_handle(KokkosGraph::COLORING_VBD);
    KokkosGraph::Experimental::graph_color(&handle, nb, nb, graph_map, graph);
    const auto colours = to_host(handle.get_graph_coloring_handle()->get_vertex_colors());
    handle.destroy_graph_coloring_handle();
    // Counting sort by colour (colours are 1-based), on the host: once per pattern.
    Ordinal num_colours = 0;
    for (Ordinal b = 0; b < nb; ++b) num_colours = std::max<Ordinal>(num_colours, colours(b));
    colour_begin_.assign(num_colours + 1, 0);
    for (Ordinal b = 0; b < nb; ++b) ++colour_begin_[colours(b)];
    for (Ordinal c = 0; c < num_colours; ++c) colour_begin_[c + 1] += colour_begin_[c];
    std::vector<Ordinal> order(nb), next(colour_begin_.begin(), colour_begin_.end() - 1);
    std::vector<Ordinal> colour(nb);
    for (Ordinal b = 0; b < nb; ++b) {
      colour[b] = colours(b) - 1;
      order[next[colour[b]]++] = b;
    }
    colour_order_ = upload_to_device("tlfea::linalg::krylov::colour_order", order);
    // The sweep's layout (BlockGaussSeidelColour), on the host once per
    // pattern: per coefficient in colour order, its rows' L blocks, then U
    // blocks; colour_from_ maps each entry to its offset in the values.
    const auto row_map = to_host(pattern_.row_map);
    const auto entries = to_host(pattern_.entries);
    std::vector<Offset> map(n_ + 1, 0), split(nb), from;
    std::vector<Ordinal> cols;
    from.reserve(pattern_.nnz());
    cols.reserve(pattern_.nnz());
    for (Ordinal p = 0; p < nb; ++p) {
      const Ordinal b = order[p];
      for (int r = 0; r < 3; ++r) {
        const Offset k = row_map(3 * b + r), len = row_map(3 * b + r + 1) - k;
        for (int part = 0; part < 2; ++part) {  // L, then U
          if (part == 1 && r == 0) split[p] = static_cast<Offset>(from.size()) - map[3 * p];
          for (Offset j = 0; j < len; j += 3) {
            const Ordinal c = entries(k + j) / 3;
            if (c != b && colour[c] == colour[b])  // the sweep would race and M lose symmetry
              throw_error(name_, ": coefficients ", b, " and ", c,
                          " couple but got one colour (sgs preconditioner)");
            if (c == b || (colour[c] < colour[b]) != (part == 0)) continue;
            for (int q = 0; q < 3; ++q) {
              from.push_back(k + j + q);
              cols.push_back(entries(k + j + q));
            }
          }
        }
        map[3 * p + r + 1] = static_cast<Offset>(from.size());
      }
    }
    colour_row_map_ = upload_to_device("tlfea::linalg::krylov::colour_row_map", map);
    colour_split_ = upload_to_device("tlfea::linalg::krylov::colour_split", split);
    colour_entries_ = upload_to_device("tlfea::linalg::krylov::colour_entries", cols);
    colour_from_ = upload_to_device("tlfea::linalg::krylov::colour_from", from);
    colour_values_ = Vector("tlfea::linalg::krylov::colour_values", from.size());
  }

  // The device's scalars to the host (one host synchronisation); a
  // singular preconditioner (factorize's count) and then a right-hand side
  // that is not finite are reported before anything else.
  void read_state() {
    copy_to_host(s_host_, s_);
    const long long bad = static_cast<long long>(s_host_(kBad));
    if (bad > 0 && prec_ == Preconditioner::Jacobi)
      throw_error(name_, ": ", bad,
                  " diagonal entries are zero or not finite (Jacobi preconditioner)");
    if (bad > 0)
      throw_error(name_, ": ", bad, " diagonal 3 x 3 block(s) are singular or missing (",
                  prec_ == Preconditioner::BlockJacobi ? "block-Jacobi" : "Gauss-Seidel",
                  " preconditioner); try preconditioner jacobi or none, or a direct solver");
    if (!std::isfinite(s_host_(kBb))) throw_error(name_, ": right-hand side is not finite");
  }

  // Preconditioned CG (Saad Alg. 9.1) from the current x, at most max_it
  // iterations (counted in it), then the true residual; start: r_0.r_0 /
  // b.b. The iteration's scalars never leave the device: alpha and beta are
  // read there from the reductions (CgUpdate, CgDirection), and so is the
  // stopping test (CgDecide), which freezes x, r and p at the iteration it
  // stops at. The host queues a budget of iterations predicted from the
  // solver's earlier rounds (cg_budget), then the true residual, and
  // reads the state once: where CG stopped within the budget (the common
  // case) that one read is the round's only host synchronisation. The
  // iterations queued past the stop do no vector updates (only the product
  // and the preconditioner run) and are not counted: `it` and x are those
  // of a loop that tests every iteration. Where the budget ran out first
  // (or there was no round to predict from), CG goes on with checks
  // (CheckSchedule) and reads the true residual again once stopped. Where
  // the kernels run on the host (Serial, OpenMP: each has finished when its
  // launch returns) the host sees the stop in the state at no cost and
  // queues nothing past it, but reads at the same points, so the
  // synchronisations counted on a CPU build are those of a GPU's.
  void cg(const Vector& b, const Vector& x, int max_it, Real start, int& it) {
    const Real tol2 = tol_ * tol_;
    residual(b, x);
    precondition(r_, z_);
    device_copy(p_, z_);
    int rz = kRz, rz_next = kRz + 1;
    reduce_on_device("tlfea::linalg::krylov::rr", Range(0, n_), Dot{r_, r_, s_, false},
                     Kokkos::subview(s_, int(kRr0)));
    reduce_on_device("tlfea::linalg::krylov::rz", Range(0, n_), CgDecide{r_, z_, s_, -1, tol2},
                     Kokkos::subview(s_, rz));
    it = 0;
    const Real target = start > 0.0 ? tol2 / start : 1.0;
    const int budget = cg_budget(max_it, target);
    if (budget > 0) {
      while (it < budget && !stopped_on_host()) cg_iteration(x, it++, rz, rz_next, tol2);
      it = budget;
      if (cg_finish(b, x, max_it, target, it)) return;
    }
    checked_ = true;
    CheckSchedule schedule;
    if (it > 0) schedule.advance(it, s_host_(kRr0), s_host_(kRr), tol2 * s_host_(kBb));
    while (it < max_it) {
      if (!stopped_on_host()) cg_iteration(x, it, rz, rz_next, tol2);
      ++it;
      if (it < schedule.next && it < max_it) continue;
      read_state();
      if (s_host_(kStop) >= 0.0) break;
      schedule.advance(it, s_host_(kRr0), s_host_(kRr), tol2 * s_host_(kBb));
    }
    cg_finish(b, x, max_it, target, it);
  }

  // A host execution space's state is host memory, current after each
  // launch: there the host sees CG's stop without a synchronisation.
  bool stopped_on_host() const {
    constexpr bool kernels_on_host =
        std::is_same<typename ExecSpace::memory_space, Kokkos::HostSpace>::value;
    return kernels_on_host && s_.data()[kStop] >= 0.0;
  }

  // Queues CG iteration `it` (0-based; Saad Alg. 9.1, lines 3-8): no host
  // synchronisation, and no vector update once CG has stopped.
  void cg_iteration(const Vector& x, int it, int& rz, int& rz_next, Real tol2) {
    KokkosSparse::spmv("N", 1.0, matrix_, p_, 0.0, w_);
    reduce_on_device("tlfea::linalg::krylov::pAp", Range(0, n_), Dot{p_, w_, s_, true},
                     Kokkos::subview(s_, int(kPw)));
    reduce_on_device("tlfea::linalg::krylov::cg_update", Range(0, n_),
                     CgUpdate{x, r_, p_, w_, s_, rz}, Kokkos::subview(s_, int(kRr)));
    precondition(r_, z_);
    reduce_on_device("tlfea::linalg::krylov::rz", Range(0, n_), CgDecide{r_, z_, s_, it, tol2},
                     Kokkos::subview(s_, rz_next));
    Kokkos::parallel_for("tlfea::linalg::krylov::cg_direction", Range(0, n_),
                         CgDirection{z_, p_, s_, rz, rz_next});
    std::swap(rz, rz_next);
  }

  // The true residual and the state in one read after `it` queued
  // iterations. True where the round is over: CG stopped (it = its stop;
  // a breakdown throws, naming its iteration) or ran out of iterations;
  // false where the budget ran out first. A converged stop is a sample the
  // next budgets are predicted from (cg_budget).
  bool cg_finish(const Vector& b, const Vector& x, int max_it, Real target, int& it) {
    true_residual(b, x);
    read_state();
    const Real stop = s_host_(kStop);
    if (!(stop >= 0.0)) return it >= max_it;
    it = static_cast<int>(stop);
    if (s_host_(kReason) == kBreakdown)
      throw_error(name_, ": p^T A p = ", s_host_(kPwBad), " <= 0 at iteration ", it,
                  " (the matrix is not positive definite; use kk-gmres or a direct solver)");
    cg_samples_[cg_next_] = CgSample{target, it};
    cg_next_ = (cg_next_ + 1) % kSamples;
    cg_count_ = std::min(cg_count_ + 1, kSamples);
    return true;
  }

  // The iterations a round queues before its first read, predicted from
  // the last kSamples converged rounds of this solver (the Newton
  // iterations' matrices change little from one to the next), each kept as
  // its target reduction of r.r (tol^2 b.b / r_0.r_0) and its iterations.
  // Where rounds reached the same or a smaller target: the most iterations
  // among those whose target is within a factor 2 of the largest such
  // target, plus kBudgetMargin (the right-hand sides of one matrix need
  // from 3 to 30 iterations to one target on B1). Else the tightest round's
  // mean rate of log(r.r) per iteration, extrapolated to the target, times
  // kRateFactor plus the margin (CG's residual can stall between targets).
  // At most max_it; 0 (check from the start, CheckSchedule) with no round
  // yet or with LinearSolverOptions::cg_budget false. An iteration queued past the stop costs a
  // product and a preconditioner application on a GPU (no vector updates); a budget that runs out
  // before the stop costs the checks that follow.
  int cg_budget(int max_it, Real target) const {
    if (!options_.cg_budget) return 0;  // LinearSolverOptions::cg_budget: checks only
    double near = -1.0, tight = 2.0;
    int tight_it = 0;
    for (int k = 0; k < cg_count_; ++k) {
      const CgSample& c = cg_samples_[k];
      if (c.target <= target) near = std::max(near, c.target);
      if (c.target < tight) {
        tight = c.target;
        tight_it = c.iterations;
      }
    }
    double budget = 0.0;
    if (near >= 0.0) {
      int most = 0;
      for (int k = 0; k < cg_count_; ++k) {
        const CgSample& c = cg_samples_[k];
        if (c.target <= near && c.target >= 0.5 * near) most = std::max(most, c.iterations);
      }
      budget = most + kBudgetMargin;
    } else if (cg_count_ > 0) {
      if (!(tight_it > 0 && tight > 0.0 && tight < 1.0 && target > 0.0)) return 0;
      const double rate = std::log(tight) / tight_it;
      budget = std::ceil(kRateFactor * std::log(target) / rate) + kBudgetMargin;
    }
    return static_cast<int>(std::min<double>(max_it, budget));
  }
  struct CgSample {
    double target = 1.0;
    int iterations = 0;
  };
  static constexpr int kSamples = 16;
  static constexpr double kRateFactor = 1.5;
  static constexpr int kBudgetMargin = 4;

  // When CG's host checks its state. A check is one host synchronisation
  // (on a GPU the device idles while the host reads and queues again); an
  // iteration queued past the stop costs a product and a preconditioner
  // application, about as much on a GPU (both are launch-bound there).
  // The first check follows iteration 1 (|b|'s check, and problems that
  // stop at once); the next aims at the iteration where |r|^2 meets
  // tol^2 |b|^2 if it keeps falling at its rate since the last check, but
  // at most doubles the iterations so far (the Newton solves stop at a
  // loose forcing tolerance where the CG residual, which need not fall
  // monotonically, often wanders); with no fall to extrapolate, it doubles
  // them. Gaps are at most kMaxGap. A prediction that finds no stop doubles
  // the smallest gap (1, 2, 4, 8, 16). So a round of N iterations checks at
  // most 1 + 4 + 4 + 1 + N / kMaxGap times: the first, at most four checks
  // that doubled the iterations below kMaxGap, four missed predictions
  // below it, the one that finds the stop, and one per full gap; and it
  // queues fewer than kMaxGap iterations past the stop.
  struct CheckSchedule {
    static constexpr int kMaxGap = 16;
    int next = 1, min_gap = 1, last = 0;
    Real last_rr = -1.0;  // r.r at the last check (< 0: none yet)
    bool predicted = false;
    void advance(int it, Real rr0, Real rr, Real threshold) {
      if (predicted) min_gap = std::min(kMaxGap, 2 * min_gap);
      if (last_rr < 0.0) last_rr = rr0;
      // log(r.r) per iteration over the last gap, if r.r fell there.
      double rate = 0.0;
      if (rr > 0.0 && last_rr > rr) rate = std::log(rr / last_rr) / (it - last);
      // Iterations to the tolerance at that rate (none: past the cap).
      double remaining = 2.0 * kMaxGap;
      if (rate < 0.0 && threshold > 0.0)
        remaining = std::min<double>(remaining, std::ceil(std::log(threshold / rr) / rate));
      const int cap = std::min(kMaxGap, std::max(min_gap, it));
      predicted = remaining <= cap;
      const int gap = predicted ? std::max(min_gap, std::max(1, static_cast<int>(remaining))) : cap;
      next = it + std::min(gap, cap);
      last = it;
      last_rr = rr;
    }
  };

  // GMRES(m), right preconditioned (Saad Alg. 9.5), restarted from the
  // current x, at most max_it iterations (counted in it).
  void gmres(const Vector& b, const Vector& x, Real bnorm, int max_it, int& it) {
    const int m = restart_;
    // The small least-squares system lives on the host, sized in analyze().
    std::vector<Real>&H = hess_, &cs = cs_, &sn = sn_, &g = g_, &y = y_;
    auto Hij = [&](int i, int j) -> Real& { return H[i + (m + 1) * j]; };
    Real rel = 1.0;
    it = 0;
    while (it < max_it) {
      residual(b, x);
      const Real beta = KokkosBlas::nrm2(r_);
      rel = beta / bnorm;
      if (!(rel > tol_)) break;
      auto v0 = Kokkos::subview(basis_, Kokkos::ALL(), 0);
      KokkosBlas::axpby(1.0 / beta, r_, 0.0, v0);
      std::fill(g.begin(), g.end(), 0.0);
      g[0] = beta;
      int j = 0;
      for (; j < m && it < max_it; ++j) {
        ++it;
        precondition(Kokkos::subview(basis_, Kokkos::ALL(), j), z_);
        KokkosSparse::spmv("N", 1.0, matrix_, z_, 0.0, w_);
        // Classical Gram-Schmidt twice: h = V^T w, w -= V h, then
        // h += h2 = V^T w, w -= V h2; h and |w|^2 (in h(j + 1)) reach the
        // host in one read per step.
        const auto V = Kokkos::subview(basis_, Kokkos::ALL(), Kokkos::make_pair(0, j + 1));
        const auto hj = Kokkos::subview(h_, Kokkos::make_pair(0, j + 1));
        const auto h2j = Kokkos::subview(h2_, Kokkos::make_pair(0, j + 1));
        KokkosBlas::gemv("T", 1.0, V, w_, 0.0, hj);
        KokkosBlas::gemv("N", -1.0, V, hj, 1.0, w_);
        KokkosBlas::gemv("T", 1.0, V, w_, 0.0, h2j);
        KokkosBlas::gemv("N", -1.0, V, h2j, 1.0, w_);
        KokkosBlas::axpby(1.0, h2j, 1.0, hj);
        reduce_on_device("tlfea::linalg::krylov::ww", Range(0, n_), Dot{w_, w_, s_, false},
                         Kokkos::subview(h_, j + 1));
        copy_to_host(h_host_, h_);
        for (int i = 0; i <= j; ++i) Hij(i, j) = h_host_(i);
        const Real hnext = std::sqrt(h_host_(j + 1));
        Hij(j + 1, j) = hnext;
        if (hnext > 0.0)
          KokkosBlas::axpby(1.0 / hnext, w_, 0.0, Kokkos::subview(basis_, Kokkos::ALL(), j + 1));
        // Apply the previous rotations, then a new one to zero H(j+1, j).
        for (int i = 0; i < j; ++i) {
          const Real t = cs[i] * Hij(i, j) + sn[i] * Hij(i + 1, j);
          Hij(i + 1, j) = -sn[i] * Hij(i, j) + cs[i] * Hij(i + 1, j);
          Hij(i, j) = t;
        }
        const Real den = std::hypot(Hij(j, j), Hij(j + 1, j));
        if (!(den > 0.0)) throw_error(name_, ": breakdown at iteration ", it, " (singular matrix)");
        cs[j] = Hij(j, j) / den;
        sn[j] = Hij(j + 1, j) / den;
        Hij(j, j) = den;
        Hij(j + 1, j) = 0.0;
        g[j + 1] = -sn[j] * g[j];
        g[j] = cs[j] * g[j];
        rel = std::fabs(g[j + 1]) / bnorm;
        if (!(rel > tol_) || !(hnext > 0.0)) {
          ++j;
          break;
        }
      }
      // y = H(0:j, 0:j)^-1 g, then x += M^-1 V y.
      for (int i = j - 1; i >= 0; --i) {
        Real s = g[i];
        for (int k = i + 1; k < j; ++k) s -= Hij(i, k) * y[k];
        y[i] = s / Hij(i, i);
      }
      for (int i = 0; i < j; ++i) h_host_(i) = y[i];
      copy_to_device(h_, h_host_);
      KokkosBlas::gemv("N", 1.0, Kokkos::subview(basis_, Kokkos::ALL(), Kokkos::make_pair(0, j)),
                       Kokkos::subview(h_, Kokkos::make_pair(0, j)), 0.0, w_);
      precondition(w_, z_);
      KokkosBlas::axpby(1.0, z_, 1.0, x);
      if (!(rel > tol_)) break;
    }
  }

  LinearSolverOptions options_;
  Method method_;
  Preconditioner prec_ = Preconditioner::BlockJacobi;
  std::string name_;
  CrsPattern pattern_;
  Ordinal n_ = 0;
  int restart_ = 0;
  int limit_ = 0;         // iterations per solve: krylov_iteration_limit
  double forcing_ = 0.0;  // the Newton forcing term (0: none)
  Real tol_ = 0.0;        // the tolerance of the current solve
  // The last converged CG rounds, from which a round predicts its
  // iterations (cg_budget): a ring of cg_count_ samples, the next at cg_next_.
  CgSample cg_samples_[kSamples];
  int cg_count_ = 0, cg_next_ = 0;
  bool checked_ = false;  // this solve's CG went on with checks (checked_solves)
  // GMRES: Hessenberg matrix, Givens rotations, rhs and coefficients (host).
  std::vector<Real> hess_, cs_, sn_, g_, y_;
  bool analyzed_ = false, factored_ = false;
  DeviceView<Offset*> diag_;
  Vector values_, diag_inv_, r_, z_, p_, w_, h_, h2_;
  Vector::HostMirror h_host_;
  // The scalars CG keeps on the device and the norms the host reads (Slot).
  State s_;
  State::HostMirror s_host_;
  DeviceView<Ordinal> bad_;  // factorize's count of singular blocks, to s_(kBad)
  Kokkos::View<Real* [9], Kokkos::LayoutRight, DeviceType> block_inv_;
  Basis basis_;
  SparseMatrix matrix_;
  // sgs: coefficients sorted by colour; colour c is
  // colour_order_(colour_begin_[c] .. colour_begin_[c + 1] - 1).
  DeviceView<Ordinal*> colour_order_;
  // sgs: the off-diagonal blocks in the sweep's layout (BlockGaussSeidelColour).
  DeviceView<Offset*> colour_row_map_, colour_split_, colour_from_;
  DeviceView<Ordinal*> colour_entries_;
  Vector colour_values_;
  std::vector<Ordinal> colour_begin_;
  // ilu0: Kokkos Kernels' handles (spiluk; sptrsv for L and for U), the
  // factors L (unit lower) and U, and the intermediate L^-1 x.
  std::unique_ptr<KernelHandle> ilu_, lower_, upper_;
  DeviceView<Offset*> ilu_a_row_map_, lower_row_map_, upper_row_map_;
  DeviceView<Ordinal*> ilu_a_entries_, lower_entries_, upper_entries_;
  Vector lower_values_, upper_values_, ilu_t_;
  // coarse rigid-body: the second level (krylov_two_level.hpp).
  std::unique_ptr<RigidBodyCoarseSpace> coarse_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_kk_cg(const LinearSolverOptions& options) {
  return std::make_unique<KrylovSolver>(options, Method::CG);
}

std::unique_ptr<LinearSolver> make_kk_gmres(const LinearSolverOptions& options) {
  return std::make_unique<KrylovSolver>(options, Method::GMRES);
}

}  // namespace tlfea::detail
