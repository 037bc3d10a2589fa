# Worked solutions of notebooks/wang2015_user_preferences.ipynb (instructor edition only).

# %% answer:agree
# The metric implies the timeline with the higher precision; "prefer neither" is dropped first.
decided = [(("left" if a > b else "right" if b > a else "neither"), choice)
           for a, b, choice in exercises.JUDGMENTS if choice != "neither"]
answer_agree = sum(implied == choice for implied, choice in decided)

# %% answer:kappa
# kappa = (p_o - p_e) / (1 - p_e); SE after Fleiss, Cohen & Everitt (1969); interval kappa -/+ 1.96 SE.
import numpy as np

t = np.array(exercises.KAPPA_TABLE, dtype=float)
n = t.sum()
p = t / n
row, col = p.sum(1), p.sum(0)
p_o, p_e = np.trace(p), (row * col).sum()
kappa = (p_o - p_e) / (1 - p_e)
term_a = sum(p[i, i] * (1 - (row[i] + col[i]) * (1 - kappa)) ** 2 for i in range(2))
term_b = (1 - kappa) ** 2 * sum(p[i, j] * (col[i] + row[j]) ** 2
                                for i in range(2) for j in range(2) if i != j)
term_c = (kappa - p_e * (1 - kappa)) ** 2
se = np.sqrt((term_a + term_b - term_c) / ((1 - p_e) ** 2 * n))
answer_kappa = (kappa, kappa - 1.96 * se, kappa + 1.96 * se)

# %% answer:studies
default = anova_studies[(anova_studies.metric == "precision") & (anova_studies.insensitive_share == 0)]
answer_studies = int((default.p < 0.05).sum())
