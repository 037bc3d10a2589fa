"""Wang §3–4: the faster paths of the whole-world draws against the code they replaced.

The references below are the slower implementations as they were before; each
test asserts the faster path gives the same bits (and leaves the generator in
the same state where it draws random numbers).
"""

import numpy as np
import pandas as pd

from evalkit.measures import timeline
from evalkit.papers.wang2015_assessor_differences import draws as wd, fastworld, light
from evalkit.papers.wang2015_assessor_differences.draws import World, _largest_share, topic_aris
from evalkit.papers.wang2015_assessor_differences.pipeline import stability, swap_differences
from evalkit.paths import PUBLISHED
from evalkit.simulate import ttg as simulate

TARGETS = pd.read_csv(PUBLISHED / "wang2015_ttg_official_scores.csv")


def run_hits_reference(qrels: pd.DataFrame, latent: dict, targets: pd.DataFrame, rng: np.random.Generator):
    """:func:`evalkit.simulate.ttg.ttg_runs` in tweet positions, with the same random calls.

    Returns ``(run_names, returned, cell, tweet)`` (see :class:`World`); the
    generator is left where ``ttg_runs`` leaves it.
    """
    topics = sorted(latent)
    groups = sorted(targets["group"].unique())
    style = {g: (rng.uniform(0.05, 0.6), rng.random() < 0.2) for g in groups}
    n_non = qrels[qrels["grade"] == 0].groupby("topic").size().to_dict()
    offset = np.cumsum([0] + [latent[t]["docs"].size for t in topics])
    layout = []
    for ti, topic in enumerate(topics):
        units = latent[topic]["units"]
        sizes = np.bincount(units)
        layout.append((np.argsort(units, kind="stable") + offset[ti], sizes, np.cumsum(sizes) - sizes,
                       sizes / sizes.sum(), n_non.get(topic, 0)))
    names, counter = [], {}
    returned = np.zeros((len(targets), len(topics)), dtype=np.int64)
    cells, tweets = [], []
    for ri, row in enumerate(targets.itertuples(index=False)):
        gi = groups.index(row.group)
        counter[row.group] = counter.get(row.group, 0) + 1
        names.append(f"G{gi + 1:02d}-run{counter[row.group]}")
        redundancy, unjudged = style[row.group]
        for ti, (by_unit, sizes, starts, p_unit, pool_non) in enumerate(layout):
            r = float(np.clip(row.unweighted_recall * rng.lognormal(0, 0.35), 0, 1))
            hits = int(rng.binomial(sizes.size, r))
            p = float(np.clip(row.precision * rng.lognormal(0, 0.3), 0.02, 1))
            chosen = (np.asarray(rng.choice(sizes.size, size=hits, replace=False, p=p_unit), dtype=np.int64)
                      if hits else np.zeros(0, dtype=np.int64))
            picks = starts[chosen] + (rng.random(chosen.size) * sizes[chosen]).astype(np.int64)
            filler = max(0, int(round(hits / p)) - hits) if hits else int(rng.integers(1, 15))
            n_red = int(rng.binomial(filler, redundancy))
            n_unj = int(rng.binomial(filler - n_red, 0.3)) if unjudged else 0
            n_nonrel = filler - n_red - n_unj
            got = [picks]
            pool_red = sizes[chosen].sum() - chosen.size
            if pool_red:
                span = np.concatenate([np.arange(starts[u], starts[u] + sizes[u]) for u in chosen])
                span = span[~np.isin(span, picks)]
                take = min(n_red, pool_red)
                got.append(span[rng.choice(pool_red, size=take, replace=False)])
            else:
                take = 0
            non = 0
            if pool_non:
                non = min(n_nonrel, pool_non)
                rng.choice(pool_non, size=non, replace=False)
            if n_unj:
                rng.integers(simulate._FEB_2013, simulate._MAR_END_2013, size=n_unj)
                rng.integers(0, 1 << 22, size=n_unj)           # the snowflake ids' low bits
            n = hits + take + non + n_unj
            rng.permutation(n)
            returned[ri, ti] = n
            rel = by_unit[np.concatenate(got)] if len(got) > 1 else by_unit[picks]
            tweets.append(rel)
            cells.append(np.full(rel.size, ri * len(topics) + ti, dtype=np.int64))
    return (np.array(names, dtype=object), returned, np.concatenate(cells), np.concatenate(tweets))


