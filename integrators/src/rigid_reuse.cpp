// TLFEA: when the kept Newton factors have gone stale on rigid bodies
// (docs/theory.md §6.6, "Jacobian reuse on rigid bodies").
//
// The Newton matrix carries the Gauss-Newton penalty term h^2 rho C_q^T C_q
// of the rigidity rows (§10.2), whose Jacobian with respect to the director
// r_k is r_k itself (DIST row) or the other director (DP1 rows). Factors
// assembled when r_k was r_k^f penalise motion normal to r_k^f, not to
// r_k: after a rotation by theta = |r_k - r_k^f| the free direction (the
// rotation, with only the director's inertia M_kk / h against it) carries
// a spurious stiffness h^2 rho theta^2, i.e. the relative error
//
//     e_k = h^3 rho |r_k - r_k^f|^2 / M_kk
//
// (in a generalized-alpha step, §6.12, the same expression with the step's
// penalty: against its inertia c_a M the spurious stiffness is a factor
// c_a h^2 / c_q smaller, so the test is stricter there, and the factors are
// renewed after smaller turns),
// of the kept matrix in the free direction, and a modified Newton iteration
// on it contracts |g| only by about e / (1 + e). rho = penalty_scale max M /
// h^3 (§6.4) makes e_k = penalty_scale (max M / M_kk) theta^2, 1e2 to 1e7
// times theta^2: a body turning 1e-3 rad per step has stale factors within
// the step. Before every iteration that would reuse the factors, e_k is
// evaluated at the current iterate q(v), and the matrix is refactored when
// any director's e_k exceeds kMaxStaleError. Bodies at rest keep their
// factors.
#include <vector>

#include "tlfea/core/host_device.hpp"
#include "tlfea/core/view_utils.hpp"
#include "tlfea/integrators/time_stepper.hpp"

namespace tlfea {
namespace {

// Kept factors whose rigidity penalty is off by more than this fraction of
// a director's inertia term are refactored: the modified Newton iteration
// then contracts |g| by ~1e-4 per iteration, so that a step converges in
// the iterations full Newton needs.
constexpr Real kMaxStaleError = 1e-4;

struct DirectorStaleError {
  CoefView q, qf;
  DeviceView<Ordinal*> dirs;
  DeviceView<Real*> inv_mass;
  Real scale;  // h^3 rho
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Real& e) const {
    const Ordinal k = dirs(i);
    Real d2 = 0.0;
    for (int a = 0; a < 3; ++a) {
      const Real d = q(k, a) - qf(k, a);
      d2 += d * d;
    }
    const Real ek = scale * d2 * inv_mass(i);
    if (ek > e) e = ek;
  }
};

}  // namespace

void TimeStepper::init_rigid_reuse() {
  std::vector<Ordinal> dirs;
  for (int b = 0; b < model_.num_bodies(); ++b)
    if (model_.is_rigid(b))
      for (int k = 1; k <= 3; ++k) dirs.push_back(model_.coefficient_offset(b) + k);
  if (dirs.empty()) return;
  // M_kk: the diagonal block of the scalar block mass (Model::block_mass,
  // block row c's blocks from block_row_map()(c) on).
  auto brm = host_view(model_.block_row_map());
  auto bc = host_view(model_.block_columns());
  auto mv = host_view(model_.block_mass());
  std::vector<Real> inv(dirs.size(), 0.0);
  for (size_t i = 0; i < dirs.size(); ++i) {
    const Ordinal c = dirs[i];
    for (Offset j = brm(c); j < brm(c + 1); ++j)
      if (bc(j) == c && mv(j) > 0) inv[i] = 1.0 / mv(j);
  }
  rigid_dirs_ = upload_to_device<Ordinal>("tlfea::integrators::rigid_directors", dirs);
  rigid_dir_inv_mass_ = upload_to_device<Real>("tlfea::integrators::rigid_director_inv_mass", inv);
}

// Launched by residual() at each iterate (the staleness at the iterate the
// next Newton iteration starts from), into reads_(slot), which residual()
// reads with its sums: no host synchronisation of its own. False when there
// is nothing to check.
bool TimeStepper::reduce_rigid_staleness(Real h, unsigned slot) {
  if (rigid_dirs_.extent(0) == 0 || m_ == 0 || !have_factor_) return false;
  reduce_on_device("tlfea::integrators::rigid_stale_factors",
                   Kokkos::RangePolicy<ExecSpace>(0, static_cast<Ordinal>(rigid_dirs_.extent(0))),
                   DirectorStaleError{qt_, factor_q_, rigid_dirs_, rigid_dir_inv_mass_,
                                      h * h * h * step_penalty()},
                   Kokkos::Max<Real, MemSpace>(Kokkos::subview(reads_, slot)));
  return true;
}

bool TimeStepper::rigid_factors_stale(Real h) const {
  if (rigid_dirs_.extent(0) == 0 || m_ == 0 || !have_factor_) return false;
  if (rigid_stale_valid_) return rigid_stale_error_ > kMaxStaleError;
  Real e = 0.0;  // not reduced by the last residual(): here, read at once
  Kokkos::parallel_reduce(
      "tlfea::integrators::rigid_stale_factors",
      Kokkos::RangePolicy<ExecSpace>(0, static_cast<Ordinal>(rigid_dirs_.extent(0))),
      DirectorStaleError{qt_, factor_q_, rigid_dirs_, rigid_dir_inv_mass_,
                         h * h * h * step_penalty()},
      Kokkos::Max<Real>(e));
  return e > kMaxStaleError;
}

}  // namespace tlfea
