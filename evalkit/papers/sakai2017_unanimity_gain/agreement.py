"""Sakai (EVIA 2017) §5: would ratings that resemble one another make UG matter more?

§5 expects that real ratings, which "tend to resemble one another and make D_i smaller", would
show a larger impact of unanimity-aware gain than the uniform simulation.  The simulator has the
knob: :func:`evalkit.simulate.latent_ratings.simulate_agreeing_ratings` (agreement a in [0, 1];
a = 0 is Sakai's uniform draw, rating for rating).  :func:`agreement_worlds` redraws the
notebook's worlds (the collection of :func:`~.replications.collection_seed` and the rating
stream of :func:`~.conditions.ratings_stream` for one (Dmax, N)) at several agreements, and
gives Table 2's tau between the RawG and UG rankings per world, agreement and measure.  At
a = 0 the taus are the replications' own for that condition.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...measures import gains
from ...simulate.latent_ratings import simulate_agreeing_ratings
from ...simulate.stc import stc_lists
from .collection import Collection, collection_from_lists
from .conditions import conditions_from_gains, ratings_stream
from .replications import collection_seed
from .tables import tau_table

__all__ = ["AGREEMENTS", "agreement_worlds"]

#: The agreements compared with Sakai's uniform ratings (a = 0): the claim's (0.5, the workspace's
#: choice of "resemble one another") and the range its verdict is recomputed over.
AGREEMENTS = (0.25, 0.5, 0.75)


def agreement_worlds(collection: Collection, replications: int, dmax: int, n: int,
                     agreements: Sequence[float] = (0.0, *AGREEMENTS), p: float = 0.2,
                     seed: int = 2017, k: int = 10, alpha: float = 0.05) -> pd.DataFrame:
    """Tau between the RawG and UG rankings per (replication, agreement, measure).

    World 0 is ``collection``; world ``r`` the collection of seed ``collection_seed(seed, r)``
    (depth ``k``), as :func:`~.replications.replicate` draws them; every agreement starts from
    the same rating stream ``(seed, r, dmax, n)``, so the agreements are paired.
    """
    rows = []
    for rep in range(int(replications)):
        world = collection if rep == 0 else collection_from_lists(
            *stc_lists(collection_seed(seed, rep), depth=k))
        grades = np.concatenate(world.grades)
        cuts = np.cumsum([len(g) for g in world.grades])[:-1]
        for a in agreements:
            ratings = simulate_agreeing_ratings(grades, n, dmax, a, ratings_stream(seed, rep, dmax, n))
            raw, ug = gains.raw_gain(ratings), gains.unanimity_gain(ratings, dmax, p)
            cond = conditions_from_gains(world, np.split(raw, cuts), np.split(ug, cuts), (dmax, n))
            taus = tau_table(cond, world.lists.runs, alpha)
            rows += [{"replication": rep, "agreement": float(a), "measure": t.measure, "tau": t.tau}
                     for t in taus.itertuples()]
    return pd.DataFrame(rows)
