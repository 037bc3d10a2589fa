"""docs/your_judges.md is a chapter whose every output is what its code prints: run as a doctest."""

import doctest
import os

from evalkit.paths import EXAMPLES, ROOT


def test_the_your_judges_chapter_prints_what_it_shows():
    here = os.getcwd()
    try:
        result = doctest.testfile(str(ROOT / "docs" / "your_judges.md"), module_relative=False,
                                  globs={"EXAMPLE": str(EXAMPLES / "judges")},
                                  optionflags=doctest.NORMALIZE_WHITESPACE, verbose=False)
    finally:
        os.chdir(here)
    assert result.attempted >= 15
    assert result.failed == 0
