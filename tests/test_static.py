"""The package type-checks under mypy --strict and passes ruff (versions pinned in the test extra)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (pip install -e '.[test]')")
def test_mypy_strict() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "coloretto_log"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff() -> None:
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
