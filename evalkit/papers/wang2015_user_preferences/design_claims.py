"""Wang et al. (SIGIR 2015) §5.1: the study design the simulated studies reach, as claims rows.

The sampler (:mod:`evalkit.simulate.preference_sampling`) builds the paper's
procedure in: 30 topics, batches of 180 pairs, the same 30 shared pairs at
the start of every assessor's first batch (an ``identity`` row checks each
study for them).  "Roughly an equal number of pairs from precision, recall,
and F1 sampling" is what the batches aim at but cannot reach on the
simulated runs, whose recall pool is too small: a ``calibration`` row (a
target the simulated study was built to meet) judged over the studies, with
the pool sizes that explain it.  So the simulated studies are the paper's
sampling procedure on the simulated runs, not the paper's design.
"""

from __future__ import annotations

import pandas as pd

from ...declare.claims import Claims, sensitivity
from .anova_claims import SHORTAGE_TEST, design_text
from .claim_quotes import QUOTES as _Q

__all__ = ["THIRD_TOLERANCE", "THIRD_TOLERANCE_RANGE", "BATCH_SIZE", "SHARED_PAIRS", "TOPICS", "design_rows"]

#: "Roughly an equal number": each type's share of the judgments within 1/3 +- this (workspace) ...
THIRD_TOLERANCE = 1 / 12
#: ... and the range over which the verdict is recomputed.
THIRD_TOLERANCE_RANGE = (1 / 24, 1 / 12, 1 / 8, 1 / 6)
#: §5.1's batch size, shared pairs and topics.
BATCH_SIZE, SHARED_PAIRS, TOPICS = 180, 30, 30
_TYPES = ("precision", "recall", "f1")


def _shares(out: pd.DataFrame) -> pd.DataFrame:
    n = out[[f"n_{t}" for t in _TYPES]].to_numpy(float)
    return pd.DataFrame(n / n.sum(axis=1, keepdims=True), columns=list(_TYPES))


def design_rows(c: Claims, out: pd.DataFrame, *, varies: str) -> None:
    """The §5.1 design rows from the studies' outcomes ``out`` (:func:`.worlds.anova_worlds`, study 0
    first; columns ``n_<type>``, ``pool_<type>``, ``length_limit``, ``topics``, ``shared_pairs``,
    ``batch_sizes``)."""
    sizes = out.batch_sizes.astype(str).str.split("/")
    ok = ((out.topics <= TOPICS) & (out.shared_pairs == SHARED_PAIRS)
          & sizes.map(lambda s: all(int(x) == BATCH_SIZE for x in s))).to_numpy()
    c0 = out.iloc[0]
    c.add(f"The sampler builds §5.1's procedure in: pairs from {TOPICS} drawn topics, batches of {BATCH_SIZE} "
          f"pairs, every assessor's first batch opening with the same {SHARED_PAIRS} shared pairs, in every study",
          f"committed study: {int(c0.topics)} topics in the batches, {len(sizes.iloc[0])} batches of "
          f"{'/'.join(sorted(set(sizes.iloc[0])))} pairs, {int(c0.shared_pairs)} shared pairs; in "
          f"{int(ok.sum())} of {len(out)} studies", bool(ok.all()),
          "" if ok.all() else "see wang2015/study_draws.csv.", kind="identity", section="§5.1",
          quote=_Q["shared"], id="sampler-procedure")
    shares = _shares(out)
    at = lambda tol: [bool(x) for x in (shares - 1 / 3).abs().le(tol).all(axis=1)]   # noqa: E731
    hits = at(THIRD_TOLERANCE)
    total = out[[f"n_{t}" for t in _TYPES]].sum(axis=1)
    why = ""
    if not all(hits) and "pool_recall" in out:
        pool = out.pool_recall
        why = (f"The simulated runs cannot give it: a study's recall pool offers {int(pool.min())}-{int(pool.max())} "
               f"recall-sampled pairs (median {pool.median():g}), where a third of its {int(total.median())} "
               f"judgments would be {int(total.median() / 3)}; the batches take a third per type while the pools "
               "last and spread the scarce recall pool over every batch, so precision and F1 fill the rest: "
               f"{design_text(out)}. The pools for precision and F1 offer {int(out.pool_precision.median())} and "
               f"{int(out.pool_f1.median())} pairs (medians). The simulated runs are also longer than the "
               f"paper's: the median-length filter keeps timelines of up to {int(out.length_limit.median())} "
               f"tweets (the paper: 41). So the simulated studies are the paper's sampling procedure on the "
               f"simulated runs, not the paper's design; {SHORTAGE_TEST} finds the same recall shortage in two "
               "other run worlds. See wang2015/study_draws.csv (columns n_<type>, pool_<type>).")
    c.add_over_draws(f"§5.1 design: the batches take roughly an equal number of pairs per sampling type (each "
                     f"type's share of the judgments within 1/3 +- {THIRD_TOLERANCE:.3f})",
                     f"committed study {'/'.join(f'{x:.0%}' for x in shares.iloc[0])} precision/recall/F1; "
                     f"recall's share over studies {shares.recall.min():.0%}-{shares.recall.max():.0%}",
                     hits, why, varies=varies, kind="calibration", section="§5.1", quote=_Q["thirds"], id="equal-sampling-types",
                     threshold=f"1/3 +- {THIRD_TOLERANCE:.3f} per type", source="workspace",
                     sensitivity=sensitivity(THIRD_TOLERANCE_RANGE, at, "{:.3f}"))

