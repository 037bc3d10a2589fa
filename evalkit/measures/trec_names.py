"""trec_eval's names for evalkit's measures, and evalkit's own: the tables :mod:`evalkit.measures.names` reads with.

* :data:`TREC_NAMES`: trec_eval 10's measures (``measures.c``) -> evalkit's
  base, how the ``-m`` parameters read and trec_eval's defaults;
* :data:`SETS`: trec_eval's sets ``official``, ``all_trec`` and ``set``;
* :data:`IR_MEASURES_ALIASES`: ir_measures' other names for a measure;
* :func:`trec_name`: the name trec_eval prints for a spec (``P_10``,
  ``iprec_at_recall_0.10``, ``11pt_avg_.25,.5,.75``: list parameters as typed,
  as trec_eval prints them); :func:`canonical_name`: evalkit's.
"""

from __future__ import annotations

import re

from .catalogue import DEFAULT_K, MEASURES, MeasureSpec
from .interpolated import DEFAULT_LEVELS

__all__ = ["TREC_NAMES", "SETS", "IR_MEASURES_ALIASES", "trec_name", "canonical_name"]

#: ir_measures' aliases (``ir_measures.measures.registry``) -> evalkit's base.
IR_MEASURES_ALIASES = {"MAP": "AP", "NDCG": "nDCG", "MRR": "RR", "RPrec": "Rprec",
                       "BPref": "Bpref", "Precision": "P", "Recall": "R"}

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: trec_eval's measure -> (evalkit base, how its parameters read, its defaults):
#: ``plain`` none; ``cut`` cutoffs, one measure each; ``level`` levels, one measure each;
#: ``list`` one measure taking the list; ``one`` one number; ``pairs`` ``name=value`` pairs.
TREC_NAMES: dict[str, tuple[str, str, tuple]] = {
    "num_q": ("NumQ", "plain", ()), "num_ret": ("NumRet", "plain", ()),
    "num_rel": ("NumRel", "plain", ()), "num_rel_ret": ("NumRelRet", "plain", ()),
    "map": ("AP", "plain", ()), "gm_map": ("gm_map", "plain", ()),
    "Rprec": ("Rprec", "plain", ()), "bpref": ("Bpref", "plain", ()),
    "recip_rank": ("RR", "plain", ()), "iprec_at_recall": ("IPrec", "level", DEFAULT_LEVELS),
    "P": ("P", "cut", _CUTS), "relstring": ("relstring", "one", (10,)),
    "recall": ("R", "cut", _CUTS), "unj": ("unj", "cut", (5, 10, 20)),
    "rbp": ("rbp", "pairs", ()), "rbp_resid": ("rbp_resid", "pairs", ()),
    "infAP": ("infAP", "plain", ()), "gm_bpref": ("gm_bpref", "plain", ()),
    "utility": ("utility", "list", ()), "11pt_avg": ("11pt_avg", "list", ()),
    "ndcg": ("nDCG", "pairs", ()), "dcg": ("DCG", "pairs", ()), "relative_P": ("relative_P", "cut", _CUTS),
    "Rprec_mult": ("Rprec_mult", "level", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    "success": ("Success", "cut", (1, 5, 10)), "map_cut": ("AP", "cut", _CUTS),
    "ndcg_cut": ("nDCG", "cut", _CUTS), "ndcg_rel": ("ndcg_rel", "pairs", ()),
    "Rndcg": ("Rndcg", "pairs", ()), "binG": ("binG", "plain", ()), "G": ("G", "pairs", ()),
    "set_P": ("SetP", "plain", ()), "set_recall": ("SetR", "plain", ()),
    "set_relative_P": ("SetRelP", "plain", ()), "set_map": ("SetAP", "plain", ()),
    "set_F": ("SetF", "one", ()), "num_nonrel_judged_ret": ("num_nonrel_judged_ret", "plain", ()),
}

#: trec_eval 10's sets (``measures.c``), ``runid`` left out.
SETS = {
    "official": ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp",
                 "rbp_resid", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P",
                 "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G",
                 "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                 "num_nonrel_judged_ret"),
    "set": ("num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
}


def _num(x: float) -> str:
    return f"{x:g}"


def canonical_name(spec: MeasureSpec) -> str:
    """evalkit's name for ``spec`` (``nDCG@10``, ``IPrec@0.1``, ``RBP(p=0.9)``,
    ``utility.2,-1,0,0``)."""
    m = MEASURES[spec.base]
    if spec.values:
        trec = {"utility": "utility", "11pt_avg": "11pt_avg"}[spec.base]
        return f"{trec}.{','.join(_num(v) for v in spec.values)}"
    params = []
    if spec.rel_given:
        params.append(f"rel={_num(spec.rel)}")
    if spec.gmax is not None:
        params.append(f"gmax={_num(spec.gmax)}")
    if spec.x is not None and m.cutoff != "level":
        params.append(("beta=" if spec.base == "SetF" else "p=") + _num(spec.x))
    if spec.gains:
        params.append("gains={" + ",".join(f"{int(g)}:{_num(v)}" for g, v in spec.gains) + "}")
    if spec.dcg != "log2":
        params.append(f"dcg='{spec.dcg}'")
    name = spec.base + (f"({','.join(params)})" if params else "")
    if m.cutoff == "level":
        return f"{name}@{_num(spec.x)}"
    if spec.k is not None and m.cutoff != "1" and spec.k != DEFAULT_K.get(spec.base):
        return f"{name}@{spec.k}"
    return name if m.cutoff != "1" else f"{name}@1"


_TREC_OF = {}
for _trec_name, (_base, _kind, _) in TREC_NAMES.items():
    _TREC_OF.setdefault((_base, _kind in ("cut",)), _trec_name)


def trec_name(spec: MeasureSpec) -> str:
    """The name trec_eval prints for ``spec`` ("" when trec_eval lacks the measure)."""
    m = MEASURES[spec.base]
    if spec.dcg != "log2" or m.family != "trec_eval":
        return ""
    if spec.base == "relstring":
        return "relstring" if spec.k == 10 else f"relstring_{spec.k}"
    if spec.k is not None and m.cutoff in ("optional", "required"):
        name = _TREC_OF.get((spec.base, True))
        return f"{name}_{spec.k}" if name else ""
    name = _TREC_OF.get((spec.base, False), "")
    if not name:
        return ""
    if m.cutoff == "level":
        return f"{name}_{spec.x:3.2f}"
    typed = re.fullmatch(re.escape(name) + r"[._](.+)", spec.name)
    if typed and (spec.values or spec.gains or spec.x is not None):
        return f"{name}_{typed.group(1)}"              # trec_eval prints the parameters as typed
    if spec.values:
        return f"{name}_{','.join(_num(v) for v in spec.values)}"
    if spec.gains:
        return f"{name}_{','.join(f'{int(g)}={_num(v)}' for g, v in spec.gains)}"
    if spec.x is not None:
        return f"{name}_{'p=' if spec.base in ('rbp', 'rbp_resid') else ''}{_num(spec.x)}"
    return name
