"""The compiled run scanner (`_scan`, `_intern` in evalkit.formats) against Python's answers.

Each function of the scanner promises the answer Python gives, and is
checked here against it, on hand-picked edge tokens and on many generated
ones (seeded ``np.random.default_rng`` and hypothesis):

* ``split_fields`` against ``str.split()`` on each line of ``str.splitlines()``;
* ``parse_ints`` against ``int(token)`` and ``parse_floats`` against
  ``float(token)``, bit for bit (-0.0 is not 0.0): a token not marked slow
  must have Python's value, and tokens inside the fast path must not be slow;
* ``Interned.codes`` against ``pd.factorize`` of the vocabulary followed by
  the tokens, including two ids with the same 32-bit hash (a real collision,
  found by a birthday search over generated ids) and ids sharing a table slot;
* ``first_other`` against a Python loop;
* ``trec.run_table`` / ``trec.read_run`` end to end against a plain
  line-by-line parse (``line.split()``, ``int``, ``float``).
"""

from __future__ import annotations

import re

import numba
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalkit.formats import _intern, run_table, trec
from evalkit.formats._columns import _simple, checked_bytes
from evalkit.formats._intern import Interned
from evalkit.formats._scan import POW10, first_other, parse_floats, parse_ints, split_fields

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None)


# ---------------------------------------------------------------- helpers

def spans(tokens, sep=" "):
    """``(buf, starts, ends)`` of ``tokens`` written one after another with ``sep`` between."""
    encoded = [t.encode("utf-8") for t in tokens]
    lengths = np.array([len(t) for t in encoded], dtype=np.int64)
    step = lengths + len(sep.encode("utf-8"))
    starts = np.concatenate([[0], np.cumsum(step)[:-1]]).astype(np.int64)
    raw = sep.encode("utf-8").join(encoded) + sep.encode("utf-8")
    return np.frombuffer(raw or b"\0", dtype=np.uint8), starts, starts + lengths


def bits(x) -> int:
    """The 64 bits of a double: equal bits, equal value (and -0.0 differs from 0.0)."""
    return int(np.float64(x).view(np.uint64))


def python_value(parse, token):
    try:
        return parse(token)
    except ValueError:
        return None


def assert_ints_match_python(tokens):
    buf, starts, ends = spans(tokens)
    values, slow = parse_ints(buf, starts, ends)
    wrong = [(t, int(v)) for t, v, s in zip(tokens, values, slow)
             if not s and python_value(int, t) != int(v)]
    assert wrong == [], "parse_ints differs from int() on these tokens"
    return slow


def assert_floats_match_python(tokens):
    buf, starts, ends = spans(tokens)
    values, slow = parse_floats(buf, starts, ends, POW10)
    wrong = []
    for t, v, s in zip(tokens, values, slow):
        if not s:
            p = python_value(float, t)
            if p is None or bits(p) != bits(v):
                wrong.append((t, float(v), p))
    assert wrong == [], "parse_floats differs from float() on these tokens"
    return slow


def factorized(names, tokens):
    """Codes and first rows of new ids as pandas gives them."""
    codes = pd.factorize(np.concatenate([np.asarray(names, dtype=object),
                                         np.asarray(tokens, dtype=object)]))[0][len(names):]
    seen, first = set(), []
    for row, code in enumerate(codes.tolist()):
        if code >= len(names) and code not in seen:
            seen.add(code)
            first.append(row)
    return codes.tolist(), first


def assert_codes_match_pandas(names, tokens, expected=None):
    buf, starts, ends = spans(tokens, "\n")
    codes, first = Interned(names).codes(buf, starts, ends, expected=expected)
    assert (codes.tolist(), first.tolist()) == factorized(names, tokens)


def python_fields(raw: bytes, n: int):
    """The rows ``str.split()`` gives on each line of ``str.splitlines()``, up to the first
    non-blank line without ``n`` fields; and whether every non-blank line had ``n``."""
    rows = []
    for line in raw.decode("utf-8").splitlines():
        fields = line.split()
        if not fields:
            continue
        if len(fields) != n:
            return rows, False
        rows.append(fields)
    return rows, True


