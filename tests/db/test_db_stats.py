"""``stats``: every figure against hand-computed ones on a tiny database; the output formats and plots."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.cli.common import install_hint
from coloretto_log.core.cards import ALL_COLOURS
from coloretto_log.db.queries.stats import Filter, report, wilson
from coloretto_log.db.store import TABLES, MatchStore

runner = CliRunner()


# --------------------------------------------------------------------------- a tiny database, by hand
#
# Match A, 2026-01-10, classic, 3 players Ann Bob Cy, 2 games, complete:
#   game 1 (Ann first): Ann 30, Bob 25, Cy 30 -> Ann and Cy share the win
#   game 2 (Bob first): Ann 20, Bob 35, Cy 10 -> Bob wins
#   totals Ann 50, Bob 60, Cy 40 -> Bob wins the match
# Match B, 2026-02-05, anniversary, 2 players Ann Dee, 1 game, complete:
#   game 1 (Dee first): Ann 15, Dee 12 -> Ann wins the game and the match
# Match C, undated, classic, 2 players Ann Dee, 2 games planned, 1 unfinished game: no score counts.


def insert(store: MatchStore, table: str, **values: Any) -> None:
    cols = [c.name for c in TABLES[table]]
    row = [values.get(c) for c in cols]
    store.execute(f"INSERT INTO {table} VALUES ({', '.join('?' * len(cols))})", row)


def game_player(store: MatchStore, match_id: str, game: int, seat: int, player: str, n: int, first: int,
                score: int | None, rank: int | None, shared: bool = False, **extra: Any) -> None:
    colours = {c: (0 if c != "purple" else None) for c in ALL_COLOURS}
    points = {f"points_{c}": (0 if c != "purple" else None) for c in ALL_COLOURS}
    values: dict[str, Any] = dict(colours, **points)
    values.update(
        match_id=match_id, game=game, seat=seat, player=player, n_players=n, turn=(seat - first) % n + 1,
        jokers=0, golden_jokers=0, plus2=0, complete=score is not None, score=score, rank=rank,
        win=None if rank is None else rank == 1, shared_win=None if rank is None else rank == 1 and shared,
        verdict=None if score is None else "no-claim",
    )
    values.update(extra)
    insert(store, "game_players", **values)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("tiny") / "tiny.duckdb"
    with MatchStore.open(db) as s:
        common = {"scoring": "standard", "under_last_round": 15, "content_hash": "x", "source_file": "hand"}
        insert(s, "matches", match_id="A", date=dt.date(2026, 1, 10), edition="classic", games_planned=2,
               players=["Ann", "Bob", "Cy"], n_players=3, games_played=2, games_complete=2, complete=True,
               winners=["Bob"], **common)
        insert(s, "matches", match_id="B", date=dt.date(2026, 2, 5), edition="anniversary", games_planned=1,
               players=["Ann", "Dee"], n_players=2, games_played=1, games_complete=1, complete=True,
               winners=["Ann"], **common)
        insert(s, "matches", match_id="C", date=None, edition="classic", games_planned=2,
               players=["Ann", "Dee"], n_players=2, games_played=1, games_complete=0, complete=False, **common)
        for mid, g, n, first, rounds, moves, complete in (
            ("A", 1, 3, 0, 8, 80, True), ("A", 2, 3, 1, 7, 76, True), ("B", 1, 2, 1, 9, 59, True), ("C", 1, 2, 0, 2, 9, False),
        ):
            insert(s, "games", match_id=mid, game=g, n_players=n, complete=complete, seeded=False, removed=[],
                   first_seat=first, first_player="?", rounds=rounds, moves=moves)
        # A game 1: Ann holds 6 green (+21), 2 jokers, 3 "+2"; Bob claims 27 (over-claimed); Ann's claim agrees
        game_player(s, "A", 1, 0, "Ann", 3, 0, 30, 1, shared=True, green=6, points_green=21, jokers=2, plus2=3,
                    claimed_score=30, verdict="agrees")
        game_player(s, "A", 1, 1, "Bob", 3, 0, 25, 3, green=1, points_green=-1, claimed_score=27, verdict="over-claimed")
        game_player(s, "A", 1, 2, "Cy", 3, 0, 30, 1, shared=True, red=4, points_red=10, golden_jokers=0, plus2=1)
        game_player(s, "A", 2, 0, "Ann", 3, 1, 20, 2, red=2, points_red=3)
        game_player(s, "A", 2, 1, "Bob", 3, 1, 35, 1, green=3, points_green=6, jokers=1, plus2=2)
        game_player(s, "A", 2, 2, "Cy", 3, 1, 10, 3)
        game_player(s, "B", 1, 0, "Ann", 2, 1, 15, 1, purple=2, points_purple=3, golden_jokers=1)
        game_player(s, "B", 1, 1, "Dee", 2, 1, 12, 2, purple=0, points_purple=0)
        game_player(s, "C", 1, 0, "Ann", 2, 0, None, None, green=5)
        game_player(s, "C", 1, 1, "Dee", 2, 0, None, None)
        for mid, seat, name, n, total, rank, win in (
            ("A", 0, "Ann", 3, 50, 2, False), ("A", 1, "Bob", 3, 60, 1, True), ("A", 2, "Cy", 3, 40, 3, False),
            ("B", 0, "Ann", 2, 15, 1, True), ("B", 1, "Dee", 2, 12, 2, False),
            ("C", 0, "Ann", 2, 0, 1, None), ("C", 1, "Dee", 2, 0, 1, None),
        ):
            insert(s, "match_players", match_id=mid, seat=seat, player=name, n_players=n,
                   games_counted=0 if mid == "C" else 2 if mid == "A" else 1, total=total, rank=rank, win=win)
    return db


def stats(db: Path, flt: Filter | None = None) -> dict[str, Any]:
    with MatchStore.open(db, read_only=True) as store:
        return report(store, flt or Filter())


def by(rows: list[dict[str, Any]], key: str) -> dict[Any, dict[str, Any]]:
    return {r[key]: r for r in rows}


def test_summary_and_players(tiny: Path) -> None:
    r = stats(tiny)
    assert r["summary"] == {
        "matches": 3, "complete_matches": 2, "games": 3, "players": 4,
        "dated_matches": 2, "first_date": "2026-01-10", "last_date": "2026-02-05",
    }
    ann = by(r["players"], "player")["Ann"]
    assert (ann["matches"], ann["complete_matches"], ann["match_wins"]) == (3, 2, 1)
    assert (ann["games"], ann["wins"], ann["shared_wins"]) == (3, 2, 1)
    assert ann["win_rate"]["rate"] == pytest.approx(2 / 3)
    assert (ann["win_rate"]["low"], ann["win_rate"]["high"]) == pytest.approx(wilson(2, 3))
    assert ann["avg_score"] == pytest.approx(65 / 3) and (ann["best_score"], ann["worst_score"]) == (30, 15)
    assert ann["avg_rank"] == pytest.approx(4 / 3)
    bob = by(r["players"], "player")["Bob"]
    assert (bob["games"], bob["wins"], bob["shared_wins"], bob["match_wins"]) == (2, 1, 0, 1)
    dee = by(r["players"], "player")["Dee"]
    assert (dee["matches"], dee["complete_matches"], dee["games"], dee["wins"]) == (2, 1, 1, 0)
    assert [p["player"] for p in r["players"]] == ["Ann", "Bob", "Cy", "Dee"]  # by win rate, then games


def test_wilson_interval_against_published_values() -> None:
    # Wilson 95% for 8 of 10: 0.4902 .. 0.9433 (Newcombe 1998, table I style); for 0 of 10: 0 .. 0.2775
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_and_first_player(tiny: Path) -> None:
    r = stats(tiny)
    seats = {(s["players"], s["seat"]): (s["games"], s["wins"]) for s in r["seats"]}
    assert seats == {(2, 0): (1, 1), (2, 1): (1, 0), (3, 0): (2, 1), (3, 1): (2, 1), (3, 2): (2, 1)}
    turns = {(t["players"], t["turn"]): (t["games"], t["wins"]) for t in r["turns"]}
    # game A1: Ann 1st (won), Bob 2nd, Cy 3rd (won); A2: Bob 1st (won), Cy 2nd, Ann 3rd; B1: Dee 1st, Ann 2nd (won)
    assert turns == {(2, 1): (1, 0), (2, 2): (1, 1), (3, 1): (2, 2), (3, 2): (2, 0), (3, 3): (2, 1)}
    assert by(r["turns"], "turn")[1]["expected"] in (1 / 2, 1 / 3)


def test_head_to_head(tiny: Path) -> None:
    r = stats(tiny)
    pairs = {(h["player"], h["opponent"]): (h["games"], h["wins"], h["losses"], h["ties"]) for h in r["head_to_head"]}
    assert pairs == {
        ("Ann", "Bob"): (2, 1, 1, 0),
        ("Ann", "Cy"): (2, 1, 0, 1),
        ("Bob", "Cy"): (2, 1, 1, 0),
        ("Ann", "Dee"): (1, 1, 0, 0),
    }
    only = stats(tiny, Filter(player="Cy"))["head_to_head"]
    assert {(h["player"], h["opponent"]): (h["wins"], h["losses"], h["ties"]) for h in only} == {
        ("Cy", "Ann"): (0, 1, 1), ("Cy", "Bob"): (1, 1, 0),
    }


def test_colours_specials_length_claims_histogram(tiny: Path) -> None:
    r = stats(tiny)
    colours = by(r["colours"], "colour")
    # green is in play in the 6 player-games of match A and 2 of match B (0 cards, not NULL, in the fixture)
    assert colours["green"]["in_play"] == 8 and colours["green"]["collected"] == 3 and colours["green"]["positive"] == 2
    assert colours["green"]["avg_points"] == pytest.approx((21 - 1 + 6) / 8)
    assert colours["green"]["avg_points_collected"] == pytest.approx((21 - 1 + 6) / 3)
    assert colours["purple"]["in_play"] == 2 and colours["purple"]["collected"] == 1
    assert colours["red"]["positive"] == 2 and colours["red"]["collected_rate"] == pytest.approx(2 / 8)
    specials = by(r["specials"], "group")
    # winners: A1 Ann and Cy, A2 Bob, B1 Ann -> jokers 2, 0, 1, 0 (+ a golden one), "+2" 3, 1, 2, 0
    assert specials["winners"]["player_games"] == 4
    assert specials["winners"]["avg_jokers"] == pytest.approx(4 / 4)
    assert specials["winners"]["avg_golden_jokers"] == pytest.approx(1 / 4)
    assert specials["winners"]["avg_plus2"] == pytest.approx(6 / 4)
    assert specials["others"]["player_games"] == 4 and specials["others"]["avg_jokers"] == 0
    length = by(r["length"], "players")
    assert (length[3]["games"], length[3]["avg_rounds"], length[3]["min_moves"], length[3]["max_moves"]) == (2, 7.5, 76, 80)
    assert (length[2]["games"], length[2]["avg_moves"]) == (1, 59)  # the unfinished game does not count
    claims = r["claims"]
    assert (claims["player_games"], claims["checked"], claims["agree"], claims["wrong"]) == (8, 2, 1, 1)
    assert (claims["score_claims"], claims["wrong_scores"]) == (2, 1)
    assert claims["by_verdict"]["over-claimed"] == 1
    h = r["histogram"]
    assert h["width"] == 2  # scores 10..35: 26 values over 20 bins
    counts = {b["low"]: b["count"] for b in h["bins"]}
    assert counts == {10: 1, 12: 1, 14: 1, 16: 0, 18: 0, 20: 1, 22: 0, 24: 1, 26: 0, 28: 0, 30: 2, 32: 0, 34: 1}


def test_filters(tiny: Path) -> None:
    assert stats(tiny, Filter(players=2))["summary"]["games"] == 1
    assert stats(tiny, Filter(edition="classic"))["summary"]["matches"] == 2
    since = stats(tiny, Filter(since=dt.date(2026, 2, 1)))
    assert since["summary"]["matches"] == 1 and [p["player"] for p in since["players"]] == ["Ann", "Dee"]
    until = stats(tiny, Filter(until=dt.date(2026, 1, 31)))
    assert until["summary"]["games"] == 2
    bob = stats(tiny, Filter(player="Bob"))
    assert [p["player"] for p in bob["players"]] == ["Bob"]
    assert bob["summary"]["games"] == 2 and bob["summary"]["players"] == 3
    assert {(s["players"], s["seat"]) for s in bob["seats"]} == {(3, 1)}
    assert stats(tiny, Filter(player="Nobody"))["summary"]["games"] == 0


# --------------------------------------------------------------------------- the command


def test_stats_json_is_the_report(tiny: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(tiny), "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["filters", "summary", "players", "seats", "turns", "head_to_head", "colours",
                          "specials", "length", "claims", "histogram", "months", "form", "rivals"]
    assert data == json.loads(json.dumps(stats(tiny)))
    one = json.loads(runner.invoke(app, ["stats", "--db", str(tiny), "-f", "json", "--report", "claims"]).stdout)
    assert list(one) == ["filters", "claims"]


def test_stats_csv(tiny: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(tiny), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["player"] for r in rows] == ["Ann", "Bob", "Cy", "Dee"]
    assert float(rows[0]["win_rate"]) == pytest.approx(2 / 3) and "win_rate_low" in rows[0]
    seats = list(csv.DictReader(io.StringIO(runner.invoke(
        app, ["stats", "--db", str(tiny), "-f", "csv", "--report", "seats", "--players", "3"]).stdout)))
    assert [(r["seat"], r["wins"]) for r in seats] == [("1", "1"), ("2", "1"), ("3", "1")]  # a spreadsheet: from 1
    as_json = json.loads(runner.invoke(app, ["stats", "--db", str(tiny), "-f", "json", "--report", "seats",
                                             "--player-count", "3"]).stdout)["seats"]
    assert [r["seat"] + 1 for r in as_json] == [int(r["seat"]) for r in seats]  # JSON: the database's index, from 0
    new = runner.invoke(app, ["stats", "--db", str(tiny), "-f", "csv", "--report", "seats", "--player-count", "3"])
    assert list(csv.DictReader(io.StringIO(new.stdout))) == seats  # --players N is the old spelling


def test_people_read_seats_from_1(tiny: Path) -> None:
    out = runner.invoke(app, ["stats", "--db", str(tiny), "--report", "seats", "--player-count", "2"]).stdout
    assert "seat 1 is the first name" in out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith("2 ")]
    assert [r[1] for r in rows if len(r) > 2] == ["1", "2"]  # players, seat, ...
    assert "2p seat 1 " in out and "2p seat 2 " in out and "seat 0" not in out


def test_stats_for_people_shows_every_report_and_the_plots(tiny: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(tiny)])
    assert result.exit_code == 0
    out = result.stdout
    for title in ("Players: games won", "Win rate by seat", "First-player advantage", "Head to head",
                  "Colours", "Jokers and", "Game length", "Claims: 2 checked of 8 player-games, 1 wrong",
                  "Scores (every player of every complete game)"):
        assert title in out, title
    assert "3p seat 1 ████████████████████" in out  # 50%: half of the 40-cell bar
    assert "30..31 ████████████████████████████████████████ 2" in out  # the tallest bin fills the bar
    nothing = runner.invoke(app, ["stats", "--db", str(tiny), "--player", "Nobody"])
    assert nothing.exit_code == 0 and "No complete game matches these filters." in nothing.stdout


def test_stats_usage_errors(tiny: Path) -> None:
    for args in (
        ["--since", "2026-13-01"], ["--players", "7"], ["--player-count", "7"], ["--players", "Aiko"],
        ["--player-count", "3", "--players", "4"], ["--edition", "deluxe"], ["--report", "nope"],
    ):
        result = runner.invoke(app, ["stats", "--db", str(tiny), *args])
        assert result.exit_code == 2, args


def test_png_needs_matplotlib_and_says_so(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    result = runner.invoke(app, ["stats", "--db", str(tiny), "--png", str(tmp_path / "s.png")])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"Error: --png needs matplotlib, which is not installed: {install_hint('plot', 'matplotlib')}"
    )
    assert not (tmp_path / "s.png").exists()


def test_png_is_an_image(tiny: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "s.png"
    result = runner.invoke(app, ["stats", "--db", str(tiny), "--png", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_every_report_has_a_renderer_and_a_new_report_is_one_entry_each(
    tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coloretto_log.db.queries import stats as db_stats
    from coloretto_log.view import stats_table

    assert [r.name for r in db_stats.REPORTS] == list(stats_table.RENDERERS)
    extra = db_stats.Report("longest", lambda rows, flt, done: rows("SELECT max(moves) FROM {g}")[0][0])
    monkeypatch.setattr(db_stats, "REPORTS", (*db_stats.REPORTS, extra))
    monkeypatch.setitem(
        stats_table.RENDERERS, "longest", lambda out, data, tr: out.print(f"Longest game: {data['longest']} moves")
    )
    data = stats(tiny)
    assert data["longest"] == max(r["max_moves"] for r in data["length"])
    result = runner.invoke(app, ["stats", "--db", str(tiny)])
    assert result.exit_code == 0, result.output
    assert f"Longest game: {data['longest']} moves" in result.stdout


def test_months_form_and_rivals_worked_by_hand(tiny: Path) -> None:
    """Finished games in order A1, A2 (2026-01-10), B1 (2026-02-05); C is unfinished. Places: Ann 1 (shared), 2, 1;
    Bob 3, 1; Cy 1 (shared), 3; Dee 2."""
    r = stats(tiny)
    assert r["months"] == [{"month": "2026-01", "matches": 1, "games": 2}, {"month": "2026-02", "matches": 1, "games": 1}]
    form = by(r["form"], "player")
    assert form["Ann"] == {"player": "Ann", "games": 3, "last": [1, 2, 1], "last_players": [3, 3, 2], "last_wins": 2,
                           "longest_streak": 1, "current_streak": 1}
    assert [(form[p]["last"], form[p]["longest_streak"], form[p]["current_streak"]) for p in ("Bob", "Cy", "Dee")] == [
        ([3, 1], 1, 1), ([1, 3], 1, 0), ([2], 0, 0)]
    rivals = by(r["rivals"], "player")
    # Ann: only Bob ever finished above her (A2: 1 of 2 games); she finished above Bob (A1), Cy (A2) and Dee (B1),
    # once each: Dee is her victim, the higher share (1 of 1)
    assert rivals["Ann"] == {"player": "Ann", "nemesis": "Bob", "nemesis_games": 2, "nemesis_above": 1,
                             "victim": "Dee", "victim_games": 1, "victim_below": 1}
    # Bob: Ann and Cy each above him once and below once in 2 games: the name decides
    assert (rivals["Bob"]["nemesis"], rivals["Bob"]["victim"]) == ("Ann", "Ann")
    assert (rivals["Dee"]["nemesis"], rivals["Dee"]["nemesis_above"], rivals["Dee"]["victim"]) == ("Ann", 1, None)
    only = stats(tiny, Filter(player="Dee"))
    assert [f["player"] for f in only["form"]] == ["Dee"] and [f["player"] for f in only["rivals"]] == ["Dee"]


def test_the_new_reports_print_and_export(tiny: Path) -> None:
    for section in ("months", "form", "rivals"):
        text = runner.invoke(app, ["stats", "--db", str(tiny), "--report", section])
        assert text.exit_code == 0, text.output
        table = runner.invoke(app, ["stats", "--db", str(tiny), "--report", section, "--format", "csv"])
        assert table.exit_code == 0
        rows = list(csv.DictReader(io.StringIO(table.stdout)))
        assert rows
    rows = list(csv.DictReader(io.StringIO(runner.invoke(
        app, ["stats", "--db", str(tiny), "--report", "form", "--format", "csv"]).stdout)))
    assert {r["player"]: r["last"] for r in rows}["Ann"] == "1 2 1"
    assert "Ann" in runner.invoke(app, ["stats", "--db", str(tiny), "--report", "rivals"]).stdout
