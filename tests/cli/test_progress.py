"""Progress on standard error while validate and score read large inputs, and while analyze works: only on a terminal.

Under a pseudo-terminal (pexpect) the bar shows its label, bytes and a rate;
with standard error a pipe, nothing is added. ``ReadProgress`` advances
within one big ``.jsonl`` file by the bytes read.
"""

from __future__ import annotations

import os
import re
import shlex
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


def _on_a_terminal(out: Path, *args: str) -> str:
    """What a terminal shows on standard error (colours left out) while the command writes standard output to
    ``out``; it must exit 0."""
    shell = " ".join(shlex.quote(word) for word in (sys.executable, "-m", "coloretto_log", *args))
    shell += f" > {shlex.quote(str(out))}"
    env = dict(os.environ, COLUMNS="120", TERM="xterm")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn("bash", ["-c", shell], env=env, encoding="utf-8", timeout=600, dimensions=(24, 120))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return _ANSI.sub("", child.before or "")


@pytest.mark.parametrize(("command", "label"), [("validate", "checking"), ("score", "scoring")])
def test_a_bar_with_bytes_and_rate_under_a_terminal(command: str, label: str, big: Path, tmp_path: Path) -> None:
    """stdout goes to a file, stderr is the pseudo-terminal: all the terminal shows is the bar."""
    out = tmp_path / "out.txt"
    shown = _on_a_terminal(out, command, str(big))
    assert label in shown
    assert re.search(r"[0-9.]+/[0-9.]+ [kM]B", shown), shown[-500:]  # bytes read of the total
    assert re.search(r"[0-9.]+ [kM]B/s", shown), shown[-500:]  # the rate
    assert out.read_text(encoding="utf-8").splitlines()[-1].startswith("520 matches in 1 file")


@pytest.fixture(scope="module")
def short_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one-round game of docs/format.md §6: a few decisions, analysed in a moment."""
    from ..builders.docs import worked_example

    path = tmp_path_factory.mktemp("analyze-progress") / "worked-example.json"
    path.write_text(worked_example(), encoding="utf-8")
    return path


def _analyze_on_a_terminal(path: Path, out: Path, *options: str) -> str:
    return _on_a_terminal(out, "analyze", str(path), "--samples", "4", "--max-se", "9", *options)


def test_analyze_shows_the_game_and_the_decisions_on_a_terminal(short_game: Path, tmp_path: Path) -> None:
    shown = _analyze_on_a_terminal(short_game, tmp_path / "out.txt")
    decisions = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert re.search(r"analysing \S*worked-example\.json · game 1 +\d+/\d+ decisions", shown), shown[-500:]
    done = re.findall(r"(\d+)/(\d+) decisions", shown)
    assert done and done[-1][0] == done[-1][1]  # it ends on every decision done
    assert "analysing" not in decisions and "Aiko" in decisions  # standard output holds the analysis alone


def test_analyze_json_shows_no_progress_even_on_a_terminal(short_game: Path, tmp_path: Path) -> None:
    shown = _analyze_on_a_terminal(short_game, tmp_path / "out.json", "--json")
    assert shown.strip() == ""
    assert '"decisions"' in (tmp_path / "out.json").read_text(encoding="utf-8")
