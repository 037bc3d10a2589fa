"""The figure checker finds what a reader would trip over, and save_figure refuses such a figure."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from evalkit.figure_check import FigureProblem, problems  # noqa: E402
from evalkit.outputs import save_figure  # noqa: E402


def _labelled():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1, 2], [0.2, 0.5, 0.4], "o-", label="tau")
    ax.set_xlabel("N (assessors)")
    ax.set_ylabel("Kendall's tau")
    return fig, ax


def test_a_clean_figure_has_no_problem():
    fig, ax = _labelled()
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1))   # outside the axes
    assert problems(fig) == []
    plt.close(fig)


def test_an_axis_without_a_label_is_named():
    fig, ax = _labelled()
    ax.set_xlabel("")
    ax.set_title("tau by N")
    assert problems(fig) == ["panel 1 ('tau by N'): the x axis has tick labels but no label"]
    plt.close(fig)


def test_overlapping_tick_labels_are_found():
    fig, ax = _labelled()
    ax.set_xticks(range(12), [f"a long category name {i}" for i in range(12)])
    assert "panel 1: x tick labels overlap" in problems(fig)
    plt.close(fig)


def test_overlapping_annotations_are_found():
    fig, ax = _labelled()
    ax.text(1, 0.45, "n = 12")
    ax.text(1.01, 0.45, "n = 13")
    assert any("annotations 'n = 12' and 'n = 13' overlap" in p for p in problems(fig))
    plt.close(fig)


def test_a_legend_over_data_points_is_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.scatter([0.05, 0.5, 0.9], [0.95, 0.5, 0.1], label="runs")   # one point in the top left
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("precision")
    ax.set_ylabel("recall")
    ax.legend(loc="upper left")
    assert problems(fig) == ["panel 1: the legend covers 1 data point(s)"]
    ax.legend(loc="upper right")                                    # now clear of the points
    assert problems(fig) == []
    plt.close(fig)


def test_an_interval_beyond_the_axis_and_fractional_count_ticks_are_found():
    fig, ax = _labelled()
    ax.errorbar([1], [0.9], yerr=[[0.1], [0.3]], fmt="o")           # up to 1.2
    ax.set_ylim(0, 1)
    assert "panel 1: an interval runs beyond the axis limits (clip it and mark it)" in problems(fig)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([0, 1], [2, 3])
    ax.set_xlabel("|d| bin")
    ax.set_ylabel("number of rank swaps")
    ax.set_yticks([0, 0.5, 1, 1.5, 2, 2.5, 3])
    assert problems(fig) == ["panel 1: fractional ticks on a count axis ('number of rank swaps')"]
    plt.close(fig)


def test_save_figure_refuses_a_figure_with_problems_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("EVALKIT_FIGURE_CHECK", raising=False)
    fig, ax = _labelled()
    ax.set_ylabel("")
    with pytest.raises(FigureProblem, match="bad: panel 1: the y axis has tick labels but no label"):
        save_figure(fig, tmp_path / "bad")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setenv("EVALKIT_FIGURE_CHECK", "off")
    assert [p.name for p in save_figure(fig, tmp_path / "bad")] == ["bad.png", "bad.svg"]
    plt.close(fig)
