// TLFEA Python module: bindings of the stepper and linear-solver settings and
// of the step reports and solver statistics.

#include "py_bindings.hpp"

namespace tlfea_py {

namespace {

// Setter of a StepperSettings mode (an enum) from its name, one of two
// values; `parse` is the library's name -> enum.
template <class E>
auto one_of(E tlfea::StepperSettings::*field, const std::string& name, const std::string& a,
            const std::string& b, E (*parse)(const std::string&)) {
  return [=](tlfea::StepperSettings& s, const std::string& v) {
    if (v != a && v != b)
      fail("StepperSettings." + name + ": expected '" + a + "' or '" + b + "', got '" + v + "'");
    s.*field = parse(v);
  };
}

}  // namespace

void bind_settings(py::module_& m) {
  // --- settings and reports --------------------------------------------------
  static const std::vector<const char*> kLinearFields = {
      "backend",        "symmetric", "positive_definite", "tolerance", "max_iterations",
      "preconditioner", "ilu_level", "ordering",          "coarse",    "coarse_aggregate_size",
      "cg_budget"};
  py::class_<tlfea::LinearSolverOptions>(m, "LinearSolverOptions")
      .def(py::init([](const py::kwargs& kw) {
        auto o = std::make_unique<tlfea::LinearSolverOptions>();
        set_from_kwargs(*o, kw, "LinearSolverOptions");
        return o;
      }))
      .def_readwrite("backend", &tlfea::LinearSolverOptions::backend)
      .def_readwrite("symmetric", &tlfea::LinearSolverOptions::symmetric)
      .def_readwrite("positive_definite", &tlfea::LinearSolverOptions::positive_definite)
      .def_readwrite("tolerance", &tlfea::LinearSolverOptions::tolerance)
      .def_readwrite("max_iterations", &tlfea::LinearSolverOptions::max_iterations)
      .def_readwrite("preconditioner", &tlfea::LinearSolverOptions::preconditioner)
      .def_readwrite("ilu_level", &tlfea::LinearSolverOptions::ilu_level)
      .def_readwrite("ordering", &tlfea::LinearSolverOptions::ordering)
      .def_readwrite("coarse", &tlfea::LinearSolverOptions::coarse)
      .def_readwrite("coarse_aggregate_size", &tlfea::LinearSolverOptions::coarse_aggregate_size)
      .def_readwrite("cg_budget", &tlfea::LinearSolverOptions::cg_budget)
      .def("__repr__", [](const py::object& self) {
        return repr_fields(self, "LinearSolverOptions", kLinearFields);
      });

  static const std::vector<const char*> kSettingsFields = {"dt",
                                                           "integrator",
                                                           "rho_inf",
                                                           "penalty",
                                                           "penalty_scale",
                                                           "max_outer",
                                                           "constraint_tolerance",
                                                           "max_newton",
                                                           "residual_force_tol",
                                                           "residual_rel_tol",
                                                           "residual_abs_tol",
                                                           "step_tol",
                                                           "position_tol",
                                                           "analysis",
                                                           "dp1_curvature",
                                                           "line_search",
                                                           "reuse_jacobian",
                                                           "reuse_ratio",
                                                           "krylov_iterations",
                                                           "krylov_factor_age",
                                                           "max_retries",
                                                           "timing_fences",
                                                           "linear",
                                                           "partition",
                                                           "inner_solver",
                                                           "adamw_learning_rate",
                                                           "adamw_beta1",
                                                           "adamw_beta2",
                                                           "adamw_epsilon",
                                                           "adamw_weight_decay",
                                                           "adamw_lr_decay",
                                                           "adamw_max_iterations",
                                                           "adamw_check_every"};
  using SS = tlfea::StepperSettings;
  py::class_<SS>(m, "StepperSettings",
                 "tlfea::StepperSettings: every field an attribute (docs/guide/solvers.md); "
                 "StepperSettings(dt=1e-4, analysis='static', ...) sets them by "
                 "keyword.")
      .def(py::init([](const py::kwargs& kw) {
        auto s = std::make_unique<SS>();
        set_from_kwargs(*s, kw, "StepperSettings");
        return s;
      }))
      .def("copy", [](const SS& s) { return SS(s); })
      .def_readwrite("dt", &SS::dt)
      .def_property(
          "integrator",
          [](const SS& s) { return std::string(tlfea::time_integrator_name(s.integrator)); },
          [](SS& s, const std::string& v) {
            if (v != "backward_euler" && v != "generalized_alpha")
              fail(
                  "StepperSettings.integrator: expected 'backward_euler' or "
                  "'generalized_alpha', got '" +
                  v + "'");
            s.integrator = tlfea::parse_time_integrator(v);
          })
      .def_property(
          "rho_inf", [](const SS& s) { return s.rho_inf; },
          [](SS& s, tlfea::Real r) {
            if (!(r >= 0.0 && r <= 1.0))
              fail("StepperSettings.rho_inf: expected a value in [0, 1], got " + std::to_string(r));
            s.rho_inf = r;
          })
      .def_readwrite("penalty", &SS::penalty)
      .def_readwrite("penalty_scale", &SS::penalty_scale)
      .def_readwrite("max_outer", &SS::max_outer)
      .def_readwrite("constraint_tolerance", &SS::constraint_tolerance)
      .def_readwrite("max_newton", &SS::max_newton)
      .def_readwrite("residual_force_tol", &SS::residual_force_tol)
      .def_readwrite("residual_rel_tol", &SS::residual_rel_tol)
      .def_readwrite("residual_abs_tol", &SS::residual_abs_tol)
      .def_readwrite("step_tol", &SS::step_tol)
      .def_readwrite("position_tol", &SS::position_tol)
      .def_property(
          "analysis", [](const SS& s) { return std::string(tlfea::analysis_name(s.analysis)); },
          one_of(&SS::analysis, "analysis", "dynamic", "static", &tlfea::parse_analysis))
      .def_readwrite("dp1_curvature", &SS::dp1_curvature)
      .def_readwrite("line_search", &SS::line_search)
      .def_readwrite("reuse_jacobian", &SS::reuse_jacobian)
      .def_readwrite("timing_fences", &SS::timing_fences)
      .def_readwrite("reuse_ratio", &SS::reuse_ratio)
      .def_readwrite("krylov_iterations", &SS::krylov_iterations)
      .def_readwrite("krylov_factor_age", &SS::krylov_factor_age)
      .def_readwrite("max_retries", &SS::max_retries)
      .def_readwrite("linear", &SS::linear)
      .def_property(
          "partition",
          [](const SS& s) { return std::string(tlfea::partition_method_name(s.partition)); },
          [](SS& s, const std::string& v) {
            if (v != "default" && v != "metis" && v != "range")
              fail("StepperSettings.partition: expected 'default', 'metis' or 'range', got '" + v +
                   "'");
            s.partition = tlfea::parse_partition_method(v);
          })
      .def_property(
          "inner_solver",
          [](const SS& s) { return std::string(tlfea::inner_solver_name(s.inner_solver)); },
          one_of(&SS::inner_solver, "inner_solver", "newton", "adamw", &tlfea::parse_inner_solver))
      .def_readwrite("adamw_learning_rate", &SS::adamw_learning_rate)
      .def_readwrite("adamw_beta1", &SS::adamw_beta1)
      .def_readwrite("adamw_beta2", &SS::adamw_beta2)
      .def_readwrite("adamw_epsilon", &SS::adamw_epsilon)
      .def_readwrite("adamw_weight_decay", &SS::adamw_weight_decay)
      .def_readwrite("adamw_lr_decay", &SS::adamw_lr_decay)
      .def_readwrite("adamw_max_iterations", &SS::adamw_max_iterations)
      .def_readwrite("adamw_check_every", &SS::adamw_check_every)
      .def("__repr__", [](const py::object& self) {
        return repr_fields(self, "StepperSettings", kSettingsFields);
      });

  using SR = tlfea::StepReport;
  py::class_<SR>(m, "StepReport", "What one step() did (tlfea::StepReport).")
      .def_readonly("converged", &SR::converged)
      .def_readonly("newton_iterations", &SR::newton_iterations)
      .def_readonly("outer_iterations", &SR::outer_iterations)
      .def_readonly("factorizations", &SR::factorizations)
      .def_readonly("krylov_iterations", &SR::krylov_iterations)
      .def_readonly("retries", &SR::retries)
      .def_readonly("constraint_violation", &SR::constraint_violation)
      .def_readonly("residual_history", &SR::residual_history)
      .def_readonly("assembly_s", &SR::assembly_s)
      .def_readonly("factorization_s", &SR::factorization_s)
      .def_readonly("solve_s", &SR::solve_s)
      .def_readonly("step_force_s", &SR::step_force_s)
      .def_readonly("force_scale", &SR::force_scale)
      .def("__repr__", [](const SR& r) {
        return "StepReport(converged=" + std::string(r.converged ? "True" : "False") +
               ", newton_iterations=" + std::to_string(r.newton_iterations) +
               ", outer_iterations=" + std::to_string(r.outer_iterations) +
               ", factorizations=" + std::to_string(r.factorizations) +
               ", retries=" + std::to_string(r.retries) +
               ", constraint_violation=" + fmt(r.constraint_violation) + ")";
      });

  using SE = tlfea::SettleReport;
  py::class_<SE>(m, "SettleReport", "What Stepper.settle() did (tlfea::SettleReport).")
      .def_readonly("steps", &SE::steps)
      .def_readonly("velocity_resets", &SE::velocity_resets)
      .def_readonly("newton_iterations", &SE::newton_iterations)
      .def_readonly("kinetic_energy_peak", &SE::kinetic_energy_peak)
      .def_readonly("kinetic_energy_final", &SE::kinetic_energy_final)
      .def_readonly("at_rest", &SE::at_rest)
      .def("__repr__", [](const SE& r) {
        return "SettleReport(steps=" + std::to_string(r.steps) +
               ", velocity_resets=" + std::to_string(r.velocity_resets) +
               ", kinetic_energy_final=" + fmt(r.kinetic_energy_final) +
               ", kinetic_energy_peak=" + fmt(r.kinetic_energy_peak) +
               ", at_rest=" + std::string(r.at_rest ? "True" : "False") + ")";
      });

  using ST = tlfea::SolverStats;
  py::class_<ST>(m, "SolverStats")
      .def_readonly("backend", &ST::backend)
      .def_readonly("analyses", &ST::analyses)
      .def_readonly("factorizations", &ST::factorizations)
      .def_readonly("solves", &ST::solves)
      .def_readonly("last_iterations", &ST::last_iterations)
      .def_readonly("total_iterations", &ST::total_iterations)
      .def_readonly("last_residual", &ST::last_residual)
      .def_readonly("analyze_seconds", &ST::analyze_seconds)
      .def_readonly("factorize_seconds", &ST::factorize_seconds)
      .def_readonly("solve_seconds", &ST::solve_seconds);
}

}  // namespace tlfea_py
