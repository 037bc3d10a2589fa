"""A catalogue of malformed and hostile inputs, one row each.

Every row asserts the documented error type (:class:`evalkit.errors.InputError`,
or its subclass ``ParameterError``) and that the message names where the
problem is: the file and the line, the file alone (whole-file problems), or
the parameter.  Accepted-by-design inputs (UTF-8 BOM, CRLF line endings) are
tested in ``tests/formats/test_trec.py``.
"""

import gzip
import os

import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.formats import clusters as cluster_files
from evalkit.formats import orderings as ordering_files
from evalkit.formats import preferences as preference_files
from evalkit.formats import ratings as rating_files
from evalkit.formats import trec
from evalkit.measures import aggregation, discriminativeness
from evalkit.papers import kim2010_ordering_aggregation as kim
from evalkit.papers import sakai2017_unanimity_gain as sakai
from evalkit.papers import wang2015_assessor_differences as wang_ad

QRELS_OK = "171 0 100 1\n171 0 101 2\n"
RUN_HEADER = "set,assessor,position,item\n"
PREF_HEADER = ",".join(preference_files.PREFERENCE_COLUMNS) + "\n"


def _file(tmp, name, content):
    path = tmp / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def _ttg_world(tmp, qrels):
    (tmp / "runs").mkdir()
    _file(tmp, "qrels.txt", qrels)
    return lambda: wang_ad.load_world(tmp)


def _run_folder_with_outside_link(tmp):
    (tmp / "runs").mkdir()
    outside = _file(tmp, "elsewhere.txt", "1 Q0 a 1 1.0 t\n")
    os.symlink(outside, tmp / "runs" / "r.txt")
    return lambda: trec.read_runs(tmp / "runs")


