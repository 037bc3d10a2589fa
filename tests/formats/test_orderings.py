"""The ordering-judgment reader's located errors."""

import pytest

from evalkit.errors import InputError
from evalkit.formats import orderings as ordering_files


@pytest.mark.parametrize(
    "content, line, message",
    [
        ("set,who,position,item\n", 1, "header"),
        ("set,assessor,position,item\nS,A,one,x\n", 2, "not an integer"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,1,y\n", 3, "given twice"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,2,x\n", 3, "twice"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,3,y\nS,B,1,x\nS,B,2,y\n", 2, "not 1..k"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,2,y\n", 2, "at least two"),
        ("set,assessor,position,item\nS,A,1,x\nS,A,2,y\nS,B,1,x\nS,B,2,z\n", 4, "not a permutation"),
        ("set,assessor,position,item\nS,A,1\n", 2, "4 non-empty fields"),
    ],
)
def test_ordering_reader_errors(tmp_path, content, line, message):
    path = tmp_path / "j.csv"
    path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        ordering_files.read_orderings(path)
    assert info.value.line == line and info.value.path == str(path)
