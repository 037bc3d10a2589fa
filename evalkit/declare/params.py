"""Checks for notebook parameters, declared once and shared by every notebook.

Each notebook module declares a spec, ``{parameter name: checker}``, and calls
:func:`check`; a bad value stops with a :class:`~evalkit.errors.ParameterError`
naming the parameter, its value and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

import numpy as np

from ..errors import ParameterError

__all__ = ["check", "whole", "number", "whole_list", "number_list", "pair", "folder", "file", "flag",
           "choice"]

Checker = Callable[[str, object], None]


def _is_number(v) -> bool:
    return not isinstance(v, (bool, np.bool_)) and isinstance(v, (int, float, np.integer, np.floating))


def check(params: Mapping[str, object], spec: Mapping[str, Checker]) -> None:
    """Check every parameter against ``spec``; an unknown name is an error too."""
    for name, value in params.items():
        if name not in spec:
            raise ParameterError(name, value, "a known parameter")
        spec[name](name, value)


def whole(lo: int = 1) -> Checker:
    """A whole number >= ``lo``."""
    def checker(name, v):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ParameterError(name, v, f"a whole number >= {lo}")
    return checker


def number(test: Callable[[float], bool], expected: str) -> Checker:
    """A number (not a bool) for which ``test`` holds, e.g. ``lambda x: 0 < x < 1``."""
    def checker(name, v):
        if not _is_number(v) or not test(v):
            raise ParameterError(name, v, expected)
    return checker


def whole_list() -> Checker:
    """A non-empty list of distinct whole numbers >= 1 (a grid)."""
    def checker(name, v):
        if not isinstance(v, (list, tuple)) or not v:
            raise ParameterError(name, v, "a non-empty list of whole numbers >= 1")
        for x in v:
            whole()(name, x)
        if len(set(v)) != len(v):
            raise ParameterError(name, v, "a list without repeated values")
    return checker


def number_list(test: Callable[[float], bool], expected: str) -> Checker:
    """A non-empty list of numbers each passing ``test``."""
    def checker(name, v):
        if not isinstance(v, (list, tuple)) or not v or not all(_is_number(x) and test(x) for x in v):
            raise ParameterError(name, v, expected)
    return checker


def pair(expected: str) -> Checker:
    """A list of exactly two items."""
    def checker(name, v):
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            raise ParameterError(name, v, expected)
    return checker


def folder(expected: str) -> Checker:
    """An existing folder."""
    def checker(name, v):
        if not Path(v).is_dir():
            raise ParameterError(name, v, expected)
    return checker


def file(expected: str) -> Checker:
    """An existing file."""
    def checker(name, v):
        if not Path(v).is_file():
            raise ParameterError(name, v, expected)
    return checker


def flag() -> Checker:
    """True or False (not 0/1, not a string)."""
    def checker(name, v):
        if not isinstance(v, (bool, np.bool_)):
            raise ParameterError(name, v, "True or False")
    return checker


def choice(options) -> Checker:
    """One of ``options``."""
    options = tuple(options)

    def checker(name, v):
        if v not in options:
            raise ParameterError(name, v, f"one of {', '.join(map(str, options))}")
    return checker
