"""Kim, Zhai & Han: hand-computed cases, brute-force checks and the ED engine."""

import itertools
import math

import numpy as np
import pytest

from evalkit import aggregation, io, ordering, simulate
from evalkit.errors import InputError, ParameterError


def test_correlations_by_hand():
    # ABCD vs ACDB: BC and BD discordant -> tau = 1 - 2*2/6; d = (0, 2, 1, 1) -> rho = 1 - 36/60
    assert ordering.kendall("ABCD", "ACDB") == pytest.approx(1 / 3)
    assert ordering.spearman("ABCD", "ACDB") == pytest.approx(0.4)
    assert ordering.kendall("ABC", "CBA") == -1.0


def test_ac_and_wca_by_hand():
    golds = ["ABCD", "ABDC", "BACD"]
    # taus: (1,2) = 2/3, (1,3) = 2/3, (2,3) = 1/3; weights 2/3, 1/2, 1/2
    assert ordering.average_correlation("ABCD", golds) == pytest.approx(7 / 9)
    assert ordering.weighted_correlation("ABCD", golds) == pytest.approx(0.8)
    assert ordering.weighted_correlation("ABCD", ["ABDC"]) == pytest.approx(2 / 3)


def test_rba_consensus_and_tie_rule():
    assert ordering.rank_aggregation("ABC", ["ABC", "ABC", "CBA"]) == 1.0
    # rank sums A = B = 3, C = 6: A and B share rank 1.5
    assert ordering.consensus_ranks(["ABC", "BAC"]) == {"A": 1.5, "B": 1.5, "C": 3.0}
    assert ordering.rank_aggregation("ABC", ["ABC", "BAC"]) == pytest.approx(2 / math.sqrt(6))
    assert ordering.rank_aggregation("ABC", ["ABC", "BAC"], "spearman") == pytest.approx(
        1.5 / math.sqrt(3))
    assert ordering.rank_aggregation("CBA", ["ABC", "BAC"]) == pytest.approx(-2 / math.sqrt(6))


def test_average_ranks_equal_scipy():
    from scipy.stats import rankdata

    rng = np.random.default_rng(3)
    for _ in range(50):
        v = rng.integers(0, 6, int(rng.integers(1, 15))).astype(float)
        np.testing.assert_array_equal(ordering._average_ranks(v), rankdata(v, method="average"))


def test_frespa_by_hand():
    golds = ["ABC", "ABC", "ACB"]
    # min_sup .75 of 3 -> support 3: AB and AC, weight (1+1)(1+2) = 6 each
    assert ordering.frespa("ACB", golds) == 1.0
    assert ordering.frespa("BAC", golds) == 0.5
    # min_sup 0: AB 6, AC 6, BC 4, CB 2, ABC 6, ACB 3 -> total 27; ABC holds AB, AC, BC, ABC
    assert ordering.frespa("ABC", golds, min_sup=0) == pytest.approx(22 / 27)
    # w_len = w_sup = 0: every pattern weighs 1 -> ABC holds 4 of 6
    assert ordering.frespa("ABC", golds, min_sup=0, w_len=0, w_sup=0) == pytest.approx(4 / 6)
    # no pattern reaches full support -> 0 by definition
    assert ordering.frespa("ABC", ["ABC", "CBA"], min_sup=1, min_len=3) == 0.0


def test_frespa_identical_is_one_and_reverse_is_zero():
    rng = np.random.default_rng(4)
    for _ in range(10):
        o = tuple(rng.permutation(7))
        golds = [o] * int(rng.integers(2, 6))
        assert ordering.frespa(o, golds, min_sup=rng.random()) == 1.0
        assert ordering.frespa(o[::-1], golds, min_sup=rng.random()) == 0.0


def _brute_force_patterns(golds, min_sup, min_len, max_len):
    counts = {}
    for g in golds:
        for length in range(min_len, min(max_len, len(g)) + 1):
            for sub in set(itertools.combinations(g, length)):
                counts[sub] = counts.get(sub, 0) + 1
    need = max(1, math.ceil(min_sup * len(golds) - 1e-9))
    return {p: c for p, c in counts.items() if c >= need}


def test_miner_equals_brute_force_on_random_inputs():
    rng = np.random.default_rng(0)
    for _ in range(60):
        k, n = int(rng.integers(2, 8)), int(rng.integers(1, 7))
        golds = [tuple(rng.permutation(k)) for _ in range(n)]
        min_sup = float(rng.choice([0, 0.25, 0.5, 0.75, 1, rng.random()]))
        min_len = int(rng.integers(2, k + 1))
        max_len = int(rng.integers(min_len, k + 1))
        assert ordering.mine_patterns(golds, min_sup, min_len, max_len) == \
            _brute_force_patterns(golds, min_sup, min_len, max_len)


def _ed_by_definition(method, judgments, **p):
    scorer = {"ac": ordering.average_correlation, "wca": ordering.weighted_correlation,
              "rba": ordering.rank_aggregation}
    diffs = []
    for i, o in enumerate(judgments):
        others = judgments[:i] + judgments[i + 1:]
        if method == "frespa":
            diffs.append(ordering.frespa(o, others, **p) - ordering.frespa(o[::-1], others, **p))
        else:
            kind, c = method.split("-")
            c = "kendall" if c == "tau" else "spearman"
            f = scorer[kind]
            diffs.append((f(o, others, c) + 1) / 2 - (f(o[::-1], others, c) + 1) / 2)
    return np.mean(diffs)


