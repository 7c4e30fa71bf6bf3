"""The science of the course, importable without the site: the library layer.

Each module holds one idea, with typed functions that check their inputs and are
tested against an independent reference (SciPy, scikit-learn, brute force):

:mod:`compute.datasets`
    Checked access to the files in ``data/``: a file whose SHA-256 differs from
    ``data/SOURCES.md`` is refused (the UCI concrete table, the statute text,
    the Synth-MIA housing release).
:mod:`compute.ngram`
    Character n-gram models with exact add-α smoothing, and the exposure of a
    planted canary among candidate strings (ties count against it).
:mod:`compute.mlp`
    The set-up of a membership-inference experiment: deduplication, the seeded
    member/non-member split, an MLP trained one epoch at a time with a snapshot
    of every sample's loss, and the loss attack's scores (``−loss``).
:mod:`compute.attacks`
    Membership attacks on synthetic data (Gen-LRA and its rivals), the
    metrics that judge any attack's scores (ROC curve, AUC, TPR at a given FPR,
    confidence intervals) and the statistics layer over them (exact intervals,
    paired comparisons, multiplicity, the label-permutation test, the
    empirical ε lower bound, the coverage ceiling).
:mod:`compute.audit_data` and :mod:`compute.audit`
    An audit of a synthetic release from four tables (members, non-members,
    reference, synthetic): reading and checking them, encoding, every attack and
    its metrics as one typed result (what ``explorer audit`` reports).
:mod:`compute.audit_verdict` and :mod:`compute.audit_calibration`
    The audit's verdict over all attacks at a stated false-alarm rate, with
    p-values and the ε lower bound; and its error rates on simulated releases.
:mod:`compute.synthetic`
    A memorizing generator on Gaussian-mixture populations: with probability ε
    a synthetic record is a member plus noise of scale ρ, otherwise a fresh draw.
:mod:`compute.generators`
    Four simple generators for real tables (Gaussian mixture, KDE sampler,
    SMOTE-style interpolation, independent marginals) in named settings, and
    the two Bayesian-network families.
:mod:`compute.bayes_net`
    A Chow–Liu Bayesian network on binned columns, and its ε-differentially
    private version built from Laplace-noised pairwise tables (accounting
    written out and returned).
:mod:`compute.audit_experiments` and :mod:`compute.generator_audit`
    Lesson 05's experiments: every attack on simulated releases and on the
    generators' releases of the concrete data, with seeds, summaries and fits.
:mod:`compute.attack_evidence`
    Lesson 06's experiments: the release-size simulation with each release's
    coverage ceiling, Gen-LRA against every rival seed by seed with verdicts
    corrected together, and real and private generators on two data sets.
:mod:`compute.invariance`
    What the invariance of Gen-LRA's score does and does not cover, measured.
:mod:`compute.histogram`
    Two samples counted on shared bins, with an overflow bin and a round width.
:mod:`compute.laplace`
    The Laplace mechanism: density, CDF, inverse-CDF noise from seeded uniforms,
    the log density ratio of neighbouring datasets, and two queries with their
    sensitivities.
:mod:`compute.dp_bounds`
    What ε-differential privacy promises an attacker: the largest and smallest
    posterior belief after an output (odds moved by at most ``e^ε``), and the
    largest true-positive rate a membership test can reach at a given
    false-positive rate.
:mod:`compute.licensing`
    Licences of data, models and code: the rule table as rows, and a short
    checker that evaluates any combination from those rows alone.
:mod:`compute.synthetic`
    A generator that memorizes: Gaussian-mixture populations, seeded member,
    non-member and reference draws, and releases that copy members with
    probability ε and noise of scale ρ (common random numbers across ε and ρ).
:mod:`compute.audit_experiments`
    Lesson 05's simulation: every attack on every (ε, ρ, seed), Silverman
    bandwidth multiples, seed summaries, the score gap's line fit and the share
    of runs each attack ranks first.
:mod:`compute.generators`
    Synthetic-data generators from NumPy and scikit-learn (Gaussian mixtures,
    a KDE sampler, SMOTE interpolation, independent marginals) and the 16
    settings lesson 05 compares.
:mod:`compute.generator_audit`
    Those generators on the deduplicated concrete data or the housing rows:
    disjoint member, non-member, reference and test splits, every attack, and
    utility (test R²).
:mod:`compute.invariance`
    What Gen-LRA's invariance claim covers, measured: true density ratios, the
    KDE bracket with fixed neighbours, and Euclidean neighbour selection.
:mod:`compute.audit`
    ``explorer audit`` as a library: every attack on a user's tables, with
    bootstrap intervals and the members an attack finds most exposed.
:mod:`compute.audit_data`
    The tables of an audit: read, checked (every problem named before any
    attack runs) and encoded for the attacks.

The lesson modules in :mod:`compute.lessons` call these to build the pages; a
library module never imports a lesson, and library modules import one another
relatively (``from .ngram import exposure``), so the folder can move as a whole.

The folder has one import name, ``privacy_explorer.compute``: the wheel installs the
library there and the editable install of a checkout maps this folder there, lessons
included. Lessons, tests and the audit all import it so (the ``compute.x`` above names
the file ``compute/x.py``). Imported as plain ``compute`` (the checkout's folder on
``sys.path``) it refuses, because a second name would make a second copy of every module
in the same process: two ``AuditResult`` classes, two caches, two random states.

>>> from privacy_explorer.compute.ngram import exposure
>>> exposure([-3.2, -1.0, -1.0, -7.5], canary_index=1)
1.0
"""

ONE_NAME = "privacy_explorer.compute"
"""The one import name of this folder."""

if __name__ != ONE_NAME:
    raise ImportError(
        f"{__file__} is the library {ONE_NAME}; import it under that one name "
        f"(e.g. from {ONE_NAME}.ngram import exposure), not as {__name__!r}, so that a "
        "process holds one copy of each of its modules",
        name=__name__,
    )
