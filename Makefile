# simkit: every target creates .venv with python3 if missing and installs into it; all
# but test and lint then compile every game's engine into numba's cache (in parallel), so
# runs start at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Python's bytecode is written (into .venv and the checkout's __pycache__, both ignored by
# git) even where the environment says not to: uv installs no bytecode, so without it
# every process (each pytest worker, notebook kernel, CLI subprocess and joblib or dask
# worker) compiled numba, pandas, scipy and matplotlib from source again, about 2.5 s of
# CPU each, and pytest rewrote every test module's asserts in each worker
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install test heavy fuzz lint demo notebooks bench bench-memory pairing playthroughs clean

# uv installs the same packages from PyPI as pip, several at a time: on a fresh 2-core
# machine with no download cache about 20 s instead of 90-230 s (pip also byte-compiles
# every module of every package; uv leaves that to the first import)
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev,dask]'
	touch $(STAMP)

# the engines compiled into numba's cache again after any edit of the package, before
# pytest: its workers then load them instead of each compiling every one
COMPILED := $(VENV)/.compiled
SOURCES := $(shell find simkit -name '*.py' -o -name '*.toml')

$(COMPILED): $(STAMP) $(SOURCES)
	$(BIN)/simkit compile
	touch $(COMPILED)

install: $(COMPILED)

# every test but the heavy ones (make heavy), on every core. No `simkit compile` first:
# the suite compiles each engine whole in the worker that runs its rule tests, which then
# reuse what that compile typed (tests/test_engines_compile.py)
test: $(STAMP)
	$(BIN)/ruff check simkit tests benchmarks notebooks
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -m "not heavy" --durations=25

# the checks too slow for every change (a whole engine compiled cold without simkit's
# numba patches, about a minute of CPU): run them before a numba upgrade or a release
heavy: $(COMPILED)
	$(BIN)/python -m pytest -q -n auto -m heavy

# 1,000 random legal settings (200 per game), drawn afresh, with the state checks on
fuzz: $(COMPILED)
	SIMKIT_FUZZ_EXAMPLES=200 $(BIN)/python -m pytest -q -n auto tests/test_fuzz.py

# rewrite the golden playthroughs (tests/playthroughs/) after a change meant to change games
playthroughs: $(COMPILED)
	SIMKIT_REGENERATE_PLAYTHROUGHS=1 $(BIN)/python -m pytest -q tests/test_playthroughs.py

lint: $(STAMP)
	$(BIN)/ruff check simkit tests benchmarks notebooks

# the Victus difficulty experiment at 2,500 games per cell (the file asks for 100,000),
# played afresh each time, then its report and difficulty ladder
DEMO := results/demo_victus_difficulty

demo: $(COMPILED)
	$(BIN)/simkit prob setembre1714 assault --attacker 9 --defender 12
	$(BIN)/simkit run setembre1714-assault --preset example_first_assault --games 1000000 --jobs 2 --no-progress
	$(BIN)/simkit run setembre1714-assault --preset example_second_assault --policy catalans=cautious --games 1000000 --jobs 2 --no-progress
	rm -rf $(DEMO)
	$(BIN)/simkit sweep experiments/victus_difficulty.toml --games 2500 --jobs 2 --out $(DEMO) --no-progress
	$(BIN)/simkit report $(DEMO)
	$(BIN)/simkit ladder $(DEMO)

# every notebook top to bottom at full size; executed copies in results/notebooks/
notebooks: $(COMPILED)
	$(BIN)/python notebooks/run.py

bench: $(COMPILED)
	$(BIN)/python benchmarks/bench.py

# peak memory of a 10^8-game run with --out (several minutes)
bench-memory: $(COMPILED)
	$(BIN)/python benchmarks/memory.py

# how well common random numbers pair rule changes (Victus, eight changes, 20,000 games)
pairing: $(COMPILED)
	$(BIN)/python benchmarks/pairing.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
