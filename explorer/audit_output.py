"""Where ``explorer audit`` writes: the output folder, its ownership marker, all or nothing.

The output folder may be new, or one an earlier audit wrote (it holds the
marker file :data:`MARKER`, the same ownership manifest as the site's). A
folder holding anything else is refused unless ``force`` is given; even then
nothing but the outputs and the marker is written, nothing is deleted, and a
file named like an output that an earlier audit did not write is never
replaced. The outputs are written into one temporary folder and moved into
place at the end, so a failed or stopped audit leaves the folder as it was; the
temporary folder of an audit killed outright is removed by the next one
(:func:`remove_stale_staging`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
from collections.abc import Collection, Mapping
from pathlib import Path

from privacy_explorer.errors import ExplorerError
from privacy_explorer.output import digests, marker_bytes, read_marker

OUTPUTS = ("report.html", "results.json", "scores.csv")
"""The files an audit writes."""
MARKER = ".explorer-audit"
"""The marker listing them with their SHA-256 (see :func:`privacy_explorer.output.read_marker`)."""


class AuditError(ExplorerError):
    """Bad input to ``explorer audit`` (a file, an option, the output folder): exit status 2."""

    exit_code = 2


def _check_writable(out: Path) -> None:
    """Raise unless ``out`` (or the nearest folder above it that exists) accepts new files."""
    folder = out.absolute()
    while not folder.exists():
        folder = folder.parent
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".explorer-audit-probe."):
            pass
    except OSError as error:
        raise AuditError(
            f"{out}: cannot write there ({error.strerror} in {folder}); choose another --out"
        ) from error


def check_output_folder(out: Path, force: bool) -> None:
    """Raise :class:`AuditError` unless the audit may write into ``out``.

    ``out`` may be missing (it is created later), empty, or hold only what an
    earlier audit wrote. Anything else needs ``force``.
    """
    if out.exists() and not out.is_dir():
        raise AuditError(f"{out}: exists and is not a folder; choose another --out")
    _check_writable(out)
    if not out.exists():
        return
    listed = read_marker(out, MARKER) or {}
    ours = {
        name
        for name, digest in listed.items()
        if (out / name).is_file() and _file_digest(out / name) == digest
    }
    foreign = sorted(
        entry.name
        for entry in out.iterdir()
        if entry.name not in ours and entry.name != MARKER and not _is_staging(entry)
    )
    taken = [name for name in OUTPUTS if name in foreign]
    if force and taken:
        raise AuditError(
            f"{out}: {', '.join(taken)} {'was' if len(taken) == 1 else 'were'} not written by "
            "an earlier audit (or changed since), and --force never replaces a file it did not "
            "write; move it away or choose another --out"
        )
    if foreign and not force:
        shown = ", ".join(foreign[:5]) + (
            f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        )
        raise AuditError(
            f"{out}: the folder already holds files this command did not write ({shown}); "
            "choose an empty or new folder for --out, or pass --force to write the report "
            "beside them (nothing is deleted)"
        )


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


STAGING_PREFIX = ".explorer-audit-staging."
"""Name prefix of the temporary folder the outputs are written into before they are moved.

