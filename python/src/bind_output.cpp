// TLFEA Python module: binding of OutputWriter (HDF5 + XDMF + history.csv).

#include "py_bindings.hpp"
#include "tlfea/simulation/scene_output.hpp"

namespace tlfea_py {

void bind_output(py::module_& m) {
  using SR = tlfea::StepReport;
  // --- output ----------------------------------------------------------------
  py::class_<PyOutputWriter>(m, "OutputWriter",
                             "HDF5 + XDMF + history.csv output of a run (tlfea::io::OutputWriter)."
                             " Writes step 0 when made; record(report) after every step; "
                             "finish() at the end.")
      .def(py::init([](const PyStepper& st, std::optional<std::string> directory,
                       std::optional<int> every, std::optional<int> samples, py::object fields,
                       bool resume) {
             tlfea::io::OutputSettings os;
             const ModelHandle& h = st.handle();
             // Defaults: the scene's output section and body names, as in
             // `tlfea run`.
             if (const tlfea::Simulation* sim = st.simulation())
               os = sim->output_settings();
             else if (h.scene)
               os = tlfea::output_settings(*h.scene);
             if (directory) os.directory = *directory;
             if (os.directory.empty()) fail("OutputWriter: no directory given");
             if (every) os.every = *every;
             if (samples) os.samples = *samples;
             if (os.every < 1) fail("OutputWriter: every must be >= 1");
             if (os.samples < 2) fail("OutputWriter: samples must be >= 2");
             if (!fields.is_none()) {
               const auto f = fields.cast<std::vector<std::string>>();
               os.displacement = os.velocity = os.stress = os.reactions = os.contact = false;
               for (const auto& n : f) {
                 if (n == "displacement")
                   os.displacement = true;
                 else if (n == "velocity")
                   os.velocity = true;
                 else if (n == "stress")
                   os.stress = true;
                 else if (n == "reactions")
                   os.reactions = true;
                 else if (n == "contact")
                   os.contact = true;
                 else
                   fail("OutputWriter: unknown field '" + n +
                        "' (displacement, velocity, stress, reactions, contact)");
               }
             }
             os.resume = resume;
             return std::make_unique<PyOutputWriter>(st, os);
           }),
           py::arg("stepper"), py::arg("directory") = py::none(), py::arg("every") = py::none(),
           py::arg("samples") = py::none(), py::arg("fields") = py::none(),
           py::arg("resume") = false,
           "Defaults from the scene's output section when the stepper came from a scene "
           "(directory, every, fields, samples; its joints and contact are written too).")
      .def(
          "record", [](PyOutputWriter& w, const SR& r) { w.get().record(r); }, py::arg("report"))
      .def("write_fields", [](PyOutputWriter& w) { w.get().write_fields(); })
      .def("add_joint", [](PyOutputWriter& w, const std::string& name,
                           const tlfea::RowRange& rows) { w.get().add_joint(name, rows); })
      .def("finish", &PyOutputWriter::finish,
           "Writes the last step's fields if due and the histories; closes the writer.")
      .def_property_readonly("finished", &PyOutputWriter::finished)
      .def_property_readonly("directory", &PyOutputWriter::directory)
      .def_property_readonly("hdf5_path", [](PyOutputWriter& w) { return w.get().hdf5_path(); })
      .def_property_readonly("xdmf_path", [](PyOutputWriter& w) { return w.get().xdmf_path(); })
      .def_property_readonly("csv_path", [](PyOutputWriter& w) { return w.get().csv_path(); })
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyOutputWriter& w, py::object, py::object, py::object) {
        if (!w.finished() && Kokkos::is_initialized()) w.finish();
        return false;
      });
}

}  // namespace tlfea_py
