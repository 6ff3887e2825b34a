# The module's runtime, info(), settings objects, meshes and argument checks.
import subprocess
import sys

import numpy as np
import pytest

import tlfea


def test_info_has_what_tlfea_info_prints(tlfea_exe):
    info = tlfea.info()
    assert set(info) >= {"version", "kokkos_backend", "concurrency", "mpi", "linear_solvers",
                         "cpu_target", "cpu_kernels", "blas", "output"}
    assert info["version"] == tlfea.__version__
    assert info["concurrency"] >= 1
    assert info["linear_solvers"][0] == "default"
    # The same facts as the command line's `tlfea info`.
    out = subprocess.run([tlfea_exe, "info"], capture_output=True, text=True, check=True).stdout
    assert f"tlfea {info['version']}\n" in out
    assert f"Kokkos: {info['kokkos_backend']} backend" in out
    assert "linear solvers: " + ", ".join(info["linear_solvers"]) in out
    # CMake's TLFEA_NATIVE_ARCH (CMakeLists.txt): "native" or "generic".
    assert info["cpu_target"] in ("native", "generic")
    assert f"CPU target: {info['cpu_target']} " in out
    # The build of the point-lane force chosen at run time (lane_force_dispatch.hpp).
    assert info["cpu_kernels"] in ("generic", "native", "avx2", "avx512")
    assert f"CPU kernels: {info['cpu_kernels']} (of " in out


def test_error_is_a_runtime_error():
    assert issubclass(tlfea.Error, RuntimeError)


def test_stepper_settings_attributes_and_keywords():
    s = tlfea.StepperSettings(dt=2e-4, analysis="static", residual_force_tol=1e-9, max_retries=2)
    assert (s.dt, s.analysis, s.residual_force_tol, s.max_retries) == (2e-4, "static", 1e-9, 2)
    d = tlfea.StepperSettings()  # the C++ defaults (docs/guide/solvers.md)
    assert (d.dt, d.penalty, d.penalty_scale, d.max_outer, d.constraint_tolerance) == \
        (1e-3, 0.0, 100.0, 30, 1e-8)
    assert (d.residual_rel_tol, d.residual_abs_tol, d.step_tol, d.position_tol) == \
        (1e-10, 0.0, 1e-10, 1e-13)
    assert d.analysis == "dynamic" and d.inner_solver == "newton" and d.linear.backend == "default"
    d.linear.backend = "eigen-lu"  # nested settings are edited in place
    assert d.linear.backend == "eigen-lu"
    assert "analysis='dynamic'" in repr(d)
    with pytest.raises(TypeError, match="no setting named 'dtt'"):
        tlfea.StepperSettings(dtt=1.0)
    with pytest.raises(tlfea.Error, match="'dynamic' or 'static'"):
        d.analysis = "quasi"
    with pytest.raises(tlfea.Error, match="'newton' or 'adamw'"):
        d.inner_solver = "lbfgs"


def test_stepper_settings_integrator():
    # backward Euler by default, generalized alpha with rho_inf (docs/theory.md §6.12)
    d = tlfea.StepperSettings()
    assert (d.integrator, d.rho_inf) == ("backward_euler", 0.8)
    s = tlfea.StepperSettings(integrator="generalized_alpha", rho_inf=0.5)
    assert (s.integrator, s.rho_inf) == ("generalized_alpha", 0.5)
    assert "integrator='generalized_alpha'" in repr(s)
    with pytest.raises(tlfea.Error, match="'backward_euler' or 'generalized_alpha'"):
        s.integrator = "bdf2"
    with pytest.raises(tlfea.Error, match=r"rho_inf: expected a value in \[0, 1\]"):
        s.rho_inf = 1.5


def test_mesh_arrays_have_the_right_shapes():
    box = tlfea.generate_box("Q27", (1.0, 0.5, 0.25), (2, 1, 1))
    assert box.type == tlfea.ElementType.Q27
    assert box.num_nodes == 5 * 3 * 3 and box.num_elements == 2
    assert box.nodes.shape == (45, 3) and box.coefficients.shape == (45, 3)
    assert box.connectivity.shape == (2, 27) and box.connectivity.dtype == np.int32
    assert set(box.node_sets) == {"all", "xmin", "xmax", "ymin", "ymax", "zmin", "zmax"}
    assert box.face_sets["xmax"].shape == (1, 2)
    np.testing.assert_allclose(box.nodes.max(axis=0), [1.0, 0.5, 0.25])
    np.testing.assert_array_equal(tlfea.nodes_where(box, 0, 1.0), box.node_sets["xmax"])
    beam = tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, 4)
    assert beam.coefficients_per_node == 4
    assert beam.coefficients.shape == (20, 3) and beam.nodes.shape == (5, 3)
    np.testing.assert_allclose(beam.nodes[:, 0], np.linspace(0, 1, 5))
    assert beam.element_size.shape == (4, 3)
    with pytest.raises(tlfea.Error):
        tlfea.generate_box("T10", (1.0, -1.0, 1.0), (1, 1, 1))
    with pytest.raises(tlfea.Error):
        tlfea.generate_box("HEX8", (1.0, 1.0, 1.0), (1, 1, 1))


