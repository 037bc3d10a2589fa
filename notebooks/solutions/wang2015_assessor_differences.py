# Worked solutions of notebooks/wang2015_assessor_differences.ipynb (the instructor edition runs them).

# %% answer:topic_ari
# Contingency table, official rows {t1,t2,t3}, {t4,t5}, {t6}, {t7} x alternate columns
# {t1,t2}, {t3,t4,t5}, {t6,t7}: [[2, 1, 0], [0, 2, 0], [0, 0, 1], [0, 0, 1]].
from math import comb

index = comb(2, 2) + comb(1, 2) + comb(2, 2) + comb(1, 2) + comb(1, 2)   # pairs together in both: 2
a = comb(3, 2) + comb(2, 2) + comb(1, 2) + comb(1, 2)                    # official pairs: 4
b = comb(2, 2) + comb(3, 2) + comb(2, 2)                                 # alternate pairs: 5
expected = a * b / comb(7, 2)                                            # 20 / 21
answer_topic_ari = (index - expected) / ((a + b) / 2 - expected)
print(f"ARI = {answer_topic_ari:.4f}")

# %% answer:rank_swaps
off_scores = [0.42, 0.38, 0.35, 0.31, 0.30, 0.22]
alt_scores = [0.40, 0.41, 0.30, 0.33, 0.29, 0.25]
pairs = [(i, j) for i in range(6) for j in range(i + 1, 6)]
swaps = sum((off_scores[i] - off_scores[j]) * (alt_scores[i] - alt_scores[j]) < 0 for i, j in pairs)
answer_rank_swaps = 1 - 2 * swaps / len(pairs)
print(f"{swaps} of {len(pairs)} pairs swap: tau = {answer_rank_swaps:.3f}")

# %% answer:stable_draws
default = worlds_draws[worlds_draws["world"] == "default"]
answer_stable_draws = int((default["tau_min"] >= paper.TAU_STABLE).sum())
print(f"{answer_stable_draws} of {len(default)} draws; the committed draw 0 has min tau "
      f"{default[default.draw == 0].tau_min.iloc[0]:.3f}")

# %% answer:calibration
answer_calibration = "b"   # the ARI was a target the simulator was tuned to
