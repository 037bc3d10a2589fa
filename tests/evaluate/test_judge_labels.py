"""Judges as they come: one qrels file per judge, ratings files, the grade scale."""

import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.evaluate.judge_agreement.tables import read_judges
from evalkit.evaluate.judges.labels import parse_grades, parse_judges, read_labels


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_judges_add_up_with_the_ratings_file(tmp_path):
    a = _write(tmp_path, "a.qrels", "1 0 d1 2\n1 0 d2 0\n")
    r = _write(tmp_path, "r.txt", "1 x d1 1\n1 y d1 2\n1 y d2 0\n")
    labels, _ = read_labels({"a": a}, ratings=r)
    assert list(labels.columns) == ["topic", "judge", "doc", "grade"]
    assert list(labels["judge"]) == ["x", "y", "y", "a", "a"]
    assert labels.attrs["grades"] == (0, 2)


def test_a_ratings_file_of_several_assessors_given_as_a_judge_is_refused(tmp_path):
    r = _write(tmp_path, "r.txt", "1 x d1 1\n1 y d1 2\n")
    with pytest.raises(InputError) as err:
        read_judges({"r": r})
    msg = str(err.value)
    assert msg.startswith(f"{r}, line 2: document d1 is judged twice for topic 1")
    assert "2 names (x, y)" in msg and "give it with --ratings FILE" in msg and "\n" not in msg


def test_names_in_the_second_column_are_assessors_numbers_are_iterations(tmp_path):
    r = _write(tmp_path, "r.txt", "1 x d1 1\n1 y d2 2\n")
    with pytest.raises(InputError, match=r"r.txt: the second column holds 2 different values \(x, y\)"
                                         r".*--ratings FILE"):
        read_judges({"r": r})
    covid = _write(tmp_path, "covid.qrels", "1 0.5 d1 1\n1 1 d2 2\n2 2 d1 0\n")
    labels, _ = read_judges({"c": covid})
    assert list(labels["grade"]) == [1, 2, 0]


def test_concatenated_qrels_of_several_judges_are_refused_with_the_fix(tmp_path):
    q = _write(tmp_path, "both.qrels", "1 0 d1 1\n1 0 d2 0\n1 0 d1 2\n")
    with pytest.raises(InputError) as err:
        read_judges({"both": q})
    msg = str(err.value)
    assert msg.startswith(f"{q}, line 3: document d1 is judged twice for topic 1, grade 2 here "
                          "and 1 on line 1")
    assert "several judges' qrels one after another" in msg
    assert "split it into one file per judge and give each with --judge NAME=FILE" in msg


def test_concatenated_qrels_given_as_ratings_are_refused_with_the_fix(tmp_path):
    q = _write(tmp_path, "both.qrels", "1 0 d1 1\n1 0 d2 0\n1 0 d1 2\n")
    with pytest.raises(InputError) as err:
        read_labels(None, ratings=q)
    assert str(err.value).startswith(f"{q}, line 3: assessor 0 rates document d1 of topic 1 twice")
    assert "several judges' TREC qrels one after another" in str(err.value)
    assert "give each with --judge NAME=FILE" in str(err.value)


def test_one_judges_qrels_given_as_ratings_is_refused(tmp_path):
    q = _write(tmp_path, "a.qrels", "1 0 d1 1\n1 0 d2 0\n")
    with pytest.raises(InputError, match=r"only one assessor \(0\).*--judge NAME=FILE.*--qrels FILE"):
        read_labels(None, ratings=q)
    one = _write(tmp_path, "one.txt", "1 alice d1 1\n1 alice d2 0\n")    # one named assessor: fine
    assert list(read_labels(None, ratings=one)[0]["judge"]) == ["alice", "alice"]


def test_a_grade_outside_the_declared_scale_is_refused_with_file_and_line(tmp_path):
    a = _write(tmp_path, "a.qrels", "1 0 d1 1\n\n1 0 d2 7\n1 0 d3 9\n")
    with pytest.raises(InputError) as err:
        read_judges({"a": a}, grades=(0, 2))
    assert str(err.value).startswith(f"{a}, line 3: grade 7 of judge a is outside --grades 0:2; "
                                     "2 labels of this judge are outside it")
    assert "--clip" in str(err.value)
    r = _write(tmp_path, "r.txt", "1 x d1 1\n1 y d1 3\n")
    with pytest.raises(InputError, match=r"r.txt, line 2: grade 3 of judge y is outside --grades 1:2"):
        read_labels(None, ratings=r, grades=(1, 2))


def test_clip_clamps_and_says_how_many_per_judge(tmp_path):
    a = _write(tmp_path, "a.qrels", "1 0 d1 1\n1 0 d2 7\n1 0 d3 9\n")
    b = _write(tmp_path, "b.qrels", "1 0 d1 2\n1 0 d2 0\n")
    labels, notes = read_judges({"a": a, "b": b}, grades=(1, 3), clip=True)
    assert list(labels["grade"]) == [1, 3, 3, 2, 1]
    assert notes == ["--clip: 2 labels of judge a outside 1..3 (grades 7, 9) clamped: 2 to 3",
                     "--clip: 1 label of judge b outside 1..3 (grades 0) clamped: 1 to 1"]
    with pytest.raises(InputError, match="--clip needs --grades"):
        read_judges({"a": a}, clip=True)


