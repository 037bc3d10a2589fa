"""Simulators for raw data that is not public, calibrated to published statistics.

Every simulator takes an explicit ``seed`` (int) or ``numpy.random.Generator``
and never touches numpy's global state; the same seed gives byte-identical
files.

* :func:`simulate_stc_collection` — an NTCIR-12 STC-like test collection
  (Sakai 2017 §4): 100 topics, 44 runs from 16 teams, top-10 lists, a graded
  pool L0/L1/L2, written as TREC qrels and runs.
* :func:`simulate_ratings` — Sakai's rating simulation: an L0 item gets N
  zeros; an L1 or L2 item gets N independent integer ratings uniform on
  ``{0..dmax}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from .errors import InputError, ParameterError
from .io import write_qrels, write_run

__all__ = [
    "as_generator", "simulate_ratings", "simulate_stc_collection", "STC_DEFAULTS",
    "mallows", "simulate_orderings", "ORDERING_DEFAULTS",
]


def as_generator(seed) -> np.random.Generator:
    """``numpy.random.Generator`` from an int seed or an existing Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ParameterError("seed", seed, "an int or a numpy.random.Generator")
    return np.random.default_rng(int(seed))


def simulate_ratings(grades, n_assessors: int, dmax: int, seed) -> np.ndarray:
    """Sakai's simulated ratings for judged items (Sakai 2017, §4).

    ``grades`` are the items' qrels grades.  Grade 0 -> ``n_assessors`` zeros;
    any positive grade (L1 and L2 alike, as in the paper) -> ``n_assessors``
    independent integers uniform on ``{0, ..., dmax}``.  Returns an
    ``items x n_assessors`` int array.
    """
    for name, value in (("n_assessors", n_assessors), ("dmax", dmax)):
        if isinstance(value, bool) or int(value) != value or value < 1:
            raise ParameterError(name, value, "a whole number >= 1")
    rng = as_generator(seed)
    grades = np.asarray(grades)
    ratings = rng.integers(0, int(dmax) + 1, size=(grades.size, int(n_assessors)))
    ratings[grades <= 0] = 0
    return ratings


#: Calibration of the STC-like collection; see ``notebooks/README.md``.
STC_DEFAULTS = dict(
    n_topics=100,
    n_teams=16,
    n_runs=44,
    depth=10,
    candidates=120,        # candidate posts per topic a system could return
    relevant_rate=(2.0, 5.0),  # Beta(a, b) share of relevant candidates per topic
    l2_share=0.45,         # share of relevant candidates that are L2
    team_skill=(0.05, 1.00),  # range of team skill (signal weight)
    run_spread=0.25,       # sd of run skill around its team's
    team_noise_share=0.6,  # share of a run's noise shared with its team's runs
)


def _runs_per_team(n_runs: int, n_teams: int, rng: np.random.Generator) -> np.ndarray:
    if n_runs < n_teams:
        raise ParameterError("n_runs", n_runs, f"at least n_teams = {n_teams}")
    counts = np.ones(n_teams, dtype=int)
    extra = n_runs - n_teams
    # Teams submit 1-5 runs, as NTCIR allows.
    while extra:
        t = rng.integers(n_teams)
        if counts[t] < 5:
            counts[t] += 1
            extra -= 1
    return counts


