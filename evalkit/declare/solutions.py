"""Where the worked solutions live, and how a notebook's answer cells are found.

A notebook's exercise is three cells: the question (markdown), an **answer
cell** tagged ``exercise`` and ``answer:<id>`` whose code starts the answer as
``None`` (``answer_<id> = None  # a number``), and a check cell tagged
``exercise`` that calls ``exercises.check_...(answer_<id>)``.  The solutions
are not in the notebook, so neither the student edition of the book nor
"Run All" in JupyterLab can reveal them: they live in
``notebooks/solutions/<notebook stem>.py``, one block per exercise, each
opened by a ``# %% answer:<id>`` line (the percent format editors know).  The
instructor edition replaces each answer cell's code with its block
(:func:`with_solutions`) before running the notebook.

>>> blocks = parse("# %% answer:ug\\nanswer_ug = 11\\n# %% answer:tau\\nanswer_tau = 0.6\\n")
>>> blocks == {"ug": "answer_ug = 11", "tau": "answer_tau = 0.6"}
True
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

from .. import paths

__all__ = ["SOLUTIONS", "parse", "load", "answer_cells", "with_solutions"]

#: The instructor's folder: ``notebooks/solutions/<stem>.py``.
SOLUTIONS = paths.NOTEBOOKS / "solutions"
_BLOCK = re.compile(r"^# %% answer:([\w-]+)[ \t]*$", re.MULTILINE)


def parse(text: str) -> dict[str, str]:
    """``{exercise id: code}`` from a solutions file's text; an id twice is an error."""
    parts = _BLOCK.split(text)
    blocks: dict[str, str] = {}
    for ident, code in zip(parts[1::2], parts[2::2]):
        if ident in blocks:
            raise ValueError(f"solution answer:{ident} appears twice")
        blocks[ident] = code.strip("\n")
    return blocks


def load(stem: str, folder: Path | None = None) -> dict[str, str]:
    """The solutions of notebook ``stem`` (empty when it has none)."""
    path = Path(folder or SOLUTIONS) / f"{stem}.py"
    return parse(path.read_text()) if path.is_file() else {}


def answer_cells(notebook: dict) -> dict[str, int]:
    """``{exercise id: cell index}`` of a notebook's answer cells (tag ``answer:<id>``)."""
    found: dict[str, int] = {}
    for i, cell in enumerate(notebook["cells"]):
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag.startswith("answer:"):
                ident = tag.split(":", 1)[1]
                if ident in found:
                    raise ValueError(f"two answer cells are tagged answer:{ident}")
                found[ident] = i
    return found


def with_solutions(notebook: dict, solutions: dict[str, str]) -> dict:
    """A copy of ``notebook`` whose answer cells hold the solutions (the instructor edition).

    Every answer cell needs a solution and every solution an answer cell;
    a mismatch raises ``ValueError`` naming the ids.
    """
    cells = answer_cells(notebook)
    if set(cells) != set(solutions):
        raise ValueError(f"answer cells without a solution: {sorted(set(cells) - set(solutions))}; "
                         f"solutions without an answer cell: {sorted(set(solutions) - set(cells))}")
    out = copy.deepcopy(notebook)
    for ident, index in cells.items():
        cell = out["cells"][index]
        cell["source"] = solutions[ident]
        cell["metadata"]["tags"] = [*cell["metadata"].get("tags", []), "solution"]
    return out
