"""The README's "What we learned" section is generated from the claims tables."""

import pandas as pd

from evalkit.workspace import learned
from evalkit.paths import FIGURES, ROOT


def test_readme_section_equals_the_generated_text():
    text = (ROOT / "README.md").read_text()
    start = text.index(learned.START) + len(learned.START)
    assert text[start:text.index(learned.END)] == learned.render()


def test_render_lists_every_claim_that_does_not_hold(tmp_path):
    (tmp_path / "sakai2017").mkdir()
    pd.DataFrame({"claim": ["A", "B"], "reproduced": ["1", "2"], "verdict": ["holds", "does not hold"],
                  "explanation": ["", "because of n; see sakai2017/x.png"]}).to_csv(
        tmp_path / "sakai2017" / "claims.csv", index=False)
    text = learned.render(tmp_path)
    assert "1 of 2 claims hold" in text
    assert "* *B* (2). because of n; see sakai2017/x.png" in text
    assert "*A*" not in text
    assert FIGURES.name == "figures"
