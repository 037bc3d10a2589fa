"""Statistics for comparing rankings, systems and assessors.

* :mod:`~evalkit.stats.rank_correlation`: Kendall's tau-b with the unclipped
  Hollander-Wolfe-Chicken interval; rank swaps; tau_ap (Yilmaz et al. 2008).
* :mod:`~evalkit.stats.hsd`: the randomised Tukey HSD test and the two-way
  ANOVA residual variance behind ES_HSD.
* :mod:`~evalkit.stats.studentized_range`: the studentised range's cdf and
  quantiles (Tukey's HSD critical value q).
* :mod:`~evalkit.stats.anova`: two-way ANOVA without replication and the
  systems' intervals from V_E.
* :mod:`~evalkit.stats.pairwise`: every system pair under the HSD (with
  simultaneous intervals) or a paired test with a multiple-comparison correction.
* :mod:`~evalkit.stats.agreement`: Cohen's and Fleiss' kappa, Landis-Koch
  labels, the adjusted Rand index.
* :mod:`~evalkit.stats.krippendorff`: Krippendorff's alpha (nominal, ordinal,
  interval), items rated unequally often.
* :mod:`~evalkit.stats.dawid_skene`: the Dawid-Skene model fitted by EM.
* :mod:`~evalkit.stats.confusion_agreement`: two raters' alpha and (weighted) kappa
  from confusion matrices, vectorised for the topic bootstrap.
* :mod:`~evalkit.stats.paired_agreement`: is one judge's agreement with a reference
  higher than another's? The paired topic bootstrap and randomisation test.
* :mod:`~evalkit.stats.leaderboard_agreement`: two judges' leaderboards compared (tau-b,
  tau_ap, top-k overlap), batched over the topic bootstrap's resamples.

Every public name is importable from here too (``evalkit.stats.kendall_tau``).
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "rank_correlation": ("KendallTau", "kendall_tau", "rank_swaps", "tau_ap"),
    "hsd": ("residual_variance", "seed_to_int", "tukey_null_ranges", "randomised_tukey_hsd",
            "randomised_tukey_hsd_many"),
    "studentized_range": ("studentized_range_cdf", "studentized_range_ppf"),
    "anova": ("two_way_anova", "system_intervals"),
    "pairwise": ("hsd_pairs", "paired_pairs", "wins_ties_losses"),
    "agreement": ("adjusted_rand_index", "CohensKappa", "cohens_kappa", "fleiss_kappa",
                  "landis_koch"),
    "krippendorff": ("krippendorff_alpha", "alpha_from_counts"),
    "dawid_skene": ("DawidSkene", "dawid_skene"),
    "confusion_agreement": ("alpha_from_confusion", "kappa_from_confusion", "binary_confusion",
                            "topic_bootstrap", "percentile_interval"),
    "paired_agreement": ("paired_differences", "randomisation_p_values", "topic_swaps",
                         "statistic_code"),
    "leaderboard_agreement": ("kendall_tau_b_many", "tau_ap_many", "top_k_overlap_many",
                              "bootstrap_means"),
})
