"""The names ``--measure`` reads, against ir_measures' own parser and trec_eval's ``-m`` sets.

Every name and alias ``ir_measures.parse_measure`` accepts for a measure
evalkit has must mean the same measure with the same parameters (its
defaults kept); trec_eval's ``-m`` specifications expand as trec_eval
expands them (``ir_measures.parse_trec_measure`` where it knows them, by
hand for the others); the sets are trec_eval 10's.
"""

import re

import pytest

from evalkit.errors import ParameterError
from evalkit.measures.names import UnknownMeasure
from evalkit.measures.registry import (MEASURES, expand_all, expand_measures, parse_measure,
                                       trec_name)

ir_measures = pytest.importorskip("ir_measures", reason="ir_measures is the oracle: "
                                  "pip install ir-measures (the workspace extra has it)")
pytrec_eval = pytest.importorskip("pytrec_eval")
NOT_PROVIDED = ir_measures.providers.base.NOT_PROVIDED

#: ir_measures' measure (NAME) -> evalkit's base.
BASES = {"AP": "AP", "nDCG": "nDCG", "P": "P", "R": "R", "RR": "RR", "Rprec": "Rprec",
         "Bpref": "Bpref", "Success": "Success", "Judged": "Judged", "ERR": "ERR",
         "infAP": "infAP", "IPrec": "IPrec", "NumQ": "NumQ", "NumRel": "NumRel",
         "NumRet": "NumRet", "SetP": "SetP", "SetR": "SetR", "SetAP": "SetAP", "SetF": "SetF",
         "RBP": "RBP"}


def _theirs(measure) -> tuple:
    """(evalkit base, cutoff, level, rel, p/beta, gains, dcg) of an ir_measures measure."""
    name = measure.NAME
    got = {k: measure[k] for k in measure.SUPPORTED_PARAMS}
    base = BASES[name]
    if name == "NumRet" and got["rel"] is not NOT_PROVIDED:
        base = "NumRelRet"
    if name == "SetP" and got["relative"]:
        base = "SetRelP"
    plain = {k: (None if v is NOT_PROVIDED else v) for k, v in got.items()}
    rel = plain.get("rel")
    if base in ("NumRet", "NumQ", "Judged", "ERR"):
        rel = None
    return (base, plain.get("cutoff"), plain.get("recall"), rel,
            plain.get("p", plain.get("beta")), plain.get("gains"), plain.get("dcg", "log2"))


def _ours(spec) -> tuple:
    m = MEASURES[spec.base]
    rel = spec.rel if "rel" in m.params and (spec.base != "RBP" or spec.rel_given) else None
    x = spec.x if m.cutoff != "level" else None
    default_x = {"SetF": 1.0, "RBP": 0.8}.get(spec.base)
    return (spec.base, spec.k, spec.x if m.cutoff == "level" else None,
            rel if rel is None else int(rel), default_x if x is None else x,
            dict((int(g), v) for g, v in spec.gains) or None,
            spec.dcg if spec.base == "nDCG" else "log2")


#: Every registry name and alias of ir_measures for a measure evalkit has, with parameters.
NAMES = [
    "AP", "MAP", "AP@100", "MAP@10", "AP(rel=2)", "AP(rel=2)@5", "AP(cutoff=10)",
    "AP(judged_only=False)", "nDCG", "NDCG", "nDCG@10", "NDCG@10", "nDCG(cutoff=10)",
    "nDCG(dcg='exp-log2')@10", "nDCG(dcg='log2')", "nDCG(gains={0:0,1:1,2:3})@20",
    "P@10", "Precision@10", "P(rel=2)@10", "P(cutoff=5)", "R@100", "Recall@100", "R(rel=3)@5",
    "R", "RR", "MRR", "MRR@10", "RR(rel=2)@10", "Rprec", "RPrec", "Rprec(rel=2)", "Bpref",
    "BPref", "BPref(rel=2)", "Success@1", "Success(rel=2)@5", "Judged@10", "ERR@20",
    "infAP", "infAP(rel=2)", "IPrec@0.1", "IPrec@0", "IPrec@1.0", "IPrec(recall=0.3)",
    "IPrec(rel=2)@0.5", "NumQ", "NumRel", "NumRel(rel=2)", "NumRet", "NumRet(rel=1)",
    "NumRet(rel=2)", "NumRelRet", "SetP", "SetP(rel=2)", "SetP(relative=True)", "SetRelP",
    "SetR", "SetAP", "SetF", "SetF(beta=0.5)", "SetF(rel=2,beta=2)", "RBP", "RBP@10",
    "RBP(p=0.9)", "RBP(rel=1)", "RBP(p=0.5,rel=2)@20",
]


