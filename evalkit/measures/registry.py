"""Every measure ``evalkit score`` knows, named as ir_measures names it, and the names people type.

One place names, documents and cites each measure: :data:`MEASURES` holds
its name, parameters, formula, source, its trec_eval and ir_measures
equivalents and the function that computes it; ``evalkit measures`` and the
table in ``docs/measures.md`` are generated from it (:func:`measures_table`),
and :func:`parse_measure` reads the names ``evalkit score --measure``
accepts against it.

Two families, each with its own rules:

* trec_eval's (``nDCG@10``, ``AP``, ``P@10``, ``R@100``, ``RR``, ``Rprec``,
  ``Bpref``, ``Success@k``, ``Judged@k``, and Chapelle's ``ERR@k``): the
  values of trec_eval on every topic of the qrels, 0 for a topic without a
  relevant document; binary ones take a relevance level, ``AP(rel=2)``,
  ``P(rel=2)@10`` (default 1), as ir_measures writes it;
* NTCIREVAL's (``nG@1``, ``nERR@k``, ``P+``, ``Q``, Sakai 2017 §4): a topic
  without a positive gain cannot be normalised and is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from ..errors import ParameterError
from . import average_precision, bpref, err, ndcg, ntcireval, set_measures
from . import reciprocal_rank as rr
from .graded import nerr_at_k, ng_at_k, p_plus, q_measure

__all__ = ["Measure", "MEASURES", "measures_table", "MeasureSpec", "parse_measure", "TREC_EVAL",
           "NTCIREVAL"]

#: The two families (a measure's ``family``).
TREC_EVAL, NTCIREVAL = "trec_eval", "NTCIREVAL"


@dataclass(frozen=True)
class MeasureSpec:
    """A measure as named by the user: ``name`` echoes it; ``base``, ``k`` and the
    parameters define it (``rel``: the relevance level of binary measures; ``gmax``:
    ERR's largest gain, None for the judgment column's own)."""

    name: str
    base: str
    k: int | None
    rel: float = 1.0
    gmax: float | None = None

    @property
    def family(self) -> str:
        return MEASURES[self.base].family

    @property
    def full_depth(self) -> bool:
        """Whether the measure reads the whole run (no cutoff)."""
        return self.k is None


@dataclass(frozen=True)
class Measure:
    """A measure's name, parameters, formula and sources (docs and checks are generated)."""

    base: str                      # what a user types before (params) and @k
    cutoff: str                    # "optional", "required", "none" or a fixed "1"
    compute: Callable              # (RankedLists, MeasureSpec) -> (G, T) values
    formula: str
    source: str
    trec_eval: str                 # trec_eval's name ("" when it has none)
    ir_measures: str
    family: str = TREC_EVAL
    params: tuple[str, ...] = ()   # accepted inside (): "rel", "gmax"
    function: Callable | None = field(default=None)   # the function that computes it
    defaults: dict = field(default_factory=dict)      # NTCIREVAL's per-list function's

    @property
    def name(self) -> str:
        """How a user writes it (``nDCG, nDCG@k``, ``P@k``, ``nG@1``)."""
        if self.cutoff == "optional":
            return f"{self.base}, {self.base}@k"
        return self.base + {"required": "@k", "none": ""}.get(self.cutoff, f"@{self.cutoff}")

    @property
    def parameters(self) -> str:
        """What goes inside the parentheses, with its default."""
        text = {"rel": "rel=L (default 1)", "gmax": "gmax=G (default: the scale's top)"}
        cut = {"nERR": "@k default 10", "P+": "@k default 10", "Q": "@k default: whole run"}
        return "; ".join([text[p] for p in self.params] + ([cut[self.base]] if self.base in cut else []))


def _ntcir(base):
    return lambda lists, s: ntcireval.ntcireval(lists, base, s.k)


