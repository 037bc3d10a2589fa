"""The Python API mirrors the commands: files or frames in, the same frames out."""

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.evaluate import agreement, assessors, compare, score
from evalkit.formats.trec import read_qrels, read_run
from evalkit.paths import EXAMPLES

FOLDER = EXAMPLES / "judges"
NAMES = ("alice", "bob", "carol", "mallory")
RUNS = sorted((FOLDER / "runs").glob("*.txt"))


def test_score_takes_a_folder_a_list_or_a_frame_of_runs_and_files_or_frames_of_judges():
    paths = {n: FOLDER / f"{n}.qrels" for n in NAMES}
    frames = {n: read_qrels(p) for n, p in paths.items()}
    runs = pd.concat([read_run(p) for p in RUNS], ignore_index=True)
    kwargs = dict(measures=["nDCG@10", "AP", "nERR@10"], per_judge=True, per_topic=True)
    by_folder = score(FOLDER / "runs", judges=paths, **kwargs)
    by_list = score([str(p) for p in RUNS], judges=paths, **kwargs)
    by_frame = score(runs, judges=frames, **kwargs)
    pd.testing.assert_frame_equal(by_folder, by_list)
    pd.testing.assert_frame_equal(by_folder, by_frame, check_exact=False, rtol=0, atol=1e-12)
    assert list(by_folder.columns) == ["judge", "run", "measure", "topic", "value"]
    assert set(by_folder["judge"]) == {*NAMES, "all:raw"}
    # each judge's rows are that judge's qrels scored alone
    alone = score(FOLDER / "runs", qrels=FOLDER / "bob.qrels", gain_map="1:1,2:2",
                  measures=["nDCG@10", "AP", "nERR@10"], per_topic=True)
    bob = by_folder[by_folder["judge"] == "bob"].drop(columns="judge").reset_index(drop=True)
    pd.testing.assert_frame_equal(bob, alone)


def test_compare_and_assessors_take_files():
    ratings = pd.concat([read_qrels(FOLDER / f"{n}.qrels").assign(assessor=n) for n in NAMES])
    ratings = ratings.rename(columns={"grade": "rating"})
    runs = pd.concat([read_run(p) for p in RUNS], ignore_index=True)
    files = compare(FOLDER / "runs", ratings, measures=["nDCG@10"], trials=200, seed=3)
    frame = compare(runs, ratings, measures=["nDCG@10"], trials=200, seed=3)
    pd.testing.assert_frame_equal(files, frame)
    a = assessors(FOLDER / "runs", ratings, measures=["nDCG@10"], trials=200, seed=3)
    b = assessors(runs, ratings, measures=["nDCG@10"], trials=200, seed=3)
    pd.testing.assert_frame_equal(a.leaderboards, b.leaderboards)


def test_agreement_from_files_or_frames_gives_the_same_tables():
    paths = {n: FOLDER / f"{n}.qrels" for n in NAMES}
    frames = {n: read_qrels(p) for n, p in paths.items()}
    options = dict(reference="alice", grades=(0, 2), seed=1, trials=300, bootstrap=200)
    a, b = agreement(paths, **options), agreement(frames, **options)
    pd.testing.assert_frame_equal(a.agreement, b.agreement)
    pd.testing.assert_frame_equal(a.pairs, b.pairs)
    # the random judge agrees least with alice; alpha of a judge with itself would be 1
    head = a.headline()
    assert head["judge"].iloc[-1] == "mallory" and head["value"].iloc[-1] < 0.1 < head["value"].iloc[0]
    with pytest.raises(InputError, match="outside 0..1"):
        agreement(frames, reference="alice", grades=(0, 1), bootstrap=0, pairs=False)
    clipped = agreement(frames, reference="alice", grades=(0, 1), clip=True, bootstrap=0,
                        pairs=False)
    assert any("clamped" in n for n in clipped.notes)
    assert np.isfinite(clipped.headline()["value"]).all()


def test_many_judges_scored_a_block_of_columns_at_a_time_give_the_same_values(monkeypatch):
    """With one judgment column per block (``LIST_CELLS`` = 1) every value equals the
    all-columns-at-once scoring, bit for bit."""
    import evalkit.evaluate.scoring.lists as lists

    paths = {n: FOLDER / f"{n}.qrels" for n in NAMES}
    kwargs = dict(measures=["nDCG@10", "AP", "P@5", "R@100", "RR", "nERR@10"], per_judge=True,
                  per_topic=True)
    together = score(FOLDER / "runs", judges=paths, **kwargs)
    monkeypatch.setattr(lists, "LIST_CELLS", 1)
    assert [len(range(*b.indices(5))) for b in lists._blocks(5, 10)] == [1, 1, 1, 1, 1]
    one_by_one = score(FOLDER / "runs", judges=paths, **kwargs)
    pd.testing.assert_frame_equal(together, one_by_one, check_exact=True)
