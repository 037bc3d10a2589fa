"""The measure names ``--measure`` reads: evalkit's and ir_measures' names and aliases, trec_eval's ``-m`` specifications and sets.

:func:`expand` turns one name into the :class:`~evalkit.measures.registry.MeasureSpec`
of every measure it means:

* **ir_measures' names** (evalkit's own; ``ir_measures.parse_measure`` reads
  the same): a base, parameters in parentheses as Python keywords, then
  ``@`` and the cutoff (``@`` and the recall level for ``IPrec``):
  ``nDCG@10``, ``AP(rel=2)``, ``nDCG(cutoff=10)``, ``nDCG(dcg='exp-log2')@10``,
  ``nDCG(gains={0:0,1:1,2:3})``, ``IPrec@0.1``, ``RBP(p=0.9)``,
  ``NumRet(rel=1)`` (relevant retrieved), ``SetP(relative=True)``; with
  ir_measures' aliases ``MAP``, ``NDCG``, ``MRR``, ``RPrec``, ``BPref``,
  ``Precision``, ``Recall``, ``NumRelRet``, ``SetRelP``.  Each name keeps its
  own tool's defaults (``RBP``: p = 0.8, ``rbp``: p = 0.9).
* **trec_eval's** ``-m`` specifications, the measure and its parameters after
  ``.`` (or ``_``, as trec_eval prints them and pytrec_eval reads them):
  ``map``, ``P_10``, ``recip_rank``, ``P.5,10,15``, ``ndcg_cut.10,20``,
  ``iprec_at_recall..10,.20``, ``ndcg.1=3,2=9,4=4.5`` (gains per grade),
  ``Rprec_mult.0.2,0.35``, ``utility.2,-1,0,0``, ``11pt_avg..25,.5,.75``,
  ``success.2,5``, ``rbp.p=0.95``; a cutoff list gives one measure per cutoff
  (sorted, as trec_eval sorts them), a bare name trec_eval's defaults
  (``P``: P@5 ... P@1000).
* **trec_eval's sets**: ``official`` (what trec_eval prints without ``-m``),
  ``all_trec`` and ``set``, as trec_eval 10's ``measures.c`` lists them
  (``runid`` is a label, not a measure, and is left out).

A name that means several measures names each one in evalkit's form
(``ndcg_cut.10,20`` gives ``nDCG@10`` and ``nDCG@20``); a name that means one
is echoed as typed.  An unknown name gets "unknown measure X; did you mean
Y".
"""

from __future__ import annotations

import ast
import difflib
import re

import numpy as np

from ..errors import InputError, ParameterError
from .catalogue import DEFAULT_K, MEASURES, MeasureSpec
from .trec_names import IR_MEASURES_ALIASES, SETS, TREC_NAMES, canonical_name

__all__ = ["expand", "UnknownMeasure"]


class UnknownMeasure(ParameterError):
    """A name no tool gives a measure: "unknown measure X; did you mean Y" (``verbatim``: the
    command line prints this message as it is)."""

    verbatim = True

    def __init__(self, name: str, guess: str | None):
        InputError.__init__(self, f"unknown measure {name}"
                            + (f"; did you mean {guess}" if guess else ""),
                            hint="'evalkit measures' lists every measure")
        self.name, self.value, self.expected = "measure", name, guess or ""


_FORM = re.compile(r"(?P<base>[A-Za-z0-9_]+\+?)(?:\((?P<params>.*)\))?"
                   r"(?:@(?P<at>[^@()]*))?")
_TREC = re.compile(r"(?P<name>[A-Za-z0-9_]+?)(?:[._](?P<params>[-+0-9.,=eE]+))?")


def expand(name: str) -> list[MeasureSpec]:
    """Every measure ``name`` means (see the module docstring)."""
    text = str(name).strip()
    if text in SETS:
        return [s for member in SETS[text] for s in _trec(member, member, None, several=True)]
    trec = _trec_split(text)
    if trec is not None:
        specs = _trec(text, *trec)
        return specs if len(specs) != 1 else [_renamed(specs[0], text)]
    return [_ir(text)]


def _renamed(spec: MeasureSpec, name: str) -> MeasureSpec:
    from dataclasses import replace

    return replace(spec, name=name)


# -- trec_eval's specifications ---------------------------------------------------------------

