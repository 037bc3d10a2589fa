"""judge_files.data_lines: the line numbers of a file's non-blank lines, as str.splitlines() counts."""

import numpy as np
import pytest

from evalkit.formats.judge_files import data_lines


def _reference(raw: bytes) -> list[int]:
    return [i + 1 for i, line in enumerate(raw.decode("utf-8").splitlines()) if line.strip()]


CASES = [b"a 0 d 1\n", b"a 0 d 1", b"\n\na 0 d 1\n \n\t\nb 0 e 2\n\n", b"a 0 d 1\r\nb 0 e 2\r\n",
         b"a 0 d 1\r\n\r\n  \r\nb 0 e 2", b" \n a 0 d 1 \n", b"a 0 d 1\n\n\n",
         b"a 0 d 1\rb 0 e 2\n", b"a 0 d\xc3\xa9 1\n\xc2\xa0\nb 0 e 2\n", b"a 0 d 1\x0c\nb 0 e 2\n"]


@pytest.mark.parametrize("raw", CASES)
def test_data_lines_equal_splitlines(tmp_path, raw):
    path = tmp_path / "q.txt"
    path.write_bytes(raw)
    assert data_lines(path).tolist() == _reference(raw)


def test_data_lines_on_random_files(tmp_path):
    rng = np.random.default_rng(5)
    pieces = [b"a 0 d 1", b"", b" ", b"\t", b"\r", b"x y z w", b"\xc2\xa0"]
    for k in range(300):
        parts = [pieces[i] for i in rng.integers(0, len(pieces), size=rng.integers(1, 9))]
        raw = b"\n".join(parts) + (b"\n" if rng.random() < 0.5 else b"")
        if not raw.decode().strip():
            continue
        path = tmp_path / f"q{k}.txt"
        path.write_bytes(raw)
        assert data_lines(path).tolist() == _reference(raw), raw
