"""TLFEA: finite-deformation flexible multibody dynamics (Total Lagrangian FEA,
ANCF, joints, contact) on Kokkos; docs/python.md.

The compiled binding is ``tlfea._tlfea`` (pybind11); every public name of it is
re-exported here. This package adds, in Python, what a notebook user expects:

- ``read_history(source)``: a run's history.csv as a pandas DataFrame (when
  pandas is installed) or a dict of NumPy arrays;
- ``plot_history(history, columns, x="time")``: those columns against time
  with matplotlib, in one call;
- ``Stepper.run(..., progress=True)``: a progress bar (tqdm when installed,
  else a one-line text bar on stderr);
- ``Error.file``, ``.line``, ``.column``, ``.reason``: the parts of a scene
  error's ``FILE:LINE:COLUMN: reason`` message (None where the message has
  no location);
- the ``tlfea`` command (``python -m tlfea``): the C++ program, installed
  beside the module by ``pip install``.
"""
from . import _tlfea
from ._tlfea import *  # noqa: F401,F403  (the binding's public names)
from ._tlfea import Error, Stepper
from ._history import plot_history, read_history, reports_table
from ._progress import install_progress as _install_progress
from ._errors import install_error_fields as _install_error_fields

__version__ = _tlfea.__version__

_install_progress(Stepper)
_install_error_fields(Error)

__all__ = [n for n in dir(_tlfea) if not n.startswith("_")] + [
    "read_history", "plot_history", "reports_table", "__version__"]
