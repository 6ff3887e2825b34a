// TLFEA Python module: bindings of scenes read from YAML (Scene, SceneBody,
// SceneOutput).

#include "py_bindings.hpp"

namespace tlfea_py {

void bind_scene(py::module_& m) {
  using SS = tlfea::StepperSettings;
  // --- scenes ----------------------------------------------------------------
  py::class_<tlfea::scene::SceneBodyInfo>(m, "SceneBody")
      .def_readonly("name", &tlfea::scene::SceneBodyInfo::name)
      .def_readonly("element", &tlfea::scene::SceneBodyInfo::element)
      .def_readonly("elements", &tlfea::scene::SceneBodyInfo::elements)
      .def_readonly("coefficients", &tlfea::scene::SceneBodyInfo::coefficients)
      .def_readonly("material", &tlfea::scene::SceneBodyInfo::material)
      .def_readonly("mass", &tlfea::scene::SceneBodyInfo::mass)
      .def("__repr__", [](const tlfea::scene::SceneBodyInfo& b) {
        return "<tlfea.SceneBody '" + b.name + "' " + tlfea::to_string(b.element) + ", " +
               std::to_string(b.elements) + " elements, " + b.material + ", mass " + fmt(b.mass) +
               " kg>";
      });
  using SO = tlfea::scene::SceneOutput;
  py::class_<SO>(m, "SceneOutput", "The scene's output section (attributes may be changed).")
      .def_readwrite("enabled", &SO::enabled)
      .def_readwrite("directory", &SO::directory)
      .def_readwrite("every", &SO::every)
      .def_readwrite("displacement", &SO::displacement)
      .def_readwrite("velocity", &SO::velocity)
      .def_readwrite("stress", &SO::stress)
      .def_readwrite("reactions", &SO::reactions)
      .def_readwrite("contact", &SO::contact)
      .def_readwrite("samples", &SO::samples)
      .def_readonly("step_bytes", &SO::step_bytes);

  py::class_<PyScene>(m, "Scene",
                      "A loaded scene file: its model, stepper settings, step count, output "
                      "settings, joints and contact. Scene.stepper() starts a run.")
      .def_property_readonly("name", [](const PyScene& s) { return s.get().name; })
      .def_property_readonly("file", [](const PyScene& s) { return s.get().file; })
      .def_property_readonly("description", [](const PyScene& s) { return s.get().description; })
      .def_property(
          "steps", [](const PyScene& s) { return s.get().steps; },
          [](PyScene& s, long n) {
            if (n < 0) fail("Scene.steps must be >= 0");
            s.get().steps = n;
          })
      .def_property_readonly("end_time", [](const PyScene& s) { return s.get().end_time; })
      .def_property_readonly(
          "settings", [](PyScene& s) -> SS& { return s.get().settings; },
          py::return_value_policy::reference_internal,
          "The scene's StepperSettings (changes apply to steppers made afterwards).")
      .def_property_readonly(
          "output", [](PyScene& s) -> SO& { return s.get().output; },
          py::return_value_policy::reference_internal)
      .def_property_readonly("bodies", [](const PyScene& s) { return s.get().bodies; })
      .def_property_readonly(
          "joints",
          [](const PyScene& s) {
            py::list l;
            for (const auto& j : s.get().joints) l.append(py::make_tuple(j.first, j.second));
            return l;
          },
          "[(name, RowRange)]")
      .def_property_readonly("has_contact",
                             [](const PyScene& s) { return static_cast<bool>(s.get().contact); })
      .def_property_readonly("unknowns", [](const PyScene& s) { return s.get().unknowns(); })
      .def_property_readonly("constraint_rows",
                             [](const PyScene& s) { return s.get().constraint_rows(); })
      .def_property_readonly("model",
                             [](const PyScene& s) { return std::make_unique<PyModel>(s.handle()); })
      .def(
          "stepper",
          [](PyScene& s, std::optional<SS> settings, bool settle) {
            // The scene's run (tlfea::Simulation) without output of its own
            // (an OutputWriter on the stepper is one), started as `tlfea run`
            // starts it.
            tlfea::RunOptions ro;
            ro.settings = settings;
            ro.output = false;
            ro.settle = settle;
            auto st = std::make_unique<PyStepper>(s.handle(), ro);
            const auto& r = st->simulation()->settle_report();
            if (r && !r->at_rest) {
              const std::string msg =
                  "Scene.stepper: the settle (time.settle) ended with the bodies not at rest "
                  "(kinetic energy " +
                  fmt(r->kinetic_energy_final) + " J, largest " + fmt(r->kinetic_energy_peak) +
                  " J): a body slides or falls, or vibrates without damping";
              if (PyErr_WarnEx(PyExc_RuntimeWarning, msg.c_str(), 1) < 0)
                throw py::error_already_set();
            }
            return st;
          },
          py::arg("settings") = py::none(), py::arg("settle") = true,
          "A Stepper on the scene's model with the scene's settings (or `settings`), settled "
          "when the scene has time.settle (a RuntimeWarning when the bodies did not come to "
          "rest; settle=False: call Stepper.settle yourself), and with its initial velocities, "
          "as `tlfea run` makes it. A scene's contact history is shared by its steppers: make "
          "one stepper per scene (a failed settle leaves it changed: load the scene again).")
      .def_property_readonly(
          "settle_duration", [](const PyScene& s) { return s.get().settle.duration; },
          "time.settle's duration [s] (0: no settle)")
      .def("__repr__", [](const PyScene& s) {
        const auto& sc = s.get();
        return "<tlfea.Scene '" + sc.name + "' (" + sc.file +
               "): " + std::to_string(sc.bodies.size()) + " bodies, " + std::to_string(sc.steps) +
               " steps of " + fmt(sc.settings.dt) + ">";
      });

  m.def(
      "load_scene",
      [](const std::string& path, const std::vector<std::string>& overrides) {
        ensure_initialized();
        return std::make_unique<PyScene>(tlfea::scene::load_scene(path, overrides));
      },
      py::arg("path"), py::arg("overrides") = std::vector<std::string>{},
      "Loads a scene file; overrides are 'key.path=value' as `tlfea run --set`. Bad input "
      "raises tlfea.Error('FILE:LINE:COLUMN: ...').");
  m.def(
      "load_scene_text",
      [](const std::string& text, const std::string& file, const std::string& base_dir,
         const std::vector<std::string>& overrides) {
        ensure_initialized();
        return std::make_unique<PyScene>(
            tlfea::scene::load_scene_text(text, file, base_dir, overrides));
      },
      py::arg("text"), py::arg("file") = "<string>", py::arg("base_dir") = ".",
      py::arg("overrides") = std::vector<std::string>{},
      "A scene from YAML text; `file` names it in messages, relative mesh paths are taken from "
      "base_dir.");
}

}  // namespace tlfea_py
