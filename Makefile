# The two everyday commands are `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PORT   ?= 8000

.PHONY: install test run lint bench clean

$(STAMP): pyproject.toml
	@echo "==> setting up $(VENV) (first run takes a minute)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

run: $(STAMP)
	PORT=$(PORT) $(BIN)/python scripts/run.py

# DEBUG=1: the type checker loads the settings, which refuse to start without secrets otherwise.
lint: $(STAMP)
	$(BIN)/ruff check .
	DEBUG=1 $(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
