"""The parameter checkers the explorers added: flag and choice."""

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.declare import params


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_flag_accepts_booleans(value):
    assert params.flag()("interactive", value) is None       # accepted: no ParameterError


@pytest.mark.parametrize("value", [1, 0, "False", None])
def test_flag_rejects_anything_else_naming_the_parameter(value):
    with pytest.raises(ParameterError, match="parameter interactive .*True or False"):
        params.flag()("interactive", value)


def test_choice_names_the_options():
    check = params.choice(("f1", "weighted_f1"))
    check("metric", "f1")
    with pytest.raises(ParameterError, match="metric.*one of f1, weighted_f1"):
        check("metric", "ndcg")
