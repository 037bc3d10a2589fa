"""Property-based invariants (hypothesis) of the measures: UG, the graded measures, FreSPA."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from evalkit.measures import aggregation, gains, registry

SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(st.integers(1, 8), st.integers(1, 12), st.floats(0, 1), st.data())
def test_ug_at_least_raw_and_equal_when_spread_is_dmax(dmax, n, p, data):
    r = data.draw(arrays(np.int64, (10, n), elements=st.integers(0, dmax)))
    ug, raw = gains.unanimity_gain(r, dmax, p), gains.raw_gain(r)
    assert np.all(ug >= raw)
    spread = gains.rating_spread(r)
    assert np.all(ug[spread == dmax] == raw[spread == dmax])


@SETTINGS
@given(arrays(np.float64, st.integers(1, 15), elements=st.floats(0, 20)), st.data())
def test_measures_in_unit_interval_and_one_for_ideal(ideal, data):
    # a run holds each judged item at most once, plus unjudged items (gain 0)
    picked = data.draw(st.lists(st.integers(0, ideal.size - 1), unique=True, max_size=ideal.size))
    unjudged = data.draw(st.lists(st.integers(0, 15), max_size=5))
    run = [ideal[i] for i in picked]
    for pos in unjudged:
        run.insert(min(pos, len(run)), 0.0)
    for m in registry.MEASURES.values():
        if m.family != registry.NTCIREVAL:
            continue          # trec_eval's measures: tests/measures/test_trec_measures.py
        v = m.function(run, ideal, **m.defaults)
        best = m.function(np.sort(ideal)[::-1], ideal, **m.defaults)
        if ideal.max() > 0:
            assert 0 <= v <= 1 + 1e-9, m.name
            assert abs(best - 1) < 1e-9, m.name
        else:
            assert np.isnan(v) and np.isnan(best)


@SETTINGS
@given(st.integers(2, 7), st.data())
def test_frespa_in_unit_interval(k, data):
    items = list(range(k))
    golds = data.draw(st.lists(st.permutations(items), min_size=1, max_size=6))
    target = data.draw(st.permutations(items))
    v = aggregation.frespa(target, golds, min_sup=data.draw(st.floats(0, 1)),
                        w_len=data.draw(st.floats(0, 10)), w_sup=data.draw(st.floats(0, 10)))
    assert 0 <= v <= 1
