"""Expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan, CIKM 2009), ir_measures' ``ERR@k``.

    ERR@k = sum_{r=1}^{k} (1/r) R(r) prod_{i<r} (1 - R(i)),    R(r) = (2^g(r) - 1) / 2^gmax

``R(r)`` is the chance that the user stops, satisfied, at rank ``r``; ``gmax``
the largest gain of the scale: for one judge, the top of its grade scale
(``--grades LO:HI``, or the highest grade seen), for gains pooled over
judges the largest gain any document has; ``ERR(gmax=4)@20`` sets it (gdeval,
which ir_measures runs, fixes ``gmax = 4``).  ERR is not normalised; a topic
without a positive gain scores 0.  NTCIREVAL's normalised ``nERR@k``, with
``R(r) = g(r) / (gmax_topic + 1)``, is :func:`evalkit.measures.graded.nerr_at_k`.
"""

from __future__ import annotations

import numpy as np

from .ranked import RankedLists, per_topic

__all__ = ["expected_reciprocal_rank"]


def expected_reciprocal_rank(lists: RankedLists, k: int, gmax: float | None = None) -> np.ndarray:
    """ERR@k ``(G, T)``; ``gmax`` overrides the columns' own."""
    gains, _ = lists.cut(k)
    top = lists.gmax if gmax is None else np.full(gains.shape[0], float(gmax))
    stop = (np.exp2(gains) - 1.0) / np.exp2(top)[:, None, None]
    reach = np.cumprod(1.0 - stop, axis=-1)
    reach = np.concatenate([np.ones_like(reach[..., :1]), reach[..., :-1]], axis=-1)
    return per_topic(lists, (stop * reach / np.arange(1, k + 1)).sum(axis=-1))
