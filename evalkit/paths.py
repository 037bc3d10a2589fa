"""The workspace's folders, named once; every other module imports them from here.

``ROOT`` is the folder holding ``notebooks/``, ``data/`` and ``figures/`` (the
repository, for an editable install).  Nothing here touches the file system.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ROOT", "NOTEBOOKS", "FIGURES", "DATA", "RAW", "PUBLISHED", "EXTERNAL", "EXAMPLES",
           "BUILD", "EXECUTED", "figures_of"]

#: The repository root.
ROOT = Path(__file__).resolve().parents[1]
#: Parameterised notebooks, one per paper module in :mod:`evalkit.papers`.
NOTEBOOKS = ROOT / "notebooks"
#: Generated tables and figures, ``figures/<paper>/``; the report is ``figures/index.html``.
FIGURES = ROOT / "figures"
DATA = ROOT / "data"
#: Raw inputs the notebooks read (simulated by default; git-ignored).
RAW = DATA / "raw"
#: Numbers transcribed from the papers and official results (committed).
PUBLISHED = DATA / "published"
#: Real public data sets installed by ``evalkit data fetch`` (git-ignored).
EXTERNAL = DATA / "external"
#: Small generated example inputs for the command-line evaluator (committed).
EXAMPLES = DATA / "examples"
#: Build products (git-ignored).
BUILD = ROOT / "build"
#: Executed copies of the notebooks.
EXECUTED = BUILD / "notebooks"


def figures_of(paper: str) -> Path:
    """The output folder of a paper, ``figures/<paper>/``."""
    return FIGURES / paper
