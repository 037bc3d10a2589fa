"""Document codes told apart per topic (``Interned.block_codes``, ``run_table(...,
groups=...)``: the scoring engine's read) against a plain Python reference.

The promise: in each block of rows (a run file's topic) an id of the block's
group (the topic's judged documents) gets its place in the vocabulary, as with
``Interned.codes``; any other id, in the vocabulary or not, gets ``V + j`` for
the ``j``-th (block, id) pair in order of first appearance, so equal codes are
equal ids, and within a block equal ids are equal codes.  On a run file this
keeps every check of the reader (a document twice for a topic is still refused,
with the same message) and every value the scoring reads.
"""

from __future__ import annotations

import numpy as np
import pytest

from evalkit.formats import run_table as run_table_module
from evalkit.formats import trec
from evalkit.formats._intern import Interned
from evalkit.formats._scan import _line_feeds
from evalkit.errors import InputError

from .test_scan import POOL, POOL_DOCS, TOPICS, awkward_run, colliding, hashed_ids, spans  # noqa: F401
from .test_scan import plain_parse, write_run


def per_block_reference(names, tokens, heads, held):
    """``(codes, first)`` from the promise, one token at a time; ``held[b]``: the names of
    block ``b``'s group."""
    place = {name: i for i, name in enumerate(names)}
    codes, first, pairs = [], [], {}
    bounds = list(heads) + [len(tokens)]
    for b in range(len(heads)):
        for row in range(bounds[b], bounds[b + 1]):
            token = tokens[row]
            if token in held[b]:
                codes.append(place[token])
            else:
                if (b, token) not in pairs:
                    pairs[b, token] = len(first)
                    first.append(row)
                codes.append(len(names) + pairs[b, token])
    return codes, first


def grouped(interned: Interned, groups: dict):
    """``interned.groups`` of ``{group name: [vocabulary names]}``."""
    place = {name: i for i, name in enumerate(interned.names.tolist())}
    codes = [place[n] for members in groups.values() for n in members]
    offsets = np.cumsum([0] + [len(members) for members in groups.values()])
    return interned.groups(list(groups), offsets, codes)


def assert_blocks_match(names, tokens, heads, groups, block_names):
    buf, starts, ends = spans(tokens, "\n")
    interned = Interned(names)
    codes, first = interned.block_codes(buf, starts, ends, heads, grouped(interned, groups),
                                        block_names)
    held = [set(groups.get(b, ())) for b in block_names]
    assert (codes.tolist(), first.tolist()) == per_block_reference(names, tokens, heads, held)
    return codes


def test_block_codes_equal_the_reference_on_random_columns():
    rng = np.random.default_rng(16)
    pool = POOL + [f"clueweb12-{i:04d}" for i in range(300)]
    for _ in range(60):
        names = list(rng.choice(pool, size=int(rng.integers(0, 60)), replace=False))
        tokens = list(rng.choice(pool, size=int(rng.integers(1, 400))))
        cuts = rng.choice(np.arange(1, len(tokens)), size=min(len(tokens) - 1,
                                                              int(rng.integers(0, 12))),
                          replace=False) if len(tokens) > 1 else []
        heads = [0, *sorted(int(c) for c in cuts)]
        # groups: random subsets of the vocabulary, some shared, some empty; some blocks
        # name a group that is not there (a topic without judgments)
        groups = {f"t{g}": [n for n in names if rng.random() < 0.6] for g in range(4)}
        block_names = [f"t{int(rng.integers(0, 6))}" for _ in heads]
        assert_blocks_match(names, tokens, heads, groups, block_names)


def test_every_block_with_the_whole_vocabulary():
    names = ["v0", "v1"]
    big = [f"n{i}" for i in range(3000)]                # the block's own table grows to it
    tokens = ["x", "v1", "x", *big, "x", "v0", *big[:5], "x"]
    heads = [0, 3, 3 + len(big) + 2]
    codes = assert_blocks_match(names, tokens, heads, {"all": names}, ["all"] * 3)
    # "x" in the first and the last block: a code in each, the same within each
    assert codes[0] == codes[2] != codes[-1]
    assert codes[1] == 1 and codes[3 + len(big) + 1] == 0


def test_a_vocabulary_id_outside_its_block_group_gets_a_code_of_the_block():
    names = ["v0", "v1", "v2"]
    tokens = ["v0", "v1", "v1", "v2", "v0", "v0"]
    codes = assert_blocks_match(names, tokens, [0, 3, 5], {"a": ["v0"], "b": ["v1", "v2"]},
                                ["a", "b", "none"])
    assert codes.tolist() == [0, 3, 3, 2, 4, 5]


