"""The declaration of a notebook: one object per notebook, read by every tool.

Each paper module in :mod:`evalkit.papers` declares its notebook once, as a
:class:`Notebook`: its parameters and their checks, the small "quick"
parameters used by the tests, the raw inputs it reads (and how to simulate
them when missing), the files it writes, the published tables it is compared
with, its figures and captions.  The runner (:mod:`evalkit.workspace.runner`),
the report (:mod:`evalkit.workspace.report`) and the tests read these
declarations; nothing else lists notebooks.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

import pandas as pd

from .. import paths
from . import params

__all__ = ["Notebook", "Input", "Comparison"]


@dataclass(frozen=True)
class Input:
    """A raw input a notebook reads, relative to the repository root.

    ``make`` writes it (a simulator with its default seed) when it is missing;
    ``None`` means the input must be installed by other means (``make data``).
    """

    path: str
    make: Callable[[], object] | None = None

    @property
    def location(self) -> Path:
        return paths.ROOT / self.path


@dataclass(frozen=True)
class Comparison:
    """A published table (``data/published/<published>.csv``) and the reproduced CSV beside it.

    ``values`` maps published columns to reproduced columns; cells whose
    difference exceeds ``tolerance`` are highlighted in the report.
    ``prepare`` reshapes the published table first (e.g. counts pairs);
    ``joined`` means the notebook already wrote both columns side by side.
    ``how`` is the join; ``fill_published`` fills published cells absent from
    the published table (a count of zero, say).
    """

    published: str
    reproduced: str                  # path under figures/
    keys: tuple[str, ...]
    values: Mapping[str, str]
    tolerance: float = 0.0
    caption: str = ""
    prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    joined: bool = False
    how: str = "left"
    fill_published: float | None = None


@dataclass(frozen=True)
class Notebook:
    """Everything the workspace knows about one notebook, declared in one place."""

    name: str                                  # notebooks/<name>.ipynb, evalkit/papers/<name>.py
    paper: str                                 # output folder figures/<paper>/
    title: str                                 # the report's section title for that folder
    parameters: Mapping[str, params.Checker]   # every parameter but out_dir, with its check
    outputs: tuple[str, ...]                   # files written under figures/<paper>/
    inputs: tuple[Input, ...] = ()
    quick: Mapping[str, object] = field(default_factory=dict)  # small parameters for tests
    comparisons: tuple[Comparison, ...] = ()
    figures: tuple[tuple[str, str], ...] = ()  # (file under figures/<paper>/, caption)
    # the paper's tables and figures this notebook does not reproduce: (item, why)
    not_reproduced: tuple[tuple[str, str], ...] = ()
    needs_data: tuple[str, ...] = ()           # external data sets (evalkit data fetch)
    # parameters every papermill run gets (no widget front-end there), e.g. an
    # explorer's interactive=False; a test's or a user's parameters still win
    batch: Mapping[str, object] = field(default_factory=dict)
    # parameter -> another parameter that, when set, makes it unused (then it is not checked)
    unused_when: Mapping[str, str] = field(default_factory=dict)
    # rough run time in seconds with full parameters on a 2-core machine; only orders a
    # first run (longest first), later runs use the time measured last time
    expected_seconds: float = 5.0

    @property
    def path(self) -> Path:
        """The notebook file."""
        return paths.NOTEBOOKS / f"{self.name}.ipynb"

    @property
    def out_dir(self) -> Path:
        """Where the notebook writes, ``figures/<paper>/``."""
        return paths.figures_of(self.paper)

    def defaults(self) -> dict[str, str]:
        """The parameters cell's assignments, ``{name: source text of the value}``.

        Read with :mod:`json` and :mod:`ast` (the same answer as
        ``papermill.inspect_notebook``'s ``default`` field, without importing papermill).
        """
        cells = json.loads(self.path.read_text())["cells"]
        source = next("".join(c["source"]) for c in cells
                      if "parameters" in c.get("metadata", {}).get("tags", []))
        out = {}
        for node in ast.parse(source).body:
            target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
            if isinstance(target, ast.Name) and node.value is not None:
                out[target.id] = ast.get_source_segment(source, node.value)
        return out

    def check(self, **values) -> None:
        """Check parameter values; a bad or unknown one raises ParameterError naming it.

        A parameter that another one's value makes unused (:attr:`unused_when`) is not checked.
        """
        for name, switch in self.unused_when.items():
            if values.get(switch):
                values.pop(name, None)
        params.check(values, self.parameters)

    def check_parameters(self, namespace: Mapping[str, object]) -> None:
        """Check the notebook's parameters as its kernel holds them: the one call a notebook makes.

        ``namespace`` is the notebook's ``globals()`` after its parameters cell
        (and papermill's injected one) ran.  The parameters cell must assign
        exactly the declared parameters (and ``out_dir``), so the two cannot
        drift; each value is then checked against its declaration and a bad
        one raises :class:`~evalkit.errors.ParameterError` naming it.
        """
        in_cell = set(self.defaults()) - {"out_dir"}
        declared = set(self.parameters)
        if in_cell != declared:
            raise ValueError(f"{self.name}: the parameters cell and the declaration differ: "
                             f"only in the cell {sorted(in_cell - declared)}, "
                             f"only declared {sorted(declared - in_cell)}")
        self.check(**{name: namespace[name] for name in self.parameters})
