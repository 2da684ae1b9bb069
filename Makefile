# Two commands matter: `make play` and `make test`. Both build .venv on first use.
# `make check` is the fast tier of `make test` for the edit-test loop.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# `make play` installs the game alone (no test tools); every other target, the `test` extra.
PLAY_STAMP := $(VENV)/.installed-play
ARGS   ?=

# Python caches what it compiles in __pycache__ (ignored by git) even where the
# environment says not to: the suite starts hundreds of `domicile` processes and each
# xdist worker imports every test module, all compiled from source again without it.
unexport PYTHONDONTWRITEBYTECODE

# The tests run in parallel (pytest-xdist), two worker processes per core: the tests wait
# on sockets, processes and timers for much of their time (interface tests most: 1.4
# cores busy with 3 workers on 2), and the other workers run meanwhile.  On 2 cores, the
# same clone: 4 workers 419 s of tests, 3 workers 459 s (2 workers: 518 s, on an older
# clone).  Tests that must share something carry an xdist_group mark.
# PYTEST_WORKERS=N to choose; 0: in this process.
PYTEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(2 * (os.cpu_count() or 1))")
PARALLEL       := -n $(PYTEST_WORKERS) --dist loadgroup

FUZZ_EXAMPLES ?= 1000
FUZZ_STEPS    ?= 100
FUZZ_SECONDS  ?= 300
CHAOS_GAMES   ?= 12
CHAOS_SEED    ?= 1
SOAK_NOFILE   ?= 1024
SOAK_FLOOD    ?= 1100
SOAK_WAVES    ?= 10
SOAK_WAVE     ?= 1000
SOAK_CHURN    ?= 20000
SOAK_JOINS    ?= 60
SOAK_RECONNECT ?= 30
SOAK_RECONNECT_PROCESSES ?= 4
SOAK_RECONNECT_RATE ?= 32

.PHONY: play test check lint typecheck contracts pytest simulate vectors vectors-check bench bench-large fuzz chaos soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,web]'
	touch $(STAMP) $(PLAY_STAMP)

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(PLAY_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/domicile play $(ARGS)

test: lint typecheck contracts pytest

# Everything but the tests marked slow (whole games, processes, real sockets): under
# 3 minutes, for the edit-test loop.  `make test` and CI run every test.
check: lint $(STAMP)
	$(BIN)/pytest $(PARALLEL) -m "not slow and not benchmark" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check domicile_p2p clients tests benchmarks chaos tools
	$(BIN)/ruff format --check domicile_p2p clients tests benchmarks chaos tools

typecheck: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP)
	$(BIN)/pytest $(PARALLEL) -m "not benchmark" --cov=domicile_p2p --cov=domicile_tui --cov-branch --cov-report=term:skip-covered $(PYTEST_ARGS)
	@echo "Branch coverage of the rules engine (at least 95%):"
	$(BIN)/coverage report --include='domicile_p2p/rules/*' --fail-under=95 --format=total

simulate: $(PLAY_STAMP)
	$(BIN)/domicile simulate $(ARGS)

# The protocol's vectors and transcript schemas, from the code (tools/protocol_tools, kept
# out of the installed package); `vectors-check` reports stale files (make test checks too).
vectors: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m protocol_tools.vectors
	PYTHONPATH=tools $(BIN)/python -m protocol_tools.schema_export
	PYTHONPATH=tools $(BIN)/python -m protocol_tools.wire_schema_export

vectors-check: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m protocol_tools.vectors --check
	PYTHONPATH=tools $(BIN)/python -m protocol_tools.schema_export --check
	PYTHONPATH=tools $(BIN)/python -m protocol_tools.wire_schema_export --check

# Every benchmark script at its tiniest size first (does it still run against the code?),
# then every benchmark with modest sizes (about 6 minutes); results in benchmarks/README.md.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/pytest -p no:cacheprovider -q -m benchmark tests/test_benchmarks_smoke.py
	$(BIN)/python benchmarks/bench_selfplay.py
	$(BIN)/python benchmarks/bench_verify.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_discovery.py
	$(BIN)/python benchmarks/bench_host.py --tables 10 --tables 100 --duration 15 --warmup 5

# The host at 1,000 tables in one process (joins take 2-4 minutes), ahead of the load
# generators as if it had a core of its own (root, for the priority); then at equal priority.
bench-large: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/bench_host.py --tables 1000 --no-saturation --no-anchor --server-nice -10 --duration 30 --warmup 10
	$(BIN)/python benchmarks/bench_host.py --tables 1000 --no-saturation --duration 30 --warmup 10

# Large budgets; `make test` runs small versions of both through pytest.
fuzz: $(STAMP)
	DOMICILE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) DOMICILE_FUZZ_STEPS=$(FUZZ_STEPS) $(BIN)/pytest -p no:cacheprovider -q tests/fuzz
	$(BIN)/python -m pip install --quiet 'atheris==3.0.0'
	mkdir -p .fuzz/corpus
	$(BIN)/python tests/fuzz/atheris_wire.py -max_total_time=$(FUZZ_SECONDS) -timeout=10 -artifact_prefix=.fuzz/ .fuzz/corpus

chaos: $(STAMP)
	rm -rf .chaos/run
	$(BIN)/python chaos/run.py --games $(CHAOS_GAMES) --kills 3 --seed $(CHAOS_SEED) --dir .chaos/run --json .chaos/summary.json

# The host under resource attacks at full size (issue 16; about 20 minutes), against a
# subprocess host on 127.0.0.1: a flood of SOAK_FLOOD connections under ulimit -n
# SOAK_NOFILE beside an honest game, SOAK_WAVES waves of SOAK_WAVE idle connections, a
# churn of SOAK_CHURN connections, a join flood of SOAK_JOINS seconds beside an honest
# game, and a reconnect flood from one address (SOAK_RECONNECT_PROCESSES processes for
# SOAK_RECONNECT seconds, at the host's default --connection-rate) beside another.  `make test` runs the same tests small.
# Figures: SECURITY.md.
soak: $(STAMP)
	DOMICILE_SOAK_NOFILE=$(SOAK_NOFILE) DOMICILE_SOAK_FLOOD=$(SOAK_FLOOD) \
	DOMICILE_SOAK_WAVES=$(SOAK_WAVES) DOMICILE_SOAK_WAVE_SIZE=$(SOAK_WAVE) \
	DOMICILE_SOAK_CHURN=$(SOAK_CHURN) DOMICILE_SOAK_JOIN_SECONDS=$(SOAK_JOINS) \
	DOMICILE_SOAK_RECONNECT_SECONDS=$(SOAK_RECONNECT) \
	DOMICILE_SOAK_RECONNECT_PROCESSES=$(SOAK_RECONNECT_PROCESSES) \
	DOMICILE_SOAK_RECONNECT_RATE=$(SOAK_RECONNECT_RATE) \
	$(BIN)/pytest -p no:cacheprovider -q -s tests/hostile/test_hostile_descriptor_flood.py \
		tests/hostile/test_hostile_waves.py tests/hostile/test_hostile_join_flood.py \
		tests/hostile/test_hostile_reconnect_flood.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis htmlcov .coverage .fuzz .chaos
