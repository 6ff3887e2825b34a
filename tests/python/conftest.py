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
        [str(pathlib.Path(tlfea.__file__).parents[1])] +
        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@pytest.fixture(scope="session")
def deterministic():
    """Whether two identical runs give bit-identical results here: Serial, or
    OpenMP on one thread. With several OpenMP threads the order of the atomic
    updates in the assembly varies from run to run, the round-off with it,
    and Newton converges to iterates that differ within its tolerances."""
    import tlfea
    info = tlfea.info()
    return info["kokkos_backend"] == "Serial" or info["concurrency"] == 1


@pytest.fixture(scope="session")
def assert_same_run(deterministic):
    """assert_same_run(a, b, scale): a and b come from the same model and
    steps computed twice (or by the CLI): bit for bit where the build is
    deterministic; else within 1e-10 of `scale` (the converged Newton
    iterates of two round-off histories; observed: 6e-13 m on a 1 m bar after
    50 steps at 2 OpenMP threads)."""
    import numpy as np

    def check(a, b, scale=1.0, threaded_atol=None):
        # threaded_atol: the bound a caller derives from the run's stopping
        # tests where they allow more than 1e-10 of scale (joints, below).
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape
        if deterministic:
            np.testing.assert_array_equal(a, b)
        else:
            atol = 1e-10 * scale if threaded_atol is None else max(1e-10 * scale, threaded_atol)
            np.testing.assert_allclose(a, b, rtol=0, atol=atol)

    return check
