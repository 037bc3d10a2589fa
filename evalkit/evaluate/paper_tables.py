"""Tables for a paper: the Markdown and LaTeX that ``evalkit compare`` and ``agreement`` write.

Both commands print or write their tables as CSV for programs and, with
``--format markdown|latex``, as a table to paste into a paper: three
decimals, intervals in brackets, a minus sign rather than a hyphen, a
dagger on significant rows explained by a note under the table (as ranx's
comparison reports do).  :func:`markdown_table` and :func:`latex_table`
lay the cells out; :func:`number` and :func:`interval` format them.
"""

from __future__ import annotations

import math

__all__ = ["MINUS", "number", "interval", "tex", "markdown_table", "latex_table"]

#: The minus sign of each format (a hyphen reads as a dash in print).
MINUS = {"markdown": "−", "latex": "$-$"}

_TEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "_": r"\_", "#": r"\#",
                "$": r"\$", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                "^": r"\textasciicircum{}"}


def number(value: float, minus: str = "-") -> str:
    """Three decimals (``nan`` for a missing value), the minus sign given."""
    return "nan" if math.isnan(value) else f"{value:.3f}".replace("-", minus)


def interval(low: float, high: float, minus: str = "-") -> str:
    """``[low, high]`` with three decimals."""
    return f"[{number(low, minus)}, {number(high, minus)}]"


def tex(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in str(text))


def markdown_table(header: list[str], rows: list[list[str]], align: str, note: str = "") -> str:
    """A pipe table; ``align`` has one letter per column, ``l`` or ``r``; ``note`` (if any)
    follows after a blank line."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + (f"\n\n{note}\n" if note else "\n")


def latex_table(header: list[str], rows: list[list[str]], spec: str, note: str = "",
                text_columns: int = 0) -> str:
    """A booktabs ``tabular`` with column ``spec`` (e.g. ``lllrcrrr``); the first
    ``text_columns`` cells of each row are escaped (names), the rest written as given;
    ``note`` (if any) follows as a LaTeX comment."""
    lines = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule", " & ".join(header) + r" \\", r"\midrule"]
    for r in rows:
        lines.append(" & ".join([tex(c) for c in r[:text_columns]] + list(r[text_columns:])) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if note:
        lines.append("% " + note.replace("%", r"\%"))
    return "\n".join(lines) + "\n"
