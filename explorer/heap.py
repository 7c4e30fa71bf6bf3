"""Keeping Python's cyclic garbage collector off the build's long-lived data.

A build holds every grid result of a lesson in memory (on the course, millions of dicts,
lists and floats read from the result cache) while it renders the lesson. CPython's
collector walks every tracked object it has not been told to leave alone each time it
collects its oldest generation, and the build allocates enough (unpickled fonts, page
data) for that to happen again and again: about a third of a cold build of the course
went to walking results that cannot be garbage. :func:`gc.freeze` moves every object
alive to a generation the collector never walks, so the build freezes what it has
made at each point where it has made a lot that stays (:func:`keep_what_exists`), and
thaws it all when it ends, so the collector can reclaim it later as usual.

The collector stays on throughout: anything the build throws away after a freeze is
collected as before. Only cycles that were already garbage at a freeze wait until the
build ends.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_active = 0
"""How many :func:`long_lived_objects_frozen` blocks are open (a build may run a build)."""


@contextlib.contextmanager
def long_lived_objects_frozen() -> Iterator[None]:
    """Within the block, :func:`keep_what_exists` freezes; at its end everything thaws.

    The block does nothing when the collector is off or someone else already froze
    objects (:func:`gc.get_freeze_count`), since thawing at the end would undo their
    choice.
    """
    global _active
    mine = _active > 0 or (gc.isenabled() and gc.get_freeze_count() == 0)
    if not mine:
        yield
        return
    _active += 1
    try:
        keep_what_exists()
        yield
    finally:
        _active -= 1
        if _active == 0:
            gc.unfreeze()


def keep_what_exists() -> None:
    """Freeze every object alive now, inside a :func:`long_lived_objects_frozen` block."""
    if _active:
        gc.freeze()
