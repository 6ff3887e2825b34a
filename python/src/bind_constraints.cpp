// TLFEA Python module: bindings of constraints (RowRange, MaterialPoint,
// JointFrame, ConstraintSet and its joints).

#include "py_bindings.hpp"

namespace tlfea_py {

namespace {

// (Q - P) . (T - R) in the reference configuration: the reference value of
// the dp1 / dp2 constraints (docs/theory.md §5.1).
Real reference_dot(const tlfea::ConstraintSet& cs, const tlfea::MaterialPoint& P,
                   const tlfea::MaterialPoint& Q, const tlfea::MaterialPoint& R,
                   const tlfea::MaterialPoint& T) {
  return dot3(sub3(cs.reference_position(Q), cs.reference_position(P)),
              sub3(cs.reference_position(T), cs.reference_position(R)));
}

}  // namespace

void bind_constraints(py::module_& m) {
  // --- constraints -----------------------------------------------------------
  py::class_<tlfea::RowRange>(m, "RowRange", "Constraint rows [first, first + count).")
      .def_readonly("first", &tlfea::RowRange::first)
      .def_readonly("count", &tlfea::RowRange::count)
      .def("__repr__", [](const tlfea::RowRange& r) {
        return "RowRange(first=" + std::to_string(r.first) + ", count=" + std::to_string(r.count) +
               ")";
      });
  py::class_<tlfea::MaterialPoint>(m, "MaterialPoint",
                                   "A material point of a body (Model.material_point) or a "
                                   "point fixed in space (tlfea.ground_point).")
      .def_property_readonly("is_ground", &tlfea::MaterialPoint::is_ground);
  py::class_<tlfea::JointFrame>(m, "JointFrame",
                                "A joint frame: a point and three short material fibers "
                                "(Model.body_joint_frame, tlfea.ground_joint_frame).");
  m.def("ground_point", &tlfea::ground_point, py::arg("position"));
  m.def(
      "ground_joint_frame",
      [](const tlfea::Vec3& X, const tlfea::Vec3& axis, Real fiber,
         std::optional<tlfea::Vec3> cross) {
        return cross ? tlfea::ground_joint_frame(X, axis, *cross, fiber)
                     : tlfea::ground_joint_frame(X, axis, fiber);
      },
      py::arg("point"), py::arg("axis"), py::arg("fiber"), py::arg("cross") = py::none(),
      "A joint frame fixed in space at `point` with the unit `axis` (cross: the first cross "
      "direction, default automatic), fibers of length `fiber`.");

  py::class_<PyConstraints>(m, "ConstraintSet",
                            "Model.constraints: joints and constraint primitives (C++ "
                            "ConstraintSet). Each add_* returns the RowRange of its rows.")
      .def_property_readonly("num_rows", [](const PyConstraints& c) { return c.get().num_rows(); })
      .def("add_spherical", [](PyConstraints& c, const tlfea::JointFrame& i,
                               const tlfea::JointFrame& j) { return c.get().add_spherical(i, j); })
      .def("add_universal", [](PyConstraints& c, const tlfea::JointFrame& i,
                               const tlfea::JointFrame& j) { return c.get().add_universal(i, j); })
      .def("add_revolute", [](PyConstraints& c, const tlfea::JointFrame& i,
                              const tlfea::JointFrame& j) { return c.get().add_revolute(i, j); })
      .def("add_fixed", [](PyConstraints& c, const tlfea::JointFrame& i,
                           const tlfea::JointFrame& j) { return c.get().add_fixed(i, j); })
      .def("add_cylindrical",
           [](PyConstraints& c, const tlfea::JointFrame& i, const tlfea::JointFrame& j) {
             return c.get().add_cylindrical(i, j);
           })
      .def("add_prismatic", [](PyConstraints& c, const tlfea::JointFrame& i,
                               const tlfea::JointFrame& j) { return c.get().add_prismatic(i, j); })
      .def(
          "add_rotation_driver",
          [](PyConstraints& c, const tlfea::JointFrame& i, const tlfea::JointFrame& j,
             const tlfea::Vec3& axis, const py::object& theta) {
            const Real n = std::sqrt(dot3(axis, axis));
            if (!(n > 0) || !std::isfinite(n)) fail("add_rotation_driver: axis must be nonzero");
            const tlfea::Vec3 u{{axis[0] / n, axis[1] / n, axis[2] / n}};
            return c.get().add_rotation_driver(i, j, u,
                                               driving_function(theta, 0.0, "rotation driver"));
          },
          py::arg("frame_i"), py::arg("frame_j"), py::arg("axis"), py::arg("theta"),
          "Frame j turned by theta(t) [rad] about axis relative to frame i (number or callable).")
      .def(
          "add_dp1",
          [](PyConstraints& c, const tlfea::MaterialPoint& P, const tlfea::MaterialPoint& Q,
             const tlfea::MaterialPoint& R, const tlfea::MaterialPoint& T, const py::object& f) {
            tlfea::ConstraintSet& cs = c.get();
            return cs.add_dp1(P, Q, R, T,
                              driving_function(f, reference_dot(cs, P, Q, R, T), "dp1"));
          },
          py::arg("P"), py::arg("Q"), py::arg("R"), py::arg("T"), py::arg("f") = py::none(),
          "(Q - P) . (T - R) = f(t); f None: its reference value. Returns the row.")
      .def(
          "add_dp2",
          [](PyConstraints& c, const tlfea::MaterialPoint& P, const tlfea::MaterialPoint& Q,
             const tlfea::MaterialPoint& R, const tlfea::MaterialPoint& S, const py::object& f) {
            tlfea::ConstraintSet& cs = c.get();
            return cs.add_dp2(P, Q, R, S,
                              driving_function(f, reference_dot(cs, P, Q, R, S), "dp2"));
          },
          py::arg("P"), py::arg("Q"), py::arg("R"), py::arg("S"), py::arg("f") = py::none())
      .def(
          "add_dist",
          [](PyConstraints& c, const tlfea::MaterialPoint& P, const tlfea::MaterialPoint& Q,
             const py::object& f) {
            tlfea::ConstraintSet& cs = c.get();
            const tlfea::Vec3 d = sub3(cs.reference_position(Q), cs.reference_position(P));
            return cs.add_dist(P, Q, driving_function(f, std::sqrt(dot3(d, d)), "dist"));
          },
          py::arg("P"), py::arg("Q"), py::arg("f") = py::none(),
          "|Q - P| = f(t); f None: the reference distance.")
      .def(
          "add_cd",
          [](PyConstraints& c, const tlfea::MaterialPoint& P, const tlfea::MaterialPoint& Q,
             const tlfea::Vec3& dir, const py::object& f) {
            tlfea::ConstraintSet& cs = c.get();
            const Real n = std::sqrt(dot3(dir, dir));
            if (!(n > 0) || !std::isfinite(n)) fail("add_cd: direction must be nonzero");
            const tlfea::Vec3 d = sub3(cs.reference_position(Q), cs.reference_position(P));
            return cs.add_cd(P, Q, dir, driving_function(f, dot3(dir, d) / n, "cd"));
          },
          py::arg("P"), py::arg("Q"), py::arg("direction"), py::arg("f") = py::none(),
          "direction . (Q - P) = f(t) (direction normalised); f None: the reference value.")
      .def("reference_position", [](PyConstraints& c, const tlfea::MaterialPoint& p) {
        return c.get().reference_position(p);
      });
}

}  // namespace tlfea_py
