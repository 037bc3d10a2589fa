"""Files as they come, through the commands as a user types them (issue 36, item 4).

Each case runs ``evalkit`` in-process on the shipped judges' sample
(``data/examples/judges``) turned into what users bring: compressed files,
header lines, grades written ``1.0`` or below 0, repeated lines, and checks
what it prints, its exit status and what it writes against the plain files.
"""

from __future__ import annotations

import bz2
import functools
import gzip
import lzma

import pandas as pd
import pytest

from evalkit.evaluate.judges.example import JUDGES
from evalkit.formats import _columns, run_table
from evalkit.paths import EXAMPLES
from evalkit.workspace import cli

FOLDER = EXAMPLES / "judges"
RUNS = sorted((FOLDER / "runs").glob("*.txt"))
PACK = {"gzip": functools.partial(gzip.compress, mtime=0), "bz2": bz2.compress, "xz": lzma.compress}


def run(capsys, *args):
    """``(exit status, stdout, stderr lines)`` of ``evalkit ARGS``."""
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err.strip().splitlines()


def judge_args(paths: dict) -> list[str]:
    return [a for name, path in paths.items() for a in ("--judge", f"{name}={path}")]


PLAIN = {j: FOLDER / f"{j}.qrels" for j in JUDGES}


def rewrite(tmp_path, name, text, kind=None):
    path = tmp_path / name
    path.write_bytes(PACK[kind](text.encode()) if kind else text.encode())
    return path


def test_compressed_judges_runs_and_qrels_score_as_the_plain_files(tmp_path, capsys):
    code, plain, _ = run(capsys, "score", *judge_args(PLAIN), "--measure", "nERR@10", *RUNS)
    assert code == 0 and len(plain.splitlines()) == 8
    kinds = sorted(PACK)
    judges = {j: rewrite(tmp_path, f"{j}.txt", p.read_text(), kinds[i % 3])   # names say nothing
              for i, (j, p) in enumerate(PLAIN.items())}
    runs = [rewrite(tmp_path, f"run{i}.dat", p.read_text(), kinds[i % 3]) for i, p in enumerate(RUNS)]
    code, out, err = run(capsys, "score", *judge_args(judges), "--measure", "nERR@10", *runs)
    assert (code, out) == (0, plain)
    qrels = rewrite(tmp_path, "alice.gz", PLAIN["alice"].read_text(), "gzip")
    args = ["--gain-map", "1:1,2:3", "--measure", "Q", "--per-topic"]
    code, plain_q, _ = run(capsys, "score", "--qrels", PLAIN["alice"], *args, *RUNS)
    assert code == 0
    assert run(capsys, "score", "--qrels", qrels, *args, *runs)[:2] == (0, plain_q)


def test_compressed_runs_take_the_compiled_path_with_the_same_answers(tmp_path, capsys,
                                                                      monkeypatch):
    code, plain, _ = run(capsys, "score", *judge_args(PLAIN), "--measure", "P+", *RUNS)
    runs = [rewrite(tmp_path, f"run{i}.gz", p.read_text(), "gzip") for i, p in enumerate(RUNS)]
    scanned = []
    real = run_table._scanned_run
    monkeypatch.setattr(run_table, "_scanned_run",
                        lambda *a: scanned.append(a[0]) or real(*a))
    monkeypatch.setattr(_columns, "COMPILED_MIN_BYTES", 1)
    assert run(capsys, "score", *judge_args(PLAIN), "--measure", "P+", *runs)[:2] == (0, plain)
    # every run scanned (two reader threads: in any order)
    assert sorted(str(p) for p in scanned) == sorted(str(p) for p in runs)


def test_agreement_reads_compressed_judges(tmp_path, capsys):
    judges = {j: rewrite(tmp_path, f"{j}.xz", p.read_text(), "xz") for j, p in PLAIN.items()}
    code, out, _ = run(capsys, "agreement", *judge_args(PLAIN), "--bootstrap", "0",
                       "--out", tmp_path / "plain")
    assert code == 0
    assert run(capsys, "agreement", *judge_args(judges), "--bootstrap", "0",
               "--out", tmp_path / "xz")[:2] == (0, out)
    for name in ("agreement.csv", "confusion.csv", "reliability.csv", "consensus_dawid-skene.txt",
                 "pairs.csv", "per_topic.csv"):
        assert (tmp_path / "xz" / name).read_bytes() == (tmp_path / "plain" / name).read_bytes()