@pytest.mark.parametrize("names", [[], ["A"], ["B"], ["x", "A", "B"]])
def test_colliding_ids_get_different_codes_in_a_block(colliding, names):
    a, b = colliding
    put = {"A": a, "B": b}
    tokens = ["A", "B", "A", "B", "B", "A"]
    vocabulary = [put.get(n, n) for n in names]
    assert_blocks_match(vocabulary, [put[t] for t in tokens], [0, 3], {"t": vocabulary},
                        ["t", "t"])
    assert_blocks_match(vocabulary, [put[t] for t in tokens], [0, 3], {"t": vocabulary[:1]},
                        ["t", "u"])


def test_line_feeds_are_counted_as_bytes_count_them():
    for raw in (b"", b"\n", b"a b\nc", b"a\r\n\n\nb\n", "\u4e2d\n".encode() * 1000):
        buf = np.frombuffer(raw or b"\0", dtype=np.uint8)[:len(raw)]
        assert _line_feeds(buf) == raw.count(b"\n")


def _vocabulary():
    return Interned(POOL_DOCS[::3] + ["not-in-run"])


def _judged(vocabulary: Interned, topics=("7", "8", *TOPICS)) -> dict:
    """Each topic judges a different part of the vocabulary (topic 8 none of it)."""
    names = vocabulary.names.tolist()
    return {t: names[i::3] if t != "8" else [] for i, t in enumerate(topics)}


def test_a_run_read_per_topic_gives_every_row_its_document(tmp_path):
    raw = awkward_run(np.random.default_rng(17), TOPICS, 40, POOL_DOCS)
    path = write_run(tmp_path, raw)
    vocabulary = _vocabulary()
    members = _judged(vocabulary)
    groups = grouped(vocabulary, members)
    whole = trec.run_table(path, vocabulary=vocabulary, compiled=True)
    blocks = trec.run_table(path, vocabulary=vocabulary, compiled=True, groups=groups)
    expected = plain_parse(raw)
    assert blocks.docs[blocks.doc_code].tolist() == expected["doc"]
    assert blocks.doc_ids(blocks.doc_code) == expected["doc"]
    known = len(vocabulary)
    topic = np.asarray(blocks.topics)[blocks.topic_code]
    judged = np.array([doc in members.get(t, ()) for t, doc in zip(topic.tolist(), expected["doc"])])
    assert 0 < judged.sum() < (whole.doc_code < known).sum()    # some, not every, known doc
    assert np.array_equal(blocks.doc_code[judged], whole.doc_code[judged])
    assert (blocks.doc_code[~judged] >= known).all()
    assert len(blocks.docs) > len(whole.docs)           # a document in two topics: two codes
    for column in ("topic_code", "rank", "score"):
        assert np.array_equal(getattr(blocks, column), getattr(whole, column))


def test_a_document_twice_for_a_topic_is_refused_alike(tmp_path):
    lines = [f"7 Q0 doc{i} {i} {10 - i} r" for i in range(1, 6)] + ["8 Q0 doc1 1 9 r",
                                                                     "8 Q0 doc1 2 8 r"]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(lines) + "\n")
    messages = []
    vocabulary = _vocabulary()
    for groups in (None, grouped(vocabulary, _judged(vocabulary))):
        with pytest.raises(InputError) as caught:
            trec.run_table(path, vocabulary=vocabulary, compiled=True, groups=groups)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert "document doc1 is listed twice for topic 8" in messages[0]


def test_topics_in_several_blocks_are_read_with_distinct_codes(tmp_path):
    # topic 7, then 8, then 7 again: a per-topic table would miss doc1 twice for topic 7
    lines = ["7 Q0 doc1 1 9 r", "8 Q0 doc2 1 9 r", "7 Q0 doc1 2 8 r"]
    path = tmp_path / "run.txt"
    path.write_text("\n".join(lines) + "\n")
    raw = path.read_bytes()
    vocabulary = _vocabulary()
    groups = grouped(vocabulary, _judged(vocabulary))
    table = run_table_module._scanned_run(path, raw, vocabulary, groups)
    assert table is None                                # the repeat: the column-wise reader
    with pytest.raises(InputError, match="document doc1 is listed twice for topic 7"):
        trec.run_table(path, vocabulary=vocabulary, compiled=True, groups=groups)
    fine = tmp_path / "fine.txt"
    fine.write_text("7 Q0 doc1 1 9 r\n8 Q0 doc1 1 9 r\n7 Q0 doc3 2 8 r\n")
    table = run_table_module._scanned_run(fine, fine.read_bytes(), vocabulary, groups)
    assert table.doc_code.tolist() == [table.doc_code[0], table.doc_code[0], table.doc_code[2]]

