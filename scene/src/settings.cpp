// TLFEA scene: the time, solver and output sections (docs/scene.md), and the
// size check of the output they ask for.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "builder.hpp"
#include "tlfea/linalg/linear_solver.hpp"

namespace tlfea::scene::detail {

void Builder::parse_time(Map& top) {
  s_.settings.dt = 1e-3;
  s_.steps = 100;
  if (!top.has("time")) {
    s_.end_time = s_.steps * s_.settings.dt;
    return;
  }
  Map t(c_, top.get("time"), "time");
  const Real dt = t.num("dt", 1e-3);
  if (!(dt > 0.0))
    fail(c_, t.has("dt") ? t.node()["dt"] : t.node(),
         "time.dt must be positive, got " + Map::fmt(dt));
  s_.settings.dt = dt;
  if (t.has("steps") && t.has("end_time"))
    fail(c_, t.node()["end_time"], "time: give either steps or end_time, not both");
  if (t.has("end_time")) {
    const Real T = t.positive("end_time", 0.0);
    // Checked before rounding: lround of a huge ratio is undefined (it
    // made end_time 1e300 one step).
    if (T / dt > kMaxSteps)
      fail(c_, t.node()["end_time"],
           "time: end_time / dt = " + Map::fmt(T) + " / " + Map::fmt(dt) + " is " +
               Map::fmt(T / dt) + " steps, more than " + Map::fmt(kMaxSteps));
    s_.steps = std::max<long>(1, std::lround(T / dt));
  } else if (t.has("steps")) {
    const Real n = t.num("steps", 100);
    if (n > kMaxSteps)
      fail(c_, t.node()["steps"],
           "time.steps: " + Map::fmt(n) + " steps is more than " + Map::fmt(kMaxSteps));
    s_.steps = t.positive_int("steps", 100);
  }
  s_.end_time = s_.steps * dt;
  // time.integrator / time.rho_inf (docs/scene.md, "time"; docs/theory.md §6.12).
  s_.settings.integrator = parse_time_integrator(
      t.choice("integrator", {"backward_euler", "generalized_alpha"}, "backward_euler"));
  if (t.has("rho_inf")) {
    if (s_.settings.integrator != TimeIntegrator::generalized_alpha)
      fail(c_, t.node()["rho_inf"],
           "time.rho_inf is a parameter of time.integrator: generalized_alpha");
    const Real r = t.num("rho_inf", 0.8);
    if (!(r >= 0.0 && r <= 1.0))
      fail(c_, t.node()["rho_inf"], "time.rho_inf must be in [0, 1], got " + Map::fmt(r));
    s_.settings.rho_inf = r;
  }
  if (s_.settings.integrator == TimeIntegrator::generalized_alpha &&
      s_.settings.analysis == Analysis::static_equilibrium)
    fail(c_, t.node()["integrator"],
         "time.integrator: generalized_alpha integrates a dynamic analysis; a static analysis "
         "(analysis: static) has no inertia");
  // time.settle: D (duration [s]) or {duration: D, ramp: R, kinetic_damping:
  // B}: TimeStepper::settle before t = 0 (docs/scene.md, "time").
  if (t.has("settle")) {
    settle_given_ = true;
    const YAML::Node sn = t.get("settle");
    SettleSettings& ss = s_.settle;
    // 0 or false: no settle (nor the default one of bodies starting in
    // contact under gravity, load_scene.cpp).
    const bool off = sn.IsScalar() && (sn.Scalar() == "false" || sn.Scalar() == "0" ||
                                       sn.Scalar() == "0.0" || sn.Scalar() == "off");
    if (off) {
      ss.duration = 0.0;
    } else if (sn.IsMap()) {
      Map sm(c_, sn, "time.settle");
      ss.duration = sm.positive_req("duration");
      if (sm.has("ramp")) {
        ss.ramp = sm.nonnegative("ramp", 0.0);
        // The last quarter holds the full load without kinetic damping.
        if (ss.ramp > 0.75 * ss.duration)
          fail(c_, sm.node()["ramp"],
               "time.settle.ramp (" + Map::fmt(ss.ramp) +
                   " s) must be at most 3/4 of its duration (" + Map::fmt(ss.duration) +
                   " s): the last quarter holds the full load");
      }
      ss.kinetic_damping = sm.boolean("kinetic_damping", true);
      sm.done();
    } else {
      ss.duration = t.positive("settle", 0.0);
    }
    if (!off && ss.duration / dt > kMaxSteps)
      fail(c_, sn,
           "time.settle: duration / dt = " + Map::fmt(ss.duration) + " / " + Map::fmt(dt) +
               " is more than " + Map::fmt(kMaxSteps) + " steps");
    if (!off && s_.settings.analysis == Analysis::static_equilibrium)
      fail(c_, sn,
           "time.settle: a static analysis (analysis: static) solves for equilibrium itself; "
           "settle is for a dynamic analysis");
  }
  t.done();
}

void Builder::parse_solver(Map& top) {
  StepperSettings& st = s_.settings;
  if (!top.has("solver")) return;
  Map m(c_, top.get("solver"), "solver");
  st.inner_solver = parse_inner_solver(m.choice("inner", {"newton", "adamw"}, "newton"));
  if (m.has("linear_solver")) {
    const std::vector<std::string> avail = available_linear_solvers();
    const std::string name = m.str("linear_solver", "default");
    if (std::find(avail.begin(), avail.end(), name) == avail.end())
      fail(c_, m.node()["linear_solver"],
           "solver.linear_solver: unknown name '" + name + "' (built: " + Map::join(avail) + ")");
    st.linear.backend = name;
  }
  st.linear.tolerance = m.positive("linear_tolerance", st.linear.tolerance);
  // Absent: 0, the automatic limit (LinearSolverOptions::max_iterations).
  if (m.has("linear_max_iterations"))
    st.linear.max_iterations =
        static_cast<int>(m.positive_int("linear_max_iterations", st.linear.max_iterations));
  st.linear.preconditioner =
      m.choice("preconditioner",
               {"default", "none", "jacobi", "block-jacobi", "sgs", "ilu0", "ilu", "muelu"},
               st.linear.preconditioner);
  st.linear.ilu_level = static_cast<int>(m.integer("ilu_level", st.linear.ilu_level));
  if (st.linear.ilu_level < 0)
    fail(c_, m.node()["ilu_level"],
         "solver.ilu_level must be >= 0, got " + std::to_string(st.linear.ilu_level));
  st.linear.coarse = m.choice("coarse", {"none", "rigid-body"}, st.linear.coarse);
  if (m.has("coarse_aggregate_size")) {
    const long size = m.integer("coarse_aggregate_size", 0);
    if (size != 0 && (size < 4 || size > 1000000000))
      fail(c_, m.node()["coarse_aggregate_size"],
           "solver.coarse_aggregate_size must be 0 (automatic) or 4 to 1000000000 nodes, got " +
               std::to_string(size));
    st.linear.coarse_aggregate_size = static_cast<int>(size);
  }
  if (st.linear.coarse != "none" && st.linear.backend != "kk-cg" && st.linear.backend != "kk-gmres")
    fail(c_, m.node()["coarse"],
         "solver.coarse: " + st.linear.coarse + " needs linear_solver kk-cg or kk-gmres, got " +
             st.linear.backend);
  st.linear.symmetric = m.boolean("symmetric", st.linear.symmetric);
  st.linear.cg_budget = m.boolean("cg_budget", st.linear.cg_budget);
  st.linear.ordering = m.choice("ordering", {"default", "nd", "amd"}, st.linear.ordering);
  st.partition = parse_partition_method(
      m.choice("partition", available_partitions(), partition_method_name(st.partition)));
  st.linear.positive_definite = m.boolean("positive_definite", st.linear.positive_definite);
  st.penalty = m.num("rho", st.penalty);
  if (st.penalty < 0.0) fail(c_, m.node()["rho"], "solver.rho must be >= 0 (0: automatic)");
  st.penalty_scale = m.positive("penalty_scale", st.penalty_scale);
  st.max_outer = static_cast<int>(m.positive_int("max_outer", st.max_outer));
  st.constraint_tolerance = m.positive("constraint_tolerance", st.constraint_tolerance);
  st.max_newton = static_cast<int>(m.positive_int("max_newton", st.max_newton));
  using S = StepperSettings;
  for (const auto& [k, field] : {std::pair{"residual_force_tol", &S::residual_force_tol},
                                 {"residual_rel_tol", &S::residual_rel_tol},
                                 {"residual_abs_tol", &S::residual_abs_tol},
                                 {"step_tol", &S::step_tol},
                                 {"position_tol", &S::position_tol}})
    st.*field = m.nonnegative(k, st.*field);
  for (const auto& [k, field] : {std::pair{"dp1_curvature", &S::dp1_curvature},
                                 {"line_search", &S::line_search},
                                 {"reuse_jacobian", &S::reuse_jacobian},
                                 {"timing_fences", &S::timing_fences}})
    st.*field = m.boolean(k, st.*field);
  st.reuse_ratio = m.positive("reuse_ratio", st.reuse_ratio);
  st.krylov_iterations = static_cast<int>(m.integer("krylov_iterations", st.krylov_iterations));
  if (st.krylov_iterations < 0 || st.krylov_iterations > kMaxKrylovIterations)
    fail(c_, m.node()["krylov_iterations"],
         "solver.krylov_iterations must be in 0.." + std::to_string(kMaxKrylovIterations) +
             " (0: refactor at once), got " + std::to_string(st.krylov_iterations));
  st.krylov_factor_age =
      static_cast<int>(m.positive_int("krylov_factor_age", st.krylov_factor_age));
  st.max_retries = static_cast<int>(m.integer("max_retries", st.max_retries));
  st.adamw_learning_rate = m.positive("adamw_learning_rate", st.adamw_learning_rate);
  st.adamw_beta1 = m.num("adamw_beta1", st.adamw_beta1);
  st.adamw_beta2 = m.num("adamw_beta2", st.adamw_beta2);
  st.adamw_epsilon = m.positive("adamw_epsilon", st.adamw_epsilon);
  st.adamw_weight_decay = m.num("adamw_weight_decay", st.adamw_weight_decay);
  st.adamw_lr_decay = m.positive("adamw_lr_decay", st.adamw_lr_decay);
  for (const auto& [k, field] : {std::pair{"adamw_max_iterations", &S::adamw_max_iterations},
                                 {"adamw_check_every", &S::adamw_check_every}})
    st.*field = static_cast<int>(m.positive_int(k, st.*field));
  m.done();
  // The linear solver the stepper will make (TimeStepper's setup), made
  // here so that `check` refuses every combination `run` would (e.g.
  // belos-cg with symmetric: false), at the key that chose it.
  LinearSolverOptions lo = st.linear;
  if (st.dp1_curvature) lo.positive_definite = false;
  try {
    make_linear_solver(lo);
  } catch (const Error& e) {
    const std::string msg = e.what();
    const char* key = msg.find("symmetric") != std::string::npos && m.has("symmetric") ? "symmetric"
                      : m.has("linear_solver") ? "linear_solver"
                                               : nullptr;
    fail(c_, key ? m.node()[key] : m.node(),
         std::string("solver") + (key ? "." : "") + (key ? key : "") + ": " + msg);
  }
}

// ANCF bodies are written as samples^d visualisation points per element
// (io/src/visualisation_mesh.cpp: beams samples x 2 x 2, plates samples x samples x 2),
// each holding its shape-function weights (a 4-byte id and an 8-byte
// weight per element coefficient), its reference position, an offset and
// the 8 ids of at most one cell: refused when they would not fit.
// Also estimates the bytes of one output step's fields (x, displacement,
// velocity: 3 doubles each per point; stress and von Mises: 7 per
// quadratic element) for the size warning of `tlfea run`.
void Builder::check_output_size() {
  if (!s_.output.enabled) return;
  const double ns = std::max(2, s_.output.samples);
  const double per_point = 3.0 * sizeof(Real) * (1 + s_.output.displacement + s_.output.velocity);
  double points = 0.0, bytes = 0.0, step_bytes = 0.0;
  for (const auto& b : bodies_) {
    const bool beam = b.mesh.type == ElementType::ANCF3243;
    if (!beam && b.mesh.type != ElementType::ANCF3443) {
      step_bytes += static_cast<double>(b.mesh.num_nodes()) * per_point +
                    (s_.output.stress ? 7.0 * sizeof(Real) * b.mesh.num_elements() : 0.0);
      continue;
    }
    const double p = static_cast<double>(b.mesh.num_elements()) * (beam ? 4 * ns : 2 * ns * ns);
    const double coefficients = beam ? 8 : 16;
    points += p;
    step_bytes += p * per_point;
    bytes += p * (coefficients * (sizeof(Ordinal) + sizeof(Real)) + 3 * sizeof(Real) +
                  sizeof(Ordinal) + 8 * sizeof(Ordinal));
  }
  s_.output.step_bytes = step_bytes;
  if (points == 0.0 || !samples_node_.IsDefined()) return;
  if (points > kMaxVisualisationPoints) {
    std::ostringstream os;
    os.precision(12);
    os << "output.samples: " << points << " visualisation points per output step, more than "
       << "the limit of 1e8 (" << gigabytes(points * per_point) << " per step file); refused";
    fail(c_, samples_node_, os.str());
  }
  if (points > static_cast<double>(std::numeric_limits<Ordinal>::max())) {
    std::ostringstream os;
    os.precision(3);
    os << "output.samples: " << points << " visualisation points, more than the index type holds ("
       << std::numeric_limits<Ordinal>::max() << ")";
    fail(c_, samples_node_, os.str());
  }
  require_memory(c_, samples_node_, "output.samples", points, bytes / points,
                 "visualisation points");
}

void Builder::parse_output(Map& top) {
  SceneOutput& o = s_.output;
  o.directory = "tlfea_out/" + s_.name;
  if (!top.has("output")) return;
  Map m(c_, top.get("output"), "output");
  o.enabled = m.boolean("enabled", true);
  o.directory = m.str("directory", o.directory);
  o.every = static_cast<int>(m.positive_int("every", 1));
  o.samples = static_cast<int>(m.integer("samples", 3));
  if (m.has("samples")) samples_node_ = m.node()["samples"];
  if (o.samples < 2) fail(c_, m.node()["samples"], "output.samples must be >= 2");
  if (m.has("fields")) {
    const YAML::Node f = m.get("fields");
    if (!f.IsSequence()) fail(c_, f, "output.fields: expected a list of field names");
    o.displacement = o.velocity = o.stress = o.reactions = o.contact = false;
    for (size_t i = 0; i < f.size(); ++i) {
      const std::string n = to_string(c_, f[i], "output.fields");
      if (n == "displacement")
        o.displacement = true;
      else if (n == "velocity")
        o.velocity = true;
      else if (n == "stress")
        o.stress = true;
      else if (n == "reactions")
        o.reactions = true;
      else if (n == "contact")
        o.contact = true;
      else
        fail(c_, f[i],
             "output.fields: unknown name '" + n +
                 "' (expected one of: displacement, velocity, stress, reactions, contact)");
    }
  }
  m.done();
}

}  // namespace tlfea::scene::detail
