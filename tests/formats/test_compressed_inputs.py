"""gzip, bz2 and xz inputs: recognised by their first bytes, read as the plain file is.

Every reader (qrels, runs on both paths, per-assessor and STC-ja ratings,
judges' qrels, scores files) must give the frame it gives for the
uncompressed file, and name the same line in an error: line numbers count
the decompressed text.  A file is decompressed once however often a reader
looks at it; the compiled reader is chosen by the decompressed size.
"""

from __future__ import annotations

import bz2
import functools
import gzip
import lzma

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats import _columns, _compressed, ratings as stc_files, trec
from evalkit.formats.assessor_ratings import read_any_ratings, read_assessor_ratings
from evalkit.formats.judge_files import data_lines, read_judge_qrels

# gzip with a fixed header time (mtime=0), so that the same text gives the same bytes
COMPRESS = {"gzip": functools.partial(gzip.compress, mtime=0), "bz2": bz2.compress,
            "xz": lzma.compress}
QRELS = "1 0 d1 2\n1 0 d2 0\n\n2 0 d3 1\n2 0 d4 -2\n"
RUN = "1 Q0 d1 1 3.5 r\n1 Q0 d9 2 2.25 r\n2 Q0 d3 1 1.0 r\n"
RATINGS = "1 a d1 2\n1 b d1 1\n2 a d3 0\n"
STC = "p r1 0 1 NA\np r2 2 2 1\n"


def pair(tmp_path, text, kind, name="file"):
    """The plain file and the same text compressed with ``kind``, named without a telling suffix."""
    plain = tmp_path / f"{name}.txt"
    plain.write_text(text)
    packed = tmp_path / f"{name}-{kind}.dat"
    packed.write_bytes(COMPRESS[kind](text.encode()))
    return plain, packed


@pytest.mark.parametrize("kind", sorted(COMPRESS))
def test_every_reader_gives_the_plain_files_frame(tmp_path, kind):
    plain, packed = pair(tmp_path, QRELS, kind, "qrels")
    pd.testing.assert_frame_equal(trec.read_qrels(packed), trec.read_qrels(plain))
    assert trec.read_qrels(packed)["grade"].tolist() == [2, 0, 1, -2]
    pd.testing.assert_frame_equal(read_judge_qrels(packed, "a"), read_judge_qrels(plain, "a"))
    assert data_lines(packed).tolist() == [1, 2, 4, 5]
    plain, packed = pair(tmp_path, RUN, kind, "run")
    for compiled in (False, True):
        pd.testing.assert_frame_equal(trec.read_run(packed, compiled=compiled),
                                      trec.read_run(plain, compiled=compiled))
    assert trec.read_run(packed, compiled=True)["score"].tolist() == [3.5, 2.25, 1.0]
    plain, packed = pair(tmp_path, RATINGS, kind, "ratings")
    for compiled in (False, True):
        pd.testing.assert_frame_equal(read_assessor_ratings(packed, compiled=compiled),
                                      read_assessor_ratings(plain, compiled=compiled))
    pd.testing.assert_frame_equal(read_any_ratings(packed), read_any_ratings(plain))
    plain, packed = pair(tmp_path, STC, kind, "stc")
    items, matrix = stc_files.read_ratings(packed)
    assert items["reply"].tolist() == ["r1", "r2"]
    np.testing.assert_array_equal(matrix, stc_files.read_ratings(plain)[1])
    pd.testing.assert_frame_equal(read_any_ratings(packed), read_any_ratings(plain))


