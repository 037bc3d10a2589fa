"""Simulated sentence-ordering judgments for Kim, Zhai & Han (ECIR 2010).

A Mallows model around one shared centre per set (:func:`mallows`), calibrated
to the paper's 10 sets of 8.8 items and 10.4 assessors on average with a mean
pairwise Kendall tau of about 0.45 between assessors.  Written as the
``set,assessor,position,item`` CSV that :mod:`evalkit.formats.orderings` reads.
Calibration: ``docs/simulators.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import ParameterError
from ..seeds import as_generator

__all__ = ["ORDERING_DEFAULTS", "mallows", "simulate_orderings", "simulate_sets"]


#: Calibration of the ordering simulator (see :func:`simulate_orderings`).
ORDERING_DEFAULTS = dict(
    n_sets=10,
    items=(5, 8, 0.475),      # k = 5 + Binomial(8, 0.475): mean 8.8 sentences
    assessors=(8, 6, 0.4),    # n = 8 + Binomial(6, 0.4): mean 10.4 assessors
    phi=0.448,                # median Mallows dispersion (0 = all agree, 1 = uniform); calibrated offline
                              # so the mean over worlds is the paper's 0.454 (kim2010 .calibration)
    phi_spread=0.35,          # sd of log(phi) between assessors
    centres=1,                # assessor groups per set, each around its own centre
    centre_phi=0.0,           # Mallows dispersion of the extra centres around the first
)


MALLOWS_COMPILED_MAX = 128  # longer orderings: numpy sums in blocks of 128; the reference path


def mallows(centre: Sequence, phi: float, rng: np.random.Generator) -> tuple:
    """One draw from the Mallows model ``P(s) ~ phi ** d_K(s, centre)``.

    Repeated insertion (Doignon et al. 2004): the ``i``-th item of ``centre``
    goes to position ``j`` of the ``i`` slots with probability proportional to
    ``phi ** (i - j)``.  The ``k`` uniform numbers come from ``rng`` (one per
    item, the stream ``rng.choice(i, p=...)`` per item would use) and the
    insertion runs compiled (:func:`_insertion_slots`); the draw is the same,
    bit for bit, as :func:`mallows_reference`'s.
    """
    if not 0.0 <= phi <= 1.0:
        raise ParameterError("phi", phi, "a number in [0, 1]")
    centre = list(centre)
    k = len(centre)
    if k > MALLOWS_COMPILED_MAX:
        return mallows_reference(centre, phi, rng)
    uniforms = rng.random(k)
    powers = phi ** np.arange(k - 1, -1, -1, dtype=float)  # phi^(k-1) ... phi^0
    return tuple(centre[j] for j in _compiled_slots()(powers, uniforms))


def mallows_reference(centre: Sequence, phi: float, rng: np.random.Generator) -> tuple:
    """:func:`mallows` item by item with ``rng.choice`` (the tests' oracle)."""
    if not 0.0 <= phi <= 1.0:
        raise ParameterError("phi", phi, "a number in [0, 1]")
    out: list = []
    for i, item in enumerate(centre, start=1):
        w = phi ** np.arange(i - 1, -1, -1, dtype=float)
        out.insert(int(rng.choice(i, p=w / w.sum())), item)
    return tuple(out)


def _insertion_slots(powers, uniforms):
    """Repeated insertion: the centre's item indices in drawn order.

    Item ``i`` (1-based) takes slot ``#{j : cdf_j <= u_i}`` of ``i``, where
    ``cdf`` is ``cumsum(w / sum(w)) / its last value`` for ``w = powers[k-i:]``
    (``phi^(i-1) ... phi^0``): the arithmetic of ``rng.choice(i, p=w / w.sum())``
    on the uniform ``u_i``, step for step.
    """
    k = uniforms.size
    order = np.empty(k, np.int64)
    cdf = np.empty(k)
    part = np.empty(8)
    for i in range(1, k + 1):
        w = powers[k - i:]
        # w.sum() in numpy's order (k <= 128): plain below 8 terms, else 8 partial sums
        if i < 8:
            total = -0.0
            for j in range(i):
                total += w[j]
        else:
            part[:] = w[:8]
            j = 8
            while j < i - i % 8:
                for q in range(8):
                    part[q] += w[j + q]
                j += 8
            total = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]))
            while j < i:
                total += w[j]
                j += 1
        acc = 0.0
        for j in range(i):
            acc += w[j] / total
            cdf[j] = acc
        last = cdf[i - 1]
        slot = 0
        for j in range(i):
            if cdf[j] / last <= uniforms[i - 1]:
                slot += 1
        for j in range(i - 1, slot, -1):
            order[j] = order[j - 1]
        order[slot] = i - 1
    return order


