# pytest fixtures of the Python-module tests (tests/python; ctest test
# "python"). ctest sets PYTHONPATH to the built module, TLFEA_EXE to the tlfea
# program and TLFEA_SOURCE_DIR to the repository; run by hand:
#   PYTHONPATH=build/trilinos/python TLFEA_EXE=build/trilinos/apps/tlfea \
#     python3 -m pytest -q -p no:cacheprovider tests/python
import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("TLFEA_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR


@pytest.fixture(scope="session")
def tlfea_exe():
    exe = os.environ.get("TLFEA_EXE")
    if not exe or not os.path.exists(exe):
        pytest.skip("TLFEA_EXE (the tlfea program) not given")
    return exe


@pytest.fixture(scope="session")
def module_env():
    """Environment for a subprocess that imports tlfea like this process."""
    env = dict(os.environ)
    import tlfea
    env["PYTHONPATH"] = os.pathsep.join(
        [str(pathlib.Path(tlfea.__file__).parent)] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env
