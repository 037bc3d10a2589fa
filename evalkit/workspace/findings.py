"""The papers' claims, rendered: the report's checklists and ``docs/findings.md``.

Every notebook writes its claims to ``figures/<paper>/claims*.csv``
(:mod:`evalkit.declare.claims`).  This is the one module that reads them back
for people: :func:`paper_claims` gives the report (:mod:`evalkit.workspace.report`)
each paper's checklist, and :func:`render` the "What we learned" section of
``docs/findings.md``: for each paper how many of its claims hold and, for
every claim that does not, the claim and its explanation (the finding of the
controlled experiment, with the files that show it), and for every claim that
is not testable here, its reason.
``python -m evalkit.workspace.findings --write`` rewrites that section
between its ``<!-- learned -->`` markers; a test keeps the two in step, so
the text is never typed by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from .. import papers, paths
from ..declare.claims import (HOLDS, NOT_TESTABLE, RULE, SIMULATED_NOTE, figure_files, tally,
                              tally_text)

__all__ = ["paper_claims", "of_kind", "counted", "held", "not_reproduced", "render",
           "write", "FINDINGS", "START", "END"]

#: The document holding the generated section.
FINDINGS = paths.ROOT / "docs" / "findings.md"
START, END = "<!-- learned -->\n", "<!-- /learned -->"


def paper_claims(folder: Path) -> list[dict]:
    """Every row of ``folder/claims*.csv`` (files in name order), each with ``files``:
    the output files its explanation names (:func:`~evalkit.declare.claims.figure_files`)."""
    rows = [row for path in sorted(Path(folder).glob("claims*.csv"))
            for row in pd.read_csv(path, keep_default_na=False).to_dict("records")]
    for row in rows:
        row["files"] = figure_files(row.get("explanation", ""))
    return rows


def of_kind(claims: list[dict], kind: str) -> list[dict]:
    """The rows of ``kind`` among ``claims``, testable or not."""
    return [c for c in claims if c.get("kind", "paper") == kind]


def counted(claims: list[dict], kind: str = "paper") -> list[dict]:
    """The testable rows of ``kind`` among ``claims``: the denominator readers see."""
    return [c for c in of_kind(claims, kind) if c["verdict"] != NOT_TESTABLE]


def held(claims: list[dict], kind: str = "paper") -> int:
    """How many testable rows of ``kind`` among ``claims`` hold."""
    return tally(claims, kind)[0]


def not_reproduced() -> list[tuple[str, str, str]]:
    """``(notebook title, item, why)`` for every table or figure of a paper not reproduced."""
    return [(nb.title, item, why) for nb in papers.notebooks() for item, why in nb.not_reproduced]


def _flagged(rows: list[dict]) -> list[str]:
    """One bullet per row that does not hold, is mixed or is not testable, with its reason."""
    out = []
    for c in rows:
        if c["verdict"] != HOLDS:
            draws = f"; {c['draws']} draws" if c.get("draws") else ""
            out.append(f"* *{c['claim']}* ({c['verdict']}{draws}: {c['reproduced']}). "
                       f"{c.get('explanation') or 'not yet explained.'}")
    return out


def render(figures=None) -> str:
    """Markdown of the "What we learned" section from ``figures/<paper>/claims*.csv``."""
    figures = Path(figures or paths.FIGURES)
    out = []
    seen = set()
    for nb in papers.notebooks():
        if nb.paper in seen:
            continue
        seen.add(nb.paper)
        claims = paper_claims(figures / nb.paper)
        if not claims:
            continue
        paper, beyond = of_kind(claims, "paper"), of_kind(claims, "beyond")
        others = len(claims) - len(paper) - len(beyond)
        line = f"**{nb.title}.** The paper's claims: {tally_text(claims, 'paper')}."
        if beyond:
            line += f" Beyond the paper: {tally_text(claims, 'beyond')}."
        if others:
            line += (f" Besides, {others} {'row' if others == 1 else 'rows'} of calibration "
                     "targets and identities.")
        if not nb.needs_data:
            line += f" {SIMULATED_NOTE}"
        out.append(line)
        out.extend(_flagged(paper))
        if beyond:
            out.append("")
            out.append("*Beyond the paper:*")
            out.extend(_flagged(beyond))
        out.append("")
    missing = not_reproduced()
    if missing:
        out.append("**Not reproduced.**")
        out.extend(f"* {title}: {item}. {why}" for title, item, why in missing)
        out.append("")
    out.append(f"*The rule.* {RULE}")
    return "\n".join(out).rstrip() + "\n"


def write(document=None) -> bool:
    """Rewrite the section in ``document`` (default ``docs/findings.md``); True when it changed."""
    document = Path(document or FINDINGS)
    text = document.read_text()
    start, end = text.index(START) + len(START), text.index(END)
    new = text[:start] + render() + text[end:]
    if new != text:
        document.write_text(new)
    return new != text


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv[1:]:
        name = FINDINGS.relative_to(paths.ROOT)
        print(f"{name} updated" if write() else f"{name} already up to date")
    else:
        print(render(), end="")
