"""A new user's first hour, round 2 (issue 30): what tripped a newcomer, each checked as they met it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ..conftest import ROOT


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "coloretto_log", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=False)  # fmt: skip


def test_analyze_of_a_file_that_is_not_json_says_so_and_nothing_else(tmp_path: Path) -> None:
    """Before, a 7-line method preamble and two empty tables came before the one line of the error."""
    bad = tmp_path / "bad.json"
    bad.write_text("{bad", encoding="utf-8")
    done = cli("analyze", str(bad))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [f"{bad}: error [bad-json] invalid JSON at line 1, column 2: expecting "
                                        "property name enclosed in double quotes"]
