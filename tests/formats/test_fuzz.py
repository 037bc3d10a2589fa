"""Fuzzing every reader: arbitrary bytes raise InputError and nothing else.

Bounded by hypothesis' ``max_examples`` (FUZZ_EXAMPLES per reader).
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalkit.errors import InputError
from evalkit.formats import clusters as cluster_files
from evalkit.formats import orderings as ordering_files
from evalkit.formats import trec

FUZZ_EXAMPLES = 300
SETTINGS = settings(max_examples=FUZZ_EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

TOKENS = st.sampled_from(["1", "171", "MB171", "0", "Q0", "L2", "-1", "2.5", "nan", "inf", "doc",
                          "x", "9" * 30, "\t", " ", ",", "\r", "\ufeff", "\x00", "é", "set",
                          "assessor", "position", "item", "A", "s1"])
LINES = st.lists(st.lists(TOKENS, max_size=8).map(" ".join), max_size=12).map("\n".join)
CONTENT = st.one_of(LINES.map(str.encode), st.binary(max_size=300))
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 10**20), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["topics", "MB171", "clusters", "x"]),
                                            inner, max_size=3)),
    max_leaves=20,
)


def _fuzz(reader, path, content) -> bool:
    """True if ``reader`` accepted the bytes or refused them with an InputError naming the file.

    Any other exception type propagates and fails the test.
    """
    path.write_bytes(content)
    try:
        return reader(path) is not None
    except InputError as exc:
        return exc.path == str(path) and str(path) in str(exc)


@SETTINGS
@given(CONTENT)
def test_fuzz_qrels(tmp_path, content):
    assert _fuzz(trec.read_qrels, tmp_path / "q.txt", content)


@SETTINGS
@given(CONTENT)
def test_fuzz_run(tmp_path, content):
    assert _fuzz(trec.read_run, tmp_path / "r.txt", content)


@SETTINGS
@given(st.one_of(CONTENT, CONTENT.map(lambda b: b"set,assessor,position,item\n" + b.replace(b" ", b","))))
def test_fuzz_orderings(tmp_path, content):
    assert _fuzz(ordering_files.read_orderings, tmp_path / "o.csv", content)


@SETTINGS
@given(st.one_of(CONTENT, JSONISH.map(lambda v: json.dumps(v).encode())))
def test_fuzz_clusters(tmp_path, content):
    assert _fuzz(cluster_files.read_clusters, tmp_path / "c.json", content)
