"""How Sakai's (EVIA 2017) Table 3 computes ES_HSD: the denominator its printed numbers imply.

§5 says ES_HSD divides |d| "by the residual standard deviation of each
experimental condition" (Sakai 2014: ES_HSD = |d| / sqrt(V_E), V_E the
residual variance of the two-way ANOVA without replication).  Table 3 prints
|d| and ES for 24 pairs under two gains, 48 (pair, gain) values.  Each gives
an *implied denominator* |d| / ES.  Two readings of it are tested here on the
paper's numbers alone (no simulation):

* **variance**: the denominator is V_E itself (ES = |d| / V_E), so the
  residual sd is sqrt(|d| / ES);
* **standard deviation**: the denominator is sqrt(V_E), as the text says, so
  the residual sd is |d| / ES.

Both make |d| / ES one number per condition (measure, Dmax, N, gain), which
the printed values bear out within their printing precision
(:func:`denominator_spread`).  What tells the readings apart is the Tukey HSD
border, q sqrt(V_E / n) over n = 100 topics: the pairs of Table 3 are
discrepancies, significant under one gain and not the other, so their p
values lie near 0.05 (0.024-0.086) and their |d| should lie near the border.
:func:`es_published_denominator` computes the border under the variance
reading; :func:`es_readings` sets both readings side by side, with what the
workspace's own discrepant pairs give under each.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .effect_sizes import studentised_range_q

__all__ = ["HSD_TOPICS", "HSD_SYSTEMS", "D_HALF_UNIT", "ES_HALF_UNIT", "DENOMINATOR_COLUMNS",
           "es_published_denominator", "sd_reading_d_over_border", "denominator_spread",
           "es_readings"]

#: The paper's HSD: the 100 topics of the STC Chinese subtask and the best runs of its 16 teams (§5).
HSD_TOPICS = 100
HSD_SYSTEMS = 16
#: Half a unit of the last printed digit: Table 3 prints |d| to 4 decimals and ES to 3.
D_HALF_UNIT = 0.00005
ES_HALF_UNIT = 0.0005
#: The columns of ``es_published_denominator.csv``, in order.
DENOMINATOR_COLUMNS = ("measure", "dmax", "assessors", "gain", "pair", "p_value", "d", "es",
                       "implied_denominator", "implied_sd", "border", "d_over_border")
_CONDITION = ["measure", "dmax", "assessors", "gain"]


def es_published_denominator(table3: pd.DataFrame, n_topics: int = HSD_TOPICS,
                             n_systems: int = HSD_SYSTEMS, alpha: float = 0.05) -> pd.DataFrame:
    """One row per printed (pair, gain) of Table 3 under the variance reading.

    For each printed p-value, |d| and ES:

    * ``implied_denominator`` = |d| / ES, the number ES was divided into;
    * ``implied_sd`` = sqrt(implied_denominator): the residual *standard
      deviation* sqrt(V_E) if that number is the residual *variance* V_E
      (the variance reading; under the standard-deviation reading the sd
      would be ``implied_denominator`` itself);
    * ``border`` = q sqrt(implied_denominator / n), the |d| at which the Tukey
      HSD over ``n_systems`` means and ``n_topics`` topics turns significant
      at ``alpha`` when V_E = implied_denominator.  q is the studentised range
      quantile q(1 - alpha; n_systems, (n_systems - 1)(n_topics - 1) df)
      (:func:`~.effect_sizes.studentised_range_q`): 15 x 99 = 1485 df, the
      residual df of the two-way ANOVA without replication that V_E comes
      from, the df the parametric HSD would use (q = 4.8536; with infinite
      df it would be 4.8452);
    * ``d_over_border`` = |d| / border: near 1 for a pair on the border.

    ``table3`` is the transcription ``data/published/sakai2017_table3.csv``
    (columns measure, dmax, N, pair and p/d/ES per gain); ``assessors`` is
    the paper's N.
    """
    q = studentised_range_q(alpha, n_systems, n_topics)
    rows = []
    for r in table3.itertuples():
        for gain in ("RawG", "UG"):
            d, es = float(getattr(r, f"d_{gain}")), float(getattr(r, f"ES_{gain}"))
            denominator = d / es
            border = q * np.sqrt(denominator / n_topics)
            rows.append({"measure": r.measure, "dmax": int(r.dmax), "assessors": int(r.N),
                         "gain": gain, "pair": r.pair, "p_value": float(getattr(r, f"p_{gain}")),
                         "d": d, "es": es, "implied_denominator": denominator,
                         "implied_sd": np.sqrt(denominator), "border": border,
                         "d_over_border": d / border})
    return pd.DataFrame(rows, columns=list(DENOMINATOR_COLUMNS))


def sd_reading_d_over_border(frame: pd.DataFrame) -> pd.Series:
    """|d| / border under the standard-deviation reading, from :func:`es_published_denominator`'s rows.

    With sqrt(V_E) = |d|/ES = D (the implied denominator) the border is
    q D / sqrt(n) = (q sqrt(D/n)) sqrt(D) = ``border * implied_sd``, so
    |d| / border is ``d_over_border / implied_sd`` (= ES sqrt(n) / q).
    """
    return frame["d_over_border"] / frame["implied_sd"]


def _printing_interval(d: pd.Series, es: pd.Series) -> tuple[pd.Series, pd.Series]:
    """The range of |d| / ES that the printed digits allow: (d - h_d)/(ES + h_ES) .. (d + h_d)/(ES - h_ES)."""
    return (d - D_HALF_UNIT) / (es + ES_HALF_UNIT), (d + D_HALF_UNIT) / (es - ES_HALF_UNIT)


def denominator_spread(frame: pd.DataFrame) -> pd.DataFrame:
    """The spread of ``implied_denominator`` within each condition with two or more printed pairs.

    A condition is (measure, Dmax, N, gain): one score matrix, one V_E.  Each
    printed |d| and ES is rounded (|d| to 4 decimals, ES to 3), so each row's
    |d| / ES is only known to lie in ``[(d - 0.00005)/(ES + 0.0005),
    (d + 0.00005)/(ES - 0.0005)]``.  The rows of a condition can share one
    denominator when those intervals have a common point: ``overlap`` =
    min(upper) - max(lower) >= 0 (``within_printing``).  ``relative_spread`` is
    (max - min) / mean of the implied denominators.  Conditions with a single
    printed pair cannot show a spread and are left out (``frame`` keeps them).
    """
    lo, hi = _printing_interval(frame["d"], frame["es"])
    f = frame.assign(_lo=lo, _hi=hi)
    g = f.groupby(_CONDITION, sort=False)
    out = g.agg(pairs=("pair", "size"), implied_denominator_min=("implied_denominator", "min"),
                implied_denominator_max=("implied_denominator", "max"),
                implied_denominator_mean=("implied_denominator", "mean"),
                _lo=("_lo", "max"), _hi=("_hi", "min")).reset_index()
    out = out[out["pairs"] >= 2].reset_index(drop=True)
    out["relative_spread"] = ((out["implied_denominator_max"] - out["implied_denominator_min"])
                              / out["implied_denominator_mean"])
    out["overlap"] = out["_hi"] - out["_lo"]
    out["within_printing"] = out["overlap"] >= 0
    return out.drop(columns=["_lo", "_hi", "implied_denominator_mean"])


def _summary(values: pd.Series) -> tuple[float, float, float]:
    v = pd.Series(values, dtype=float)
    return float(v.median()), float(v.min()), float(v.max())


def es_readings(frame: pd.DataFrame, pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """Both readings of Table 3's denominator side by side: median, min and max of each quantity.

    ``frame`` is :func:`es_published_denominator`'s; ``pairs`` the workspace's
    discrepant pairs over all draws (``replication_pairs.csv``: d_RawG, ES_RawG,
    d_UG, ES_UG with ES = |d| / sqrt(V_E)).  For each reading
    (``variance``: V_E = |d|/ES; ``standard deviation``: sqrt(V_E) = |d|/ES) the
    rows give (q and n as in ``frame``)

    * ``paper |d| / HSD border``: |d| / (q sqrt(V_E/n)) over the 48 printed
      values (variance: ``d_over_border``; sd: :func:`sd_reading_d_over_border`);
    * ``paper ES as |d| / sqrt(V_E)``: the paper's pairs' effect size as §5
      defines it (variance: sqrt(|d| ES); sd: ES as printed);
    * ``workspace ES as Table 3 computes it``, per measure and over all:
      |d| / V_E = ES^2 / |d| under the variance reading, |d| / sqrt(V_E) = ES
      (the workspace's own formula) under the sd reading.
    """
    rows = []

    def add(quantity, reading, measure, values):
        med, lo, hi = _summary(values)
        rows.append({"quantity": quantity, "reading": reading, "measure": measure,
                     "values": len(values), "median": med, "min": lo, "max": hi})

    add("paper |d| / HSD border", "variance", "all", frame["d_over_border"])
    add("paper |d| / HSD border", "standard deviation", "all", sd_reading_d_over_border(frame))
    add("paper ES as |d| / sqrt(V_E)", "variance", "all", np.sqrt(frame["d"] * frame["es"]))
    add("paper ES as |d| / sqrt(V_E)", "standard deviation", "all", frame["es"])
    if pairs is not None and len(pairs):
        ws = pd.concat([pairs[["measure"]].assign(d=pairs[f"d_{g}"], es=pairs[f"ES_{g}"])
                        for g in ("RawG", "UG")], ignore_index=True)
        for m in ["all", *dict.fromkeys(ws["measure"])]:
            part = ws if m == "all" else ws[ws["measure"] == m]
            add("workspace ES as Table 3 computes it", "variance", m, part["es"] ** 2 / part["d"])
            add("workspace ES as Table 3 computes it", "standard deviation", m, part["es"])
    for m in dict.fromkeys(frame["measure"]):
        add("paper ES as printed", "(either)", m, frame.loc[frame["measure"] == m, "es"])
    return pd.DataFrame(rows)
