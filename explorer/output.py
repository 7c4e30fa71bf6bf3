"""The site folder on disk: replaced in one step, and only what the explorer wrote.

* Every site the build writes holds :data:`MARKER`, a small JSON file naming the
  tool, its version and the SHA-256 of each file it wrote. A folder without it
  is not the explorer's: the build refuses to write there unless ``--force``.
* Whatever the marker does not list belongs to the user (``.git``, ``CNAME``,
  notes) and is carried over to the new site. A user's file where the new site
  needs one is refused unless ``--force``.
* The new site is assembled beside the old one in ``.<name>.new-<pid>``; the
  user's files are moved into it, and the two folders are exchanged in one
  step (Linux ``renameat2(RENAME_EXCHANGE)``; elsewhere two renames), so the
  site is never missing. A build killed half-way leaves debris that the next
  build or ``clean`` puts right (:func:`recover`): the user's files go back and
  the old site returns if the new one never arrived.
* Only what changed is written: a file the old site holds with the same bytes is
  hard-linked into the new one (it keeps its time), and a site identical to the
  one in place is not written at all.
* :class:`BuildLock` lets one build, check or clean work on a project at a time.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import glob
import hashlib
import json
import logging
import os
import re
import shutil
import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from privacy_explorer import __version__
from privacy_explorer.errors import OutputError, cannot_write

MARKER = ".explorer-site"
"""The file that marks a folder as a site the explorer wrote, listing what it wrote."""
TOOL = "privacy-copyright-explorer"
LOCK_FILE = ".explorer-lock"
"""In ``build/``: held by the build, check or clean working on the project."""
CACHE_FILE = re.compile(r"^([0-9a-f]{64}\.[a-z0-9]+|\..+\.tmp)$")
"""Names the build gives files in its caches (and their temporary files)."""
CACHE_FOLDERS = ("results", "assets-cache", "pages-cache")
DIST_FOLDER = "dist"
"""In ``build/``: what ``explorer export`` wrote there, listed in its own marker."""
RENAME_EXCHANGE = 2
AT_FDCWD = -100

log = logging.getLogger(__name__)


def marker_bytes(digests: Mapping[str, str]) -> bytes:
    """The marker of a site whose files have these SHA-256 ``digests``, with the tool's name."""
    record = {"tool": TOOL, "version": __version__, "files": dict(digests)}
    return (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8")


def digests(files: Mapping[str, bytes]) -> dict[str, str]:
    """Each file's SHA-256, by path."""
    return {path: hashlib.sha256(content).hexdigest() for path, content in files.items()}


def _inside(path: str) -> bool:
    """Whether ``path`` is a plain relative path that stays inside its folder."""
    parts = path.split("/")
    return not path.startswith("/") and all(part not in ("", ".", "..") for part in parts)


def read_marker(folder: Path, name: str = MARKER) -> dict[str, str] | None:
    """The files (path -> SHA-256) the marker ``name`` in ``folder`` lists; ``None`` if unreadable.

    ``name`` is the site's marker by default; ``explorer audit`` keeps its own.
    """
    try:
        record = json.loads((folder / name).read_text("utf-8"))
        files = record["files"] if record["tool"] == TOOL else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(files, dict):
        return None
    return {path: digest for path, digest in files.items() if _inside(path)}


def _folders_of(paths: Collection[str]) -> set[str]:
    """Every folder that holds one of ``paths`` (``a``, ``a/b`` for ``a/b/c``)."""
    return {"/".join(path.split("/")[:i]) for path in paths for i in range(1, path.count("/") + 1)}


def user_entries(folder: Path, listed: Collection[str], needed: Collection[str] = ()) -> list[str]:
    """What in ``folder`` the explorer did not write, as coarsely as possible.

    ``listed`` are the files it wrote (from the marker), ``needed`` the files a new
    site will write. A folder holding none of either is one entry (``.git``);
    the walk never follows a symbolic link.
    """
    tool_folders = _folders_of({*listed, *needed})
    found: list[str] = []

    def walk(relative: str) -> None:
        with os.scandir(folder / relative if relative else folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                path = f"{relative}/{entry.name}" if relative else entry.name
                if path == MARKER or (path in listed and entry.is_file(follow_symlinks=False)):
                    continue
                if path in tool_folders and entry.is_dir(follow_symlinks=False):
                    walk(path)
                else:
                    found.append(path)

    walk("")
    return found


class BuildLock:
    """One build, check or clean per project at a time: ``flock`` on ``build/.explorer-lock``.

    A second one fails at once with the first one's process id, rather than
    waiting an unknown time. The kernel releases the lock when its holder
    ends, however it ends, so a killed build never leaves the project locked.
    """

    def __init__(self, build_dir: Path) -> None:
        self.path = build_dir / LOCK_FILE
        self._handle: int | None = None

    def __enter__(self) -> BuildLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise cannot_write(self.path, exc) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(handle, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(handle)
            raise OutputError(
                f"{self.path}: another explorer build, check or clean (process {holder}) is "
                "working on this project; wait for it to finish or stop it, then try again"
            ) from None
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"{os.getpid()}\n".encode("ascii"), 0)
        self._handle = handle
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._handle, 0)
            os.close(self._handle)  # closing releases the lock
            self._handle = None


def _debris(out: Path, kind: str) -> list[Path]:
    """Folders a build of ``out`` left beside it (``kind`` is ``new`` or ``old``), oldest first."""
    if not out.parent.is_dir():
        return []
    found = out.parent.glob(glob.escape(f".{out.name}.{kind}-") + "*")
    return sorted((p for p in found if p.is_dir() and not p.is_symlink()), key=os.path.getmtime)


def _put_back(folder: Path, out: Path) -> None:
    """Move the user's files in ``folder`` back into ``out``, then remove ``folder``.

    ``folder`` is a new site that never arrived (its marker lists the explorer's
    files; anything else was carried over from ``out``) or an old site that left.
    A folder without a readable marker holds nothing of the user's: the marker
    is written before anything is moved in.
    """
    listed = read_marker(folder)
    stuck = []
    for path in user_entries(folder, set(listed or ())) if listed is not None else []:
        target = out / path
        if os.path.lexists(target):
            stuck.append(path)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        (folder / path).rename(target)
    if stuck:
        log.warning(
            "%s: kept: it holds files that %s already has again (%s); "
            "move what you need from it, then delete it",
            folder,
            out,
            ", ".join(stuck),
        )
        return
    shutil.rmtree(folder, ignore_errors=True)


def recover(out: Path, *, note: bool = True) -> None:
    """Put right what an interrupted build of ``out`` left beside it (hold the lock).

    If ``out`` is missing while an old site waits beside it, the old site comes
    back; files carried over to a new site that never arrived go back to ``out``;
    old sites that were already replaced are removed.
    """
    new, old = _debris(out, "new"), _debris(out, "old")
    if not new and not old:
        return
    if note:
        log.warning("%s: an interrupted build left its work beside the site; putting it right", out)
    if not os.path.lexists(out) and old:
        old.pop().rename(out)
    for folder in old:
        shutil.rmtree(folder, ignore_errors=True)
    for folder in new:
        _put_back(folder, out)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step; ``False`` where the system cannot (then nothing moved)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    path, directory = ctypes.c_char_p, ctypes.c_int
    renameat2.argtypes = [directory, path, directory, path, ctypes.c_uint]
    done = renameat2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE)
    if done == 0:
        return True
    failure = ctypes.get_errno()
    if failure in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(failure, os.strerror(failure), str(second))


