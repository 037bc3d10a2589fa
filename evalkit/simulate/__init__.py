"""Simulated worlds for raw data that is not public, one module per world.

* :mod:`~evalkit.simulate.stc`: Sakai's STC-like collection and rating draws.
* :mod:`~evalkit.simulate.ttg`: Wang et al.'s TTG world (pool, two assessors, runs).
* :mod:`~evalkit.simulate.preference_sampling`: Wang et al.'s §5 pair sampling.
* :mod:`~evalkit.simulate.preferences`: the simulated user study built on it.
* :mod:`~evalkit.simulate.orderings`: Kim, Zhai & Han's ordering judgments (Mallows).

Every simulator takes an explicit seed or ``numpy.random.Generator``
(:func:`~evalkit.seeds.as_generator`); the same seed gives the same
bytes.  Every public name is importable from here too.
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "stc": ("simulate_ratings", "STC_DEFAULTS", "rank_pool", "simulate_stc_collection"),
    "orderings": ("ORDERING_DEFAULTS", "mallows", "simulate_orderings"),
    "ttg": ("TTG_DEFAULTS", "snowflake_id", "tweet_time_ms", "assessor_clusters", "ttg_pool",
            "ttg_clusters", "ttg_runs", "simulate_ttg"),
    "preferences": ("PREFERENCE_DEFAULTS", "simulate_preferences", "preference_timelines"),
})
