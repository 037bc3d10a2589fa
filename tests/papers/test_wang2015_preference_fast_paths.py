"""Wang §5: the vectorised pair sampling against the loop it replaced (bit for bit)."""

import numpy as np
import pandas as pd

from evalkit.simulate import preference_sampling as sampling
from evalkit.simulate.preference_sampling import _rule_matrices


def sample_pairs_reference(timelines: pd.DataFrame, rng: np.random.Generator, base_runs: int = 20,
                 per_type: int = 20) -> pd.DataFrame:
    """One trial of the sampling: per topic ``base_runs`` random base runs, and for each base
    run up to ``per_type`` comparison runs per type (precision, recall, F1 sampling).

    ``timelines`` has ``run, topic, length, precision, recall`` (per topic,
    unweighted).  Each type keeps its own pool ("up to 20 ... per metric"): a
    pair is listed once per type that selects it (the first base run that
    selects it gives its orientation), so one pair can sit in two pools;
    :func:`make_batches` gives every pair to one judgment type at most.
    Returns ``type, topic, run_a (base), run_b``.
    """
    out = []
    t = timelines.sort_values(["topic", "run"])
    topics, starts = np.unique(t["topic"].to_numpy(), return_index=True)
    cols = {c: t[c].to_numpy() for c in ("run", "precision", "recall", "length")}
    for topic, lo, hi in zip(topics, starts, [*starts[1:], len(t)]):
        runs = cols["run"][lo:hi]
        rules = _rule_matrices(cols["precision"][lo:hi].astype(float), cols["recall"][lo:hi].astype(float),
                               cols["length"][lo:hi].astype(float))
        bases = rng.choice(len(runs), size=min(base_runs, len(runs)), replace=False)
        for kind, m in rules.items():
            picked = []
            for b in bases:
                partners = np.flatnonzero(m[b])
                if len(partners) > per_type:
                    partners = rng.choice(partners, size=per_type, replace=False)
                picked.append(np.column_stack([np.full(len(partners), b), partners]))
            pairs = np.concatenate(picked) if picked else np.zeros((0, 2), int)
            key = pairs.min(axis=1) * len(runs) + pairs.max(axis=1)
            first = np.sort(np.unique(key, return_index=True)[1])   # each pair once, first base's way
            out.append((np.full(len(first), kind), np.full(len(first), topic, dtype=object),
                        runs[pairs[first, 0]], runs[pairs[first, 1]]))
    names = ["type", "topic", "run_a", "run_b"]
    if not out:
        return pd.DataFrame(columns=names)
    return pd.DataFrame({c: np.concatenate([o[i] for o in out]) for i, c in enumerate(names)})



def _timelines(seed, topics=6, runs=40):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"run": f"r{i:02d}", "topic": t, "length": int(rng.integers(5, 40)),
                          "precision": round(rng.random(), 2), "recall": round(rng.random(), 2)}
                         for t in "ABCDEFGH"[:topics] for i in range(runs)])


def test_sample_pairs_is_the_loop_it_replaced_bit_for_bit():
    for seed, base_runs, per_type in ((0, 20, 20), (1, 20, 3), (2, 5, 1), (3, 100, 100), (4, 20, 0)):
        t = _timelines(seed)
        r1, r2 = np.random.default_rng(seed + 10), np.random.default_rng(seed + 10)
        got = sampling.sample_pairs(t, r1, base_runs, per_type)
        expected = sample_pairs_reference(t, r2, base_runs, per_type)
        assert r1.bit_generator.state == r2.bit_generator.state
        assert len(expected) or per_type == 0
        pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_unjudged_rows_mark_the_pairs_the_qrels_do_not_judge():
    from evalkit.simulate.preferences import unjudged_rows

    qrels = pd.DataFrame({"topic": ["1", "1", "2"], "doc": ["a", "b", "a"], "grade": [1, 0, 2]})
    runs = pd.DataFrame({"topic": ["1", "1", "2", "2", "3", "1", "2"], "doc": ["a", "c", "a", "b", "a", "b", "z"]})
    # ("1","c"): unknown doc; ("2","b"): both known, the pair not; ("3","a"): unknown topic
    assert unjudged_rows(qrels, runs).tolist() == [False, True, False, True, True, False, True]
    rng = np.random.default_rng(0)
    q = pd.DataFrame({"topic": rng.integers(0, 5, 300).astype(str), "doc": rng.integers(0, 90, 300).astype(str)})
    r = pd.DataFrame({"topic": rng.integers(0, 6, 2000).astype(str), "doc": rng.integers(0, 120, 2000).astype(str)})
    judged = set(zip(q.topic, q.doc))                              # the set it replaced
    assert unjudged_rows(q, r).tolist() == [k not in judged for k in zip(r.topic, r.doc)]


