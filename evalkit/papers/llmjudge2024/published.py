"""The organisers' table reproduced, and what its columns really are.

The LLMJudge organisers' analysis (``codes/0-corr-analysis.ipynb`` of
llm4eval/LLMJudge-benchmark) printed four numbers per submission: a column
headed ``krippendorff`` and three headed ``kappa 0|123``, ``kappa 01|23`` and
``kappa 012|3``.  Their numbers reveal the conventions (each reproduced to
the six printed decimals by :func:`versus_published`):

* labels are clipped to 0-3 first (``0 if x < 0 else 3 if x > 3``);
* the judge's labels are merged with the human ones on (topic, passage); every
  public judge labels exactly the human's 4,423 pairs, so the outer merge is
  the plain pairing;
* ``krippendorff`` is Krippendorff's alpha with the ordinal metric on 0-3;
* the three "kappa" columns are **not Cohen's kappa**: they are Krippendorff's
  alpha again, on the labels binarised at the cut (grade >= 1, 2, 3).  With
  two values the ordinal, interval and nominal metrics agree, so the column is
  alpha of the binary labels (``alpha_binary>=c`` of
  :func:`~evalkit.evaluate.judge_agreement.tables.agreement_table`).  Alpha takes its
  chance agreement from the two raters' pooled label shares (as Scott's pi),
  Cohen's kappa from each rater's own; the two part when a judge's share of
  relevant labels differs from the human's.

:data:`COLUMNS` maps each published column to the library's statistic;
:data:`USUAL` to the statistic the heading names (Cohen's kappa of the binary
labels), which :func:`usual_statistic` sets beside the printed one.
"""

from __future__ import annotations

import pandas as pd

from ... import paths

__all__ = ["COLUMNS", "USUAL", "CUTS", "PUBLISHED_MEANS", "SUBMISSIONS", "versus_published",
           "usual_statistic", "means"]

#: The binary cuts behind the three "kappa" columns (grade >= c is relevant).
CUTS = (1, 2, 3)
#: Published column -> the statistic of :func:`~evalkit.evaluate.judge_agreement.tables.agreement_table` it is.
COLUMNS = {"krippendorff": "alpha_ordinal", "kappa 0|123": "alpha_binary>=1",
           "kappa 01|23": "alpha_binary>=2", "kappa 012|3": "alpha_binary>=3"}
#: The "kappa" columns -> the statistic their heading names: Cohen's kappa of the binary labels.
USUAL = {"kappa 0|123": "kappa_binary>=1", "kappa 01|23": "kappa_binary>=2",
         "kappa 012|3": "kappa_binary>=3"}

#: The organisers' means over all 64 submissions (31 not public), as their notebook printed them:
#: context for the public judges' means, not a table to reproduce.
PUBLISHED_MEANS = {"krippendorff": 0.404692, "kappa 0|123": 0.350126, "kappa 01|23": 0.316514,
                   "kappa 012|3": 0.197173}
#: How many submissions those means are over.
SUBMISSIONS = 64

_COLUMNS = ["judge", "statistic", "published", "reproduced", "difference"]


def _load(name: str) -> pd.DataFrame:
    """A transcribed table, ``data/published/<name>.csv``."""
    return pd.read_csv(paths.PUBLISHED / f"{name}.csv")


def _values(table: pd.DataFrame, statistics: dict, name: str) -> pd.DataFrame:
    """``judge, statistic (published heading), <name>`` picked from an agreement table."""
    back = {v: k for k, v in statistics.items()}
    out = table[table["statistic"].isin(back)][["judge", "statistic", "value"]]
    return out.assign(statistic=out["statistic"].map(back)).rename(columns={"value": name})


def versus_published(table: pd.DataFrame, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """``agreement_vs_published.csv``: ``judge, statistic, published, reproduced, difference``.

    ``table``: :func:`~evalkit.evaluate.judge_agreement.tables.agreement_table` against the
    human labels with cuts :data:`CUTS`; ``published``: the transcribed rows
    (``data/published/llmjudge2024_agreement.csv``).  ``difference`` is
    reproduced minus published; every published row is kept (a judge missing
    from ``table`` shows an empty ``reproduced``).
    """
    published = _load("llmjudge2024_agreement") if published is None else published
    out = published.merge(_values(table, COLUMNS, "reproduced"), on=["judge", "statistic"],
                          how="left")
    out["difference"] = out["reproduced"] - out["published"]
    return out[_COLUMNS]


def usual_statistic(table: pd.DataFrame, judges=None) -> pd.DataFrame:
    """``judge, statistic, printed, cohen_kappa, difference`` for the three "kappa" columns.

    ``printed`` is what the organisers' column holds (alpha of the binary
    labels), ``cohen_kappa`` what its heading names; ``difference`` = kappa -
    alpha.  ``judges``: the rows to keep (default every judge in ``table``).
    """
    printed = _values(table, {k: COLUMNS[k] for k in USUAL}, "printed")
    kappa = _values(table, USUAL, "cohen_kappa")
    out = printed.merge(kappa, on=["judge", "statistic"])
    if judges is not None:
        out = out[out["judge"].isin(list(judges))]
    out["difference"] = out["cohen_kappa"] - out["printed"]
    return out.reset_index(drop=True)


def means(table: pd.DataFrame) -> pd.DataFrame:
    """``statistic, submissions, published_mean, public_judges, mean_here``.

    The organisers' means (:data:`PUBLISHED_MEANS`) are over all 64
    submissions, 31 of them not public, so they are context, not a
    reproduction: beside them, the means of the same columns over the public
    judges in ``table``.
    """
    here = _values(table, COLUMNS, "value").groupby("statistic")["value"].agg(["mean", "size"])
    return pd.DataFrame([(s, SUBMISSIONS, v, int(here.loc[s, "size"]), here.loc[s, "mean"])
                         for s, v in PUBLISHED_MEANS.items()],
                        columns=["statistic", "submissions", "published_mean", "public_judges",
                                 "mean_here"])
