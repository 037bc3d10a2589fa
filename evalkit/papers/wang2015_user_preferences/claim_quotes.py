"""Wang et al. (SIGIR 2015) §5: the paper's own words for each claim of :mod:`.verdicts`.

Verbatim sentences (or the verbatim start or end of one) of §1, §5.1 and
§5.2; the quote test finds every one of them in the paper.
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
    "recall_detectable": "The recall bar charts in Figure 7 show that differences in recall between pairs of "
                         "runs are detectable by annotators",
    "summary": "that users are sensitive to differences in precision, recall, and F1, although to different "
               "degrees.",
    "thirds": "Each trial of the above sampling procedure yields a large number of comparisons, from which we "
              "further sampled 180 pairs comprised of roughly an equal number of pairs from precision, recall, "
              "and F1 sampling.",
    "topics": "First, we selected a set of 30 topics, biased toward “typical” topics that have neither too "
              "many nor too few relevant tweets.",
    "shared": "The first batch for each assessor contained a shared set of 30 comparisons (i.e., all assessors "
              "judged the same pairs), but for the remaining pairs in the first batch (and all subsequent "
              "batches), each assessor worked on unique pairs, which we ensured in the batch preparation process.",
    "filter": "We also discarded all runs longer than 41 tweets, which is the median length of submitted runs "
              "(after the first filter).",
}
