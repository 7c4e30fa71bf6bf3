# The Privacy & Copyright explorer: every command a course author or developer needs.
# `make site` and `make test` work on a fresh Debian machine with Python 3.11.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CHROMIUM ?= /usr/bin/chromium
PORT ?= 8000
SCORM_RUNTIME := tests/scorm/node_modules/.package-lock.json
AXE_CORE := tests/axe/node_modules/.package-lock.json

# Every install takes its versions from constraints.txt, so two set-ups get the same packages.
PIP_INSTALL := $(BIN)/python -m pip install --quiet -c constraints.txt

.PHONY: site test serve check clean lint format lock

# Create .venv, install the pinned dependencies and build build/site/.
# BASE_URL=https://OWNER.github.io/REPO/ adds canonical links, a sitemap and a 404 page for any depth.
site: $(VENV)/.runtime-installed
	$(BIN)/explorer build $(if $(BASE_URL),--base-url "$(BASE_URL)")

# Lint first, then run the whole test suite on every core, browser tests included (installs
# Debian's Chromium when missing); prints the 15 slowest tests and the wall time of it all.
# --no-loadscope-reorder: workers take the tests in the order conftest.py sorts them (quick ones
# first), not the groups of most tests first, so a breakage a quick test catches stops the run
# before any worker starts a long group (a worker finishes the group it holds, even after -x).
PYTEST_ARGS := -n auto --dist loadgroup --no-loadscope-reorder --durations=15
test: $(CHROMIUM) $(SCORM_RUNTIME) $(AXE_CORE)
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory lint && $(BIN)/python -m pytest $(PYTEST_ARGS); \
	status=$$?; echo "make test: $$(( $$(date +%s) - start )) s (lint included)"; exit $$status

# Apply each deliberate breakage of tests/mutants/mutants.py in turn and check that the suite
# (run as make test runs it) fails within five minutes; the file is restored after each.
.PHONY: mutants
mutants: $(VENV)/.test-installed $(CHROMIUM) $(SCORM_RUNTIME) $(AXE_CORE)
	$(BIN)/python tests/mutants/run.py -- $(PYTEST_ARGS)

# Preview the built site on http://127.0.0.1:$(PORT)/ (local only).
serve: $(VENV)/.runtime-installed
	$(BIN)/explorer serve --port $(PORT)

# Validate content, grids, results and links without writing the site.
check: $(VENV)/.runtime-installed
	$(BIN)/explorer check

# Remove what the build wrote into build/, keeping your own files there (see explorer clean).
clean: $(VENV)/.runtime-installed
	$(BIN)/explorer clean

# Lint and check formatting with ruff, then type-check explorer/, compute/ and tests/ with mypy
# (tests/typecheck.py gives mypy each file's import name; its cache makes a re-run quick).
lint: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python tests/typecheck.py
	$(BIN)/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml && $(BIN)/zizmor --offline --no-progress .github/workflows/

# Run every benchmark in tests/bench/ (the attacks, a full audit of 10,000 rows per table, the
# course's cold, no-op and one-lesson builds and its page weights); they print timings and
# ratios and assert nothing.
.PHONY: bench
bench: $(VENV)/.test-installed
	for script in tests/bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

# Rebuild tests/sample_project and rewrite the golden tree the tests compare its build with
# (tests/golden/sample_site/ and sample_site.sha256); review the diff before committing it.
.PHONY: golden
golden: $(VENV)/.test-installed
	$(BIN)/python tests/site_golden.py

# Rewrite the code in ruff's format.
format: $(VENV)/.test-installed
	$(BIN)/ruff format .

# Rewrite constraints.txt in a scratch venv: pyproject.toml's pins, the newest of everything else.
lock:
	rm -rf build/lock-venv
	$(PYTHON) -m venv build/lock-venv
	build/lock-venv/bin/python -m pip install --quiet --upgrade pip setuptools
	build/lock-venv/bin/python -m pip install --quiet --no-build-isolation '.[test]'
	{ echo "# Every package of a set-up, direct or transitive, at one version: written by 'make lock'"; \
	  echo "# from pyproject.toml's pins (see README.md, Dependencies). Do not edit by hand."; \
	  build/lock-venv/bin/python -m pip freeze --all --exclude privacy-copyright-explorer; \
	} > constraints.txt
	rm -rf build/lock-venv

# pip and setuptools come from constraints.txt too, and build the project without isolation.
$(VENV)/.runtime-installed: pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) pip setuptools
	$(PIP_INSTALL) --no-build-isolation -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml constraints.txt $(VENV)/.runtime-installed
	$(PIP_INSTALL) --no-build-isolation -e '.[test]'
	touch $@

# The SCORM tests launch packages in the scorm-again runtime, pinned in tests/scorm/package-lock.json.
$(SCORM_RUNTIME): tests/scorm/package.json tests/scorm/package-lock.json
	cd tests/scorm && npm ci --no-audit --no-fund --loglevel=error

# The accessibility tests inject axe-core into every page, pinned in tests/axe/package-lock.json.
$(AXE_CORE): tests/axe/package.json tests/axe/package-lock.json
	cd tests/axe && npm ci --no-audit --no-fund --loglevel=error

# Playwright cannot download its own browser here: the tests drive Debian's Chromium.
$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
