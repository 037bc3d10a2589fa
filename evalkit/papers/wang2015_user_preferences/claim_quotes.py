"""Wang et al. (SIGIR 2015) §5: the paper's own words for each claim of :mod:`.verdicts`.

Verbatim sentences (or the verbatim start of one) of §1 and §5.2; the quote
test finds every one of them in the paper.
"""

from __future__ import annotations

__all__ = ["QUOTES"]

#: The quotes, by the claim they support.
QUOTES = {
    "intro": "We find that user preferences correlate with metric differences, and for precision and "
             "unweighted F1, agreement increases as the magnitude of the difference increases.",
    "chance": "This result indicates that although assessors consistently achieved better than chance "
              "agreement",
    "trend": "Overall, we do see a general trend of the agreement increasing from left to right, both at "
             "the aggregate and at the individual level.",
    "neither": "At the aggregate level, we see that there tend to be more “prefer neither” judgments in "
               "cases where",
    "bucket": "Note that by the design of the sampling procedure, no comparisons fell into the [0, 0.1) "
              "bucket for precision and unweighted recall, although some samples did fall into that "
              "bucket for the other metrics.",
    "levels": "Under this rubric, the minimum κ values we observe per metric range from “poor” (for "
              "precision) to “fair” (for weighted F1), whereas the maximum κ values we observe for each "
              "metric range from “fair” (for precision) to “almost perfect” (for unweighted and weighted F1).",
    "anova": "We found statistically significant differences in mean κ across bins for precision and "
             "unweighted F1 at p < 0.05.",
    "recall": "A surprising result is the lack of statistical significance for both unweighted and "
              "weighted recall.",
    "wf1": "We were surprised at the high p-value for weighted F1, particularly in comparison to "
           "unweighted F1.",
    "low": "Figure 7 shows another surprising result: we observe relatively low agreement for precision "
           "(compared to the other metrics).",
    "time": "We see no clear relationship between κ and the amount of time it takes to make a judgment",
    "a4": "For example, assessor 4 (fourth column from the left) does not appear to be sensitive to "
          "precision at all",
    "redundancy": "these results show that humans are nevertheless sensitive to the redundancy removal "
                  "performed by the systems.",
    "fleiss": "Under Landis and Koch’s scheme, this represents only a fair level of agreement among "
              "annotators.",
}
