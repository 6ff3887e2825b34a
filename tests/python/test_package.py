# The Python package around the binding (python/tlfea/*.py): version,
# the `tlfea` command (`python -m tlfea`), Error's location fields, history
# tables and plots, the progress bar of Stepper.run, the type stubs. Run
# against the CMake build tree (ctest `python`) and against the package pip
# installs (tools/test.sh; TLFEA_EXPECT_INSTALLED=1 then also checks where it
# was imported from).
import ast
import csv
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import tlfea

PENDULUM_STEPS = 10


def cmake_project_version(source_dir):
    text = (source_dir / "CMakeLists.txt").read_text()
    return re.search(r"project\(TLFEA VERSION ([0-9.]+)", text).group(1)


def test_version_is_the_cmake_projects(source_dir):
    # The number in CMakeLists.txt's project(), read here from the file.
    assert tlfea.__version__ == cmake_project_version(source_dir)
    assert tlfea.info()["version"] == tlfea.__version__


@pytest.mark.skipif(not os.environ.get("TLFEA_EXPECT_INSTALLED"),
                    reason="TLFEA_EXPECT_INSTALLED not set (build-tree run)")
def test_imported_from_the_installed_package(source_dir):
    # The installed package, not the source or build tree: tlfea/ under this
    # interpreter's prefix (the virtual environment pip installed into).
    pkg = pathlib.Path(tlfea.__file__).resolve().parent
    assert pathlib.Path(sys.prefix).resolve() in pkg.parents, pkg
    # In the environment's site-packages, not the source tree's python/tlfea
    # or a build tree's python/tlfea (the environment itself may lie in the
    # clone, as tools/test.sh's build/venv-pip does).
    assert pkg.parent.name == "site-packages", pkg
    import tlfea._tlfea as binding
    assert pathlib.Path(binding.__file__).resolve().parent == pkg
    assert (pkg / "bin" / "tlfea").is_file()


