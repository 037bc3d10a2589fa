"""``evalkit score --fill FILE`` and ``score(fill=)`` (issue 44, item 6): each judge's holes on
the topics it judged take FILE's labels, each judge on its own before pooling; the scores equal
scoring qrels merged by hand, with and without ``--judged-only``."""

import io
import sys
from pathlib import Path

import pandas as pd
import pytest

from evalkit.evaluate import score
from evalkit.workspace.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from estimate_world import write_world  # noqa: E402

MEASURES = ["--measure", "nDCG@10", "--measure", "P@10", "--measure", "AP"]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Two judges with different holes (a third of alice's labels, a quarter of bob's gone;
    bob judged 5 more topics) and each judge's qrels merged by hand with the LLM's labels."""
    folder = tmp_path_factory.mktemp("fill")
    paths = write_world(folder, judged=10)
    bob = write_world(folder / "bob", judged=15)["human"]  # same seed: the same grades
    llm = [line.split() for line in Path(paths["llm"]).read_text().splitlines()]
    for name, source, drop in (("alice", paths["human"], 3), ("bob", bob, 4)):
        lines = [line.split() for line in Path(source).read_text().splitlines()]
        kept = [f for k, f in enumerate(lines) if k % drop]
        have, topics = {(f[0], f[2]) for f in kept}, {f[0] for f in kept}
        paths[name] = folder / f"{name}.qrels"
        paths[name].write_text("".join(" ".join(f) + "\n" for f in kept))
        paths[f"{name}_merged"] = folder / f"{name}_merged.qrels"
        paths[f"{name}_merged"].write_text("".join(" ".join(f) + "\n" for f in kept + [
            f for f in llm if f[0] in topics and (f[0], f[2]) not in have]))
        paths[f"{name}_holes"] = len(lines) - len(kept)
    return paths


def _score(capsys, world, *extra, merged=False):
    suffix = "_merged" if merged else ""
    status = main(["score", "--judge", f"alice={world['alice' + suffix]}",
                   "--judge", f"bob={world['bob' + suffix]}", *MEASURES, "--per-judge",
                   "--per-topic", "--format", "csv", *map(str, extra),
                   *map(str, world["runs"])])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("option", [[], ["--judged-only"]], ids=["holes", "judged-only"])
def test_fill_equals_scoring_the_merged_qrels(world, capsys, option):
    status, filled, err = _score(capsys, world, "--fill", world["llm"], *option)
    assert status == 0
    assert f"{world['alice_holes']} unlabelled documents of judge alice on its 10 topics" in err
    assert f"{world['bob_holes']} unlabelled documents of judge bob on its 15 topics" in err
    _, by_hand, _ = _score(capsys, world, *option, merged=True)
    _, unfilled, _ = _score(capsys, world, *option)
    assert filled == by_hand                            # every judge and the pooled all:raw
    frames = [pd.read_csv(io.StringIO(t)) for t in (filled, unfilled)]
    differs = frames[0]["value"].ne(frames[1]["value"]).groupby(frames[0]["judge"]).any()
    assert differs.to_dict() == {"alice": True, "all:raw": True, "bob": True}


def test_the_python_api_fills_the_same(world, capsys):
    _, filled, _ = _score(capsys, world, "--fill", world["llm"], "--judged-only")
    llm = pd.read_csv(world["llm"], sep=" ", header=None, names=["topic", "x", "doc", "grade"],
                      dtype={"topic": str, "doc": str})[["topic", "doc", "grade"]]
    for fill in (world["llm"], llm):
        with pytest.warns(Warning):
            out = score([str(r) for r in world["runs"]],
                        judges={"alice": world["alice"], "bob": world["bob"]}, fill=fill,
                        measures=["nDCG@10", "P@10", "AP"], per_judge=True, per_topic=True,
                        judged_only=True)
        assert out.to_csv(index=False, na_rep="nan", lineterminator="\n") == filled
        assert any("unlabelled documents of judge bob" in n for n in out.attrs["notes"])


def test_fill_with_qrels_is_refused(world, capsys):
    status = main(["score", "--qrels", str(world["alice"]), "--fill", str(world["llm"]),
                   "--measure", "P@10", *map(str, world["runs"])])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and "--fill fills each judge's holes" in err
    assert len(err.strip().splitlines()) == 1
