"""What a diff against trec_eval 10's own output found after the measures were merged (issue 43):
AP added rank by rank as m_map.c adds it (a fourth decimal at a half: 0.5812, not 0.5813),
num_rel's summary with -c counting every qrels line graded above 0 whatever -l says
(m_num_rel.c's te_calc_avg_num_rel), and 11pt_avg with parameters printed in its place."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from evalkit.evaluate import score
from evalkit.paths import EXAMPLES
from evalkit.workspace import cli

FOLDER = EXAMPLES / "judges"
QRELS = FOLDER / "alice.qrels"
RUN2 = FOLDER / "runs" / "run2.txt"


def _frame(path, names):
    return pd.read_csv(path, sep=r"\s+", header=None, names=names, dtype={names[0]: str})


def test_ap_is_added_rank_by_rank_as_trec_eval_adds_it():
    q = _frame(QRELS, ["t", "i", "d", "g"])
    r = _frame(RUN2, ["t", "q", "d", "rank", "s", "tag"])
    rel = set(zip(q.loc[q["g"] >= 1, "t"], q.loc[q["g"] >= 1, "d"]))
    expect = {}
    for topic, rows in r.groupby("t"):
        ranked = rows.sort_values(["s", "d"], ascending=[False, False])["d"]
        total, found = 0.0, 0
        for i, doc in enumerate(ranked, start=1):
            if (topic, doc) in rel:
                found += 1
                total += found / i                  # m_map.c: sum += rel_so_far / (i + 1)
        n_rel = sum(1 for t, _ in rel if t == topic)
        expect[topic] = total / n_rel if n_rel else 0.0
    got = score(str(RUN2), qrels=str(QRELS), measures=["AP"], per_topic=True)
    got = got[got["topic"] != "all"].set_index("topic")["value"]
    assert {t: got[t] for t in expect} == expect                  # the same bits
    assert f"{expect['417']:.4f}" == "0.5812"                      # trec_eval 10 prints 0.5812


def test_num_rel_summary_with_c_counts_every_qrels_line_graded_above_zero(capsys):
    q = _frame(QRELS, ["t", "i", "d", "g"])
    args = ["score", "--qrels", str(QRELS), "--measure", "num_rel", "--rel-level", "2",
            "--per-topic", "--format", "csv", str(RUN2)]
    assert cli.main(args) == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out), dtype={"topic": str})
    per_topic = out.loc[out["topic"] != "all", "value"].sum()
    assert per_topic == (q["g"] >= 2).sum()                        # each topic at -l 2
    assert out.loc[out["topic"] == "all", "value"].item() == (q["g"] > 0).sum() != per_topic
    assert cli.main(args + ["--missing", "skip"]) == 0             # without -c: the sum
    skip = pd.read_csv(io.StringIO(capsys.readouterr().out), dtype={"topic": str})
    assert skip.loc[skip["topic"] == "all", "value"].item() == per_topic


def test_11pt_avg_with_parameters_is_printed_in_trec_eval_s_order(capsys):
    assert cli.main(["score", "--qrels", str(QRELS), "--measure", "11pt_avg..25,.5,.75",
                     "--measure", "Rprec_mult.0.2", "--measure", "ndcg_cut.10", "--per-topic",
                     "--format", "trec_eval", str(RUN2)]) == 0
    names = [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()
             if "\t401\t" in line]
    assert names == ["Rprec_mult_0.20", "11pt_avg_.25,.5,.75", "ndcg_cut_10"]


@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_num_rel_at_the_default_level_sums_its_topics(missing):
    frame = score(str(RUN2), qrels=str(QRELS), measures=["num_rel"], per_topic=True,
                  missing=missing)
    assert frame.loc[frame["topic"] == "all", "value"].item() == \
        frame.loc[frame["topic"] != "all", "value"].sum()