def scanned_fields(raw: bytes, n: int):
    starts, ends, ok = split_fields(np.frombuffer(raw or b"\0", dtype=np.uint8)[:len(raw)], n)
    assert starts.shape == ends.shape == (n, starts.shape[1])
    rows = [[raw[starts[k, r]:ends[k, r]].decode("utf-8") for k in range(n)]
            for r in range(starts.shape[1])]
    return rows, bool(ok)


# ---------------------------------------------------------------- split_fields

TOKEN_CHARS = [chr(c) for c in range(33, 127)] + ["é", "ü", "中", "١", "\U0001f600"]
BLANKS = [" ", "\t", "  ", " \t ", "\t\t"]


def random_simple_file(rng, n, lines=40, bad_at=None):
    """A file of simple white space: runs of spaces/tabs between fields, LF or CRLF line
    ends, blank and white-space-only lines, maybe no final line end; line ``bad_at`` has
    a field count other than ``n``."""
    out = []
    for i in range(lines):
        if rng.random() < 0.15:
            out.append(rng.choice(["", " ", "\t", " \t "]))
        else:
            count = n if i != bad_at else int(rng.choice([c for c in range(0, n + 3) if c != n]))
            fields = ["".join(rng.choice(TOKEN_CHARS, size=int(rng.integers(1, 6))))
                      for _ in range(count)]
            lead = rng.choice(["", "", " ", "\t"])
            trail = rng.choice(["", "", " ", "\t "])
            out.append(lead + "".join(f + (rng.choice(BLANKS) if j < count - 1 else "")
                                      for j, f in enumerate(fields)) + trail)
        out.append(rng.choice(["\n", "\r\n"]))
    if rng.random() < 0.5:
        out.pop()                                 # no line end after the last line
    raw = "".join(out).encode("utf-8")
    assert _simple(raw, raw.isascii())             # the scanner's precondition
    return raw


@pytest.mark.parametrize("n", [1, 2, 6])
def test_split_fields_equals_str_split_on_random_simple_files(n):
    rng = np.random.default_rng(n)
    for _ in range(60):
        raw = random_simple_file(rng, n)
        assert scanned_fields(raw, n) == python_fields(raw, n)


def test_split_fields_stops_at_first_line_with_other_field_count():
    rng = np.random.default_rng(11)
    stops = 0
    for _ in range(80):
        raw = random_simple_file(rng, 6, lines=30, bad_at=int(rng.integers(0, 30)))
        expected = python_fields(raw, 6)
        stops += not expected[1]
        assert scanned_fields(raw, 6) == expected
    assert stops > 40                              # the bad line is usually not a blank one


@pytest.mark.parametrize("raw, rows, ok", [
    (b"", [], True),
    (b" \t\r\n\n  \r\n", [], True),
    (b"a b", [["a", "b"]], True),
    (b"a b\r\n", [["a", "b"]], True),
    (b"\ta\t\tb \r\n\r\nc d\n", [["a", "b"], ["c", "d"]], True),
    (b"a b\nc\nd e\n", [["a", "b"]], False),
    (b"a b\nc d e\nf g\n", [["a", "b"]], False),
    (b"a b\nc", [["a", "b"]], False),
    ("é ü\n中 \U0001f600".encode(), [["é", "ü"], ["中", "\U0001f600"]], True),
])
def test_split_fields_edge_files(raw, rows, ok):
    assert python_fields(raw, 2) == (rows, ok)    # the expectation is Python's
    assert scanned_fields(raw, 2) == (rows, ok)


@SETTINGS
@given(st.lists(st.tuples(st.lists(st.text(st.sampled_from("ab1.é\u4e2d"), min_size=1, max_size=3),
                                   min_size=0, max_size=4),
                          st.sampled_from([" ", "\t", " \t"]),
                          st.sampled_from(["\n", "\r\n"])), max_size=12),
       st.integers(1, 3))
def test_split_fields_equals_str_split_hypothesis(lines, n):
    raw = "".join(sep.join(fields) + end for fields, sep, end in lines).encode("utf-8")
    assert scanned_fields(raw, n) == python_fields(raw, n)


# ---------------------------------------------------------------- parse_ints

INT_EDGES = ["0", "-0", "+7", "007", "1_000", "999999999999999999", "-999999999999999999",
             "000000000000000001", "9999999999999999999", "0000000000000000001", "", "-", "+",
             "+-1", "--1", "1.0", "1e3", " 1", "١٢", "１２", "0x10", "12a", "a12"]


