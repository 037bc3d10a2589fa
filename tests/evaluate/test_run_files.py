"""Run files scored one at a time give the answers of all runs scored at once."""

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.evaluate import compare, score
from evalkit.evaluate.runs import files as run_files
from evalkit.measures.registry import parse_measure
from evalkit.evaluate.runs.files import RunFiles
from evalkit.evaluate.scoring.engine import scored_runs
from evalkit.evaluate.scoring.judgments import judgments, pooled_column
from evalkit.formats.trec import read_qrels, read_run
from evalkit.simulate.stc import simulate_ratings

MEASURES = ["nG@1", "P+@5", "nERR@10", "Q", "Q@3"]


@pytest.fixture(scope="module")
def collection(small_collection, tmp_path_factory):
    """The small STC-like runs, one more run with an unrated topic, and per-assessor ratings."""
    folder = tmp_path_factory.mktemp("runfiles")
    qrels = read_qrels(small_collection / "qrels.txt")
    files = sorted(str(p) for p in (small_collection / "runs").iterdir())
    extra = folder / "zz-extra.txt"
    first = read_run(files[0])
    lines = [f"{t} Q0 {d} {r} 1.0 zz-extra" for _, (t, d, r) in
             first[["topic", "doc", "rank"]].head(30).iterrows()]
    extra.write_text("\n".join(lines + ["NOPE Q0 x 1 1.0 zz-extra", "NOPE Q0 y 2 0.5 zz-extra",
                                        f"{first['topic'][0]} Q0 never-judged 99 0.1 zz-extra"])
                     + "\n")
    files.append(str(extra))
    matrix = simulate_ratings(qrels["grade"].to_numpy(), 4, 3, seed=9).astype(float)
    matrix[::5, 1] = np.nan
    long = pd.DataFrame(matrix, index=pd.MultiIndex.from_frame(qrels[["topic", "doc"]]))
    long = long.stack().dropna().rename("rating").reset_index().rename(columns={"level_2": "assessor"})
    long["rating"] = long["rating"].astype(int)
    long["assessor"] = long["assessor"].astype(str)
    frame = pd.concat([read_run(p) for p in files], ignore_index=True)
    return files, frame, long


@pytest.mark.parametrize("compiled", [False, True], ids=["column-wise", "compiled"])
@pytest.mark.parametrize("gain", ["raw", "ug"])
def test_score_of_run_files_equals_score_of_the_frame(collection, gain, compiled):
    files, frame, ratings = collection
    at_once = score(frame, ratings, gain=gain, dmax=3, measures=MEASURES, per_topic=True)
    by_file = score(RunFiles(files, compiled=compiled), ratings, gain=gain, dmax=3,
                    measures=MEASURES, per_topic=True)
    pd.testing.assert_frame_equal(by_file, at_once, check_exact=False, rtol=0, atol=1e-12)
    assert by_file.attrs == at_once.attrs
    assert any("dropped (2 rows): NOPE" in n for n in by_file.attrs["notes"])
    assert any("unjudged (gain 0)" in n for n in by_file.attrs["notes"])


@pytest.mark.parametrize("compiled", [False, True], ids=["column-wise", "compiled"])
def test_compare_of_run_files_equals_compare_of_the_frame(collection, compiled):
    files, frame, ratings = collection
    kwargs = dict(gains=["raw", "ug"], dmax=3, measures=["nERR@10", "Q"], trials=300, seed=4)
    at_once = compare(frame, ratings, **kwargs)
    by_file = compare(RunFiles(files, compiled=compiled), ratings, **kwargs)
    pd.testing.assert_frame_equal(by_file, at_once, check_exact=False, rtol=0, atol=1e-12)


def test_two_files_with_one_tag_are_named_by_their_files_or_renamed(collection, tmp_path):
    # issue 43: they were refused; now each is named by its file (a note says so), or by
    # --rename, and scores as it does alone
    files, _, ratings = collection
    copy = tmp_path / "copy.txt"
    copy.write_bytes(open(files[0], "rb").read())
    tag = score(RunFiles([files[0]]), ratings, measures=["Q"])["run"].iloc[0]
    alone = score(RunFiles([files[0]]), ratings, measures=["Q"])["value"].iloc[0]
    both = score(RunFiles([files[0], str(copy)]), ratings, measures=["Q"])
    names = [Path(files[0]).name, "copy.txt"]
    assert sorted(both["run"]) == sorted(names) and (both["value"] == alone).all()
    assert any(f"2 run files share the run tag {tag}: named by their files" in n
               for n in both.attrs["notes"])
    named = score(RunFiles([files[0], str(copy)]), ratings, measures=["Q"],
                  rename={str(copy): "copy"})
    assert sorted(named["run"]) == sorted([tag, "copy"])
    with pytest.raises(InputError, match="--rename nope=x: no run file or run tag"):
        score(RunFiles([files[0]]), ratings, measures=["Q"], rename={"nope": "x"})


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_line_only_on_a_terminal(collection, monkeypatch):
    files, _, ratings = collection
    judged = judgments({"all:raw": pooled_column(ratings, "raw", 0.2, None)})
    specs = [parse_measure("Q")]
    quiet = io.StringIO()
    scored_runs(RunFiles(files), judged, specs, progress=quiet)
    assert quiet.getvalue() == ""
    small = _Terminal()
    scored_runs(RunFiles(files), judged, specs, progress=small)
    assert small.getvalue() == ""                                   # small input: no line
    monkeypatch.setattr(run_files, "PROGRESS_MIN_BYTES", 0)
    shown = _Terminal()
    scored_runs(RunFiles(files), judged, specs, progress=shown)
    text = shown.getvalue()
    assert text.startswith("\revalkit: read and scored") and text.endswith("\n")
    assert text.count("\n") == 1 and f"{len(files)}/{len(files)} run files" in text