def _trec_split(text: str):
    """``(measure, parameters or None)`` when ``text`` is a trec_eval specification."""
    if text in TREC_NAMES:
        return text, None
    for known in sorted(TREC_NAMES, key=len, reverse=True):
        if text.startswith(known) and len(text) > len(known) + 1 and text[len(known)] in "._":
            rest = text[len(known) + 1:]
            allowed = r"[-+0-9.,=eEp]+" if TREC_NAMES[known][1] == "pairs" else r"[-+0-9.,eE]+"
            if re.fullmatch(allowed, rest):
                return known, rest
    return None


def _numbers(text: str, params: str, kind=float) -> list:
    try:
        values = [kind(p) for p in params.split(",")]
    except ValueError:
        raise ParameterError("measure", text, "numbers after the measure's name, "
                             "comma-separated (P.5,10, iprec_at_recall..10,.20)") from None
    if not all(np.isfinite(values)):
        raise ParameterError("measure", text, "finite numbers")
    return values


def _trec(text: str, measure: str, params: str | None, several: bool = False) -> list[MeasureSpec]:
    base, kind, defaults = TREC_NAMES[measure]
    if kind == "plain":
        if params is not None:
            raise ParameterError("measure", text, f"{measure} without parameters")
        return [_spec(base)]
    if kind in ("cut", "level"):
        if params is None:
            values = list(defaults)
        else:
            values = sorted(set(_numbers(text, params, int if kind == "cut" else float)))
        if kind == "cut":
            if any(v < 1 for v in values):
                raise ParameterError("measure", text, "cutoffs k >= 1")
            return [_spec(base, k=int(v)) for v in values]
        if any(v < 0 for v in values) or (base == "IPrec" and any(v > 1 for v in values)):
            raise ParameterError("measure", text, "levels from 0" + (" to 1" if base == "IPrec"
                                                                      else ""))
        return [_spec(base, x=float(v)) for v in values]
    if kind == "one":
        if params is None:
            return [_spec(base)]
        value = _numbers(text, params)[0]
        if base == "relstring":
            if value < 1 or value != int(value):
                raise ParameterError("measure", text, "relstring.k with k >= 1")
            return [_spec(base, k=int(value))]
        if value < 0:
            raise ParameterError("measure", text, "set_F.beta with beta >= 0")
        return [_spec(base, x=value)]
    if kind == "list":
        if params is None:
            return [_spec(base)]
        values = tuple(_numbers(text, params))
        if base == "utility" and len(values) != 4:
            raise ParameterError("measure", text, "four coefficients, utility.a,b,c,d")
        if base == "11pt_avg" and any(not 0 <= v <= 1 for v in values):
            raise ParameterError("measure", text, "recall levels from 0 to 1")
        return [_spec(base, values=values)]
    # pairs: rel_level=gain (ndcg, ndcg_rel, Rndcg, G) or p=P (rbp, rbp_resid)
    if params is None:
        return [_spec(base)]
    pairs = []
    for part in params.split(","):
        key, sep, value = part.partition("=")
        if not sep:
            raise ParameterError("measure", text, f"{measure}.name=value pairs")
        pairs.append((key, _numbers(text, value)[0]))
    if base in ("rbp", "rbp_resid"):
        if [k for k, _ in pairs] != ["p"]:
            raise ParameterError("measure", text, f"{measure}.p=P")
        return [_spec(base, x=_persistence(text, pairs[0][1]))]
    try:
        gains = tuple((float(int(k)), float(v)) for k, v in pairs)
    except ValueError:
        raise ParameterError("measure", text, f"{measure}.grade=gain pairs, grades whole "
                             "numbers") from None
    return [_spec(base, gains=_check_gains(text, gains))]


def _persistence(text: str, p: float) -> float:
    if not 0 < p < 1:
        raise ParameterError("measure", text, "a persistence 0 < p < 1")
    return float(p)


def _check_gains(text: str, gains: tuple) -> tuple:
    if any(g < 0 or not np.isfinite(g) for _, g in gains):
        raise ParameterError("measure", text, "gains of 0 or more")
    return tuple(sorted(gains))


def _spec(base: str, k: int | None = None, **values) -> MeasureSpec:
    if k is None:
        k = DEFAULT_K.get(base)
    spec = MeasureSpec("", base, k, **values)
    return _renamed(spec, canonical_name(spec))


# -- ir_measures' (and evalkit's) names --------------------------------------------------------

