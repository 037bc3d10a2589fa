"""The ED engine's vectorised AC, WCA and RBA against the one-judgment-at-a-time originals, bit for bit."""

import numpy as np
import pytest

from evalkit.measures import aggregation, discriminativeness as edm, ed_reference
from evalkit.simulate import orderings as sim

OFFSETS = [0.0, 0.1, 0.25, 0.5, 1.0, 3.0]


def _check(judgments) -> None:
    eng = edm.SetEngine(aggregation.check_judgments(judgments))
    for method in ("kendall", "spearman"):
        for kind in ("ac", "rba"):
            fast = eng.correlation_ed(method, kind)
            slow = ed_reference.correlation_ed_reference(eng, method, kind)
            assert fast == slow, (method, kind, fast - slow)
        fast = eng.wca_ed(method, OFFSETS)
        slow = ed_reference.wca_ed_reference(eng, method, OFFSETS)
        assert fast.tobytes() == slow.tobytes(), (method, fast - slow)
        assert eng.correlation_ed(method, "wca", 0.25) == slow[2]


@pytest.mark.sweep(40, 600)
def test_vectorised_correlation_eds_equal_the_originals_bit_for_bit(sweep_size):
    rng = np.random.default_rng(2017)
    for _ in range(sweep_size):
        k, n = int(rng.integers(2, 14)), int(rng.integers(2, 40))   # up to 78 judgments with noise
        centre = list(range(k))
        judgments = [sim.mallows_reference(centre, float(rng.choice([0.0, 0.2, 0.6, 1.0])), rng)
                     for _ in range(n)]
        _check(edm.add_noise(judgments, float(rng.choice([0.0, 0.5, 1.0])), rng))


def test_two_judgments_and_ties_in_the_consensus():
    _check([(1, 2, 3), (3, 2, 1)])                        # n = 2: one gold; the consensus all tied
    _check([(1, 2, 3, 4), (2, 1, 4, 3), (4, 3, 2, 1)])    # n = 3
    _check([(1, 2), (2, 1), (1, 2), (2, 1)])              # k = 2, tied consensus in every turn


def test_rba_ed_from_the_definition():
    """RBA's ED by hand from rank_aggregation: each held-out ordering and its reverse."""
    rng = np.random.default_rng(5)
    judgments = [sim.mallows_reference(list("abcdefg"), 0.5, rng) for _ in range(6)]
    eng = edm.SetEngine(aggregation.check_judgments(judgments))
    for method in ("kendall", "spearman"):
        by_hand = np.mean([(aggregation.rank_aggregation(o, judgments[:i] + judgments[i + 1:], method) + 1) / 2
                           - (aggregation.rank_aggregation(o[::-1], judgments[:i] + judgments[i + 1:], method) + 1) / 2
                           for i, o in enumerate(judgments)])
        assert eng.correlation_ed(method, "rba") == pytest.approx(by_hand, abs=1e-12)


def test_engine_ranks_are_each_judgments_ranks_bit_for_bit():
    """SetEngine's rank matrix, filled at once, equals aggregation._ranks row by row (floats)."""
    import numpy as np
    from evalkit.measures import aggregation, discriminativeness as edm

    rng = np.random.default_rng(5)
    for _ in range(50):
        k, n = int(rng.integers(2, 14)), int(rng.integers(2, 25))
        items = [f"s{i}" for i in rng.permutation(k)]
        judgments = [tuple(items[j] for j in rng.permutation(k)) for _ in range(n)]
        eng = edm.SetEngine(aggregation.check_judgments(judgments))
        want = np.array([aggregation._ranks(o, eng.items) for o in judgments])
        assert eng.ranks.dtype == want.dtype and eng.ranks.tobytes() == want.tobytes()


def test_held_out_rows_are_the_other_judgments_in_order():
    """Row i of SetEngine._held_out lists every judgment but i, in order (np.delete's rows)."""
    import numpy as np
    from evalkit.measures import aggregation, discriminativeness as edm

    for n in range(2, 30):
        eng = edm.SetEngine(aggregation.check_judgments([(1, 2, 3)] * n))
        want = np.array([np.delete(np.arange(n), i) for i in range(n)]).reshape(n, n - 1)
        got = eng._held_out()
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want), n
