"""History tables: history.csv (OutputWriter) and StepReports as a DataFrame.

``read_history(source)``: ``source`` an OutputWriter, the output directory,
or the CSV path. Returns a pandas DataFrame when pandas is installed, else a
dict column name -> NumPy array (the same columns, float64, in file order).
``reports_table(reports)``: the list ``Stepper.run`` returns, one row per
step, in the same two forms. ``plot_history(h, columns, x="time")``: those
columns against ``x`` on one matplotlib Axes (returned).
"""
import csv
import os

import numpy as np

_REPORT_FIELDS = ("converged", "newton_iterations", "outer_iterations", "factorizations",
                  "retries", "constraint_violation", "assembly_s", "factorization_s",
                  "solve_s", "step_force_s", "force_scale")


def _pandas():
    try:
        import pandas
    except ImportError:
        return None
    return pandas


def _csv_path(source):
    # An OutputWriter: its directory (readable after finish(), unlike csv_path).
    path = getattr(source, "directory", source)
    path = os.fspath(path)
    if os.path.isdir(path):
        path = os.path.join(path, "history.csv")
    return path


def _table(columns, names, as_frame):
    pd = _pandas() if as_frame is not False else None
    if as_frame and pd is None:
        raise ImportError("read_history(as_frame=True) needs pandas (pip install pandas)")
    if pd is not None:
        return pd.DataFrame({n: columns[n] for n in names}, columns=list(names))
    return {n: columns[n] for n in names}


def read_history(source, as_frame=None):
    """history.csv of a run as a DataFrame (pandas) or dict of arrays.

    source: an OutputWriter (its csv_path; call finish() or leave its ``with``
    block first so that every row is written), an output directory, or the
    path of history.csv. as_frame: None = a DataFrame when pandas is
    installed; True requires pandas; False always gives the dict."""
    path = _csv_path(source)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"read_history: no file '{path}'")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"read_history: '{path}' is empty (no header)")
    names = rows[0]
    data = np.array(rows[1:], dtype=float).reshape(len(rows) - 1, len(names))
    return _table({n: data[:, k] for k, n in enumerate(names)}, names, as_frame)


def reports_table(reports, as_frame=None):
    """The StepReports of Stepper.run, one row per step (column `step`: 1, 2, ...)."""
    cols = {"step": np.arange(1, len(reports) + 1)}
    for name in _REPORT_FIELDS:
        cols[name] = np.array([getattr(r, name) for r in reports])
    return _table(cols, list(cols), as_frame)


def plot_history(history, columns, x="time", ax=None, **plot_kwargs):
    """Plots history columns against `x` on one Axes and returns it.

    history: what read_history returns (DataFrame or dict), or anything
    read_history takes (an OutputWriter, a directory, a CSV path). columns:
    one name or a list. ax: an existing matplotlib Axes, else a new figure."""
    if not hasattr(history, "__getitem__") or isinstance(history, (str, os.PathLike)):
        history = read_history(history)
    if isinstance(columns, str):
        columns = [columns]
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots()
    names = list(history.keys())
    for c in [x] + list(columns):
        if c not in names:
            raise KeyError(f"plot_history: no column '{c}' (columns: {', '.join(names)})")
    xs = np.asarray(history[x])
    for c in columns:
        ax.plot(xs, np.asarray(history[c]), label=c, **plot_kwargs)
    ax.set_xlabel(x)
    if len(columns) == 1:
        ax.set_ylabel(columns[0])
    ax.legend()
    return ax
