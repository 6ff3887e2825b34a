// TLFEA Python module: bindings of meshes (ElementType, Mesh, generators,
// mesh readers) and materials (MaterialSpec).

#include "py_bindings.hpp"

namespace tlfea_py {

void bind_meshes_materials(py::module_& m) {
  // --- meshes ----------------------------------------------------------------
  py::enum_<tlfea::ElementType>(m, "ElementType")
      .value("T10", tlfea::ElementType::T10)
      .value("Q27", tlfea::ElementType::Q27)
      .value("ANCF3243", tlfea::ElementType::ANCF3243)
      .value("ANCF3443", tlfea::ElementType::ANCF3443);

  py::class_<tlfea::Mesh>(m, "Mesh",
                          "Host mesh data (reference coefficients, connectivity, named node and "
                          "face sets), from a generator or a mesh file. Arrays are copies.")
      .def_property_readonly("type", [](const tlfea::Mesh& s) { return s.type; })
      .def_readonly("source", &tlfea::Mesh::source)
      .def_property_readonly("num_nodes", &tlfea::Mesh::num_nodes)
      .def_property_readonly("num_elements", &tlfea::Mesh::num_elements)
      .def_property_readonly("num_coefficients", &tlfea::Mesh::num_coefficients)
      .def_property_readonly("coefficients_per_node", &tlfea::Mesh::coefficients_per_node)
      .def_property_readonly("coefficients_per_element", &tlfea::Mesh::coefficients_per_element)
      .def_property_readonly(
          "coefficients", [](const tlfea::Mesh& s) { return rows3_to_numpy(s.coefficients); },
          "(num_coefficients, 3) reference coefficients (ANCF: r, r_u, r_v, "
          "r_w per node)")
      .def_property_readonly(
          "nodes",
          [](const tlfea::Mesh& s) {
            std::vector<std::array<Real, 3>> x(static_cast<size_t>(s.num_nodes()));
            for (Ordinal k = 0; k < s.num_nodes(); ++k) x[k] = s.node_position(k);
            return rows3_to_numpy(x);
          },
          "(num_nodes, 3) reference node positions")
      .def_property_readonly(
          "connectivity",
          [](const tlfea::Mesh& s) {
            const py::ssize_t ne = s.num_elements(), k = s.coefficients_per_element();
            py::array_t<Ordinal> a({ne, k});
            std::copy(s.connectivity.begin(), s.connectivity.begin() + ne * k, a.mutable_data());
            return a;
          },
          "(num_elements, coefficients_per_element) coefficient ids of each element")
      .def_property_readonly("element_size",
                             [](const tlfea::Mesh& s) { return rows3_to_numpy(s.element_size); })
      .def_property_readonly("node_sets",
                             [](const tlfea::Mesh& s) {
                               py::dict d;
                               for (const auto& [k, v] : s.node_sets) d[py::str(k)] = to_numpy(v);
                               return d;
                             })
      .def_property_readonly(
          "face_sets",
          [](const tlfea::Mesh& s) {
            py::dict d;
            for (const auto& [k, v] : s.face_sets) {
              py::array_t<Ordinal> a({static_cast<py::ssize_t>(v.size()), py::ssize_t(2)});
              Ordinal* p = a.mutable_data();
              for (size_t i = 0; i < v.size(); ++i) {
                p[2 * i] = v[i].element;
                p[2 * i + 1] = v[i].face;
              }
              d[py::str(k)] = a;
            }
            return d;
          },
          "name -> (k, 2) array of (element, local face)")
      .def("__repr__", [](const tlfea::Mesh& s) {
        return "<tlfea.Mesh " + std::string(tlfea::to_string(s.type)) + " '" + s.source +
               "': " + std::to_string(s.num_nodes()) + " nodes, " +
               std::to_string(s.num_elements()) + " elements>";
      });

  m.def(
      "generate_box",
      [](const py::object& type, std::array<Real, 3> lengths, std::array<int, 3> divisions,
         std::array<Real, 3> origin) {
        return tlfea::generate_box(element_type(type), lengths, divisions, origin);
      },
      py::arg("type"), py::arg("lengths"), py::arg("divisions"),
      py::arg("origin") = std::array<Real, 3>{0, 0, 0},
      "Box [origin, origin + lengths] of T10 or Q27 elements, divisions cells per direction; "
      "node and face sets xmin, xmax, ymin, ymax, zmin, zmax; node set all.");
  m.def(
      "generate_ball",
      [](const py::object& type, Real radius, int divisions, std::array<Real, 3> center) {
        return tlfea::generate_ball(element_type(type), radius, divisions, center);
      },
      py::arg("type"), py::arg("radius"), py::arg("divisions"),
      py::arg("center") = std::array<Real, 3>{0, 0, 0});
  m.def("generate_beam_ancf3243", &tlfea::generate_beam_ancf3243, py::arg("length"),
        py::arg("width"), py::arg("height"), py::arg("elements"),
        "Straight ANCF 3243 beam along +x from the origin; node sets end0, end1, all.");
  m.def("generate_plate_ancf3443", &tlfea::generate_plate_ancf3443, py::arg("lx"), py::arg("ly"),
        py::arg("thickness"), py::arg("divisions"));
  m.def(
      "nodes_where",
      [](const tlfea::Mesh& mesh, int axis, Real value, Real tol) {
        return to_numpy(tlfea::nodes_where(mesh, axis, value, tol));
      },
      py::arg("mesh"), py::arg("axis"), py::arg("value"), py::arg("tol") = 1e-9,
      "Nodes whose position coordinate `axis` is within tol of value.");
  m.def("read_mesh", &tlfea::read_mesh, py::arg("path"),
        "Gmsh 4.1 (.msh) or TetGen (.node/.ele) mesh file.");
  m.def("read_gmsh", &tlfea::read_gmsh, py::arg("path"));
  m.def("read_tetgen", &tlfea::read_tetgen, py::arg("path"));

  // --- materials -------------------------------------------------------------
  py::enum_<tlfea::MaterialModel>(m, "MaterialModel")
      .value("StVenantKirchhoff", tlfea::MaterialModel::StVenantKirchhoff)
      .value("MooneyRivlin", tlfea::MaterialModel::MooneyRivlin)
      .value("NeoHookean", tlfea::MaterialModel::NeoHookean);
  py::class_<tlfea::MaterialSpec>(m, "MaterialSpec",
                                  "A body's material: MaterialSpec.svk(E, nu), "
                                  ".mooney_rivlin(mu10, mu01, kappa), .neo_hookean(mu, kappa), "
                                  "optionally .with_kelvin_voigt(mu_v, lambda_v).")
      .def(py::init<>())
      .def_static("svk", &tlfea::MaterialSpec::svk, py::arg("E"), py::arg("nu"))
      .def_static(
          "mooney_rivlin",
          [](Real mu10, Real mu01, Real kappa) {
            if (!std::isfinite(mu10) || !std::isfinite(mu01) || mu10 < 0 || mu01 < 0 ||
                !(mu10 + mu01 > 0))
              fail("material: Mooney-Rivlin needs mu10, mu01 >= 0 with mu10 + mu01 > 0");
            if (!std::isfinite(kappa) || !(kappa > 0)) fail("material: kappa must be positive");
            return tlfea::MaterialSpec::mooney_rivlin(mu10, mu01, kappa);
          },
          py::arg("mu10"), py::arg("mu01"), py::arg("kappa"))
      .def_static(
          "neo_hookean",
          [](Real mu, Real kappa) {
            if (!std::isfinite(mu) || !(mu > 0)) fail("material: mu must be positive");
            if (!std::isfinite(kappa) || !(kappa > 0)) fail("material: kappa must be positive");
            return tlfea::MaterialSpec::neo_hookean(mu, kappa);
          },
          py::arg("mu"), py::arg("kappa"))
      .def("with_kelvin_voigt", &tlfea::MaterialSpec::with_kelvin_voigt, py::arg("mu_v"),
           py::arg("lambda_v"))
      .def("with_ancf3243_poisson_split", &tlfea::MaterialSpec::with_ancf3243_poisson_split,
           py::arg("on"))
      .def("with_ancf3443_poisson_split", &tlfea::MaterialSpec::with_ancf3443_poisson_split,
           py::arg("on"))
      .def_readwrite("model", &tlfea::MaterialSpec::model)
      .def_readwrite("lambda_", &tlfea::MaterialSpec::lambda)
      .def_readwrite("mu", &tlfea::MaterialSpec::mu)
      .def_readwrite("mu10", &tlfea::MaterialSpec::mu10)
      .def_readwrite("mu01", &tlfea::MaterialSpec::mu01)
      .def_readwrite("kappa", &tlfea::MaterialSpec::kappa)
      .def_readwrite("kelvin_voigt", &tlfea::MaterialSpec::kelvin_voigt)
      .def_readwrite("mu_v", &tlfea::MaterialSpec::mu_v)
      .def_readwrite("lambda_v", &tlfea::MaterialSpec::lambda_v)
      .def_readwrite("ancf3243_poisson_split", &tlfea::MaterialSpec::ancf3243_poisson_split)
      .def_readwrite("ancf3443_poisson_split", &tlfea::MaterialSpec::ancf3443_poisson_split)
      .def_property_readonly("name", &tlfea::MaterialSpec::name)
      .def("__repr__",
           [](const tlfea::MaterialSpec& s) { return "<tlfea.MaterialSpec " + s.name() + ">"; });
}

}  // namespace tlfea_py
