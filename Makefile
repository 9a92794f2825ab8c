# simkit: every target creates .venv with python3 if missing and installs into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint demo bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check simkit tests benchmarks
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check simkit tests benchmarks

demo: $(STAMP)
	$(BIN)/simkit prob setembre1714 assault --attacker 9 --defender 12
	$(BIN)/simkit run setembre1714-assault --preset example_first_assault --games 1000000 --jobs 2 --no-progress
	$(BIN)/simkit run setembre1714-assault --preset example_second_assault --policy catalans=cautious --games 1000000 --jobs 2 --no-progress

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
