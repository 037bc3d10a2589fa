"""The commands as a user types them, on the shipped sample in data/examples/."""

import filecmp
import io
import json

import pandas as pd
import pytest

from evalkit.evaluate.examples import write_example
from evalkit.workspace import cli
from evalkit.paths import EXAMPLES

RUNS = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS = str(EXAMPLES / "ratings.txt")


def test_the_shipped_sample_is_what_the_generator_writes(tmp_path):
    written = write_example(tmp_path)
    for path in written.values():
        assert filecmp.cmp(path, EXAMPLES / path.relative_to(tmp_path), shallow=False), path
    assert len(RUNS) == 6


def test_score_prints_trec_eval_lines_and_reports_on_stderr(capsys):
    assert cli.main(["score", "--ratings", RATINGS, "--gain", "ug", "--measure", "nERR@10",
                     "--measure", "Q", "--per-topic", *RUNS]) == 0
    out, err = capsys.readouterr()
    lines = [line.split("\t") for line in out.splitlines()]
    assert all(len(f) == 4 for f in lines)
    assert {f[1] for f in lines} == {"nERR@10", "Q"}                 # names echoed as given
    alls = [f for f in lines if f[2] == "all"]
    assert len(alls) == 6 * 2 and len(lines) == 6 * 2 * (7 + 1)      # T08 has no positive gain
    assert "1 topic(s) without a positive gain excluded from the mean: T08" in err
    assert "unjudged (gain 0)" in err
    # the 'all' value is the mean of the per-topic lines
    frame = pd.DataFrame(lines, columns=["run", "measure", "topic", "value"]).astype({"value": float})
    per = frame[(frame["topic"] != "all") & (frame["run"] == "alpha-1") & (frame["measure"] == "Q")]
    mean = frame[(frame["topic"] == "all") & (frame["run"] == "alpha-1") & (frame["measure"] == "Q")]
    assert mean["value"].iloc[0] == pytest.approx(per["value"].mean(), abs=1e-4)


def test_score_csv_and_json_agree(capsys):
    cli.main(["score", "--ratings", RATINGS, "--measure", "P+", "--format", "csv", *RUNS])
    csv = pd.read_csv(io.StringIO(capsys.readouterr().out))
    cli.main(["score", "--ratings", RATINGS, "--measure", "P+", "--format", "json", *RUNS])
    records = pd.DataFrame(json.loads(capsys.readouterr().out))
    assert list(csv.columns) == ["run", "measure", "topic", "value"]
    assert csv["value"].round(4).tolist() == records["value"].round(4).tolist()


def test_compare_prints_one_csv_table_with_discrepancies(capsys):
    assert cli.main(["compare", "--ratings", RATINGS, "--gain", "raw", "--gain", "ug",
                     "--measure", "nERR@10", "--trials", "500", "--seed", "2", *RUNS]) == 0
    out, err = capsys.readouterr()
    table = pd.read_csv(io.StringIO(out))
    assert list(table.columns) == ["measure", "gain", "system_a", "system_b", "diff", "p_value",
                                   "effect_size", "significant", "discrepant"]
    assert len(table) == 2 * 15 and set(table["gain"]) == {"raw", "ug"}
    assert "Monte Carlo standard error of the p-values at most" in err


def test_qrels_with_a_gain_map_on_the_command_line(tmp_path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("T01 0 T01-D01 2\nT01 0 T01-D02 1\nT01 0 T01-D03 0\n")
    runfile = tmp_path / "r.txt"
    runfile.write_text("T01 Q0 T01-D02 1 3.0 r\nT01 Q0 T01-X 2 2.0 r\nT01 Q0 T01-D01 3 1.0 r\n")
    assert cli.main(["score", "--qrels", str(qrels), "--gain-map", "1:1,2:3",
                     "--measure", "nG@1", "--measure", "Q", str(runfile)]) == 0
    out = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    # gains 1, 0 (unjudged), 3; ideal 3, 1: nG@1 = 1/3; Q = (BR(1) + BR(3)) / 2 with
    # BR(1) = (1 + 1) / (3 + 1), BR(3) = (4 + 2) / (4 + 3)
    assert out == [["r", "nG@1", "all", "0.3333"],
                   ["r", "Q", "all", f"{((1 + 1) / (3 + 1) + (4 + 2) / (4 + 3)) / 2:.4f}"]]


def test_a_workspace_command_without_the_workspace_says_what_to_install(monkeypatch, capsys):
    import builtins

    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):  # a library-only install: the workspace extra is absent
        if name.split(".")[0] == "tqdm":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name.split(".")[0])
        return real_import(name, *args, **kwargs)

    import sys

    import evalkit

    monkeypatch.delitem(sys.modules, "evalkit.data", raising=False)   # imported afresh, without tqdm
    monkeypatch.delattr(evalkit, "data", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    assert cli.main(["data", "list"]) == 2
    err = capsys.readouterr().err
    assert "evalkit data: needs the workspace (tqdm is not installed)" in err
    assert "pip install 'evalkit-assessors[workspace]'" in err
