"""The randomised Tukey HSD against a plain vectorised numpy version.

:func:`evalkit.stats.hsd.tukey_null_ranges` on 100 topics x 16 systems,
B = 5000, against :func:`reference_null_ranges` (random keys, argsort,
take_along_axis, in chunks of trials); the p-values of all 120 pairs of
:func:`evalkit.stats.hsd.randomised_tukey_hsd` must agree with the
reference's within 4 Monte Carlo standard errors.  Target: >= 5x.
"""

from __future__ import annotations

import numpy as np

from evalkit.stats import hsd

from .common import median_time


def reference_null_ranges(x: np.ndarray, n_trials: int, rng: np.random.Generator,
                          chunk: int = 500) -> np.ndarray:
    """Plain vectorised numpy randomised Tukey HSD null: random keys, argsort,
    take_along_axis, in chunks of trials."""
    out = np.empty(n_trials)
    for start in range(0, n_trials, chunk):
        b = min(chunk, n_trials - start)
        keys = rng.random((b,) + x.shape)
        idx = np.argsort(keys, axis=2)
        perm = np.take_along_axis(np.broadcast_to(x, keys.shape), idx, axis=2)
        means = perm.mean(axis=1)
        out[start:start + b] = means.max(axis=1) - means.min(axis=1)
    return out


def bench_tukey() -> dict:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(100, 16)) * 0.3 + np.linspace(0, 0.4, 16)
    b = 5000
    t_ours = median_time(lambda: hsd.tukey_null_ranges(x, b, seed=1))
    t_ref = median_time(lambda: reference_null_ranges(x, b, np.random.default_rng(2)))
    # same statistical answers: p-values of every pair within Monte Carlo error
    ours = hsd.randomised_tukey_hsd(x, b, seed=1)
    ref_null = reference_null_ranges(x, b, np.random.default_rng(2))
    p_ref = np.array([(ref_null >= abs(d) - 1e-12).mean() for d in ours["diff"]])
    se = np.sqrt(np.maximum(p_ref * (1 - p_ref), 0.0025) * 2 / b)
    worst = float(np.max(np.abs(ours.p_value - p_ref) / se))
    return {"name": "randomised Tukey HSD, 100 topics x 16 systems, B=5000",
            "evalkit_s": t_ours, "reference_s": t_ref, "speed_up": t_ref / t_ours,
            "target": ">= 5x", "ok": t_ref / t_ours >= 5 and worst < 4,
            "check": f"max |p - p_ref| = {worst:.2f} Monte Carlo SEs over 120 pairs"}
