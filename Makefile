# Two commands matter on a fresh machine: `make run` and `make test`.
# Both create the virtual environment .venv on first use (Python 3.11+ required).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## The main job: the browser game on http://127.0.0.1:8000/ (SQLite database in ./data).
run: $(STAMP)
	$(BIN)/odin serve

## Everything CI checks: lint, types, the whole test suite.
test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	scripts/ensure-chromium
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/odin bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
