# The Privacy & Copyright explorer: every command a course author or developer needs.
# `make site` and `make test` work on a fresh Debian machine with Python 3.11.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CHROMIUM ?= /usr/bin/chromium
PORT ?= 8000

.PHONY: site test serve check clean lint format

# Create .venv, install the pinned dependencies and build build/site/.
site: $(VENV)/.runtime-installed
	$(BIN)/explorer build

# Run the whole test suite, browser tests included (installs Debian's Chromium when missing).
test: $(VENV)/.test-installed $(CHROMIUM)
	$(BIN)/python -m pytest

# Preview the built site on http://127.0.0.1:$(PORT)/ (local only).
serve: $(VENV)/.runtime-installed
	$(BIN)/explorer serve --port $(PORT)

# Validate content, grids, results and links without writing the site.
check: $(VENV)/.runtime-installed
	$(BIN)/explorer check

# Remove everything the build wrote (the site and the result cache).
clean:
	rm -rf build

# Lint and check formatting with ruff.
lint: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Run every benchmark in tests/bench/ (the attacks, a full audit of 10,000 rows per table);
# they print timings and ratios and assert nothing.
.PHONY: bench
bench: $(VENV)/.test-installed
	for script in tests/bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

# Rewrite the code in ruff's format.
format: $(VENV)/.test-installed
	$(BIN)/ruff format .

$(VENV)/.runtime-installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml $(VENV)/.runtime-installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Playwright cannot download its own browser here: the tests drive Debian's Chromium.
$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
