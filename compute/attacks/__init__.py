"""Membership attacks on synthetic data: Gen-LRA, its rivals, and the metrics to compare them.

Scores are one number per target record, higher meaning "more likely a
member" (a record the generator was trained on). The metrics take the scores
of the true members and of the true non-members.

Modules
-------
``metrics``
    ROC curve, AUC, TPR at FPR (the testbed's interpolated and the
    conservative reading), best accuracy, Clopper–Pearson and bootstrap
    intervals.
``kde``
    A Gaussian KDE equal to ``scipy.stats.gaussian_kde``, on log densities.
``validation``
    Input checks and :class:`SingularCovarianceError`.
"""

from .kde import GaussianKDE, KDESample, fit_kde, kde_logpdf
from .metrics import (
    auc,
    best_threshold_accuracy,
    bootstrap_auc_ci,
    bootstrap_tpr_ci,
    chance_auc_spread,
    clopper_pearson,
    max_tpr_at_fpr,
    roc_curve,
    tpr_at_fpr,
    zero_fpr_upper_bound,
)
from .validation import SingularCovarianceError

__all__ = [
    "GaussianKDE",
    "KDESample",
    "SingularCovarianceError",
    "auc",
    "best_threshold_accuracy",
    "bootstrap_auc_ci",
    "bootstrap_tpr_ci",
    "chance_auc_spread",
    "clopper_pearson",
    "fit_kde",
    "kde_logpdf",
    "max_tpr_at_fpr",
    "roc_curve",
    "tpr_at_fpr",
    "zero_fpr_upper_bound",
]