@pytest.mark.parametrize("method", ordering.METHODS)
def test_ed_engine_equals_the_definitions(method):
    rng = np.random.default_rng(hash(method) % 2**32)
    for _ in range(6):
        k, n = int(rng.integers(3, 8)), int(rng.integers(3, 8))
        centre = list(range(k))
        judg = [simulate.mallows(centre, 0.5, rng) for _ in range(n)]
        params = {}
        if method == "frespa":
            params = dict(min_sup=float(rng.choice([0, 0.5, 0.75, 1])),
                          w_len=float(rng.choice([0, 1, 5])), w_sup=float(rng.choice([0, 1, 20])),
                          min_len=2, max_len=int(rng.integers(2, k + 1)))
        assert ordering.discriminativeness(method, judg, **params) == pytest.approx(
            _ed_by_definition(method, judg, **params), abs=1e-12)


def test_frespa_grid_equals_one_call_per_setting():
    rng = np.random.default_rng(1)
    judg = [simulate.mallows(list(range(6)), 0.4, rng) for _ in range(5)]
    grid = [dict(min_sup=s, max_len=(lambda k: max(2, k // 2))) for s in (0, 0.5, 1)]
    got = ordering.discriminativeness("frespa", judg, params_grid=grid)
    for g, p in zip(got, grid):
        assert g == pytest.approx(ordering.discriminativeness("frespa", judg, min_sup=p["min_sup"],
                                                              max_len=3))


def test_clean_ed_of_ac_tau_is_mean_pairwise_tau():
    rng = np.random.default_rng(2)
    judg = [simulate.mallows(list("ABCDEFG"), 0.6, rng) for _ in range(9)]
    mean_tau = np.mean([ordering.kendall(a, b) for a, b in itertools.combinations(judg, 2)])
    assert ordering.discriminativeness("ac-tau", judg) == pytest.approx(mean_tau)


def test_add_noise_appends_round_n_r_permutations():
    judg = [tuple("ABCDE")] * 10
    rng = np.random.default_rng(0)
    for r, extra in ((0, 0), (0.25, 3), (0.5, 5), (1, 10)):  # 2.5 rounds half up to 3
        noisy = ordering.add_noise(judg, r, rng)
        assert len(noisy) == 10 + extra and noisy[:10] == judg
        assert all(sorted(o) == list("ABCDE") for o in noisy)
    with pytest.raises(ParameterError, match="ratio"):
        ordering.add_noise(judg, -0.1, rng)


@pytest.fixture(scope="module")
def simulated_sets(tmp_path_factory):
    path = tmp_path_factory.mktemp("ord") / "judgments.csv"
    simulate.simulate_orderings(path, seed=2010)
    return io.read_orderings(path)


def test_simulator_is_calibrated(simulated_sets):
    tau = aggregation.mean_pairwise_tau(simulated_sets)
    assert 0.40 <= tau <= 0.50, tau
    assert len(simulated_sets) == 10
    assert 7.8 <= np.mean([len(v[0]) for v in simulated_sets.values()]) <= 9.8
    assert 9.0 <= np.mean([len(v) for v in simulated_sets.values()]) <= 11.4


def test_noise_dilution_holds_on_simulated_data(simulated_sets):
    for r in (0.5, 1.0):
        measured = np.mean([ordering.discriminativeness("ac-tau",
                                                        aggregation.noisy_sets(simulated_sets, r, 1, d))
                            for d in range(5)])
        assert measured == pytest.approx(aggregation.dilution_check(simulated_sets, r), abs=0.02)


def test_simulated_file_is_byte_identical_for_one_seed(tmp_path):
    a = simulate.simulate_orderings(tmp_path / "a.csv", seed=3)
    b = simulate.simulate_orderings(tmp_path / "b.csv", seed=3)
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ordering.kendall("ABC", "ABD"), "not a permutation"),
        (lambda: ordering.spearman("ABA", "ABA"), "repeats item 'A'"),
        (lambda: ordering.discriminativeness("ac-tau", ["ABC"]), "at least two judgments"),
        (lambda: ordering.frespa("ABC", ["ABC"], min_len=3, max_len=2), "parameter min_len"),
        (lambda: ordering.frespa("ABC", ["ABC"], min_sup=1.5), "parameter min_sup"),
        (lambda: ordering.frespa("ABC", ["ABC"], w_len=-1), "parameter w_len"),
        (lambda: ordering.discriminativeness("ac", ["AB", "BA"]), "parameter method"),
        (lambda: ordering.average_correlation("AB", ["AB"], "pearson"), "parameter method"),
        (lambda: ordering.discriminativeness("frespa", ["AB", "BA"], min_lenn=2), "parameter params"),
    ],
)
def test_bad_orderings_and_parameters(call, message):
    with pytest.raises(InputError, match=message):
        call()


@pytest.mark.parametrize(
    "content, line, message",
    [
        ("set,who,position,item\n", 1, "header"),
        ("set,assessor,position,item\nS,A,one,x\n", 2, "not an integer"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,1,y\n", 3, "given twice"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,2,x\n", 3, "twice"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,3,y\nS,B,1,x\nS,B,2,y\n", 2, "not 1..k"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,2,y\n", 2, "at least two"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,2,y\nS,B,1,x\nS,B,2,z\n", 4, "not a permutation"),
        ("set,assessor,position,item\nS,A,1\n", 2, "4 non-empty fields"),
    ],
)
def test_ordering_reader_errors(tmp_path, content, line, message):
    path = tmp_path / "j.csv"
    path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        io.read_orderings(path)
    assert info.value.line == line and info.value.path == str(path)