@pytest.mark.parametrize("name", NAMES)
def test_every_ir_measures_name_means_the_same_measure(name):
    spec = parse_measure(name)
    assert spec.name == name
    assert _ours(spec) == _theirs(ir_measures.parse_measure(name))


def test_every_ir_measures_alias_of_a_measure_evalkit_has_is_read():
    registry = ir_measures.measures.registry
    aliases = {alias for alias, m in registry.items() if m.NAME in BASES}
    tried = {n.split("(")[0].split("@")[0] for n in NAMES}
    assert aliases <= tried
    assert {m.NAME for m in registry.values()} & set(BASES) == set(BASES)


def test_explicit_relevance_levels_are_flagged():
    assert parse_measure("AP(rel=2)").rel_given and not parse_measure("AP").rel_given
    assert parse_measure("P(rel=1)@10").rel_given and parse_measure("P(rel=1)@10").rel == 1
    assert parse_measure("NumRet(rel=2)").rel_given
    # a global level (trec_eval's -l) reaches the others only
    assert parse_measure("AP(rel=2)").at_level(3).rel == 2
    assert parse_measure("AP").at_level(3).rel == 3 and parse_measure("map").at_level(3).rel == 3
    assert parse_measure("nDCG@10").at_level(3) == parse_measure("nDCG@10")
    assert parse_measure("RBP").at_level(3) == parse_measure("RBP")


#: trec_eval -m specifications ir_measures.parse_trec_measure reads too.
TREC = ["map", "P_10", "P.10", "recip_rank", "P.5,10,15", "ndcg_cut.10,20", "ndcg_cut_10",
        "success.2,5", "iprec_at_recall.0.1,0.2", "recall.5,100", "map_cut.10", "set_P",
        "set_recall", "set_map", "set_F.0.5", "set_relative_P", "num_q", "num_ret", "num_rel",
        "num_rel_ret", "Rprec", "bpref", "infAP", "ndcg", "P", "success", "iprec_at_recall"]


@pytest.mark.parametrize("name", TREC)
def test_trec_eval_specifications_expand_as_ir_measures_reads_them(name):
    ours = [_ours(s) for s in expand_measures(name)]
    theirs = [_theirs(m) for m in ir_measures.parse_trec_measure(name)]
    assert sorted(ours, key=repr) == sorted(theirs, key=repr)


