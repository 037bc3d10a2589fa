# Worked solutions of notebooks/kim2010_ordering_aggregation.ipynb (instructor edition only).

# %% answer:ed_by_hand
from itertools import combinations


def kendall(x, y):
    """Kendall's tau: (concordant - discordant pairs) / pairs."""
    pairs = list(combinations(x, 2))             # x puts a before b
    concordant = sum(y.index(a) < y.index(b) for a, b in pairs)
    return (2 * concordant - len(pairs)) / len(pairs)


orderings = ["abc", "acb", "bac"]
# held out i, the score minus the reverse's score is the mean tau with the others
turns = [sum(kendall(orderings[i], orderings[j]) for j in range(3) if j != i) / 2 for i in range(3)]
answer_ed_by_hand = sum(turns) / 3               # (1/3 + 0 + 0) / 3 = 1/9

# %% answer:wca_score
weights, correlations = (0.5, -0.45), (0.6, -0.2)
answer_wca_score = sum(w * c for w, c in zip(weights, correlations)) / sum(weights)   # 0.39 / 0.05 = 7.8

# %% answer:minsup_worlds_best
answer_minsup_worlds_best = int((minsup_long.query("world == 'default'")["best_min_sup"] == 1.0).sum())
