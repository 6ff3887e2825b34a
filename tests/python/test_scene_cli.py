# Scenes from Python against the tlfea command on the same scene: the same
# final state (the CLI's checkpoint.h5, read with h5py), the same histories
# (history.csv), and the same FILE:LINE:COLUMN messages for bad input.
import csv
import pathlib
import subprocess

import numpy as np
import pytest

import tlfea

STEPS = 20


def run_cli(exe, *args):
    return subprocess.run([exe, *map(str, args)], capture_output=True, text=True, timeout=300)


def read_history(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


@pytest.fixture(scope="module")
def cli_pendulum(tlfea_exe, source_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli_pendulum")
    r = run_cli(tlfea_exe, "run", source_dir / "examples" / "ancf_pendulum.yaml", "--steps", STEPS,
                "--output", out)
    assert r.returncode == 0, r.stderr
    return out


def test_pendulum_matches_the_cli(cli_pendulum, source_dir, tmp_path, assert_same_run):
    h5py = pytest.importorskip("h5py")
    scene = tlfea.load_scene(str(source_dir / "examples" / "ancf_pendulum.yaml"))
    assert scene.name == "ancf_pendulum" and scene.steps == 1000
    assert [j[0] for j in scene.joints] == ["hinge"] and scene.joints[0][1].count == 5
    stepper = scene.stepper()
    writer = tlfea.OutputWriter(stepper, str(tmp_path / "py"))
    assert writer.directory == str(tmp_path / "py")
    reports = stepper.run(STEPS, output=writer)
    writer.finish()
    assert len(reports) == STEPS and all(r.converged for r in reports)
    n = scene.model.num_coefficients
    q, v, lam = stepper.positions, stepper.velocities, stepper.multipliers
    assert q.shape == (n, 3) and v.shape == (n, 3) and lam.shape == (scene.constraint_rows,)
    with h5py.File(cli_pendulum / "checkpoint.h5", "r") as f:
        q_cli = np.asarray(f["q"]).reshape(-1, 3)
        v_cli = np.asarray(f["v"]).reshape(-1, 3)
        lam_cli = np.asarray(f["lambda"]).ravel()
        t_cli = float(np.asarray(f["t"]))
        steps_cli = int(np.asarray(f["steps"]))
    assert steps_cli == stepper.steps_taken == STEPS
    assert t_cli == stepper.time
    # The same library calls in the same order: bit for bit (Serial, one
    # OpenMP thread), else to the round-off of atomic assembly.
    assert_same_run(q, q_cli, 1.0)  # a 1 m beam
    assert_same_run(v, v_cli, 1.0)  # about 1 m/s
    assert_same_run(lam, lam_cli, np.abs(lam_cli).max())
    # The pendulum has moved: the hinge end stays, the free end falls.
    beam = scene.model.mesh(0)
    tip = stepper.node_positions(0)[-1]
    assert tip[2] < -1e-4 and np.linalg.norm(stepper.node_positions(0)[0]) < 1e-6
    assert np.allclose(q[::4][-1], tip) and beam.num_nodes == 9
    # Histories written by the Python OutputWriter equal the CLI's (all
    # columns but the wall time).
    head_py, hist_py = read_history(tmp_path / "py" / "history.csv")
    head_cli, hist_cli = read_history(cli_pendulum / "history.csv")
    assert head_py == head_cli
    keep = [i for i, h in enumerate(head_cli) if "wall" not in h]
    assert hist_py.shape == hist_cli.shape == (STEPS + 1, len(head_cli))  # step 0 too
    for col in keep:
        assert_same_run(hist_py[:, col], hist_cli[:, col], max(1.0, np.abs(hist_cli[:, col]).max()))
    for name in ("output.h5", "output.xdmf"):
        assert (tmp_path / "py" / name).is_file()


def test_overrides_as_the_cli_set(source_dir):
    scene = tlfea.load_scene(str(source_dir / "examples" / "ancf_pendulum.yaml"),
                             overrides=["time.dt=5.0e-4", "bodies.0.density=1000"])
    assert scene.settings.dt == 5e-4 and scene.steps == 2000
    assert scene.bodies[0].mass == pytest.approx(1000 * 1.0 * 0.02 * 0.02, rel=1e-12)
    with pytest.raises(tlfea.Error, match="bogus"):
        tlfea.load_scene(str(source_dir / "examples" / "ancf_pendulum.yaml"),
                         overrides=["bogus.key=1"])


BAD_SCENE = """name: bad
time: {dt: 1.0e-3, end_time: 0.01}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 1.0, width: 0.02, height: 0.02, elements: 4}
    material: {model: svk, E: -7.0e9, nu: 0.33}
    density: 2700
"""


@pytest.mark.parametrize("text", [
    BAD_SCENE,
    BAD_SCENE.replace("density: 2700", "density: 2700\n    colour: red"),
    BAD_SCENE.replace("elements: 4}", "elements: 4"),  # YAML syntax
    BAD_SCENE.replace("E: -7.0e9", "E: 7.0e9") + "joints:\n  - {type: revolute, body_i: bem, point: [0, 0, 0], axis: [0, 1, 0]}\n",
])
def test_bad_scene_message_is_the_clis(text, tlfea_exe, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    r = run_cli(tlfea_exe, "check", path)
    assert r.returncode == 2
    cli_message = r.stderr.strip()
    assert cli_message.startswith(f"{path}:")
    with pytest.raises(tlfea.Error) as e:
        tlfea.load_scene(str(path))
    assert str(e.value) == cli_message
    # FILE:LINE:COLUMN
    line, col = str(e.value)[len(str(path)) + 1:].split(":")[:2]
    assert int(line) >= 1 and int(col) >= 1
    # The same text from a string names the given file.
    with pytest.raises(tlfea.Error) as e2:
        tlfea.load_scene_text(text, file="scene.yaml")
    assert str(e2.value) == cli_message.replace(str(path), "scene.yaml", 1)


def test_missing_scene_file(tmp_path):
    with pytest.raises(tlfea.Error, match="nothere.yaml"):
        tlfea.load_scene(str(tmp_path / "nothere.yaml"))


def test_checkpoint_restart_continues_bit_identically(source_dir, tmp_path, assert_same_run):
    path = str(source_dir / "examples" / "ancf_pendulum.yaml")
    a = tlfea.load_scene(path).stepper()
    a.run(10)
    a.save_checkpoint(str(tmp_path / "ck.h5"))
    a.run(10)
    b = tlfea.load_scene(path).stepper()
    b.load_checkpoint(str(tmp_path / "ck.h5"))
    assert b.steps_taken == 10 and b.time == pytest.approx(0.01, abs=1e-15)
    b.run(10)
    assert_same_run(a.positions, b.positions, 1.0)
    assert_same_run(a.velocities, b.velocities, 1.0)
    with pytest.raises(tlfea.Error, match="no file"):
        b.load_checkpoint(str(tmp_path / "none.h5"))


def test_static_scene_runs_through_python(source_dir):
    scene = tlfea.load_scene(str(source_dir / "examples" / "static_elastica.yaml"))
    assert scene.settings.analysis == "static"
    stepper = scene.stepper()
    assert stepper.is_static
    stepper.run(scene.steps)
    assert stepper.time == pytest.approx(1.0, abs=1e-12)
    # Bisshopp and Drucker (1945), k = 3: -u/L = 0.25442, w/L = 0.60325 (the
    # scene's comment; 2 % at 32 ANCF 3243 elements, as the C++ test).
    tip, L = stepper.node_positions(0)[-1], 2.0
    assert -(tip[0] - L) / L == pytest.approx(0.25442, rel=0.02)
    assert tip[2] / L == pytest.approx(0.60325, rel=0.02)
    np.testing.assert_array_equal(stepper.velocities, 0.0)


EXAMPLE_SCENES = sorted(p.name for p in
                        (pathlib.Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


@pytest.mark.parametrize("example", EXAMPLE_SCENES)
def test_every_example_scene_runs_as_in_the_cli(example, tlfea_exe, source_dir, tmp_path,
                                               assert_same_run):
    # Each example scene, 3 steps from Python, ends in the state `tlfea run
    # --steps 3` writes to its checkpoint (the same library calls: bit for
    # bit in Serial, to the round-off of atomic assembly with threads).
    h5py = pytest.importorskip("h5py")
    path = source_dir / "examples" / example
    r = run_cli(tlfea_exe, "run", path, "--steps", 3, "--output", tmp_path / "cli")
    assert r.returncode == 0, r.stderr
    scene = tlfea.load_scene(str(path))
    stepper = scene.stepper()
    reports = stepper.run(3)
    assert len(reports) == 3 and all(rep.converged for rep in reports)
    with h5py.File(tmp_path / "cli" / "checkpoint.h5", "r") as f:
        q_cli = np.asarray(f["q"]).reshape(-1, 3)
        v_cli = np.asarray(f["v"]).reshape(-1, 3)
    scale = max(1.0, float(np.abs(q_cli).max()))
    # With threads and constraints, two runs agree only as far as the
    # augmented-Lagrangian loop converges them: it stops once the weighted
    # violation is below constraint_tolerance (docs/theory.md §6.5), so
    # positions may differ by about twice that, and velocities (q = q_n + h v)
    # by that over h (observed on rigid_wheel_tire: 6e-8 m/s, 1e-10 of the
    # velocity scale being 6.7e-10).
    constrained = scene.model.constraints.num_rows > 0  # joints, rigid bodies
    q_tol = 2.0 * scene.settings.constraint_tolerance if constrained else None
    assert_same_run(stepper.positions, q_cli, scale, q_tol)
    if not stepper.is_static:  # (a static checkpoint holds the increment rate)
        assert_same_run(stepper.velocities, v_cli, max(1.0, float(np.abs(v_cli).max())),
                        None if q_tol is None else q_tol / scene.settings.dt)


def test_settle_from_python(source_dir):
    # examples/block_on_slope_settled.yaml settled through Stepper.settle (as
    # `tlfea run` does for time.settle): at t = 0 the block rests, sunk into
    # its contacts by about the static Hertz compression (2.4e-5 m for this
    # 1 kg block on 25 contacts, tests/contact_dynamics/test_contact_resting.cpp),
    # and does not move over the next 100 steps.
    scene = tlfea.load_scene(str(source_dir / "examples" / "block_on_slope_settled.yaml"))
    assert scene.settle_duration == pytest.approx(0.3)
    stepper = scene.stepper(settle=False)
    q0 = stepper.positions.copy()
    report = stepper.settle(scene.settle_duration)
    assert report.at_rest and report.steps == 3000 and report.velocity_resets > 0
    assert stepper.time == 0.0 and stepper.steps_taken == 0
    np.testing.assert_array_equal(stepper.velocities, 0.0)
    moved = np.abs(stepper.positions - q0).max()
    assert 1e-5 < moved < 1e-4
    q1 = stepper.positions.copy()
    stepper.run(100)
    assert np.abs(stepper.positions - q1).max() < 1e-9
    with pytest.raises(tlfea.Error, match="settled already"):
        stepper.settle(0.1)
    other = scene.stepper(settle=False)
    other.step()
    with pytest.raises(tlfea.Error, match="only before the first step"):
        other.settle(0.1)
    with pytest.raises(tlfea.Error, match="ramp must be >= 0"):
        scene.stepper(settle=False).settle(0.1, ramp=-1.0)


def test_settle_not_at_rest_warns(source_dir):
    # Above the friction angle (tan a = 0.27 > mu_s = 0.25) the block slides
    # through the settle: Scene.stepper() warns, as `tlfea run` does.
    scene = tlfea.load_scene(str(source_dir / "examples" / "block_on_slope_settled.yaml"),
                             ["gravity=[2.5571,0,-9.4709]", "time.settle=0.05"])
    with pytest.warns(RuntimeWarning, match="not at rest"):
        stepper = scene.stepper()
    assert stepper.time == 0.0
    with pytest.raises(tlfea.Error, match="settled already"):
        stepper.settle(0.05)