def row_reference(world: World, s_off: pd.DataFrame, alt: dict, diffs_out: list | None) -> dict:
    s_alt = world.score(alt)
    t1 = stability(s_off, s_alt).set_index("metric")
    ari = topic_aris(world.official, alt)
    row = {"tau_min": t1.tau.min(), "most_swaps": t1.rank_swaps.idxmax(), "lowest_tau": t1.tau.idxmin()}
    diffs = {}
    for m in timeline.METRICS:
        d = swap_differences(s_off, s_alt, m).to_numpy()
        diffs[m] = d
        row |= {f"tau_{m}": t1.loc[m, "tau"], f"swaps_{m}": int(t1.loc[m, "rank_swaps"]),
                f"small_{m}": float((d < 0.03).mean()) if d.size else float("nan"),
                f"absdiff_{m}": float((s_alt[m] - s_off[m]).abs().mean() / s_off[m].mean())}
    if diffs_out is not None:
        diffs_out.append(diffs)
    return row | {"ari_mean": ari.mean(), "ari_median": float(np.median(ari)), "ari_sd": ari.std(ddof=1),
                  "ari_min": float(np.min(ari)), "ari_max": float(np.max(ari)),
                  "clusters_official": np.mean([lab.max() + 1 for lab in world.official.values()]),
                  "clusters_alternate": np.mean([lab.max() + 1 for lab in alt.values()]),
                  "relevant_per_topic": np.mean([lab.size for lab in alt.values()]),
                  "largest_share_alternate": _largest_share(alt),
                  "largest_share_official": _largest_share(world.official)}


def test_choice_without_replacement_is_generator_choice_bit_for_bit():
    meta = np.random.default_rng(0)
    for _ in range(2000):
        n = int(meta.integers(2, 300))
        sizes = meta.geometric(0.2, n).astype(np.int64)
        p = sizes / sizes.sum()
        cdf = np.cumsum(p)
        cdf /= cdf[-1]
        hits = int(meta.integers(1, n + 1))
        seed = int(meta.integers(1 << 30))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        expected = np.asarray(a.choice(n, size=hits, replace=False, p=p), dtype=np.int64)
        np.testing.assert_array_equal(fastworld.choice_without_replacement(b, hits, p, cdf), expected)
        assert a.bit_generator.state == b.bit_generator.state


def test_run_hits_is_its_reference_bit_for_bit():
    for seed, n_topics in ((3, 4), (17, 55)):
        rng = np.random.default_rng(seed)
        qrels, latent = simulate.ttg_pool(rng, n_topics=n_topics)
        r1, r2 = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
        got = fastworld.run_hits(qrels, latent, TARGETS, r1)
        expected = run_hits_reference(qrels, latent, TARGETS, r2)
        assert r1.bit_generator.state == r2.bit_generator.state
        for x, y in zip(got, expected):
            np.testing.assert_array_equal(x, y)


def _same(a, b):
    """Equal bits (NaN equal to NaN); a float equal to a numpy float64 (one table column)."""
    if isinstance(a, float) and isinstance(b, float):
        return np.float64(a).tobytes() == np.float64(b).tobytes()
    return a == b and type(a) is type(b)


def test_whole_world_rows_are_the_pandas_rows_bit_for_bit():
    merge_a = simulate.TTG_DEFAULTS["merge"][1]
    worlds = [fastworld.draw_world(np.random.default_rng(2015), TARGETS)]
    worlds += [light.light_world(wd.world_rng(7, d), TARGETS) for d in (1, 2)]
    for world in worlds:
        s_off = world.score(world.official)
        variants = [world.alternate, world.official]
        variants += [world.labeler(world.latent, merge_a, world.alternate_rng(), level, merge_size_bias=bias,
                                   largest_share=share)
                     for level, bias, share in ((0.0, 1.0, None), (2.5, 0.0, None), (1.0, 1.0, 0.16))]
        for alt in variants:
            d_new, d_old = [], []
            new, old = wd._row(world, s_off, alt, d_new), row_reference(world, s_off, alt, d_old)
            assert list(new) == list(old)
            for k in old:
                assert _same(new[k], old[k]), k
            for m in timeline.METRICS:
                np.testing.assert_array_equal(d_new[0][m], d_old[0][m])


