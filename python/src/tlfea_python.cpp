// The Python module `tlfea` (docs/python.md): scenes, models built in code,
// the time stepper, output and checkpoints, close to the C++ API.
//
// Lifetime. Kokkos (and, in the Trilinos build, MPI through MpiSession) is
// started once per process: at the first call that needs it, or by
// tlfea.initialize(threads=...). It is finalised by an atexit hook (or
// tlfea.finalize()). Every Python object that owns Kokkos views (Model,
// Scene, Stepper, OutputWriter, ConstraintSet) is a Resource registered in a
// process-wide registry; finalize() first releases their C++ contents (output
// writers, then steppers, then scenes, constraint sets and models, so that no
// object outlives one it refers to) and only then calls Kokkos::finalize. A
// Python object that survives that is an empty shell: using it raises
// tlfea.Error. Arrays handed to Python are NumPy copies (one deep_copy from
// wherever the view lives, host or device), never views into Kokkos memory,
// so they stay valid after finalisation.
//
// Python callables (load amplitudes, prescribed motions, joint drives) are
// called from C++ on the host, inside step(), which runs with the GIL
// released: the wrapper takes the GIL for the call and holds the Python
// object through a shared_ptr whose deleter takes the GIL, so C++ may copy
// and destroy the std::function freely. An exception raised by the callable
// propagates out of step() unchanged; the stepper's state is then the one
// at the start of that step (TimeStepper commits a step only at its end).
//
// Errors: tlfea::Error becomes tlfea.Error (a RuntimeError) with the same
// message as the tlfea command prints (FILE:LINE:COLUMN: ... for scenes).
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

#include "tlfea/constraints/constraint_set.hpp"
#include "tlfea/constraints/material_point.hpp"
#include "tlfea/core/error.hpp"
#include "tlfea/core/generators.hpp"
#include "tlfea/core/mesh.hpp"
#include "tlfea/core/mesh_io.hpp"
#include "tlfea/materials/material_spec.hpp"
#include "tlfea/scene/scene.hpp"
#include "tlfea/solvers/linear_solver.hpp"
#include "tlfea/solvers/model.hpp"
#include "tlfea/solvers/mpi_session.hpp"
#include "tlfea/solvers/time_stepper.hpp"
#ifdef TLFEA_HAVE_IO
#include "tlfea/io/output.hpp"
#endif

#ifndef TLFEA_VERSION
#define TLFEA_VERSION "unknown"
#endif

namespace py = pybind11;
using tlfea::Real;
using tlfea::Ordinal;

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

namespace {

[[noreturn]] void fail(const std::string& msg) { throw tlfea::Error(msg); }

Real dot3(const tlfea::Vec3& a, const tlfea::Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
tlfea::Vec3 sub3(const tlfea::Vec3& a, const tlfea::Vec3& b) {
  return tlfea::Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}};
}

// ---------------------------------------------------------------------------
// Runtime: Kokkos + MPI, and the registry of objects holding Kokkos views.

class Resource;

struct Runtime {
  std::unique_ptr<tlfea::MpiSession> mpi;
  bool kokkos_ours = false;  // this module called Kokkos::initialize
  bool finalized = false;
  int threads = -1;          // as asked of initialize (-1: Kokkos' default)
  int stepping = 0;          // steps in progress (finalize must wait for none)
  std::set<Resource*> live;
};
// Never destroyed: objects may unregister during interpreter teardown.
Runtime& rt() {
  static Runtime* r = new Runtime;
  return *r;
}

class Resource {
 public:
  // rank: release order at finalize (lower first): 0 output writers,
  // 1 steppers, 2 scenes and constraint sets, 3 models.
  explicit Resource(int rank) : rank_(rank) { rt().live.insert(this); }
  virtual ~Resource() { rt().live.erase(this); }
  Resource(const Resource&) = delete;
  Resource& operator=(const Resource&) = delete;
  virtual void release() = 0;
  int rank() const { return rank_; }

