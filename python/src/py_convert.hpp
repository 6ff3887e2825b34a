// TLFEA Python module (private to python/src): conversions between Python
// and C++ values: Vec3 from any three numbers, Python callables as time
// and motion functions, and NumPy copies of coefficient views and vectors.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "py_runtime.hpp"
#include "tlfea/core/host_device.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/tensor.hpp"
#include "tlfea/model/model.hpp"

// tlfea::Vec3 <-> any sequence of three numbers (list, tuple, NumPy array);
// returned as a tuple.
namespace pybind11::detail {
template <>
struct type_caster<tlfea::Vec3> {
  PYBIND11_TYPE_CASTER(tlfea::Vec3, const_name("tuple[float, float, float]"));
  bool load(handle src, bool convert) {
    if (!src || isinstance<str>(src) || isinstance<bytes>(src) || !isinstance<sequence>(src))
      return false;
    auto seq = reinterpret_borrow<sequence>(src);
    if (seq.size() != 3) return false;
    for (size_t i = 0; i < 3; ++i) {
      make_caster<double> c;
      if (!c.load(seq[i], convert)) return false;
      value.v[i] = cast_op<double>(c);
    }
    return true;
  }
  static handle cast(const tlfea::Vec3& v, return_value_policy, handle) {
    return make_tuple(v.v[0], v.v[1], v.v[2]).release();
  }
};
}  // namespace pybind11::detail

namespace tlfea_py {

inline Real dot3(const tlfea::Vec3& a, const tlfea::Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline tlfea::Vec3 sub3(const tlfea::Vec3& a, const tlfea::Vec3& b) {
  return tlfea::Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}};
}

// ---------------------------------------------------------------------------
// Python callables as C++ functions.

// Holds a Python object; copies share it; the last owner drops it with the
// GIL held (C++ may copy and destroy a std::function without the GIL).
struct PyRef {
  std::shared_ptr<py::object> obj;
  explicit PyRef(py::object o)
      : obj(new py::object(std::move(o)), [](py::object* p) {
          if (Py_IsInitialized()) {
            py::gil_scoped_acquire gil;
            delete p;
          } else {
            p->release();  // interpreter gone: leak the reference
            delete p;
          }
        }) {}
};

// A plain number (int, float, NumPy scalar; not bool), as a double.
inline std::optional<double> as_number(const py::handle& o) {
  if (o.is_none() || py::isinstance<py::bool_>(o) || PyCallable_Check(o.ptr()) ||
      py::isinstance<py::str>(o) || py::isinstance<py::sequence>(o))
    return std::nullopt;
  try {
    return o.cast<double>();
  } catch (const py::cast_error&) {
    return std::nullopt;
  }
}

inline double call_scalar(const PyRef& f, const std::string& what, Real t) {
  py::gil_scoped_acquire gil;
  py::object r = (*f.obj)(t);
  try {
    return r.cast<double>();
  } catch (const py::cast_error&) {
    fail(what + ": the function returned " + std::string(py::repr(r)) + ", not a number");
  }
}

// None -> empty (amplitude 1), a number -> that constant, a callable f(t).
inline tlfea::TimeFunction time_function(const py::object& o, const std::string& what) {
  if (o.is_none()) return {};
  if (const auto c = as_number(o)) {
    const double v = *c;
    return [v](Real) { return v; };
  }
  if (!PyCallable_Check(o.ptr()))
    throw py::type_error(what + ": expected None, a number or a callable f(t), got " +
                         std::string(py::repr(o)));
  PyRef f(o);
  return [f, what](Real t) { return call_scalar(f, what, t); };
}

