"""Solutions live outside the notebooks; the instructor edition puts them into the answer cells."""

import pytest

from evalkit.explore.exercises import solutions


def _nb(*tags):
    return {"cells": [{"cell_type": "code", "source": "answer_x = None", "metadata": {"tags": list(t)}}
                      for t in tags]}


def test_parse_splits_blocks_by_their_marker_and_keeps_their_code():
    text = "# %% answer:a\nx = 1\nanswer_a = x + 1\n\n# %% answer:b\nanswer_b = 'q'\n"
    assert solutions.parse(text) == {"a": "x = 1\nanswer_a = x + 1", "b": "answer_b = 'q'"}
    with pytest.raises(ValueError, match="answer:a appears twice"):
        solutions.parse("# %% answer:a\n1\n# %% answer:a\n2\n")


def test_with_solutions_fills_only_the_answer_cells_and_leaves_the_student_copy_alone():
    nb = _nb(["exercise", "answer:a"], ["exercise"], ["parameters"])
    filled = solutions.with_solutions(nb, {"a": "answer_a = 11"})
    assert [c["source"] for c in filled["cells"]] == ["answer_a = 11", "answer_x = None", "answer_x = None"]
    assert "solution" in filled["cells"][0]["metadata"]["tags"]
    assert nb["cells"][0]["source"] == "answer_x = None"          # the student's notebook is untouched


def test_a_missing_or_extra_solution_is_named():
    nb = _nb(["answer:a"], ["answer:b"])
    with pytest.raises(ValueError, match=r"without a solution: \['b'\]; solutions without an answer cell: \['c'\]"):
        solutions.with_solutions(nb, {"a": "1", "c": "2"})
    with pytest.raises(ValueError, match="two answer cells are tagged answer:a"):
        solutions.answer_cells(_nb(["answer:a"], ["answer:a"]))



def test_every_notebook_s_answer_cells_match_its_solutions_file():
    """What the instructor edition needs: each answer cell has a solution block and each
    block an answer cell; and no line of a solution is left in the student's notebook."""
    import json

    from evalkit import paths

    for path in sorted(paths.NOTEBOOKS.glob("*.ipynb")):
        nb = json.loads(path.read_text())
        blocks = solutions.load(path.stem)
        assert set(solutions.answer_cells(nb)) == set(blocks), path.name
        solutions.with_solutions(nb, blocks)
        text = "\n".join("".join(c["source"]) for c in nb["cells"])
        assert not [line for code in blocks.values() for line in code.splitlines()
                    if len(line.strip()) >= 12 and line.strip() in text], path.name
    assert {p.stem for p in solutions.SOLUTIONS.glob("*.py")} <= {
        p.stem for p in paths.NOTEBOOKS.glob("*.ipynb")}


def _assigned(code):
    import ast

    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _used(code):
    import ast

    return {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}


def test_no_solution_overwrites_a_name_the_notebook_still_needs():
    """The instructor edition runs each solution in the notebook's namespace: a solution that
    reassigns a variable the later cells read would change (or break) the rest of the chapter."""
    import json

    from evalkit import paths

    clashes = []
    for path in sorted(solutions.SOLUTIONS.glob("*.py")):
        cells = json.loads((paths.NOTEBOOKS / f"{path.stem}.ipynb").read_text())["cells"]
        code = ["".join(c["source"]) if c["cell_type"] == "code" else "" for c in cells]
        where = solutions.answer_cells({"cells": cells})
        for ident, block in solutions.load(path.stem).items():
            i = where[ident]
            before = set().union(*(_assigned(c) for c in code[:i] if c and not c.startswith("%")))
            later = set().union(*(_used(c) for c in code[i + 1:] if c and not c.startswith("%")))
            clash = (_assigned(block) - {f"answer_{ident}"}) & before & later
            if clash:
                clashes.append(f"{path.stem} answer:{ident} reassigns {sorted(clash)}")
    assert not clashes, clashes
