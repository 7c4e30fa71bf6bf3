"""The sample lesson with a lazy dataset: a seeded cloud of points at every grid point.

Used by the build tests (``test_lazy.py``) and the browser tests
(``test_browser_lazy.py``): :func:`add_cloud` edits a copy of the sample project
so that ``compute()`` also returns ``cloud`` (``CLOUD_POINTS`` rows that differ at
every grid point), a chart draws it, and ``LAZY = ("cloud",)`` keeps its rows out
of the first-load page data.
"""

from __future__ import annotations

from pathlib import Path

CLOUD_POINTS = 300
"""Rows of the cloud at each grid point: about 9 KB of JSON."""

CLOUD_CODE = f'''

CLOUD_POINTS = {CLOUD_POINTS}
LAZY = ("cloud",)


def cloud(threshold: int, prior: str) -> list[dict]:
    """A seeded scatter that differs at every grid point (its seed is the point)."""
    import random

    generator = random.Random(f"{{threshold}}-{{prior}}")
    return [
        {{"x": round(generator.gauss(threshold, 1), 4), "y": round(generator.random(), 4)}}
        for _ in range(CLOUD_POINTS)
    ]


def _cloud_chart(lang: str) -> alt.Chart:
    return (
        alt.Chart(alt.Data(name="cloud"), title="Cloud", width=300, height=160)
        .mark_point()
        .encode(x=alt.X("x:Q"), y=alt.Y("y:Q"))
    )


CHARTS = (
    *CHARTS,
    Chart("cloud", _cloud_chart, {{"ko": "각 눈이 나온 횟수.", "en": "A cloud of points."}}),
)
'''


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path``."""
    text = path.read_text("utf-8")
    assert text.count(old) == 1, f"{path} should contain {old!r} once"
    path.write_text(text.replace(old, new), "utf-8")


def add_cloud(project: Path) -> Path:
    """Give the sample lesson its lazy cloud; return the edited module's path."""
    module = project / "compute" / "dice.py"
    edit(
        module,
        '"datasets": {"faces": counts}',
        '"datasets": {"faces": counts, "cloud": cloud(threshold, prior)}',
    )
    module.write_text(module.read_text("utf-8") + CLOUD_CODE, "utf-8")
    for lang in ("ko", "en"):
        page = project / "content" / lang / "01-dice.md"
        page.write_text(page.read_text("utf-8") + "\n{{< chart cloud >}}\n", "utf-8")
    return module
