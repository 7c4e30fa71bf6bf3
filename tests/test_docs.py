"""Docs that cannot drift: every command, option, make target and lesson is in the README."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click
import pytest

from privacy_explorer.cli import cli

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text("utf-8")


def test_readme_opens_with_the_two_commands():
    first_block = README.split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in first_block.strip().splitlines()]
    assert commands == ["make site", "make test"]


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_and_option_is_documented(name):
    command = cli.commands[name]
    assert f"explorer {name}" in README
    for param in command.params:
        if isinstance(param, click.Option):
            assert any(opt in README for opt in param.opts), f"{name} {param.opts} undocumented"


def test_every_make_target_is_documented():
    makefile = (REPO / "Makefile").read_text("utf-8")
    targets = re.findall(r"^([a-z]+):", makefile, re.MULTILINE)
    assert {"site", "test", "serve", "clean", "lint"} <= set(targets)
    for target in targets:
        assert f"make {target}" in README, target


def test_every_lesson_is_listed():
    for path in sorted((REPO / "content" / "ko").glob("*.md")):
        assert f"content/*/{path.name}" in README, path.name


def test_ci_runs_what_the_readme_says():
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "make test" in ci
    # every install step lives behind `make test`, as a newcomer runs it
    assert not re.search(r"\b(pip|apt-get|playwright)\b", ci)


def test_the_reuse_example_in_the_readme_runs():
    section = README.split("## Reusing the code", 1)[1]
    example = section.split("```python", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(example, "README.md (Reusing the code)", "exec"), namespace)
    assert namespace["verdict"].status == "allowed"
