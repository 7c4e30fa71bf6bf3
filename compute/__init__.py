"""The science of the course, importable without the site: the library layer.

Each module holds one idea, with typed functions that check their inputs and are
tested against an independent reference (SciPy, scikit-learn, brute force):

:mod:`compute.datasets`
    Checked access to the files in ``data/``: a file whose SHA-256 differs from
    ``data/SOURCES.md`` is refused (the UCI concrete table, the statute text).
:mod:`compute.ngram`
    Character n-gram models with exact add-α smoothing, and the exposure of a
    planted canary among candidate strings (ties count against it).
:mod:`compute.mlp`
    The set-up of a membership-inference experiment: deduplication, the seeded
    member/non-member split, an MLP trained one epoch at a time with a snapshot
    of every sample's loss, and the loss attack's scores (``−loss``).
:mod:`compute.attacks`
    Membership attacks on synthetic data (Gen-LRA and its rivals) and the
    metrics that judge any attack's scores: ROC curve, AUC, TPR at a given FPR,
    confidence intervals.
:mod:`compute.histogram`
    Two samples counted on shared bins, with an overflow bin and a round width.
:mod:`compute.laplace`
    The Laplace mechanism: density, CDF, inverse-CDF noise from seeded uniforms,
    the log density ratio of neighbouring datasets, and two queries with their
    sensitivities.
:mod:`compute.licensing`
    Licences of data, models and code: the rule table as rows, and a short
    checker that evaluates any combination from those rows alone.

The lesson modules in :mod:`compute.lessons` call these to build the pages; a
library module never imports a lesson, and library modules import one another
relatively (``from .ngram import exposure``), so the folder can move as a whole.

>>> from compute.ngram import exposure
>>> exposure([-3.2, -1.0, -1.0, -7.5], canary_index=1)
1.0
"""