def judgment_table_reference(log, timelines):
    """study.judgment_table as it was (one frame per (type, metric), concatenated and sorted)."""
    from evalkit.papers.wang2015_user_preferences.study import BIN_LABELS, BINS, METRICS_OF_TYPE, time_bins

    scores = timelines.set_index(["run", "topic"])
    log = log.reset_index(drop=True)
    left_at = scores.index.get_indexer(pd.MultiIndex.from_arrays([log.left_run, log.topic]))
    right_at = scores.index.get_indexer(pd.MultiIndex.from_arrays([log.right_run, log.topic]))
    kinds = log["type"].to_numpy()
    parts = []
    for kind, metrics in METRICS_OF_TYPE.items():
        sel = np.flatnonzero(kinds == kind)
        for order, m in enumerate(metrics):
            left = scores[m].to_numpy()[left_at[sel]]
            right = scores[m].to_numpy()[right_at[sel]]
            implied = np.where(left > right, "left", np.where(right > left, "right", "neither"))
            part = log.iloc[sel][["assessor", "batch", "pair_id", "type", "topic"]].assign(
                metric=m, diff=left - right, implied=implied, choice=log["choice"].to_numpy()[sel],
                seconds=log["seconds"].to_numpy()[sel])
            parts.append(part.assign(_row=sel, _order=order))
    out = (pd.concat(parts).sort_values(["_row", "_order"], kind="stable")
           .drop(columns=["_row", "_order"]).reset_index(drop=True))
    out["bin"] = pd.cut(out["diff"].abs(), BINS, right=False, labels=list(BIN_LABELS))
    out["time_bin"] = time_bins(out.seconds)
    return out


def test_judgment_table_is_the_concatenated_frames_bit_for_bit():
    from evalkit.papers.wang2015_user_preferences.study import judgment_table
    from evalkit.simulate.preferences import draw_choices, draw_design, study_generator

    rng = np.random.default_rng(3)
    runs, topics = [f"r{i:02d}" for i in range(30)], [str(171 + t) for t in range(40)]
    timelines = pd.DataFrame([{"run": r, "topic": t, "length": int(rng.integers(5, 40)), "unjudged": 0,
                               **{m: round(rng.random(), 3) for m in
                                  ("precision", "recall", "weighted_recall", "f1", "weighted_f1")}}
                              for r in runs for t in topics])
    rel = pd.Series(rng.integers(50, 200, len(topics)), index=topics)
    for study in range(3):
        design = draw_design(timelines, rel, study_generator(9, study))
        log = draw_choices(design).iloc[::-1]                          # any order, any index
        got, expected = judgment_table(log, timelines), judgment_table_reference(log, timelines)
        assert len(got) > len(log) > 100
        pd.testing.assert_frame_equal(got, expected, check_exact=True)


def test_choice_codes_are_the_mapped_codes():
    import pytest

    from evalkit.papers.wang2015_user_preferences.study import _CATS, _codes

    values = np.random.default_rng(0).choice(["left", "right", "neither"], 500)
    expected = pd.Series(values).map(_CATS).to_numpy().astype(int)      # the mapping it replaced
    for form in (values, values.astype(object), pd.Series(values), pd.Series(values, dtype="category")):
        got = _codes(form)
        assert got.dtype == expected.dtype and np.array_equal(got, expected)
    for bad in (["left", "up"], ["left", None], ["left", np.nan], [0, 1]):
        with pytest.raises(ValueError, match="must be one of"):
            _codes(bad)


def shared_fleiss_reference(log):
    """study.shared_fleiss as it was (a loop over the shared pairs)."""
    from evalkit.stats import agreement as agreement_stats

    raters = log.assessor.nunique()
    counts = log.groupby("pair_id").assessor.nunique()
    shared = counts[counts == raters].index
    rows = []
    for pid, g in log[log.pair_id.isin(shared)].groupby("pair_id"):
        first = min(g.left_run.iloc[0], g.right_run.iloc[0])
        picks = [("A" if (c == "left") == (l == first) else "B") if c != "neither" else "N"
                 for c, l in zip(g.choice, g.left_run)]
        rows.append([picks.count("A"), picks.count("B"), picks.count("N")])
    if not rows:
        return float("nan"), 0, raters
    return agreement_stats.fleiss_kappa(np.array(rows)), len(rows), raters


def test_shared_fleiss_is_the_pair_loop_bit_for_bit():
    from evalkit.papers.wang2015_user_preferences.study import shared_fleiss

    rng = np.random.default_rng(1)
    for trial in range(30):
        # each assessor judges a random half of 25 pairs once, in a shuffled log
        judged = [(a, p) for a in ("A1", "A2", "A3") for p in range(25) if rng.random() < 0.6 or p < 3]
        runs = {p: rng.choice(["ra", "rb", "rc", "rd"], 2, replace=False) for p in range(25)}
        swap = rng.random(len(judged)) < 0.5
        log = pd.DataFrame({"assessor": [a for a, _ in judged], "pair_id": [p for _, p in judged],
                            "left_run": [runs[p][int(s)] for (_, p), s in zip(judged, swap)],
                            "right_run": [runs[p][1 - int(s)] for (_, p), s in zip(judged, swap)],
                            "choice": rng.choice(["left", "right", "neither"], len(judged))}
                           ).sample(frac=1, random_state=trial)
        assert shared_fleiss_reference(log)[1] >= 3
        got, expected = shared_fleiss(log), shared_fleiss_reference(log)
        assert got[1:] == expected[1:] and np.float64(got[0]).tobytes() == np.float64(expected[0]).tobytes()
    empty = log.assign(assessor=[f"A{i}" for i in range(len(log))])    # no pair judged by all
    got, expected = shared_fleiss(empty), shared_fleiss_reference(empty)
    assert np.isnan(got[0]) and np.isnan(expected[0]) and got[1:] == expected[1:]
