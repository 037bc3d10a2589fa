"""TTG cluster files: round trip, topic names and located errors."""

import json

import pandas as pd
import pytest

from evalkit.errors import InputError
from evalkit.formats import clusters as cluster_files


def _write(tmp_path, body, name="c.json"):
    path = tmp_path / name
    path.write_text(body if isinstance(body, str) else json.dumps(body))
    return path


def test_cluster_file_round_trip_and_topic_names(tmp_path):
    q = pd.DataFrame({"topic": ["171"] * 3, "doc": ["11", "12", "13"], "grade": [1, 2, 1]})
    path = _write(tmp_path, {"topics": {"MB171": {"clusters": [[11, 12], [13]]}}})
    clusters = cluster_files.read_clusters(path, q)
    assert clusters == {"171": [["11", "12"], ["13"]]}
    cluster_files.write_clusters(clusters, tmp_path / "again.json")
    assert cluster_files.read_clusters(tmp_path / "again.json", q) == clusters


@pytest.mark.parametrize(
    "body, message",
    [
        ({"topics": {"MB171": {"clusters": [[11, 12], [12]]}}}, "tweet 12 is in clusters 0 and 1"),
        ({"topics": {"MB171": {"clusters": [[11, 99]]}}}, "99 is not judged relevant"),
        ({"topics": {"MB171": {"clusters": [11]}}}, "list of lists"),
        ({"topics": []}, '"topics" object'),
        ({"topics": {"MB171": {"clusters": [[None]]}}}, "bad tweet id"),
        ('{"topics": {"MB171": {"clusters": [[11,]]}}}', "malformed JSON"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ],
)
def test_bad_cluster_files(tmp_path, body, message):
    q = pd.DataFrame({"topic": ["171"] * 3, "doc": ["11", "12", "13"], "grade": [1, 2, 0]})
    with pytest.raises(InputError, match=message) as info:
        cluster_files.read_clusters(_write(tmp_path, body), q)
    assert str(tmp_path) in str(info.value)


def test_malformed_json_names_line_and_column(tmp_path):
    path = _write(tmp_path, '{"topics":\n {"MB171": {"clusters": [[1,]]}}}')
    with pytest.raises(InputError) as info:
        cluster_files.read_clusters(path)
    assert info.value.line == 2 and "column" in str(info.value)
