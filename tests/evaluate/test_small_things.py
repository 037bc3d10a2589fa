"""Issue 43, item 8: what the trial found small, each checked."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from evalkit.evaluate import agreement
from evalkit.evaluate.judge_agreement.report import summary
from evalkit.paths import EXAMPLES
from evalkit.stats.hsd import mc_error, randomised_tukey_hsd

FOLDER = EXAMPLES / "judges"


def test_one_judge_against_the_reference_is_said_so_not_most_and_least():
    report = agreement({"alice": str(FOLDER / "alice.qrels"), "bob": str(FOLDER / "bob.qrels")},
                       reference="alice", bootstrap=50, pairs=False)
    lines = summary(report)
    assert lines[0].startswith("One judge against alice: bob (alpha_ordinal ")
    assert not any("Agrees most" in line or "Agrees least" in line for line in lines)


def test_a_p_value_of_zero_gets_a_monte_carlo_error_bounded_by_count_plus_one():
    b = 1000
    q = 1 / (b + 1)                                 # (0 + 1) / (B + 1)
    assert mc_error(0.0, b) == math.sqrt(q * (1 - q) / b) > 0
    assert mc_error(0.25, b) == math.sqrt(0.25 * 0.75 / b)      # p = count / B elsewhere
    # two far-apart systems: no trial as extreme, p = 0 with a positive error
    x = pd.DataFrame({"a": np.linspace(0.8, 0.9, 20), "b": np.linspace(0.0, 0.1, 20)})
    row = randomised_tukey_hsd(x, n_trials=b, seed=1).iloc[0]
    assert row["p_value"] == 0 and row["p_value_se"] == mc_error(0.0, b)


def test_the_report_figure_of_fifty_systems_is_drawn_without_overlapping_labels(tmp_path):
    """compare --out with 50 systems (the benchmark's) stopped on overlapping tick labels."""
    from evalkit.evaluate.comparison.report import compare_scores, write_report

    rng = np.random.default_rng(3)
    rows = [(f"sys{r:03d}", "AP", f"t{t}", float(rng.beta(2, 3) + r / 50 * 0.3))
            for r in range(50) for t in range(30)]
    report = compare_scores(pd.DataFrame(rows, columns=["run", "measure", "topic", "value"]),
                            test="t", correction="holm")
    written = write_report(report, tmp_path)                # the figure check raises on overlap
    assert (tmp_path / "systems.png") in written


def test_the_assessors_figure_title_counts_the_judges_it_draws():
    from evalkit.evaluate import assessors, bump_chart

    runs = sorted(str(p) for p in (FOLDER / "runs").glob("*.txt"))
    judges = {j: str(FOLDER / f"{j}.qrels") for j in ("alice", "bob", "carol")}
    fig = bump_chart(assessors(runs, judges, measures=["nDCG@10"], trials=50))
    columns = max(([t.get_text() for t in ax.get_xticklabels() if t.get_text()]
                   for ax in fig.axes), key=len)
    # 5 pooled + the assessors' mean + 3 assessors + 3 left out
    assert len(columns) == 12
    assert fig._suptitle.get_text().startswith("Run ranks under 12 judges made from 3 assessors")


def test_a_misspelt_measure_is_one_line_before_any_note(capsys, tmp_path):
    """The grades note of the judges' files must not come first: the name is checked before
    any file is read, by score, compare and assessors alike."""
    from evalkit.workspace.cli import main

    judges = [f"--judge=alice={FOLDER / 'alice.qrels'}", f"--judge=bob={FOLDER / 'bob.qrels'}"]
    runs = sorted(str(p) for p in (FOLDER / "runs").glob("*.txt"))
    out_dir = tmp_path / "out"
    for command, extra in (("score", []), ("compare", []), ("assessors", ["--out", str(out_dir)])):
        assert main([command, *judges, *extra, "--measure", "nDCG@1O", *runs]) == 2
        out, err = capsys.readouterr()
        assert (out, err) == ("", "evalkit: --measure nDCG@1O is invalid: expected a cutoff @k "
                                  "with k >= 1\n"), command
    assert not out_dir.exists()                                 # nothing written
