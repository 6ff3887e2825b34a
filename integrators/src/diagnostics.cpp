// TLFEA: energies, per-body motion and joint reactions of a model's state
// (diagnostics.hpp; docs/theory.md §9.3, §9.4), as device reductions.
#include "tlfea/integrators/diagnostics.hpp"

#include <KokkosBlas1_dot.hpp>

#include "tlfea/core/error.hpp"
#include "tlfea/core/host_device.hpp"

#ifdef TLFEA_HAVE_MPI
#include <mpi.h>
#endif

namespace tlfea {
namespace {

// y_i = -h lambda_i on the rows [first, end), 0 elsewhere: C_q^T y is then
// the force -h C_q^T lambda of those rows (docs/theory.md §9.4).
struct ScaledRowMultipliers {
  DeviceView<Real*> lambda, y;
  Ordinal first, end;
  Real h;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    y(i) = (i >= first && i < end) ? -h * lambda(i) : 0.0;
  }
};

// Sums of value_count Reals: Kokkos' default array reduction (entries
// value-initialised to 0, joined by +=).
struct ArraySum {
  using value_type = Real[];
  using size_type = Ordinal;
  unsigned value_count;
};

// Sum of f over the position coefficients off + cpn i, i in [0, n / cpn).
struct PositionSum : ArraySum {
  CoefView f;
  Ordinal off;
  int cpn;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, value_type s) const {
    for (int a = 0; a < 3; ++a) s[a] += f(off + cpn * i, a);
  }
};

// The first material point P of constraint row `row` (docs/theory.md §1.6,
// §5.1): s[0..2] = x(P) = offset + sum_l w_l q(id_l), s[3] = 1 + the id of
// its first coefficient (0 when P is unused or on the ground: no coefficient).
struct FirstPointOfRow : ArraySum {
  DeviceView<Ordinal* [4]> point;
  MaterialPointSet points;
  CoefView q;
  Ordinal row;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal, value_type s) const {
    const Ordinal P = point(row, 0);
    if (P < 0) return;
    const Vec3 x = points.position(P, q);
    for (int a = 0; a < 3; ++a) s[a] += x[a];
    if (points.num_coefficients(P) > 0) s[3] += 1.0 + static_cast<Real>(points.id(points.ptr(P)));
  }
};

}  // namespace

