"""Location fields of tlfea.Error.

The library's messages for scene input start with ``FILE:LINE:COLUMN: `` (the
same text ``tlfea check`` prints; tests/python/test_scene_cli.py compares
them). ``Error.file``, ``.line``, ``.column`` and ``.reason`` are those parts,
read from the message; None (and ``reason`` the whole message) for errors
without a location, e.g. a step that did not converge.
"""
import re

# FILE:LINE:COLUMN: reason. FILE may itself hold ':' (a Windows drive, a
# directory name), so the line and column are the last ':N:N: ' before the
# reason; the shortest file name that is followed by them wins.
_LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<reason>.*)$", re.S)


def _parse(err):
    msg = str(err)
    m = _LOCATION.match(msg)
    if not m:
        return None, None, None, msg
    return m.group("file"), int(m.group("line")), int(m.group("column")), m.group("reason")


def install_error_fields(error_type):
    error_type.file = property(lambda self: _parse(self)[0],
                               doc="The scene (or mesh) file the error is about, or None.")
    error_type.line = property(lambda self: _parse(self)[1],
                               doc="1-based line in `file`, or None.")
    error_type.column = property(lambda self: _parse(self)[2],
                                 doc="1-based column in `file`, or None.")
    error_type.reason = property(lambda self: _parse(self)[3],
                                 doc="The message without its FILE:LINE:COLUMN: prefix.")
