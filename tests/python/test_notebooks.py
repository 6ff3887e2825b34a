# The notebook examples (examples/python/*.py in the percent cell format, and
# the .ipynb files tools/py_to_ipynb.py makes from them): each .ipynb is up to
# date with its .py; each runs as a script (a fresh interpreter) and as a
# notebook (its code cells executed in order in one namespace, as a kernel
# does, with the working directory at the notebook, and get_ipython defined).
# Short runs: TLFEA_EXAMPLE_STEPS.
import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tlfea

NOTEBOOKS = ["pendulum", "contact_drop", "cantilever_sweep"]


def examples_dir(source_dir):
    return source_dir / "examples" / "python"


def load_tool(source_dir):
    spec = importlib.util.spec_from_file_location("py_to_ipynb",
                                                  source_dir / "tools" / "py_to_ipynb.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_made_from_the_script(name, source_dir):
    tool = load_tool(source_dir)
    py = examples_dir(source_dir) / f"{name}.py"
    nb = py.with_suffix(".ipynb")
    assert nb.read_text() == tool.render(py), f"run tools/py_to_ipynb.py {py}"
    cells = json.loads(nb.read_text())["cells"]
    assert sum(c["cell_type"] == "code" for c in cells) >= 2


def run_notebook(path, monkeypatch, env):
    """Code cells of `path`, in order, in one namespace (what a kernel does)."""
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.chdir(path.parent)
    ns = {"__name__": "__main__", "get_ipython": lambda: None}
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), str(path), "exec"), ns)
    return ns


def run_script(path, module_env, env, cwd):
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=600, env={**module_env, **env, "MPLBACKEND": "Agg"}, cwd=cwd)


def check_pendulum(tip_path, length, out):
    # The beam is 1 m long (examples/ancf_pendulum.yaml), hinged at the origin
    # and nearly inextensible (E = 7e9 Pa, 2 x 2 cm, under its own weight: axial
    # strain below 1e-5): the free end stays 1 m from the hinge.
    np.testing.assert_allclose(length, 1.0, atol=1e-3)
    assert tip_path[-1][2] < -0.05  # released horizontal, it has swung down
    h = tlfea.read_history(out, as_frame=False)
    assert h["step"][-1] == len(tip_path)


def test_pendulum_as_notebook(source_dir, tmp_path, monkeypatch):
    out = tmp_path / "nb"
    ns = run_notebook(examples_dir(source_dir) / "pendulum.ipynb", monkeypatch,
                      {"TLFEA_EXAMPLE_STEPS": "150", "TLFEA_EXAMPLE_OUT": str(out)})
    assert len(ns["tip_path"]) == 150
    check_pendulum(ns["tip_path"], ns["length"], out)
    if ns["matplotlib"] is not None:
        assert (out / "pendulum.png").stat().st_size > 1000


def test_pendulum_as_script(source_dir, module_env, tmp_path):
    out = tmp_path / "script"
    r = run_script(examples_dir(source_dir) / "pendulum.py", module_env,
                   {"TLFEA_EXAMPLE_STEPS": "150", "TLFEA_EXAMPLE_OUT": str(out)}, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "distance from the hinge" in r.stdout
    assert "150/150" in r.stderr  # the progress bar
    h = tlfea.read_history(out, as_frame=False)
    assert h["step"][-1] == 150


def test_contact_drop_as_notebook(source_dir, tmp_path, monkeypatch):
    out = tmp_path / "nb"
    # 600 steps of 0.1 ms: the block starts 1 cm above the ground plane z = 0
    # (examples/contact_drop.yaml) and reaches it after sqrt(2 h / g) = 45 ms.
    ns = run_notebook(examples_dir(source_dir) / "contact_drop.ipynb", monkeypatch,
                      {"TLFEA_EXAMPLE_STEPS": "600", "TLFEA_EXAMPLE_OUT": str(out)})
    lowest = ns["lowest"]
    assert lowest.shape == (600, 3)
    block = lowest[:, 0]
    assert block.min() < 1e-3  # it reached the ground ...
    # ... and contact kept it from passing through: penetration below 1 mm of
    # a 10 cm block (the Hertz contact's overlap at these loads is ~1e-5 m).
    assert lowest.min() > -1e-3
    assert set(ns["names"]) == {"block", "ball", "box"}


def test_contact_drop_as_script(source_dir, module_env, tmp_path):
    out = tmp_path / "script"
    r = run_script(examples_dir(source_dir) / "contact_drop.py", module_env,
                   {"TLFEA_EXAMPLE_STEPS": "50", "TLFEA_EXAMPLE_OUT": str(out)}, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "centre of mass z" in r.stdout


def test_cantilever_sweep_as_notebook(source_dir, tmp_path, monkeypatch):
    ns = run_notebook(examples_dir(source_dir) / "cantilever_sweep.ipynb", monkeypatch,
                      {"TLFEA_EXAMPLE_QUICK": "1", "TLFEA_EXAMPLE_OUT": str(tmp_path)})
    # Its numbers against the closed forms: test_examples.py.
    assert callable(ns["tip_deflection"])
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert (tmp_path / "cantilever_sweep.png").stat().st_size > 1000
