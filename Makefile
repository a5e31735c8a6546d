# The two everyday commands are `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PORT   ?= 8000
WEB    ?= 2

.PHONY: install test run stack lint bench clean pyodide native native-clean lock bench-install

# Every package at the version and with the hashes requirements-dev.lock gives (make lock
# writes the lock files from pyproject.toml), then the project itself.
$(STAMP): pyproject.toml requirements-dev.lock
	@echo "==> setting up $(VENV): Python packages, PyICU built against ICU, then Pyodide from npm (the first run takes a few minutes)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/pip install --quiet --no-deps -e .
	$(MAKE) pyodide
	@touch $(STAMP)

# The lock files, from pyproject.toml and PyPI: the benchmarks' (everything), then within
# it the tests' (dev), the image's (the site alone) and the image builder's compiler (mypy,
# for scripts/native.py), so they agree on every version they share.  `make lock` keeps
# what is locked unless pyproject.toml asks otherwise; to move to the newest releases:
# make lock UPGRADE=--upgrade (then make install, make test).
LOCK := $(BIN)/uv pip compile --universal --python-version 3.11 --generate-hashes \
        --custom-compile-command "make lock" --quiet $(UPGRADE)
lock: $(STAMP)
	$(LOCK) pyproject.toml --extra dev --extra bench -o requirements-bench.lock
	$(LOCK) pyproject.toml --extra dev -c requirements-bench.lock -o requirements-dev.lock
	$(LOCK) pyproject.toml -c requirements-bench.lock -o requirements.lock
	echo mypy | $(LOCK) - -c requirements-bench.lock -o requirements-native.lock
	@echo "==> locked; if a patched library moved: $(BIN)/python -m config.tripwires"

# The benchmarks' servers and profiler (uvicorn, wsproto, py-spy), locked as the rest.
bench-install: $(STAMP)
	$(BIN)/pip install --quiet --require-hashes -r requirements-bench.lock

# Pyodide for offline play (package.json pins it; frontend/offline.py), with the .br and
# .gz copies the site serves, esbuild for collectstatic's bundle of the table's modules
# (config/bundle.py), and ESLint for make lint (package.json's devDependencies).
# npm's registry only: the site itself serves every file.
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
# Migrations: nothing left for makemigrations to write, and every migration newer than the
# release in production (deploy/previous-release) safe with that release still serving
# (django-migration-linter, on PostgreSQL's SQL: LINT_DATABASE_URL).
LINT_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
# The JavaScript: the ES modules and the page's inline script (eslint.config.js).
lint: $(STAMP) $(PYODIDE)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=1 $(BIN)/mypy
	node_modules/.bin/eslint frontend/static frontend/templates/frontend/start.js eslint.config.js
	DEBUG=1 DATABASE_URL=$(LINT_DATABASE_URL) $(BIN)/python manage.py makemigrations --check --dry-run
	DEBUG=1 DATABASE_URL=$(LINT_DATABASE_URL) $(BIN)/python manage.py lintmigrations \
	    --project-root-path . --git-commit-id $$(cat deploy/previous-release) \
	    --include-apps games leaderboards --no-cache -q ok

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis node_modules