 private:
  int rank_;
};

const char* kFinalizedMessage =
    "tlfea: this object was released when Kokkos was finalized (tlfea.finalize() or interpreter "
    "exit)";

void ensure_initialized(int threads = -1) {
  Runtime& r = rt();
  if (r.finalized)
    fail("tlfea: Kokkos has been finalized in this process (tlfea.finalize()); it cannot be "
         "initialized again");
  if (Kokkos::is_initialized()) return;
  // MPI before Kokkos (Tpetra under the KLU2 / Belos backends needs it);
  // MpiSession starts it only when nobody has (e.g. mpi4py) and then ends it.
  if (!r.mpi) r.mpi = std::make_unique<tlfea::MpiSession>(nullptr, nullptr);
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings args;
  if (threads > 0) args.set_num_threads(threads);
  Kokkos::initialize(args);
#else
  Kokkos::InitArguments args;
  args.num_threads = threads > 0 ? threads : -1;
  Kokkos::initialize(args);
#endif
  r.kokkos_ours = true;
  r.threads = threads;
}

void finalize_runtime() {
  Runtime& r = rt();
  if (r.finalized) return;
  if (r.stepping > 0) fail("tlfea.finalize: a step is in progress (called from a callback?)");
  std::vector<Resource*> objs(r.live.begin(), r.live.end());
  std::stable_sort(objs.begin(), objs.end(),
                   [](const Resource* a, const Resource* b) { return a->rank() < b->rank(); });
  for (Resource* o : objs) o->release();
  if (r.kokkos_ours && Kokkos::is_initialized()) Kokkos::finalize();
  r.mpi.reset();  // MPI_Finalize after Kokkos, when this module started MPI
  r.finalized = true;
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
std::optional<double> as_number(const py::handle& o) {
  if (o.is_none() || py::isinstance<py::bool_>(o) || PyCallable_Check(o.ptr()) ||
      py::isinstance<py::str>(o) || py::isinstance<py::sequence>(o))
    return std::nullopt;
  try {
    return o.cast<double>();
  } catch (const py::cast_error&) {
    return std::nullopt;
  }
}

double call_scalar(const PyRef& f, const std::string& what, Real t) {
  py::gil_scoped_acquire gil;
  py::object r = (*f.obj)(t);
  try {
    return r.cast<double>();
  } catch (const py::cast_error&) {
    fail(what + ": the function returned " + std::string(py::repr(r)) + ", not a number");
  }
}

// None -> empty (amplitude 1), a number -> that constant, a callable f(t).
tlfea::TimeFunction time_function(const py::object& o, const std::string& what) {
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
tlfea::MotionFunction motion_function(const py::object& o, const std::string& what) {
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
tlfea::DrivingFunction driving_function(const py::object& o, Real ref, const std::string& what) {
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
py::array_t<double> coef_to_numpy(const tlfea::CoefView& v) {
  const py::ssize_t n = static_cast<py::ssize_t>(v.extent(0));
  py::array_t<double> a({n, py::ssize_t(3)});
  if (n > 0) {
    HostCoef h(a.mutable_data(), static_cast<size_t>(n));
    Kokkos::deep_copy(h, v);
  }
  return a;
}

py::array_t<double> vec_to_numpy(const tlfea::DeviceView<Real*>& v) {
  const py::ssize_t n = static_cast<py::ssize_t>(v.extent(0));
  py::array_t<double> a(n);
  if (n > 0) {
    HostVec h(a.mutable_data(), static_cast<size_t>(n));
    Kokkos::deep_copy(h, v);
  }
  return a;
}

using CArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

tlfea::CoefView numpy_to_coef(const CArray& a, Ordinal n, const std::string& what) {
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
    Kokkos::deep_copy(v, h);
  }
  return v;
}

template <class T>
py::array_t<T> to_numpy(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::array_t<double> rows3_to_numpy(const std::vector<std::array<Real, 3>>& rows) {
  py::array_t<double> a({static_cast<py::ssize_t>(rows.size()), py::ssize_t(3)});
  double* p = a.mutable_data();
  for (size_t i = 0; i < rows.size(); ++i)
    for (int d = 0; d < 3; ++d) p[3 * i + d] = rows[i][d];
  return a;
}

tlfea::ElementType element_type(const py::object& o) {
  if (py::isinstance<py::str>(o)) return tlfea::element_type_from_string(o.cast<std::string>());
  return o.cast<tlfea::ElementType>();
}

// ---------------------------------------------------------------------------
// Wrapped objects.

class PyModel;

// The Model and the stepper-independent extras of a scene (contact), shared by
// every Python object that refers to them. For a scene, the model is an
// aliasing pointer that keeps the whole tlfea::scene::Scene alive.
struct ModelHandle {
  std::shared_ptr<tlfea::Model> model;
  std::shared_ptr<tlfea::scene::Scene> scene;  // null for models built in code
};

tlfea::CoefViewHost host_reference(tlfea::Model& m) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.reference());
}

void check_body(const tlfea::Model& m, int body) {
  if (body < 0 || body >= m.num_bodies())
    fail("body " + std::to_string(body) + " out of range (" + std::to_string(m.num_bodies()) +
         " bodies)");
}

class PyModel : public Resource {
 public:
  PyModel() : Resource(3) {
    ensure_initialized();
    h_.model = std::make_shared<tlfea::Model>();
  }
  explicit PyModel(ModelHandle h) : Resource(3), h_(std::move(h)) {}
  void release() override { h_ = ModelHandle{}; }
  tlfea::Model& get() const {
    if (!h_.model) fail(kFinalizedMessage);
    return *h_.model;
  }
  const ModelHandle& handle() const {
    get();
    return h_;
  }

 private:
  ModelHandle h_;
};

class PyConstraints : public Resource {
 public:
  explicit PyConstraints(ModelHandle h) : Resource(2), h_(std::move(h)) {}
  void release() override { h_ = ModelHandle{}; }
  tlfea::ConstraintSet& get() const {
    if (!h_.model) fail(kFinalizedMessage);
    return h_.model->constraints();
  }

 private:
  ModelHandle h_;
};

class PyScene : public Resource {
 public:
  explicit PyScene(tlfea::scene::Scene s) : Resource(2) {
    h_.scene = std::make_shared<tlfea::scene::Scene>(std::move(s));
    h_.model = std::shared_ptr<tlfea::Model>(h_.scene, h_.scene->model.get());
  }
  void release() override { h_ = ModelHandle{}; }
  tlfea::scene::Scene& get() const {
    if (!h_.scene) fail(kFinalizedMessage);
    return *h_.scene;
  }
  const ModelHandle& handle() const {
    get();
    return h_;
  }

 private:
  ModelHandle h_;
};

class PyStepper : public Resource {
 public:
  PyStepper(ModelHandle h, const tlfea::StepperSettings& s) : Resource(1), h_(std::move(h)) {
    ensure_initialized();
    py::gil_scoped_release nogil;  // finalize / analysis may take a while
    stepper_ = std::make_shared<tlfea::TimeStepper>(*h_.model, s);
  }
  void release() override {
    stepper_.reset();
    h_ = ModelHandle{};
  }
  tlfea::TimeStepper& get() const {
    if (!stepper_) fail(kFinalizedMessage);
    return *stepper_;
  }
  const ModelHandle& handle() const {
    get();
    return h_;
  }
  const std::shared_ptr<tlfea::TimeStepper>& shared() const {
    get();
    return stepper_;
  }
  tlfea::ContactForces* contact() const { return h_.scene ? h_.scene->contact.get() : nullptr; }

  tlfea::StepReport step() {
    tlfea::TimeStepper& s = mutable_stepper("step");
    Busy busy(*this);
    py::gil_scoped_release nogil;
    return s.step();
  }
  // For calls that change the state: refused while this stepper is inside
  // step() (a Python callback called from the step, or another thread).
  tlfea::TimeStepper& mutable_stepper(const char* what) {
    tlfea::TimeStepper& s = get();
    if (busy_)
      fail(std::string("Stepper.") + what +
           ": this stepper is inside step() (called from a load function or another thread)");
    return s;
  }

 private:
  struct Busy {  // constructed and destroyed with the GIL held
    PyStepper& p;
    explicit Busy(PyStepper& ps) : p(ps) {
      p.busy_ = true;
      ++rt().stepping;
    }
    ~Busy() {
      p.busy_ = false;
      --rt().stepping;
    }
  };
  bool busy_ = false;
  ModelHandle h_;
  std::shared_ptr<tlfea::TimeStepper> stepper_;
};

#ifdef TLFEA_HAVE_IO
class PyOutputWriter : public Resource {
 public:
  PyOutputWriter(const PyStepper& st, const tlfea::io::OutputSettings& os) : Resource(0) {
    h_ = st.handle();
    stepper_ = st.shared();
    writer_ = std::make_unique<tlfea::io::OutputWriter>(*h_.model, *stepper_, os);
    if (h_.scene) {
      if (h_.scene->contact) writer_->set_contact(h_.scene->contact.get(), &h_.scene->detection->points());
      for (const auto& j : h_.scene->joints) writer_->add_joint(j.first, j.second);
    }
    directory_ = os.directory;
  }
  void release() override {
    writer_.reset();
    stepper_.reset();
    h_ = ModelHandle{};
  }
  tlfea::io::OutputWriter& get() const {
    if (!writer_) fail(finished_ ? "OutputWriter: finish() was called; the writer is closed"
                                 : kFinalizedMessage);
    return *writer_;
  }
  void finish() {
    if (finished_) return;
    get().finish();
    finished_ = true;
    writer_.reset();
  }
  bool finished() const { return finished_; }
  const std::string& directory() const { return directory_; }
  const tlfea::TimeStepper* stepper() const { return stepper_.get(); }

 private:
  ModelHandle h_;
  std::shared_ptr<tlfea::TimeStepper> stepper_;
  std::unique_ptr<tlfea::io::OutputWriter> writer_;
  std::string directory_;
  bool finished_ = false;
};
#endif

// ---------------------------------------------------------------------------
// StepperSettings and LinearSolverOptions: attribute lists for kwargs and repr.

template <class T>
void set_from_kwargs(T& obj, const py::kwargs& kw, const char* type) {
  py::object self = py::cast(&obj, py::return_value_policy::reference);
  for (const auto& item : kw) {
    const std::string key = item.first.cast<std::string>();
    if (key.rfind("_", 0) == 0 || !py::hasattr(self, key.c_str()))
      throw py::type_error(std::string(type) + ": no setting named '" + key + "'");
    py::setattr(self, key.c_str(), item.second);
  }
}

std::string repr_fields(const py::object& self, const char* type,
                        const std::vector<const char*>& fields) {
  std::string out = std::string(type) + "(";
  for (size_t i = 0; i < fields.size(); ++i)
    out += (i ? ", " : "") + std::string(fields[i]) + "=" +
           std::string(py::repr(self.attr(fields[i])));
  return out + ")";
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

void check_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

}  // namespace

PYBIND11_MODULE(tlfea, m) {
  m.doc() =
      "TLFEA: finite-deformation flexible multibody dynamics (Total Lagrangian FEA, ANCF, "
      "joints, contact) on Kokkos. See docs/python.md.";
  m.attr("__version__") = TLFEA_VERSION;

  py::register_exception<tlfea::Error>(m, "Error", PyExc_RuntimeError);
  m.attr("Error").attr("__doc__") =
      "An error reported by TLFEA (bad input, a step that did not converge, a file that cannot be "
      "written); the message is the one the tlfea command prints (FILE:LINE:COLUMN: ... for "
      "scenes).";

  // --- runtime ---------------------------------------------------------------
  m.def(
      "initialize",
      [](std::optional<int> threads) {
        const int n = threads ? *threads : -1;
        if (threads && *threads < 1) fail("tlfea.initialize: threads must be >= 1");
        if (Kokkos::is_initialized() && !rt().finalized) {
          if (threads && rt().kokkos_ours && n != rt().threads)
            fail("tlfea.initialize: Kokkos is already initialized (with " +
                 (rt().threads > 0 ? std::to_string(rt().threads) + " threads"
                                   : std::string("the default thread count")) +
                 "); call initialize(threads=...) before creating any model or scene");
          return;
        }
        ensure_initialized(n);
      },
      py::arg("threads") = py::none(),
      "Starts Kokkos (and MPI in a build with the Trilinos solvers) with `threads` host threads "
      "(OpenMP build; default: OMP_NUM_THREADS or all cores). Optional: the first model, scene "
      "or info() call starts it with the defaults. Once per process.");
  m.def("is_initialized", []() { return Kokkos::is_initialized() && !rt().finalized; });
  m.def("finalize", &finalize_runtime,
        "Releases every TLFEA object still alive, then finalizes Kokkos (and MPI if this module "
        "started it). Runs by itself at interpreter exit; afterwards TLFEA cannot be used in this "
        "process.");
  m.def("live_objects", []() { return rt().live.size(); },
        "Number of live TLFEA objects holding Kokkos memory (models, scenes, steppers, writers).");

  m.def(
      "info",
      []() {
        ensure_initialized();
        py::dict d;
        d["version"] = TLFEA_VERSION;
        d["kokkos_backend"] = Kokkos::DefaultExecutionSpace::name();
        d["concurrency"] = static_cast<int>(Kokkos::DefaultExecutionSpace().concurrency());
        d["mpi"] = tlfea::MpiSession::enabled();
        d["linear_solvers"] = tlfea::available_linear_solvers();
        const tlfea::BlasThreads blas = tlfea::configure_blas_threads();
        py::dict b;
        b["library"] = blas.library;
        b["threads"] = blas.threads;
        b["source"] = blas.source;
        d["blas"] = b;
#ifdef TLFEA_HAVE_IO
        d["output"] = true;
#else
        d["output"] = false;
#endif
        return d;
      },
      "What `tlfea info` prints, as a dict: version, kokkos_backend, concurrency, mpi, "
      "linear_solvers, blas, output.");

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
      .def_property_readonly("coefficients",
                             [](const tlfea::Mesh& s) { return rows3_to_numpy(s.coefficients); },
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
      .def_property_readonly("face_sets",
                             [](const tlfea::Mesh& s) {
                               py::dict d;
                               for (const auto& [k, v] : s.face_sets) {
                                 py::array_t<Ordinal> a({static_cast<py::ssize_t>(v.size()),
                                                         py::ssize_t(2)});
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
        return "<tlfea.Mesh " + std::string(tlfea::to_string(s.type)) + " '" + s.source + "': " +
               std::to_string(s.num_nodes()) + " nodes, " + std::to_string(s.num_elements()) +
               " elements>";
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
      .def("__repr__", [](const tlfea::MaterialSpec& s) {
        return "<tlfea.MaterialSpec " + s.name() + ">";
      });

  // --- settings and reports --------------------------------------------------
  static const std::vector<const char*> kLinearFields = {
      "backend",   "symmetric", "positive_definite", "tolerance",
      "max_iterations", "preconditioner", "ilu_level", "ordering"};
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
      .def("__repr__", [](const py::object& self) {
        return repr_fields(self, "LinearSolverOptions", kLinearFields);
      });

  static const std::vector<const char*> kSettingsFields = {
      "dt", "penalty", "penalty_scale", "max_outer", "constraint_tolerance", "max_newton",
      "residual_force_tol", "residual_rel_tol", "residual_abs_tol", "step_tol", "position_tol",
      "analysis", "dp1_curvature", "line_search", "reuse_jacobian", "reuse_ratio", "max_retries",
      "linear", "inner_solver", "adamw_learning_rate", "adamw_beta1", "adamw_beta2",
      "adamw_epsilon", "adamw_weight_decay", "adamw_lr_decay", "adamw_max_iterations",
      "adamw_check_every"};
  using SS = tlfea::StepperSettings;
  py::class_<SS>(m, "StepperSettings",
                 "tlfea::StepperSettings: every field an attribute (README, 'Time-step "
                 "settings'); StepperSettings(dt=1e-4, analysis='static', ...) sets them by "
                 "keyword.")
      .def(py::init([](const py::kwargs& kw) {
             auto s = std::make_unique<SS>();
             set_from_kwargs(*s, kw, "StepperSettings");
             return s;
           }))
      .def("copy", [](const SS& s) { return SS(s); })
      .def_readwrite("dt", &SS::dt)
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
          "analysis", [](const SS& s) { return s.analysis; },
          [](SS& s, const std::string& a) {
            if (a != "dynamic" && a != "static")
              fail("StepperSettings.analysis: expected 'dynamic' or 'static', got '" + a + "'");
            s.analysis = a;
          })
      .def_readwrite("dp1_curvature", &SS::dp1_curvature)
      .def_readwrite("line_search", &SS::line_search)
      .def_readwrite("reuse_jacobian", &SS::reuse_jacobian)
      .def_readwrite("reuse_ratio", &SS::reuse_ratio)
      .def_readwrite("max_retries", &SS::max_retries)
      .def_readwrite("linear", &SS::linear)
      .def_property(
          "inner_solver", [](const SS& s) { return s.inner_solver; },
          [](SS& s, const std::string& a) {
            if (a != "newton" && a != "adamw")
              fail("StepperSettings.inner_solver: expected 'newton' or 'adamw', got '" + a + "'");
            s.inner_solver = a;
          })
      .def_readwrite("adamw_learning_rate", &SS::adamw_learning_rate)
      .def_readwrite("adamw_beta1", &SS::adamw_beta1)
      .def_readwrite("adamw_beta2", &SS::adamw_beta2)
      .def_readwrite("adamw_epsilon", &SS::adamw_epsilon)
      .def_readwrite("adamw_weight_decay", &SS::adamw_weight_decay)
      .def_readwrite("adamw_lr_decay", &SS::adamw_lr_decay)
      .def_readwrite("adamw_max_iterations", &SS::adamw_max_iterations)
      .def_readwrite("adamw_check_every", &SS::adamw_check_every)
      .def("__repr__",
           [](const py::object& self) { return repr_fields(self, "StepperSettings", kSettingsFields); });

  using SR = tlfea::StepReport;
  py::class_<SR>(m, "StepReport", "What one step() did (tlfea::StepReport).")
      .def_readonly("converged", &SR::converged)
      .def_readonly("newton_iterations", &SR::newton_iterations)
      .def_readonly("outer_iterations", &SR::outer_iterations)
      .def_readonly("factorizations", &SR::factorizations)
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
            const tlfea::Vec3 a = sub3(cs.reference_position(Q), cs.reference_position(P));
            const tlfea::Vec3 b = sub3(cs.reference_position(T), cs.reference_position(R));
            return cs.add_dp1(P, Q, R, T, driving_function(f, dot3(a, b), "dp1"));
          },
          py::arg("P"), py::arg("Q"), py::arg("R"), py::arg("T"), py::arg("f") = py::none(),
          "(Q - P) . (T - R) = f(t); f None: its reference value. Returns the row.")
      .def(
          "add_dp2",
          [](PyConstraints& c, const tlfea::MaterialPoint& P, const tlfea::MaterialPoint& Q,
             const tlfea::MaterialPoint& R, const tlfea::MaterialPoint& S, const py::object& f) {
            tlfea::ConstraintSet& cs = c.get();
            const tlfea::Vec3 a = sub3(cs.reference_position(Q), cs.reference_position(P));
            const tlfea::Vec3 d = sub3(cs.reference_position(S), cs.reference_position(R));
            return cs.add_dp2(P, Q, R, S, driving_function(f, dot3(a, d), "dp2"));
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
      .def("__repr__", [](const PyModel& pm) {
        const tlfea::Model& mo = pm.get();
        return "<tlfea.Model " + std::to_string(mo.num_bodies()) + " bodies, " +
               std::to_string(mo.num_coefficients()) + " coefficients>";
      });

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
      .def_property_readonly("joints",
                             [](const PyScene& s) {
                               py::list l;
                               for (const auto& j : s.get().joints)
                                 l.append(py::make_tuple(j.first, j.second));
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
          [](PyScene& s, std::optional<SS> settings) {
            const tlfea::scene::Scene& sc = s.get();
            auto st = std::make_unique<PyStepper>(s.handle(), settings ? *settings : sc.settings);
            sc.apply_initial_state(st->get());
            return st;
          },
          py::arg("settings") = py::none(),
          "A Stepper on the scene's model with the scene's settings (or `settings`) and initial "
          "velocities, as `tlfea run` makes it. A scene's contact history is shared by its "
          "steppers: make one stepper per scene.")
      .def("__repr__", [](const PyScene& s) {
        const auto& sc = s.get();
        return "<tlfea.Scene '" + sc.name + "' (" + sc.file + "): " +
               std::to_string(sc.bodies.size()) + " bodies, " + std::to_string(sc.steps) +
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
          "run",
          [](PyStepper& ps, long steps, py::object output, py::object callback) {
            if (steps < 0) fail("Stepper.run: steps must be >= 0");
#ifdef TLFEA_HAVE_IO
            PyOutputWriter* writer = nullptr;
            if (!output.is_none()) {
              if (!py::isinstance<PyOutputWriter>(output))
                throw py::type_error("Stepper.run: output must be a tlfea.OutputWriter or None");
              writer = output.cast<PyOutputWriter*>();
              writer->get();
              if (writer->stepper() != &ps.get())
                fail("Stepper.run: the OutputWriter was made for another stepper");
            }
#else
            if (!output.is_none()) fail("Stepper.run: this build has no output layer");
#endif
            py::list reports;
            py::object self = py::cast(&ps, py::return_value_policy::reference);
            for (long k = 0; k < steps; ++k) {
              tlfea::StepReport r = ps.step();
#ifdef TLFEA_HAVE_IO
              if (writer) writer->get().record(r);
#endif
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
      .def_property_readonly("steps_taken", [](const PyStepper& s) { return s.get().steps_taken(); })
      .def_property_readonly("is_static", [](const PyStepper& s) { return s.get().is_static(); })
      .def_property_readonly("penalty", [](const PyStepper& s) { return s.get().penalty(); })
      .def_property_readonly("settings", [](const PyStepper& s) { return s.get().settings(); },
                             "A copy of the settings in use.")
      .def_property_readonly("model",
                             [](const PyStepper& s) { return std::make_unique<PyModel>(s.handle()); })
      .def_property_readonly(
          "positions", [](const PyStepper& s) { return coef_to_numpy(s.get().positions()); },
          "(num_coefficients, 3) copy of the coefficients q (ANCF: r, r_u, r_v, r_w per node).")
      .def_property(
          "velocities", [](const PyStepper& s) { return coef_to_numpy(s.get().velocities()); },
          [](PyStepper& s, const CArray& v) {
            tlfea::TimeStepper& st = s.mutable_stepper("velocities");
            st.set_velocities(numpy_to_coef(v, st.model().num_coefficients(), "Stepper.velocities"));
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
      .def("kinetic_energy",
           [](const PyStepper& s) {
             const tlfea::TimeStepper& st = s.get();
             return st.model().kinetic_energy(st.velocities());
           },
           "1/2 v^T M v with the consistent mass matrix.")
      .def("node_positions",
           [](const PyStepper& s, int b) {
             const tlfea::TimeStepper& st = s.get();
             const tlfea::Model& mo = st.model();
             check_body(mo, b);
             const auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), st.positions());
             const tlfea::Mesh& mesh = mo.mesh(b);
             const Ordinal off = mo.coefficient_offset(b), cpn = mesh.coefficients_per_node();
             py::array_t<double> a({static_cast<py::ssize_t>(mesh.num_nodes()), py::ssize_t(3)});
             double* p = a.mutable_data();
             for (Ordinal k = 0; k < mesh.num_nodes(); ++k)
               for (int d = 0; d < 3; ++d) p[3 * k + d] = q(off + k * cpn, d);
             return a;
           },
           py::arg("body"), "(num_nodes, 3) current node positions of one body.")
      .def_property_readonly("linear_stats", [](const PyStepper& s) { return s.get().linear_stats(); })
#ifdef TLFEA_HAVE_IO
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
            tlfea::io::save_checkpoint(path, s.get(), s.contact());
          },
          py::arg("path"), "Writes an HDF5 checkpoint (as tlfea run's checkpoint.h5).")
      .def(
          "load_checkpoint",
          [](PyStepper& s, const std::string& path) {
            if (!std::filesystem::is_regular_file(path)) fail("load_checkpoint: no file '" + path + "'");
            tlfea::io::load_checkpoint(path, s.mutable_stepper("load_checkpoint"), s.contact());
          },
          py::arg("path"),
          "Restores a checkpoint into this stepper (same model layout; continues bit-identically "
          "in Serial).")
#endif
      .def("__repr__", [](const PyStepper& s) {
        const auto& st = s.get();
        return "<tlfea.Stepper t=" + fmt(st.time()) + " steps=" + std::to_string(st.steps_taken()) +
               " dt=" + fmt(st.settings().dt) + (st.is_static() ? " static>" : ">");
      });
  m.attr("TimeStepper") = m.attr("Stepper");

#ifdef TLFEA_HAVE_IO
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
             if (h.scene) {  // defaults: the scene's output section
               const SO& so = h.scene->output;
               os.directory = so.directory;
               os.every = so.every;
               os.displacement = so.displacement;
               os.velocity = so.velocity;
               os.stress = so.stress;
               os.reactions = so.reactions;
               os.contact = so.contact;
               os.samples = so.samples;
               // The per-body history columns carry the scene's body names,
               // as in `tlfea run`.
               for (const auto& b : h.scene->bodies) os.body_names.push_back(b.name);
             }
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
                 if (n == "displacement") os.displacement = true;
                 else if (n == "velocity") os.velocity = true;
                 else if (n == "stress") os.stress = true;
                 else if (n == "reactions") os.reactions = true;
                 else if (n == "contact") os.contact = true;
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
      .def("record", [](PyOutputWriter& w, const SR& r) { w.get().record(r); }, py::arg("report"))
      .def("write_fields", [](PyOutputWriter& w) { w.get().write_fields(); })
      .def("add_joint",
           [](PyOutputWriter& w, const std::string& name, const tlfea::RowRange& rows) {
             w.get().add_joint(name, rows);
           })
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
#endif

  // Kokkos and MPI end at interpreter exit, after every object is released.
  py::module_::import("atexit").attr("register")(py::cpp_function(&finalize_runtime));
}
