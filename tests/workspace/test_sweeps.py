"""The Sakai p-sweep summary: averages and sums computed by hand on a tiny combined table."""

import pandas as pd
import pytest

from evalkit.workspace.sweeps import recipes


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
