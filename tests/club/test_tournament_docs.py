"""docs/tournament.md: the worked example's commands give the standings printed there; its tables agree with the code."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.club.split import table_sizes
from coloretto_log.club.swiss import parse_points

from ..conftest import ROOT

DOC = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
runner = CliRunner()


def test_the_worked_example_gives_the_standings_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    after = DOC.split("<!-- worked-example:", 1)[1]
    commands = re.search(r"```bash\n(.*?)\n```", after, flags=re.DOTALL)
    shown = re.search(r"```text\n(.*?)\n```", after, flags=re.DOTALL)
    assert commands is not None and shown is not None
    monkeypatch.chdir(tmp_path)
    out = ""
    for line in commands.group(1).splitlines():
        args = shlex.split(line)
        assert args[0] == "coloretto-log"
        result = runner.invoke(app, args[1:])
        assert result.exit_code == 0, (line, result.output)
        out = result.output
    assert out.strip() == shown.group(1).strip()


def test_the_round_tables_of_the_example_are_those_paired(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    after = DOC.split("<!-- worked-example:", 1)[1]
    commands = re.search(r"```bash\n(.*?)\n```", after, flags=re.DOTALL)
    assert commands is not None
    lines = commands.group(1).splitlines()
    for line in lines[:-1]:
        assert runner.invoke(app, shlex.split(line)[1:]).exit_code == 0
    result = runner.invoke(app, ["tournament", "show", "Kitchen cup", "--db", "cup.duckdb", "--json"])
    rounds = [[t["players"] for t in r["tables"]] for r in json.loads(result.output)["paired"]]
    assert rounds == [
        [["Emil", "Boris", "Dae", "Fay"], ["Hana", "Chloe", "Gus", "Aiko"]],
        [["Chloe", "Emil", "Gus", "Boris"], ["Aiko", "Fay", "Hana", "Dae"]],
    ]


def test_the_table_of_sizes_is_the_rule() -> None:
    rows = re.findall(r"^\| (\d+) \| ([\d, ]+) \| \| (\d+) \| ([\d, ]+) \|$", DOC, flags=re.MULTILINE)
    assert len(rows) == 7
    for row in rows:
        for n, sizes in ((row[0], row[1]), (row[2], row[3])):
            assert table_sizes(int(n)) == tuple(int(s) for s in sizes.split(", "))


def test_the_table_of_placing_points_is_the_default() -> None:
    points = parse_points(None)
    section = DOC.split("### Placing points", 1)[1]
    for n in (3, 4, 5):
        row = re.search(rf"^\| {n} \| (.*) \|$", section, flags=re.MULTILINE)
        assert row is not None
        assert tuple(float(x) for x in row.group(1).split("|") if x.strip()) == points[n]
