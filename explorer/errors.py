"""One exception family for everything a course author can get wrong.

Library code raises these; the command line prints the message once and exits
non-zero (click's ``ClickException`` does both).
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path

import click


class ExplorerError(click.ClickException):
    """A problem the author can fix; the message says where and how."""

    exit_code = 1


def location(path: Path, line: int | None = None, root: Path | None = None) -> str:
    """``content/ko/03-dp.md:12`` — the path relative to the project, with a line if known."""
    shown = path
    if root is not None:
        try:
            shown = path.resolve().relative_to(root.resolve())
        except ValueError:
            shown = path
    return f"{shown}:{line}" if line is not None else str(shown)


class ContentError(ExplorerError):
    """A Markdown lesson or site file is malformed."""


class ModuleError(ExplorerError):
    """A compute module breaks the lesson contract (see ``privacy_explorer.lesson``)."""


class ComputeError(ExplorerError):
    """A compute function raised or returned something a page cannot show."""


class DataError(ExplorerError):
    """A data file is missing or does not match its checksum in data/SOURCES.md."""


class LinkError(ExplorerError):
    """A page links to a file or anchor that the site does not contain."""


class ClusterError(ExplorerError):
    """The Dask cluster of ``--scheduler`` cannot be used (not installed, not reachable)."""


class OutputError(ExplorerError):
    """The site or the cache cannot be written, or a folder is not the explorer's to replace."""


def cannot_write(path: Path, exc: OSError) -> OutputError:
    """``path: cannot write it: the disk is full; ...`` for a failed write of a file or folder."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason, fix = "the disk is full", "free some disk space"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason, fix = "permission denied", "make the folder writable"
    else:
        reason, fix = (exc.strerror or str(exc)).lower(), "fix the problem"
    return OutputError(
        f"{path}: cannot write it: {reason}; {fix}, then build again (the previous site was kept)"
    )


def exit_call(exc: SystemExit) -> str:
    """``sys.exit(0)``: how a module that raised ``exc`` stopped, as its author wrote it."""
    return "sys.exit()" if exc.code is None else f"sys.exit({exc.code!r})"


class Problems(ExplorerError):
    """Several problems found while validating; all are reported at once."""

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages = list(messages)
        count = len(self.messages)
        header = "1 problem found:" if count == 1 else f"{count} problems found:"
        super().__init__("\n".join([header, *(f"  {m}" for m in self.messages)]))


def raise_collected(messages: Sequence[str]) -> None:
    """Raise :class:`Problems` when ``messages`` is not empty."""
    if len(messages) == 1:
        raise ExplorerError(messages[0])
    if messages:
        raise Problems(messages)