StateMeasures::StateMeasures(Model& model, const TimeStepper* stepper) : model_(model) {
  if (stepper && stepper->partition_size() > 1) stepper_ = stepper;
  // f_g = sum_b int rho0 g s dV0 on the reference configuration (§3.6).
  CoefView fg("tlfea::integrators::gravity_load", model.num_coefficients());
  for (int b = 0; b < model.num_bodies(); ++b)
    if (const ElementBlockBase* blk = elements(b))
      blk->body_force(model.reference(), model.gravity(), fg);
  gravity_load_ = DeviceView<Real*>("tlfea::integrators::gravity_load_flat", 3 * fg.extent(0));
  device_copy(gravity_load_, DeviceView<Real*>(fg.data(), 3 * fg.extent(0)));
#ifdef TLFEA_HAVE_MPI
  if (stepper_) {  // the ranks' parts of f_g summed
    fence("tlfea::integrators::gravity_load_sum");
    auto h = to_host(gravity_load_);
    MPI_Allreduce(MPI_IN_PLACE, h.data(), static_cast<int>(h.extent(0)), MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    copy_to_device(gravity_load_, h);
  }
#endif
}

const ElementBlockBase* StateMeasures::elements(int b) const {
  return stepper_ ? stepper_->own_elements(b) : &model_.block(b);
}

Energies StateMeasures::energies(const CoefView& q, const CoefView& v, Real t) const {
  Energies e;
  e.kinetic = model_.kinetic_energy(v);
  for (int b = 0; b < model_.num_bodies(); ++b)
    if (const ElementBlockBase* blk = elements(b)) e.strain += blk->strain_energy(q);
#ifdef TLFEA_HAVE_MPI
  if (stepper_)  // the ranks' parts of the strain energy summed
    MPI_Allreduce(MPI_IN_PLACE, &e.strain, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#endif
  // Gravity g f(t): the potential of the dead load f(t) f_g is -f(t) f_g . q.
  e.gravity = -model_.gravity_factor(t) *
              KokkosBlas::dot(gravity_load_, DeviceView<Real*>(q.data(), 3 * q.extent(0)));
  e.spring = model_.force_element_energy(q);
  e.total = e.kinetic + e.strain + e.gravity + e.spring;
  return e;
}

BodyMeasures StateMeasures::body(int body, const CoefView& q, const CoefView& v, Real t) const {
  BodyMeasures r;
  r.motion = model_.body_motion(body, q, v);
  const Vec3& g = model_.gravity();
  r.gravity_potential = -model_.gravity_factor(t) * r.motion.mass * dot(g, r.motion.center_of_mass);
  return r;
}

std::vector<Vec3> constraint_force_per_body(Model& model, const TimeStepper& stepper,
                                            RowRange rows) {
  const int nb = model.num_bodies();
  std::vector<Vec3> out(nb, Vec3{{0.0, 0.0, 0.0}});
  if (!model.has_constraints()) return out;
  ConstraintSet& cs = model.constraints();
  const Ordinal m = cs.num_rows();
  if (rows.first < 0 || rows.count < 0 || rows.first + rows.count > m)
    throw_error("joint_reaction_per_body: rows [", rows.first, ", ", rows.first + rows.count,
                ") outside the ", m, " constraint rows");
  DeviceView<Real*> y("tlfea::integrators::reaction_multipliers", m);
  Kokkos::parallel_for("tlfea::integrators::reaction_multipliers",
                       Kokkos::RangePolicy<ExecSpace>(0, m),
                       ScaledRowMultipliers{stepper.multipliers(), y, rows.first,
                                            rows.first + rows.count, stepper.settings().dt});
  CoefView f("tlfea::integrators::reaction", model.num_coefficients());
  cs.apply_jacobian_transpose(stepper.positions(), stepper.time(), y, f);
  for (int b = 0; b < nb; ++b) {
    const int cpn = model.mesh(b).coefficients_per_node();
    const Ordinal n = model.mesh(b).num_coefficients() / cpn;
    Real s[3] = {0.0, 0.0, 0.0};
    Kokkos::parallel_reduce("tlfea::integrators::reaction_per_body",
                            Kokkos::RangePolicy<ExecSpace>(0, n),
                            PositionSum{{3}, f, model.coefficient_offset(b), cpn}, s);
    out[b] = Vec3{{s[0], s[1], s[2]}};
  }
  return out;
}

JointReaction joint_reaction(Model& model, const TimeStepper& stepper, RowRange rows) {
  JointReaction r;
  r.per_body = constraint_force_per_body(model, stepper, rows);
  const int nb = model.num_bodies();
  r.body = -1;
  if (rows.count > 0) {
    const ConstraintData& cd = model.constraints().data();
    Real s[4] = {0.0, 0.0, 0.0, 0.0};
    Kokkos::parallel_reduce(
        "tlfea::integrators::joint_location", Kokkos::RangePolicy<ExecSpace>(0, 1),
        FirstPointOfRow{{4}, cd.point, cd.points, stepper.positions(), rows.first}, s);
    r.location = Vec3{{s[0], s[1], s[2]}};
    const Ordinal id = static_cast<Ordinal>(s[3]) - 1;
    if (id >= 0)
      for (int b = 0; b < nb; ++b)
        if (id >= model.coefficient_offset(b) &&
            id < model.coefficient_offset(b) + model.mesh(b).num_coefficients())
          r.body = b;
  }
  if (r.body < 0) {  // the first point is on the ground: the body with the largest force
    Real best = -1.0;
    for (int b = 0; b < nb; ++b) {
      const Real n2 = dot(r.per_body[b], r.per_body[b]);
      if (n2 > best) best = n2, r.body = b;
    }
  }
  return r;
}

}  // namespace tlfea
