"""A new user's first hour, round 2 (issue 30): what tripped a newcomer, each checked as they met it."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ..builders.terminal import drain
from ..conftest import GENEROUS, ROOT, SAMPLES


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
    assert done.stderr.splitlines() == [(f"{bad}: error [bad-json] invalid JSON at line 1, column 2: expecting "
                                        "property name enclosed in double quotes")]


def test_rotate_seats_seats_each_bot_in_turn(tmp_path: Path) -> None:
    """simulate --rotate-seats: over 3 matches of 3 players each bot holds each seat once; the log's players are
    in seat order and its note says so; every log is valid; without it, each bot keeps its seat."""
    out = tmp_path / "sims.jsonl"
    done = cli("simulate", "-n", "3", "--player-count", "3", "--bots", "strong,greedy,random", "--games", "1",
               "--rotate-seats", "--no-progress", "--out", str(out))
    assert done.returncode == 0, done.stderr
    matches = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    seatings = [m["players"] for m in matches]
    assert seatings == [["strong-1", "greedy-2", "random-3"], ["random-3", "strong-1", "greedy-2"],
                        ["greedy-2", "random-3", "strong-1"]]
    assert [m["notes"] for m in matches] == [
        f"simulated: coloretto-log simulate --seed 0 --rotate-seats, match {i}" for i in (1, 2, 3)]
    assert cli("validate", str(out)).returncode == 0
    kept = tmp_path / "kept.jsonl"
    assert cli("simulate", "-n", "3", "--player-count", "3", "--bots", "strong,greedy,random", "--games", "1",
               "--no-progress", "--out", str(kept)).returncode == 0
    assert {tuple(json.loads(line)["players"]) for line in kept.read_text(encoding="utf-8").splitlines()} == {
        ("strong-1", "greedy-2", "random-3")}


def test_the_tally_counts_each_bot_wherever_it_sat() -> None:
    """The strength report of a rotated run adds each bot's results up by bot, whichever seat it held."""
    from coloretto_log.bots.simulate import Tally, make_plan, run

    plan = make_plan(players=3, bots=["strong", "greedy", "random"], games=1, rotate=True)
    outcomes = list(run(plan, 3))
    tally = Tally(plan)
    for o in outcomes:
        tally.add(o)
    points = {name: 0 for name in plan.players}
    for o in outcomes:
        for name, total in zip(plan.players_at(o.index), o.totals):
            points[name] += total
    assert {b.bot: b.points for b in tally.stats()} == {name.split("-")[0]: n for name, n in points.items()}


def test_stats_says_when_seat_figures_come_from_bots_that_kept_their_seats(tmp_path: Path) -> None:
    note = "These seats were held by one player nearly always"
    for rotate, said in ((False, True), (True, False)):
        sims, db = tmp_path / f"s{rotate}.jsonl", tmp_path / f"c{rotate}.duckdb"
        assert cli("simulate", "-n", "6", "--player-count", "3", "--bots", "greedy,random,random", "--games", "1",
                   "--no-progress", "--out", str(sims), *(["--rotate-seats"] if rotate else [])).returncode == 0
        assert cli("ingest", str(sims), "--db", str(db)).returncode == 0
        shown = cli("stats", "--db", str(db), "--report", "seats", env={**os.environ, "COLUMNS": "200"})
        assert shown.returncode == 0, shown.stderr
        assert (note in shown.stdout) is said, shown.stdout
        if said:
            assert "seat 1 of 3-player games: greedy-1 in 100.0%" in shown.stdout
        rows = json.loads(cli("stats", "--db", str(db), "--json", "--report", "seats").stdout)["seats"]
        shares = [r["most_often"]["share"] for r in rows]
        assert shares == ([1.0, 1.0, 1.0] if not rotate else [2 / 6] * 3)


def test_no_help_says_its_default_twice() -> None:
    """site --help said "(default: en). [default: en]": an option whose help names its default shows it once."""
    from typer.testing import CliRunner

    from coloretto_log.cli import COMMANDS, app

    for name in COMMANDS:
        shown = " ".join(CliRunner().invoke(app, [name, "--help"], terminal_width=200).output.split())
        assert not re.search(r"\(default:? [^)]*\)\.? ?\[default: ", shown, re.IGNORECASE), (name, shown)


