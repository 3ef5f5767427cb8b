"""Pipes: `coloretto-log score ... | head -1` stops quietly, exit 0 and nothing on stderr, as Unix tools do.

Real pipes, real processes: the reader closes its end after one line while
the command still has much to write.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import SAMPLES


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400 matches (the two 5-player sample lines, 200 times): far more output than a pipe holds."""
    path = tmp_path_factory.mktemp("pipes") / "many.jsonl"
    path.write_bytes((SAMPLES / "5p-seeded-games.jsonl").read_bytes() * 200)
    return path


def first_line_then_close(args: list[str]) -> tuple[bytes, int, bytes]:
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "coloretto_log", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    line = proc.stdout.readline()
    proc.stdout.close()  # as `head -1` does
    err = proc.stderr.read()
    return line, proc.wait(timeout=300), err


@pytest.mark.parametrize(
    "args",
    [["score", "{big}"], ["score", "--format", "json", "{big}"], ["score", "-f", "csv", "{big}"],
     ["validate", "--json", "{big}"], ["replay", "--moves", str(SAMPLES / "classic-3p-seeded-match.json")],
     ["schema"]],
    ids=["score", "score-json", "score-csv", "validate-json", "replay-moves", "schema"],
)
def test_a_closed_pipe_ends_quietly_with_exit_0(args: list[str], big: Path) -> None:
    line, code, err = first_line_then_close([a.replace("{big}", str(big)) for a in args])
    assert line  # it did write
    assert code == 0
    assert err == b""


def test_validate_findings_into_head(big: Path, tmp_path: Path) -> None:
    """Through a shell pipeline too, with many findings (one per broken line)."""
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{}\n" * 20_000, encoding="utf-8")
    proc = subprocess.run(
        ["bash", "-c", f'set -o pipefail; "{sys.executable}" -m coloretto_log validate "{broken}" | head -1'],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.stdout.count("\n") == 1 and "[missing-field]" in proc.stdout
    assert proc.returncode == 0 and proc.stderr == ""
