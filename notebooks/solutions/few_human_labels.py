# Worked solutions of notebooks/few_human_labels.ipynb (instructor edition only; see
# evalkit/explore/exercises/solutions.py). Each block replaces its answer cell.

# %% answer:worth
# Width goes as 1 / sqrt(n): ratio = sqrt(n / n'), so n' = n / ratio^2.
ratio = widths[(widths.judge == own) & (widths.n == 10) & (widths.method == "ppi++")]
ratio = float(ratio.width_ratio.iloc[0])
answer_worth = round(10 / ratio ** 2, 1)
print(f"ratio {ratio:.4f}: 10 / {ratio:.4f}^2 = {answer_worth} human topics")

# %% answer:ppi
# lambda = 1: the LLM's mean on the unlabelled topics plus the mean rectifier (human - LLM).
rectifier = (human_5 - llm_5).mean()
answer_ppi = llm_20.mean() + rectifier
print(f"LLM mean on 20 topics {llm_20.mean():.4f} + mean(human - LLM) on 5 {rectifier:.4f} "
      f"= {answer_ppi:.4f}")

# %% answer:strategy
# The row of the highest tau at depth 10.
at_10 = summary[summary.depth == 10].sort_values("tau", ascending=False)
answer_strategy = at_10.strategy.iloc[0]
print(at_10[["strategy", "tau"]].to_string(index=False))