def _written_here(out: Path, force: bool) -> dict[str, str]:
    """What the explorer wrote in ``out`` (its marker); raise if the folder is not its own.

    A missing folder, or one holding only names that start with a dot (a fresh
    ``git init``), is free to use.
    """
    if not os.path.lexists(out):
        return {}
    if not out.is_dir():
        raise OutputError(f"{out}: exists and is not a folder; choose another folder with --out")
    listed = read_marker(out)
    if listed is not None:
        return listed
    visible = [name for name in os.listdir(out) if not name.startswith(".")]
    if visible and not force:
        why = f"its {MARKER} is unreadable" if (out / MARKER).exists() else f"it has no {MARKER}"
        raise OutputError(
            f"{out}: exists and was not written by explorer ({why}); choose an empty or new "
            "folder with --out, or pass --force to write the site into it (files the site "
            "needs are replaced, every other file is kept); nothing was written"
        )
    return {}


def check_target(out: Path, *, force: bool = False) -> None:
    """Refuse early, before anything is computed, a folder :func:`write_site` would refuse.

    Call it holding the project's :class:`BuildLock`: it first puts right what an
    interrupted build of ``out`` left behind.
    """
    recover(out)
    _written_here(out, force)


def _listing(paths: list[str], limit: int = 3) -> str:
    shown = ", ".join(paths[:limit])
    return shown if len(paths) <= limit else f"{shown} and {len(paths) - limit} more"