def run_module(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "tlfea", *map(str, args)], capture_output=True,
                          text=True, timeout=300, env=env, cwd=cwd)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def test_python_m_tlfea_run_is_the_program(source_dir, module_env, tmp_path, assert_same_run):
    # `python -m tlfea run SCENE --steps 10` from a directory outside the
    # repository, against the same run through the module (Scene.stepper +
    # OutputWriter, which test_scene_cli.py checks against the program).
    out = tmp_path / "cli"
    scene = source_dir / "examples" / "ancf_pendulum.yaml"
    r = run_module("run", scene, "--steps", PENDULUM_STEPS, "--output", out, env=module_env,
                   cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    head, cli = read_csv(out / "history.csv")
    s = tlfea.load_scene(str(scene))
    st = s.stepper()
    with tlfea.OutputWriter(st, directory=str(tmp_path / "py")) as w:
        st.run(PENDULUM_STEPS, output=w)
    h = tlfea.read_history(tmp_path / "py", as_frame=False)
    assert list(h) == head
    assert cli[-1, head.index("step")] == PENDULUM_STEPS
    for k, name in enumerate(head):
        if name != "step_wall_time":
            assert_same_run(cli[:, k], h[name], scale=max(1.0, float(np.abs(cli[:, k]).max())))


def test_python_m_tlfea_reports_bad_input_as_the_program(module_env, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ntime: {dt: -1}\n")
    r = run_module("check", bad, env=module_env)
    # The program's exit status for bad input, and its FILE:LINE:COLUMN message.
    assert r.returncode == 2
    assert r.stderr.startswith(f"{bad}:2:")
    r = run_module("--help", env=module_env)
    assert r.returncode == 0 and "run" in r.stdout


BAD_MATERIAL = """name: bad
time: {dt: 1.0e-3, end_time: 0.01}
bodies:
  - name: beam
    element: ANCF3243
    mesh: {generator: beam, length: 1.0, width: 0.02, height: 0.02, elements: 4}
    material: {model: svk, E: -7.0e9, nu: 0.33}
    density: 2700
"""


def test_error_carries_file_and_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_MATERIAL)
    with pytest.raises(tlfea.Error) as e:
        tlfea.load_scene(str(path))
    err = e.value
    assert isinstance(err, RuntimeError)
    assert err.file == str(path)
    # The negative modulus is on line 7 of the text above.
    assert err.line == 7
    assert 1 <= err.column <= len(BAD_MATERIAL.splitlines()[6])
    assert str(err) == f"{path}:{err.line}:{err.column}: {err.reason}"
    assert "E" in err.reason
    # From a string: the file name given.
    with pytest.raises(tlfea.Error) as e2:
        tlfea.load_scene_text(BAD_MATERIAL, file="my scene.yaml")
    assert (e2.value.file, e2.value.line) == ("my scene.yaml", 7)
    # An error without a location: the fields are None, reason the message.
    with pytest.raises(tlfea.Error) as e3:
        tlfea.initialize(threads=0)
    assert (e3.value.file, e3.value.line, e3.value.column) == (None, None, None)
    assert e3.value.reason == str(e3.value)


@pytest.fixture(scope="module")
def pendulum_run(source_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("pendulum")
    s = tlfea.load_scene(str(source_dir / "examples" / "ancf_pendulum.yaml"))
    st = s.stepper()
    with tlfea.OutputWriter(st, directory=str(out), every=5) as w:
        reports = st.run(20, output=w)
    return out, w, reports


def test_read_history_is_the_csv(pendulum_run):
    out, writer, _ = pendulum_run
    head, rows = read_csv(out / "history.csv")  # parsed here with the csv module
    for source in (writer, out, out / "history.csv", str(out)):
        h = tlfea.read_history(source, as_frame=False)
        assert list(h) == head
        for k, name in enumerate(head):
            np.testing.assert_array_equal(h[name], rows[:, k])
    assert rows.shape[0] == 21  # step 0 and 20 steps
    with pytest.raises(FileNotFoundError, match="nothere"):
        tlfea.read_history(out / "nothere")


def test_history_as_dataframe(pendulum_run):
    pd = pytest.importorskip("pandas")
    out, _, reports = pendulum_run
    head, rows = read_csv(out / "history.csv")
    df = tlfea.read_history(out)
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == head
    np.testing.assert_array_equal(df.to_numpy(), rows)
    r = tlfea.reports_table(reports)
    assert isinstance(r, pd.DataFrame) and len(r) == 20
    assert list(r["newton_iterations"]) == [x.newton_iterations for x in reports]
    assert list(r["step"]) == list(range(1, 21))


def test_history_without_pandas(pendulum_run, monkeypatch):
    out, _, reports = pendulum_run
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas -> ImportError
    h = tlfea.read_history(out)
    assert isinstance(h, dict)
    with pytest.raises(ImportError, match="pandas"):
        tlfea.read_history(out, as_frame=True)
    r = tlfea.reports_table(reports)
    np.testing.assert_array_equal(r["constraint_violation"],
                                  [x.constraint_violation for x in reports])


def test_plot_history(pendulum_run):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    out, _, _ = pendulum_run
    h = tlfea.read_history(out, as_frame=False)
    ax = tlfea.plot_history(out, ["kinetic_energy", "total_energy"])
    lines = ax.get_lines()
    assert [ln.get_label() for ln in lines] == ["kinetic_energy", "total_energy"]
    np.testing.assert_array_equal(lines[0].get_xdata(), h["time"])
    np.testing.assert_array_equal(lines[1].get_ydata(), h["total_energy"])
    assert ax.get_xlabel() == "time"
    with pytest.raises(KeyError, match="no column 'nothing'"):
        tlfea.plot_history(h, "nothing")
    import matplotlib.pyplot as plt
    plt.close("all")


def pendulum_stepper(source_dir):
    return tlfea.load_scene(str(source_dir / "examples" / "ancf_pendulum.yaml")).stepper()


def test_progress_bar_text(source_dir, monkeypatch, capsys, assert_same_run):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # the text bar
    a, b = pendulum_stepper(source_dir), pendulum_stepper(source_dir)
    seen = []
    ra = a.run(5, progress="pendulum", callback=lambda s, r: seen.append(s.steps_taken))
    rb = b.run(5)
    err = capsys.readouterr().err
    assert "pendulum:" in err and "5/5" in err
    assert seen == [1, 2, 3, 4, 5]  # the user's callback still runs after every step
    assert len(ra) == len(rb) == 5
    # The bar is only a callback: the same steps as without it.
    assert_same_run(a.positions, b.positions)


def test_progress_bar_tqdm(source_dir, capsys):
    pytest.importorskip("tqdm")
    st = pendulum_stepper(source_dir)
    st.run(3, progress=True)
    assert "3/3" in capsys.readouterr().err
    assert st.steps_taken == 3


def test_stubs_cover_the_binding():
    # Every public name of the compiled module has a stub in _tlfea.pyi, and
    # every class's public methods and properties appear in its stub class.
    import tlfea._tlfea as binding
    pyi = pathlib.Path(tlfea.__file__).parent / "_tlfea.pyi"
    assert pyi.is_file()
    assert (pyi.parent / "py.typed").is_file()
    tree = ast.parse(pyi.read_text())
    top = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            top[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    top[t.id] = node
    public = [n for n in dir(binding) if not n.startswith("_")]
    missing = [n for n in public if n not in top]
    assert not missing, f"not in _tlfea.pyi: {missing}"
    for name in public:
        obj = getattr(binding, name)
        if isinstance(obj, type) and isinstance(top[name], ast.ClassDef) and \
                not issubclass(obj, BaseException):
            members = {n.name for n in top[name].body if isinstance(n, (ast.FunctionDef,))} | \
                {t.id for n in top[name].body if isinstance(n, ast.AnnAssign)
                 for t in [n.target] if isinstance(t, ast.Name)} | \
                {t.id for n in top[name].body if isinstance(n, ast.Assign)
                 for t in n.targets if isinstance(t, ast.Name)}
            attrs = [a for a in vars(obj) if not a.startswith("_")]
            absent = [a for a in attrs if a not in members]
            assert not absent, f"{name}: not in _tlfea.pyi: {absent}"
