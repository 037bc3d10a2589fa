"""save_figure lays a figure out once for the check and the PNG's box: the same bytes as savefig."""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from evalkit.figure_check import problems  # noqa: E402
from evalkit.outputs import save_figure  # noqa: E402


def _figure(layout: str):
    rng = np.random.default_rng(1)
    fig, axes = plt.subplots(2, 3, figsize=(7, 4.5), sharey=True,
                             layout="constrained" if layout == "constrained" else None)
    for i, ax in enumerate(axes.flat):
        x = np.arange(12)
        ax.plot(x, rng.random(12).cumsum(), "o-", label="run A")
        ax.bar(x, rng.random(12), alpha=0.4, label="run B")
        ax.set(xlabel="rank", ylabel="gain" if i % 3 == 0 else "", title=f"topic {i + 1}")
    axes[0, 0].legend(loc="upper left", bbox_to_anchor=(0, -0.3), ncols=2)
    fig.suptitle("six panels with a long title that reaches the margin of the figure on purpose")
    if layout == "tight":
        fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def _before(fig, formats=("png", "svg")) -> dict[str, bytes]:
    """What save_figure wrote before: the check's own draw, then savefig(bbox_inches="tight") per format."""
    problems(fig)
    matplotlib.rcParams["svg.hashsalt"] = "evalkit"
    out = {}
    for fmt in formats:
        buffer = io.BytesIO()
        metadata = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
        fig.savefig(buffer, format=fmt, dpi=120, metadata=metadata, bbox_inches="tight")
        out[fmt] = buffer.getvalue()
    return out


@pytest.mark.parametrize("layout", ["tight", "none", "constrained"])
def test_save_figure_writes_the_bytes_it_wrote_before(tmp_path, monkeypatch, layout):
    monkeypatch.setenv("EVALKIT_FIGURE_CHECK", "warn")       # the test figure's y labels are sparse
    written = save_figure(_figure(layout), tmp_path / "f")
    before = _before(_figure(layout))
    assert [p.name for p in written] == ["f.png", "f.svg"]
    for path in written:
        assert path.read_bytes() == before[path.suffix[1:]], path.name
    plt.close("all")


def test_save_figure_png_only_and_svg_only(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALKIT_FIGURE_CHECK", "warn")
    (png,) = save_figure(_figure("tight"), tmp_path / "p", formats=("png",))
    (svg,) = save_figure(_figure("tight"), tmp_path / "s", formats=("svg",))
    assert png.read_bytes() == _before(_figure("tight"), ("png",))["png"]
    assert svg.read_bytes() == _before(_figure("tight"), ("svg",))["svg"]
    plt.close("all")
