"""TTG assessors: the lumping's block-drawn uniforms and all-at-once picks against the unit by
unit loop they replaced (the same labels and the generator left in the same state)."""

import numpy as np
import pytest

from evalkit.simulate import ttg as sim


def assessor_clusters_reference(units, merge, disagreement, rng, merge_size_bias=1.0, largest_share=None):
    """evalkit.simulate.ttg.assessor_clusters as it was (rng.random() and rng.choice per unit)."""
    labels = units.copy()
    ids, sizes = np.unique(labels, return_counts=True)
    target = {}
    for u in ids:
        if rng.random() < merge and len(ids) > 1:
            others = ids[ids != u]
            w = sizes[ids != u].astype(float)
            if merge_size_bias != 1.0:
                w = w ** merge_size_bias
            target[u] = int(rng.choice(others, p=w / w.sum()))
    for u, v in target.items():
        seen = {u}
        while v in target and v not in seen:
            seen.add(v)
            v = target[v]
        labels[labels == u] = v
    fresh = labels.max() + 1
    for i in np.flatnonzero(rng.random(labels.size) < disagreement):
        if rng.random() < 0.5:
            labels[i] = fresh
            fresh += 1
        else:
            labels[i] = labels[rng.integers(labels.size)]
    if largest_share is not None:
        sim._set_largest_share(labels, largest_share, rng)
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    remap = np.empty(labels.max() + 1, dtype=np.int64)
    remap[np.unique(labels)[order]] = np.arange(order.size)
    return remap[labels]


@pytest.mark.parametrize("bias", [1.0, 0.0, -1.0, 2.0])
def test_assessor_clusters_is_the_unit_by_unit_loop_bit_for_bit(bias):
    meta = np.random.default_rng(int(bias * 10) + 50)
    for trial in range(300):
        n_units = int(meta.integers(1, 120))
        units = np.sort(meta.integers(0, n_units, int(meta.integers(1, 400))))
        merge = float(meta.choice([0.0, 0.03, 0.24, 0.7, 1.0]))
        share = None if trial % 3 else float(meta.choice([0.16, 0.5]))
        seed = int(meta.integers(1 << 30))
        r1, r2 = np.random.default_rng(seed), np.random.default_rng(seed)
        got = sim.assessor_clusters(units, merge, 0.2, r1, bias, share)
        expected = assessor_clusters_reference(units, merge, 0.2, r2, bias, share)
        np.testing.assert_array_equal(got, expected)
        assert r1.bit_generator.state == r2.bit_generator.state


def test_lumped_units_pick_by_size_as_rng_choice_does():
    ids, sizes = np.arange(5) * 10, np.array([1, 50, 1, 1, 1])
    targets = sim._merge_targets(ids, sizes, 1.0, np.random.default_rng(0))
    assert sorted(targets) == list(ids)                          # merge 1: every unit lumped
    assert all(v != u for u, v in targets.items())                 # never into itself
    counts = np.bincount([v // 10 for _ in range(200)
                          for v in sim._merge_targets(ids, sizes, 1.0, np.random.default_rng(_)).values()])
    assert counts[1] > 0.7 * counts.sum()                          # the big unit draws most lumps
