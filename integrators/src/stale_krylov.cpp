// TLFEA: GMRES correction of a Newton iteration that stalls on kept
// (stale) factors (docs/theory.md §6.6; TimeStepper::krylov_correction).
//
// With Jacobian reuse the Newton iteration solves P dv = -g with the factors
// P of an earlier Jacobian. When P no longer contracts |g| (a thin plate
// whose stiff membrane directions turn as it swings: the iteration on P
// overshoots a soft rotation-like mode of the current Jacobian J by a factor
// ~2, which the linear model barely sees and the nonlinear residual does),
// the step used to refactor. Here it first solves J dv = -g by GMRES
// (Saad & Schultz 1986) with P as right preconditioner:
//   J P^-1 u = -g,  dv = P^-1 u,
// the products J z by a forward difference of the residual (Knoll & Keyes,
// J. Comput. Phys. 193, 2004, §2.2),
//   J z ~ (g(v + eps z) - g(v)) / eps,  eps = sqrt(2^-52) |q| / (h |z|),
// so that the positions q = q_n + h v move by sqrt(2^-52) |q|: the
// difference is taken in the variable g is nonlinear in, at the square root
// of its round-off, and eps is the same in any consistent units (a velocity
// scale such as Knoll & Keyes's 1 + |v| is not).
// Arnoldi by modified Gram-Schmidt, the least-squares problem by Givens
// rotations. It stops when the estimate |J dv + g| (the rotated right-hand
// side's last entry) is at most `tol`, and reports failure after
// krylov_iterations products (then the caller refactors). A product costs a
// residual evaluation and a solve with P; no matrix is assembled.
//
// Kokkos: vector operations are device loops and reductions; the Hessenberg
// matrix (at most 51 x 50) lives on the host.
//
// Several MPI ranks (distribution.hpp): the m + 1 basis vectors v_j, the m
// preconditioned z_j and the scratch w hold only the coefficients this rank
// owns (each coefficient owned by one rank), so the basis is split, not
// replicated. A dot product of two such vectors is the rank's partial sum
// added over the ranks in rank order (Distribution::sum_scalar), the same
// bits on every rank, so every rank builds the same H and takes the same
// decisions. Whole vectors are made where one is needed: the right-hand
// side of a solve with P (v_j's rows gathered from their owners), its
// solution z_j (which the solver returns whole on every rank: |z_j| and
// v + eps z_j come from it before its owned rows are kept), and dv at the
// end. g(v_base) is not copied: it is -g_, which the iteration leaves
// alone. Each rank's owned rows of J z_j, and hence the basis, equal the
// one-rank run's to round-off (the dot products add in another order).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "distribution.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

using Range = Kokkos::RangePolicy<ExecSpace>;

// out = a x + b y.
struct LinComb {
  CoefView out, x, y;
  Real a, b;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) out(k, c) = a * x(k, c) + b * y(k, c);
  }
};

// The coefficients `owned` of whole vectors: out(i) = a x(owned(i)) + b y(owned(i)).
struct PackLinComb {
  CoefView out, x, y;
  DeviceView<Ordinal*> owned;
  Real a, b;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Ordinal k = owned(i);
    for (int c = 0; c < 3; ++c) out(i, c) = a * x(k, c) + b * y(k, c);
  }
};

// A whole vector's coefficients `owned` from a split one: out(owned(i)) = x(i).
struct Unpack {
  CoefView out, x;
  DeviceView<Ordinal*> owned;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Ordinal k = owned(i);
    for (int c = 0; c < 3; ++c) out(k, c) = x(i, c);
  }
};

// out = -x (exact).
struct NegateInto {
  CoefView out, x;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    for (int c = 0; c < 3; ++c) out(k, c) = -x(k, c);
  }
};

Real dot(const CoefView& x, const CoefView& y) {
  Real s = 0.0;
  Kokkos::parallel_reduce("tlfea::integrators::krylov_dot", Range(0, x.extent(0)), CoefDot{x, y},
                          s);
  return s;
}

