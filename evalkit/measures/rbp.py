"""Rank-biased precision (Moffat & Zobel, TOIS 27(1), 2008): trec_eval 10's ``rbp`` and ``rbp_resid``, ir_measures' ``RBP``.

A user reads rank 1 and goes on to the next rank with probability ``p``:

    RBP = (1 - p) sum_{r >= 1} rel(r) p^(r-1),     rel(r) in [0, 1]

and the residual, the most RBP could still rise if every document the run
leaves unjudged (outside the qrels, or graded below 0) within its ``n``
ranks, and every rank past its end, had ``rel = 1``:

    residual = (1 - p) sum_{r <= n, unjudged} p^(r-1) + p^n

Two tools, two sets of defaults, two names (each keeps its own):

* trec_eval 10's ``rbp`` (``m_rbp.c``; default ``p = 0.9``, ``rbp.p=0.95``):
  graded, the gains scaled into ``[0, 1]``: ``rel(r) = g(r) / max(1, g*)``
  with ``g*`` the topic's largest gain (trec_eval 10 divides by the
  largest gain when it exceeds 1; its ``m_rbp.c`` reads the running minimum
  and maximum before setting them, so evalkit follows the definition, not its
  output); ``rbp_resid`` (``m_rbp_resid.c``) is the residual above.  trec_eval
  10 prints ``rbp_resid`` 0 for a list without an unjudged document, which
  leaves out the ``p^n`` of the ranks past its end; evalkit keeps them, as
  Moffat & Zobel define it.  A topic the run does not return scores 0 for
  both, as trec_eval 10's ``-c`` clears them (the definition would give
  ``rbp_resid`` 1, ``p^0``; trec_eval 10 prints 1 with ``rbp_resid.p=P``,
  whose name its ``-c`` does not clear);
* ir_measures' ``RBP`` (default ``p = 0.8``, ``RBP(p=0.9)@k``; computed by
  trectools): the gain itself, unscaled (``RBP`` can exceed 1 on graded
  qrels), or, with ``RBP(rel=L)``, ``rel(r) = 1`` for a gain of at least
  ``L`` (cwl_eval's binary form); ``@k`` reads the top ``k``.
"""

from __future__ import annotations

import numpy as np

from .ranked import JUDGED, RankedLists, per_topic, relevant

__all__ = ["rbp", "rbp_residual", "ir_measures_rbp", "TREC_EVAL_P", "IR_MEASURES_P"]

#: The tools' default persistence.
TREC_EVAL_P, IR_MEASURES_P = 0.9, 0.8


def _weights(depth: int, p: float) -> np.ndarray:
    """``p^(r-1)`` for ``r = 1 .. depth``, by repeated products as trec_eval forms them."""
    return np.concatenate([[1.0], np.cumprod(np.full(max(depth - 1, 0), p))])[:depth]


def rbp(lists: RankedLists, p: float = TREC_EVAL_P) -> np.ndarray:
    """trec_eval 10's rbp ``(G, T)``: gains scaled by the topic's largest (when above 1)."""
    top = np.maximum(lists.ideal[..., 0], 1.0)[..., None]
    total = (lists.gains / top) @ _weights(lists.depth, p)
    return per_topic(lists, (1.0 - p) * total)


def rbp_residual(lists: RankedLists, p: float = TREC_EVAL_P) -> np.ndarray:
    """rbp_resid ``(G, T)``: unjudged ranks of the run and every rank past its end (0 for a
    topic the run does not return, as trec_eval's ``-c``)."""
    returned = np.arange(lists.depth) < lists.retrieved[..., None]
    unjudged = (lists.status != JUDGED) & returned
    tail = np.power(p, lists.retrieved.astype(float))
    value = (1.0 - p) * (unjudged @ _weights(lists.depth, p)) + tail
    return per_topic(lists, np.where(lists.retrieved > 0, value, 0.0))


def ir_measures_rbp(lists: RankedLists, k: int | None = None, p: float = IR_MEASURES_P,
                    rel: float | None = None) -> np.ndarray:
    """ir_measures' RBP@k ``(G, T)``: the gain itself, or 1 at a gain of at least ``rel``."""
    gains, _ = lists.cut(k)
    values = gains if rel is None else relevant(gains, rel).astype(float)
    return per_topic(lists, (1.0 - p) * (values @ _weights(gains.shape[-1], p)))