def test_parse_ints_edge_tokens():
    slow = assert_ints_match_python(INT_EDGES)
    fast = [t for t, s in zip(INT_EDGES, slow) if not s]
    assert fast == ["0", "-0", "+7", "007", "999999999999999999", "-999999999999999999",
                    "000000000000000001"]


def test_parse_ints_random_ints_of_up_to_18_digits_are_read_exactly():
    rng = np.random.default_rng(1)
    tokens = []
    for _ in range(20000):
        digits = int(rng.integers(1, 19))
        body = "".join(rng.choice(list("0123456789"), size=digits))
        tokens.append(str(rng.choice(["", "+", "-"])) + body)
    slow = assert_ints_match_python(tokens)
    assert not slow.any()                          # all inside the fast path


def test_parse_ints_19_digits_or_more_are_slow():
    rng = np.random.default_rng(2)
    tokens = [str(rng.choice(["", "+", "-"])) + "".join(rng.choice(list("0123456789"), size=k))
              for k in rng.integers(19, 40, size=2000)]
    assert assert_ints_match_python(tokens).all()


@SETTINGS
@given(st.lists(st.text(st.sampled_from("0123456789+-_.e ١"), min_size=1, max_size=21),
                min_size=1, max_size=40))
def test_parse_ints_never_differs_from_int_hypothesis(tokens):
    assert_ints_match_python(tokens)


def test_parse_ints_empty_span_is_slow_whatever_byte_follows():
    # int("") raises: an empty span must be slow, also when the byte at its start is a sign
    for raw in (b"-5", b"+5", b"5", b" "):
        values, slow = parse_ints(np.frombuffer(raw, dtype=np.uint8), np.array([0]), np.array([0]))
        assert slow.tolist() == [True], raw


# ---------------------------------------------------------------- parse_floats

FLOAT_EDGES = ["0", "-0", "-0.0", "+0", ".5", "5.", "+.5e-3", "1e22", "1e23", "1e-22", "1e-23",
               "-1e22", "9007199254740992", "9007199254740993", "900719925474099",
               "123456789012345678", "00000000000000000000001.5", "1.7976931348623157e308",
               "4.9e-324", "2.2250738585072014e-308", "1e", "e5", ".", "-", "+", "-.", ".e1",
               "inf", "-inf", "nan", "Infinity", "1_0.5", "0x10", "1e+05", "1E5", "1e-05",
               "1e+", "1e-", "1.2.3", "1e5.5", "1e0005", "1e00005", "0e9999", "-0e-9999",
               "0.0000000000000000000000001e30", "5.481336", "0.1", "0.3", "-2.5", "1d5",
               "١.٥", " 1.5"]


def test_parse_floats_edge_tokens():
    slow = assert_floats_match_python(FLOAT_EDGES)
    fast = {t for t, s in zip(FLOAT_EDGES, slow) if not s}
    # inside Clinger's fast path (digits below 2^53, power of ten at most 22) or zero
    assert {"0", "-0", "-0.0", "+0", ".5", "5.", "+.5e-3", "1e22", "1e-22", "-1e22",
            "900719925474099", "00000000000000000000001.5", "1e+05", "1E5", "1e-05",
            "1e0005", "0e9999", "-0e-9999", "0.0000000000000000000000001e30", "5.481336",
            "0.1", "0.3", "-2.5"} <= fast
    # not numbers for float(), or outside the fast path
    assert fast.isdisjoint({"1e23", "1e-23", "1.7976931348623157e308", "4.9e-324", "1e", "e5",
                            ".", "-", "+", "inf", "nan", "1_0.5", "0x10", "1e+", "1.2.3",
                            "9007199254740993", "123456789012345678", "١.٥"})


def test_parse_floats_keeps_the_sign_of_zero():
    buf, starts, ends = spans(["-0", "0", "-0.0e5", "+0.0", "-0e-9999"])
    values, slow = parse_floats(buf, starts, ends, POW10)
    assert not slow.any()
    assert [bits(v) for v in values] == [bits(-0.0), bits(0.0), bits(-0.0), bits(0.0), bits(-0.0)]


def random_doubles(rng, count):
    magnitudes = 10.0 ** rng.integers(-30, 30, size=count)
    return np.concatenate([rng.standard_normal(count) * magnitudes, rng.random(count),
                           rng.integers(-10**6, 10**6, size=count) / 1000.0])