def test_trec_eval_specifications_ir_measures_lacks():
    def show(name):
        return [(s.name, s.base, s.k, s.x, s.values, s.gains) for s in expand_measures(name)]

    assert show("iprec_at_recall..10,.20") == [("IPrec@0.1", "IPrec", None, 0.1, (), ()),
                                               ("IPrec@0.2", "IPrec", None, 0.2, (), ())]
    assert show("ndcg.1=3,2=9,4=4.5") == [("ndcg.1=3,2=9,4=4.5", "nDCG", None, None, (),
                                          ((1.0, 3.0), (2.0, 9.0), (4.0, 4.5)))]
    assert show("Rprec_mult.0.2,0.35") == [("Rprec_mult@0.2", "Rprec_mult", None, 0.2, (), ()),
                                           ("Rprec_mult@0.35", "Rprec_mult", None, 0.35, (), ())]
    assert show("utility.2,-1,0,0") == [("utility.2,-1,0,0", "utility", None, None,
                                        (2.0, -1.0, 0.0, 0.0), ())]
    assert show("11pt_avg..25,.5,.75") == [("11pt_avg..25,.5,.75", "11pt_avg", None, None,
                                           (0.25, 0.5, 0.75), ())]
    assert [s.name for s in expand_measures("success.5,2")] == ["Success@2", "Success@5"]
    assert [s.name for s in expand_measures("unj")] == ["unj@5", "unj@10", "unj@20"]
    assert [s.k for s in expand_measures("relstring")] == [10]
    assert expand_measures("rbp.p=0.95")[0].x == 0.95 and expand_measures("rbp")[0].x is None
    # the printed names trec_eval gives them
    assert [trec_name(s) for s in expand_measures("iprec_at_recall..10,.20")] == [
        "iprec_at_recall_0.10", "iprec_at_recall_0.20"]
    assert [trec_name(s) for s in expand_measures("P.5,10")] == ["P_5", "P_10"]
    assert trec_name(parse_measure("MAP")) == "map" and trec_name(parse_measure("RR@10")) == ""
    # a measure with a list of parameters: trec_eval prints them as they were typed
    assert trec_name(parse_measure("11pt_avg..25,.5,.75")) == "11pt_avg_.25,.5,.75"
    assert trec_name(parse_measure("utility.2,-1,0,0")) == "utility_2,-1,0,0"
    assert trec_name(parse_measure("SetF(beta=0.5)")) == "set_F_0.5"
    assert trec_name(parse_measure("ndcg.1=3,2=9,4=4.5")) == "ndcg_1=3,2=9,4=4.5"


def test_the_sets_are_trec_eval_10s():
    def trec(name):
        return {re.sub(r"_[0-9.]+$", "", trec_name(s)) for s in expand_measures(name)}

    nine = set(pytrec_eval.supported_nicknames["all_trec"]) - {"runid"}
    assert trec("all_trec") == nine | {"rbp", "rbp_resid", "unj"}     # trec_eval 10's additions
    assert len(expand_measures("all_trec")) == 9 + 11 + 9 + 1 + 9 + 3 + 7 + 9 + 10 + 3 + 9 + 9 + 4 + 5 + 1
    official = [s.name for s in expand_measures("official")]
    assert official[:9] == ["NumQ", "NumRet", "NumRel", "NumRelRet", "AP", "gm_map", "Rprec",
                            "Bpref", "RR"]
    assert len(official) == 9 + 11 + 9                     # 11 recall levels, 9 cutoffs of P
    assert expand_all(["official", "map", "AP"])[4].name == "AP"      # each measure once
    assert len(expand_all(["official", "AP"])) == 29
    with pytest.raises(ParameterError, match="relstring gives strings"):
        expand_all(["all_trec"])


@pytest.mark.parametrize("name, guess", [("nDGC@10", "nDCG"), ("ap", "AP"), ("ndcg@10", "nDCG"),
                                         ("Bpre", "Bpref"), ("ndcg_cutt.10", "ndcg_cut")])
def test_an_unknown_name_gets_did_you_mean(name, guess):
    with pytest.raises(UnknownMeasure) as caught:
        parse_measure(name)
    assert str(caught.value).startswith(f"unknown measure {name}; did you mean {guess} ")
    assert isinstance(caught.value, ParameterError)


@pytest.mark.parametrize("name", ["P.5,0", "utility.1,2", "iprec_at_recall.1.5", "RBP(p=1)",
                                  "rbp.p=2", "AP(judged_only=True)", "nDCG(dcg='exp')",
                                  "nDCG(gains={1:-1})", "IPrec", "IPrec@2", "Rprec_mult",
                                  "SetF(beta=-1)", "relstring.0", "AP(rel=2", "P"])
def test_bad_parameters_are_refused(name):
    with pytest.raises(ParameterError, match="measure"):
        parse_measure(name)
