"""What the exercise tests of the real-data chapters share: run a check quietly, and hold every
solution against its check and a wrong answer against it too."""

import contextlib
import io

import nbformat

from evalkit.explore.exercises import solutions
from evalkit.paths import NOTEBOOKS


def run_quietly(fn, *args, **kw):
    """``(passed, what it printed)`` of one check."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ok = fn(*args, **kw)
    return bool(ok), out.getvalue()


def solution_passes_and_wrong_answer_fails(stem: str, ident: str, namespace: dict, wrong) -> None:
    """The instructor's solution to exercise ``ident`` of ``notebooks/<stem>.ipynb`` passes the
    check cell after it; ``wrong`` as the answer is refused with a hint."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    check = nb.cells[solutions.answer_cells(nb)[ident] + 1]
    assert "exercise" in check.metadata["tags"] and "exercises.check_" in check.source
    with contextlib.redirect_stdout(io.StringIO()):
        exec(solutions.load(stem)[ident], namespace)
        ok = eval(check.source, namespace)
    assert ok, ident
    namespace[f"answer_{ident}"] = wrong
    ok, said = run_quietly(eval, check.source, namespace)
    assert not ok and said.startswith("Not yet. Hint:")