def test_parse_floats_reprs_and_formats_of_random_doubles():
    rng = np.random.default_rng(3)
    tokens = []
    for x in random_doubles(rng, 4000).tolist():
        tokens += [repr(x), f"{x:.6f}", f"{x:.17g}", f"{x:.4e}", f"{x:g}"]
    slow = assert_floats_match_python(tokens)
    assert (~slow).sum() > len(tokens) // 3        # most short formats take the fast path


def random_decimal_token(rng):
    """Random digits, a point anywhere (or none), an optional exponent, optional sign and
    leading zeros; and whether Clinger's fast path must read it (at most 15 significant
    digits, power of ten within 22, exponent of at most 4 digits)."""
    digits = "".join(rng.choice(list("0123456789"), size=int(rng.integers(1, 22))))
    point = int(rng.integers(0, len(digits) + 1))
    body = digits if rng.random() < 0.2 else digits[:point] + "." + digits[point:]
    fraction = 0 if "." not in body else len(digits) - point
    exponent = 0
    if rng.random() < 0.5:
        exponent = int(rng.integers(-40, 41))
        body += str(rng.choice(["e", "E"])) + (str(rng.choice(["", "+"])) if exponent >= 0 else "")
        body += f"{exponent:0{int(rng.integers(1, 4))}d}" if exponent >= 0 else str(exponent)
    token = str(rng.choice(["", "+", "-"])) + body
    significant = digits.lstrip("0")
    fast = significant == "" or (len(significant) <= 15 and abs(exponent - fraction) <= 22)
    return token, fast


def test_parse_floats_random_decimal_tokens():
    rng = np.random.default_rng(4)
    tokens, fast = zip(*(random_decimal_token(rng) for _ in range(30000)))
    slow = assert_floats_match_python(list(tokens))
    missed = [t for t, f, s in zip(tokens, fast, slow) if f and s]
    assert missed == [], "tokens inside Clinger's fast path were left slow"
    assert sum(fast) > 5000


@SETTINGS
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=30))
def test_parse_floats_repr_of_any_double_hypothesis(values):
    assert_floats_match_python([repr(x) for x in values] + [f"{x:.6f}" for x in values])


@SETTINGS
@given(st.lists(st.text(st.sampled_from("0123456789+-.eE_x"), min_size=1, max_size=24),
                min_size=1, max_size=40))
def test_parse_floats_never_differs_from_float_hypothesis(tokens):
    assert_floats_match_python(tokens)


# ---------------------------------------------------------------- first_other

@pytest.mark.parametrize("tokens, row", [
    (["run"], -1), (["run", "run", "run"], -1), (["run", "run", "runs"], 2),
    (["run", "ru"], 1), (["run", "rum"], 1), (["a", "b", "a"], 1), (["é", "é", "e"], 2),
])
def test_first_other_edge_columns(tokens, row):
    assert first_other(*spans(tokens)) == row


def test_first_other_equals_python_loop_on_random_columns():
    rng = np.random.default_rng(5)
    for _ in range(300):
        tokens = ["tag"] * int(rng.integers(1, 30))
        if rng.random() < 0.7:
            tokens[int(rng.integers(0, len(tokens)))] = str(rng.choice(["tag1", "ta", "tah", "Tag"]))
        expected = next((r for r, t in enumerate(tokens) if t != tokens[0]), -1)
        assert first_other(*spans(tokens)) == expected


# ---------------------------------------------------------------- Interned

POOL = ["d1", "d2", "d10", "d", "doc-é", "doc-e", "中文", "x" * 40, "D1", "d1\u0301"]


def test_codes_equal_factorize_on_random_columns():
    rng = np.random.default_rng(6)
    pool = POOL + [f"clueweb12-{i:04d}" for i in range(200)]
    for _ in range(100):
        names = list(rng.choice(pool, size=int(rng.integers(0, 40)), replace=False))
        tokens = list(rng.choice(pool, size=int(rng.integers(1, 300))))
        tokens = [t for t in tokens for _ in range(int(rng.integers(1, 3)))]   # runs of one id
        assert_codes_match_pandas(names, tokens)


