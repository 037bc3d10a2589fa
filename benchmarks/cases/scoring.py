"""Sakai (2017)'s scoring: the batch scorer against the per-run measure functions.

:func:`evalkit.measures.graded.score_runs` (nG@1, P+, nERR) on one
condition's unanimity gains, 44 runs x 100 topics, against a loop over the
public per-run functions of :mod:`evalkit.measures.graded`; the answers must
be equal.  Also times all 15 (Dmax, N) conditions x {RawG, UG} x 3 measures,
ratings simulated (:func:`evalkit.papers.sakai2017_unanimity_gain.score_conditions`),
target < 1 s.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evalkit.measures import gains
from evalkit.measures import graded
from evalkit.papers import sakai2017_unanimity_gain as sakai
from evalkit.simulate import stc as sim_stc

from .common import median_time


def bench_scoring(folder: Path) -> dict:
    """All 15 (Dmax, N) conditions x {RawG, UG} x 3 measures, ratings included.

    The ratio is measured on one condition's gains: the batch kernel against a
    loop over the per-run public functions (the reference), answers compared.
    """
    sim_stc.simulate_stc_collection(folder, seed=2017)
    collection = sakai.load_collection(folder)
    grid = ([2, 4, 8], [5, 10, 20, 40, 80])
    t_all = median_time(lambda: sakai.score_conditions(collection, *grid, p=0.2, seed=1), 5)
    lists = collection.lists
    cond = sakai.score_conditions(collection, [2], [5], p=0.2, seed=1)
    rng = np.random.default_rng(np.random.SeedSequence([1, 0, 2, 5]))
    per_topic = [gains.unanimity_gain(sim_stc.simulate_ratings(g, 5, 2, rng), 2, 0.2)
                 for g in collection.grades]
    padded = lists.pad(per_topic)
    funcs = {"nG@1": graded.ng_at_k, "P+": graded.p_plus, "nERR": graded.nerr_at_k}

    def reference():
        out = {m: np.empty((len(lists.runs), len(lists.topics))) for m in funcs}
        for t, ug in enumerate(per_topic):
            for r in range(len(lists.runs)):
                idx = lists.index[r, t]
                g = np.where(idx >= 0, ug[idx], 0.0)
                for m, f in funcs.items():
                    out[m][r, t] = f(g, ug)
        return out

    def batch():
        return graded.score_runs(lists, padded, tuple(funcs))[0]

    t_batch, t_ref = median_time(batch, 7), median_time(reference, 3)
    ref, got = reference(), batch()
    agree = all(np.allclose(ref[m], got[m], equal_nan=True) for m in funcs)
    agree &= all(np.allclose(cond.scores[m][0, 1], got[m], equal_nan=True) for m in funcs)
    return {"name": "score 44 runs x 100 topics x 3 measures (one gain set)",
            "evalkit_s": t_batch, "reference_s": t_ref, "speed_up": t_ref / t_batch,
            "target": "-", "ok": agree,
            "check": f"answers equal: {agree}; all 15 conditions x 2 gains x 3 measures, "
                     f"ratings simulated: {t_all * 1e3:.0f} ms (target < 1 s: "
                     f"{'met' if t_all < 1 else 'MISSED'})",
            "extra_ok": t_all < 1.0}
