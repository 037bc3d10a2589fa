"""Every measure ``evalkit score`` knows, named as ir_measures names it, and the names people type.

One place names, documents and cites each measure: :data:`MEASURES`
(:mod:`evalkit.measures.catalogue`) holds
its name, parameters, formula, source, its trec_eval and ir_measures
equivalents, how its summary over topics is formed (``summary``: the mean,
the sum for trec_eval's counts, the geometric mean for ``gm_map`` and
``gm_bpref``) and the function that computes it; ``evalkit measures`` and
the table in ``docs/measures.md`` are generated from it
(:func:`measures_table`).  :func:`expand_measures` reads a name as
``evalkit score --measure`` does — ir_measures' names and aliases
(``nDCG@10``, ``NDCG@10``, ``MAP``, ``nDCG(cutoff=10)``), trec_eval's ``-m``
specifications (``ndcg_cut.10,20``, ``P_10``, ``iprec_at_recall..10,.20``)
and its sets ``all_trec`` and ``official`` (:mod:`evalkit.measures.names`) —
into one or more :class:`MeasureSpec`; :func:`parse_measure` reads a name
that means one measure.

Two families, each with its own rules:

* trec_eval's (``nDCG@10``, ``AP``, ``P@10``, ``R@100``, ``RR``, ``Rprec``,
  ``Bpref``, ``Success@k``, ``infAP``, ``IPrec@0.1``, the counts, the set
  measures, trec_eval 10's ``rbp`` and ``unj@k``..., ``Judged@k``, and
  Chapelle's ``ERR@k``): the values of trec_eval on every topic of the
  qrels, 0 for a topic without a relevant document; binary ones take a
  relevance level, ``AP(rel=2)``, ``P(rel=2)@10`` (default 1), as
  ir_measures writes it;
* NTCIREVAL's (``nG@1``, ``nERR@k``, ``P+``, ``Q``, Sakai 2017 §4): a topic
  without a positive gain cannot be normalised and is left out.

``relstring`` is a string per topic, not a number: it is flagged
``strings`` and computed by :func:`evalkit.measures.relstring.relstring`.
"""

from __future__ import annotations

import pandas as pd

from .catalogue import DEFAULT_K, MEASURES, NTCIREVAL, TREC_EVAL, Measure, MeasureSpec
from .names import expand
from .summaries import SUMMARIES, summarise
from .trec_names import trec_name

__all__ = ["Measure", "MEASURES", "measures_table", "MeasureSpec", "parse_measure",
           "expand_measures", "expand_all", "summarise", "SUMMARIES", "TREC_EVAL", "NTCIREVAL",
           "DEFAULT_K", "trec_name"]


def measures_table() -> pd.DataFrame:
    """The registry as a table (``evalkit measures``, ``docs/measures.md``)."""
    return pd.DataFrame([
        {"measure": m.name, "parameters": m.parameters or "—", "family": m.family,
         "trec_eval": m.trec_eval or "—", "ir_measures": m.ir_measures or "—",
         "all": m.summary, "formula": m.formula, "source": m.source,
         "function": f"{m.function.__module__.rpartition('.')[2]}.{m.function.__name__}"}
        for m in MEASURES.values()])


def expand_measures(name: str) -> list[MeasureSpec]:
    """Every measure ``name`` means (:func:`evalkit.measures.names.expand`): one for
    ``nDCG@10``, several for ``P.5,10,15``, ``all_trec`` or ``official``."""
    return expand(name)


def expand_all(measures, strings: bool = False) -> list[MeasureSpec]:
    """The specs of every name of ``measures`` (one name as a string, or several) in order,
    each once (``--measure all_trec --measure rbp`` scores rbp once); a string measure
    (``relstring``) is refused unless ``strings``."""
    from ..errors import ParameterError

    specs = list(dict.fromkeys(s for m in ([measures] if isinstance(measures, str) else measures)
                               for s in expand_measures(m)))
    if not strings:
        for s in specs:
            if s.strings:
                raise ParameterError("measure", s.name, "a measure with numbers (relstring "
                                     "gives strings; evalkit score --format trec_eval prints it)")
    return specs


def parse_measure(name: str) -> MeasureSpec:
    """``"nDCG@10"``, ``"P(rel=2)@10"``, ``"AP"``, ``"nERR@10"``, ``"map"`` -> a :class:`MeasureSpec`.

    The names are :data:`MEASURES`' bases, each with its parameters in
    parentheses (``rel=L``, ``gmax=G``) and a cutoff ``@k``, ``k >= 1``,
    where the measure takes one; NTCIREVAL's without a cutoff take theirs
    (``nERR``: 10, ``P+``: 10, ``Q``: the whole run).  ``nG`` takes only
    ``@1``: g(k)/g*(k) at a deeper rank is not bounded by 1.  ir_measures'
    aliases and trec_eval's names are read too (:func:`expand_measures`); a name
    that means several measures is refused here.
    """
    from ..errors import ParameterError

    specs = expand_measures(name)
    if len(specs) != 1:
        raise ParameterError("measure", name, f"one measure ({name} means {len(specs)}: "
                             "expand_measures reads it)")
    return specs[0]