GLOSSARY_WORDS = ("Wilson interval", "Contest", "μ and σ", "Weng–Lin", "Plackett–Luce", "Log-loss", "Fold",
                  "hive style", "Calibration", "Provisional", "Expected margin", "Standard error", "Seeded")


def test_the_glossary_says_every_technical_word_of_the_readme_and_help() -> None:
    """docs/glossary.md, linked from the README, has an entry for each word a player met unexplained (issue 30),
    and each of those words the README or a command's --help uses has its entry."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "(docs/glossary.md)" in readme
    entries = {m.lower() for m in re.findall(r"^\*\*([^*]+)\*\*", glossary, re.MULTILINE)}
    for word in GLOSSARY_WORDS:
        assert any(word.lower() in e for e in entries), word
    helps = " ".join(cli(name, "--help").stdout for name in ("ratings", "simulate", "analyze", "stats", "export"))
    for word in ("Plackett", "Weng", "Wilson", "log-loss", "contest", "hive"):
        if word.lower() in (readme + helps).lower():
            assert word.lower() in glossary.lower(), word


def test_the_readme_reads_for_players_first() -> None:
    """The engineers' figures moved to docs/performance.md and the tests' history to docs/development.md (issue 44);
    the test command says in one line how long the suite takes."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/performance.md)" in readme and "| validate, seeded logs |" in (
        ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    after = readme[readme.index("pytest -q -n auto"):].split("\n\n", 2)[1]  # the paragraph after the command
    assert "The whole suite takes" in after and "2-core" in after and len(after.splitlines()) <= 2
    assert "The whole suite took" in (ROOT / "docs" / "development.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Dated club matches and undated simulated ones, as a club that tried simulate first has them."""
    work = tmp_path_factory.mktemp("club")
    sims = work / "sims.jsonl"
    assert cli("simulate", "-n", "6", "--player-count", "3", "--games", "1", "--no-progress",
               "--out", str(sims)).returncode == 0
    db = work / "club.duckdb"
    assert cli("ingest", str(sims), str(SAMPLES), "--db", str(db)).returncode == 0
    return db


#: Every command that prints a table, and its table (a {db} in an argument is the club's database). Every log
#: and language: tests/cli/test_narrow_outputs.py.
TABLES = {
    "validate": ["validate", str(SAMPLES)],
    "score": ["score", "sample_logs"],  # as a user names them (a file name wider than the line overflows it)
    "replay": ["replay", "sample_logs/classic-4p-recorded-match-with-claims.json"],
    "replay --moves": ["replay", "sample_logs/5p-seeded-games.jsonl", "--moves"],
    "analyze": ["analyze", "sample_logs/classic-2p-recorded-game.json", "--samples", "2", "--max-se", "0"],  # 3 s, not 13
    "deal": ["deal", "--seed", "1", "--player-count", "5"],
    "stats": ["stats", "--db", "{db}"],
    "query": ["query", *GENEROUS, "--db", "{db}", "SELECT * FROM games ORDER BY match_id LIMIT 5"],
    "ratings": ["ratings", "--db", "{db}"],
    "ratings --history": ["ratings", "--db", "{db}", "--history", "Chloe"],
    "ratings --predict": ["ratings", "--db", "{db}", "--predict", "Aiko,Boris,Chloe"],
    "ratings --backtest": ["ratings", "--db", "{db}", "--backtest"],
}


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("name", list(TABLES))
def test_tables_piped_fit_the_width(name: str, columns: int, club: Path) -> None:
    """Piped (as into less) at COLUMNS=80 and 120: no line wider than the width."""
    args = [a.replace("{db}", str(club)) for a in TABLES[name]]
    done = cli(*args, env={**os.environ, "COLUMNS": str(columns)})
    assert done.returncode == 0, done.stderr
    wide = [line for line in (done.stdout + done.stderr).splitlines() if len(line.rstrip()) > columns]
    assert not wide, wide[:3]


@pytest.mark.parametrize("columns", [80, 120])
def test_a_players_history_is_one_line_a_contest(columns: int, club: Path) -> None:
    """ratings --history piped at 80 columns: one line a contest, numbered 1, 2, ... within the player's own
    history, match ids shortened (never folded onto a second line), footnotes wrapped."""
    done = cli("ratings", "--db", str(club), "--history", "Chloe", env={**os.environ, "COLUMNS": str(columns)})
    data = json.loads(cli("ratings", "--db", str(club), "--history", "Chloe", "--json").stdout)["history"]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Rating of Chloe after each of {len(data)} contests")
    rows = [line for line in lines if re.match(r"^\s*\d+\s{3}", line)]
    assert [int(r.split()[0]) for r in rows] == list(range(1, len(data) + 1))  # one line each, from 1
    for row, d in zip(rows, data):
        shown = row.split()[2]
        whole = d["match_id"][len(d["date"]) + 1:] if d["date"] and d["match_id"].startswith(d["date"] + "-") \
            else d["match_id"]
        assert shown == whole or (shown.endswith("…") and whole.startswith(shown[:-1])), (shown, whole)
    assert all(len(line.rstrip()) <= columns for line in lines)


def test_ingest_summary_wraps_between_words(tmp_path: Path) -> None:
    """On a terminal 120 columns wide the summary's final "." stayed alone on a line; now it breaks between
    words at the terminal's width, and piped at COLUMNS (programs read --json)."""
    for columns in (60, 120):
        db = tmp_path / f"c{columns}.duckdb"
        leader, follower = pty.openpty()
        proc = subprocess.Popen([sys.executable, "-m", "coloretto_log", "ingest", str(SAMPLES), "--db", str(db)],
                                stdout=follower, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=ROOT,
                                env={**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"})  # fmt: skip
        os.close(follower)
        shown = drain(leader).decode("utf-8")
        assert proc.wait(timeout=300) == 0
        lines = re.sub(r"\x1b\[[0-9;]*m", "", shown).replace("\r\n", "\n").splitlines()  # bold, as styled
        lines = lines[next(i for i, line in enumerate(lines) if line.startswith("Ingest: ")):]  # the summary
        assert len(lines) >= 2 and all(len(line) <= columns or " " not in line for line in lines), lines
        assert all(line.strip() not in (".", "written.") for line in lines), lines
    piped = cli("ingest", str(SAMPLES), "--db", str(tmp_path / "piped.duckdb"), env={**os.environ, "COLUMNS": "60"})
    summary = piped.stdout[: piped.stdout.index("games written.") + len("games written.")].splitlines()
    assert len(summary) >= 2 and all(len(line) <= 60 for line in summary), summary


def test_the_ratings_chart_keeps_the_dated_season_apart_from_undated_matches(club: Path) -> None:
    """Undated simulated matches first, then the club's dated evenings: the chart draws the undated contests in
    a panel of their own, so the dated panel's axis spans only the club's days; the ± 2σ bands are visible."""
    pytest.importorskip("matplotlib")
    import datetime as dt

    from coloretto_log.cli import ratings as cli_ratings
    from coloretto_log.view import ratings_plot

    seen: dict[str, object] = {}
    real = ratings_plot.ratings_figure

    def spy(plt: object, series: object, **kw: object) -> object:
        fig = real(plt, series, **kw)  # type: ignore[arg-type]
        seen["axes"] = [(a.get_title(), a.get_xlim()) for a in fig.axes]
        seen["alpha"] = [c.get_alpha() for a in fig.axes for c in a.collections]
        return fig

    ratings_plot.ratings_figure = spy  # type: ignore[assignment]
    try:
        from typer.testing import CliRunner

        result = CliRunner().invoke(cli_ratings.app, ["ratings", "--db", str(club), "--png", str(club.with_suffix(".png"))])
    finally:
        ratings_plot.ratings_figure = real
    assert result.exit_code == 0, result.output
    axes = dict(seen["axes"])  # type: ignore[call-overload]
    assert set(axes) == {"undated matches", "dated matches"}
    import matplotlib.dates as mdates

    low, high = (mdates.num2date(x).date() for x in axes["dated matches"])
    first, last = dt.date(2026, 1, 1), dt.date(2026, 12, 31)  # the samples' dates: all in 2026
    assert first <= low and high <= last + dt.timedelta(days=1), (low, high)
    assert min(a for a in seen["alpha"] if a is not None) >= ratings_plot.BAND_ALPHA >= 0.15  # type: ignore[attr-defined]
