"""The measures themselves: each one's name, parameters, formula, sources and function (:data:`MEASURES`).

:class:`Measure` describes a measure (what a user types, its cutoff, the
parameters it takes, its formula, where it comes from, its trec_eval and
ir_measures names, how its ``all`` row is formed and the function that
computes it on :class:`~evalkit.measures.ranked.RankedLists`);
:class:`MeasureSpec` is one measure as a name asked for it, with its
parameters.  :mod:`evalkit.measures.registry` reads names into specs and
renders the table; this module is the data both stand on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import (average_precision, bpref, counts, cumulated_gain, err, infap, interpolated, ndcg,
               ntcireval, ranked, rbp, relstring, set_measures, unranked)
from . import reciprocal_rank as rr
from .graded import nerr_at_k, ng_at_k, p_plus, q_measure

__all__ = ["Measure", "MEASURES", "MeasureSpec", "TREC_EVAL", "NTCIREVAL", "DEFAULT_K"]

#: The two families (a measure's ``family``).
TREC_EVAL, NTCIREVAL = "trec_eval", "NTCIREVAL"


@dataclass(frozen=True)
class MeasureSpec:
    """A measure as named by the user: ``name`` echoes it (or, for one of several measures
    a name expands to, names that one); ``base``, ``k`` and the parameters define it.

    ``rel``: the relevance level of binary measures, ``rel_given`` whether the name set it
    (``AP(rel=2)``: a global relevance level does not override it); ``gmax``: ERR's largest
    gain (None: the column's own); ``x``: the measure's one number (IPrec's recall level,
    Rprec_mult's multiple of R, SetF's beta, RBP's persistence p; None: its default);
    ``values``: its list (utility's four coefficients, 11pt_avg's recall levels);
    ``gains``: ``(level, gain)`` pairs (trec_eval's ``ndcg.1=3,2=9``, ir_measures'
    ``gains={1:3,2:9}``); ``dcg``: ``"log2"`` or ``"exp-log2"`` (gain ``2^g - 1``)."""

    name: str
    base: str
    k: int | None
    rel: float = 1.0
    gmax: float | None = None
    rel_given: bool = False
    x: float | None = None
    values: tuple = ()
    gains: tuple = ()
    dcg: str = "log2"

    @property
    def family(self) -> str:
        return MEASURES[self.base].family

    @property
    def full_depth(self) -> bool:
        """Whether the measure reads the whole run (no cutoff)."""
        return self.k is None

    @property
    def summary(self) -> str:
        """How its ``all`` row is formed: ``mean``, ``sum`` or ``gmean``."""
        return MEASURES[self.base].summary

    @property
    def strings(self) -> bool:
        """Whether its values are strings (``relstring``), not numbers."""
        return MEASURES[self.base].strings

    def at_level(self, level: float) -> "MeasureSpec":
        """The spec under a global relevance level (trec_eval's ``-l``): ``rel = level`` for
        a binary measure whose name gave no ``rel`` (``AP(rel=2)`` keeps 2); unchanged for the
        others (graded ones, and ir_measures' ``RBP``, graded unless its name says ``rel``)."""
        from dataclasses import replace

        if self.rel_given or self.base == "RBP" or "rel" not in MEASURES[self.base].params:
            return self
        return replace(self, rel=float(level))

    def param(self, default: float) -> float:
        """``x``, or ``default`` when the name gave none."""
        return default if self.x is None else self.x



@dataclass(frozen=True)
class Measure:
    """A measure's name, parameters, formula and sources (docs and checks are generated)."""

    base: str                      # what a user types before (params) and @k
    cutoff: str                    # "optional", "required", "none", "level" (@x) or a fixed "1"
    compute: Callable              # (RankedLists, MeasureSpec) -> (G, T) values
    formula: str
    source: str
    trec_eval: str                 # trec_eval's name ("" when it has none)
    ir_measures: str
    family: str = TREC_EVAL
    params: tuple[str, ...] = ()   # accepted inside (): "rel", "gmax", "p", "beta", "gains", "dcg"
    function: Callable | None = field(default=None)   # the function that computes it
    defaults: dict = field(default_factory=dict)      # NTCIREVAL's per-list function's
    summary: str = "mean"          # the all row: "mean", "sum" or "gmean" (SUMMARIES)
    strings: bool = False          # values are strings (relstring): not in the numbers

    @property
    def name(self) -> str:
        """How a user writes it (``nDCG, nDCG@k``, ``P@k``, ``nG@1``, ``IPrec@r``)."""
        if self.cutoff == "optional":
            return f"{self.base}, {self.base}@k"
        if self.cutoff == "level":
            return f"{self.base}@{LEVEL_LETTER.get(self.base, 'x')}"
        return self.base + {"required": "@k", "none": ""}.get(self.cutoff, f"@{self.cutoff}")

    @property
    def parameters(self) -> str:
        """What goes inside the parentheses, with its default."""
        text = {"rel": "rel=L (default 1)", "gmax": "gmax=G (default: the scale's top)",
                "beta": "beta=B (default 1)", "dcg": "dcg='exp-log2' (default 'log2')",
                "gains": "gains={level:gain,...}",
                "p": f"p=P (default {P_DEFAULT.get(self.base, '')})"}
        if self.base == "RBP":
            text["rel"] = "rel=L (default: graded)"
        cut = {"nERR": "@k default 10", "P+": "@k default 10", "Q": "@k default: whole run",
               "relstring": "@k default 10", "utility": "utility.a,b,c,d (default 1,-1,0,0)",
               "11pt_avg": "11pt_avg.x1,x2,... (default 0,0.1,...,1)"}
        return "; ".join([text[p] for p in self.params] + ([cut[self.base]] if self.base in cut else []))


#: The letter a "level" measure's @ parameter is shown with.
LEVEL_LETTER = {"IPrec": "r", "Rprec_mult": "x"}
#: Persistence defaults: each tool's own.
P_DEFAULT = {"rbp": rbp.TREC_EVAL_P, "rbp_resid": rbp.TREC_EVAL_P, "RBP": rbp.IR_MEASURES_P}


def _ntcir(base):
    return lambda lists, s: ntcireval.ntcireval(lists, base, s.k)


def _gained(lists, s):
    return ndcg.with_gains(lists, s.dcg, s.gains)


def _strings_only(lists, s):
    raise TypeError(f"{s.name} gives strings: evalkit.measures.relstring.relstring computes it")


def _shared(lists, base: str, rel: float):
    """AP and bpref over the whole run, computed once per run for AP and gm_map (Bpref and
    gm_bpref), which differ only in their summary."""
    function = {"AP": lambda: average_precision.average_precision(lists, None, rel),
                "Bpref": lambda: bpref.bpref(lists, rel)}[base]
    return ranked.memo(lists, (base, rel), function)

MEASURES: dict[str, Measure] = {m.base: m for m in (
    Measure("nDCG", "optional", lambda lists, s: ndcg.ndcg(_gained(lists, s), s.k),
            "DCG@k / IDCG@k, DCG@k = sum_{r<=k} g(r) / log2(r+1); exp-log2: g -> 2^g - 1",
            "Järvelin & Kekäläinen 2002; trec_eval m_ndcg_cut.c, m_ndcg.c",
            "ndcg_cut.k (ndcg)", "nDCG@k (nDCG)", params=("gains", "dcg"), function=ndcg.ndcg),
    Measure("DCG", "optional", lambda lists, s: ndcg.discounted_gain(_gained(lists, s), s.k),
            "DCG@k = sum_{r<=k} g(r) / log2(r+1), unnormalised",
            "Järvelin & Kekäläinen 2002; trec_eval 10 m_ndcg.c; ranx dcg@k (dcg_burges@k: "
            "dcg='exp-log2')", "dcg (whole run)", "",
            params=("gains", "dcg"), function=ndcg.discounted_gain),
    Measure("AP", "optional", lambda lists, s: average_precision.average_precision(lists, s.k, s.rel)
            if s.k is not None else _shared(lists, "AP", s.rel),
            "(1/R) sum_{r<=k, rel(r)} P@r", "trec_eval m_map.c, m_map_cut.c", "map (map_cut.k)",
            "AP (AP@k)", params=("rel",), function=average_precision.average_precision),
    Measure("gm_map", "none", lambda lists, s: _shared(lists, "AP", s.rel),
            "AP per topic; all: exp(mean log max(AP, 0.00001))", "trec_eval m_gm_map.c",
            "gm_map", "", params=("rel",), function=average_precision.average_precision,
            summary="gmean"),
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
    Measure("Rprec_mult", "level", lambda lists, s: set_measures.r_precision_multiple(
                lists, s.x, s.rel),
            "P@c, c = (long)(x R + 0.9)", "trec_eval m_Rprec_mult.c", "Rprec_mult.x", "",
            params=("rel",), function=set_measures.r_precision_multiple),
    Measure("Bpref", "none", lambda lists, s: _shared(lists, "Bpref", s.rel),
            "(1/R) sum_{relevant r} (1 - min(n_r, R) / min(N, R))",
            "Buckley & Voorhees 2004; trec_eval m_bpref.c", "bpref", "Bpref", params=("rel",),
            function=bpref.bpref),
    Measure("gm_bpref", "none", lambda lists, s: _shared(lists, "Bpref", s.rel),
            "Bpref per topic; all: exp(mean log max(Bpref, 0.00001))", "trec_eval m_gm_bpref.c",
            "gm_bpref", "", params=("rel",), function=bpref.bpref, summary="gmean"),
    Measure("infAP", "none", lambda lists, s: infap.inferred_ap(lists, s.rel),
            "(1/R) sum_{relevant r} E[P@r], E[P@r] = 1/r + ((r-1)/r)(pooled above/(r-1))"
            "((rel above + e)/(judged above + 2e))",
            "Yilmaz & Aslam 2006; trec_eval m_infap.c", "infAP", "infAP", params=("rel",),
            function=infap.inferred_ap),
    Measure("IPrec", "level", lambda lists, s: interpolated.interpolated_precision(
                lists, s.x, s.rel),
            "max_{i >= rank of the c-th relevant} P@i, c = lround(r R); 0 when fewer found",
            "trec_eval 10 m_iprec_at_recall.c (lround; 9: (long)(r R + 0.9))",
            "iprec_at_recall.r", "IPrec@r", params=("rel",),
            function=interpolated.interpolated_precision),
    Measure("11pt_avg", "none", lambda lists, s: interpolated.eleven_point_average(
                lists, s.values or interpolated.DEFAULT_LEVELS, s.rel),
            "mean of IPrec@r over r = 0, 0.1, ..., 1", "trec_eval 10 m_11pt_avg.c (lround)",
            "11pt_avg", "", params=("rel",), function=interpolated.eleven_point_average),
    Measure("Success", "required", lambda lists, s: set_measures.success(lists, s.k, s.rel),
            "1 if a relevant document is in the top k, else 0", "trec_eval m_success.c",
            "success.k", "Success@k", params=("rel",), function=set_measures.success),
    Measure("relative_P", "required", lambda lists, s: set_measures.relative_precision(
                lists, s.k, s.rel),
            "(relevant in the top k) / min(k, R)", "trec_eval m_rel_P.c", "relative_P.k", "",
            params=("rel",), function=set_measures.relative_precision),
    Measure("NumQ", "none", lambda lists, s: counts.num_q(lists), "1 per topic; all: the sum",
            "trec_eval m_num_q.c", "num_q", "NumQ", function=counts.num_q, summary="sum"),
    Measure("NumRet", "none", lambda lists, s: counts.num_ret(lists),
            "documents returned; all: the sum", "trec_eval m_num_ret.c", "num_ret", "NumRet",
            function=counts.num_ret, summary="sum"),
    Measure("NumRel", "none", lambda lists, s: counts.num_rel(lists, s.rel),
            "R, relevant documents judged; all: the sum", "trec_eval m_num_rel.c", "num_rel",
            "NumRel", params=("rel",), function=counts.num_rel, summary="sum"),
    Measure("NumRelRet", "none", lambda lists, s: counts.num_rel_ret(lists, s.rel),
            "relevant documents returned; all: the sum", "trec_eval m_num_rel_ret.c",
            "num_rel_ret", "NumRet(rel=1) (NumRelRet)", params=("rel",),
            function=counts.num_rel_ret, summary="sum"),
    Measure("num_nonrel_judged_ret", "none", lambda lists, s: counts.num_nonrel_judged_ret(
                lists, s.rel),
            "judged non-relevant documents returned; all: the sum",
            "trec_eval m_num_nonrel_judged_ret.c", "num_nonrel_judged_ret", "", params=("rel",),
            function=counts.num_nonrel_judged_ret, summary="sum"),
    Measure("SetP", "none", lambda lists, s: unranked.set_precision(lists, s.rel),
            "rel_ret / ret", "trec_eval m_set_P.c", "set_P", "SetP", params=("rel",),
            function=unranked.set_precision),
    Measure("SetR", "none", lambda lists, s: unranked.set_recall(lists, s.rel),
            "rel_ret / R", "trec_eval m_set_recall.c", "set_recall", "SetR", params=("rel",),
            function=unranked.set_recall),
    Measure("SetAP", "none", lambda lists, s: unranked.set_map(lists, s.rel),
            "rel_ret^2 / (ret R)", "trec_eval m_set_map.c", "set_map", "SetAP", params=("rel",),
            function=unranked.set_map),
    Measure("SetF", "none", lambda lists, s: unranked.set_f(lists, s.param(1.0), s.rel),
            "(beta + 1) P R / (beta P + R), P = rel_ret / ret, R = rel_ret / R",
            "van Rijsbergen 1979; trec_eval m_set_F.c", "set_F.beta", "SetF",
            params=("rel", "beta"), function=unranked.set_f),
    Measure("SetRelP", "none", lambda lists, s: unranked.set_relative_precision(lists, s.rel),
            "rel_ret / min(ret, R)", "trec_eval m_set_rel_P.c", "set_relative_P",
            "SetP(relative=True) (SetRelP)", params=("rel",),
            function=unranked.set_relative_precision),
    Measure("utility", "none", lambda lists, s: unranked.utility(
                lists, s.values or unranked.DEFAULT_UTILITY, s.rel),
            "a rel_ret + b (ret - rel_ret) + c (R - rel_ret) + d (N + rel_ret - ret - R)",
            "trec_eval m_utility.c", "utility.a,b,c,d", "", params=("rel",),
            function=unranked.utility),
    Measure("binG", "none", lambda lists, s: cumulated_gain.bin_g(lists, s.rel),
            "(1/R) sum_{relevant r} 1 / log2(2 + non-relevant above r)", "trec_eval m_binG.c",
            "binG", "", params=("rel",), function=cumulated_gain.bin_g),
    Measure("G", "none", lambda lists, s: cumulated_gain.g_measure(_gained(lists, s)),
            "(1/sum I) sum_{g(r)!=0} g(r) / log2(2 + C(r) - S(r)), C(r) = sum_{i<=r} max(I(i), 1)",
            "Buckley 2008; trec_eval m_G.c", "G", "", params=("gains",),
            function=cumulated_gain.g_measure),
    Measure("ndcg_rel", "none", lambda lists, s: cumulated_gain.ndcg_rel(_gained(lists, s)),
            "nDCG averaged over the documents with a positive gain", "trec_eval m_ndcg_rel.c",
            "ndcg_rel", "", params=("gains",), function=cumulated_gain.ndcg_rel),
    Measure("Rndcg", "none", lambda lists, s: cumulated_gain.r_ndcg(
                _gained(lists, s), s.rel, ranked.num_relevant(lists, s.rel)),
            "nDCG averaged over the ranks where the ideal gain changes (and the run's end)",
            "trec_eval m_Rndcg.c", "Rndcg", "", params=("rel", "gains"),
            function=cumulated_gain.r_ndcg),
    Measure("rbp", "none", lambda lists, s: rbp.rbp(lists, s.param(rbp.TREC_EVAL_P)),
            "(1 - p) sum_r rel(r) p^(r-1), rel(r) = g(r) / max(1, g*)",
            "Moffat & Zobel 2008; trec_eval 10 m_rbp.c", "rbp", "", params=("p",),
            function=rbp.rbp),
    Measure("rbp_resid", "none", lambda lists, s: rbp.rbp_residual(lists, s.param(rbp.TREC_EVAL_P)),
            "(1 - p) sum_{unjudged r <= n} p^(r-1) + p^n",
            "Moffat & Zobel 2008; trec_eval 10 m_rbp_resid.c", "rbp_resid", "", params=("p",),
            function=rbp.rbp_residual),
    Measure("RBP", "optional", lambda lists, s: rbp.ir_measures_rbp(
                lists, s.k, s.param(rbp.IR_MEASURES_P), s.rel if s.rel_given else None),
            "(1 - p) sum_{r<=k} g(r) p^(r-1) (rel=L: 1 for g(r) >= L)",
            "Moffat & Zobel 2008; ir_measures (trectools, cwl_eval)", "", "RBP (RBP@k)",
            params=("p", "rel"), function=rbp.ir_measures_rbp),
    Measure("unj", "required", lambda lists, s: set_measures.unjudged(lists, s.k),
            "(returned documents of the top k not judged) / k", "trec_eval 10 m_unjudged.c",
            "unj.k", "", function=set_measures.unjudged),
    Measure("Judged", "required", lambda lists, s: set_measures.judged(lists, s.k),
            "(documents of the top k in the qrels) / min(k, retrieved)",
            "ir_measures (after OpenNIR)", "", "Judged@k", function=set_measures.judged),
    Measure("relstring", "optional", _strings_only,
            "the grades of the top k as characters (- not in the qrels, . unjudged, > above 9)",
            "trec_eval m_relstring.c", "relstring.k", "", function=relstring.relstring,
            summary="none", strings=True),
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
DEFAULT_K = {"nG": 1, "nERR": 10, "P+": 10, "relstring": relstring.DEFAULT_LENGTH}
