"""relstring's table of characters, built for all ranks at once, against the character-by-
character definition (``_char``: ``m_relstring.c``), on random lists with every status,
fractional, large and infinite gains; a negative gain takes the character path."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from evalkit.measures import relstring as module
from evalkit.measures.ranked import JUDGED, NOT_IN_QRELS, UNJUDGED


def _lists(gains, status, retrieved, in_qrels):
    def cut(k):
        depth = gains.shape[-1]
        if k <= depth:
            return gains[..., :k], status[..., :k]
        pad = [(0, 0), (0, 0), (0, k - depth)]
        return np.pad(gains, pad), np.pad(status, pad)
    return SimpleNamespace(retrieved=retrieved, in_qrels=in_qrels, cut=cut)


def _expected(lists, k):
    gains, status = lists.cut(k)
    shown = np.broadcast_to(np.minimum(lists.retrieved, k), lists.in_qrels.shape)
    return [["".join(module._char(x, s) for x, s in zip(gains[g, t, :shown[g, t]],
                                                       status[g, t, :shown[g, t]]))
             if lists.in_qrels[g, t] else None for t in range(shown.shape[1])]
            for g in range(shown.shape[0])]


def test_the_table_gives_each_rank_its_character():
    rng = np.random.default_rng(41)
    for _ in range(150):
        shape = (int(rng.integers(1, 3)), int(rng.integers(1, 6)), int(rng.integers(0, 15)))
        gains = rng.choice([0, 1, 2, 3, 9, 9.2, 10, 15, 0.5, 2.7, np.inf], size=shape)
        status = rng.choice([JUDGED, NOT_IN_QRELS, UNJUDGED], size=shape).astype(np.int8)
        lists = _lists(gains, status, rng.integers(0, shape[2] + 1, size=shape[1]),
                       rng.random(shape[:2]) < 0.8)
        for k in (3, 10, 20):
            assert module.relstring(lists, k).tolist() == _expected(lists, k)


def test_a_negative_gain_is_written_as_python_writes_it():
    lists = _lists(np.array([[[2.0, -3.0, 11.0]]]), np.full((1, 1, 3), JUDGED, np.int8),
                   np.array([3]), np.array([[True]]))
    assert module.relstring(lists, 10).tolist() == [["2-3>"]] == _expected(lists, 10)
