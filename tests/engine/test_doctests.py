"""The runnable examples in the engine's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "cards",
    "deals",
    "columns",
    "table",
    "scoring",
    "legal",
    "game",
    "endgame",
    "dead_ends",
    "seen",
    "catalogue",
    "record",
    "taps",
    "solver.registry",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(f"games.engine.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0


def test_package_docstring_examples_run() -> None:
    result = doctest.testmod(importlib.import_module("games.engine"))
    assert result.failed == 0
    assert result.attempted > 0