The writing process's id follows it (``.explorer-audit-staging.<pid>.<random>``), so a
folder left by an audit killed with SIGKILL, which no handler can clean up, is known as
stale by the next audit: :func:`remove_stale_staging` removes it.
"""


def _is_staging(entry: Path) -> bool:
    return entry.name.startswith(STAGING_PREFIX) and entry.is_dir() and not entry.is_symlink()


def _writer_alive(entry: Path) -> bool:
    """Whether the process that made staging folder ``entry`` may still be writing into it."""
    pid = entry.name[len(STAGING_PREFIX) :].split(".", 1)[0]
    if not pid.isdigit():
        return True  # not named by this version: never taken for stale
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process of that id
    return True


def remove_stale_staging(folder: Path) -> list[Path]:
    """Remove the staging folders in ``folder`` that killed audits left; return them.

    Only a folder whose writer has ended and which holds nothing but outputs an audit
    writes is removed. One holding a ``previous/`` folder with files (an earlier
    audit's outputs, moved aside when the kill came) is left as it is, so nothing is lost.
    """
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    allowed = {*OUTPUTS, MARKER, "previous"}
    for entry in sorted(folder.iterdir()):
        if not _is_staging(entry) or _writer_alive(entry):
            continue
        names = {child.name for child in entry.iterdir()}
        previous = entry / "previous"
        kept_files = previous.is_dir() and any(previous.iterdir())
        if (
            names <= allowed
            and not kept_files
            and not (previous.exists() and not previous.is_dir())
        ):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _write_file(path: Path, content: bytes) -> None:
    """Write ``content`` to a new file, readable as the umask allows (a report is shared)."""
    with open(path, "xb") as out:
        out.write(content)
    os.chmod(path, 0o666 & ~_umask())


def _missing_folders(folder: Path) -> list[Path]:
    """``folder`` and those of its parents that do not exist, outermost first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    return missing[::-1]


def _check_still_ours(out: Path, names: Collection[str]) -> None:
    """Raise unless every existing file among ``names`` is one an earlier audit wrote, unchanged.

    :func:`check_output_folder` checked this before the attacks; a file that
    appeared or changed while they ran is not replaced either.
    """
    listed = read_marker(out, MARKER) or {}
    changed = [
        name
        for name in names
        if name != MARKER
        and (out / name).exists()
        and not ((out / name).is_file() and _file_digest(out / name) == listed.get(name))
    ]
    if changed:
        raise AuditError(
            f"{out}: {', '.join(changed)} appeared or changed while the audit ran, and it never "
            "replaces a file it did not write; nothing was written, move it away and run again"
        )


def _create_folder(out: Path, contents: Mapping[str, bytes]) -> None:
    """Write ``contents`` into a temporary folder beside ``out``, then rename it to ``out``."""
    created = _missing_folders(out.parent)
    try:
        for folder in created:
            folder.mkdir()
        stage = Path(tempfile.mkdtemp(dir=out.parent, prefix=f"{STAGING_PREFIX}{os.getpid()}."))
        try:
            for name, content in contents.items():
                _write_file(stage / name, content)
            os.chmod(stage, 0o777 & ~_umask())  # mkdtemp creates 0700
            os.rename(stage, out)
        except BaseException:
            shutil.rmtree(stage, ignore_errors=True)
            raise
    except BaseException:
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _replace_in_folder(out: Path, contents: Mapping[str, bytes]) -> None:
    """Write ``contents`` into a temporary folder inside ``out``, then move each file into place.

    An earlier audit's file is first moved aside into the temporary folder; if
    any move fails (or a signal arrives) the files already moved are put back,
    so ``out`` ends as it was or with every new file, never in between.
    """
    stage = Path(tempfile.mkdtemp(dir=out, prefix=f"{STAGING_PREFIX}{os.getpid()}."))
    previous = stage / "previous"
    keep = False
    try:
        for name, content in contents.items():
            _write_file(stage / name, content)
        previous.mkdir()
        _check_still_ours(out, contents)
        aside: list[str] = []
        placed: list[str] = []
        try:
            for name in contents:
                if os.path.lexists(out / name):
                    os.replace(out / name, previous / name)
                    aside.append(name)
                os.replace(stage / name, out / name)
                placed.append(name)
        except BaseException:
            try:
                for name in placed:
                    if name not in aside:
                        (out / name).unlink()
                for name in aside:
                    os.replace(previous / name, out / name)
            except OSError as error:
                keep = True  # the earlier audit's files are still in there
                raise AuditError(
                    f"{out}: cannot write the report, nor put the earlier one back "
                    f"({error.strerror}); the earlier audit's files are in {previous}"
                ) from error
            raise
    finally:
        if not keep:
            shutil.rmtree(stage, ignore_errors=True)


def write_outputs(out: Path, files: Mapping[str, str]) -> None:
    """Write every output (rendered in memory first) and then the marker, all or nothing.

    Everything is written into one temporary folder (inside ``out`` when it
    exists, beside it when it does not) and moved into place only once it is
    all written: an audit that fails or is stopped while writing leaves ``out``
    exactly as it was, and nothing but the outputs and the marker is replaced.
    """
    contents = {name: files[name].encode("utf-8") for name in OUTPUTS}
    contents[MARKER] = marker_bytes(digests(contents))
    remove_stale_staging(out if out.exists() else out.parent)
    try:
        if out.exists():
            _replace_in_folder(out, contents)
        else:
            _create_folder(out, contents)
    except OSError as error:
        raise AuditError(
            f"{out}: cannot write the report ({error.strerror}); nothing was written, choose "
            "another --out"
        ) from error