def test_the_inferred_scale_names_the_judges_and_lines_of_its_maximum(tmp_path):
    a = _write(tmp_path, "a.qrels", "1 0 d1 1\n1 0 d2 3\n")
    b = _write(tmp_path, "b.qrels", "1 0 d1 2\n\n1 0 d2 10\n")
    labels, notes = read_judges({"a": a, "b": b})
    assert labels.attrs["grades"] == (1, 10)
    assert notes == ["grades 1..10 inferred from the labels (declare the scale with --grades LO:HI): "
                     "the highest, 10, is set by b (1 label, b.qrels line 3); the other 1 "
                     "judge(s) grade at most 3"]


def test_names_once_each(tmp_path):
    with pytest.raises(InputError, match="judge a is given twice"):
        parse_judges(["a=x.qrels", "a=y.qrels"])
    with pytest.raises(InputError, match="is not NAME=FILE"):
        parse_judges(["x.qrels"])
    a = _write(tmp_path, "a.qrels", "1 0 d1 1\n")
    r = _write(tmp_path, "r.txt", "1 a d1 1\n1 b d1 2\n")
    with pytest.raises(InputError, match=r"judge a is given twice \(--ratings .*r.txt has an assessor a"):
        read_labels({"a": a}, ratings=r)


@pytest.mark.parametrize("text", ["3", "3:1", "2:-1", "a:b", "1:1", "-1.5:2", "-2:"])
def test_grades_are_lo_colon_hi(text):
    with pytest.raises(ParameterError, match="grades"):
        parse_grades(text)
    assert parse_grades("0:3") == (0, 3)
    assert parse_grades("-2:3") == (-2, 3)          # TREC Web: -2 for spam


def test_a_scale_from_dmax_is_named_so(tmp_path):
    r = _write(tmp_path, "r.txt", "1 x d1 1\n1 y d1 4\n")
    with pytest.raises(InputError, match=r"r.txt, line 2: grade 4 of judge y is outside --dmax 3; "
                                         r".*widen --dmax"):
        read_labels(None, ratings=r, grades=(0, 3), option="--dmax 3")


def test_negative_and_decimal_grades_are_kept_as_written_and_lines_stay_right(tmp_path):
    # a header skipped and a repeated line read once: the line of a grade off the scale is still
    # the file's own (5 here, not 3 or 4)
    a = _write(tmp_path, "a.qrels", "query_id iteration doc_id relevance\n1 0 d1 -2\n"
                                    "1 0 d1 -2.0\n1 0 d2 1.0\n1 0 d3 9\n")
    labels, notes = read_labels({"a": a}, skip_header=True, grades=(-2, 3), clip=True)
    assert labels["grade"].tolist() == [-2, 1, 3] and labels.attrs["grades"] == (-2, 3)
    assert notes[0] == (f"{a}: 1 line repeats an earlier line exactly (same topic, document and "
                        "grade) and was read once: line 3 (first on line 2)")
    assert notes[1] == "--clip: 1 label of judge a outside -2..3 (grades 9) clamped: 1 to 3"
    with pytest.raises(InputError, match=r"a.qrels, line 5: grade 9 of judge a is outside "
                                         r"--grades -2:3"):
        read_labels({"a": a}, skip_header=True, grades=(-2, 3))
    r = _write(tmp_path, "r.txt", "topic assessor doc rating\n1 x d1 -1\n1 x d1 -1\n1 y d1 4\n")
    with pytest.raises(InputError, match=r"r.txt, line 4: grade 4 of judge y is outside "
                                         r"--grades -1:3"):
        read_labels(None, ratings=r, skip_header=True, grades=(-1, 3))
    labels, notes = read_labels(None, ratings=r, skip_header=True)
    assert labels["grade"].tolist() == [-1, 4] and labels.attrs["grades"] == (-1, 4)
    assert notes[1].endswith("the lowest, -1, is set by x (1 label, r.txt line 2); the other 1 "
                             "judge(s) grade at least 4")


def test_negative_values_reach_argparse_joined_to_their_option():
    from evalkit.evaluate.judges.options import negative_values

    assert negative_values(["score", "--grades", "-2:3", "--cuts", "-1,1", "--gain-map",
                            "-2:0,1:1.5", "r.txt"]) == \
        ["score", "--grades=-2:3", "--cuts=-1,1", "--gain-map=-2:0,1:1.5", "r.txt"]
    untouched = ["--grades", "--clip", "--judge", "-2:3", "--grades=-1:2", "--grades", "0:3",
                 "--cuts", "-h"]
    assert negative_values(untouched) == untouched


def test_judges_of_the_same_documents_share_one_string_per_document(tmp_path):
    a = _write(tmp_path, "a.qrels", "1 0 d1 2\n1 0 d2 0\n2 0 d1 1\n")
    b = _write(tmp_path, "b.qrels", "2 0 d1 0\n1 0 d2 1\n1 0 d3 2\n")
    labels, _ = read_labels({"a": a, "b": b})
    assert list(labels["doc"]) == ["d1", "d2", "d1", "d1", "d2", "d3"]
    assert list(labels["grade"]) == [2, 0, 1, 0, 1, 2]
    docs = labels["doc"].to_numpy(dtype=object)
    assert len({id(d) for d in docs}) == 3          # d1, d2, d3: one object each, six labels


def test_the_assessors_of_a_ratings_file_and_the_judges_share_the_documents_strings(tmp_path):
    r = _write(tmp_path, "r.txt", "1 x d1 1\n1 y d1 2\n1 y d2 0\n")
    a = _write(tmp_path, "a.qrels", "1 0 d2 2\n1 0 d1 0\n")
    labels, _ = read_labels({"a": a}, ratings=r)
    assert list(labels["doc"]) == ["d1", "d1", "d2", "d2", "d1"]
    assert len({id(d) for d in labels["doc"].to_numpy(dtype=object)}) == 2