def test_the_first_bytes_decide_not_the_name(tmp_path):
    looks_packed = tmp_path / "qrels.txt.gz"          # plain text with a .gz name
    looks_packed.write_text(QRELS)
    looks_plain = tmp_path / "qrels.txt"              # gzip with a .txt name
    looks_plain.write_bytes(COMPRESS["gzip"](QRELS.encode()))
    pd.testing.assert_frame_equal(trec.read_qrels(looks_packed), trec.read_qrels(looks_plain))
    assert _compressed.compression(b"\x1f\x8b\x08") == "gzip"
    assert _compressed.compression(b"BZh91AY") == "bz2"
    assert _compressed.compression(b"BZh 1 0") is None      # a topic id, not bz2
    assert _compressed.compression(b"\xfd7zXZ\x00") == "xz"
    assert _compressed.compression(b"1 0 d1") is None


@pytest.mark.parametrize("kind", sorted(COMPRESS))
def test_errors_name_the_line_of_the_decompressed_text(tmp_path, kind):
    cases = [(trec.read_qrels, "1 0 a 1\n\n1 0 b 1.5\n", 3, "grade '1.5' is not a whole number"),
             (trec.read_qrels, "1 0 a 1\n1 0 a 2\n", 2, "grade 2 here and 1 on line 1"),
             (trec.read_run, "1 Q0 a 1 1 t\n\n\n1 Q0 a 2 0 t\n", 4, "listed twice"),
             (lambda p: trec.read_run(p, compiled=True), "1 Q0 a 1 1 t\n1 Q0 b x 0 t\n", 2,
              "rank 'x' is not an integer"),
             (read_assessor_ratings, "1 a d 1\n1 a d two\n", 2, "rating 'two' is not a whole"),
             (trec.read_qrels, "1 0 a 1\n1 0 \xe9\x00 1\n", 2, "NUL byte")]
    for read, text, line, message in cases:
        _, packed = pair(tmp_path, text, kind)
        with pytest.raises(InputError, match=message) as info:
            read(packed)
        assert (info.value.path, info.value.line) == (str(packed), line)
    packed = tmp_path / "latin1.dat"
    packed.write_bytes(COMPRESS[kind](b"1 0 a 1\n1 0 \xe9 1\n"))
    with pytest.raises(InputError, match="byte 0xe9 is not valid UTF-8") as info:
        trec.read_qrels(packed)
    assert info.value.line == 2


def test_an_error_deep_in_a_large_compressed_run_names_its_line_on_the_compiled_path(tmp_path):
    lines = [f"{t} Q0 d{t}-{i} {i + 1} {1.0 / (i + 1):.6f} big\n" for t in range(20) for i in range(500)]
    lines[7_321] = lines[7_321].replace(" big\n", "\n")                    # no tag: 5 fields
    path = tmp_path / "big.gz"
    path.write_bytes(COMPRESS["gzip"]("".join(lines).encode()))
    with pytest.raises(InputError, match="got 5") as info:
        trec.read_run(path, compiled=True)
    assert info.value.line == 7_322
    lines[7_321] = "3 Q0 d3-9 1 1.0 big\n"                # d3-9 is line 1510's document
    path.write_bytes(COMPRESS["gzip"]("".join(lines).encode()))
    for compiled in (True, False):
        with pytest.raises(InputError, match="first on line 1510") as info:
            trec.read_run(path, compiled=compiled)
        assert info.value.line == 7_322


# Ids name the case, never the bytes; gzip's header carries a time unless told otherwise, so the
# bytes are made with mtime=0 (two pytest-xdist workers must collect the same ids).
@pytest.mark.parametrize("content, message", [
    pytest.param(COMPRESS["gzip"](QRELS.encode())[:-8], "gzip data is corrupt or truncated",
                 id="gzip-truncated"),
    pytest.param(bz2.compress(QRELS.encode())[:-5], "bz2 data is corrupt or truncated",
                 id="bz2-truncated"),
    pytest.param(lzma.compress(QRELS.encode())[:20], "xz data is corrupt or truncated",
                 id="xz-truncated"),
    pytest.param(b"\x1f\x8b\x08\x00" + b"\xff" * 20, "gzip data is corrupt or truncated",
                 id="gzip-corrupt-body"),
    pytest.param(b"\x28\xb5\x2f\xfd" + b"\x00" * 10, "zstd data, which evalkit does not read",
                 id="zstd"),
    pytest.param(b"PK\x03\x04" + b"\x00" * 30, "a zip archive, which evalkit does not read",
                 id="zip"),
])
def test_corrupt_and_unread_compressed_files_are_refused_naming_the_file(tmp_path, content, message):
    path = tmp_path / "qrels.dat"
    path.write_bytes(content)
    for read in (trec.read_qrels, lambda p: trec.read_run(p, compiled=True), read_any_ratings):
        with pytest.raises(InputError, match=message) as info:
            read(path)
        assert info.value.path == str(path) and info.value.line is None


