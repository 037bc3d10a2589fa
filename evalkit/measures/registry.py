"""The graded measures' registry, and the measure names people type (Sakai 2017, §4).

One place names, documents and cites every measure of
:mod:`evalkit.measures.graded`: :data:`MEASURES` holds each one's function,
defaults, formula and source; ``docs/cli.md``'s measures table is generated
from it (:func:`measures_table`), and :func:`parse_measure` reads the names
``evalkit score --measure`` accepts (``nERR@10``, ``Q``, ``P+@1000``,
``nG@1``) against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import pandas as pd

from ..errors import ParameterError
from .graded import nerr_at_k, ng_at_k, p_plus, q_measure

__all__ = ["Measure", "MEASURES", "measures_table", "MeasureSpec", "parse_measure"]


@dataclass(frozen=True)
class Measure:
    """A measure's name, defaults, formula and source (docs are generated from it)."""

    name: str
    function: Callable[..., float]
    params: dict
    formula: str
    source: str


MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (
        Measure("nG@1", ng_at_k, {"k": 1}, "g(1) / g*(1)",
                "Sakai 2017 §4; NTCIREVAL"),
        Measure("nERR", nerr_at_k, {"k": 10},
                "ERR@k / ERR*@k, P(r) = g(r)/(gmax+1)",
                "Chapelle et al. 2009; NTCIREVAL direct-gain mode"),
        Measure("P+", p_plus, {"beta": 1.0, "k": 10},
                "(1/C(rp)) sum_{r<=rp, g(r)>0} BR(r)",
                "Sakai 2006; Shang et al. NTCIR-12 STC overview"),
        Measure("Q", q_measure, {"beta": 1.0, "k": None},
                "(1/R) sum_{g(r)>0} BR(r)", "Sakai 2004"),
    )
}


def measures_table() -> pd.DataFrame:
    """The registry as a table (``docs/cli.md``'s measures table and the docs test)."""
    return pd.DataFrame(
        [
            {"measure": m.name, "function": m.function.__name__,
             "defaults": ", ".join(f"{k}={v}" for k, v in m.params.items()),
             "formula": m.formula, "source": m.source}
            for m in MEASURES.values()
        ]
    )


@dataclass(frozen=True)
class MeasureSpec:
    """A measure as named by the user: ``name`` echoes it, ``base`` and ``k`` define it."""

    name: str
    base: str
    k: int | None


#: Registered name -> the base a user writes before an optional ``@k`` ("nG@1" -> "nG").
_BASES = {m.name.partition("@")[0]: m for m in MEASURES.values()}


def parse_measure(name: str) -> MeasureSpec:
    """``"nERR@10"`` -> base nERR at k = 10; ``"Q"`` -> Q at its default cutoff (none).

    The bases are :data:`MEASURES`' names without a cutoff (nG, nERR, P+, Q),
    each with an optional ``@k``, ``k >= 1``, defaulting to the registered
    ``k``.  A measure registered with its cutoff in the name (``nG@1``) takes
    only that cutoff: g(k)/g*(k) at one deeper rank is not bounded by 1.
    """
    match = re.fullmatch(rf"({'|'.join(map(re.escape, _BASES))})(?:@(\d+))?", name.strip())
    if not match:
        raise ParameterError("measure", name, f"one of {', '.join(MEASURES)} with an optional @k "
                                              "(e.g. nERR@10)")
    base, k = match.group(1), match.group(2)
    if k is not None and int(k) < 1:
        raise ParameterError("measure", name, "a cutoff @k with k >= 1")
    measure = _BASES[base]
    if measure.name != base and k is not None and int(k) != measure.params["k"]:
        deeper = ", ".join(f"{b}@k" for b, m in _BASES.items() if m.name == b)
        raise ParameterError("measure", name, f"{measure.name} (deeper cutoffs: {deeper})")
    default = measure.params.get("k")
    return MeasureSpec(name.strip(), base, int(k) if k is not None else default)
