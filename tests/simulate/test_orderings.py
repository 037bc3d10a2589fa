"""The Mallows ordering simulator: calibration, noise dilution, determinism."""

import numpy as np
import pytest

from evalkit.formats import orderings as ordering_files
from evalkit.measures import discriminativeness
from evalkit.papers import kim2010_ordering_aggregation as kim
from evalkit.simulate import orderings as sim_orderings


@pytest.fixture(scope="module")
def simulated_sets(tmp_path_factory):
    path = tmp_path_factory.mktemp("ord") / "judgments.csv"
    sim_orderings.simulate_orderings(path, seed=2010)
    return ordering_files.read_orderings(path)


def test_simulator_is_calibrated(simulated_sets):
    tau = kim.mean_pairwise_tau(simulated_sets)
    assert 0.40 <= tau <= 0.50, tau
    assert len(simulated_sets) == 10
    assert 7.8 <= np.mean([len(v[0]) for v in simulated_sets.values()]) <= 9.8
    assert 9.0 <= np.mean([len(v) for v in simulated_sets.values()]) <= 11.4


def test_noise_dilution_holds_on_simulated_data(simulated_sets):
    for r in (0.5, 1.0):
        measured = np.mean([discriminativeness.discriminativeness("ac-tau",
                                                        kim.noisy_sets(simulated_sets, r, 1, d))
                            for d in range(5)])
        assert measured == pytest.approx(kim.dilution_check(simulated_sets, r), abs=0.02)


def test_simulated_file_is_byte_identical_for_one_seed(tmp_path):
    a = sim_orderings.simulate_orderings(tmp_path / "a.csv", seed=3)
    b = sim_orderings.simulate_orderings(tmp_path / "b.csv", seed=3)
    assert a.read_bytes() == b.read_bytes()


def test_two_centres_at_zero_dispersion_share_the_first_centre_and_one_centre_is_the_default(tmp_path):
    from evalkit.formats.orderings import read_orderings
    from evalkit.simulate.orderings import simulate_orderings

    default = simulate_orderings(tmp_path / "a.csv", seed=5, n_sets=3)
    explicit = simulate_orderings(tmp_path / "b.csv", seed=5, n_sets=3, centres=1, centre_phi=0.7)
    assert default.read_bytes() == explicit.read_bytes()       # one centre: draw for draw the same
    apart = read_orderings(simulate_orderings(tmp_path / "c.csv", seed=5, n_sets=3, centres=2,
                                              centre_phi=1.0))
    together = read_orderings(simulate_orderings(tmp_path / "d.csv", seed=5, n_sets=3, centres=2,
                                                 centre_phi=0.0))
    from evalkit.papers.kim2010_ordering_aggregation import mean_pairwise_tau
    assert mean_pairwise_tau(apart) < mean_pairwise_tau(together)


@pytest.mark.parametrize("seed, overrides", [(2010, {}), (2011, {}), (2029, {}), (2012, {"phi_spread": 0.9}),
                                             (2013, {"phi_spread": 0.0, "phi": 0.55}),
                                             (7, {"centres": 2, "centre_phi": 0.6, "n_sets": 3})])
def test_simulated_sets_are_the_file_read_back(tmp_path, seed, overrides):
    """simulate_sets (the worlds' judgments, no file) equals the CSV simulate_orderings writes,
    as read_orderings reads it: the same sets, assessors, orderings and order."""
    path = sim_orderings.simulate_orderings(tmp_path / "j.csv", seed=seed, **overrides)
    sets = sim_orderings.simulate_sets(seed, **overrides)
    back = ordering_files.read_orderings(path)
    assert list(sets) == list(back) and sets == back
    assert all(type(o) is tuple for v in sets.values() for o in v)
