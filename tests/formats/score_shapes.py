r"""Small per-topic score files in the shapes real tools write, from one seeded table.

Shared by ``tests/formats/test_score_shapes.py`` and
``tests/evaluate/test_compare_shapes.py``.  Each writer copies the tool's own
layout: trec_eval ``-q`` (its ``printf("%-22s\t%s\t%6.4f\n", ...)``: the
measure padded to 22 columns, the topic, four decimals; ``runid``, counts
and the ``all`` means), ir_measures ``-q`` (its ``__main__.py``:
``qid<TAB>measure<TAB>value`` with four decimals, ``all`` means last),
PyTerrier's ``pt.Experiment(perquery=True)`` frame written by
``to_csv(index=False)`` (``name,qid,measure,value``, full precision),
pytrec_eval's ``json.dump(evaluator.evaluate(run), f, indent=1)``
(``{qid: {measure: value}}``, counts as floats) and a wide ``topic,RUN...``
table.
"""

from __future__ import annotations

import json

import numpy as np

RUNS = ("bm25", "rm3", "splade")
TOPICS = tuple(str(t) for t in range(301, 313))


def table(seed: int = 30) -> dict:
    """``{run: {topic: value}}``, values with four decimals (as the text files carry them)."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.1, 0.7, size=len(TOPICS))
    out = {}
    for shift, run in zip((0.0, 0.04, 0.09), RUNS):
        values = np.clip(base + shift + rng.normal(0, 0.08, size=len(TOPICS)), 0, 1)
        out[run] = {t: float(f"{v:.4f}") for t, v in zip(TOPICS, values)}
    return out


def trec_eval(folder, scores, measure="ndcg_cut_10"):
    paths = []
    for run, values in scores.items():
        lines = []
        for topic, value in values.items():
            lines += [f"{'num_ret':<22}\t{topic}\t1000", f"{'num_rel':<22}\t{topic}\t37",
                      f"{'num_rel_ret':<22}\t{topic}\t29", f"{measure:<22}\t{topic}\t{value:.4f}"]
        mean = np.mean(list(values.values()))
        lines += [f"{'runid':<22}\tall\t{run}", f"{'num_q':<22}\tall\t{len(values)}",
                  f"{'num_ret':<22}\tall\t{1000 * len(values)}",
                  f"{measure:<22}\tall\t{mean:.4f}"]
        path = folder / f"{run}.trec_eval"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def ir_measures(folder, scores, measure="nDCG@10", summary=True):
    paths = []
    for run, values in scores.items():
        lines = [f"{topic}\t{measure}\t{value:.4f}" for topic, value in values.items()]
        if summary:
            lines.append(f"all\t{measure}\t{np.mean(list(values.values())):.4f}")
        path = folder / f"{run}.txt"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return paths


def pyterrier(folder, scores, measure="nDCG@10", index=False):
    rows = [("name", "qid", "measure", "value")]
    rows += [(run, topic, measure, repr(value)) for run, values in scores.items()
             for topic, value in sorted(values.items())]
    if index:
        rows = [("",) + rows[0]] + [(str(i),) + r for i, r in enumerate(rows[1:])]
    path = folder / "perquery.csv"
    path.write_text("\n".join(",".join(r) for r in rows) + "\n")
    return path


def wide(folder, scores):
    runs = list(scores)
    lines = ["topic," + ",".join(runs)]
    lines += [topic + "," + ",".join(repr(scores[r][topic]) for r in runs) for topic in TOPICS]
    path = folder / "wide.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def pytrec_eval(folder, scores, measure="ndcg_cut_10"):
    paths = []
    for run, values in scores.items():
        data = {topic: {"num_ret": 1000.0, measure: value} for topic, value in values.items()}
        path = folder / f"{run}.json"
        path.write_text(json.dumps(data, indent=1))
        paths.append(path)
    return paths
