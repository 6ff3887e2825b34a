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
#include "py_bindings.hpp"
#include "tlfea/core/build_info.hpp"
#include "tlfea/elements/lane_force_dispatch.hpp"

using namespace tlfea_py;

PYBIND11_MODULE(_tlfea, m) {
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
  m.def(
      "live_objects", []() { return rt().live.size(); },
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
        d["cpu_target"] = tlfea::cpu_target();
        d["cpu_kernels"] = tlfea::cpu_kernels();
        const tlfea::BlasThreads blas = tlfea::configure_blas_threads();
        py::dict b;
        b["library"] = blas.library;
        b["threads"] = blas.threads;
        b["source"] = blas.source;
        d["blas"] = b;
        d["output"] = true;
        return d;
      },
      "What `tlfea info` prints, as a dict: version, kokkos_backend, concurrency, mpi, "
      "linear_solvers, cpu_target, cpu_kernels, blas, output.");

  bind_meshes_materials(m);
  bind_settings(m);
  bind_constraints(m);
  bind_model(m);
  bind_scene(m);
  bind_stepper(m);
  bind_output(m);

  // Kokkos and MPI end at interpreter exit, after every object is released.
  py::module_::import("atexit").attr("register")(py::cpp_function(&finalize_runtime));
}
