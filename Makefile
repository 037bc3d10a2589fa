# evalkit workspace. `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.evalkit-installed

.DEFAULT_GOAL := help
.PHONY: help setup reproduce test test-fast bench bench-explore simulate data report-png clean sweep-sakai sweep-ppi-coverage \
        explore book book-solutions

help: ## list the targets
	@awk 'BEGIN{FS=":.*## "} /^[a-z-]+:.*## /{printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[workspace]'
	@touch $@

setup: $(STAMP) ## create .venv/ and install pinned dependencies and evalkit (editable)

reproduce: $(STAMP) ## simulate missing raw data, run every notebook, write figures/
	$(BIN)/evalkit reproduce

# two pytest-xdist workers, a module to a worker (its fixtures made once); TEST_WORKERS=0 runs serially
TEST_WORKERS ?= 2
test: $(STAMP) ## run the test suite (TEST_WORKERS=2 processes)
	$(BIN)/python -m pytest $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder)

test-fast: $(STAMP) ## the tests that start no process, kernel or server (not tests/integration/)
	$(BIN)/python -m pytest -m "not integration"

bench: $(STAMP) ## performance: ratios against references, the reproduction's profile, full differential sweeps
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/reproduction.py
	EVALKIT_FULL_GRID=1 $(BIN)/python -m pytest -q -m sweep tests/measures tests/simulate tests/stats

bench-explore: $(STAMP) ## time each explorer's update (target <= 1 s per slider move)
	$(BIN)/python benchmarks/explorers.py

explore: $(STAMP) ## serve the explorers (notebooks/explore_*.ipynb) with Voila on 127.0.0.1
	$(BIN)/python -m evalkit.explore.serve $(PORT)

book: $(STAMP) ## course book, student edition, from the executed notebooks (make reproduce first) -> build/book/
	$(BIN)/python -c "from evalkit.workspace import book; print('book:', book.build())"

book-solutions: $(STAMP) ## course book, instructor edition: solutions filled in and run -> build/book-solutions/
	$(BIN)/python -c "from evalkit.workspace import book; print('book:', book.build(solutions=True))"

sweep-sakai: $(STAMP) ## Sakai beyond the paper: p x 20 seeds as a Dask sweep -> figures/sweeps/
	$(BIN)/evalkit sweep sakai-p
	$(BIN)/python -c "from evalkit.workspace import report; report.build()"

sweep-ppi-coverage: $(STAMP) ## do evalkit estimate's intervals hold: 3 worlds x n x 1,000 draws on Dask -> build/sweeps/ppi_coverage/
	$(BIN)/python -m evalkit.workspace.sweeps.ppi_coverage --draws 1000

data: $(STAMP) ## fetch the real public data into data/external/ (MIRROR=DIR copies from a mirror)
	$(BIN)/evalkit data fetch $(if $(MIRROR),--mirror $(MIRROR))

simulate: $(STAMP) ## rewrite the default simulated raw data
	$(BIN)/evalkit simulate --force

report-png: ## screenshot figures/index.html with headless Chromium into build/report.png
	$(BIN)/python -c "from evalkit.workspace import report; print(report.screenshot())"

clean: ## remove build products (not the venv, not figures/)
	rm -rf build .pytest_cache .hypothesis
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
