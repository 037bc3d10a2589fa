"""Wang et al. (2015)'s TTG scores: the batch scorer against the per-topic function.

:func:`evalkit.measures.timeline.score_runs` on 50 runs x 55 topics under
both cluster sets, target < 1 s, against
:func:`evalkit.measures.timeline.cluster_scores` in a loop over runs and
topics, whose answers must be equal.
"""

from __future__ import annotations

from pathlib import Path

from evalkit.measures import timeline
from evalkit.papers import wang2015_assessor_differences as wang_ad
from evalkit.simulate import ttg as sim_ttg

from .common import median_time


def bench_ttg(folder: Path) -> dict:
    """TTG: 50 runs x 55 topics under both cluster sets (target < 1 s).

    Reference: the per-topic function :func:`evalkit.measures.timeline.cluster_scores`
    in a loop, whose answers must be equal.
    """
    sim_ttg.simulate_ttg(folder / "ttg", seed=2015)
    world = wang_ad.load_world(folder / "ttg")

    def batch():
        return [timeline.score_runs(world.runs, timeline.cluster_table(c, world.qrels))
                for c in world.clusters.values()]

    grades = dict(zip(world.qrels.doc, world.qrels.grade))
    groups = {key: g.doc.tolist() for key, g in world.runs.groupby(["run", "topic"])}

    def reference():
        out = {}
        for name, cl in world.clusters.items():
            for run in world.runs.run.unique():
                for topic in cl:
                    out[(name, run, topic)] = timeline.cluster_scores(
                        groups.get((run, topic), []), cl[topic], grades)
        return out

    t_batch, t_ref = median_time(batch, 5), median_time(reference, 1)
    got, ref = batch(), reference()
    same = True
    for (name, tidy) in zip(world.clusters, got):
        values = tidy.set_index(["run", "topic", "metric"])["value"]
        for (n, run, topic), scores in list(ref.items())[:: 7]:
            if n == name:
                same &= all(abs(values[(run, topic, m)] - v) < 1e-12 for m, v in scores.items())
    return {"name": "TTG scores, 50 runs x 55 topics x 2 cluster sets",
            "evalkit_s": t_batch, "reference_s": t_ref, "speed_up": t_ref / t_batch,
            "target": "< 1 s", "ok": t_batch < 1.0 and same,
            "check": f"equal to the per-topic function on every 7th (run, topic): {same}"}
