"""Progress on standard error while validate and score read large inputs: only on a terminal (issue 12 §4).

Under a pseudo-terminal (pexpect) the bar shows its label, bytes and a rate;
with standard error a pipe, nothing is added. ``ReadProgress`` advances
within one big ``.jsonl`` file by the bytes read.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from coloretto_log.cli.common import ReadProgress
from coloretto_log.log.load import LoadedMatch, load

from ..conftest import SAMPLES

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 2 MB of valid matches in one .jsonl file (over the 1 MiB from which the bar shows)."""
    path = tmp_path_factory.mktemp("progress") / "big.jsonl"
    path.write_bytes((SAMPLES / "5p-seeded-games.jsonl").read_bytes() * 260)
    return path


def test_progress_advances_within_one_file_by_bytes(big: Path) -> None:
    progress = ReadProgress([str(big)], "checking", enabled=True)  # not started: nothing is drawn
    assert progress.bar is not None
    seen: list[float] = []
    for item in load([str(big)]):
        assert isinstance(item, LoadedMatch)
        progress.advance(item.file, item.end)
        seen.append(progress.bar.tasks[0].completed)
    assert len(seen) == 520
    assert seen == sorted(seen) and len(set(seen)) == len(seen)  # every match moves it on
    assert seen[0] < big.stat().st_size / 100 and seen[-1] == big.stat().st_size == progress.bar.tasks[0].total


def test_small_inputs_and_pipes_get_no_bar(big: Path) -> None:
    assert ReadProgress([str(SAMPLES)], "checking", enabled=True).bar is None  # under 1 MiB
    assert ReadProgress([str(big)], "checking", enabled=False).bar is None
    assert ReadProgress([str(big)], "checking").bar is None  # pytest's stderr is not a terminal


@pytest.mark.parametrize("command", ["validate", "score"])
def test_nothing_on_stderr_when_it_is_not_a_terminal(command: str, big: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "coloretto_log", command, str(big)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0
    assert proc.stderr == ""


@pytest.mark.parametrize(("command", "label"), [("validate", "checking"), ("score", "scoring")])
def test_a_bar_with_bytes_and_rate_under_a_terminal(command: str, label: str, big: Path, tmp_path: Path) -> None:
    """stdout goes to a file, stderr is the pseudo-terminal: all the terminal shows is the bar."""
    out = tmp_path / "out.txt"
    shell = f'"{sys.executable}" -m coloretto_log {command} "{big}" > "{out}"'
    env = dict(os.environ, COLUMNS="120", TERM="xterm")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn("bash", ["-c", shell], env=env, encoding="utf-8", timeout=600, dimensions=(24, 120))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    shown = _ANSI.sub("", child.before or "")
    assert label in shown
    assert re.search(r"[0-9.]+/[0-9.]+ [kM]B", shown), shown[-500:]  # bytes read of the total
    assert re.search(r"[0-9.]+ [kM]B/s", shown), shown[-500:]  # the rate
    assert out.read_text(encoding="utf-8").splitlines()[-1].startswith("520 matches in 1 file")
