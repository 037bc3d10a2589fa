"""The papers' claims, rendered: the report's checklists and ``docs/findings.md``.

Every notebook writes its claims to ``figures/<paper>/claims*.csv``
(:mod:`evalkit.declare.claims`).  This is the one module that reads them back
for people: :func:`paper_claims` gives the report (:mod:`evalkit.workspace.report`)
each paper's checklist, and :func:`render` the "What we learned" section of
``docs/findings.md``: for each paper how many of its claims hold and, for
every claim that does not, the claim and its explanation (the finding of the
controlled experiment, with the files that show it).
``python -m evalkit.workspace.findings --write`` rewrites that section
between its ``<!-- learned -->`` markers; a test keeps the two in step, so
the text is never typed by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from .. import papers, paths
from ..declare.claims import HOLDS, RULE, figure_files

__all__ = ["paper_claims", "is_paper", "counted", "held", "not_reproduced", "render", "write",
           "FINDINGS", "START", "END"]

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


def is_paper(claim: dict) -> bool:
    """Whether a row is one of the paper's own claims (kind ``paper``), the rows that are counted."""
    return claim.get("kind", "paper") == "paper"


def counted(claims: list[dict]) -> list[dict]:
    """The paper's own claims among ``claims`` (calibration targets and identities left out)."""
    return [c for c in claims if is_paper(c)]


def held(claims: list[dict]) -> int:
    """How many of the paper's own claims among ``claims`` hold."""
    return sum(c["verdict"] == HOLDS for c in counted(claims))


def not_reproduced() -> list[tuple[str, str, str]]:
    """``(notebook title, item, why)`` for every table or figure of a paper not reproduced."""
    return [(nb.title, item, why) for nb in papers.notebooks() for item, why in nb.not_reproduced]


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
        own = counted(claims)
        others = len(claims) - len(own)
        extra = (f" (besides {others} {'row' if others == 1 else 'rows'} of calibration targets "
                 "and identities)") if others else ""
        out.append(f"**{nb.title}.** {held(claims)} of {len(own)} of the paper's claims hold{extra}.")
        for c in own:
            if c["verdict"] != HOLDS:
                draws = f"; {c['draws']} draws" if c.get("draws") else ""
                out.append(f"* *{c['claim']}* ({c['verdict']}{draws}: {c['reproduced']}). "
                           f"{c.get('explanation') or 'not yet explained.'}")
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