def _ir(text: str) -> MeasureSpec:
    match = _FORM.fullmatch(text)
    if not match:
        raise _unknown(text)
    base = IR_MEASURES_ALIASES.get(match.group("base"), match.group("base"))
    params = _keywords(text, match.group("params"))
    if base == "NumRet" and "rel" in params:
        base = "NumRelRet"
    if base == "SetP" and params.pop("relative", False):
        base = "SetRelP"
    if base not in MEASURES:
        raise _unknown(text)
    m = MEASURES[base]
    at = match.group("at")
    if at is not None and not re.fullmatch(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", at):
        raise ParameterError("measure", text, "a cutoff @k with k >= 1")
    if at is not None and "cutoff" in params or m.cutoff == "level" and "recall" in params:
        if at is not None:
            raise ParameterError("measure", text, "one cutoff: @k or cutoff=k")
    if "cutoff" in params:
        at = str(params.pop("cutoff"))
    if base == "IPrec" and "recall" in params:
        at = str(params.pop("recall"))
    if params.pop("judged_only", False):
        raise ParameterError("measure", text, "judged_only=False (judged-only evaluation is "
                             "an option of the run, not a measure's parameter)")
    values: dict = {}
    k = None
    if m.cutoff == "level":
        if at is None:
            raise ParameterError("measure", text, f"{base}@x with a level, e.g. {base}@0.1")
        values["x"] = float(at)
        if values["x"] < 0 or (base == "IPrec" and values["x"] > 1):
            raise ParameterError("measure", text, "a recall level from 0 to 1")
    elif at is not None:
        if not re.fullmatch(r"[0-9]+", at) or int(at) < 1:
            raise ParameterError("measure", text, "a cutoff @k with k >= 1")
        k = int(at)
    if m.cutoff == "none" and k is not None:
        raise ParameterError("measure", text, f"{m.base} without a cutoff (it has none)")
    if m.cutoff == "required" and k is None:
        raise ParameterError("measure", text, f"{m.base}@k with a cutoff, e.g. {m.base}@10")
    if m.cutoff == "1":
        if k not in (None, 1):
            raise ParameterError("measure", text, "nG@1 (deeper cutoffs: nERR@k, nDCG@k, P+@k, Q@k)")
        k = 1
    if k is None:
        k = DEFAULT_K.get(m.base)
    values.update(_values(text, m, params))
    return MeasureSpec(text, m.base, k, **values)


def _keywords(text: str, params: str | None) -> dict:
    """``rel=2, dcg='exp-log2', gains={1:3}`` -> a dict of Python literals."""
    if params is None or not params.strip():
        return {}
    try:
        call = ast.parse(f"f({params})", mode="eval").body
        if call.args:
            raise ValueError
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    except (SyntaxError, ValueError, TypeError):
        raise ParameterError("measure", text, "parameters as name=value, e.g. AP(rel=2)") from None


def _values(text: str, m, params: dict) -> dict:
    out: dict = {}
    for key, value in params.items():
        if key not in m.params:
            accepted = ", ".join(f"{p}=..." for p in m.params) or "none"
            raise ParameterError("measure", text, f"{m.base}'s parameters ({accepted})")
        if key == "dcg":
            if value not in ("log2", "exp-log2"):
                raise ParameterError("measure", text, "dcg='log2' or dcg='exp-log2'")
            out["dcg"] = value
            continue
        if key == "gains":
            if not isinstance(value, dict):
                raise ParameterError("measure", text, "gains={grade: gain, ...}")
            try:
                pairs = tuple((float(int(g)), float(v)) for g, v in value.items())
            except (TypeError, ValueError):
                raise ParameterError("measure", text, "gains={grade: gain, ...} with numbers") \
                    from None
            out["gains"] = _check_gains(text, pairs)
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParameterError("measure", text, f"a number for {key}")
        number = float(value)
        if not np.isfinite(number):
            raise ParameterError("measure", text, f"a finite number for {key}")
        if key == "p":
            out["x"] = _persistence(text, number)
        elif key == "beta":
            if number < 0:
                raise ParameterError("measure", text, "beta >= 0")
            out["x"] = number
        else:
            if number <= 0:
                raise ParameterError("measure", text, f"{key} > 0 (relevance levels start at 1)")
            out[key] = number
            if key == "rel":
                out["rel_given"] = True
    return out


def _unknown(text: str) -> UnknownMeasure:
    known = [*MEASURES, *IR_MEASURES_ALIASES, *TREC_NAMES, *SETS]
    base = re.split(r"[(@.]", text, maxsplit=1)[0]
    lower = {k.lower(): k for k in reversed(known)}          # evalkit's own name first
    guess = [lower[base.lower()]] if base.lower() in lower else difflib.get_close_matches(
        base, known, n=1, cutoff=0.5)
    return UnknownMeasure(text, guess[0] if guess else None)


# -- names out ---------------------------------------------------------------------------------