MEASURES: dict[str, Measure] = {m.base: m for m in (
    Measure("nDCG", "optional", lambda lists, s: ndcg.ndcg(lists, s.k),
            "DCG@k / IDCG@k, DCG@k = sum_{r<=k} g(r) / log2(r+1)",
            "Järvelin & Kekäläinen 2002; trec_eval m_ndcg_cut.c", "ndcg_cut.k (ndcg)", "nDCG@k (nDCG)",
            function=ndcg.ndcg),
    Measure("AP", "optional", lambda lists, s: average_precision.average_precision(lists, s.k, s.rel),
            "(1/R) sum_{r<=k, rel(r)} P@r", "trec_eval m_map.c, m_map_cut.c", "map (map_cut.k)",
            "AP (AP@k)", params=("rel",), function=average_precision.average_precision),
    Measure("P", "required", lambda lists, s: set_measures.precision(lists, s.k, s.rel),
            "(relevant in the top k) / k", "trec_eval m_P.c", "P.k", "P@k", params=("rel",),
            function=set_measures.precision),
    Measure("R", "optional", lambda lists, s: set_measures.recall(lists, s.k, s.rel),
            "(relevant in the top k) / R", "trec_eval m_recall.c", "recall.k", "R@k",
            params=("rel",), function=set_measures.recall),
    Measure("RR", "optional", lambda lists, s: rr.reciprocal_rank(lists, s.k, s.rel),
            "1 / rank of the first relevant document (0: none)", "trec_eval m_recip_rank.c",
            "recip_rank", "RR (RR@k)", params=("rel",), function=rr.reciprocal_rank),
    Measure("Rprec", "none", lambda lists, s: set_measures.r_precision(lists, s.rel),
            "(relevant in the top R) / R", "trec_eval m_Rprec.c", "Rprec", "Rprec",
            params=("rel",), function=set_measures.r_precision),
    Measure("Bpref", "none", lambda lists, s: bpref.bpref(lists, s.rel),
            "(1/R) sum_{relevant r} (1 - min(n_r, R) / min(N, R))",
            "Buckley & Voorhees 2004; trec_eval m_bpref.c", "bpref", "Bpref", params=("rel",),
            function=bpref.bpref),
    Measure("Success", "required", lambda lists, s: set_measures.success(lists, s.k, s.rel),
            "1 if a relevant document is in the top k, else 0", "trec_eval m_success.c",
            "success.k", "Success@k", params=("rel",), function=set_measures.success),
    Measure("Judged", "required", lambda lists, s: set_measures.judged(lists, s.k),
            "(documents of the top k in the qrels) / min(k, retrieved)",
            "ir_measures (after OpenNIR)", "", "Judged@k", function=set_measures.judged),
    Measure("ERR", "required", lambda lists, s: err.expected_reciprocal_rank(lists, s.k, s.gmax),
            "sum_{r<=k} (1/r) R(r) prod_{i<r} (1 - R(i)), R(r) = (2^g(r) - 1) / 2^gmax",
            "Chapelle et al. 2009; gdeval", "", "ERR@k", params=("gmax",),
            function=err.expected_reciprocal_rank),
    Measure("nG", "1", _ntcir("nG"), "g(1) / g*(1)", "Sakai 2017 §4; NTCIREVAL", "", "",
            NTCIREVAL, function=ng_at_k, defaults={"k": 1}),
    Measure("nERR", "optional", _ntcir("nERR"), "ERR@k / ERR*@k, R(r) = g(r) / (gmax_topic + 1)",
            "Chapelle et al. 2009; NTCIREVAL direct-gain mode", "", "", NTCIREVAL,
            function=nerr_at_k, defaults={"k": 10}),
    Measure("P+", "optional", _ntcir("P+"), "(1/C(rp)) sum_{r<=rp, g(r)>0} BR(r)",
            "Sakai 2006; Shang et al. NTCIR-12 STC overview", "", "", NTCIREVAL, function=p_plus,
            defaults={"beta": 1.0, "k": 10}),
    Measure("Q", "optional", _ntcir("Q"), "(1/R) sum_{g(r)>0} BR(r)", "Sakai 2004", "", "",
            NTCIREVAL, function=q_measure, defaults={"beta": 1.0, "k": None}),
)}

#: Cutoffs a measure takes when the name gives none (NTCIREVAL's lists are cut at 10).
_DEFAULT_K = {"nG": 1, "nERR": 10, "P+": 10}


def measures_table() -> pd.DataFrame:
    """The registry as a table (``evalkit measures``, ``docs/measures.md``)."""
    return pd.DataFrame([
        {"measure": m.name, "parameters": m.parameters or "—", "family": m.family,
         "trec_eval": m.trec_eval or "—", "ir_measures": m.ir_measures or "—",
         "formula": m.formula, "source": m.source,
         "function": f"{m.function.__module__.rpartition('.')[2]}.{m.function.__name__}"}
        for m in MEASURES.values()])


_NAME = re.compile(r"(?P<base>[A-Za-z]+\+?)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>\d+))?")


def _examples() -> str:
    return "nDCG@10, AP, AP(rel=2), P@10, R@100, RR, nERR@10, P+, Q; 'evalkit measures' lists all"


def parse_measure(name: str) -> MeasureSpec:
    """``"nDCG@10"``, ``"P(rel=2)@10"``, ``"AP"``, ``"nERR@10"`` -> a :class:`MeasureSpec`.

    The names are :data:`MEASURES`' bases, each with its parameters in
    parentheses (``rel=L``, ``gmax=G``) and a cutoff ``@k``, ``k >= 1``,
    where the measure takes one; NTCIREVAL's without a cutoff take theirs
    (``nERR``: 10, ``P+``: 10, ``Q``: the whole run).  ``nG`` takes only
    ``@1``: g(k)/g*(k) at a deeper rank is not bounded by 1.
    """
    text = str(name).strip()
    match = _NAME.fullmatch(text)
    if not match or match.group("base") not in MEASURES:
        raise ParameterError("measure", name, f"a measure such as {_examples()}")
    m = MEASURES[match.group("base")]
    k = int(match.group("k")) if match.group("k") is not None else None
    if k is not None and k < 1:
        raise ParameterError("measure", name, "a cutoff @k with k >= 1")
    if m.cutoff == "none" and k is not None:
        raise ParameterError("measure", name, f"{m.base} without a cutoff (it has none)")
    if m.cutoff == "required" and k is None:
        raise ParameterError("measure", name, f"{m.base}@k with a cutoff, e.g. {m.base}@10")
    if m.cutoff == "1":
        if k not in (None, 1):
            raise ParameterError("measure", name, "nG@1 (deeper cutoffs: nERR@k, nDCG@k, P+@k, Q@k)")
        k = 1
    if k is None:
        k = _DEFAULT_K.get(m.base)
    values = _params(name, m, match.group("params"))
    return MeasureSpec(text, m.base, k, **values)


def _params(name: str, m: Measure, text: str | None) -> dict:
    out: dict = {}
    if text is None:
        return out
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in m.params:
            accepted = ", ".join(f"{p}=..." for p in m.params) or "none"
            raise ParameterError("measure", name, f"{m.base}'s parameters ({accepted})")
        try:
            number = float(value)
        except ValueError:
            raise ParameterError("measure", name, f"a number for {key}") from None
        if not np.isfinite(number) or number <= 0:
            raise ParameterError("measure", name, f"{key} > 0 (relevance levels start at 1)")
        out[key] = number
    return out
