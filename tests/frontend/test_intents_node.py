"""The table's intents (frontend/static/frontend/js/intents.js: what a tap, a drop, a key
or the finish means) checked by their own tests under node's test runner."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "frontend" / "static" / "frontend" / "js" / "tests"


def test_the_intents_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: .ci/run installs it (the Debian package nodejs)")
    done = subprocess.run(
        [node, "--test", str(TESTS)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"node --test failed:\n{done.stdout}\n{done.stderr}"
