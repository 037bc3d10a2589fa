"""What the explorers share: the debounced update loop and the static fallback.

While a slider is dragged (``continuous_update``) each value change redraws at
once with a cheap preview (e.g. fewer HSD trials); the full computation runs
once the slider has rested for ``delay`` seconds (a debounce on the kernel's
asyncio loop, which ipykernel and Voila both run).  Without a running loop
(plain Python, tests) the full computation runs at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["Debounced", "Timer", "connect", "status_html", "figure_png", "interval_bars"]


class Timer:
    """The wall time of the last update (shown under every explorer)."""

    def __init__(self):
        self.seconds = 0.0

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self._start


class Debounced:
    """Call ``update(preview=True)`` at each change, ``update(preview=False)`` once it rests."""

    def __init__(self, update: Callable[[bool], None], delay: float = 0.35):
        self.update, self.delay, self._handle = update, delay, None

    def __call__(self, change=None) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if loop is None or not loop.is_running():
            self.update(False)
            return
        self.update(True)
        self._handle = loop.call_later(self.delay, self._final)

    def _final(self) -> None:
        self._handle = None
        self.update(False)


def connect(controls, update: Callable[[bool], None], debounce: bool = True) -> None:
    """Redraw on every change of any control (debounced: a preview while it moves, the
    full update once it rests; else one full update per change), and once now."""
    handler = Debounced(update) if debounce else (lambda change=None: update(False))
    for control in controls.values():
        control.observe(handler, names="value")
    update(False)


def status_html(timer: Timer, note: str = "") -> str:
    """The line under an explorer: how long the last update took."""
    return f"<small>updated in {timer.seconds:.2f} s{note}</small>"


def figure_png(fig, dpi: int = 100) -> bytes:
    """A matplotlib figure as PNG bytes (no date stamp), for an ``Image`` widget."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None}, bbox_inches="tight")
    return buf.getvalue()


def interval_bars(ax, x, centre, low, high, top: float, **style) -> None:
    """Points with their intervals, each interval cut at ``top`` (the axis's upper limit).

    An interval that reaches past ``top`` (Kendall's unclipped interval can pass 1) is
    drawn up to the axis and its cut end marked with an open triangle, named in a legend
    below the panel, so no bar runs off the axes unannounced.
    """
    import numpy as np

    centre, low, high = (np.asarray(v, dtype=float) for v in (centre, low, high))
    shown = np.minimum(high, top)
    ax.errorbar(x, centre, yerr=[centre - low, shown - centre], fmt="o", capsize=4, **style)
    ax.set_ylim(top=top)
    cut = high > top
    if cut.any():
        ax.plot(np.asarray(x)[cut], shown[cut], "^", mfc="white", color=style.get("color", "C0"),
                ms=7, clip_on=False, label=f"interval cut at {top:g}")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.28), frameon=False, fontsize=8)