void lincomb(const CoefView& out, Real a, const CoefView& x, Real b, const CoefView& y) {
  Kokkos::parallel_for("tlfea::integrators::krylov_lincomb", Range(0, out.extent(0)),
                       LinComb{out, x, y, a, b});
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The basis stored whole (one rank). g: -g(v_base), gt: the residual
// evaluations' g, g_base: the copy of g(v_base), dv: the correction.
struct WholeBasis {
  const std::vector<CoefView>& v;
  const std::vector<CoefView>& z;
  CoefView w, g_base, g, gt, dv;
  void save_base() const { device_copy(g_base, gt); }
  void first(Real beta) const { lincomb(v[0], 1.0 / beta, g, 0.0, g); }
  const CoefView& solve_input(int j) const { return v[j]; }
  const CoefView& solve_output(int j) const { return z[j]; }
  void keep(int) const {}
  // w = (g(v_base + eps z_j) - g(v_base)) / eps
  void difference(Real eps) const { lincomb(w, 1.0 / eps, gt, -1.0 / eps, g_base); }
  Real dot_w(int i) const { return dot(w, v[i]); }
  void subtract(int i, Real hij) const { lincomb(w, 1.0, w, -hij, v[i]); }
  Real norm2_w() const { return dot(w, w); }
  void next(int j, Real hn) const { lincomb(v[j], 1.0 / hn, w, 0.0, w); }
  void restore_base() const { device_copy(gt, g_base); }
  void correction(const Real* y, int k) const {
    fill(dv, 0.0);
    for (int i = 0; i < k; ++i) lincomb(dv, 1.0, dv, y[i], z[i]);
  }
};

// The basis split by owned coefficients (several ranks): v, z, w of the
// rank's `owned` coefficients; in, out: whole scratch vectors.
struct SplitBasis {
  const std::vector<CoefView>& v;
  const std::vector<CoefView>& z;
  CoefView w;
  DeviceView<Ordinal*> owned;
  CoefView in, out, g, gt, dv;
  const detail::Distribution& dist;
  void pack(const CoefView& to, Real a, const CoefView& x, Real b, const CoefView& y) const {
    Kokkos::parallel_for("tlfea::integrators::krylov_pack", Range(0, owned.extent(0)),
                         PackLinComb{to, x, y, owned, a, b});
  }
  // to: the whole vector of split x, on every rank (the other ranks' rows
  // summed in: each row comes from its one owner, zeros from the others).
  void gather(const CoefView& to, const CoefView& x) const {
    fill(to, 0.0);
    Kokkos::parallel_for("tlfea::integrators::krylov_unpack", Range(0, owned.extent(0)),
                         Unpack{to, x, owned});
    dist.sum(to);
  }
  void save_base() const {}
  void first(Real beta) const { pack(v[0], 1.0 / beta, g, 0.0, g); }
  const CoefView& solve_input(int j) const {
    gather(in, v[j]);
    return in;
  }
  const CoefView& solve_output(int) const { return out; }
  void keep(int j) const { pack(z[j], 1.0, out, 0.0, out); }
  // g(v_base) = -g: (1 / eps) g equals -(1 / eps) g(v_base) exactly.
  void difference(Real eps) const { pack(w, 1.0 / eps, gt, 1.0 / eps, g); }
  Real dot_w(int i) const { return dist.sum_scalar(dot(w, v[i])); }
  void subtract(int i, Real hij) const { lincomb(w, 1.0, w, -hij, v[i]); }
  Real norm2_w() const { return dist.sum_scalar(dot(w, w)); }
  void next(int j, Real hn) const { lincomb(v[j], 1.0 / hn, w, 0.0, w); }
  void restore_base() const {
    Kokkos::parallel_for("tlfea::integrators::krylov_base", Range(0, gt.extent(0)),
                         NegateInto{gt, g});
  }
  void correction(const Real* y, int k) const {
    fill(w, 0.0);
    for (int i = 0; i < k; ++i) lincomb(w, 1.0, w, y[i], z[i]);
    gather(dv, w);
  }
};

std::size_t bytes(const CoefView& x) { return x.span() * sizeof(Real); }

}  // namespace