HEADERS = {"qrels": "query_id iteration doc_id relevance\n", "run": "qid Q0 docno rank score tag\n"}


def test_a_header_line_is_refused_in_one_line_or_skipped(tmp_path, capsys):
    code, plain, _ = run(capsys, "score", *judge_args(PLAIN), "--measure", "nERR@10", *RUNS)
    judges = {j: rewrite(tmp_path, f"{j}.qrels", HEADERS["qrels"] + p.read_text())
              for j, p in PLAIN.items()}
    runs = [rewrite(tmp_path, p.name, (HEADERS["run"] if i % 2 else "") + p.read_text(), "gzip")
            for i, p in enumerate(RUNS)]                    # half of them with a header
    code, out, err = run(capsys, "score", *judge_args(judges), "--measure", "nERR@10", *runs)
    assert (code, out) == (2, "") and len(err) == 1
    assert err[0] == (f"evalkit: {judges['alice']}, line 1: 'query_id iteration doc_id relevance' "
                      "looks like a header line: remove it (or give --skip-header to skip it; a "
                      "line of this file is 'topic iteration doc grade')")
    code, out, err = run(capsys, "score", *judge_args(PLAIN), "--grades", "0:2", "--measure",
                         "nERR@10", *runs)                # (a declared scale: no note first)
    assert code == 2 and err == [f"evalkit: {runs[1]}, line 1: 'qid Q0 docno rank score tag' looks "
                                 "like a header line: remove it (or give --skip-header to skip "
                                 "it; a line of this file is 'topic Q0 doc rank score tag')"]
    assert run(capsys, "score", *judge_args(judges), "--skip-header", "--measure", "nERR@10",
               *runs)[:2] == (0, plain)
    ratings = rewrite(tmp_path, "ratings.txt", "topic assessor doc rating\n"
                      + (EXAMPLES / "ratings.txt").read_text())
    shipped = sorted((EXAMPLES / "runs").glob("*.txt"))
    code, plain_r, _ = run(capsys, "score", "--ratings", EXAMPLES / "ratings.txt", "--measure",
                           "Q", *shipped)
    assert run(capsys, "score", "--ratings", ratings, "--measure", "Q", *shipped)[0] == 2
    assert run(capsys, "score", "--ratings", ratings, "--skip-header", "--measure", "Q",
               *shipped)[:2] == (0, plain_r)
    qrels = rewrite(tmp_path, "q.txt", HEADERS["qrels"] + PLAIN["bob"].read_text())
    args = ["--gain-map", "1:1,2:3", "--measure", "nG@1"]
    code, plain_q, _ = run(capsys, "score", "--qrels", PLAIN["bob"], *args, *RUNS)
    assert run(capsys, "score", "--qrels", qrels, *args, *RUNS)[0] == 2
    assert run(capsys, "score", "--qrels", qrels, "--skip-header", *args, *RUNS)[:2] == (0, plain_q)
    code, out, _ = run(capsys, "agreement", *judge_args(PLAIN), "--bootstrap", "0",
                       "--out", tmp_path / "a1")
    assert run(capsys, "agreement", *judge_args(judges), "--skip-header", "--bootstrap", "0",
               "--out", tmp_path / "a2")[:2] == (0, out)
    assert (tmp_path / "a2" / "agreement.csv").read_bytes() == \
           (tmp_path / "a1" / "agreement.csv").read_bytes()


def test_grades_written_as_decimals_are_integers_and_fractions_are_refused(tmp_path, capsys):
    code, plain, _ = run(capsys, "score", *judge_args(PLAIN), "--measure", "Q", *RUNS)
    decimals = {j: rewrite(tmp_path, f"{j}.qrels", "".join(
        f"{t} {i} {d} {g}.0{'0' * (k % 2)}\n" for k, (t, i, d, g) in
        enumerate(line.split() for line in p.read_text().splitlines())))
        for j, p in PLAIN.items()}
    assert "d401-01 0.0\n" in decimals["alice"].read_text()
    assert run(capsys, "score", *judge_args(decimals), "--measure", "Q", *RUNS)[:2] == (0, plain)
    text = PLAIN["alice"].read_text().splitlines(keepends=True)
    text[6] = text[6].rsplit(" ", 1)[0] + " 1.5\n"
    bad = rewrite(tmp_path, "alice-bad.qrels", "".join(text))
    code, out, err = run(capsys, "score", "--judge", f"alice={bad}", "--judge",
                         f"bob={PLAIN['bob']}", "--measure", "Q", *RUNS)
    assert (code, out, err) == (2, "", [f"evalkit: {bad}, line 7: grade '1.5' is not a whole "
                                         "number"])


