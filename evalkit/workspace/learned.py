"""The README's "What we learned" section, generated from the claims tables.

For each paper: how many of its claims hold and, for every claim that does
not, the claim and its explanation (the finding of the controlled experiment,
with the files that show it).  ``python -m evalkit.workspace.learned --write``
rewrites the section between the README's ``<!-- learned -->`` markers; a test
keeps the two in step, so the text is never typed by hand.
"""

from __future__ import annotations

import sys

import pandas as pd

from .. import papers
from .. import paths
from ..declare.claims import HOLDS

__all__ = ["render", "write", "START", "END"]

START, END = "<!-- learned -->\n", "<!-- /learned -->"


def render(figures=None) -> str:
    """Markdown of the section from ``figures/<paper>/claims*.csv``."""
    figures = figures or paths.FIGURES
    out = []
    seen = set()
    for nb in papers.notebooks():
        if nb.paper in seen:
            continue
        seen.add(nb.paper)
        files = sorted((figures / nb.paper).glob("claims*.csv"))
        if not files:
            continue
        claims = pd.concat([pd.read_csv(f, keep_default_na=False) for f in files], ignore_index=True)
        held = int((claims.verdict == HOLDS).sum())
        out.append(f"**{nb.title}.** {held} of {len(claims)} claims hold.")
        for row in claims[claims.verdict != HOLDS].itertuples():
            why = getattr(row, "explanation", "") or "not yet explained."
            out.append(f"* *{row.claim}* ({row.reproduced}). {why}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def write(readme=None) -> bool:
    """Rewrite the README section; True when it changed."""
    readme = readme or paths.ROOT / "README.md"
    text = readme.read_text()
    start, end = text.index(START) + len(START), text.index(END)
    new = text[:start] + render() + text[end:]
    if new != text:
        readme.write_text(new)
    return new != text


if __name__ == "__main__":  # pragma: no cover
    if "--write" in sys.argv[1:]:
        print("README.md updated" if write() else "README.md already up to date")
    else:
        print(render(), end="")
