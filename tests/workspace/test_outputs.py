"""Atomic, deterministic writers."""

import os

import pandas as pd
import pytest

from evalkit.formats import trec
from evalkit import outputs


def test_atomic_write_leaves_old_file_on_failure(tmp_path):
    target = tmp_path / "t.csv"
    trec.write_text(target, "old\n")
    with pytest.raises(RuntimeError):
        with outputs.atomic_write(target) as handle:
            handle.write("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["t.csv"]


def test_write_table_is_deterministic(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.5], "b": ["x", "y"]})
    first = [p.read_bytes() for p in outputs.write_table(frame, tmp_path / "t")]
    second = [p.read_bytes() for p in outputs.write_table(frame, tmp_path / "t")]
    assert first == second and first[0] == b"a,b\n1.0000,x\n2.5000,y\n"


def test_show_figure_saves_closes_and_shows_nothing_outside_a_kernel(tmp_path, capsys):
    import matplotlib.pyplot as plt

    from evalkit.outputs import show_figure

    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    written = show_figure(fig, tmp_path / "f")
    assert [p.name for p in written] == ["f.png", "f.svg"] and all(p.is_file() for p in written)
    assert not plt.fignum_exists(fig.number) and capsys.readouterr().out == ""


def test_show_table_writes_the_whole_table(tmp_path):
    import pandas as pd

    from evalkit.outputs import show_table

    frame = pd.DataFrame({"a": range(30), "b": [0.5] * 30})
    csv, md = show_table(frame, tmp_path / "t", head=5)
    assert len(pd.read_csv(csv)) == 30 and md.read_text().count("\n") == 32


def _cells(markdown: str) -> list[list[str]]:
    """The text of each row's cells, as a GitHub-flavoured Markdown parser (markdown-it-py,
    the parser MyST-NB renders the book's Markdown outputs with) reads the table."""
    from html.parser import HTMLParser

    from markdown_it import MarkdownIt

    class Cells(HTMLParser):
        rows: list = []

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.rows[-1].append("")

        def handle_data(self, data):
            if self.rows and self.rows[-1]:
                self.rows[-1][-1] += data

    parser = Cells()
    parser.rows = []
    parser.feed(MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown))
    return [[cell.strip() for cell in row] for row in parser.rows]


def test_show_table_shows_a_markdown_table_whose_cells_read_as_the_values(tmp_path, monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(outputs, "_in_kernel", lambda: True)
    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    quotes = ["kappa 0|123 and kappa 01|23",                       # the LLMJudge table's headings
              r"a *b* _c_ `d` <b>e</b> [f](g) ~~h~~ $(50 \times 49)/2$ & i",
              "two\nlines"]
    frame = pd.DataFrame({"quote": quotes, "p|q": [0.5, 1.25, 2.0], "n": [1, 2, 3]})
    outputs.show_table(frame, tmp_path / "t", float_format="%.3f", head=2)
    assert len(shown) == 2 and all(obj._repr_markdown_() for obj in shown)
    assert _cells(shown[0]._repr_markdown_()) == [["quote", "p|q", "n"],
                                                  [quotes[0], "0.500", "1"],
                                                  [quotes[1], "1.250", "2"]]
    assert shown[1].data == f"*First 2 of 3 rows; all of them in `{tmp_path.name}/t.csv`.*"
    outputs.show_table(frame.tail(1), tmp_path / "u", float_format="%.3f")
    assert _cells(shown[2]._repr_markdown_())[1] == ["two lines", "2.000", "3"]