_COMPILED = {}


def _compiled_slots():
    """:func:`_insertion_slots` compiled by numba on first use (numba is imported only then)."""
    if "slots" not in _COMPILED:
        import numba

        _COMPILED["slots"] = numba.njit(cache=True)(_insertion_slots)
    return _COMPILED["slots"]


def simulate_orderings(out_path, seed=2010, **overrides) -> Path:
    """Write sentence-ordering judgments as CSV ``set,assessor,position,item``.

    Each set has a latent "true" order; each assessor ``a`` draws from a
    Mallows model around it with dispersion ``phi_a = phi * exp(N(0,
    phi_spread))`` (clipped to ``[0, 1]``), so some assessors are more
    consistent than others.  Calibrated so that the mean pairwise Kendall tau
    between assessors, averaged over worlds (seeds), is the paper's ED of AC-tau,
    0.454 (the offline search of
    :mod:`evalkit.papers.kim2010_ordering_aggregation.calibration`, which a test re-runs).

    ``centres`` > 1 (alternative worlds, never the default) splits each set's
    assessors at random into groups around different centres, each a Mallows
    draw with dispersion ``centre_phi`` around the first: 0 gives one shared
    centre again, 1 unrelated centres.  The judgments are :func:`simulate_sets`'.
    """
    rows = ["set,assessor,position,item\n"]
    for name, orders in simulate_sets(seed, **overrides).items():
        for a, order in enumerate(orders):
            for pos, item in enumerate(order, start=1):
                rows.append(f"{name},A{a + 1:02d},{pos},{item}\n")
    from ..outputs import write_text

    return write_text(out_path, "".join(rows))


def simulate_sets(seed=2010, **overrides) -> dict[str, list[tuple[str, ...]]]:
    """The judgments :func:`simulate_orderings` writes, as
    :func:`evalkit.formats.orderings.read_orderings` reads them back (``{set: [ordering of
    assessor 1, ...]}``; tested equal), without the file: for worlds drawn only to be scored."""
    cfg = {**ORDERING_DEFAULTS, **overrides}
    unknown = set(overrides) - set(ORDERING_DEFAULTS)
    if unknown:
        raise ParameterError("overrides", sorted(unknown), f"keys of {sorted(ORDERING_DEFAULTS)}")
    rng = as_generator(seed)
    sets = {}
    for s in range(cfg["n_sets"]):
        base, trials, prob = cfg["items"]
        k = base + int(rng.binomial(trials, prob))
        base, trials, prob = cfg["assessors"]
        n = base + int(rng.binomial(trials, prob))
        centre = [f"s{i + 1}" for i in rng.permutation(k)]
        # alternative worlds only (centres > 1): the default draws exactly as before
        centres = [centre] + [list(mallows(centre, cfg["centre_phi"], rng))
                              for _ in range(cfg["centres"] - 1)]
        orders = []
        for a in range(n):
            phi = float(np.clip(cfg["phi"] * np.exp(rng.normal(0, cfg["phi_spread"])), 0, 1))
            own = centres[int(rng.integers(len(centres)))] if len(centres) > 1 else centre
            orders.append(mallows(own, phi, rng))
        sets[f"set{s + 1:02d}"] = orders
    return sets
