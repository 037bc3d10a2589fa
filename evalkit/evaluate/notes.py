"""Notes shown where the Python API is used: a notebook sees what the command prints on stderr.

``evalkit score`` prints its notes (topics left out, unjudged documents,
judges with different topics, the gains used) on stderr; the same functions
called from Python keep them in ``frame.attrs["notes"]`` and, through
:func:`show_notes`, raise each as an :class:`~evalkit.errors.EvalkitNote`
warning pointing at the caller's line, so that Jupyter shows them under the
cell.  Calls from inside evalkit (the command line, the paper packages) do
not warn: the command prints the notes itself, and a chapter says what it
needs to.  ``warnings.simplefilter("ignore", EvalkitNote)`` silences them.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

from ..errors import EvalkitNote

__all__ = ["show_notes"]


#: The package's folder and this sub-package's: calls from files inside them are evalkit's own.
_PACKAGE = str(Path(__file__).resolve().parents[1])
_HERE = str(Path(__file__).resolve().parent)


def _outside() -> int | None:
    """The stacklevel (for :func:`warnings.warn` in :func:`show_notes`) of the first caller
    outside :mod:`evalkit.evaluate`, or None when that caller is evalkit itself (the command
    line, run as ``python -m evalkit.workspace.cli`` too, or a paper package)."""
    frame, level = sys._getframe(2), 2          # the caller of show_notes: stacklevel 2
    while frame is not None and frame.f_code.co_filename.startswith(_HERE):
        frame, level = frame.f_back, level + 1
    if frame is None or frame.f_code.co_filename.startswith(_PACKAGE):
        return None
    return level


def show_notes(notes, what: str) -> None:
    """Each of ``notes`` as an :class:`~evalkit.errors.EvalkitNote` (``"score: ..."``), when
    the caller is not evalkit itself."""
    level = _outside()
    if level is None:
        return
    for note in notes:
        warnings.warn(f"{what}: {note}", EvalkitNote, stacklevel=level)
