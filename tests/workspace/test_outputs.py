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
