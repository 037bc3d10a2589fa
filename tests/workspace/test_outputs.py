"""Atomic, deterministic writers."""

import os

import pandas as pd
import pytest

from evalkit.formats import trec
from evalkit import outputs


def test_atomic_write_leaves_old_file_on_failure(tmp_path):
    target = tmp_path / "t.csv"
    trec.write_text(target, "old\n")
    with pytest.raises(RuntimeError):
        with outputs.atomic_write(target) as handle:
            handle.write("half")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["t.csv"]


def test_write_table_is_deterministic(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.5], "b": ["x", "y"]})
    first = [p.read_bytes() for p in outputs.write_table(frame, tmp_path / "t")]
    second = [p.read_bytes() for p in outputs.write_table(frame, tmp_path / "t")]
    assert first == second and first[0] == b"a,b\n1.0000,x\n2.5000,y\n"
