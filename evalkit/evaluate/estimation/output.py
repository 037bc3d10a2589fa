"""What ``evalkit estimate`` prints and writes: its tables as CSV, JSON or Markdown.

Without ``--out`` the tables go to stdout: CSV tables one after the other,
each after a ``# name`` line; one JSON object ``{name: records}``; Markdown
tables under ``## name`` headings.  With ``--out DIR`` each table is a file
``DIR/<name>.<csv|json|md>`` (and, with ``--bias``, ``bland_altman.png``),
written into a temporary folder and moved in together: all files or none.
Numbers at full precision (Python's shortest round-trip repr; Markdown: 4
decimals); NaN as ``nan`` (CSV), ``null`` (JSON), empty (Markdown).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ...outputs import write_together

__all__ = ["FORMATS", "EXTENSIONS", "table_text", "report_text", "write_report"]

#: ``--format`` choices and their file extensions.
FORMATS = ("csv", "json", "markdown")
EXTENSIONS = {"csv": "csv", "json": "json", "markdown": "md"}


def _json_value(v):
    """NaN as null; an infinite interval end (``--interval bootstrap-t``) as ``"inf"`` or
    ``"-inf"``, since JSON has no infinity."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return None if v != v else ("inf" if v > 0 else "-inf")
    return v


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{k: _json_value(v) for k, v in row.items()}
            for row in frame.astype(object).to_dict(orient="records")]


def table_text(frame: pd.DataFrame, fmt: str) -> str:
    """One table as ``fmt`` text."""
    if fmt == "csv":
        return frame.to_csv(index=False, na_rep="nan", lineterminator="\n")
    if fmt == "json":
        return json.dumps(_records(frame)) + "\n"
    return _markdown(frame) + "\n"


def _markdown(frame: pd.DataFrame) -> str:
    def cell(v):
        if isinstance(v, float):
            return "" if v != v else f"{v:.4f}"
        return str(v)

    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |"
            for row in frame.astype(object).itertuples(index=False)]
    return "\n".join([head, rule, *body])


def report_text(report, fmt: str) -> str:
    """Every table of ``report`` (but the per-topic scores) as one ``fmt`` text for stdout."""
    tables = {k: v for k, v in report.tables().items() if k != "per_topic"}
    if fmt == "json":
        return json.dumps({name: _records(frame) for name, frame in tables.items()}) + "\n"
    if len(tables) == 1:
        return table_text(next(iter(tables.values())), fmt)
    mark = "#" if fmt == "csv" else "##"
    return "\n".join(f"{mark} {name}\n{table_text(frame, fmt)}" for name, frame in tables.items())


def write_report(report, out_dir, fmt: str = "csv", figure: bool = False) -> list[Path]:
    """Each table of ``report`` as ``out_dir/<name>.<ext>`` (and the Bland-Altman figure with
    ``figure``), all files together or none; returns the paths written."""
    ext = EXTENSIONS[fmt]
    texts = {f"{name}.{ext}": table_text(frame, fmt) for name, frame in report.tables().items()}

    def write(tmp: Path) -> list[str]:
        for name, text in texts.items():
            (tmp / name).write_text(text, encoding="utf-8", newline="")
        if not figure:
            return list(texts)
        from ...outputs import save_figure
        from .bland_altman import bland_altman_figure

        fig = bland_altman_figure(report.per_topic, report.bias, report.alpha)
        save_figure(fig, tmp / "bland_altman", formats=("png",), dpi=110)
        return [*texts, "bland_altman.png"]

    return write_together(out_dir, write)
