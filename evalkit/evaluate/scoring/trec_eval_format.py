"""``evalkit score --format trec_eval``: scores laid out as trec_eval prints them, to ``diff``.

trec_eval 10 prints ``printf("%-22s\\t%s\\t%6.4f\\n", name, topic, value)``
(``meas_print_single.c``, ``meas_print_final.c``): the measure's name padded
to 22 characters, a tab, the topic (``all`` for the summary), a tab and the
value with four decimals; counts (``num_q``, ``num_ret``, ``num_rel``,
``num_rel_ret``, ``num_nonrel_judged_ret``) as integers (``%ld``).  With
``-q`` the topics come first, in byte order of their ids (trec_eval sorts
its qrels so), each with every measure; then ``runid`` (the run's tag),
``num_q`` (the topics the means cover) and each measure's summary.  Measures
come in trec_eval's own order (``measures.c``), a measure's cutoffs
ascending, whatever order ``-m`` gave them in.

:func:`trec_eval_name` gives a measure's trec_eval name from the registry's
``trec_eval`` field (``ndcg_cut.k`` -> ``ndcg_cut_10``); a measure trec_eval
does not have (``nERR@10``, ``RR@10``, ``AP(rel=3)`` beside ``--rel-level 2``)
keeps evalkit's name and follows trec_eval's.  One block per run (per judge
and run with ``--per-judge``, judges in the output's order).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = ["TREC_EVAL_ORDER", "COUNTS", "trec_eval_name", "trec_eval_text"]

#: trec_eval 10's measures in the order it computes and prints them (``measures.c``).
TREC_EVAL_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "prefs_num_prefs_poss",
    "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
    "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
    "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj")

#: Measures trec_eval prints as integers (``te_print_*_meas_s_long``).
COUNTS = frozenset({"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"})

#: Measures trec_eval prints only in the summary (``te_print_single_meas_empty``).
SUMMARY_ONLY = frozenset({"num_q", "gm_map", "gm_bpref"})

_TOKEN = re.compile(r"[A-Za-z0-9_]+(?:\.k)?")


def trec_eval_name(spec, rel_level: float | None = None) -> str | None:
    """The name trec_eval prints for ``spec`` (``ndcg_cut_10``, ``P_5``, ``map``), or None
    when trec_eval has no such measure: no ``trec_eval`` name in the registry, a cutoff
    where trec_eval's has none (``RR@10``), or a relevance level other than the global one
    (trec_eval's ``-l``, default 1)."""
    own = getattr(spec, "trec_eval_name", None)
    if own is not None:
        return own
    from ...measures.registry import MEASURES, MeasureSpec, trec_name

    measure = MEASURES.get(spec.base)
    if measure is None or not measure.trec_eval:
        return None
    if "rel" in measure.params and spec.rel != (1.0 if rel_level is None else float(rel_level)):
        return None
    if isinstance(spec, MeasureSpec):            # the registry names its own
        return trec_name(spec) or None
    for token in _TOKEN.findall(measure.trec_eval):
        if token.endswith(".k") and spec.k is not None:
            return f"{token[:-2]}_{spec.k}"
        if not token.endswith(".k") and spec.k is None:
            return token
    return None


def _order_key(name: str, given: int) -> tuple:
    """Where trec_eval prints ``name``: its measure's place in :data:`TREC_EVAL_ORDER`, then
    the cutoff; evalkit's own names after all of them, in the order given."""
    for place, base in sorted(enumerate(TREC_EVAL_ORDER), key=lambda e: -len(e[1])):
        if name == base:
            return (place, 0.0, given)
        if name.startswith(base + "_"):
            try:
                return (place, float(name[len(base) + 1:]), given)
            except ValueError:                     # a list of parameters: 11pt_avg_.25,.5,.75
                return (place, 0.0, given)
    return (len(TREC_EVAL_ORDER), 0.0, given)


def _value(name: str, value) -> str:
    if isinstance(value, str):                     # relstring: quoted, as m_relstring.c
        return f"'{value}'"
    if name in COUNTS and np.isfinite(value):
        return f"{int(round(value))}"
    return f"{value:6.4f}"


def _line(name: str, topic: str, value: str) -> str:
    return f"{name:<22}\t{topic}\t{value}\n"


def trec_eval_text(frame: pd.DataFrame) -> str:
    """``frame`` (:func:`~evalkit.evaluate.scoring.engine.score`'s output) as trec_eval prints
    it (see the module docstring); ``frame.attrs`` gives the names (``trec_eval_names``) and
    the topics each mean covers (``num_q``)."""
    names = dict(frame.attrs.get("trec_eval_names", {}))
    texts = frame.attrs.get("strings", [])            # (judge, run, measure, topic, text)
    given = list(pd.unique(frame["measure"])) + list(dict.fromkeys(t[2] for t in texts))
    printed = {m: names.get(m) or m for m in given}
    ordered = sorted(given, key=lambda m: _order_key(printed[m], given.index(m)))
    num_q = frame.attrs.get("num_q", {})
    has_judge = "judge" in frame.columns
    keys = ["judge", "run"] if has_judge else ["run"]
    out = []
    for key, block in frame.groupby(keys, sort=False):
        judge, run = key if has_judge else (None, key[0] if isinstance(key, tuple) else key)
        per_column = num_q.get(judge) if judge is not None else (
            next(iter(num_q.values())) if len(num_q) == 1 else None)
        values = {(m, t): v for m, t, v in block[["measure", "topic", "value"]].itertuples(
            index=False)}
        values.update({(m, t): text for j, r, m, t, text in texts
                       if r == run and (judge is None or j == judge)})
        topics = sorted({t for _, t in values if t != "all"}, key=lambda t: str(t).encode())
        for topic in topics:
            out.extend(_line(printed[m], topic, _value(printed[m], values[m, topic]))
                       for m in ordered if (m, topic) in values and printed[m] not in SUMMARY_ONLY)
        out.append(_line("runid", "all", str(run)))
        if per_column is not None and "num_q" not in printed.values():
            out.append(_line("num_q", "all", str(per_column.get(run, 0))))
        out.extend(_line(printed[m], "all", _value(printed[m], values[m, "all"]))
                   for m in ordered if (m, "all") in values)
    return "".join(out)
