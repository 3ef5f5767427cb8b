"""``tournament`` and ``tables`` end to end on a simulated club day: logs played by bots, results, standings."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from coloretto_log import score_match
from coloretto_log.cli import app
from coloretto_log.club.swiss import TableResult, parse_points, standings

from ..builders.tournament import ROSTER, table_match

runner = CliRunner()
NAME = "Autumn open"
PLAYERS = list(ROSTER)[:10]


def cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


def ok_json(*args: str) -> Any:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def totals_of(data: dict[str, Any]) -> dict[str, int]:
    """The match totals, computed here from the log (not from the database)."""
    scored = score_match(data)
    assert scored.complete
    return {s.player: s.total for s in scored.standings}


def snapshot(db: Path) -> list[Any]:
    with duckdb.connect(str(db), read_only=True) as con:
        names = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall()]
        return [(n, con.execute(f"SELECT * FROM {n} ORDER BY ALL").fetchall()) for n in names]


@pytest.fixture(scope="module")
def club_day(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[int, int], dict[str, int]], list[list[list[str]]]]:
    """Three rounds of ten players: every table played by bots and added from its log, but one entered by hand."""
    folder = tmp_path_factory.mktemp("club")
    db = folder / "club.duckdb"
    made = cli("tournament", "new", NAME, "--db", str(db), "--players", ",".join(PLAYERS), "--rounds", "3",
               "--first-round", "random", "--seed", "7")  # fmt: skip
    assert made.exit_code == 0, made.output
    results: dict[tuple[int, int], dict[str, int]] = {}
    rounds: list[list[list[str]]] = []
    for r in (1, 2, 3):
        paired = ok_json("tournament", "pair", NAME, "--db", str(db))
        assert paired["round"] == r
        tables = [t["players"] for t in paired["tables"]]
        rounds.append(tables)
        logs = []
        for t, table in enumerate(tables, 1):
            data = table_match(table, r * 10 + t, event={"name": NAME, "round": r, "table": t})
            results[r, t] = totals_of(data)
            if (r, t) == (2, 1):  # this table did not record: its totals typed in
                scores = ",".join(f"{p}={v}" for p, v in results[r, t].items())
                entered = cli("tournament", "result", NAME, "--db", str(db), "--round", "2", "--at-table", "1", "--scores", scores)
                assert entered.exit_code == 0, entered.output
                continue
            path = folder / f"r{r}t{t}.json"
            path.write_text(json.dumps(data), encoding="utf-8")
            logs.append(str(path))
        added = cli("tournament", "add", NAME, *logs, "--db", str(db))
        assert added.exit_code == 0, added.output
    return db, results, rounds


def test_every_round_seats_everyone_once_at_tables_of_four_or_five(club_day: Any) -> None:
    _, _, rounds = club_day
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == sorted(PLAYERS)
        assert sorted(len(t) for t in tables) == [5, 5]  # 10 people: two tables of five (closest to four)


def test_later_rounds_repeat_no_more_meetings_than_the_tables_force(club_day: Any) -> None:
    _, _, rounds = club_day
    # Round 2: two tables of five drawn from two tables of five: each old table sends at least 3 to one new
    # table, so at least 3 pairs meet again at each new table... counted here by brute force over all splits.
    met = {frozenset(pair) for t in rounds[0] for pair in combinations(t, 2)}
    again = sum(1 for t in rounds[1] for pair in combinations(t, 2) if frozenset(pair) in met)
    fewest = min(
        sum(1 for pair in combinations(a, 2) if frozenset(pair) in met)
        + sum(1 for pair in combinations([p for p in PLAYERS if p not in a], 2) if frozenset(pair) in met)
        for a in combinations(PLAYERS, 5)
    )
    assert again == fewest


def test_standings_follow_the_stated_rules_from_the_logs(club_day: Any) -> None:
    db, results, _ = club_day
    got = ok_json("tournament", "standings", NAME, "--db", str(db))
    assert got["ignored"] == [] and got["results"] == 6
    expected = standings(PLAYERS, [TableResult(r, t, v) for (r, t), v in sorted(results.items())], parse_points(None))
    assert [(s["place"], s["player"], s["points"]) for s in got["standings"]] == [(s.place, s.player, s.points) for s in expected]
    # every table hands out its placing points: 4-2.5-1.5-0.75-0 at a table of five
    assert sum(s["points"] for s in got["standings"]) == pytest.approx(6 * (4 + 2.5 + 1.5 + 0.75 + 0))
    assert all(s["played"] == 3 for s in got["standings"])
    keys = [(-s["points"], -s["against"], -s["opponents"]) for s in got["standings"]]
    assert keys == sorted(keys)


def test_standings_as_csv_and_a_table(club_day: Any) -> None:
    db, _, _ = club_day
    out = cli("tournament", "standings", NAME, "--db", str(db), "--format", "csv")
    rows = list(csv.reader(io.StringIO(out.output)))
    assert rows[0] == ["place", "player", "points", "against", "opponents", "played"] and len(rows) == 11
    table = cli("tournament", "standings", NAME, "--db", str(db))
    assert table.exit_code == 0 and "Tie-breaks" in table.output
    shown = ok_json("tournament", "show", NAME, "--db", str(db))
    assert next(t["result"]["source"] for t in shown["paired"][1]["tables"]) == "by hand"


def test_every_player_starts_within_one_of_their_share(club_day: Any) -> None:
    _, _, rounds = club_day
    starts = {p: 0 for p in PLAYERS}
    share = {p: 0.0 for p in PLAYERS}
    for tables in rounds:
        for t in tables:
            starts[t[0]] += 1
            for p in t:
                share[p] += 1 / len(t)
    assert all(abs(starts[p] - share[p]) <= 1 for p in PLAYERS)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["tournament", "pair", NAME, "--round", "3"], "round 3 is paired already"),
        (["tournament", "pair", NAME], "all 3 rounds are paired"),
        (["tournament", "result", NAME, "--round", "3", "--at-table", "3", "--scores", "Aiko=3"], "round 3, table 3 was not paired"),
        (["tournament", "result", NAME, "--round", "1", "--at-table", "1", "--scores", "Aiko=3,Aiko=4"], "names 'Aiko' twice"),
        (["tournament", "new", NAME, "--players", "Aiko,Boris,Chloe"], "exists already"),
        (["tournament", "new", "Other", "--players", "Aiko,Boris"], "fewer than the smallest table (3)"),
        (["tournament", "new", "Other", "--players", "Aiko,Boris,Chloe,Aiko"], "'Aiko' is named twice"),
        (["tournament", "standings", "Nope"], "no such tournament"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(club_day: Any, args: list[str], says: str) -> None:
    db = club_day[0]
    before = snapshot(db)
    result = cli(*args, "--db", str(db))
    assert result.exit_code == 2, result.output
    assert says in result.output and result.output.count("\n") == 1 and "Traceback" not in result.output
    assert snapshot(db) == before


def test_a_log_of_another_event_or_table_is_refused_and_nothing_stored(club_day: Any, tmp_path: Path) -> None:
    db = club_day[0]
    before = snapshot(db)
    _, _, rounds = club_day
    good = tmp_path / "good.json"
    good.write_text(json.dumps(table_match(rounds[0][0], 99, event={"name": "Spring open", "round": 1, "table": 1})))
    result = cli("tournament", "add", NAME, str(good), "--db", str(db))
    assert result.exit_code == 2 and "a log of another event ('Spring open', not 'Autumn open')" in result.output
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(table_match(rounds[0][0], 98, event={"name": NAME, "round": 4, "table": 1})))
    result = cli("tournament", "add", NAME, str(wrong), "--db", str(db))
    assert result.exit_code == 2 and "round 4, table 1 was not paired" in result.output
    again = tmp_path / "again.json"
    again.write_text(json.dumps(table_match(rounds[0][0], 97, event={"name": NAME, "round": 1, "table": 1})))
    result = cli("tournament", "add", NAME, str(again), "--db", str(db))
    assert result.exit_code == 2 and "has a result already" in result.output
    assert snapshot(db) == before


def test_a_refused_new_tournament_leaves_no_database(tmp_path: Path) -> None:
    db = tmp_path / "new.duckdb"
    result = cli("tournament", "new", "Cup", "--db", str(db), "--players", "Aiko,Boris,Chloe,Boris")
    assert result.exit_code == 2 and "'Boris' is named twice" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_round_is_not_paired_before_the_last_one_has_its_results(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    assert cli("tournament", "new", "Small", "--db", str(db), "--players", "Aiko,Boris,Chloe,Dae", "--rounds", "2").exit_code == 0
    assert cli("tournament", "pair", "Small", "--db", str(db)).exit_code == 0
    result = cli("tournament", "pair", "Small", "--db", str(db))
    assert result.exit_code == 2 and "round 1 has no result yet at table 1" in result.output


def test_tables_on_the_club_day_database(club_day: Any, tmp_path: Path) -> None:
    db, _, rounds = club_day
    people = PLAYERS[:7]
    got = ok_json("tables", ",".join(people), "--db", str(db), "--seed", "3")
    tables = [t["players"] for t in got["tables"]]
    assert sorted(len(t) for t in tables) == [3, 4]
    assert sorted(p for t in tables for p in t) == sorted(people)
    assert all(t["starter"] == t["players"][0] for t in got["tables"])
    assert got["evenings"] == ["2026-12-05"]
    # the fewest earlier meetings (a pair that met twice counts twice) in the day's recorded matches (round 2,
    # table 1 was entered by hand: no match in the database), over every split of the seven into four and three
    recorded = [t for r, tables_ in enumerate(rounds, 1) for i, t in enumerate(tables_, 1) if (r, i) != (2, 1)]
    met = Counter(frozenset(pair) for t in recorded for pair in combinations(t, 2))

    def meetings(table: Sequence[str]) -> int:
        return sum(met[frozenset(pair)] for pair in combinations(table, 2))

    fewest = min(meetings(a) + meetings([p for p in people if p not in a]) for a in combinations(people, 4))
    assert got["meetings_again"] == fewest == sum(meetings(t) for t in tables)
    assert got["repeated_pairs"] == sum(1 for t in tables for pair in combinations(t, 2) if met[frozenset(pair)])
    page = tmp_path / "tonight.html"
    result = cli("tables", ",".join(people), "--db", str(db), "--html", str(page), "--host", "192.0.2.7", "--event", "Friday")
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 2 and "http://192.0.2.7:8801/?t=" in text and "--at-table 2" in text
    assert len(list(tmp_path.glob(".friday-t*.json.serve-token"))) == 2
    refused = cli("tables", ",".join(people), "--db", str(db), "--html", str(page))
    assert refused.exit_code == 3 and page.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("people", "extra", "says"),
    [
        ("Aiko,Boris", [], "fewer than the smallest table (3)"),
        ("Aiko,Boris,Aiko", [], "'Aiko' is named twice"),
        ("Aiko,Boris,Chloe", ["--mix", "--by-rating"], "one of --mix and --by-rating"),
    ],
)
def test_tables_bad_input(tmp_path: Path, people: str, extra: list[str], says: str) -> None:
    result = cli("tables", people, "--db", str(tmp_path / "none.duckdb"), *extra)
    assert result.exit_code == 2 and says in result.output
    assert list(tmp_path.iterdir()) == []


def test_two_player_tables_only_when_asked(tmp_path: Path) -> None:
    got = ok_json("tables", "Aiko,Boris", "--db", str(tmp_path / "none.duckdb"), "--sizes", "2,3,4,5")
    assert [t["players"] for t in got["tables"]] and len(got["tables"][0]["players"]) == 2
