"""Sweeps without running one: parameter specs, the grid, notebook names, and the Sakai p-sweep
summary (averages and sums computed by hand on a tiny combined table)."""

import pandas as pd
import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.workspace.sweeps import engine, recipes


def _combined(tmp_path, tau_at_zero=1.0):
    folder = tmp_path / "combined"
    folder.mkdir()
    rows, counts = [], []
    # two seeds, p in {0, 0.5}, one measure, N = 5, Dmax in {2, 8}
    taus = {(1, 0.5, 2): 0.90, (1, 0.5, 8): 0.80, (2, 0.5, 2): 0.70, (2, 0.5, 8): 0.60}
    discs = {(1, 0.5, 2): 1, (1, 0.5, 8): 2, (2, 0.5, 2): 0, (2, 0.5, 8): 4}
    for seed in (1, 2):
        for p in (0, 0.5):
            for dmax in (2, 8):
                tau = taus.get((seed, p, dmax), tau_at_zero)
                rows.append({"p": p, "seed": seed, "measure": "Q", "dmax": dmax, "N": 5, "tau": tau})
                counts.append({"p": p, "seed": seed, "measure": "Q", "dmax": dmax, "N": 5,
                               "discrepancies": discs.get((seed, p, dmax), 0)})
    pd.DataFrame(rows).to_csv(folder / "table2.csv", index=False)
    pd.DataFrame(counts).to_csv(folder / "table3_counts.csv", index=False)
    return tmp_path


def test_summary_averages_tau_over_dmax_and_sums_discrepancies(tmp_path):
    written = recipes.summarise_sakai_p(_combined(tmp_path), tmp_path / "out")
    assert {p.name for p in written} >= {"sakai_p.csv", "sakai_p.png", "sakai_p_threshold.md"}
    summary = pd.read_csv(tmp_path / "out" / "sakai_p.csv").set_index("p")
    # seed 1: tau (0.9 + 0.8) / 2 = 0.85, 3 discrepancies; seed 2: 0.65, 4 discrepancies
    assert summary.loc[0.5, "tau_mean"] == pytest.approx(0.75)
    assert summary.loc[0.5, "tau_sd"] == pytest.approx(((0.1 ** 2 * 2) / 1) ** 0.5, abs=1e-4)  # rounded
    assert summary.loc[0.5, "discrepancies_mean"] == pytest.approx(3.5)
    assert summary.loc[0.5, "discrepancies_max"] == 4
    assert summary.loc[0.0, "tau_mean"] == 1 and summary.loc[0.0, "discrepancies_mean"] == 0
    threshold = (tmp_path / "out" / "sakai_p_threshold.md").read_text().splitlines()[-1]
    assert threshold.replace(" ", "") == "|Q|5|0.5|"


def test_summary_refuses_data_where_p_zero_changes_the_ranking(tmp_path):
    with pytest.raises(AssertionError, match="p = 0"):
        recipes.summarise_sakai_p(_combined(tmp_path, tau_at_zero=0.99), tmp_path / "out")


def test_parse_param_reads_json_values_and_keeps_brackets_together():
    assert engine.parse_param("p=0,0.05,1") == ("p", [0, 0.05, 1])
    assert engine.parse_param("n_grid=[5,20],[10, 50]") == ("n_grid", [[5, 20], [10, 50]])
    assert engine.parse_param("name=abc,true") == ("name", ["abc", True])


@pytest.mark.parametrize("spec", ["p", "=1,2", "p=", "p=1,,2", "bad name=1"])
def test_parse_param_rejects_malformed_specs_with_the_expected_shape(spec):
    with pytest.raises(InputError, match="NAME=V1,V2|empty value"):
        engine.parse_param(spec)


def test_grid_is_the_cartesian_product_checked_before_anything_runs(tmp_path):
    nb = engine.resolve("kim2010")
    points = engine.grid(nb, [("seed", [1, 2]), ("noisy_ratio", [0.5, 1.0, 2.0])], tmp_path,
                        {"draws": 2})
    assert [tuple(p.swept.values()) for p in points] == [
        (1, 0.5), (1, 1.0), (1, 2.0), (2, 0.5), (2, 1.0), (2, 2.0)]
    assert all(p.parameters["draws"] == 2 for p in points)
    assert len({p.folder for p in points}) == 6          # one folder per point
    again = engine.grid(nb, [("seed", [1, 2]), ("noisy_ratio", [0.5, 1.0, 2.0])], tmp_path,
                       {"draws": 2})
    assert [p.folder for p in again] == [p.folder for p in points]   # names are stable
    with pytest.raises(ParameterError, match="noisy_ratio"):
        engine.grid(nb, [("noisy_ratio", [1.0, -1.0])], tmp_path)
    with pytest.raises(InputError, match="ambiguous"):
        engine.resolve("wang2015")


def test_a_paper_name_never_picks_its_explorer_but_an_exact_name_does():
    assert engine.resolve("sakai2017").name == "sakai2017_unanimity_gain"
    assert engine.resolve("explore_sakai2017").name == "explore_sakai2017"
