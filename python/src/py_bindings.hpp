// TLFEA Python module (private to python/src): what every binding file
// shares: the conversions and wrapped objects, the kwargs / repr helpers of
// the settings classes, and one bind_* function per topic, called in this
// order by the module (tlfea_python.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "py_convert.hpp"
#include "py_objects.hpp"
#include "py_runtime.hpp"
#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/mesh_io.hpp"
#include "tlfea/integrators/time_stepper.hpp"
#include "tlfea/io/output.hpp"
#include "tlfea/linalg/linear_solver.hpp"
#include "tlfea/linalg/mpi_session.hpp"
#include "tlfea/materials/material_spec.hpp"
#include "tlfea/model/model.hpp"
#include "tlfea/scene/scene.hpp"

#ifndef TLFEA_VERSION
#define TLFEA_VERSION "unknown"
#endif

namespace tlfea_py {

// ---------------------------------------------------------------------------
// StepperSettings and LinearSolverOptions: attribute lists for kwargs and repr.

template <class T>
inline void set_from_kwargs(T& obj, const py::kwargs& kw, const char* type) {
  py::object self = py::cast(&obj, py::return_value_policy::reference);
  for (const auto& item : kw) {
    const std::string key = item.first.cast<std::string>();
    if (key.rfind("_", 0) == 0 || !py::hasattr(self, key.c_str()))
      throw py::type_error(std::string(type) + ": no setting named '" + key + "'");
    py::setattr(self, key.c_str(), item.second);
  }
}

inline std::string repr_fields(const py::object& self, const char* type,
                               const std::vector<const char*>& fields) {
  std::string out = std::string(type) + "(";
  for (size_t i = 0; i < fields.size(); ++i)
    out += (i ? ", " : "") + std::string(fields[i]) + "=" +
           std::string(py::repr(self.attr(fields[i])));
  return out + ")";
}

inline std::string fmt(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

inline void check_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

void bind_meshes_materials(py::module_& m);  // bind_meshes.cpp
void bind_settings(py::module_& m);          // bind_settings.cpp
void bind_constraints(py::module_& m);       // bind_constraints.cpp
void bind_model(py::module_& m);             // bind_model.cpp
void bind_scene(py::module_& m);             // bind_scene.cpp
void bind_stepper(py::module_& m);           // bind_stepper.cpp
void bind_output(py::module_& m);            // bind_output.cpp

}  // namespace tlfea_py
