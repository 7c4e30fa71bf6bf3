"""Deliberate one-line breakages of core behaviour that ``make test`` must catch, and fast.

``make mutants`` applies each in turn to the working tree, runs the suite exactly as
``make test`` does (``-x``: stop at the first failure), and restores the file, whatever
happens. A breakage counts as caught only if the suite fails within :data:`DEADLINE_S`
seconds of starting; one that survives, or is caught late, fails ``make mutants``.

Each entry replaces one exact text that must occur once in its file, so a refactoring that
moves the code makes the runner say which mutant to update instead of testing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

DEADLINE_S = 300
"""The suite must fail within five minutes of starting for a breakage to count as caught."""


@dataclass(frozen=True)
class Mutant:
    """One breakage: replace ``before`` (found exactly once in ``path``) with ``after``."""

    name: str
    """A short name, used to pick mutants on the command line."""
    path: str
    """The file, relative to the repository root."""
    before: str
    """The exact text it replaces."""
    after: str
    """The broken text."""
    what: str
    """What behaviour this breaks, in one line."""


MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        name="hash-parser",
        path="site_templates/static/explorer.js",
        before="if (index >= 0) state[param.name] = index;",
        after="if (index > 0) state[param.name] = index;",
        what="a URL hash naming a parameter's first value is ignored",
    ),
    Mutant(
        name="auc",
        path="compute/attacks/metrics.py",
        before="u = float(ranks[: members.size].sum()) - members.size * (members.size + 1) / 2.0",
        after="u = float(ranks[: members.size].sum()) - members.size * (members.size - 1) / 2.0",
        what="the Mann–Whitney U of the AUC is off by the number of members",
    ),
    Mutant(
        name="gen-lra-shortcut",
        path="compute/attacks/gen_lra.py",
        before="    c = b / (a + b * w_norms)\n",
        after="    c = b / (a + w_norms)\n",
        what="the rank-one (Sherman–Morrison) update of the refitted covariance is wrong",
    ),
    Mutant(
        name="clean-safety",
        path="explorer/output.py",
        before="and not target.is_symlink() and _digest(target) == digest",
        after="and not target.is_symlink()",
        what="explorer clean removes a site file the user changed since the build",
    ),
    Mutant(
        name="korean-particle",
        path="explorer/korean.py",
        before='        if decimals or last != "0":\n',
        after='        if decimals or last != "1":\n',
        what="a number ending in 0 (10, 100, 1,000) gets the particle of its last digit",
    ),
    Mutant(
        name="scorm-resume",
        path="site_templates/static/scorm.js",
        before="if (saved && !window.location.hash) {",
        after="if (saved && window.location.hash) {",
        what="a SCORM package no longer restores the settings saved in cmi.suspend_data",
    ),
    Mutant(
        name="page-cache-key",
        path="explorer/pagecache.py",
        before='        "pager": pager,\n',
        after="",
        what="a change of a neighbour's title (the pager) no longer renders the lesson again",
    ),
    Mutant(
        name="lazy-chunk-loader",
        path="site_templates/static/explorer.js",
        before='script.src = ASSETS + "data/" + self.slug + "." + name + ".js";',
        after='script.src = ASSETS + "data/" + self.slug + "-" + name + ".js";',
        what="the runtime asks for a chunk under another name than the build wrote it",
    ),
)
