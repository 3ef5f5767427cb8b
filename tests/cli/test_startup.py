"""A fast start: each command imports only what it uses (issue 12 §5).

Every command below runs in a fresh interpreter; at exit the test reads which
heavy third-party packages were loaded. Timing lives in benchmarks/bench_startup.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT, SAMPLES

HEAVY = ("duckdb", "pyarrow", "numpy", "matplotlib")

_HARNESS = """
import atexit, json, sys
def report():
    with open(sys.argv[1], "w") as f:
        json.dump(sorted(m for m in {heavy!r} if m in sys.modules), f)
atexit.register(report)
from coloretto_log.cli import main
main(sys.argv[2:])
"""

SAMPLE = str(SAMPLES / "classic-4p-recorded-match-with-claims.json")

COMMANDS = {
    "--version": ["--version"],
    "--help": ["--help"],
    "validate --help": ["validate", "--help"],
    "score --hand": ["score", "--hand", "green=6 yellow=4 red=3 blue=2 joker=1 +2=1"],
    "score a log": ["score", SAMPLE],
    "validate": ["validate", SAMPLE],
    "replay": ["replay", SAMPLE, "--moves"],
    "deal": ["deal", "--seed", "42", "--player-count", "4"],
    "record --help": ["record", "--help"],
    "schema": ["schema"],
}


def loaded(args: list[str], tmp_path: Path, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    report = tmp_path / "modules.json"
    subprocess.run(
        [sys.executable, "-c", _HARNESS.format(heavy=heavy), str(report), *args],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False,
    )
    result: list[str] = json.loads(report.read_text(encoding="utf-8"))
    return result


@pytest.mark.parametrize("args", list(COMMANDS.values()), ids=list(COMMANDS))
def test_command_loads_no_heavy_package(args: list[str], tmp_path: Path) -> None:
    assert loaded(args, tmp_path) == []


#: Commands that read no model: they start without pydantic (typer would load it to check their options;
#: cli/app.py converts ordinary option values itself). A plain seeded log is checked without the models.
WITHOUT_PYDANTIC = {
    "--version": ["--version"],
    "--help": ["--help"],
    "score --hand": ["score", "--hand", "green=6 yellow=4 red=3 blue=2 joker=1 +2=1"],
    "deal": ["deal", "--seed", "42", "--player-count", "4", "--format", "json"],
    "validate a seeded log": ["validate", str(SAMPLES / "classic-3p-seeded-match.json")],
    "replay a seeded log": ["replay", str(SAMPLES / "classic-3p-seeded-match.json"), "--moves"],
}


@pytest.mark.parametrize("args", list(WITHOUT_PYDANTIC.values()), ids=list(WITHOUT_PYDANTIC))
def test_command_starts_without_pydantic(args: list[str], tmp_path: Path) -> None:
    assert loaded(args, tmp_path, ("pydantic",)) == []


def test_simulate_starts_without_pydantic(tmp_path: Path) -> None:
    out = tmp_path / "sims.jsonl"
    assert loaded(["simulate", "-n", "1", "--bots", "greedy", "--out", str(out)], tmp_path, ("pydantic",)) == []
    assert out.stat().st_size > 0


def test_the_pydantic_check_sees_pydantic(tmp_path: Path) -> None:
    """The check can fail: a log with claims is read through the models, so pydantic is loaded."""
    args = ["validate", str(SAMPLES / "classic-4p-recorded-match-with-claims.json")]
    assert loaded(args, tmp_path, ("pydantic",)) == ["pydantic"]


def test_record_loads_no_heavy_package(tmp_path: Path) -> None:
    """record itself, fed an empty standard input (it saves and stops)."""
    assert loaded(["record", str(tmp_path / "k.json"), "--players", "Aiko,Boris"], tmp_path) == []


def test_the_harness_sees_a_heavy_package(tmp_path: Path) -> None:
    """The check can fail: a heavy package loaded before the command runs (a stand-in "numpy") is reported."""
    fake = tmp_path / "numpy.py"
    fake.write_text("", encoding="utf-8")
    report = tmp_path / "modules.json"
    code = "import numpy\n" + _HARNESS.format(heavy=HEAVY)
    subprocess.run([sys.executable, "-c", code, str(report), "--version"], cwd=tmp_path, capture_output=True,
                   timeout=120, check=False, env={"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"})
    assert json.loads(report.read_text(encoding="utf-8")) == ["numpy"]


def test_every_command_is_in_the_table_and_lists_without_import() -> None:
    """`coloretto-log --help` lists every command from the table, each with its first help line."""
    from coloretto_log.cli import COMMANDS as TABLE

    out = subprocess.run([sys.executable, "-m", "coloretto_log", "--help"], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    listed = out.split("Commands:")[1]
    for name in TABLE:
        line = next(line for line in listed.splitlines() if line.strip().startswith(name + " "))
        assert len(line.split(None, 1)) == 2, f"{name} has no help line in the list"
