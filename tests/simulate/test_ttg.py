"""The simulated TTG world: snowflake ids, calibration, determinism."""

import numpy as np
import pandas as pd

from evalkit.papers import wang2015_assessor_differences as wang_ad
from evalkit.simulate import ttg as sim_ttg
from evalkit.paths import PUBLISHED


def test_snowflake_ids_round_trip():
    rng = np.random.default_rng(0)
    ms = rng.integers(1359676800000, 1364774399000, 100)
    assert (sim_ttg.tweet_time_ms(sim_ttg.snowflake_id(ms, rng)) == ms).all()


def test_ttg_simulator_calibration():
    qrels, latent = sim_ttg.ttg_pool(2015)
    rng = np.random.default_rng(1)
    merge_o, merge_a = sim_ttg.TTG_DEFAULTS["merge"]
    off = sim_ttg.ttg_clusters(latent, merge_o, rng)
    alt = sim_ttg.ttg_clusters(latent, merge_a, rng)
    ari = wang_ad.topic_ari(off, alt)
    assert len(ari) == 55
    assert abs(ari.mean() - 0.445) <= 0.05 and abs(ari.median() - 0.492) <= 0.05
    assert 0.15 <= ari.std(ddof=1) <= 0.30
    n_off = np.mean([len(v) for v in off.values()])
    n_alt = np.mean([len(v) for v in alt.values()])
    assert 80 <= n_off <= 98 and 65 <= n_alt <= 81 and n_off > n_alt
    assert 170 <= (qrels.grade > 0).sum() / 55 <= 215
    sizes = np.array([len(c) for v in off.values() for c in v])
    assert (sizes == 1).mean() > 0.5  # most clusters are singletons


def test_ttg_simulator_is_deterministic(tmp_path):
    targets = pd.read_csv(PUBLISHED / "wang2015_ttg_official_scores.csv").head(4)
    for name in ("a", "b"):
        sim_ttg.simulate_ttg(tmp_path / name, seed=3, targets=targets, n_topics=3)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len(files) == 3 + 4
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    world = wang_ad.load_world(tmp_path / "a")
    assert world.runs.run.nunique() == 4
