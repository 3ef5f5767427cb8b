"""club.advice: the director's recommendation, its rule, docs/tournament.md's table of it, and tournament new --hours."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.club import advice
from coloretto_log.club.advice import advice_table, recommend

from ..conftest import ROOT

DOC = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
runner = CliRunner()


def test_every_round_that_fits_goes_to_the_swiss_where_a_final_is_no_clear_gain() -> None:
    # 3 hours of 40-minute rounds: 4.5 rounds, so 4; 16 players' figures: 64% alone, 55% with 3 rounds and a final
    got = recommend(16, 3)
    assert (got.rounds, got.final, got.strongest_wins) == (4, None, 0.64)
    assert got.text().startswith("Recommended for 16 players in 3 hours: 4 rounds, no final table.")
    assert recommend(16, 2.5, round_minutes=50).rounds == 3
    with pytest.raises(ValueError, match="hold no round"):
        recommend(16, 0.5)


def test_a_final_is_advised_where_its_measured_gain_is_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    # a made-up measurement: with 3 rounds the final clearly gains (interval above 0) and beats a 4th round
    monkeypatch.setattr(advice, "MEASURED", {(16, 3): (0.50, 0.70, 0.05), (16, 4): (0.60, 0.55, -0.1)})
    got = recommend(16, 3)
    assert (got.rounds, got.final, got.strongest_wins) == (3, 4, 0.70)
    # the same figures but a gain within the noise: the Swiss keeps the round
    monkeypatch.setattr(advice, "MEASURED", {(16, 3): (0.50, 0.70, -0.01), (16, 4): (0.60, 0.55, -0.1)})
    assert recommend(16, 3).final is None
    # rounds never measured: all that fit, said so
    assert "only 3 to 6 rounds were measured" in recommend(16, 8).reason


def test_the_docs_table_is_the_recommendation() -> None:
    section = DOC.split("### How many rounds, and a final?", 1)[1]
    heads = re.search(r"^\| players \| (.*) \|$", section, flags=re.MULTILINE)
    assert heads is not None
    hours = [float(h.split()[0]) for h in heads.group(1).split(" | ")]
    rows = re.findall(r"^\| (\d+) \| (.*) \|$", section, flags=re.MULTILINE)
    assert [int(n) for n, _ in rows] == [12, 16, 24, 40]
    wanted = {(a.players, a.hours): a for a in advice_table()}
    for n, cells in rows:
        for h, cell in zip(hours, cells.split(" | "), strict=True):
            a = wanted[int(n), h]
            final = f" + final of {a.final}" if a.final else ""
            assert cell == f"{a.rounds} rounds{final} ({a.strongest_wins:.0%})", (n, h)


def test_tournament_new_prints_the_recommendation_and_plays_its_rounds(tmp_path: Path) -> None:
    db = str(tmp_path / "cup.duckdb")
    people = ",".join(f"P{i:02d}" for i in range(16))
    made = runner.invoke(app, ["tournament", "new", "Cup", "--db", db, "--players", people, "--hours", "3"])
    assert made.exit_code == 0, made.output
    assert "Recommended for 16 players in 3 hours: 4 rounds, no final table." in " ".join(made.output.split())
    shown = runner.invoke(app, ["tournament", "show", "Cup", "--db", db, "--json"])
    assert json.loads(shown.output)["rounds"] == 4
    short = runner.invoke(app, ["tournament", "new", "Cup2", "--db", db, "--players", people, "--hours", "0.5"])
    assert short.exit_code == 2 and "0.5 hours hold no round of 40 minutes" in short.output