def shifted(tmp_path, by: int) -> dict:
    """The shipped judges with every grade moved by ``by`` (0..2 becomes -1..1 for -1)."""
    return {j: rewrite(tmp_path, f"{j}{by}.qrels", "".join(
        f"{t} {i} {d} {int(g) + by}\n" for t, i, d, g in
        (line.split() for line in p.read_text().splitlines()))) for j, p in PLAIN.items()}


@pytest.mark.parametrize("spelling", [["--grades", "-1:1"], ["--grades=-1:1"]])
def test_agreement_on_a_scale_below_zero_is_the_same_scale_moved(tmp_path, capsys, spelling):
    # alpha and kappa depend on the grades' order and differences, not on where the scale
    # starts: the judges' grades moved by -1 on -1..1 agree exactly as on 0..2
    code, out, _ = run(capsys, "agreement", *judge_args(PLAIN), "--grades", "0:2", "--bootstrap",
                       "0", "--out", tmp_path / "base")
    assert code == 0
    code, moved, err = run(capsys, "agreement", *judge_args(shifted(tmp_path, -1)), *spelling,
                           "--bootstrap", "0", "--out", tmp_path / "moved")
    assert (code, moved) == (0, out)
    base = pd.read_csv(tmp_path / "base" / "agreement.csv")
    new = pd.read_csv(tmp_path / "moved" / "agreement.csv")
    rename = {f"{k}_binary>={c}": f"{k}_binary>={c - 1}" for c in (1, 2) for k in ("alpha", "kappa")}
    pd.testing.assert_frame_equal(new, base.replace({"statistic": rename}))
    assert {s for s in new["statistic"] if "binary" in s} == set(rename.values())
    consensus = pd.read_csv(tmp_path / "moved" / "consensus_dawid-skene.txt", sep=" ", header=None)
    assert sorted(set(consensus[3])) == [-1, 0, 1]


def test_negative_grades_are_read_declared_clipped_and_refused_off_the_scale(tmp_path, capsys):
    judges = shifted(tmp_path, -2)                                     # grades -2..0
    code, _, err = run(capsys, "agreement", *judge_args(judges), "--bootstrap", "0",
                       "--out", tmp_path / "inferred")
    assert code == 0 and err[0].startswith("evalkit agreement: grades -2..0 inferred from the "
                                           "labels (declare the scale with --grades LO:HI)")
    assert "the lowest, -2, is every judge's lowest grade (4 judges)" in err[0]
    code, out, err = run(capsys, "agreement", *judge_args(judges), "--grades", "-1:2",
                         "--bootstrap", "0", "--out", tmp_path / "off")
    assert (code, out) == (2, "") and len(err) == 1
    assert ", line " in err[0] and "is outside --grades -1:2" in err[0] and "--clip" in err[0]
    assert not (tmp_path / "off").exists()
    code, out, err = run(capsys, "agreement", *judge_args(judges), "--grades", "-1:2", "--clip",
                         "--bootstrap", "0", "--out", tmp_path / "clip")
    assert code == 0
    notes = [line for line in err if "--clip:" in line]
    assert len(notes) == 4 and all("outside -1..2 (grades -2) clamped:" in n and n.endswith(
        "to -1") for n in notes)
    qrels = judges["alice"]
    for gain_map in (["--gain-map", "-2:0,-1:1,0:3"], ["--gain-map=-2:0,-1:1,0:3"]):
        code, out, err = run(capsys, "score", "--qrels", qrels, *gain_map, "--measure", "Q", *RUNS)
        assert code == 0 and len(out.splitlines()) == 8, err