@SETTINGS
@given(st.lists(st.text(st.sampled_from("ab\u00e9\u4e2d"), min_size=1, max_size=4), unique=True,
                max_size=8),
       st.lists(st.text(st.sampled_from("ab\u00e9\u4e2d"), min_size=1, max_size=4), min_size=1,
                max_size=40))
def test_codes_equal_factorize_hypothesis(names, tokens):
    assert_codes_match_pandas(names, tokens)


@pytest.mark.parametrize("vocabulary", [0, 3, 1000])
def test_codes_table_grows_past_expected(vocabulary):
    rng = np.random.default_rng(7)
    names = [f"v{i}" for i in range(vocabulary)]
    ids = [f"n{i}" for i in range(5000)] + names[:50]
    tokens = list(rng.choice(ids, size=20000))
    assert_codes_match_pandas(names, tokens, expected=1)


def test_codes_of_the_vocabulary_itself_are_its_places():
    names = POOL + [f"w{i}" for i in range(3000)]
    buf, starts, ends = spans(names[::-1], "\n")
    codes, first = Interned(names).codes(buf, starts, ends)
    assert codes.tolist() == list(range(len(names)))[::-1]
    assert first.tolist() == []


def test_codes_leave_the_vocabulary_table_unchanged_between_files():
    vocabulary = Interned(["a", "b"])
    before = vocabulary._slots.copy()
    file1 = spans(["x", "a", "y", "x"], "\n")
    file2 = spans(["y", "b", "z", "y"], "\n")
    assert [c.tolist() for c in vocabulary.codes(*file1, expected=2)] == [[2, 0, 3, 2], [0, 2]]
    assert (vocabulary._slots == before).all()
    assert [c.tolist() for c in vocabulary.codes(*file2, expected=2)] == [[2, 1, 3, 2], [0, 2]]
    # a call with room for more ids (a bigger table), then the first file again
    many = spans([f"m{i}" for i in range(500)], "\n")
    assert vocabulary.codes(*many)[0].tolist() == list(range(2, 502))
    assert [c.tolist() for c in vocabulary.codes(*file1)] == [[2, 0, 3, 2], [0, 2]]


def test_codes_of_an_empty_column():
    buf = np.frombuffer(b"\0", dtype=np.uint8)
    empty = np.zeros(0, dtype=np.int64)
    for names in ([], ["a"]):
        codes, first = Interned(names).codes(buf, empty, empty)
        assert codes.tolist() == [] and first.tolist() == []


# ---------------------------------------------------------------- 32-bit hash collisions

@numba.njit
def _hashes(buf, starts, ends):
    out = np.empty(len(starts), dtype=np.uint64)
    for i in range(len(starts)):
        out[i] = _intern._hash(buf, starts[i], ends[i])
    return out


@pytest.fixture(scope="module")
def hashed_ids():
    """400,000 generated ids and their 32-bit hashes as the scanner computes them."""
    ids = [f"clueweb09-en{i:07d}" for i in range(400_000)]
    return ids, _hashes(*spans(ids, "\n"))


@pytest.fixture(scope="module")
def colliding(hashed_ids):
    """Two distinct ids with the same 32-bit hash (a birthday search)."""
    ids, hashes = hashed_ids
    order = np.argsort(hashes, kind="stable")
    same = np.flatnonzero(hashes[order][1:] == hashes[order][:-1])
    assert len(same), "no 32-bit collision among the generated ids"
    a, b = ids[order[same[0]]], ids[order[same[0] + 1]]
    return a, b


def test_hash_is_32_bits(hashed_ids):
    _, hashes = hashed_ids
    assert int(hashes.max()) < 2 ** 32
    assert int(hashes.max()) > 2 ** 31            # the high bits are used


def test_colliding_ids_really_collide(colliding):
    a, b = colliding
    assert a != b
    assert len(set(_hashes(*spans([a, b])).tolist())) == 1


@pytest.mark.parametrize("names, tokens", [
    ([], ["A", "B", "A", "B", "B", "A"]),
    ([], ["B", "A"]),
    (["A"], ["B", "A", "B"]),
    (["B"], ["A", "B", "A"]),
    (["A", "B"], ["B", "A"]),
    (["B", "A"], ["A", "A", "B"]),
    (["x", "A"], ["y", "B", "A", "B"]),
])
def test_colliding_ids_get_different_codes(colliding, names, tokens):
    a, b = colliding
    put = {"A": a, "B": b}
    assert_codes_match_pandas([put.get(n, n) for n in names], [put.get(t, t) for t in tokens])
    assert_codes_match_pandas([put.get(n, n) for n in names], [put.get(t, t) for t in tokens],
                              expected=1)