def test_rows_sort_by_topic_then_rank_as_lexsort_does():
    """--order rank: the same order as np.lexsort((rank, topic)), ties in file order, for any
    integer ranks (negative, equal, near the ends of int64 and uint64) and for Python ints
    beyond them."""
    from evalkit.evaluate.runs.order import _by_rank as _by_topic_and_rank

    rng = np.random.default_rng(7)
    cases = [np.array([2**63 + 1, 2**63, 2**63], dtype=np.uint64),      # min >= 2^63
             np.array([-2**63, 2**63 - 1, 0], dtype=np.int64),            # span too wide
             np.array([3, 3, 3], dtype=np.int64), np.array([2**70, 1, -5], dtype=object)]
    for _ in range(200):
        low = int(rng.integers(-2**62, 2**62))
        cases.append(low + rng.integers(-5, 5, size=int(rng.integers(1, 40))))
    for rank in cases:
        topic = rng.integers(0, 4, size=len(rank))
        assert _by_topic_and_rank(topic, rank).tolist() == np.lexsort((rank, topic)).tolist()


def test_the_compiled_readers_are_used_for_large_inputs_only(tmp_path, monkeypatch):
    """numba's import and cached code cost about 0.7 s a process: small inputs are read
    column-wise, inputs of COMPILED_MIN_BYTES or more by the compiled scanner."""
    from evalkit.formats import _columns

    small = tmp_path / "run.txt"
    small.write_text("1 Q0 a 1 1.0 t\n")
    assert not RunFiles([small]).use_compiled()
    assert RunFiles([small], compiled=True).use_compiled()
    monkeypatch.setattr(_columns, "COMPILED_MIN_BYTES", small.stat().st_size)
    assert RunFiles([small]).use_compiled()


def test_judged_items_found_by_look_up_equal_a_search():
    """A document judged for one topic is found by a look-up, one judged for several by a
    search: the same items as searching every (topic, document) key."""
    from evalkit.evaluate.scoring.lists import _items

    rng = np.random.default_rng(3)
    qrels = pd.DataFrame({"topic": rng.choice(list("ABCDE"), 400), "doc": rng.choice(
        [f"d{i}" for i in range(150)], 400), "gain": 1.0}).drop_duplicates(["topic", "doc"])
    j = judgments({"j": qrels})
    assert (j.doc_item == -2).any() and (j.doc_item >= 0).any()      # both paths are taken
    topic = rng.integers(0, len(j.topics), 2000)
    doc = rng.integers(0, len(j.docs), 2000)
    found, item = _items(j, topic, doc)
    key = topic * len(j.docs) + doc
    at = np.minimum(np.searchsorted(j.keys, key), len(j.keys) - 1)
    hit = j.keys[at] == key
    assert found.tolist() == np.flatnonzero(hit).tolist()
    assert item.tolist() == j.position[at[hit]].tolist()


@pytest.mark.parametrize("compiled", [False, True], ids=["column-wise", "compiled"])
def test_documents_judged_for_other_topics_are_scored_as_the_frame_scores_them(tmp_path, compiled):
    # the compiled reader codes a run's documents against its topic's judged documents only:
    # "elsewhere" is judged for topic 1 only, "both" for topics 1 and 2 with other grades
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 elsewhere 2\n1 0 both 1\n1 0 a 1\n2 0 both 3\n2 0 b 0\n2 0 c 2\n"
                     "3 0 elsewhere -1\n")
    lines = ["1 Q0 both 1 9 r", "1 Q0 x 2 8 r", "1 Q0 elsewhere 3 7 r", "2 Q0 elsewhere 1 9 r",
             "2 Q0 both 2 8 r", "2 Q0 a 3 7 r", "2 Q0 c 4 6 r", "3 Q0 elsewhere 1 5 r",
             "3 Q0 both 2 4 r"]
    run = tmp_path / "run.txt"
    run.write_text("\n".join(lines) + "\n")
    measures = ["AP", "P@2", "NumRelRet", "Bpref", "infAP", "nDCG", "Judged@2", "unj"]
    judges = {"j": str(qrels)}
    by_file = score(RunFiles([str(run)], compiled=compiled), judges=judges, measures=measures,
                    per_topic=True)
    at_once = score(read_run(run), judges=judges, measures=measures, per_topic=True)
    pd.testing.assert_frame_equal(by_file, at_once, check_exact=True)
    value = by_file.set_index(["measure", "topic"])["value"]
    assert value["NumRelRet", "2"] == 2 and value["NumRelRet", "1"] == 2   # both+c; both+else
    assert value["P@2", "2"] == 0.5 and value["P@2", "3"] == 0          # "elsewhere": not for 2