def test_a_file_is_decompressed_once_however_often_it_is_looked_at(tmp_path, monkeypatch):
    calls = []
    formats = tuple((name, magic, (lambda raw, f=f: calls.append(1) or f(raw)), test)
                    for name, magic, f, test in _compressed._FORMATS)
    monkeypatch.setattr(_compressed, "_FORMATS", formats)
    monkeypatch.setattr(_compressed, "_last", [])
    _, packed = pair(tmp_path, QRELS, "xz")
    read_judge_qrels(packed, "a")            # the qrels, then their second column
    data_lines(packed)                       # and the line numbers, for a message
    assert len(calls) == 1
    _, other = pair(tmp_path, RATINGS, "gzip", "other")
    read_any_ratings(other)                  # its first line, then the file
    assert len(calls) == 2
    packed.write_bytes(lzma.compress(b"1 0 d1 3\n"))      # the same name, new bytes: read anew
    assert trec.read_qrels(packed)["grade"].tolist() == [3]
    assert len(calls) == 3


def test_content_size_is_the_decompressed_size(tmp_path):
    text = ("1 Q0 d1 1 1.0 run\n" * 5000).encode()
    sizes = {}
    for kind, compress in COMPRESS.items():
        path = tmp_path / kind
        path.write_bytes(compress(text))
        sizes[kind] = _compressed.content_size(path)
    assert sizes["gzip"] == sizes["xz"] == len(text)
    assert sizes["bz2"] == (tmp_path / "bz2").stat().st_size     # bz2 records no size
    plain = tmp_path / "plain"
    plain.write_bytes(text)
    assert _compressed.content_size(plain) == len(text)
    assert _compressed.content_size(tmp_path / "missing") == 0
    two = tmp_path / "two.xz"                                     # two streams: the last one's
    two.write_bytes(lzma.compress(text) + lzma.compress(text[:1000]))
    assert _compressed.content_size(two) == max(1000, two.stat().st_size)


def test_the_compiled_reader_is_chosen_by_the_decompressed_size(tmp_path, monkeypatch):
    text = "".join(f"1 Q0 d{i} {i + 1} {1.0 / (i + 1):.6f} r\n" for i in range(3000))
    path = tmp_path / "run.gz"
    path.write_bytes(COMPRESS["gzip"](text.encode()))
    assert path.stat().st_size < len(text) // 3
    monkeypatch.setattr(_columns, "COMPILED_MIN_BYTES", len(text))
    assert _columns.use_compiled(path)
    monkeypatch.setattr(_columns, "COMPILED_MIN_BYTES", len(text) + 1)
    assert not _columns.use_compiled(path)


def test_scores_files_are_read_compressed_too(tmp_path):
    from evalkit.formats.scores import read_scores

    text = "run_a\tP_10\t1\t0.5000\nrun_a\tP_10\t2\t0.2500\nrun_b\tP_10\t1\t0.1000\nrun_b\tP_10\t2\t0.3000\n"
    plain, packed = pair(tmp_path, text, "gzip", "scores")
    read = read_scores(packed)
    pd.testing.assert_frame_equal(read.drop(columns="file"), read_scores(plain).drop(columns="file"))
    assert read["value"].tolist() == [0.5, 0.25, 0.1, 0.3]
