"""Facts of the real data sets that the real-data notebook relies on."""

import numpy as np

from evalkit.formats import trec
from evalkit.measures import gains
from evalkit.papers import real_data
from evalkit.workspace import data


def test_trec2014_descriptive_facts(external):
    qrels = trec.read_qrels(data.path_of("trec2014-qrels", external))
    facts = real_data.trec2014_facts(qrels).set_index("fact")
    assert facts.loc["topics", "computed"] == 55
    assert facts.loc["judgments", "computed"] == 57985
    assert facts.loc["relevant", "computed"] == 10645
    assert facts.loc["relevant_per_topic", "computed"] == 193.5
    assert qrels.grade.value_counts().to_dict() == {0: 47340, 2: 5892, 1: 4753}
    topics = trec.read_topics(data.path_of("trec2014-topics", external))
    assert len(topics) == 55 and topics.set_index("topic").loc["179", "query"] == "care of Iditarod dogs"


def test_stc_ja_spread_matches_the_data_description(external):
    items, ratings = real_data.load_stc(data.path_of("stc-ja-test", external))
    assert ratings.shape == (18543, 10) and items.post.nunique() == 204
    spread = real_data.stc_spread(ratings, 2, seed=0).set_index("D")["real_items"]
    assert spread.to_dict() == {0: 60, 1: 6893, 2: 6491}


def test_stc_ja_dev_missing_ratings(external):
    _, dev = real_data.load_stc(data.path_of("stc-ja-dev", external))
    assert dev.shape == (1959, 10) and np.isnan(dev).any()
    n_i = (~np.isnan(dev)).sum(1)
    ug = gains.unanimity_gain(dev, 2, 0.2)
    raw = gains.raw_gain(dev)
    d = gains.rating_spread(dev)
    np.testing.assert_allclose(ug, np.where(raw > 0, raw + 0.2 * n_i * (2 - d), 0))
