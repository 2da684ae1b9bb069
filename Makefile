# Two commands matter: `make play` and `make test`. Both build .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ARGS   ?=

.PHONY: play test lint typecheck contracts pytest simulate bench fuzz chaos clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/domicile play $(ARGS)

test: lint typecheck contracts pytest

lint: $(STAMP)
	$(BIN)/ruff check domicile_p2p clients tests benchmarks
	$(BIN)/ruff format --check domicile_p2p clients tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP)
	$(BIN)/pytest --cov=domicile_p2p --cov=domicile_tui --cov-branch --cov-report=term:skip-covered $(PYTEST_ARGS)

simulate: $(STAMP)
	$(BIN)/domicile simulate $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis htmlcov .coverage
