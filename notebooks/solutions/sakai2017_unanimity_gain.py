# Worked solutions of notebooks/sakai2017_unanimity_gain.ipynb (instructor edition only).
# %% answer:ug_by_hand
# Ratings 2, 3, 3, 3, 3 on 0..3: RawG = 14, D = 3 - 2 = 1, N = 5, p = 0.2.
answer_ug_by_hand = 14 + 0.2 * 5 * (3 - 1)
# %% answer:hsd_trial
# Permuted rows: (0.2, 0.6, 0.4), (0.5, 0.8, 0.5), (0.4, 0.1, 0.4), (0.3, 0.4, 0.7).
# Column means: 1.4 / 4 = 0.35, 1.9 / 4 = 0.475, 2.0 / 4 = 0.5; range = 0.5 - 0.35.
answer_hsd_trial = 0.5 - 0.35
# %% answer:draws_n40
big = reps[reps["N"].isin([40, 80])]
answer_draws_n40 = int((big.groupby("replication")["discrepancies"].sum() > 0).sum())
