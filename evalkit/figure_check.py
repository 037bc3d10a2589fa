"""What a reader needs from a figure, checked before it is saved.

:func:`problems` draws a matplotlib figure and lists what would mislead or
be unreadable, each as a sentence naming the panel:

* an axis with tick labels but no label (``set_xlabel`` / ``set_ylabel``; a
  colour bar needs one too);
* tick labels that overlap each other, or annotation texts that overlap each
  other, within a panel;
* a legend drawn over data points (line vertices, scatter points, bars);
* an error bar or interval drawn beyond the axis limits (clip it and mark
  the clipping instead);
* fractional ticks on an axis whose label says it counts something
  ("number of ...", "count", "... (count)").

:func:`~evalkit.outputs.save_figure` calls :func:`check` on every figure, so a
notebook cannot write a figure with one of these problems (set
``EVALKIT_FIGURE_CHECK=warn`` to save anyway and print them while drafting).
"""

from __future__ import annotations

import itertools
import os
import re
import sys

import numpy as np

__all__ = ["problems", "check", "FigureProblem"]

_COUNT = re.compile(r"^(number|count)\b|\bcount(s)?\b|\(count\)", re.IGNORECASE)
_OVERLAP_IN = 0.01     # boxes must overlap by more than this (inches: 1 pixel at 100 dpi) both ways


class FigureProblem(ValueError):
    """A figure that :func:`problems` found fault with; the message lists every problem."""


def _name(ax, i: int) -> str:
    title = ax.get_title() or ax.get_title(loc="left")
    return f"panel {i + 1}" + (f" ({title!r})" if title else "")


def _overlap(a, b, px: float = 1.0) -> bool:
    """Whether boxes ``a`` and ``b`` overlap by more than ``px`` pixels both ways."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w > px and h > px


def _visible_ticklabels(axis, renderer):
    labels = [t for t in axis.get_ticklabels() if t.get_visible() and t.get_text().strip()]
    view = axis.axes.get_window_extent(renderer)
    out = []
    for t in labels:
        box = t.get_window_extent(renderer)
        # matplotlib lays out tick labels for ticks outside the view too; only the shown ones count
        if axis.axis_name == "x" and (box.x1 < view.x0 - 1 or box.x0 > view.x1 + 1):
            continue
        if axis.axis_name == "y" and (box.y1 < view.y0 - 1 or box.y0 > view.y1 + 1):
            continue
        out.append((t, box))
    return out


def _data_points(ax) -> np.ndarray:
    """Display coordinates of every data point drawn in ``ax`` (lines, scatter, bars)."""
    pts = []
    for line in ax.lines:
        if not line.get_visible() or line.get_label() == "_nolegend_" and line.get_alpha() == 0:
            continue
        xy = np.asarray(line.get_xydata(), dtype=float)
        if len(xy):
            pts.append(line.get_transform().transform(xy))
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        offsets = np.asarray(coll.get_offsets(), dtype=float)
        if offsets.size and offsets.shape[0] > 0 and np.isfinite(offsets).all():
            pts.append(coll.get_offset_transform().transform(offsets))
    for patch in ax.patches:
        if patch.get_visible() and hasattr(patch, "get_bbox") and patch.get_height() != 0:
            box = patch.get_window_extent()
            pts.append(np.array([[box.x0, box.y1], [box.x1, box.y1],
                                 [(box.x0 + box.x1) / 2, box.y1]]))
    return np.vstack(pts) if pts else np.empty((0, 2))


def _intervals_off_axes(ax) -> bool:
    lo, hi = sorted(ax.get_ylim())
    span = hi - lo
    for container in ax.containers:
        for coll in getattr(container, "lines", ())[2:3] or ():
            for c in coll if isinstance(coll, (tuple, list)) else [coll]:
                for seg in c.get_segments():
                    ys = np.asarray(seg, dtype=float)[:, 1]
                    if np.isfinite(ys).all() and (ys.min() < lo - 1e-9 * span or
                                                  ys.max() > hi + 1e-9 * span):
                        return True
    return False


def problems(fig, renderer=None) -> list[str]:
    """Every problem a reader would meet in ``fig`` (empty when there is none).

    ``fig`` is drawn first, unless ``renderer`` is the one it was just drawn
    with (:func:`~evalkit.outputs.save_figure` passes the PNG's, so the figure
    is rendered once for both).  Overlaps are measured in inches, so the
    verdict does not depend on the dpi.
    """
    if renderer is None:
        if not hasattr(fig.canvas, "get_renderer"):      # a Figure() made without pyplot
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            FigureCanvasAgg(fig)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
    px = _OVERLAP_IN * renderer.dpi
    found = []
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible() or not ax.axison:
            continue
        name = _name(ax, i)
        for axis, getter in ((ax.xaxis, ax.get_xlabel), (ax.yaxis, ax.get_ylabel)):
            shown = _visible_ticklabels(axis, renderer)
            if shown and not getter().strip():
                found.append(f"{name}: the {axis.axis_name} axis has tick labels but no label")
            boxes = sorted((b for _, b in shown), key=lambda b: (b.x0, b.y0))
            if any(_overlap(a, b, px) for a, b in itertools.combinations(boxes, 2)):
                found.append(f"{name}: {axis.axis_name} tick labels overlap")
            if _COUNT.search(getter()):
                values = [t.get_position()[0 if axis.axis_name == "x" else 1]
                          for t, _ in shown]
                if any(abs(v - round(v)) > 1e-9 for v in values):
                    found.append(f"{name}: fractional ticks on a count axis ({getter()!r})")
        texts = [t for t in ax.texts if t.get_visible() and t.get_text().strip()]
        boxes = [t.get_window_extent(renderer) for t in texts]
        for (ta, a), (tb, b) in itertools.combinations(zip(texts, boxes), 2):
            if _overlap(a, b, px):
                found.append(f"{name}: annotations {ta.get_text()!r} and {tb.get_text()!r} overlap")
                break
        legend = ax.get_legend()
        if legend is not None and legend.get_visible():
            box = legend.get_window_extent(renderer)
            pts = _data_points(ax)
            inside = ((pts[:, 0] > box.x0) & (pts[:, 0] < box.x1) &
                      (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1)) if len(pts) else np.array([])
            if inside.any():
                found.append(f"{name}: the legend covers {int(inside.sum())} data point(s)")
        if _intervals_off_axes(ax):
            found.append(f"{name}: an interval runs beyond the axis limits (clip it and mark it)")
    return found


def check(fig, what: str = "figure", renderer=None) -> None:
    """Raise :class:`FigureProblem` listing :func:`problems`.

    ``EVALKIT_FIGURE_CHECK=off`` skips the check and ``=warn`` prints the
    problems to stderr instead of raising (while drafting a figure).
    """
    mode = os.environ.get("EVALKIT_FIGURE_CHECK", "").lower()
    if mode == "off":
        return
    found = problems(fig, renderer)
    if found and mode == "warn":
        print(f"figure check: {what}: " + "; ".join(found), file=sys.stderr)
    elif found:
        raise FigureProblem(f"{what}: " + "; ".join(found))
