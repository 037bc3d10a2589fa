"""Ratings around a shared latent grade: Sakai's simulation at agreement 0, unanimity at 1."""

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.explore.exercises import unanimous_share
from evalkit.measures import gains
from evalkit.simulate.latent_ratings import simulate_agreeing_ratings
from evalkit.simulate.stc import simulate_ratings

GRADES = np.array([0, 1, 2, 1, 0, 2] * 500)


def test_agreement_zero_is_sakais_simulation_draw_for_draw():
    got = simulate_agreeing_ratings(GRADES, 5, 3, 0.0, 42)
    assert np.array_equal(got, simulate_ratings(GRADES, 5, 3, 42))


def test_agreement_one_makes_every_item_unanimous_and_zero_items_stay_zero():
    r = simulate_agreeing_ratings(GRADES, 7, 4, 1.0, 1)
    assert (gains.rating_spread(r) == 0).all()
    assert (r[GRADES == 0] == 0).all()
    # latent grades uniform on 0..4: every level appears among the 2000 relevant items
    assert set(np.unique(r[GRADES > 0, 0])) == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("a", [0.0, 0.3, 0.5, 0.9])
def test_share_of_unanimous_items_matches_the_closed_form(a):
    grades = np.ones(40_000, dtype=int)
    r = simulate_agreeing_ratings(grades, 5, 3, a, 7)
    share = float((gains.rating_spread(r) == 0).mean())
    # closed form (a + (1-a)/4)^5 + 3 ((1-a)/4)^5; at a = 0 that is 4 / 4^5 = 1/256
    assert unanimous_share(0.0, 5, 3) == pytest.approx(1 / 256)
    assert share == pytest.approx(unanimous_share(a, 5, 3), abs=0.006)


def test_each_rating_stays_uniform_whatever_the_agreement():
    r = simulate_agreeing_ratings(np.ones(20_000, dtype=int), 3, 3, 0.7, 3)
    freq = np.bincount(r.ravel(), minlength=4) / r.size
    assert np.allclose(freq, 0.25, atol=0.01)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), True])
def test_bad_agreement_is_named(bad):
    with pytest.raises(ParameterError, match="agreement"):
        simulate_agreeing_ratings(GRADES, 5, 3, bad, 0)
