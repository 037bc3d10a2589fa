"""Kim, Zhai & Han pipeline: bad judgments and parameters are refused by name."""

import pytest

from evalkit.errors import InputError
from evalkit.measures import aggregation, discriminativeness


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: aggregation.kendall("ABC", "ABD"), "not a permutation"),
        (lambda: aggregation.spearman("ABA", "ABA"), "repeats item 'A'"),
        (lambda: discriminativeness.discriminativeness("ac-tau", ["ABC"]), "at least two judgments"),
        (lambda: aggregation.frespa("ABC", ["ABC"], min_len=3, max_len=2), "parameter min_len"),
        (lambda: aggregation.frespa("ABC", ["ABC"], min_sup=1.5), "parameter min_sup"),
        (lambda: aggregation.frespa("ABC", ["ABC"], w_len=-1), "parameter w_len"),
        (lambda: discriminativeness.discriminativeness("ac", ["AB", "BA"]), "parameter method"),
        (lambda: aggregation.average_correlation("AB", ["AB"], "pearson"), "parameter method"),
        (lambda: discriminativeness.discriminativeness("frespa", ["AB", "BA"], min_lenn=2), "parameter params"),
    ],
)
def test_bad_orderings_and_parameters(call, message):
    with pytest.raises(InputError, match=message):
        call()
