"""The reference of the TREC-scale benchmark: pytrec_eval (trec_eval's C code) on run files.

Run by ``benchmarks/bench.py`` in the benchmark's own virtual environment
(pytrec_eval is a benchmark dependency, not evalkit's).  Files are parsed
line by line in plain Python, as pytrec_eval's users do, one run at a time;
each run is evaluated with nDCG@10, MAP and P@10 against graded qrels and the
mean of each measure is printed, one line per run and measure.

Command line: ``python pytrec_reference.py QRELS RUN [RUN ...]``.
"""

from __future__ import annotations

import sys

import pytrec_eval

MEASURES = {"ndcg_cut", "map", "P"}


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
    evaluator = pytrec_eval.RelevanceEvaluator(read_qrels(argv[0]), MEASURES)
    out = []
    for path in argv[1:]:
        tag, run = read_run(path)
        per_topic = evaluator.evaluate(run)
        for measure in ("ndcg_cut_10", "map", "P_10"):
            values = [scores[measure] for scores in per_topic.values()]
            out.append(f"{tag}\t{measure}\tall\t{sum(values) / len(values):.4f}\n")
    sys.stdout.write("".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
