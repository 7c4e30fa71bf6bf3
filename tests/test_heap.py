"""The build keeps the garbage collector off its long-lived results, and leaves it as it was."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from privacy_explorer import build as build_module
from privacy_explorer import heap
from privacy_explorer.build import build
from privacy_explorer.project import load_project


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    """Each test starts and ends with nothing frozen and the collector on."""
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable()


def test_inside_the_block_what_exists_is_frozen_and_thawed_at_its_end() -> None:
    with heap.long_lived_objects_frozen():
        assert gc.get_freeze_count() > 0  # the caller's objects, frozen on entry
        made = [[n] for n in range(1_000)]  # lists, which the collector always tracks
        before = gc.get_freeze_count()
        heap.keep_what_exists()
        assert gc.get_freeze_count() >= before + len(made)
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_nested_blocks_thaw_only_when_the_outermost_ends() -> None:
    with heap.long_lived_objects_frozen():
        with heap.long_lived_objects_frozen():
            heap.keep_what_exists()
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_outside_a_block_nothing_is_frozen() -> None:
    heap.keep_what_exists()
    assert gc.get_freeze_count() == 0


def test_a_block_leaves_a_callers_own_freeze_and_a_disabled_collector_alone() -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()
    with heap.long_lived_objects_frozen():
        made = [[n] for n in range(100)]
        heap.keep_what_exists()
        assert gc.get_freeze_count() == frozen, made  # not the block's to freeze or thaw
    assert gc.get_freeze_count() == frozen
    gc.unfreeze()
    gc.disable()
    with heap.long_lived_objects_frozen():
        heap.keep_what_exists()
        assert gc.get_freeze_count() == 0
    assert not gc.isenabled()


def test_cycles_made_after_a_freeze_are_still_collected() -> None:
    class Node:
        pass

    with heap.long_lived_objects_frozen():
        heap.keep_what_exists()
        node = Node()
        node.self = node  # type: ignore[attr-defined]
        gone = weakref.ref(node)
        del node
        gc.collect()
        assert gone() is None


def test_a_build_renders_with_its_results_frozen_and_thaws_them_after(
    sample_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    render = build_module.render

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_freeze_count())
        return render(*args, **kwargs)

    monkeypatch.setattr(build_module, "render", watched)
    build(load_project(sample_project), tmp_path / "site")
    assert seen and seen[0] > 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_failed_build_thaws_what_it_froze(
    sample_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("rendering broke")

    monkeypatch.setattr(build_module, "render", broken)
    with pytest.raises(RuntimeError, match="rendering broke"):
        build(load_project(sample_project), tmp_path / "site")
    assert gc.get_freeze_count() == 0 and gc.isenabled()
