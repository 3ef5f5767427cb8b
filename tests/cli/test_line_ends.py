"""No line any command prints ends in blanks (issue 44: ``score`` printed ``jokers    J → red ``).

Every command's main path runs once, in this process, on a copy of the shipped samples (a club database built
from them along the way), and each line of its standard output and error is checked. On a terminal the
commands print through ``view.console.TrimmedConsole``: its own test below checks that a card's coloured block
keeps its padding while a table's blank padding goes.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from rich.table import Table
from typer.testing import CliRunner

from coloretto_log.cli import COMMANDS, app
from coloretto_log.serve.qr import qr_lines
from coloretto_log.view.console import TrimmedConsole
from coloretto_log.view.terminal import card_text

from ..builders.docs import worked_example
from ..conftest import SAMPLES

THREE = "sample_logs/classic-3p-seeded-match.json"
PEOPLE = "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus"

#: Each command's main path(s), in an order where each finds what an earlier one wrote (the database).
RUNS: list[tuple[str, list[str], str | None]] = [
    ("samples", ["samples", "more-samples"], None),
    ("validate", ["validate", "sample_logs/", "tests-invalid/"], None),
    ("score", ["score", "sample_logs/"], None),
    ("score", ["score", "--hand", "green=6 yellow=4 red=3 blue=2 joker=1 +2=1"], None),
    ("replay", ["replay", THREE, "--game", "2", "--move", "17"], None),
    ("replay", ["replay", THREE, "--game", "1", "--moves"], None),
    ("record", ["record", "two.json", "--players", "Aiko,Boris", "--games", "1"], "typed"),
    ("simulate", ["simulate", "-n", "2", "--seed", "1", "--out", "sims.jsonl"], None),
    ("analyze", ["analyze", "worked-example.json", "--samples", "4", "--max-se", "9"], None),  # a short game
    ("deal", ["deal", "--seed", "42", "--player-count", "4"], None),
    ("schema", ["schema"], None),
    ("ingest", ["ingest", "sample_logs/", "--db", "club.duckdb"], None),
    ("stats", ["stats", "--db", "club.duckdb"], None),
    ("query", ["query", "SELECT player, count(*) AS games FROM game_players GROUP BY player ORDER BY player",
               "--db", "club.duckdb"], None),
    ("export", ["export", "--db", "club.duckdb", "--parquet", "season/"], None),
    ("ratings", ["ratings", "--db", "club.duckdb"], None),
    ("site", ["site", "--db", "club.duckdb", "--out", "site/"], None),
    ("tables", ["tables", "--db", "club.duckdb", PEOPLE], None),
    ("tournament", ["tournament", "new", "Open", "--db", "club.duckdb", "--players", PEOPLE, "--rounds", "2",
                    "--first-round", "random", "--seed", "1"], None),
    ("tournament", ["tournament", "pair", "Open", "--db", "club.duckdb"], None),
    ("tournament", ["tournament", "standings", "Open", "--db", "club.duckdb"], None),
]
#: serve runs a web server until stopped (tests/serve/ start it); what it prints is fixed sentences and its QR
#: code, checked below.
NOT_RUN = {"serve"}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, list[str], int, str, str]]:


    work = tmp_path_factory.mktemp("line-ends")
    shutil.copytree(SAMPLES, work / "sample_logs")
    shutil.copytree(SAMPLES.parent / "tests" / "data" / "invalid", work / "tests-invalid")
    (work / "worked-example.json").write_text(worked_example(), encoding="utf-8")
    typed = (SAMPLES / "classic-2p-recorded-game.typed.txt").read_text(encoding="utf-8")
    runner = CliRunner()
    done = []
    here = Path.cwd()
    os.chdir(work)
    try:
        for name, args, stdin in RUNS:
            result = runner.invoke(app, args, input=typed if stdin else None, env={"COLUMNS": "100"})
            done.append((name, args, result.exit_code, result.stdout, result.stderr))
    finally:
        os.chdir(here)
    return done


def test_every_command_has_a_run() -> None:
    assert {name for name, _, _ in RUNS} | NOT_RUN == set(COMMANDS)


@pytest.mark.parametrize("k", range(len(RUNS)), ids=[" ".join(a[:2]) for _, a, _ in RUNS])
def test_no_line_ends_in_blanks(k: int, outputs: list[tuple[str, list[str], int, str, str]]) -> None:
    _, args, code, out, err = outputs[k]
    expected = 1 if args[:2] == ["validate", "sample_logs/"] else 0  # tests-invalid/ holds broken logs
    assert code == expected, (args, err)
    assert (out + err).strip(), (args, "prints nothing")
    for stream, text in (("stdout", out), ("stderr", err)):
        ends = [f"{number}: {line!r}" for number, line in enumerate(text.split("\n"), 1) if line != line.rstrip()]
        assert not ends, f"{' '.join(args)}: {stream} lines ending in blanks:\n" + "\n".join(ends[:10])


def test_the_qr_code_of_serve_has_no_blanks_at_line_ends() -> None:
    lines = qr_lines("http://192.168.1.20:8000/?token=0123456789abcdef")
    assert len(lines) > 10 and all(line == line.rstrip() for line in lines)


def test_the_console_trims_padding_and_keeps_a_cards_block() -> None:
    out = io.StringIO()
    console = TrimmedConsole(file=out, width=30, force_terminal=True, color_system="truecolor")
    table = Table("player", "jokers")
    table.add_row("Aiko", "")  # an empty last cell: the row's end is padding only
    console.print(table)
    console.print(card_text("red"))  # " rd " on red: its blanks are the card
    console.print("asks: ", end="")  # a prompt keeps its space (no newline after it)
    text = out.getvalue()
    lines = text.split("\n")
    assert all(not line.endswith(" ") for line in lines[:-1])
    assert any("Aiko" in line and line.endswith("│") for line in lines)
    assert "48;2;" in text and " rd \x1b[0m" in text  # the card's background with its padding
    assert text.endswith("asks: ")
