"""Wang et al. §5.1's pair sampling, vectorised over candidate runs, against the pair-by-pair rules."""

import numpy as np
import pandas as pd
import pytest

from evalkit.simulate import preference_sampling as sampling


def _timelines(rng, topics: int, runs: int, grid: bool) -> pd.DataFrame:
    rows = []
    for t in range(topics):
        for r in range(runs):
            # on a 0.05 grid many differences sit exactly at the rules' 0.1 boundaries
            p, q = (rng.integers(0, 21, 2) * 0.05) if grid else rng.random(2)
            rows.append({"run": f"run{r:02d}", "topic": f"MB{t:03d}", "length": int(rng.integers(1, 60)),
                         "precision": float(p), "recall": float(q)})
    return pd.DataFrame(rows).sample(frac=1, random_state=1)     # order must not matter


@pytest.mark.sweep(6, 60)
def test_vectorised_sampling_picks_the_references_pairs_and_draws(sweep_size):
    rng = np.random.default_rng(2015)
    for case in range(sweep_size):
        t = _timelines(rng, int(rng.integers(1, 5)), int(rng.integers(2, 40)), grid=case % 2 == 0)
        base_runs, per_type = int(rng.integers(1, 25)), int(rng.integers(1, 25))
        fast, slow = np.random.default_rng(case), np.random.default_rng(case)
        a = sampling.sample_pairs(t, fast, base_runs, per_type)
        b = sampling.sample_pairs_reference(t, slow, base_runs, per_type)
        pd.testing.assert_frame_equal(a, b)
        assert fast.bit_generator.state == slow.bit_generator.state


def test_partner_masks_follow_the_rules_at_their_boundaries():
    # base: P 0.5, R 0.5, length 10; candidates chosen to sit on each rule's edge
    cols = {"precision": np.array([0.5, 0.65, 0.55, 0.5, 0.9, 0.8]),
            "recall": np.array([0.5, 0.55, 0.65, 0.75, 0.9, 0.8]),
            "length": np.array([10, 30, 31, 10, 10, 10.0])}
    masks = sampling._partner_masks(cols, 0)
    rows = [dict(precision=p, recall=r, length=n) for p, r, n in zip(*cols.values())]
    for kind, rule in sampling._RULES.items():
        expected = [i != 0 and rule(rows[0], c) and sampling.length_ok(rows[0], c) for i, c in enumerate(rows)]
        assert masks[kind].tolist() == expected, kind
    assert masks["precision"].tolist() == [False, True, False, False, False, False]   # 0.15 apart, length 20
    assert not masks["recall"][2]                                                     # 21 tweets apart
