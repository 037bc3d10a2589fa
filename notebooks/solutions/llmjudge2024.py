# Worked solutions of notebooks/llmjudge2024.ipynb (instructor edition only; see
# evalkit/explore/exercises/solutions.py). Each block replaces its answer cell.

# %% answer:alpha
# Pool the 2n values of the two raters: zeros n_0, ones n_1; D_o = split items / n,
# D_e = 2 n_0 n_1 / (2n (2n - 1)); alpha = 1 - D_o / D_e.
t = np.asarray(crosstab, dtype=float)
n = t.sum()
n_0 = 2 * t[0, 0] + t[0, 1] + t[1, 0]
n_1 = 2 * t[1, 1] + t[0, 1] + t[1, 0]
d_o = (t[0, 1] + t[1, 0]) / n
d_e = 2 * n_0 * n_1 / (2 * n * (2 * n - 1))
answer_alpha = 1 - d_o / d_e
print(f"n = {n:g}, n_0 = {n_0:g}, n_1 = {n_1:g}, D_o = {d_o:.4f}, D_e = {d_e:.4f}, "
      f"alpha = {answer_alpha:.6f}")

# %% answer:worse
# The top judge by mean per-topic alpha, then its significant pairs.
top = hsd.systems.sort_values("mean").iloc[-1]["system"]
mine = hsd.pairs[(hsd.pairs.system_a == top) | (hsd.pairs.system_b == top)]
answer_worse = int(mine.significant.sum())
print(f"{top}: significantly better than {answer_worse} of {len(mine)} judges")

# %% answer:ug
# RawG is the sum of the 33 grades; D = max - min; N = 33; Dmax = 3.
g = m.llm[example]
raw_gain, spread_d = g.sum(), g.max() - g.min()
answer_ug = raw_gain + p * len(g) * (3 - spread_d) if raw_gain > 0 else 0
print(f"RawG = {raw_gain}, D = {spread_d}, UG = {raw_gain} + {p} * {len(g)} * (3 - {spread_d}) "
      f"= {answer_ug:g}")
