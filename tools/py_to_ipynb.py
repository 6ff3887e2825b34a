#!/usr/bin/env python3
"""Makes a Jupyter notebook (.ipynb, nbformat 4) from a Python file in the
"percent" cell format: a line `# %%` starts a code cell, `# %% [markdown]` a
markdown cell (its lines without the leading `# `). The examples under
examples/python/ are kept as .py files (they run as scripts and are tested);
their .ipynb files are made from them by this script, and
tests/python/test_notebooks.py checks that each .ipynb is what this script
makes now and runs its cells in order.

    tools/py_to_ipynb.py examples/python/pendulum.py ...   # writes pendulum.ipynb beside it
    tools/py_to_ipynb.py --check examples/python/*.py      # exit 1 when one is out of date
"""
import json
import pathlib
import sys


def cells_of(text):
    cells, kind, lines = [], None, []

    def flush():
        if kind is None:
            return
        while lines and not lines[-1].strip():
            lines.pop()
        if kind == "markdown":
            body = [ln[2:] if ln.startswith("# ") else ln.lstrip("#") for ln in lines]
        else:
            body = list(lines)
        if body:
            cells.append((kind, body))

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
        elif kind is not None:
            lines.append(line)
        # Lines before the first marker (a #! line) are not part of a cell.
    flush()
    return cells


def notebook(text):
    nb_cells = []
    for kind, body in cells_of(text):
        source = [ln + "\n" for ln in body[:-1]] + [body[-1]]
        cell = {"cell_type": kind, "metadata": {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        nb_cells.append(cell)
    return {
        "cells": nb_cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def render(py_path):
    return json.dumps(notebook(pathlib.Path(py_path).read_text()), indent=1) + "\n"


def main(argv):
    check = "--check" in argv
    stale = 0
    for arg in (a for a in argv if a != "--check"):
        py = pathlib.Path(arg)
        if "# %%" not in py.read_text():
            continue
        nb = py.with_suffix(".ipynb")
        text = render(py)
        if check:
            if not nb.is_file() or nb.read_text() != text:
                print(f"{nb}: out of date (tools/py_to_ipynb.py {py})", file=sys.stderr)
                stale = 1
        else:
            nb.write_text(text)
            print(nb)
    return stale


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
