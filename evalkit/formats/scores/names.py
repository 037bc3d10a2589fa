"""What a field of a per-topic scores file looks like: a measure, a count, a header word.

The three-field shapes are each other's transpose (trec_eval writes ``measure
topic value``, ir_measures ``qid measure value``), so a file read in the
wrong one does not fail on its own: topics become measures and the mean rows
become a measure called ``all``.  These names let the readers of
:mod:`evalkit.formats.scores` notice that and name the likely shape instead.
"""

from __future__ import annotations

import re

__all__ = ["COUNT_MEASURES", "STRING_MEASURES", "looks_like_measure", "is_count",
           "HEADER_WORDS"]

#: trec_eval's count fields and ir_measures' names for them: numbers of
#: documents or queries, not effectiveness scores.  ``evalkit compare`` tests
#: them only when named with ``--measure``.
COUNT_MEASURES = ("num_ret", "num_rel", "num_rel_ret", "num_q", "num_nonrel_judged_ret",
                  "num_nonpool", "num_unjudged_in_pool", "num_rel_in_pool",
                  "NumRet", "NumRel", "NumRelRet", "NumQ")

#: Per-topic fields that are not numbers: trec_eval's ``relstring`` (the relevance of the
#: top ranks as a string, ``-m all_trec``); read_scores leaves them out and says so once.
STRING_MEASURES = ("relstring",)

# trec_eval -m names, with and without a cutoff suffix (P_10, ndcg_cut_10, iprec_at_recall_0.10)
_TREC_EVAL = {"map", "gm_map", "Rprec", "bpref", "recip_rank", "ndcg", "ndcg_rel", "Rndcg",
              "binG", "G", "infAP", "gm_bpref", "utility", "11pt_avg", "relstring",
              "runid", "num_ret", "num_rel", "num_rel_ret", "num_q", "num_nonpool",
              "num_unjudged_in_pool", "num_rel_in_pool", "unjudged", "Rprec_mult", "set_P",
              "set_R", "set_F", "set_relative_P", "set_recall", "set_map", "success",
              "P", "recall", "iprec_at_recall", "ndcg_cut", "map_cut", "P_avgjg",
              "relative_P", "Rprec_mult_avgjg", "map_avgjg", "yaap", "rel_ret", "ret", "rel"}
_TREC_EVAL_CUT = re.compile(r"^([A-Za-z_]+?)_(\d+(\.\d+)?)$")
# ir_measures / PyTerrier names: AP, nDCG@10, P(rel=2)@5, R@1000, RR, Judged@10, ...
_IR_MEASURES = {"AP", "nDCG", "P", "R", "RR", "Rprec", "Bpref", "Judged", "ERR", "infAP",
                "SetP", "SetR", "SetF", "SetAP", "Success", "NumRet", "NumRel", "NumRelRet",
                "NumQ", "IPrec", "Compat", "alpha_nDCG", "NERR8", "NERR9", "NERR10", "NERR11",
                "INST", "INSQ", "RBP", "SDCG", "AP_IA", "nERR_IA", "alpha_nDCG_IA", "ERR_IA",
                "Accuracy", "MRR", "MAP", "NDCG", "Recall", "Precision"}
_IR_MEASURES_FORM = re.compile(r"^([A-Za-z_]+)(\(.*\))?(@\d+(\.\d+)?)?$")
# evalkit's own (evalkit.measures.registry): nG@1, nERR@10, P+, Q, Q@10, P+@1000
_EVALKIT = re.compile(r"^(nG|nERR|P\+|Q)(@\d+)?$")

#: Words that name a column in some tool's header; a line of them where a
#: number belongs is a header line.
HEADER_WORDS = {"run", "name", "system", "measure", "metric", "topic", "qid", "query_id",
                "query", "value", "score"}


def looks_like_measure(name: str) -> bool:
    """Whether ``name`` is spelled like a measure of trec_eval, ir_measures or evalkit.

    Topic ids (``301``, ``q1``, ``MB171``, ``T08``) do not; ``map``,
    ``P_10``, ``ndcg_cut_10``, ``nDCG@10``, ``P(rel=2)@5``, ``nERR@10`` do.
    """
    if name in _TREC_EVAL or _EVALKIT.match(name):
        return True
    cut = _TREC_EVAL_CUT.match(name)
    if cut and cut.group(1) in _TREC_EVAL:
        return True
    form = _IR_MEASURES_FORM.match(name)
    return bool(form and form.group(1) in _IR_MEASURES and (form.group(2) or form.group(3)
                                                             or name in _IR_MEASURES))


def is_count(measure: str) -> bool:
    """trec_eval's and ir_measures' count fields (``num_ret``, ``NumRel(rel=2)``, ...)."""
    return measure in COUNT_MEASURES or measure.split("(")[0].split("@")[0] in COUNT_MEASURES


def is_header(fields) -> bool:
    """A line whose fields are all column names (``qid measure value``)."""
    words = [f.strip().lower() for f in fields if f.strip()]
    return bool(words) and all(w in HEADER_WORDS for w in words)