// A callable x(t, X) -> 3 numbers.
inline tlfea::MotionFunction motion_function(const py::object& o, const std::string& what) {
  if (!PyCallable_Check(o.ptr()))
    throw py::type_error(what + ": expected a callable f(t, X) returning 3 numbers, got " +
                         std::string(py::repr(o)));
  PyRef f(o);
  return [f, what](Real t, const tlfea::Vec3& X) {
    py::gil_scoped_acquire gil;
    py::object r = (*f.obj)(t, py::make_tuple(X[0], X[1], X[2]));
    try {
      return r.cast<tlfea::Vec3>();
    } catch (const py::cast_error&) {
      fail(what + ": the function returned " + std::string(py::repr(r)) +
           ", not a sequence of 3 numbers");
    }
  };
}

// None -> the reference value `ref`, a number -> constant, a callable f(t).
inline tlfea::DrivingFunction driving_function(const py::object& o, Real ref,
                                               const std::string& what) {
  if (o.is_none()) return tlfea::DrivingFunction::constant(ref);
  if (const auto c = as_number(o)) return tlfea::DrivingFunction::constant(*c);
  if (!PyCallable_Check(o.ptr()))
    throw py::type_error(what + ": expected None, a number or a callable f(t), got " +
                         std::string(py::repr(o)));
  PyRef f(o);
  return tlfea::DrivingFunction::function([f, what](Real t) { return call_scalar(f, what, t); });
}

// ---------------------------------------------------------------------------
// Arrays.

using HostCoef = Kokkos::View<Real* [3], Kokkos::LayoutRight, Kokkos::HostSpace,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using HostVec = Kokkos::View<Real*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// (n, 3) NumPy copy of a coefficient view (one deep_copy from its space).
inline py::array_t<double> coef_to_numpy(const tlfea::CoefView& v) {
  const py::ssize_t n = static_cast<py::ssize_t>(v.extent(0));
  py::array_t<double> a({n, py::ssize_t(3)});
  if (n > 0) {
    HostCoef h(a.mutable_data(), static_cast<size_t>(n));
    tlfea::copy_to_host(h, v);
  }
  return a;
}

inline py::array_t<double> vec_to_numpy(const tlfea::DeviceView<Real*>& v) {
  const py::ssize_t n = static_cast<py::ssize_t>(v.extent(0));
  py::array_t<double> a(n);
  if (n > 0) {
    HostVec h(a.mutable_data(), static_cast<size_t>(n));
    tlfea::copy_to_host(h, v);
  }
  return a;
}

using CArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

inline tlfea::CoefView numpy_to_coef(const CArray& a, Ordinal n, const std::string& what) {
  if (a.ndim() != 2 || a.shape(1) != 3 || a.shape(0) != n) {
    std::ostringstream os;
    os << what << ": expected an array of shape (" << n << ", 3), got shape (";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) os << (d ? ", " : "") << a.shape(d);
    os << (a.ndim() == 1 ? ",)" : ")");
    fail(os.str());
  }
  const double* p = a.data();
  for (py::ssize_t i = 0; i < 3 * a.shape(0); ++i)
    if (!std::isfinite(p[i])) fail(what + ": the array holds a non-finite value");
  tlfea::CoefView v("tlfea_python_coef", static_cast<size_t>(n));
  if (n > 0) {
    Kokkos::View<const Real* [3], Kokkos::LayoutRight, Kokkos::HostSpace,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        h(p, static_cast<size_t>(n));
    tlfea::copy_to_device(v, h);
  }
  return v;
}

template <class T>
inline py::array_t<T> to_numpy(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

inline py::array_t<double> rows3_to_numpy(const std::vector<std::array<Real, 3>>& rows) {
  py::array_t<double> a({static_cast<py::ssize_t>(rows.size()), py::ssize_t(3)});
  double* p = a.mutable_data();
  for (size_t i = 0; i < rows.size(); ++i)
    for (int d = 0; d < 3; ++d) p[3 * i + d] = rows[i][d];
  return a;
}

inline tlfea::ElementType element_type(const py::object& o) {
  if (py::isinstance<py::str>(o)) return tlfea::element_type_from_string(o.cast<std::string>());
  return o.cast<tlfea::ElementType>();
}

}  // namespace tlfea_py