def test_exact_repeats_are_read_once_with_a_note_and_other_grades_refused(tmp_path, capsys):
    code, plain, _ = run(capsys, "score", *judge_args(PLAIN), "--measure", "Q", *RUNS)
    lines = PLAIN["carol"].read_text().splitlines(keepends=True)
    repeated = rewrite(tmp_path, "carol.qrels", "".join(lines + lines[:3] + lines[10:11]))
    judges = dict(PLAIN, carol=repeated)
    code, out, err = run(capsys, "score", *judge_args(judges), "--measure", "Q", *RUNS)
    n = len(lines)
    assert (code, out) == (0, plain)
    assert err[0] == (f"evalkit score: {repeated}: 4 lines repeat an earlier line exactly (same "
                      f"topic, document and grade) and were read once: lines {n + 1}, {n + 2}, "
                      f"{n + 3}, {n + 4} (first on lines 1, 2, 3, 11)")
    other = lines[4].rsplit(" ", 1)[0] + (" 2\n" if lines[4].endswith(" 0\n") else " 0\n")
    conflicting = rewrite(tmp_path, "carol2.qrels", "".join(lines + [other]))
    code, out, err = run(capsys, "score", *judge_args(dict(PLAIN, carol=conflicting)),
                         "--measure", "Q", *RUNS)
    assert (code, out) == (2, "") and len(err) == 1
    assert f"{conflicting}, line {n + 1}: document {lines[4].split()[2]} is judged twice" in err[0]
    assert "on line 5: one judge grades a document once" in err[0]
    # per-assessor ratings: the same, and a qrels file given there is named as one judge's qrels
    shipped = sorted((EXAMPLES / "runs").glob("*.txt"))
    rlines = (EXAMPLES / "ratings.txt").read_text().splitlines(keepends=True)
    ratings = rewrite(tmp_path, "ratings.txt", "".join(rlines + rlines[5:6]))
    code, plain_r, _ = run(capsys, "score", "--ratings", EXAMPLES / "ratings.txt", "--measure",
                           "Q", *shipped)
    code, out, err = run(capsys, "score", "--ratings", ratings, "--measure", "Q", *shipped)
    assert (code, out) == (0, plain_r)
    assert err[0] == (f"evalkit score: {ratings}: 1 line repeats an earlier line exactly (same "
                      f"topic, assessor, document and rating) and was read once: line "
                      f"{len(rlines) + 1} (first on line 6)")
    code, out, err = run(capsys, "agreement", "--ratings", repeated, "--out", tmp_path / "x")
    assert code == 2 and len(err) == 1 and "only one assessor (0)" in err[0]


def test_a_document_twice_in_a_run_stays_refused_as_trec_eval_refuses_it(tmp_path, capsys):
    lines = RUNS[0].read_text().splitlines(keepends=True)
    again = rewrite(tmp_path, "run1.txt", "".join(lines + lines[:1]))
    code, out, err = run(capsys, "score", *judge_args(PLAIN), "--grades", "0:2", "--measure", "Q",
                         again)
    assert (code, out) == (2, "")
    assert err == [f"evalkit: {again}, line {len(lines) + 1}: document {lines[0].split()[2]} is "
                   "listed twice for topic 401 (first on line 1) (a run lists each document at "
                   "most once per topic)"]


@pytest.mark.parametrize("args, message", [
    (["--grades", "3:1"], "evalkit: --grades 3:1 is invalid: expected LO:HI with LO < HI, such "
                          "as 0:3 or -2:3"),
    (["--grades", "-1.5:2"], "evalkit: --grades -1.5:2 is invalid: expected LO:HI, two whole "
                             "numbers such as 0:3 or -2:3"),
])
def test_messages_name_options_as_the_command_line_spells_them(capsys, args, message):
    code, out, err = run(capsys, "score", *judge_args(PLAIN), *args, "--measure", "Q", *RUNS)
    assert (code, out, err) == (2, "", [message])


def test_a_bad_gain_map_is_named_as_typed(capsys):
    code, out, err = run(capsys, "score", "--qrels", PLAIN["alice"], "--gain-map", "1:x",
                         "--measure", "Q", *RUNS)
    assert (code, err) == (2, ["evalkit: --gain-map 1:x is invalid: expected GRADE:GAIN pairs "
                               "such as 1:1,2:3"])