# (id, builder(tmp) -> zero-argument call, what the message must name: "line", "file" or a parameter)
CASES = [
    ("qrels: empty file", lambda t: lambda: trec.read_qrels(_file(t, "q", "")), "file"),
    ("qrels: whitespace only", lambda t: lambda: trec.read_qrels(_file(t, "q", " \n\t\n")), "file"),
    ("qrels: three fields", lambda t: lambda: trec.read_qrels(_file(t, "q", "1 0 a\n")), "line"),
    ("qrels: grade not a number", lambda t: lambda: trec.read_qrels(_file(t, "q", "1 0 a high\n")), "line"),
    ("qrels: fractional grade", lambda t: lambda: trec.read_qrels(_file(t, "q", "1 0 a 1.5\n")), "line"),
    ("qrels: document given two grades", lambda t: lambda: trec.read_qrels(_file(t, "q", "1 0 a 1\n1 0 a 0\n")), "line"),
    ("qrels: header line", lambda t: lambda: trec.read_qrels(
        _file(t, "q", "query_id iteration doc_id relevance\n1 0 a 1\n")), "line"),
    ("qrels: header line and nothing else", lambda t: lambda: trec.read_qrels(
        _file(t, "q", "query_id iteration doc_id relevance\n"), skip_header=True), "line"),
    ("qrels: truncated gzip", lambda t: lambda: trec.read_qrels(
        _file(t, "q", gzip.compress(QRELS_OK.encode(), mtime=0)[:-6])), "file"),
    ("qrels: zstd", lambda t: lambda: trec.read_qrels(_file(t, "q", b"\x28\xb5\x2f\xfd" + b"\0" * 9)), "file"),
    ("qrels: non-UTF-8 bytes", lambda t: lambda: trec.read_qrels(_file(t, "q", b"1 0 \xe9 1\n")), "line"),
    ("qrels: NUL byte", lambda t: lambda: trec.read_qrels(_file(t, "q", "1 0 a\x00 1\n")), "line"),
    ("qrels: missing file", lambda t: lambda: trec.read_qrels(t / "nope.txt"), "file"),
    ("qrels: a directory", lambda t: lambda: trec.read_qrels(t), "file"),
    ("run: five fields", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1 1.0\n")), "line"),
    ("run: rank not an integer", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1.5 1.0 t\n")), "line"),
    ("run: score not a number", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1 x t\n")), "line"),
    ("run: NaN score", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1 NaN t\n")), "line"),
    ("run: infinite score", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1 -inf t\n")), "line"),
    ("run: document twice", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1 1 t\n1 Q0 a 2 0 t\n")), "line"),
    ("run: header line", lambda t: lambda: trec.read_run(
        _file(t, "r", "qid Q0 docno rank score tag\n1 Q0 a 1 1 t\n")), "line"),
    ("run: two tags in one file", lambda t: lambda: trec.read_run(_file(t, "r", "1 Q0 a 1 1 t\n1 Q0 b 2 0 u\n")), "file"),
    ("run: topic not in qrels", lambda t: lambda: trec.read_run(
        _file(t, "r", "9 Q0 a 1 1 t\n"), qrels=trec.read_qrels(_file(t, "q", QRELS_OK))), "file"),
    ("run: symlink outside the run folder", _run_folder_with_outside_link, "file"),
    ("run: empty run folder", lambda t: (t / "runs").mkdir() or (lambda: trec.read_runs(t / "runs")), "file"),
    ("clusters: malformed JSON", lambda t: lambda: cluster_files.read_clusters(_file(t, "c", '{"topics": {,}}')), "line"),
    ("clusters: JSON nesting bomb", lambda t: lambda: cluster_files.read_clusters(_file(t, "c", "[" * 200000)), "file"),
    ("clusters: tweet in two clusters", lambda t: lambda: cluster_files.read_clusters(
        _file(t, "c", '{"topics": {"MB1": {"clusters": [[1], [1]]}}}')), "file"),
    ("clusters: clustered tweet not relevant", lambda t: lambda: cluster_files.read_clusters(
        _file(t, "c", '{"topics": {"MB171": {"clusters": [[999]]}}}'),
        trec.read_qrels(_file(t, "q", QRELS_OK))), "file"),
    ("clusters: topics not an object", lambda t: lambda: cluster_files.read_clusters(_file(t, "c", '{"topics": 3}')), "file"),
    ("clusters: null tweet id", lambda t: lambda: cluster_files.read_clusters(
        _file(t, "c", '{"topics": {"MB1": {"clusters": [[null]]}}}')), "file"),
    ("ttg: huge tweet id", lambda t: _ttg_world(t, "171 0 99999999999999999999 1\n"), "file"),
    ("ttg: tweet id not a number", lambda t: _ttg_world(t, "171 0 tweet-1 1\n"), "file"),
    ("orderings: wrong header", lambda t: lambda: ordering_files.read_orderings(_file(t, "o", "a,b,c,d\n")), "line"),
    ("orderings: position not a number", lambda t: lambda: ordering_files.read_orderings(
        _file(t, "o", RUN_HEADER + "S,A,first,x\n")), "line"),
    ("orderings: position twice", lambda t: lambda: ordering_files.read_orderings(
        _file(t, "o", RUN_HEADER + "S,A,1,x\nS,A,1,y\n")), "line"),
    ("orderings: repeated item", lambda t: lambda: ordering_files.read_orderings(
        _file(t, "o", RUN_HEADER + "S,A,1,x\nS,A,2,x\n")), "line"),
    ("orderings: gap in positions", lambda t: lambda: ordering_files.read_orderings(
        _file(t, "o", RUN_HEADER + "S,A,1,x\nS,A,3,y\nS,B,1,x\nS,B,2,y\n")), "line"),
    ("orderings: one judgment in a set", lambda t: lambda: ordering_files.read_orderings(
        _file(t, "o", RUN_HEADER + "S,A,1,x\nS,A,2,y\n")), "line"),
    ("orderings: not a permutation", lambda t: lambda: ordering_files.read_orderings(
        _file(t, "o", RUN_HEADER + "S,A,1,x\nS,A,2,y\nS,B,1,x\nS,B,2,z\n")), "line"),
    ("ratings: ragged line", lambda t: lambda: rating_files.read_ratings(_file(t, "s", "p r 1 2\np s 1\n")), "line"),
    ("ratings: not a whole number", lambda t: lambda: rating_files.read_ratings(_file(t, "s", "p r 1 2.5\n")), "line"),
    ("ratings: above dmax", lambda t: lambda: rating_files.read_ratings(_file(t, "s", "p r 1 3\n"), dmax=2), "line"),
    ("ratings: item twice", lambda t: lambda: rating_files.read_ratings(_file(t, "s", "p r 1 2\np r 0 0\n")), "line"),
    ("preferences: unknown run", lambda t: lambda: preference_files.read_preferences(
        _file(t, "p", PREF_HEADER + "A1,1,1,f1,171,r1,ghost,left,3\n"), runs={"r1"}), "line"),
    ("preferences: choice outside left/right/neither", lambda t: lambda: preference_files.read_preferences(
        _file(t, "p", PREF_HEADER + "A1,1,1,f1,171,r1,r2,both,3\n")), "line"),
    ("preferences: negative seconds", lambda t: lambda: preference_files.read_preferences(
        _file(t, "p", PREF_HEADER + "A1,1,1,f1,171,r1,r2,left,-1\n")), "line"),
    ("preferences: pair judged twice", lambda t: lambda: preference_files.read_preferences(
        _file(t, "p", PREF_HEADER + "A1,1,1,f1,171,r1,r2,left,1\nA1,1,1,f1,171,r2,r1,left,1\n")), "line"),
    ("parameter: p = 1.5", lambda t: lambda: sakai.NOTEBOOK.check(p=1.5), "p"),
    ("parameter: trials = 0", lambda t: lambda: sakai.NOTEBOOK.check(trials=0), "trials"),
    ("parameter: empty N grid", lambda t: lambda: sakai.NOTEBOOK.check(n_grid=[]), "n_grid"),
    ("parameter: noise ratio below 0", lambda t: lambda: discriminativeness.add_noise(["ab", "ba"], -0.5, 0), "ratio"),
    ("parameter: noisy ratio 0", lambda t: lambda: kim.NOTEBOOK.check(noisy_ratio=0), "noisy_ratio"),
    ("parameter: min_len > max_len", lambda t: lambda: aggregation.frespa("abc", ["abc"], min_len=3, max_len=2), "min_len"),
    ("parameter: min_sup outside [0, 1]", lambda t: lambda: aggregation.frespa("abc", ["abc"], min_sup=-0.1), "min_sup"),
]


def test_catalogue_has_at_least_30_distinct_cases():
    assert len({c[0] for c in CASES}) == len(CASES) >= 30


@pytest.mark.parametrize("name, build, where", CASES, ids=[c[0] for c in CASES])
def test_hostile_input_is_refused_clearly(tmp_path, name, build, where):
    call = build(tmp_path)
    with pytest.raises(InputError) as info:
        call()
    err = info.value
    if where in ("line", "file"):
        assert err.path is not None and err.path in str(err), name
        assert err.path.startswith(str(tmp_path)), name
        if where == "line":
            assert err.line is not None and f"line {err.line}" in str(err), name
    else:
        assert isinstance(err, ParameterError) and f"parameter {where} = " in str(err), name