def slot_group(hashed_ids, low_bits, value, size):
    """``size`` ids whose hashes differ but agree on their low ``low_bits`` bits (``value``):
    one home slot in any table of up to 2**low_bits slots."""
    ids, hashes = hashed_ids
    where = np.flatnonzero((hashes & np.uint64(2 ** low_bits - 1)) == np.uint64(value))
    _, distinct = np.unique(hashes[where], return_index=True)
    group = [ids[i] for i in where[np.sort(distinct)][:size]]
    assert len(group) == size
    return group


@pytest.mark.parametrize("value", [0, 5, 2 ** 12 - 1])    # 2**12-1: the table's last slot, probing wraps
@pytest.mark.parametrize("expected", [None, 1])
def test_ids_sharing_a_home_slot_are_probed_linearly(hashed_ids, value, expected):
    group = slot_group(hashed_ids, 12, value, 40)
    rng = np.random.default_rng(value)
    names = list(rng.choice(group, size=10, replace=False))
    tokens = list(rng.choice(group, size=300))
    assert_codes_match_pandas(names, tokens, expected=expected)
    assert_codes_match_pandas([], tokens, expected=expected)


def test_colliding_ids_in_a_crowded_slot(hashed_ids, colliding):
    a, b = colliding
    ids, hashes = hashed_ids
    home = int(hashes[ids.index(a)]) & (2 ** 12 - 1)
    crowd = [i for i in slot_group(hashed_ids, 12, home, 22) if i not in (a, b)][:20]
    rng = np.random.default_rng(8)
    tokens = list(rng.choice(crowd + [a, b], size=400))
    assert_codes_match_pandas([b] + crowd[:5], tokens, expected=1)
    assert_codes_match_pandas([], tokens, expected=1)


# ---------------------------------------------------------------- run_table end to end

SCORES = ["1e-30", "1_0.5", "-0", "-0.0", "+.5e-3", "1E5", "5.", ".25", "5.481336",
          "123456789012345678901234.5", "1e23", "4.9e-324", "0.1",
          "-1.7976931348623157e308", "007.5e-1"]
RANKS = ["+3", "007", "1_0", "-2", "0", "999999999999999999", "1000000000000000000"]


def awkward_run(rng, topics, docs_per_topic, pool):
    """A valid run file with simple but uneven white space and awkward numbers."""
    out = []
    for topic in topics:
        docs = rng.choice(pool, size=docs_per_topic, replace=False)
        for rank, doc in enumerate(docs.tolist(), 1):
            if rng.random() < 0.2:
                out.append(str(rng.choice(["\n", "\r\n", " \t\n", "\t \r\n"])))
            rank_token = str(rng.choice(RANKS)) if rng.random() < 0.3 else str(rank)
            x = float(rng.standard_normal() * 10.0 ** rng.integers(-5, 5))
            score = str(rng.choice(SCORES + [repr(x), f"{x:.6f}", f"{x:.17g}"]))
            fields = [topic, "Q0", doc, rank_token, score, "my_run"]
            seps = rng.choice([" ", "\t", "  ", " \t"], size=5)
            out.append(str(rng.choice(["", "", " ", "\t"]))
                       + "".join(f + s for f, s in zip(fields, list(seps) + [""]))
                       + str(rng.choice(["", " ", "\t"])) + str(rng.choice(["\n", "\r\n"])))
    return "".join(out).rstrip("\r\n").encode("utf-8")   # no line end after the last line


def plain_parse(raw: bytes):
    rows = [line.split() for line in raw.decode("utf-8").splitlines() if line.split()]
    return dict(topic=[r[0] for r in rows], doc=[r[2] for r in rows],
                rank=[int(r[3]) for r in rows], score=[bits(float(r[4])) for r in rows],
                tag=[r[5] for r in rows])


def write_run(tmp_path, raw):
    for awkward in (rb"\r\n", rb"\t", rb"\n[ \t]+\r?\n", rb"\s1e-30\s", rb"\s1_0\.5\s",
                    rb"\s\+3\s", rb"\s1_0\s", rb"\s-0\s"):
        assert re.search(awkward, raw), awkward   # the file holds what it is meant to test
    path = tmp_path / "run.txt"
    path.write_bytes(raw)
    assert checked_bytes(path) == (raw, True)     # a simple file: the scanner reads it
    return path


