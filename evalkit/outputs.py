"""Atomic writers for every output the workspace produces.

Each writer writes to a hidden temporary file in the destination folder and
renames it into place, so an interrupted run never leaves a half-written file
that looks finished.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path

import pandas as pd

__all__ = ["atomic_write", "remove_stale_temporaries", "write_text", "write_together", "write_table",
           "save_figure", "show_figure", "show_table"]


@contextlib.contextmanager
def atomic_write(path, mode: str = "w", **kwargs):
    """Open a temporary file beside ``path``; rename it into place on success.

    On any exception (or interruption) the temporary file is removed and an
    existing ``path`` is left untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = None
    try:
        while True:  # the name is known before the file exists: an interrupt at any point
            tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"   # removes it
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                break
            except FileExistsError:
                continue
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Delete hidden ``.<name>.*.tmp`` files left by a run that was killed mid-write.

    Outputs are written to such temporaries and renamed into place
    (:func:`atomic_write`), so a run interrupted normally (Ctrl-C, an error)
    removes its temporary itself; only a kill (SIGKILL, power loss, a worker
    stopping its kernel mid-cleanup) can leave one, never a partial file under
    a real name.  The runner (:mod:`evalkit.workspace.runner`) calls this for
    every output folder before it starts any notebook, and for a job's folder
    after the job failed or was stopped (never while its notebook runs).
    """
    stale = sorted(Path(folder).glob(".*.tmp")) if Path(folder).is_dir() else []
    for path in stale:
        path.unlink()
    return stale


def write_text(path, text: str) -> Path:
    """Atomically write ``text`` (UTF-8, ``\\n`` newlines) to ``path``."""
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    return Path(path)


def write_together(out_dir, write) -> list[Path]:
    """A command's ``--out`` files, all of them or none: ``write(folder)`` writes them into a
    hidden temporary folder beside ``out_dir`` and returns their names, which are then moved
    into ``out_dir`` (created if missing); if ``write`` fails nothing appears.  Returns the
    paths, in ``write``'s order."""
    import shutil
    import tempfile

    out = Path(out_dir)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        names = list(write(tmp))
        out.mkdir(exist_ok=True)
        for name in names:
            os.replace(tmp / name, out / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [out / name for name in names]


def write_table(frame: pd.DataFrame, stem, float_format: str = "%.4f", index: bool = False) -> list[Path]:
    """Write ``frame`` as ``stem.csv`` and ``stem.md`` (atomically, deterministic)."""
    stem = Path(stem)
    csv = frame.to_csv(index=index, float_format=float_format, lineterminator="\n")
    md = frame.to_markdown(index=index, floatfmt=float_format.strip("%")) + "\n"
    return [write_text(stem.with_suffix(".csv"), csv), write_text(stem.with_suffix(".md"), md)]


def save_figure(fig, stem, formats: tuple[str, ...] = ("png", "svg"), dpi: int = 120) -> list[Path]:
    """Save a matplotlib figure deterministically (no dates, fixed SVG ids).

    The figure is checked first (:func:`evalkit.figure_check.check`): an axis
    without a label, overlapping text, a legend over data or an interval off
    the axes stops here with :class:`~evalkit.figure_check.FigureProblem`, and
    nothing is written.  One layout pass at the PNG's ``dpi`` (Agg, drawing
    nothing) serves the check and the PNG's tight bounding box, the pass
    ``bbox_inches="tight"`` would make on its own; then the PNG is drawn once,
    and the SVG as before (a layout pass and a draw: its text metrics, hence
    its box, differ from Agg's).  The bytes are those of
    ``fig.savefig(..., bbox_inches="tight")`` (``tests/workspace/test_save_figure.py``).
    """
    import io

    import matplotlib

    from .figure_check import check

    matplotlib.rcParams["svg.hashsalt"] = "evalkit"
    stem = Path(stem)
    png_box = _checked_tight_box(fig, stem.name, dpi) if "png" in formats else None
    if png_box is None:
        check(fig, stem.name)
    rendered = {}
    for fmt in formats:
        metadata = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
        buffer = io.BytesIO()
        if fmt == "png" and png_box is not None:
            # the box is known: no layout pass of savefig's own (tight_layout leaves a placeholder
            # engine that would ask for one; it lays out nothing)
            with fig._cm_set(layout_engine=None):
                fig.savefig(buffer, format=fmt, dpi=dpi, metadata=metadata, bbox_inches=png_box)
        else:
            fig.savefig(buffer, format=fmt, dpi=dpi, metadata=metadata, bbox_inches="tight")
        rendered[fmt] = buffer.getvalue()
    written = []
    for fmt in formats:
        target = stem.with_suffix("." + fmt)
        with atomic_write(target, "wb") as handle:
            handle.write(rendered[fmt])
        written.append(target)
    return written


def _checked_tight_box(fig, name: str, dpi: int):
    """Lay ``fig`` out once with Agg at ``dpi``, run the figure check on that layout, and return the
    padded tight box (inches) that ``savefig(..., dpi=dpi, bbox_inches="tight")`` would use
    (``None`` for a canvas other than Agg's: the caller checks and saves as usual)."""
    import matplotlib
    from matplotlib import cbook
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from .figure_check import check

    if not hasattr(fig.canvas, "get_renderer"):      # a Figure() made without pyplot
        FigureCanvasAgg(fig)
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = fig.get_layout_engine()
    if not isinstance(fig.canvas, FigureCanvasAgg) or not (engine is None or
                                                           isinstance(engine, PlaceHolderLayoutEngine)):
        return None
    with cbook._setattr_cm(fig, dpi=dpi), cbook._setattr_cm(fig.canvas, _device_pixel_ratio=1):
        renderer = fig.canvas.get_renderer()
        with renderer._draw_disabled():                # the layout only, as savefig's own pass
            fig.draw(renderer)
        check(fig, name, renderer)
        pad = matplotlib.rcParams["savefig.pad_inches"]
        return fig.get_tightbbox(renderer).padded(pad, pad)


def _in_kernel() -> bool:
    """Whether an IPython kernel is running this code (a notebook, not a script or a test)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def show_figure(fig, stem, formats: tuple[str, ...] = ("png", "svg"), dpi: int = 120) -> list[Path]:
    """Save ``fig`` (:func:`save_figure`), show the saved PNG inline in a notebook, close it.

    One call per figure in a notebook: the chapter shows exactly the file it
    wrote, and nothing is shown outside a kernel.
    """
    import matplotlib.pyplot as plt

    written = save_figure(fig, stem, formats, dpi)
    plt.close(fig)
    png = [p for p in written if p.suffix == ".png"]
    if png and _in_kernel():
        from IPython.display import Image, display

        display(Image(filename=str(png[0])))
    return written


#: Characters that start Markdown markup inside a table cell (a bare ``|`` ends the cell).
_MARKUP = re.compile(r"([\\`*_\[\]<>|~$&])")


def _literal(value):
    """A string as literal text in a Markdown table cell: the characters of :data:`_MARKUP`
    backslash-escaped (CommonMark: any ASCII punctuation may be), line breaks made spaces.
    Anything else (a number, a missing value) is returned as it is."""
    if not isinstance(value, str):
        return value
    return _MARKUP.sub(r"\\\1", " ".join(value.splitlines()))


def show_table(frame: pd.DataFrame, stem, float_format: str = "%.4f", index: bool = False,
               head: int | None = None) -> list[Path]:
    """Write ``frame`` (:func:`write_table`) and show it in a notebook: whole, or its first
    ``head`` rows with a line naming the CSV that holds the rest.

    Shown as a GitHub-flavoured Markdown table (``text/markdown``: JupyterLab renders
    it, and so does the course book, :mod:`evalkit.workspace.book`), its text cells
    and headings escaped (:func:`_literal`): a claim's quote such as "kappa 0|123"
    stays in its cell instead of shifting the row's other values one column right.
    """
    written = write_table(frame, stem, float_format, index)
    if _in_kernel():
        from IPython.display import Markdown, display

        display(Markdown(_markdown(frame if head is None else frame.head(head), float_format,
                                   index)))
        if head is not None and len(frame) > head:
            display(Markdown(f"*First {head} of {len(frame)} rows; all of them in "
                             f"`{Path(stem).parent.name}/{Path(stem).name}.csv`.*"))
    return written


def _markdown(frame: pd.DataFrame, float_format: str, index: bool) -> str:
    """``frame`` as a Markdown table whose cells read as their values (:func:`_literal`)."""
    shown = frame.copy()
    for i, dtype in enumerate(shown.dtypes):
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            shown.isetitem(i, shown.iloc[:, i].map(_literal))
    shown.columns = [_literal(c) for c in shown.columns]
    if index and not isinstance(shown.index, pd.MultiIndex):
        shown.index = shown.index.map(_literal)
    return shown.to_markdown(index=index, floatfmt=float_format.strip("%"))