template <class Basis>
bool TimeStepper::krylov_gmres(Basis& basis, Real h, Real t1, Real tol, StepReport& rep) {
  // On entry g_ = -g(v_base_) (the right-hand side), gt_ = g(v_base_), vt_ = v_base_.
  const int m = krylov_m_;
  basis.save_base();
  const Real beta = std::sqrt(dot(g_, g_));
  if (!(beta > 0) || !std::isfinite(beta)) return false;
  // qt_ = q_n + h v_base_ (the last residual() call was at v_base_).
  const Real eps0 = std::sqrt(2.220446049250313e-16) * std::sqrt(dot(qt_, qt_)) / h;
  if (!(eps0 > 0) || !std::isfinite(eps0)) return false;
  basis.first(beta);
  // Host scratch of the largest allowed size (krylov_iterations <=
  // kMaxKrylovIterations, checked by the constructor): nothing is allocated
  // inside a step.
  constexpr int kMax = kMaxKrylovIterations;
  if (m > kMax) return false;
  Real H[kMax + 1][kMax] = {}, cs[kMax] = {}, sn[kMax] = {}, e[kMax + 1] = {};
  e[0] = beta;
  int k = 0;
  bool ok = false;
  for (int j = 0; j < m; ++j) {
    // z_j = P^-1 v_j; w = J z_j by a difference of g.
    const double ts = now();
    {
      SyncPhaseScope phase(SyncPhase::solve);
      solver_->solve(flat(basis.solve_input(j)), flat(basis.solve_output(j)));
    }
    if (s_.timing_fences) fence("tlfea::integrators::krylov_solve_timing");
    rep.solve_s += now() - ts;
    const CoefView& zj = basis.solve_output(j);  // whole, on every rank
    basis.keep(j);
    const Real zn = std::sqrt(dot(zj, zj));
    if (!(zn > 0) || !std::isfinite(zn)) break;
    const Real eps = eps0 / zn;
    lincomb(vt_, 1.0, v_base_, eps, zj);
    residual(h, t1);
    basis.difference(eps);
    ++rep.krylov_iterations;
    // Arnoldi (modified Gram-Schmidt).
    for (int i = 0; i <= j; ++i) {
      H[i][j] = basis.dot_w(i);
      basis.subtract(i, H[i][j]);
    }
    const Real hn = std::sqrt(basis.norm2_w());
    if (!std::isfinite(hn)) break;
    H[j + 1][j] = hn;
    // Earlier rotations on column j, then the one that zeroes H(j+1, j).
    for (int i = 0; i < j; ++i) {
      const Real a = H[i][j], b = H[i + 1][j];
      H[i][j] = cs[i] * a + sn[i] * b;
      H[i + 1][j] = -sn[i] * a + cs[i] * b;
    }
    const Real a = H[j][j], b = H[j + 1][j], rr = std::hypot(a, b);
    if (!(rr > 0)) break;
    cs[j] = a / rr;
    sn[j] = b / rr;
    H[j][j] = rr;
    H[j + 1][j] = 0.0;
    e[j + 1] = -sn[j] * e[j];
    e[j] = cs[j] * e[j];
    k = j + 1;
    if (std::abs(e[j + 1]) <= tol || hn == 0.0) {
      ok = true;
      break;
    }
    basis.next(j + 1, hn);
  }
  // Back to the base point (residual() at the update recomputes g there).
  device_copy(vt_, v_base_);
  basis.restore_base();
  if (!ok || k == 0) return false;
  // y = R^-1 e (R: the rotated Hessenberg's upper triangle); dv = sum y_i z_i.
  Real y[kMax] = {};
  for (int i = k - 1; i >= 0; --i) {
    Real s = e[i];
    for (int l = i + 1; l < k; ++l) s -= H[i][l] * y[l];
    y[i] = s / H[i][i];
  }
  basis.correction(y, k);
  return true;
}

std::size_t TimeStepper::krylov_bytes() const {
  std::size_t b = bytes(krylov_g_) + bytes(krylov_w_) + bytes(krylov_in_) + bytes(krylov_out_) +
                  krylov_owned_.span() * sizeof(Ordinal);
  for (const CoefView& x : krylov_v_) b += bytes(x);
  for (const CoefView& x : krylov_z_) b += bytes(x);
  return b;
}

bool TimeStepper::krylov_correction(Real h, Real t1, Real tol, StepReport& rep) {
  if (dist_) {
    SplitBasis basis{krylov_v_,   krylov_z_, krylov_w_, krylov_owned_, krylov_in_,
                     krylov_out_, g_,        gt_,       dv_,           *dist_};
    return krylov_gmres(basis, h, t1, tol, rep);
  }
  WholeBasis basis{krylov_v_, krylov_z_, krylov_w_, krylov_g_, g_, gt_, dv_};
  return krylov_gmres(basis, h, t1, tol, rep);
}

}  // namespace tlfea
