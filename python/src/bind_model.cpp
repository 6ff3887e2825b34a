// TLFEA Python module: binding of Model, a model built in code (bodies,
// loads, boundary conditions, contact).

#include <array>

#include "py_bindings.hpp"

namespace tlfea_py {

void bind_model(py::module_& m) {
  // --- model -----------------------------------------------------------------
  py::class_<PyModel>(m, "Model",
                      "A multibody model (tlfea::Model): bodies, Dirichlet conditions, loads "
                      "and constraints. Add every body before the first joint.")
      .def(py::init<>())
      .def(
          "add_body",
          [](PyModel& pm, const tlfea::Mesh& mesh, const tlfea::MaterialSpec& mat, Real density) {
            if (!std::isfinite(density) || !(density > 0))
              fail("Model.add_body: density must be positive and finite");
            return pm.get().add_body(mesh, mat, density);
          },
          py::arg("mesh"), py::arg("material"), py::arg("density"), "Returns the body id.")
      .def_property_readonly("num_bodies", [](const PyModel& pm) { return pm.get().num_bodies(); })
      .def_property_readonly("num_coefficients",
                             [](const PyModel& pm) { return pm.get().num_coefficients(); })
      .def("coefficient_offset",
           [](const PyModel& pm, int b) {
             check_body(pm.get(), b);
             return pm.get().coefficient_offset(b);
           })
      .def("mesh",
           [](const PyModel& pm, int b) {
             check_body(pm.get(), b);
             return pm.get().mesh(b);
           })
      .def("material",
           [](const PyModel& pm, int b) {
             check_body(pm.get(), b);
             return pm.get().material(b);
           })
      .def(
          "clamp_nodes",
          [](PyModel& pm, int b, const std::vector<Ordinal>& nodes, bool grads) {
            check_body(pm.get(), b);
            pm.get().clamp_nodes(b, nodes, grads);
          },
          py::arg("body"), py::arg("nodes"), py::arg("gradients_too") = true)
      .def(
          "clamp_node_set",
          [](PyModel& pm, int b, const std::string& set, bool grads) {
            check_body(pm.get(), b);
            pm.get().clamp_node_set(b, set, grads);
          },
          py::arg("body"), py::arg("set"), py::arg("gradients_too") = true)
      .def(
          "prescribe_nodes",
          [](PyModel& pm, int b, const std::vector<Ordinal>& nodes, const py::object& fn,
             bool grads) {
            check_body(pm.get(), b);
            pm.get().prescribe_nodes(b, nodes, motion_function(fn, "prescribed motion"), grads);
          },
          py::arg("body"), py::arg("nodes"), py::arg("position"),
          py::arg("gradients_clamped") = true,
          "The nodes' positions follow position(t, X) -> (x, y, z), X the reference position; "
          "called from C++ every step.")
      .def(
          "prescribe_coefficient",
          [](PyModel& pm, int b, Ordinal node, int k, const py::object& fn) {
            check_body(pm.get(), b);
            pm.get().prescribe_coefficient(b, node, k,
                                           motion_function(fn, "prescribed coefficient"));
          },
          py::arg("body"), py::arg("node"), py::arg("k"), py::arg("value"))
      .def(
          "fix_components",
          [](PyModel& pm, int b, Ordinal node, int k, const std::array<bool, 3>& axes) {
            check_body(pm.get(), b);
            pm.get().fix_components(b, node, k, axes);
          },
          py::arg("body"), py::arg("node"), py::arg("k"), py::arg("axes"),
          "Holds the components axes = (x, y, z) of coefficient k (0 the position, 1-3 the "
          "ANCF gradients) of a node at their reference values: rollers and symmetry planes.")
      .def("set_gravity", [](PyModel& pm, const tlfea::Vec3& g) { pm.get().set_gravity(g); })
      .def_property(
          "gravity", [](const PyModel& pm) { return pm.get().gravity(); },
          [](PyModel& pm, const tlfea::Vec3& g) { pm.get().set_gravity(g); })
      .def(
          "add_nodal_force",
          [](PyModel& pm, int b, Ordinal node, const tlfea::Vec3& f, const py::object& amp) {
            check_body(pm.get(), b);
            pm.get().add_nodal_force(b, node, f, time_function(amp, "nodal force amplitude"));
          },
          py::arg("body"), py::arg("node"), py::arg("force"), py::arg("amplitude") = py::none(),
          "A force [N] on a node's position coefficient, times amplitude(t) (None: 1; a number; "
          "or a callable called from C++ every evaluation).")
      .def(
          "add_point_force",
          [](PyModel& pm, int b, Ordinal element, const tlfea::Vec3& xi, const tlfea::Vec3& f,
             const py::object& amp) {
            check_body(pm.get(), b);
            const Real x[3] = {xi[0], xi[1], xi[2]};
            pm.get().add_point_force(b, element, x, f, time_function(amp, "point force amplitude"));
          },
          py::arg("body"), py::arg("element"), py::arg("xi"), py::arg("force"),
          py::arg("amplitude") = py::none())
      .def(
          "add_traction",
          [](PyModel& pm, int b, const std::string& set, const tlfea::Vec3& t0,
             const py::object& amp) {
            check_body(pm.get(), b);
            pm.get().add_traction(b, set, t0, time_function(amp, "traction amplitude"));
          },
          py::arg("body"), py::arg("face_set"), py::arg("traction"),
          py::arg("amplitude") = py::none())
      .def(
          "add_pressure",
          [](PyModel& pm, int b, const std::string& set, Real p, const py::object& amp) {
            check_body(pm.get(), b);
            pm.get().add_pressure(b, set, p, time_function(amp, "pressure amplitude"));
          },
          py::arg("body"), py::arg("face_set"), py::arg("pressure"),
          py::arg("amplitude") = py::none())
      .def("finalize", [](PyModel& pm) { pm.get().finalize(); })
      .def_property_readonly("finalized", [](const PyModel& pm) { return pm.get().finalized(); })
      .def(
          "reference", [](PyModel& pm) { return coef_to_numpy(pm.get().reference()); },
          "(num_coefficients, 3) reference coefficients of all bodies (freezes the list of "
          "bodies).")
      .def_property_readonly(
          "constraints",
          [](PyModel& pm) {
            pm.get().constraints();  // created on first use (freezes the bodies)
            return std::make_unique<PyConstraints>(pm.handle());
          },
          "The model's ConstraintSet (created on first use; freezes the list of bodies).")
      .def(
          "body_joint_frame",
          [](PyModel& pm, int b, const tlfea::Vec3& X, const tlfea::Vec3& axis, Real fiber,
             std::optional<tlfea::Vec3> cross) {
            tlfea::Model& mo = pm.get();
            check_body(mo, b);
            const tlfea::CoefViewHost q0 = host_reference(mo);
            return cross ? tlfea::body_joint_frame(mo.block(b), q0, X, axis, *cross, fiber)
                         : tlfea::body_joint_frame(mo.block(b), q0, X, axis, fiber);
          },
          py::arg("body"), py::arg("point"), py::arg("axis"), py::arg("fiber"),
          py::arg("cross") = py::none(),
          "A joint frame on a body at reference position `point` with the unit `axis`, fibers "
          "of length `fiber` (they must fit in the body).")
      .def(
          "material_point",
          [](PyModel& pm, int b, const tlfea::Vec3& X) {
            tlfea::Model& mo = pm.get();
            check_body(mo, b);
            return tlfea::find_material_point(mo.block(b), host_reference(mo), X);
          },
          py::arg("body"), py::arg("point"),
          "The material point of a body at reference position `point`.")
      .def(
          "add_coupling",
          [](PyModel& pm, int body_i, const std::vector<Ordinal>& nodes, int body_j,
             const std::string& form, const std::string& dofs, const std::vector<Real>& weights) {
            check_body(pm.get(), body_i);
            if (body_j != -1) check_body(pm.get(), body_j);
            tlfea::Model::CouplingSpec s;
            if (form == "kinematic")
              s.form = tlfea::Model::CouplingSpec::Form::kinematic;
            else if (form == "distributing")
              s.form = tlfea::Model::CouplingSpec::Form::distributing;
            else
              throw py::value_error("add_coupling: form '" + form +
                                    "' (expected 'kinematic' or 'distributing')");
            if (dofs != "position" && dofs != "position+rotation")
              throw py::value_error("add_coupling: dofs '" + dofs +
                                    "' (expected 'position' or 'position+rotation')");
            s.rotation = dofs == "position+rotation";
            s.weights = weights;
            return pm.get().add_coupling(body_i, nodes, body_j, s);
          },
          py::arg("body_i"), py::arg("nodes"), py::arg("body_j") = -1,
          py::arg("form") = "kinematic", py::arg("dofs") = "position",
          py::arg("weights") = std::vector<Real>(),
          "Couples nodes of body_i to body_j (-1: the ground) (docs/theory.md §5.7): "
          "form 'kinematic' (every node follows body_j; dofs 'position+rotation' also ties ANCF "
          "gradients to a rigid body_j or the ground) or 'distributing' (the weighted mean "
          "position follows; with dofs 'position+rotation' also the set's best-fit rotation, "
          "body_j rigid or the ground, the set not collinear). Returns the RowRange of its rows.")
      .def(
          "add_spring_damper",
          [](PyModel& pm, const tlfea::MaterialPoint& a, const tlfea::MaterialPoint& b,
             Real rest_length, Real stiffness, Real damping, Real preload,
             const std::vector<std::pair<Real, Real>>& table) {
            tlfea::SpringDamperSpec s;
            s.stiffness = stiffness;
            s.damping = damping;
            s.rest_length = rest_length;
            s.preload = preload;
            s.table = table;
            return pm.get().add_spring_damper(a, b, s);
          },
          py::arg("a"), py::arg("b"), py::arg("rest_length"), py::arg("stiffness") = 0.0,
          py::arg("damping") = 0.0, py::arg("preload") = 0.0,
          py::arg("table") = std::vector<std::pair<Real, Real>>(),
          "A translational spring-damper between material points a and b (docs/theory.md "
          "§11): axial force k (L - rest_length) + preload + damping L' (tension positive), "
          "or a force-deflection table [(delta, F), ...] instead of k. Before finalize(); "
          "returns its index.")
      .def("__repr__", [](const PyModel& pm) {
        const tlfea::Model& mo = pm.get();
        return "<tlfea.Model " + std::to_string(mo.num_bodies()) + " bodies, " +
               std::to_string(mo.num_coefficients()) + " coefficients>";
      });
}

}  // namespace tlfea_py
