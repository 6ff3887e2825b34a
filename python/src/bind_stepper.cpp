// TLFEA Python module: binding of Stepper (tlfea::TimeStepper): stepping,
// runs with output, state arrays, checkpoints.

#include "py_bindings.hpp"
#include "tlfea/core/host_device.hpp"

namespace tlfea_py {

void bind_stepper(py::module_& m) {
  using SS = tlfea::StepperSettings;
  // --- stepper ---------------------------------------------------------------
  py::class_<PyStepper>(m, "Stepper",
                        "The backward-Euler / static stepper (tlfea::TimeStepper) on a model. "
                        "State arrays are NumPy copies.")
      .def(py::init([](const PyModel& model, std::optional<SS> settings) {
             return std::make_unique<PyStepper>(model.handle(), settings ? *settings : SS());
           }),
           py::arg("model"), py::arg("settings") = py::none())
      .def("step", &PyStepper::step,
           "Advances by settings.dt (halving on failure); returns the StepReport. Raises "
           "tlfea.Error when the retries are exhausted (state: the last converged step).")
      .def(
          "settle",
          [](PyStepper& ps, double duration, std::optional<double> ramp, bool kinetic_damping,
             double rest_tolerance) {
            tlfea::SettleSettings ss;
            ss.duration = duration;
            ss.ramp = ramp ? *ramp : -1.0;
            if (ramp && !(*ramp >= 0.0))
              fail("Stepper.settle: ramp must be >= 0 (None: duration / 2)");
            ss.kinetic_damping = kinetic_damping;
            ss.rest_tolerance = rest_tolerance;
            return ps.settle(ss);
          },
          py::arg("duration"), py::arg("ramp") = py::none(), py::arg("kinetic_damping") = true,
          py::arg("rest_tolerance") = 1e-3,
          "Settles the model before t = 0 (tlfea::TimeStepper::settle, docs/theory.md §6.11): "
          "steps of settings.dt from t = -duration to 0 with the loads of t = 0 eased in over "
          "`ramp` (None: duration / 2), drivers, prescribed motions and obstacles held at t = 0, "
          "and the velocities zeroed at every peak of the kinetic energy (kinetic_damping). "
          "Ends at t = 0, step 0, with the velocities set before it. Once, before the first "
          "step of a dynamic analysis. Returns a SettleReport; .at_rest is False when a body "
          "still slides or falls.")
      .def(
          "run",
          [](PyStepper& ps, long steps, py::object output, py::object callback) {
            if (steps < 0) fail("Stepper.run: steps must be >= 0");
            PyOutputWriter* writer = nullptr;
            if (!output.is_none()) {
              if (!py::isinstance<PyOutputWriter>(output))
                throw py::type_error("Stepper.run: output must be a tlfea.OutputWriter or None");
              writer = output.cast<PyOutputWriter*>();
              writer->get();
              if (writer->stepper() != &ps.get())
                fail("Stepper.run: the OutputWriter was made for another stepper");
            }
            py::list reports;
            py::object self = py::cast(&ps, py::return_value_policy::reference);
            for (long k = 0; k < steps; ++k) {
              tlfea::StepReport r = ps.step();
              if (writer) writer->get().record(r);
              py::object pr = py::cast(std::move(r));
              reports.append(pr);
              if (!callback.is_none()) callback(self, pr);
              // Ctrl-C: KeyboardInterrupt after the completed step.
              check_signals();
            }
            return reports;
          },
          py::arg("steps"), py::arg("output") = py::none(), py::arg("callback") = py::none(),
          "steps calls of step(); after each, output.record(report) when an OutputWriter is "
          "given and callback(stepper, report) when given. Returns the reports. Ctrl-C raises "
          "KeyboardInterrupt after the current step.")
      .def_property_readonly("time", [](const PyStepper& s) { return s.get().time(); })
      .def_property_readonly("steps_taken",
                             [](const PyStepper& s) { return s.get().steps_taken(); })
      .def_property_readonly("is_static", [](const PyStepper& s) { return s.get().is_static(); })
      .def_property_readonly("penalty", [](const PyStepper& s) { return s.get().penalty(); })
      .def_property_readonly(
          "settings", [](const PyStepper& s) { return s.get().settings(); },
          "A copy of the settings in use.")
      .def_property_readonly(
          "model", [](const PyStepper& s) { return std::make_unique<PyModel>(s.handle()); })
      .def_property_readonly(
          "positions", [](const PyStepper& s) { return coef_to_numpy(s.get().positions()); },
          "(num_coefficients, 3) copy of the coefficients q (ANCF: r, r_u, r_v, r_w per node).")
      .def_property(
          "velocities", [](const PyStepper& s) { return coef_to_numpy(s.get().velocities()); },
          [](PyStepper& s, const CArray& v) {
            tlfea::TimeStepper& st = s.mutable_stepper("velocities");
            st.set_velocities(
                numpy_to_coef(v, st.model().num_coefficients(), "Stepper.velocities"));
          },
          "(num_coefficients, 3) copy of the velocities; assigning sets them for the next step "
          "(clamped coefficients stay at zero).")
      .def(
          "set_velocities",
          [](PyStepper& s, const CArray& v) {
            tlfea::TimeStepper& st = s.mutable_stepper("set_velocities");
            st.set_velocities(numpy_to_coef(v, st.model().num_coefficients(), "set_velocities"));
          },
          py::arg("v"))
      .def_property_readonly(
          "multipliers", [](const PyStepper& s) { return vec_to_numpy(s.get().multipliers()); },
          "Copy of the Lagrange multipliers, one per constraint row.")
      .def(
          "kinetic_energy",
          [](const PyStepper& s) {
            const tlfea::TimeStepper& st = s.get();
            return st.model().kinetic_energy(st.velocities());
          },
          "1/2 v^T M v with the consistent mass matrix.")
      .def(
          "node_positions",
          [](const PyStepper& s, int b) {
            const tlfea::TimeStepper& st = s.get();
            const tlfea::Model& mo = st.model();
            check_body(mo, b);
            const auto q = tlfea::to_host(st.positions());
            const tlfea::Mesh& mesh = mo.mesh(b);
            const Ordinal off = mo.coefficient_offset(b), cpn = mesh.coefficients_per_node();
            py::array_t<double> a({static_cast<py::ssize_t>(mesh.num_nodes()), py::ssize_t(3)});
            double* p = a.mutable_data();
            for (Ordinal k = 0; k < mesh.num_nodes(); ++k)
              for (int d = 0; d < 3; ++d) p[3 * k + d] = q(off + k * cpn, d);
            return a;
          },
          py::arg("body"), "(num_nodes, 3) current node positions of one body.")
      .def_property_readonly("linear_stats",
                             [](const PyStepper& s) { return s.get().linear_stats(); })
      .def(
          "joint_reaction",
          [](PyStepper& s, const tlfea::RowRange& rows) {
            tlfea::TimeStepper& st = s.get();
            const auto r = tlfea::io::joint_reaction_per_body(st.model(), st, rows);
            std::vector<std::array<Real, 3>> out;
            for (const auto& v : r) out.push_back({v[0], v[1], v[2]});
            return rows3_to_numpy(out);
          },
          py::arg("rows"),
          "(num_bodies, 3): the force of the constraint rows `rows` (a joint) on each body.")
      .def(
          "save_checkpoint",
          [](PyStepper& s, const std::string& path) {
            if (tlfea::Simulation* sim = s.simulation())
              sim->checkpoint(path);
            else
              tlfea::io::save_checkpoint(path, s.get());
          },
          py::arg("path"), "Writes an HDF5 checkpoint (as tlfea run's checkpoint.h5).")
      .def(
          "load_checkpoint",
          [](PyStepper& s, const std::string& path) {
            if (!std::filesystem::is_regular_file(path))
              fail("load_checkpoint: no file '" + path + "'");
            tlfea::TimeStepper& st = s.mutable_stepper("load_checkpoint");
            if (tlfea::Simulation* sim = s.simulation())
              sim->restore(path);
            else
              tlfea::io::load_checkpoint(path, st);
          },
          py::arg("path"),
          "Restores a checkpoint into this stepper (same model layout; continues bit-identically "
          "in Serial).")
      .def("__repr__", [](const PyStepper& s) {
        const auto& st = s.get();
        return "<tlfea.Stepper t=" + fmt(st.time()) + " steps=" + std::to_string(st.steps_taken()) +
               " dt=" + fmt(st.settings().dt) + (st.is_static() ? " static>" : ">");
      });
  m.attr("TimeStepper") = m.attr("Stepper");
}

}  // namespace tlfea_py