def simulate_stc_collection(out_dir, seed=2017, **overrides) -> dict[str, Path]:
    """Write an STC-like collection to ``out_dir`` (``qrels.txt``, ``runs/*.txt``).

    Model (per topic ``t`` and candidate post ``i``): a latent grade
    ``L_i`` in {0, 1, 2}; a post-level appeal ``a_i ~ N(0, 1)`` shared by all
    systems (systems agree on what looks good); each team ``T`` has a skill
    ``s_T`` and a team-level noise field ``e_Ti ~ N(0, 1)``, each run ``r`` of
    the team a skill ``s_r = s_T + N(0, run_spread)`` and its own noise
    ``u_ri``.  The run scores ``s_r * L_i + 0.5 a_i + sqrt(c) e_Ti +
    sqrt(1 - c) u_ri`` and returns its top ``depth``; ``c`` is
    ``team_noise_share``, which makes a team's runs correlated.  The pool (all
    returned posts) is judged with the latent grades, so every retrieved post
    is judged, as in NTCIR's depth-10 pooling of top-10 runs.

    Calibration target (DESIGN.md): among the best run of each team, pairs
    with mean nG@1 differences of 0.12–0.17 near the 5% significance border
    of the randomised Tukey HSD test.  Returns the paths written.
    """
    cfg = {**STC_DEFAULTS, **overrides}
    unknown = set(overrides) - set(STC_DEFAULTS)
    if unknown:
        raise ParameterError("overrides", sorted(unknown), f"keys of {sorted(STC_DEFAULTS)}")
    rng = as_generator(seed)
    n_topics, n_teams, n_runs, depth, m = (
        cfg["n_topics"], cfg["n_teams"], cfg["n_runs"], cfg["depth"], cfg["candidates"],
    )
    if depth > m:
        raise ParameterError("depth", depth, f"at most candidates = {m}")
    per_team = _runs_per_team(n_runs, n_teams, rng)
    team_of_run = np.repeat(np.arange(n_teams), per_team)
    lo, hi = cfg["team_skill"]
    team_skill = rng.uniform(lo, hi, n_teams)
    run_skill = team_skill[team_of_run] + rng.normal(0, cfg["run_spread"], n_runs)
    run_names = [
        f"T{team + 1:02d}-C-R{int((team_of_run[:i] == team).sum()) + 1}"
        for i, team in enumerate(team_of_run)
    ]
    c = cfg["team_noise_share"]
    topics = [f"C{t + 1:03d}" for t in range(n_topics)]
    # Weibo-like 16-digit post ids, unique across the collection.
    ids = rng.choice(9 * 10**15, size=n_topics * m, replace=False) + 10**15
    ids = ids.reshape(n_topics, m)
    qrels_rows, run_rows = [], []
    a, b = cfg["relevant_rate"]
    for t, topic in enumerate(topics):
        rate = rng.beta(a, b)
        relevant = rng.random(m) < rate
        grade = np.where(relevant, np.where(rng.random(m) < cfg["l2_share"], 2, 1), 0)
        appeal = rng.normal(0, 1, m)
        team_noise = rng.normal(0, 1, (n_teams, m))
        run_noise = rng.normal(0, 1, (n_runs, m))
        score = (
            run_skill[:, None] * grade[None, :]
            + 0.5 * appeal[None, :]
            + np.sqrt(c) * team_noise[team_of_run]
            + np.sqrt(1 - c) * run_noise
        )
        top = np.argsort(-score, axis=1, kind="stable")[:, :depth]
        pooled = np.unique(top)
        qrels_rows.extend((topic, str(ids[t, i]), int(grade[i])) for i in pooled)
        for r in range(n_runs):
            for rank, i in enumerate(top[r], start=1):
                run_rows.append((run_names[r], topic, str(ids[t, i]), rank, float(score[r, i])))
    out = Path(out_dir)
    qrels = pd.DataFrame(qrels_rows, columns=["topic", "doc", "grade"])
    runs = pd.DataFrame(run_rows, columns=["run", "topic", "doc", "rank", "score"])
    written = {"qrels": write_qrels(qrels, out / "qrels.txt")}
    for name, run in runs.groupby("run", sort=True):
        written[name] = write_run(run, out / "runs" / f"{name}.txt")
    return written


# --------------------------------------------------------------------------
# Kim, Zhai & Han: sentence-ordering judgments
# --------------------------------------------------------------------------
#: Calibration of the ordering simulator (see :func:`simulate_orderings`).
ORDERING_DEFAULTS = dict(
    n_sets=10,
    items=(5, 8, 0.475),      # k = 5 + Binomial(8, 0.475): mean 8.8 sentences
    assessors=(8, 6, 0.4),    # n = 8 + Binomial(6, 0.4): mean 10.4 assessors
    phi=0.44,                 # median Mallows dispersion (0 = all agree, 1 = uniform)
    phi_spread=0.35,          # sd of log(phi) between assessors
)


def mallows(centre: Sequence, phi: float, rng: np.random.Generator) -> tuple:
    """One draw from the Mallows model ``P(s) ~ phi ** d_K(s, centre)``.

    Repeated insertion (Doignon et al. 2004): the ``i``-th item of ``centre``
    goes to position ``j`` of the ``i`` slots with probability proportional to
    ``phi ** (i - j)``.
    """
    if not 0.0 <= phi <= 1.0:
        raise ParameterError("phi", phi, "a number in [0, 1]")
    out: list = []
    for i, item in enumerate(centre, start=1):
        w = phi ** np.arange(i - 1, -1, -1, dtype=float)
        out.insert(int(rng.choice(i, p=w / w.sum())), item)
    return tuple(out)


def simulate_orderings(out_path, seed=2010, **overrides) -> Path:
    """Write sentence-ordering judgments as CSV ``set,assessor,position,item``.

    Each set has a latent "true" order; each assessor ``a`` draws from a
    Mallows model around it with dispersion ``phi_a = phi * exp(N(0,
    phi_spread))`` (clipped to ``[0, 1]``), so some assessors are more
    consistent than others.  Calibrated so that the mean pairwise Kendall tau
    between assessors is about 0.45, what the paper's ED of AC-tau (0.454)
    implies (``tests/test_ordering.py`` checks it).
    """
    cfg = {**ORDERING_DEFAULTS, **overrides}
    unknown = set(overrides) - set(ORDERING_DEFAULTS)
    if unknown:
        raise ParameterError("overrides", sorted(unknown), f"keys of {sorted(ORDERING_DEFAULTS)}")
    rng = as_generator(seed)
    rows = ["set,assessor,position,item\n"]
    for s in range(cfg["n_sets"]):
        base, trials, prob = cfg["items"]
        k = base + int(rng.binomial(trials, prob))
        base, trials, prob = cfg["assessors"]
        n = base + int(rng.binomial(trials, prob))
        centre = [f"s{i + 1}" for i in rng.permutation(k)]
        for a in range(n):
            phi = float(np.clip(cfg["phi"] * np.exp(rng.normal(0, cfg["phi_spread"])), 0, 1))
            for pos, item in enumerate(mallows(centre, phi, rng), start=1):
                rows.append(f"set{s + 1:02d},A{a + 1:02d},{pos},{item}\n")
    from .io import write_text

    return write_text(out_path, "".join(rows))
