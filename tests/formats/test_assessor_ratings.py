"""Per-assessor ratings: round trip, the STC-ja file as a long frame, errors with file and line."""

import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats.assessor_ratings import (read_any_ratings, read_assessor_ratings,
                                              write_assessor_ratings)


def test_round_trip(tmp_path):
    frame = pd.DataFrame([("T1", "A1", "d1", 2), ("T1", "A2", "d1", 0), ("T2", "A1", "d9", 3)],
                         columns=["topic", "assessor", "doc", "rating"])
    path = write_assessor_ratings(frame, tmp_path / "r.txt")
    assert path.read_text() == "T1 A1 d1 2\nT1 A2 d1 0\nT2 A1 d9 3\n"
    pd.testing.assert_frame_equal(read_assessor_ratings(path), frame)
    pd.testing.assert_frame_equal(read_any_ratings(path), frame)


def test_stc_ja_lines_become_one_row_per_rating_without_the_missing_ones(tmp_path):
    path = tmp_path / "stc.txt"
    path.write_text("p1 r1 0 1 2\np1 r2 NA 2 2\n")
    long = read_any_ratings(path)
    assert list(long.itertuples(index=False, name=None)) == [
        ("p1", "a1", "r1", 0), ("p1", "a2", "r1", 1), ("p1", "a3", "r1", 2),
        ("p1", "a2", "r2", 2), ("p1", "a3", "r2", 2)]


@pytest.mark.parametrize("text, dmax, message, line", [
    ("T1 A1 d1 2\nT1 A2 d1 two\n", None, "rating 'two' is not a whole number", 2),
    ("T1 A1 d1 2\nT1 A2 d1 1.5\n", None, "rating '1.5' is not a whole number", 2),
    ("T1 A1 d1 2\nT1 A2 d1 4\n", 3, "rating 4 is above --dmax 3", 2),
    ("T1 A1 d1 2\nT1 A2 d1 1\n\nT1 A1 d1 0\n", None, "twice, 0 here and 2 on line 1", 4),
    ("T1 A1 d1\n", None, "expected 4 fields", 1),
    ("T1 A1 d1 -1\n", 3, "rating -1 is negative", 1),      # --dmax 3: the scale is 0..3
    ("topic assessor doc rating\nT1 A1 d1 2\n", None, "looks like a header line: remove it", 1),
])
def test_bad_input_names_file_and_line(tmp_path, text, dmax, message, line):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        read_assessor_ratings(path, dmax)
    assert message in str(info.value)
    assert info.value.path == str(path) and info.value.line == line


def test_empty_file_is_an_error_naming_it(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("\n \n")
    with pytest.raises(InputError, match="empty") as info:
        read_any_ratings(path)
    assert info.value.path == str(path)


def test_a_rating_beyond_int64_is_refused_with_its_line(tmp_path):
    # 2^64 - 1 fits pandas' uint64 column and would wrap to -1 as int64; 30 digits fit nothing
    for token in ("18446744073709551615", "9" * 30):
        path = tmp_path / "huge.txt"
        path.write_text(f"T1 A1 d1 2\nT1 A2 d1 {token}\n")
        with pytest.raises(InputError, match=f"rating {token} is too large") as info:
            read_assessor_ratings(path)
        assert info.value.line == 2