TOPICS = ["171", "q2", "t\u00e93", "7"]
POOL_DOCS = [f"doc{i}" for i in range(60)] + ["d\u00f3c", "\u4e2d\u6587", "D-1", "x:y/z"]


@pytest.mark.parametrize("compiled", [True, False])
def test_read_run_equals_line_by_line_parse(tmp_path, compiled):
    raw = awkward_run(np.random.default_rng(9), TOPICS, 40, POOL_DOCS)
    path = write_run(tmp_path, raw)
    expected = plain_parse(raw)
    run = trec.read_run(path, compiled=compiled)
    assert run["topic"].tolist() == expected["topic"]
    assert run["doc"].tolist() == expected["doc"]
    assert run["rank"].tolist() == expected["rank"]
    assert [bits(s) for s in run["score"].tolist()] == expected["score"]
    assert run["run"].tolist() == expected["tag"]


def test_scanned_run_itself_equals_line_by_line_parse(tmp_path):
    # the compiled path, not the column-wise one it falls back to
    raw = awkward_run(np.random.default_rng(10), TOPICS, 40, POOL_DOCS)
    path = write_run(tmp_path, raw)
    table = run_table._scanned_run(path, raw, Interned())
    assert table is not None
    expected = plain_parse(raw)
    assert table.topic.tolist() == expected["topic"]
    assert table.doc.tolist() == expected["doc"]
    assert table.rank.tolist() == expected["rank"]
    assert [bits(s) for s in table.score.tolist()] == expected["score"]
    assert table.tag == "my_run"


@pytest.mark.parametrize("compiled", [True, False])
def test_run_table_with_vocabulary_codes_its_docs_first(tmp_path, compiled):
    raw = awkward_run(np.random.default_rng(12), TOPICS, 30, POOL_DOCS)
    path = write_run(tmp_path, raw)
    vocabulary = np.array(POOL_DOCS[::2] + ["not-in-run", "n\u00e9"], dtype=object)
    table = trec.run_table(path, vocabulary=vocabulary, compiled=compiled)
    docs = plain_parse(raw)["doc"]
    in_vocabulary = np.isin(np.asarray(docs, dtype=object), vocabulary)
    assert in_vocabulary.any() and not in_vocabulary.all()
    assert ((table.doc_code < len(vocabulary)) == in_vocabulary).all()
    assert table.docs[:len(vocabulary)].tolist() == vocabulary.tolist()
    assert table.docs[table.doc_code].tolist() == docs
    assert table.doc_code.tolist() == factorized(vocabulary.tolist(), docs)[0]
    assert table.rank.tolist() == plain_parse(raw)["rank"]


def test_vocabulary_ids_are_text_and_distinct(tmp_path):
    # a document 5 in a gain frame is the file's "5", on the compiled path and the column-wise alike
    assert Interned([5, "a"]).names.tolist() == ["5", "a"]
    with pytest.raises(ValueError, match="distinct"):
        Interned(["a", "b", "a"])
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 5 1 1.0 t\n1 Q0 x 2 0.5 t\n1 Q0 a 3 0.2 t\n")
    for compiled in (True, False):
        table = trec.run_table(path, vocabulary=[5, "a"], compiled=compiled)
        assert table.doc_code.tolist() == [0, 2, 1], compiled
        with pytest.raises(ValueError, match="distinct"):
            trec.run_table(path, vocabulary=["a", "a"], compiled=compiled)


def test_keys_of_many_codes_do_not_overflow_into_false_duplicates():
    # (t * 2^21 + a) * 2^21 + d passes 2^63 here: without renumbering, rows collide
    from evalkit.formats._columns import factorize_keys, first_duplicate

    n = 2**22 + 1
    topic, low = np.arange(n), np.arange(n) & (2**21 - 1)
    assert first_duplicate(topic, low, low) == (None, None)
    key = factorize_keys(topic, low, low)
    assert len(np.unique(key)) == n
    topic[2**21] = 0                                   # now the same as row 0
    assert first_duplicate(topic, low, low) == (2**21, 0)
