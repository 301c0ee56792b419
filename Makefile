# agentic-ds: `make run` and `make test` work on a fresh machine with no API key.
# The virtual environment lives in .venv; `pip install -e .[dev]` runs again only when pyproject.toml changes.

SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The first python3 that is >= 3.11 (override with `make PYTHON=/path/to/python3.12 ...`).
PYTHON ?= $(shell for p in python3 python3.13 python3.12 python3.11; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& { echo $$p; break; }; done)

TASK ?= What drives revenue in the retail sales data, and how strongly?
DATA ?= examples/data
MODE ?= orchestrated
MODEL ?= offline
TEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))

.PHONY: help install run test test-local lint bench clean-venv

help:
	@echo "make run     run the main job on $(DATA) with the offline model (no API key needed)"
	@echo "make test    lint (ruff, mypy), then the whole test suite"
	@echo "make lint    ruff and mypy only (configured in pyproject.toml)"
	@echo "make bench   run the benchmarks (figures go to BENCHMARKS.md)"
	@echo "make test-local  both modes against a real llama.cpp server with SmolLM2-135M (builds it once: 3-8 min)"
	@echo "variables:   TASK='...' DATA=path MODE=orchestrated|simple MODEL=offline PYTHON=python3.12"

$(BIN)/python:
	@if [ -z "$(PYTHON)" ]; then \
		echo "error: no python3 >= 3.11 found" >&2; \
		echo "hint: install Python 3.11 or newer, or run: make PYTHON=/path/to/python3.12 $(MAKECMDGOALS)" >&2; \
		exit 2; fi
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

install: $(STAMP)

run: $(STAMP)
	@command -v bwrap >/dev/null 2>&1 || echo "note: bubblewrap is not installed, so executed code has no sandbox (the offline model's bundled code still runs). Debian/Ubuntu: sudo apt-get install bubblewrap libseccomp2; macOS has none (see SECURITY.md)." >&2
	$(BIN)/agentic-ds run --mode $(MODE) "$(TASK)" --files $(DATA) --model $(MODEL)

# Lint first: it takes seconds and fails before the suite's minutes. The suite runs on pytest-xdist workers, twice
# as many as cores: about half of a test's time is spent waiting on a child (a run, a kernel, a server), so two
# workers per core keep both busy. --dist loadfile keeps each test file on one worker, so its module-scoped
# fixtures are built once; --no-loadscope-reorder hands the files out in tests/conftest.py's order (a file of a few
# long tests first, so it does not run alone at the end). The package's bytecode is compiled first: with
# PYTHONDONTWRITEBYTECODE set (as in some CI environments) every process that imports it, each CLI run and each
# worker, would compile it again (a third of a CPU-second a run); compileall writes it once, whatever that variable
# says, and only what changed since.
test: lint
	$(BIN)/python -m compileall -q agentic_ds tests
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# Opt-in: builds llama-cpp-python's server once into ~/.cache/agentic-ds/local-llm, then runs both modes against it.
test-local: $(STAMP)
	$(BIN)/python bench/local_model.py

bench: $(STAMP)
	for b in startup sandbox persistence loops context overhead parsers profiling; do $(BIN)/python bench/$$b.py || exit 1; done

clean-venv:
	rm -rf $(VENV)
