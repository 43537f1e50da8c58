# Two commands matter on a fresh machine: `make run` and `make test`.
# Both create the virtual environment .venv on first use (Python 3.11+ required).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed

.PHONY: run test bench setup dist clean

# The core and the server extra (pyproject's optional dependencies): what `make run` needs.
$(RUNTIME): pyproject.toml
	@echo "Setting up $(VENV) with the server's dependencies (a minute or two the first time)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[server]'
	touch $(RUNTIME)

# Plus every other extra (the research environment, PyTorch (CPU), JAX (CPU)...) and the
# test, lint and packaging tools (the dev extra): what `make test` needs.
$(STAMP): $(RUNTIME)
	@echo "Adding the test tools (pytest, Playwright, mypy, ruff, build) and every extra to $(VENV)..."
	$(BIN)/python -m pip install -e '.[dev,server,bots,arena,join,plot,research,train,jax]'
	touch $(STAMP)

## Everything for development: every extra and the test tools.
setup: $(STAMP)

## The main job: the browser game on http://127.0.0.1:8000/ (SQLite database in ./data).
run: $(RUNTIME)
	$(BIN)/odin serve

## Everything CI checks: lint, types, the whole test suite.
# The suite runs in three worker processes (pytest-xdist): most of its time is spent waiting
# for browsers, servers and real clocks, so three share two cores well (24 minutes on two
# cores on 2026-11-29, before the slow random games of In the Name of Odin were cut to 240).
# TEST_WORKERS=0 runs it in one process.
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

## The wheel and the source distribution, in dist/ (python -m build, pinned in the dev extra).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

clean:
	rm -rf $(VENV) dist .pytest_cache .mypy_cache .ruff_cache
