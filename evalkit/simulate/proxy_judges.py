"""Simulated proxy judges (LLMs) that label a pool whose latent grades are known.

The coverage study of prediction-powered inference
(:mod:`evalkit.evaluate.estimation.coverage`) needs judges whose errors are
known.  Each function takes the latent grades of a topic's pool (aligned
with :class:`~evalkit.measures.graded.RankedLists` ``items``, as
:func:`~evalkit.simulate.stc.stc_lists` returns them) and returns the proxy's
grades, drawn with an explicit seed or ``numpy.random.Generator``:

* :func:`noisy_judge`: (a) unbiased and noisy: a share ``noise`` of the
  labels is redrawn from the topic's own grades (a random item's grade), so
  the number of relevant documents does not move on average, only which
  documents they are;
* :func:`lenient_judge`: (b) lenient by one grade on a share ``share`` of
  the documents (clipped at ``top``);
* :func:`favouring_judge`: (c) the noisy judge of (a), and one grade more for
  every document a favoured run returns (clipped at ``top``): a judge biased
  toward one system's documents, as when the judge and the system share a
  model.
"""

from __future__ import annotations

import numpy as np

from ..seeds import as_generator

__all__ = ["noisy_judge", "lenient_judge", "favouring_judge", "PROXY_JUDGES"]


def noisy_judge(grades, seed, noise: float = 0.3) -> list[np.ndarray]:
    """Per topic, each label replaced with probability ``noise`` by the grade of a random item
    of the same topic (the topic's grade distribution is kept in expectation)."""
    rng = as_generator(seed)
    out = []
    for g in grades:
        g = np.asarray(g)
        redraw = rng.random(g.size) < noise
        other = g[rng.integers(0, g.size, g.size)] if g.size else g
        out.append(np.where(redraw, other, g))
    return out


def lenient_judge(grades, seed, share: float = 0.3, top: int = 2) -> list[np.ndarray]:
    """Per topic, a share ``share`` of the documents (drawn at random) one grade higher,
    at most ``top``."""
    rng = as_generator(seed)
    return [np.where(rng.random(np.size(g)) < share, np.minimum(np.asarray(g) + 1, top),
                     np.asarray(g)) for g in grades]


def favouring_judge(grades, index, run: int, seed, noise: float = 0.3,
                    top: int = 2) -> list[np.ndarray]:
    """:func:`noisy_judge`'s labels, one grade higher (at most ``top``) on every document run
    ``run`` returns (``index``: the lists' ``(R, T, k)`` item positions, -1 for none)."""
    out = noisy_judge(grades, seed, noise)
    for t, g in enumerate(out):
        mine = index[run, t]
        mine = np.unique(mine[mine >= 0])
        g[mine] = np.minimum(g[mine] + 1, top)
    return out


#: The judges of the coverage study, by setting name.
PROXY_JUDGES = ("noisy", "lenient", "favouring")