def write_site(files: Mapping[str, bytes], out: Path, *, force: bool = False) -> None:
    """Make ``out`` hold exactly ``files`` (plus the user's own files), in one step.

    Call it holding the project's :class:`BuildLock`. Raises :class:`OutputError`
    when ``out`` is not the explorer's to replace, or when writing fails (disk
    full, no permission); the previous site is then left as it was.
    """
    out = Path(os.path.abspath(out))
    recover(out)
    listed = _written_here(out, force)
    needed = {*files, MARKER}
    carried = user_entries(out, listed, needed) if out.is_dir() else []
    occupied = needed | _folders_of(needed)
    in_the_way = [path for path in carried if path in occupied]
    if in_the_way and not force:
        raise OutputError(
            f"{out}: the new site needs {_listing(in_the_way)}, which explorer did not write "
            f"(they are not listed in its {MARKER}); move them away, or pass --force to "
            "replace them; nothing was written"
        )
    carried = [p for p in carried if p not in in_the_way]
    marker = marker_bytes(digests(files))
    if _holds_already(out, marker, files):
        return  # nothing changed: every file keeps its bytes, its time and its inode
    staging, retired = _unused(out, "new"), _unused(out, "old")
    try:
        _assemble(staging, {MARKER: marker, **files}, out, listed)
        for path in carried:  # the user's files go with the site
            (staging / path).parent.mkdir(parents=True, exist_ok=True)
            (out / path).rename(staging / path)
        old_site = _swap(staging, out, retired)
    except BaseException as exc:
        recover(out, note=False)  # the user's files go back; the old site stays or returns
        if isinstance(exc, OSError):
            raise cannot_write(out, exc) from None
        raise
    if old_site is not None:
        shutil.rmtree(old_site, ignore_errors=True)


def _unused(out: Path, kind: str) -> Path:
    """A free name beside ``out`` for this build's new (``kind="new"``) or old site."""
    base = out.parent / f".{out.name}.{kind}-{os.getpid()}"
    candidate, number = base, 1
    while os.path.lexists(candidate):
        candidate, number = Path(f"{base}-{number}"), number + 1
    return candidate


def _same_file(path: Path, content: bytes) -> bool:
    """Whether ``path`` is a plain file (no link) holding exactly ``content``."""
    try:
        return (
            path.is_file()
            and not path.is_symlink()
            and path.stat().st_size == len(content)
            and path.read_bytes() == content
        )
    except OSError:
        return False


def _holds_already(out: Path, marker: bytes, files: Mapping[str, bytes]) -> bool:
    """Whether ``out`` is this very site already: the same marker and every file's bytes."""
    try:
        if (out / MARKER).read_bytes() != marker:
            return False
    except OSError:
        return False
    return all(_same_file(out / path, content) for path, content in files.items())


def _assemble(
    staging: Path, files: Mapping[str, bytes], out: Path, listed: Mapping[str, str]
) -> None:
    """Write ``files`` into the new folder ``staging``, the marker first.

    A file the old site in ``out`` holds with the same bytes (the explorer wrote
    it: ``listed`` by the marker) is linked instead of written, so a rebuild
    writes only what changed, and an unchanged file keeps its modification time.
    """
    for path, content in files.items():
        target, previous = staging / path, out / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if path in listed and _same_file(previous, content):
                with contextlib.suppress(OSError):  # a file system without hard links
                    os.link(previous, target, follow_symlinks=False)
                    continue
            target.write_bytes(content)
        except OSError as exc:
            raise cannot_write(out / path, exc) from None


def _swap(staging: Path, out: Path, retired: Path) -> Path | None:
    """Put ``staging`` in the place of ``out``; return where the old site went, if any."""
    if not os.path.lexists(out):
        staging.rename(out)
        return None
    if _exchange(staging, out):
        # The old site now sits at the staging name; give it the name recovery removes.
        try:
            staging.rename(retired)
        except OSError:
            return staging
        return retired
    out.rename(retired)
    try:
        staging.rename(out)
    except BaseException:
        retired.rename(out)
        raise
    return retired


