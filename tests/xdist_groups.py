"""Keep pytest-xdist's ``--dist loadgroup`` working on pytest 9 (see :func:`keep_xdist_groups`)."""

from __future__ import annotations

import pytest


def keep_xdist_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each test marked ``xdist_group`` its group's suffix, so ``--dist loadgroup`` works.

    pytest-xdist (3.8) groups tests by a ``@group`` suffix it writes into ``item._nodeid``;
    pytest 9.2 keeps a node's id in ``item._id``, so that write is lost and every group is
    silently spread over the workers (the real course's copies were then built on each).
    ``tests/test_xdist_groups.py`` runs a grouped file on two workers to show it holds.
    """
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import NodeId

    for item in items:
        names = {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
        nodeid = item.nodeid
        if names and nodeid.rfind("@") <= nodeid.rfind("]"):  # not suffixed already
            item._id = NodeId.parse(f"{nodeid}@{'_'.join(sorted(names))}")
