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
#include <algorithm>
#include <chrono>
#include <cmath>

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

}  // namespace

bool TimeStepper::krylov_correction(Real h, Real t1, Real tol, StepReport& rep) {
  // On entry g_ = -g(v_base_) (the right-hand side), gt_ = g(v_base_), vt_ = v_base_.
  const int m = static_cast<int>(krylov_z_.size());
  device_copy(krylov_g_, gt_);
  const Real beta = std::sqrt(dot(g_, g_));
  if (!(beta > 0) || !std::isfinite(beta)) return false;
  // qt_ = q_n + h v_base_ (the last residual() call was at v_base_).
  const Real eps0 = std::sqrt(2.220446049250313e-16) * std::sqrt(dot(qt_, qt_)) / h;
  if (!(eps0 > 0) || !std::isfinite(eps0)) return false;
  lincomb(krylov_v_[0], 1.0 / beta, g_, 0.0, g_);
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
      solver_->solve(flat(krylov_v_[j]), flat(krylov_z_[j]));
    }
    if (s_.timing_fences) fence("tlfea::integrators::krylov_solve_timing");
    rep.solve_s += now() - ts;
    const Real zn = std::sqrt(dot(krylov_z_[j], krylov_z_[j]));
    if (!(zn > 0) || !std::isfinite(zn)) break;
    const Real eps = eps0 / zn;
    lincomb(vt_, 1.0, v_base_, eps, krylov_z_[j]);
    residual(h, t1);
    lincomb(krylov_w_, 1.0 / eps, gt_, -1.0 / eps, krylov_g_);
    ++rep.krylov_iterations;
    // Arnoldi (modified Gram-Schmidt).
    for (int i = 0; i <= j; ++i) {
      H[i][j] = dot(krylov_w_, krylov_v_[i]);
      lincomb(krylov_w_, 1.0, krylov_w_, -H[i][j], krylov_v_[i]);
    }
    const Real hn = std::sqrt(dot(krylov_w_, krylov_w_));
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
    lincomb(krylov_v_[j + 1], 1.0 / hn, krylov_w_, 0.0, krylov_w_);
  }
  // Back to the base point (residual() at the update recomputes g there).
  device_copy(vt_, v_base_);
  device_copy(gt_, krylov_g_);
  if (!ok || k == 0) return false;
  // y = R^-1 e (R: the rotated Hessenberg's upper triangle); dv = sum y_i z_i.
  Real y[kMax] = {};
  for (int i = k - 1; i >= 0; --i) {
    Real s = e[i];
    for (int l = i + 1; l < k; ++l) s -= H[i][l] * y[l];
    y[i] = s / H[i][i];
  }
  fill(dv_, 0.0);
  for (int i = 0; i < k; ++i) lincomb(dv_, 1.0, dv_, y[i], krylov_z_[i]);
  return true;
}

}  // namespace tlfea