@dataclass
class Cleaned:
    """What ``explorer clean`` removed and what it left."""

    removed: int = 0
    """Files removed."""
    kept: list[str] = field(default_factory=list)
    """What it did not remove, relative to ``build/``: the user's files, files changed since
    the build wrote them."""


def _refuse_links(*paths: Path) -> None:
    for path in paths:
        if path.is_symlink():
            raise OutputError(
                f"{path}: is a symbolic link (to {os.readlink(path)}); explorer clean never "
                "deletes through a link; remove the link itself, or clean the folder it "
                "points to by hand"
            )


def _prune_empty(folder: Path) -> None:
    """Remove the empty folders under ``folder`` (and ``folder``), deepest first."""
    for current, _, _ in sorted(os.walk(folder), key=lambda item: -item[0].count(os.sep)):
        with contextlib.suppress(OSError):
            os.rmdir(current)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _clean_site(site: Path, cleaned: Cleaned) -> None:
    """Remove the files the build wrote in ``site``, unless changed since; keep the rest.

    If anything stays, the marker stays too, listing the changed files, so that
    the next build still knows the folder as its own.
    """
    listed = read_marker(site)
    if listed is None:
        if [name for name in os.listdir(site) if not name.startswith(".")]:
            raise OutputError(
                f"{site}: was not written by explorer (it has no {MARKER}); explorer clean "
                "leaves it alone: remove it yourself if nothing in it is yours"
            )
        listed = {}
    for path, digest in sorted(listed.items()):
        target = site / path
        unchanged = target.is_file() and not target.is_symlink() and _digest(target) == digest
        if unchanged:
            target.unlink()
            cleaned.removed += 1
    for folder in sorted(_folders_of(listed), key=lambda path: -path.count("/")):
        with contextlib.suppress(OSError):  # only folders the build made, once empty
            (site / folder).rmdir()
    changed = {path: digest for path, digest in listed.items() if os.path.lexists(site / path)}
    others = user_entries(site, changed)
    cleaned.kept += [f"{site.name}/{path}" for path in sorted([*changed, *others])]
    if changed or others:
        (site / MARKER).write_bytes(marker_bytes(changed))
    elif (site / MARKER).exists():
        (site / MARKER).unlink()
        cleaned.removed += 1
        with contextlib.suppress(OSError):
            site.rmdir()


def _clean_cache(folder: Path, cleaned: Cleaned) -> None:
    """Remove the files the build names in a cache folder; keep anything else."""
    for current, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not Path(current, name).is_symlink()]
        for name in names:
            path = Path(current, name)
            if CACHE_FILE.match(name) and path.is_file() and not path.is_symlink():
                path.unlink()
                cleaned.removed += 1
            else:
                cleaned.kept.append(path.relative_to(folder.parent).as_posix())
    _prune_empty(folder)


def clean(build_dir: Path) -> Cleaned:
    """Remove what the build wrote into ``build_dir``, and nothing else.

    That is: the site in ``build/site`` (the files its marker lists, unchanged
    since), the exports in ``build/dist`` (the same way), the files of the result
    and asset caches, and the lock. A symbolic link is never followed, and a site
    without a marker is refused.
    """
    cleaned = Cleaned()
    site = build_dir / "site"
    _refuse_links(build_dir)
    if not os.path.lexists(build_dir):
        return cleaned
    if not build_dir.is_dir():
        raise OutputError(f"{build_dir}: is not a folder; explorer clean removes nothing")
    dist = build_dir / DIST_FOLDER
    _refuse_links(site, dist, *(build_dir / name for name in CACHE_FOLDERS))
    with BuildLock(build_dir):
        recover(site)
        if site.is_dir():
            _clean_site(site, cleaned)
        if dist.is_dir():
            if (dist / MARKER).exists():
                _clean_site(dist, cleaned)
            else:  # nothing there is listed as the explorer's
                cleaned.kept += [f"{DIST_FOLDER}/{name}" for name in sorted(os.listdir(dist))]
        for name in CACHE_FOLDERS:
            if (build_dir / name).is_dir():
                _clean_cache(build_dir / name, cleaned)
        (build_dir / LOCK_FILE).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        build_dir.rmdir()
    return cleaned
