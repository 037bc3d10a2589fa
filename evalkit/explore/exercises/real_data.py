"""Exercises on the real public data (NTCIR-12 STC-ja ratings; ``notebooks/real_data.ipynb``).

* :func:`check_real_ug` — UG (Sakai's Eq. 2) of one real item from its ten ratings, by hand;
* :func:`check_swapped_pairs` — how many run pairs RawG and UG order differently, read off tau;
* :func:`check_uniform_draws_above` — in how many uniform draws tau is above the real one
  (variation between draws, and the verdict rule);
* :func:`check_lowest_tau_world` — which world (real, shuffled, uniform ratings) moves the
  ranking most, and what simulated runs can and cannot show.
"""

from __future__ import annotations

import numpy as np

from .core import Verdict, close_to, report, unanswered

__all__ = ["check_lowest_tau_world", "check_real_ug", "check_swapped_pairs",
           "check_uniform_draws_above", "lowest_tau_world", "swapped_pairs", "uniform_draws_above"]


def check_real_ug(answer, ratings, p: float = 0.2, dmax: int = 2) -> Verdict:
    """UG = RawG + p N (Dmax - D) of one item (RawG > 0) from its real ratings (NaN = missing)."""
    from ...measures import gains

    if unanswered(answer):
        return Verdict(False)
    row = np.asarray(ratings, dtype=float).reshape(1, -1)
    expected = float(gains.unanimity_gain(row, dmax, p)[0])
    return report(close_to(answer, expected, 1e-9),
                  f"UG = RawG + p N (Dmax - D) = {expected:g}.",
                  "RawG is the sum of the ratings, D their max minus their min, N how many there "
                  f"are (Dmax = {dmax}); UG = RawG + p N (Dmax - D), or 0 when RawG = 0.")


def swapped_pairs(tau: float, runs: int) -> int:
    """Run pairs ordered differently by two rankings without ties: S = n(n-1)/2 (1 - tau) / 2.

    Kendall's tau is (C - S) / (n(n-1)/2) with C concordant and S swapped
    (discordant) pairs, C + S = n(n-1)/2.
    """
    return int(round(runs * (runs - 1) / 2 * (1 - tau) / 2))


def check_swapped_pairs(answer, res, measure: str = "nG@1") -> Verdict:
    """Discordant run pairs between the RawG and UG rankings under the real ratings."""
    if unanswered(answer):
        return Verdict(False)
    row = res[(res["ratings"] == "real") & (res["measure"] == measure)].iloc[0]
    expected = swapped_pairs(float(row["tau"]), int(row["runs"]))
    pairs = int(row["runs"]) * (int(row["runs"]) - 1) // 2
    return report(close_to(answer, expected, 0),
                  f"{expected} of the {pairs} run pairs swap: tau = (C - S) / {pairs} = "
                  f"{row['tau']:.3f} with C + S = {pairs}.",
                  "with n runs there are n(n-1)/2 run pairs, each concordant (C) or swapped "
                  "(S); tau = (C - S) / (C + S). Solve for S.")


def uniform_draws_above(res, measure: str = "nG@1") -> int:
    """In how many uniform draws the RawG-vs-UG tau is strictly above the real ratings' tau."""
    real = res[(res["ratings"] == "real") & (res["measure"] == measure)]["tau"].iloc[0]
    uni = res[(res["ratings"] == "uniform") & (res["measure"] == measure)]["tau"]
    return int((uni > real).sum())


def check_uniform_draws_above(answer, res, measure: str = "nG@1") -> Verdict:
    """k of R: uniform draws whose tau is above the real one; the verdict follows the k/R rule."""
    from ...declare.claims import MIN_DRAWS, verdict_over_draws

    if unanswered(answer):
        return Verdict(False)
    k = uniform_draws_above(res, measure)
    r = int(((res["ratings"] == "uniform") & (res["measure"] == measure)).sum())
    judged = (f"so the claim is judged '{verdict_over_draws(k, r)}' (holds at >= 80%, does not "
              "hold at <= 20%)" if r >= MIN_DRAWS else f"too few draws for a verdict (< {MIN_DRAWS})")
    return report(close_to(answer, k, 0),
                  f"{k} of {r}: the real tau is below the uniform one in {k / r:.0%} of the "
                  f"draws, {judged}."
                  + (" One draw alone could have said either." if 0 < k < r else ""),
                  f"take the {measure} rows of the table: compare each uniform draw's tau with "
                  "the real ratings' tau and count the draws strictly above it (ties do not count).")


def lowest_tau_world(summary, controls, measure: str = "P+") -> str:
    """``"real"``, ``"shuffled"`` or ``"uniform"``: the world with the lowest mean RawG-vs-UG tau.

    ``summary`` is :func:`~evalkit.papers.real_data.stc_summary`'s table (real and
    uniform rows), ``controls`` :func:`~evalkit.papers.real_data.controls_summary`'s.
    """
    pick = summary[summary["measure"] == measure].set_index("ratings")["tau"]
    shuffled = controls[(controls["world"] == "shuffled") & (controls["measure"] == measure)]["tau"]
    taus = {"real": float(pick["real"]), "shuffled": float(shuffled.iloc[0]),
            "uniform": float(pick["uniform"])}
    return min(taus, key=taus.get)


def check_lowest_tau_world(answer, summary, controls, measure: str = "P+") -> Verdict:
    """Which ratings move the ranking most; the message says what the simulated runs limit."""
    if unanswered(answer):
        return Verdict(False)
    expected = lowest_tau_world(summary, controls, measure)
    given = str(answer).strip().lower()
    return report(given == expected,
                  f"'{expected}'. The shuffled ratings keep the real agreement but no longer match "
                  "how the runs rank the items; the runs here are simulated to track the real "
                  "ratings, so this shows how UG interacts with agreement and the runs' signal, "
                  "not how the real NTCIR runs would be reordered.",
                  f"compare the {measure} tau of the real ratings and the mean of the uniform draws "
                  "(the summary table) with the shuffled world's (the controls table); answer "
                  "'real', 'shuffled' or 'uniform'.")
