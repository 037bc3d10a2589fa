"""Worked solutions of the exercises in notebooks/explore_kim2010.ipynb (the instructor edition).

One block per exercise, opened by '# %% answer:<id>'; `make book-solutions` puts each
block into the notebook's answer cell tagged answer:<id> and runs the notebook.
"""

# %% answer:kendall
# Solution: of the 6 pairs, (a, b) and (c, d) are in opposite order.
answer_kendall = (4 - 2) / 6

# %% answer:dilution
# Solution: m = round(10 * 0.5) = 5 noise orderings. A clean held-out ordering is now averaged
# over 9 + 5 others (only 9 informative), and ED averages over 15 held-out orderings, of which
# the 5 noisy ones contribute 0 on average.
n, m = 10, 5
answer_dilution = 0.45 * (n - 1) / (n - 1 + m) * n / (n + m)

# %% answer:best_method
# Solution: the explorer's compute function at r = 1.
ed = explorer.compute(engines, noise_ratio=1.0).ed
print(ed.round(3).to_string(index=False))
answer_best_method = ed.loc[ed["ED"].idxmax(), "method"]
