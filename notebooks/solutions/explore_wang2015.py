"""Worked solutions of the exercises in notebooks/explore_wang2015.ipynb (the instructor edition).

One block per exercise, opened by '# %% answer:<id>'; `make book-solutions` puts each
block into the notebook's answer cell tagged answer:<id> and runs the notebook.
"""

# %% answer:ari
# Solution: contingency table rows {abc},{def} x columns {ab},{cdef}: [[2, 1], [0, 3]].
from math import comb

index = comb(2, 2) + comb(1, 2) + comb(0, 2) + comb(3, 2)          # pairs together in both: 4
rows, cols = comb(3, 2) + comb(3, 2), comb(2, 2) + comb(4, 2)      # 6 and 7
expected = rows * cols / comb(6, 2)                                # 2.8
answer_ari = (index - expected) / ((rows + cols) / 2 - expected)

# %% answer:swap_tau
# Solution: count the pairs whose order differs (rank swaps); no ties, so tau = 1 - 2 s / 10.
off = [0.30, 0.50, 0.40, 0.20, 0.60]
alt = [0.35, 0.45, 0.50, 0.10, 0.40]
swaps = sum((off[i] - off[j]) * (alt[i] - alt[j]) < 0 for i in range(5) for j in range(i + 1, 5))
answer_swap_tau = 1 - 2 * swaps / 10

# %% answer:lowest_ari_level
# Solution: the explorer's compute function at each level.
views = {lv: explorer.compute(world, lv) for lv in (0, 0.5, 1, 2, 3)}
for lv, v in views.items():
    print(f"level {lv}: mean ARI {v.mean_ari:.3f}, min tau {v.stability['tau'].min():.3f}")
answer_lowest_ari_level = min(views, key=lambda lv: views[lv].mean_ari)
