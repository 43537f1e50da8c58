# Two commands matter on a fresh machine: `make run` and `make test`.
# Both create the virtual environment .venv on first use (Python 3.11+ required).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed

.PHONY: run test bench setup clean

# The server's own dependencies (pyproject's [project] dependencies): what `make run` needs.
$(RUNTIME): pyproject.toml
	@echo "Setting up $(VENV) with the server's dependencies (a minute or two the first time)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e .
	touch $(RUNTIME)

# Plus the test and lint tools (the dev extra), the research environment and the training
# example's PyTorch (CPU build): what `make test` needs.
$(STAMP): $(RUNTIME)
	@echo "Adding the test tools (pytest, Playwright, mypy, ruff), the research extra and PyTorch (CPU) to $(VENV)..."
	$(BIN)/python -m pip install -e '.[dev,research,train]'
	touch $(STAMP)

## Everything for development: the server's dependencies and the test tools.
setup: $(STAMP)

## The main job: the browser game on http://127.0.0.1:8000/ (SQLite database in ./data).
run: $(RUNTIME)
	$(BIN)/odin serve

## Everything CI checks: lint, types, the whole test suite.
# The suite runs in three worker processes (pytest-xdist): most of its time is spent waiting
# for browsers, servers and real clocks, so three share two cores well (11 minutes instead of
# 33 on two cores). TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= 3
test: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy
	scripts/ensure-chromium
	scripts/ensure-nginx
	$(BIN)/pytest -n $(TEST_WORKERS)

bench: $(RUNTIME)
	$(BIN)/odin bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
