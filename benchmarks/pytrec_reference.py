"""The reference of the TREC-scale benchmarks: pytrec_eval (trec_eval's C code) on run files.

Run by ``benchmarks/cases/trec_scale.py`` (``python benchmarks/bench.py
trec``) in the benchmark's own virtual environment (pytrec_eval is a
benchmark dependency, not evalkit's).  Files are parsed line by line in
plain Python, as pytrec_eval's users do, one run at a time;
each run is evaluated under every qrels file given (one judge each) with
nDCG@10, AP, P@10, R@100 and RR (trec_eval's ``ndcg_cut.10``, ``map``,
``P.10``, ``recall.100``, ``recip_rank``), and the mean of each measure over
the run's topics is printed at full precision, one line per judge, run and
measure: ``judge<TAB>run<TAB>measure<TAB>all<TAB>value``, evalkit's names.

Command line: ``python pytrec_reference.py [--all] QRELS [QRELS ...] -- RUN [RUN ...]``;
a judge is named by its qrels file's stem.  With ``--all`` every measure pytrec_eval
supports is computed (trec_eval's ``all_trec`` as pytrec_eval has it: trec_eval 9's, without
``rbp``, ``rbp_resid`` and ``unj``) and each is summarised over the topics as trec_eval
summarises it (``pytrec_eval.compute_aggregated_measure``: the sum of the counts, the
geometric mean of ``gm_map`` and ``gm_bpref``, else the mean), named as trec_eval prints it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytrec_eval

MEASURES = {"ndcg_cut.10", "map", "P.10", "recall.100", "recip_rank"}
NAMES = {"ndcg_cut_10": "nDCG@10", "map": "AP", "P_10": "P@10", "recall_100": "R@100",
         "recip_rank": "RR"}


def read_qrels(path: str) -> dict:
    qrels: dict = {}
    with open(path) as handle:
        for line in handle:
            topic, _, doc, grade = line.split()
            qrels.setdefault(topic, {})[doc] = int(grade)
    return qrels


def read_run(path: str) -> tuple[str, dict]:
    run: dict = {}
    tag = ""
    with open(path) as handle:
        for line in handle:
            topic, _, doc, _, score, tag = line.split()
            run.setdefault(topic, {})[doc] = float(score)
    return tag, run


def main(argv: list[str]) -> int:
    every = argv[:1] == ["--all"]
    argv = argv[1:] if every else argv
    cut = argv.index("--")
    measures = pytrec_eval.supported_measures if every else MEASURES
    judges = {Path(p).stem: pytrec_eval.RelevanceEvaluator(read_qrels(p), measures)
              for p in argv[:cut]}
    out = []
    for path in argv[cut + 1:]:
        tag, run = read_run(path)
        for judge, evaluator in judges.items():
            per_topic = evaluator.evaluate(run)
            if every:
                for key in next(iter(per_topic.values())):
                    if key in ("runid", "relstring"):         # not numbers
                        continue
                    values = [scores[key] for scores in per_topic.values()]
                    value = pytrec_eval.compute_aggregated_measure(key, values)
                    out.append(f"{judge}\t{tag}\t{key}\tall\t{value!r}\n")
                continue
            for key, name in NAMES.items():
                values = [scores[key] for scores in per_topic.values()]
                out.append(f"{judge}\t{tag}\t{name}\tall\t{sum(values) / len(values)!r}\n")
    sys.stdout.write("".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
