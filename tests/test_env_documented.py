"""Every environment variable the code reads is listed in .env.example, with a line on what
it does; nothing listed there is read by nobody."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["config", "games", "leaderboards", "scripts", "frontend", "manage.py"]
HELPERS = {"env_str", "env_int", "env_bool", "env_list"}  # config/settings/env.py
LISTED = re.compile(r"^#?\s?([A-Z][A-Z0-9_]*)=", re.MULTILINE)


def _is_environ(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
        isinstance(node, ast.Name) and node.id == "environ"
    )


def _name(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def names_read(tree: ast.AST) -> set[str]:
    """Names in env_str("X"), os.environ.get("X"), os.environ["X"], os.getenv("X"),
    os.environ.setdefault("X"), "X" in os.environ."""
    found: set[str] = set()
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if isinstance(func, ast.Name) and func.id in HELPERS:
                name = _name(node.args[0])
            elif isinstance(func, ast.Attribute) and (
                (func.attr in {"get", "setdefault", "pop"} and _is_environ(func.value))
                or func.attr == "getenv"
            ):
                name = _name(node.args[0])
        elif isinstance(node, ast.Subscript) and _is_environ(node.value):
            name = _name(node.slice)
        elif isinstance(node, ast.Compare) and any(_is_environ(c) for c in node.comparators):
            name = _name(node.left)
        if name:
            found.add(name)
    return found


def parse(source: str, name: str) -> ast.AST:
    """ast.parse, again if it raises SystemError: Python 3.11 before 3.11.8 keeps the AST
    converter's recursion count per interpreter, not per thread, so a parse running in
    another thread at the same moment (a server thread of an earlier test importing a
    module) makes this one fail with "recursion depth mismatch" (CPython gh-106905)."""
    for _ in range(4):
        try:
            return ast.parse(source, name)
        except SystemError:
            continue
    return ast.parse(source, name)


def code_names() -> dict[str, str]:
    """Each variable the code reads, with one file that reads it."""
    out: dict[str, str] = {}
    for source in SOURCES:
        path = ROOT / source
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            for name in names_read(parse(file.read_text(), str(file))):
                out.setdefault(name, str(file.relative_to(ROOT)))
    return out


def listed() -> list[str]:
    return LISTED.findall((ROOT / ".env.example").read_text())


def test_the_parser_finds_every_form_of_read():
    tree = ast.parse(
        'import os\nfrom os import environ\nenv_int("A", 1)\n'
        'os.environ.get("B")\nos.environ["C"]\nos.getenv("D")\n'
        'os.environ.setdefault("E", "x")\nif "F" in os.environ: pass\n'
        'environ.get("G")\nenv_str(name)\n'
    )
    assert names_read(tree) == set("ABCDEFG")


def test_every_variable_the_code_reads_is_in_env_example():
    missing = {n: f for n, f in code_names().items() if n not in set(listed())}
    assert not missing, f".env.example does not list (name: a file that reads it): {missing}"


def test_env_example_lists_each_once_with_what_it_does():
    text = (ROOT / ".env.example").read_text().splitlines()
    names = listed()
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for i, line in enumerate(text):
        match = LISTED.match(line)
        if match:
            above = text[i - 1] if i else ""
            assert above.startswith("# "), (
                f"{match.group(1)}: the line above it must say what it does"
            )
            assert len(above) > 12, f"{match.group(1)}: the line above it must say what it does"
            assert not LISTED.match(above), (
                f"{match.group(1)}: the line above it must say what it does"
            )


def test_nothing_listed_is_read_by_nobody():
    compose = (ROOT / "docker-compose.yml").read_text()
    used = set(code_names()) | set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", compose))
    stale = [n for n in listed() if n not in used]
    assert not stale, f"listed in .env.example but read by nothing: {stale}"


def test_every_compose_variable_is_listed():
    compose = (ROOT / "docker-compose.yml").read_text()
    missing = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", compose)) - set(listed())
    assert not missing, missing
