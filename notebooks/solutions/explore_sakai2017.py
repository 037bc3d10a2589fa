"""Worked solutions of the exercises in notebooks/explore_sakai2017.ipynb (the instructor edition).

One block per exercise, opened by '# %% answer:<id>'; `make book-solutions` puts each
block into the notebook's answer cell tagged answer:<id> and runs the notebook.
"""

# %% answer:ug_item
# Solution: RawG = 1+1+2+3+3 = 10, D = 3 - 1 = 2, UG = 10 + 0.2 * 5 * (3 - 2)
answer_ug_item = 10 + 0.2 * 5 * (3 - 2)

# %% answer:unanimous_share
# Solution: every rating equals the latent grade with probability a + (1 - a)/4 and each
# of the 3 other values with (1 - a)/4, independently given the latent grade.
a, levels = 0.5, 4
answer_unanimous_share = (a + (1 - a) / levels) ** 5 + (levels - 1) * ((1 - a) / levels) ** 5

# %% answer:first_n
# Solution: the explorer's compute function, one N at a time.
for n_ in (5, 10, 20, 40, 80):
    view = explorer.compute(collection, p=0.2, dmax=3, n=n_, agreement=0.0)
    print(f"N = {n_:2d}: discrepancies {view.hsd['discrepancies'].tolist()}")
    if view.hsd["discrepancies"].sum() == 0:
        answer_first_n = n_
        break
