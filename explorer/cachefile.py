"""Files of the build caches: written whole or not at all, and read only when intact.

The result cache (``build/results``) and the asset cache (``build/assets-cache``)
are content-addressed: a file's name is the hash of what produced it. A cached
file is trusted only after a check; a file that fails it is produced again, with
a one-line note on the ``privacy_explorer`` logger (the command line prints it).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path

from privacy_explorer.errors import cannot_write

log = logging.getLogger(__name__)
"""Notes about the build that need no action, such as a damaged cache entry being replaced."""

RECORD_PREFIX = "explorer-cache "
"""First line of a cached asset: ``explorer-cache <key> <sha256 of the rest>``."""


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``.

    Raises :class:`~privacy_explorer.errors.OutputError` (disk full, no permission)
    instead of ``OSError``; no temporary file is left behind.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    temp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(handle)
        temp = Path(name)
        temp.write_bytes(data)
        os.replace(temp, path)
    except OSError as exc:
        raise cannot_write(path, exc) from None
    finally:
        if temp is not None:
            temp.unlink(missing_ok=True)


def note_damaged(path: Path, problem: str, action: str) -> None:
    """Tell that the cache entry ``path`` was not used, and why, in one line."""
    log.warning("%s: damaged cache entry (%s); %s", path, problem, action)


def write_recorded(path: Path, text: str) -> None:
    """Store ``text`` under ``path`` with a record of its key (the file stem) and its hash."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    write_atomically(path, f"{RECORD_PREFIX}{path.stem} {digest}\n{text}")


def read_recorded(path: Path) -> str | None:
    """What :func:`write_recorded` stored in ``path``, or ``None`` if missing or damaged.

    A file that is truncated, edited, swapped with another entry or written in an
    older format fails the check, is reported with :func:`note_damaged` and is
    treated as missing.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        note_damaged(path, f"cannot read it: {exc.strerror}", "producing it again")
        return None
    record, _, body = raw.partition(b"\n")
    try:
        prefix, key, digest = record.decode("ascii").rsplit(" ", 2)
        text = body.decode("utf-8")
    except ValueError:  # UnicodeDecodeError is a ValueError
        problem = "no record of its key and hash"
    else:
        if f"{prefix} " != RECORD_PREFIX:
            problem = "no record of its key and hash"
        elif key != path.stem:
            problem = f"it holds the entry for key {key[:12]}…"
        elif hashlib.sha256(body).hexdigest() != digest:
            problem = "its content does not match its recorded hash"
        else:
            return text
    note_damaged(path, problem, "producing it again")
    return None
