"""The ``tlfea`` command: ``python -m tlfea run SCENE`` (or the ``tlfea``
script pip installs) is the C++ program ``tlfea`` (apps/tlfea.cpp), installed
inside this package as ``bin/tlfea`` by the pip build; the process is replaced
by it (exec), so arguments, output, exit status and signals are the
program's own."""
import os
import sys


def executable():
    """Path of the tlfea program this package carries."""
    # Beside the binding (an editable install keeps the .py files in the
    # source tree and the compiled files in site-packages).
    from . import _tlfea

    exe = os.path.join(os.path.dirname(os.path.abspath(_tlfea.__file__)), "bin", "tlfea")
    if not os.path.isfile(exe):
        raise FileNotFoundError(
            f"the tlfea program is not at {exe} (build the 'tlfea' target of the CMake build, or "
            "install the package with pip)")
    return exe


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        exe = executable()
    except FileNotFoundError as e:
        print(f"tlfea: {e}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(exe, ["tlfea"] + argv)


if __name__ == "__main__":
    sys.exit(main())