def test_mesh_file(source_dir):
    mesh = tlfea.read_mesh(str(source_dir / "tests" / "data" / "box_t10.msh"))
    assert mesh.num_elements > 0 and mesh.connectivity.shape[0] == mesh.num_elements
    with pytest.raises(tlfea.Error, match="nonexistent"):
        tlfea.read_mesh(str(source_dir / "nonexistent.msh"))


def test_bad_arguments_raise_not_crash():
    model = tlfea.Model()
    mesh = tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, 2)
    with pytest.raises(tlfea.Error, match="density"):
        model.add_body(mesh, tlfea.MaterialSpec.svk(1e9, 0.3), -1.0)
    with pytest.raises(tlfea.Error, match="Poisson"):
        tlfea.MaterialSpec.svk(1e9, 0.7)
    b = model.add_body(mesh, tlfea.MaterialSpec.svk(1e9, 0.3), 1000.0)
    with pytest.raises(tlfea.Error, match="body 1 out of range"):
        model.clamp_node_set(1, "end0")
    with pytest.raises(tlfea.Error, match="no node set named 'middle'"):
        model.clamp_node_set(b, "middle")
    with pytest.raises(tlfea.Error, match="out of range"):
        model.add_nodal_force(b, 99, (0, 0, 1))
    with pytest.raises(TypeError):
        model.add_nodal_force(b, 0, (0, 0, 1), amplitude="not a function")
    with pytest.raises(TypeError):
        model.gravity = (0, 0)  # not 3 numbers
    with pytest.raises(tlfea.Error, match="no ANCF3243 element contains"):
        model.body_joint_frame(b, (5.0, 0.0, 0.0), (0, 1, 0), 0.005)
    model.clamp_node_set(b, "end0")
    stepper = tlfea.Stepper(model, tlfea.StepperSettings(dt=1e-3))
    with pytest.raises(tlfea.Error, match=r"shape \(12, 3\), got shape \(2, 3\)"):
        stepper.velocities = np.zeros((2, 3))
    with pytest.raises(tlfea.Error, match="non-finite"):
        stepper.velocities = np.full((12, 3), np.nan)
    with pytest.raises(tlfea.Error, match="dt must be positive"):
        tlfea.Stepper(model, tlfea.StepperSettings(dt=0.0))


def test_initialize_threads_and_finalize_in_a_fresh_process(module_env):
    # initialize(threads) before any model; a second, different request is
    # refused; finalize releases live objects, which then raise tlfea.Error.
    code = r"""
import tlfea
tlfea.initialize(threads=2)
info = tlfea.info()
assert info["concurrency"] == (2 if info["kokkos_backend"] == "OpenMP" else 1), info
try:
    tlfea.initialize(threads=3)
    raise SystemExit("second initialize accepted")
except tlfea.Error as e:
    assert "already initialized" in str(e)
m = tlfea.Model()
b = m.add_body(tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, 2), tlfea.MaterialSpec.svk(1e9, 0.3), 1e3)
m.clamp_node_set(b, "end0")
s = tlfea.Stepper(m)
s.step()
q = s.positions
tlfea.finalize()
assert not tlfea.is_initialized()
try:
    s.step()
    raise SystemExit("step after finalize accepted")
except tlfea.Error as e:
    assert "finalized" in str(e)
try:
    tlfea.Model()
    raise SystemExit("model after finalize accepted")
except tlfea.Error as e:
    assert "finalized" in str(e)
assert q.shape == (12, 3) and q[0, 0] == 0.0
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=module_env,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("ok")


def test_objects_alive_at_exit_are_released_cleanly(module_env):
    # No explicit finalize: the atexit hook releases the scene, model,
    # stepper and writer (with a Python callable inside) before Kokkos ends.
    code = r"""
import tlfea, tempfile
m = tlfea.Model()
b = m.add_body(tlfea.generate_beam_ancf3243(1.0, 0.02, 0.02, 2), tlfea.MaterialSpec.svk(1e9, 0.3), 1e3)
m.clamp_node_set(b, "end0")
m.add_nodal_force(b, 2, (0, 0, -1.0), lambda t: t)
s = tlfea.Stepper(m)
w = tlfea.OutputWriter(s, tempfile.mkdtemp())
s.run(2, output=w)
keep = [m, s, w, m.constraints]
print("exiting", tlfea.live_objects())
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=module_env,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "exiting 4" in r.stdout
    assert "Kokkos" not in r.stderr, r.stderr  # no deallocation-after-finalize complaint
