"""Split a Markdown file into YAML front matter and body, with line numbers for errors."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from privacy_explorer.errors import ContentError, location

FENCE = "---"


@dataclass(frozen=True)
class SourceText:
    """A Markdown file read as text, split at its front matter."""

    path: Path
    """Where the file is."""
    meta: dict[str, Any]
    """The parsed front matter."""
    meta_lines: dict[str, int]
    """1-based line of each front-matter key, for error messages."""
    body: str
    """The Markdown after the closing ``---``."""
    body_first_line: int
    """1-based line number of the body's first line in the file."""


def read_text(path: Path, root: Path | None = None) -> str:
    """Read ``path`` as UTF-8, naming the line of the first undecodable byte if it is not."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ContentError(
            f"{location(path, line, root)}: the file is not valid UTF-8 "
            f"(byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8 in your editor"
        ) from None


def duplicate_key(node: yaml.Node | None) -> tuple[str, int, int] | None:
    """The first key written twice in a mapping of ``node``: (key, first line, second line).

    YAML loaders keep the last value silently; an author who wrote a key twice
    meant one of them. Lines are 0-based, as in the YAML text.
    """
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                return key, seen[key], key_node.start_mark.line
            seen[key] = key_node.start_mark.line
            if (found := duplicate_key(value_node)) is not None:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            if (found := duplicate_key(item)) is not None:
                return found
    return None


def split_front_matter(path: Path, root: Path | None = None) -> SourceText:
    """Parse ``path``: a ``---`` line, YAML, a ``---`` line, then Markdown."""
    text = read_text(path, root).replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise ContentError(
            f"{location(path, 1, root)}: the file must start with front matter: "
            "a line '---', YAML such as 'title: ...', and a closing '---'"
        )
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == FENCE)
    except StopIteration:
        raise ContentError(
            f"{location(path, 1, root)}: the front matter opened here is never closed; "
            "add a line '---' after the last YAML key"
        ) from None
    yaml_text = "\n".join(lines[1:end])
    try:
        node = yaml.compose(yaml_text, Loader=yaml.SafeLoader)
        meta = yaml.safe_load(yaml_text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else 2
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError(
            f"{location(path, line, root)}: malformed front matter: {problem}; "
            "write one 'key: value' per line (quote values that contain ':' or '#')"
        ) from None
    if (twice := duplicate_key(node)) is not None:
        key, first, second = twice
        raise ContentError(
            f"{location(path, second + 2, root)}: '{key}' is given twice in the front matter "
            f"(first on line {first + 2}); keep one of them"
        )
    if meta is None:
        meta, node = {}, None
    if not isinstance(meta, dict):
        raise ContentError(
            f"{location(path, 2, root)}: the front matter must be 'key: value' lines, "
            f"not a {type(meta).__name__}"
        )
    meta_lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key_node, _ in node.value:
            meta_lines[str(key_node.value)] = key_node.start_mark.line + 2
    return SourceText(
        path=path,
        meta=meta,
        meta_lines=meta_lines,
        body="\n".join(lines[end + 1 :]),
        body_first_line=end + 2,
    )
