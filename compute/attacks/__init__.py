"""Membership attacks on synthetic data: Gen-LRA, its rivals, and the metrics to compare them.

Every attack is a function ``(targets, reference, synthetic, **options) ->
scores``: one score per target record, higher meaning "more likely a member"
(a record the generator was trained on). ``reference`` is a sample from the
same population that the generator never saw; ``synthetic`` is its release.
The metrics take the scores of the true members and of the true non-members.

Modules
-------
``gen_lra``
    :func:`gen_lra_scores`, the Generative Likelihood Ratio Attack, with the
    exact rank-one shortcut for the refitted KDE; :func:`gen_lra_terms`, its
    per-neighbour terms, and :func:`gen_lra_field`, the same term anywhere.
``rivals``
    DCR, DCR-Diff, DOMIAS, density, Monte Carlo, DPI, classifier and LOGAN.
``registry``
    :data:`ATTACKS`, every attack by key with its display names and source.
``metrics``
    ROC curve, AUC, TPR at FPR (the testbed's interpolated and the
    conservative reading), the rates of one threshold, best accuracy, Clopper–Pearson and bootstrap
    intervals.
``stats``
    What the metrics support: TPR at FPR with an exact interval (or "not
    measurable"), paired comparisons across seeds, Holm and Benjamini–Hochberg
    adjustments, the label-permutation test over all attacks at once, the
    empirical ε lower bound of DP auditing and the coverage ceiling.
``kde``
    A Gaussian KDE equal to ``scipy.stats.gaussian_kde``, on log densities.
``neighbours``
    k nearest records with a deterministic tie rule.
``validation``
    Input checks and :class:`SingularCovarianceError`.
"""

from .gen_lra import NeighbourTerms, gen_lra_field, gen_lra_scores, gen_lra_terms
from .kde import GaussianKDE, KDESample, fit_kde, kde_logpdf
from .metrics import (
    auc,
    best_threshold_accuracy,
    bootstrap_auc_ci,
    bootstrap_intervals,
    bootstrap_tpr_ci,
    chance_auc_spread,
    clopper_pearson,
    max_tpr_at_fpr,
    rates_at_threshold,
    roc_curve,
    tpr_at_fpr,
    zero_fpr_upper_bound,
)
from .registry import ATTACKS, AttackSpec
from .rivals import (
    classifier_scores,
    dcr_diff_scores,
    dcr_scores,
    density_scores,
    domias_scores,
    dpi_scores,
    logan_scores,
    monte_carlo_scores,
)
from .stats import (
    CloserThanFresh,
    CoverageCeiling,
    EpsilonLowerBound,
    PairedComparison,
    PairedVerdicts,
    PermutationTest,
    TprAtFpr,
    auc_ceiling,
    benjamini_hochberg_adjusted,
    ceiling_clears_chance,
    closer_than_fresh_test,
    copy_coverage,
    coverage_ceiling,
    epsilon_lower_bound,
    holm_adjusted,
    label_permutation_test,
    paired_comparison,
    paired_verdicts,
    rank_sum_auc,
    tpr_at_fpr_exact,
    tpr_ceiling,
    vertical_average_roc,
)
from .validation import SingularCovarianceError

__all__ = [
    "ATTACKS",
    "AttackSpec",
    "CloserThanFresh",
    "CoverageCeiling",
    "EpsilonLowerBound",
    "GaussianKDE",
    "KDESample",
    "NeighbourTerms",
    "PairedComparison",
    "PairedVerdicts",
    "PermutationTest",
    "SingularCovarianceError",
    "TprAtFpr",
    "auc",
    "auc_ceiling",
    "benjamini_hochberg_adjusted",
    "best_threshold_accuracy",
    "bootstrap_auc_ci",
    "bootstrap_intervals",
    "bootstrap_tpr_ci",
    "ceiling_clears_chance",
    "chance_auc_spread",
    "classifier_scores",
    "clopper_pearson",
    "closer_than_fresh_test",
    "copy_coverage",
    "coverage_ceiling",
    "dcr_diff_scores",
    "dcr_scores",
    "density_scores",
    "domias_scores",
    "dpi_scores",
    "epsilon_lower_bound",
    "fit_kde",
    "gen_lra_field",
    "gen_lra_scores",
    "gen_lra_terms",
    "holm_adjusted",
    "kde_logpdf",
    "label_permutation_test",
    "logan_scores",
    "max_tpr_at_fpr",
    "monte_carlo_scores",
    "paired_comparison",
    "paired_verdicts",
    "rank_sum_auc",
    "rates_at_threshold",
    "roc_curve",
    "tpr_at_fpr",
    "tpr_at_fpr_exact",
    "tpr_ceiling",
    "vertical_average_roc",
    "zero_fpr_upper_bound",
]
