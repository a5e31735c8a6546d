# The two everyday commands are `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PORT   ?= 8000
WEB    ?= 2

.PHONY: install test run stack lint bench clean pyodide native native-clean

$(STAMP): pyproject.toml
	@echo "==> setting up $(VENV): Python packages, PyICU built against ICU, then Pyodide from npm (the first run takes a few minutes)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(MAKE) pyodide
	@touch $(STAMP)

# Pyodide for offline play (package.json pins it; frontend/offline.py), with the .br and
# .gz copies the site serves.  npm's registry only: the site itself serves every file.
PYODIDE := node_modules/pyodide/pyodide.asm.wasm.br
$(PYODIDE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python -m servestatic.compress -q node_modules/pyodide
	@touch $(PYODIDE)

pyodide: $(PYODIDE)

install: $(STAMP)

# The whole suite on the pure-Python engine, then the solver's tests on a compiled copy of
# the FreeCell search (scripts/native.py --test, under build/native).
test: $(STAMP) $(PYODIDE)
	$(BIN)/python -m pytest
	$(BIN)/python scripts/native.py --test

# Optional: the FreeCell search compiled with mypyc, in place (docs/operations.md).
native: $(STAMP)
	$(BIN)/python scripts/native.py

native-clean:
	$(BIN)/python scripts/native.py --clean

run: $(STAMP) $(PYODIDE)
	PORT=$(PORT) $(BIN)/python scripts/run.py

# The production shape on one machine: WEB web processes behind HAProxy (deploy/haproxy.cfg),
# a worker and beat, on DATABASE_URL and REDIS_URL (scripts/stack.py, docs/operations.md).
stack: $(STAMP) $(PYODIDE)
	PORT=$(PORT) WEB=$(WEB) $(BIN)/python scripts/stack.py

# DEBUG=1: the type checker loads the settings, which refuse to start without secrets otherwise.
lint: $(STAMP)
	$(BIN)/ruff check .
	DEBUG=1 $(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis node_modules
