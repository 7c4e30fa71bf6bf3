"""Publishing: the GitHub Pages workflow, the base URL and what it adds, the 404 page.

With a base URL (site.yml ``base_url`` or ``--base-url``) every page names its
public address and the site gets a sitemap; without one nothing absolute is written.
The 404 page carries its own style and fonts, and with a base URL absolute links,
so that it works at any depth.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from click.testing import CliRunner

from privacy_explorer.cli import cli
from privacy_explorer.lesson import LANGUAGES

REPO = Path(__file__).resolve().parent.parent
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"
BASE = "https://owner.github.io/course-repo/"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def build(project: Path, *options: str) -> Path:
    out = project / "build" / "site"
    result = CliRunner().invoke(
        cli, ["build", "--project", str(project), "-j", "1", *options], prog_name="explorer"
    )
    assert result.exit_code == 0, result.output
    return out


def read(site: Path, path: str) -> str:
    return (site / path).read_text("utf-8")


# --- the workflow -------------------------------------------------------------------------


def test_pages_workflow_builds_with_the_base_url_and_deploys_with_official_actions():
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"] == {"branches": ["main"]} and "workflow_dispatch" in triggers
    assert workflow["permissions"] == {}
    assert workflow["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build_job, deploy_job = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert deploy_job["needs"] == "build"
    assert deploy_job["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy_job["environment"]["name"] == "github-pages"
    assert build_job["permissions"]["contents"] == "read"
    steps = [step for job in (build_job, deploy_job) for step in job["steps"]]
    uses = [step["uses"] for step in steps if "uses" in step]
    names = [use.split("@")[0] for use in uses]
    assert names == [
        "actions/checkout",
        "actions/setup-python",
        "actions/configure-pages",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    ]
    for use in uses:  # pinned to a commit, not a tag that can move
        assert re.fullmatch(r"[\w-]+/[\w-]+@[0-9a-f]{40}", use), use
    by_action = {step["uses"].split("@")[0]: step for step in steps if "uses" in step}
    assert by_action["actions/setup-python"]["with"]["python-version"] == "3.11"
    assert by_action["actions/upload-pages-artifact"]["with"]["path"] == "build/site"
    make = next(step for step in build_job["steps"] if "make site" in step.get("run", ""))
    assert make["env"]["BASE_URL"] == "${{ steps.pages.outputs.base_url }}"
    assert "${{" not in make["run"]  # expressions go through env, never into the script


@pytest.mark.parametrize(
    "command",
    [
        ["check-jsonschema", "--builtin-schema", "vendor.github-workflows"],
        ["zizmor", "--offline", "--no-progress"],
    ],
    ids=["github-schema", "zizmor"],
)
def test_every_workflow_passes_the_offline_checks_of_make_lint(command: list[str]):
    tool = Path(sys.executable).parent / command[0]
    workflows = sorted(str(path) for path in WORKFLOW.parent.glob("*.yml"))
    done = subprocess.run([str(tool), *command[1:], *workflows], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    makefile = (REPO / "Makefile").read_text("utf-8")
    assert " ".join(command) in makefile


# --- the base URL -------------------------------------------------------------------------


def test_without_a_base_url_nothing_absolute_is_written(sample_project: Path):
    site = build(sample_project)
    assert not (site / "sitemap.xml").exists()
    for path in ("index.html", "01-dice.html", "en/01-dice.html", "404.html"):
        html = read(site, path)
        assert 'rel="canonical"' not in html and "og:title" not in html, path
        assert not re.search(r'(href|src)="(https?:)?//', html), path
    not_found = read(site, "404.html")
    assert '<a href="en/index.html"' in not_found


@pytest.mark.parametrize("where", ["site.yml", "--base-url"])
def test_a_base_url_gives_canonical_links_open_graph_and_a_sitemap(sample_project: Path, where):
    if where == "site.yml":
        site_yml = sample_project / "site.yml"
        address = BASE.rstrip("/")  # the trailing slash is optional
        site_yml.write_text(read(sample_project, "site.yml") + f"base_url: {address}\n", "utf-8")
        site = build(sample_project)
    else:
        site = build(sample_project, "--base-url", BASE)
    lesson = read(site, "en/01-dice.html")
    assert f'<link rel="canonical" href="{BASE}en/01-dice.html">' in lesson
    assert f'<link rel="alternate" hreflang="ko" href="{BASE}01-dice.html">' in lesson
    assert f'<meta property="og:url" content="{BASE}en/01-dice.html">' in lesson
    title_match = re.search(r"<h1>.*?</span> (.*?)</h1>", lesson)
    assert title_match is not None
    title = title_match.group(1)
    assert f'<meta property="og:title" content="{title}">' in lesson
    description_match = re.search(r'<meta name="description" content="([^"]*)">', lesson)
    assert description_match is not None
    description = description_match.group(1)
    assert f'<meta property="og:description" content="{description}">' in lesson
    assert '<meta property="og:locale" content="en_US">' in lesson
    assert f'<link rel="canonical" href="{BASE}">' in read(site, "index.html")

    sitemap = ElementTree.fromstring((site / "sitemap.xml").read_bytes())
    locations = [url.findtext(f"{SITEMAP}loc") for url in sitemap]
    assert locations == [
        BASE,
        f"{BASE}en/",
        f"{BASE}01-dice.html",
        f"{BASE}en/01-dice.html",
    ]
    for url in sitemap:
        alternates = {a.get("hreflang"): a.get("href") for a in url.iter(f"{XHTML}link")}
        assert set(alternates) == set(LANGUAGES)
        assert url.findtext(f"{SITEMAP}loc") in alternates.values()
    # Embed pages are copies for frames: not in the sitemap, not indexed, canonical = the lesson.
    embed = read(site, "en/embed/01-dice.html")
    assert '<meta name="robots" content="noindex">' in embed
    assert f'<link rel="canonical" href="{BASE}en/01-dice.html">' in embed


def test_the_404_page_links_to_the_site_by_absolute_urls_and_carries_its_style(
    sample_project: Path,
):
    site = build(sample_project, "--base-url", BASE)
    html = read(site, "404.html")
    links = re.findall(r'<a [^>]*href="([^"]*)"', html)
    assert links and all(link in (BASE, f"{BASE}en/") for link in links), links
    # Nothing to load from a path that would be wrong at another depth: style and fonts inside.
    assert not re.search(r'<(link rel="stylesheet"|script|img)', html)
    assert '@font-face{font-family:"Noto Sans KR Explorer";font-weight:400;' in html
    assert ".site-header" in html and 'url("fonts/' not in html


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("owner.github.io/repo", "'base_url' must be an http(s) address"),
        ("https://owner.github.io/repo/?x=1", "'base_url' must be an http(s) address"),
        ("''", "'base_url' must be the site's public address"),
    ],
)
def test_a_bad_base_url_is_refused_with_the_fix(sample_project: Path, value: str, message: str):
    site_yml = sample_project / "site.yml"
    site_yml.write_text(read(sample_project, "site.yml") + f"base_url: {value}\n", "utf-8")
    result = CliRunner().invoke(cli, ["build", "--project", str(sample_project)])
    assert result.exit_code == 1
    assert f"site.yml: {message}" in result.output
    assert "e.g. https://OWNER.github.io/REPO/" in result.output


def test_an_unknown_site_yml_key_is_refused(sample_project: Path):
    site_yml = sample_project / "site.yml"
    site_yml.write_text(read(sample_project, "site.yml") + "baseurl: x\n", "utf-8")
    result = CliRunner().invoke(cli, ["build", "--project", str(sample_project)])
    assert result.exit_code == 1
    assert "site.yml: unknown key 'baseurl'; site.yml takes title, description and base_url" in (
        result.output
    )
