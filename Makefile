# simkit: every target creates .venv with python3 if missing and installs into it, then
# compiles every game's engine into numba's cache (in parallel), so runs start at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test fuzz lint demo notebooks bench bench-memory pairing playthroughs clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,dask]'
	$(BIN)/simkit compile
	touch $(STAMP)

# simkit compile again first: after an engine edit the pytest workers then load the
# engines from numba's cache instead of each compiling every one (a no-op load otherwise)
test: $(STAMP)
	$(BIN)/ruff check simkit tests benchmarks notebooks
	$(BIN)/simkit compile
	$(BIN)/python -m pytest -q -n auto --dist loadgroup --durations=25

# 1,000 random legal settings (200 per game), drawn afresh, with the state checks on
fuzz: $(STAMP)
	SIMKIT_FUZZ_EXAMPLES=200 $(BIN)/python -m pytest -q -n auto tests/test_fuzz.py

# rewrite the golden playthroughs (tests/playthroughs/) after a change meant to change games
playthroughs: $(STAMP)
	SIMKIT_REGENERATE_PLAYTHROUGHS=1 $(BIN)/python -m pytest -q tests/test_playthroughs.py

lint: $(STAMP)
	$(BIN)/ruff check simkit tests benchmarks notebooks

# the Victus difficulty experiment at 2,500 games per cell (the file asks for 100,000),
# played afresh each time, then its report and difficulty ladder
DEMO := results/demo_victus_difficulty

demo: $(STAMP)
	$(BIN)/simkit prob setembre1714 assault --attacker 9 --defender 12
	$(BIN)/simkit run setembre1714-assault --preset example_first_assault --games 1000000 --jobs 2 --no-progress
	$(BIN)/simkit run setembre1714-assault --preset example_second_assault --policy catalans=cautious --games 1000000 --jobs 2 --no-progress
	rm -rf $(DEMO)
	$(BIN)/simkit sweep experiments/victus_difficulty.toml --games 2500 --jobs 2 --out $(DEMO) --no-progress
	$(BIN)/simkit report $(DEMO)
	$(BIN)/simkit ladder $(DEMO)

# every notebook top to bottom at full size; executed copies in results/notebooks/
notebooks: $(STAMP)
	$(BIN)/python notebooks/run.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

# peak memory of a 10^8-game run with --out (several minutes)
bench-memory: $(STAMP)
	$(BIN)/python benchmarks/memory.py

# how well common random numbers pair rule changes (Victus, eight changes, 20,000 games)
pairing: $(STAMP)
	$(BIN)/python benchmarks/pairing.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
