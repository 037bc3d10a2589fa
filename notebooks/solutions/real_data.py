# Worked solutions of notebooks/real_data.ipynb (instructor edition only; see
# evalkit/explore/exercises/solutions.py). Each block replaces its answer cell.

# %% answer:ug
# RawG is the sum of the ten ratings; D = max - min; N = 10 ratings; Dmax = 2.
r = ratings[example]
raw_gain = r.sum()                       # 13
spread_d = r.max() - r.min()             # 1
answer_ug = raw_gain + p * len(r) * (2 - spread_d)
print(f"RawG = {raw_gain:g}, D = {spread_d:g}, UG = {raw_gain:g} + {p} * {len(r)} * (2 - {spread_d:g}) = {answer_ug:g}")

# %% answer:swaps
# tau = (C - S) / (C + S) with C + S = n(n-1)/2 pairs, so S = pairs (1 - tau) / 2.
row = res[(res.ratings == "real") & (res.measure == "nG@1")].iloc[0]
pairs = int(row.runs) * (int(row.runs) - 1) // 2
answer_swaps = round(pairs * (1 - row.tau) / 2)
print(f"{int(row.runs)} runs, {pairs} pairs, tau {row.tau:.4f}: {answer_swaps} swapped pairs")

# %% answer:draws
# Compare every uniform draw's tau with the real one; ties do not count.
nG = res[res.measure == "nG@1"]
real_tau = nG.loc[nG.ratings == "real", "tau"].iloc[0]
uniform_tau = nG.loc[nG.ratings == "uniform", "tau"]
answer_draws = int((uniform_tau > real_tau).sum())
print(f"real {real_tau:.3f}; uniform above it in {answer_draws} of {len(uniform_tau)} draws, "
      f"equal in {int((uniform_tau == real_tau).sum())}")

# %% answer:world
# Mean tau per world for P+: real and uniform from the summary, shuffled from the controls.
taus = {"real": summary.query("measure == 'P+' and ratings == 'real'").tau.iloc[0],
        "uniform": summary.query("measure == 'P+' and ratings == 'uniform'").tau.iloc[0],
        "shuffled": controls.query("measure == 'P+' and world == 'shuffled'").tau.iloc[0]}
answer_world = min(taus, key=taus.get)
print({k: round(float(v), 3) for k, v in taus.items()}, "->", answer_world)