def test_tweet_times_equal_the_dict_of_every_timestamp():
    from evalkit.papers.wang2015_assessor_differences.pipeline import tweet_times

    qrels = pd.DataFrame({"topic": ["1", "1", "2", "2"],
                          "doc": ["300000000000000000", "310000000000000001", "300000000000000000",
                                  "429000000000000000"], "grade": [1, 0, 2, 1]})
    times = simulate.tweet_time_ms(qrels.doc.astype("int64"))
    expected = dict(zip(qrels.doc, pd.to_datetime(times, unit="ms")))   # the dict it was
    got = tweet_times(qrels)
    assert got == expected and len(got) == 3 and list(got) == list(expected)
    for doc, stamp in expected.items():
        assert type(got[doc]) is type(stamp) and got[doc].value == stamp.value and got[doc].unit == stamp.unit
    # tweet 1288834974657 ms after the epoch (Twitter's): snowflake 0 is 2010-11-04 01:42:54.657 UTC
    assert tweet_times(pd.DataFrame({"doc": ["0"]}))["0"] == pd.Timestamp("2010-11-04 01:42:54.657")


def test_unjudged_counts_the_run_rows_whose_pair_is_not_judged():
    from evalkit.papers.wang2015_assessor_differences.pipeline import _unjudged

    qrels = pd.DataFrame({"topic": ["1", "1", "2"], "doc": ["a", "b", "a"], "grade": [1, 0, 2]})
    runs = pd.DataFrame({"run": ["r"] * 6, "topic": ["1", "1", "2", "2", "3", "1"],
                         "doc": ["a", "c", "a", "b", "a", "b"]})
    # ("1","c"), ("2","b") and ("3","a") are not judged (each id is judged in another topic or none)
    assert _unjudged(qrels, runs) == 3
    assert _unjudged(qrels, runs.iloc[[0, 2, 5]]) == 0
    rng = np.random.default_rng(0)
    q = pd.DataFrame({"topic": rng.integers(0, 5, 300).astype(str), "doc": rng.integers(0, 90, 300).astype(str)})
    r = pd.DataFrame({"topic": rng.integers(0, 6, 2000).astype(str), "doc": rng.integers(0, 120, 2000).astype(str)})
    judged = set(zip(q.topic, q.doc))                              # the set the count replaced
    assert _unjudged(q, r) == sum(1 for k in zip(r.topic, r.doc) if k not in judged)


def _segment_rank_reference(cell, key):
    """light._segment_rank as it was (numpy's default introsort)."""
    order = np.argsort(cell + np.minimum(key, 1 - 1e-9))
    first = np.r_[0, np.flatnonzero(np.diff(cell)) + 1]
    rank = np.empty(cell.size, dtype=np.int64)
    rank[order] = np.arange(cell.size) - np.repeat(first, np.diff(np.r_[first, cell.size]))
    return rank


def test_segment_ranks_are_the_introsorts_ranks_on_the_runs_keys():
    calls = []

    def spy(cell, key):
        calls.append((cell, key))
        return _segment_rank_reference(cell, key)

    latent, _, nonrelevant = light.pool(wd.world_rng(2015, 3))
    original = light._segment_rank
    light._segment_rank = spy
    try:
        light.runs(latent, nonrelevant, TARGETS, np.random.default_rng(4))
    finally:
        light._segment_rank = original
    assert len(calls) == 2 and calls[0][0].size > 100_000
    rng = np.random.default_rng(5)
    cell = np.sort(rng.integers(0, 300, 20_000))
    for c, k in calls + [(cell, rng.random(cell.size)), (cell, -np.expm1(-rng.exponential(size=cell.size) / 40))]:
        np.testing.assert_array_equal(light._segment_rank(c, k), _segment_rank_reference(c, k))
