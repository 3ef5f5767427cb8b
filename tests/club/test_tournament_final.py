"""The final table: who is seated, how the final ranks, its refusals, and docs/tournament.md's worked example."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.club.swiss import (
    Standing,
    TableResult,
    final_seats,
    final_standings,
    parse_points,
    standings,
)

from ..conftest import ROOT

DOC = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
runner = CliRunner()


def line(place: int, player: str, points: float) -> Standing:
    return Standing(place, player, points, 0.0, 0.0, 2)


def test_the_final_ranks_the_finalists_by_its_totals_then_the_swiss() -> None:
    # Swiss: A 1st, B and C share 2nd, D 4th, E and F share 5th, G 7th
    order = [line(1, "A", 8), line(2, "B", 6), line(2, "C", 6), line(4, "D", 5), line(5, "E", 3), line(5, "F", 3), line(7, "G", 1)]
    assert final_seats(order, 4) == ("A", "B", "C", "D")
    after = final_standings(order, {"A": 90, "B": 100, "C": 100, "D": 95})
    # B and C tie at the final and share their Swiss place: they share 1st; D 3rd, A last of the finalists
    assert [(s.place, s.player, s.final) for s in after] == [
        (1, "B", 100), (1, "C", 100), (3, "D", 95), (4, "A", 90), (5, "E", None), (5, "F", None), (7, "G", None),
    ]  # fmt: skip
    # a tie at the final between players of different Swiss places goes to the better one
    after = final_standings(order, {"A": 90, "B": 90, "C": 80})
    assert [(s.place, s.player) for s in after[:4]] == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    # the rule the benchmark measures beside it: the final's placing points (4-2-1-0) added to the Swiss ones:
    # B and C 6 + (4 + 2) / 2 = 9 each, A 8 + 0, D 5 + 1
    added = final_standings(order, {"A": 90, "B": 100, "C": 100, "D": 95}, rule="adds", points=parse_points(None))
    assert [(s.place, s.player) for s in added[:4]] == [(1, "B"), (1, "C"), (3, "A"), (4, "D")]
    with pytest.raises(ValueError, match="unknown final rule"):
        final_standings(order, {"A": 1, "B": 2, "C": 3}, rule="sum")


def test_a_final_of_the_wrong_size_is_refused() -> None:
    order = [line(i + 1, p, 0) for i, p in enumerate("ABCD")]
    with pytest.raises(ValueError, match="3 to 5 players, not 2"):
        final_seats(order, 2)
    with pytest.raises(ValueError, match="needs 5 players; the tournament has 4"):
        final_seats(order, 5)


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 14), st.integers(3, 5), st.integers(0, 2**32))
def test_the_finalists_come_first_and_the_rest_keep_their_swiss_order(n: int, size: int, seed: int) -> None:
    import random

    rng = random.Random(seed)
    players = [f"p{i:02d}" for i in range(n)]
    results = [TableResult(1, t, {p: rng.randrange(3) for p in players[t * 4 - 4 : t * 4]}) for t in range(1, n // 4 + 1)]
    order = standings(players, results, parse_points(None))
    seats = final_seats(order, size)
    after = final_standings(order, {p: rng.randrange(3) for p in seats})
    assert sorted(s.player for s in after) == sorted(players)
    assert {s.player for s in after[:size]} == set(seats)
    assert [s.player for s in after[size:]] == [s.player for s in order if s.player not in seats]
    places = [s.place for s in after]
    assert places == sorted(places) and places[0] == 1
    assert all(p == i + 1 or p == places[i - 1] for i, p in enumerate(places))  # a place is its rank or shared


def commands(marker: str) -> list[str]:
    block = re.search(r"```bash\n(.*?)\n```", DOC.split(marker, 1)[1], flags=re.DOTALL)
    assert block is not None
    return block.group(1).splitlines()


def test_the_worked_final_gives_the_standings_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    after = DOC.split("<!-- worked-final:", 1)[1]
    shown = re.search(r"```text\n(.*?)\n```", after, flags=re.DOTALL)
    assert shown is not None
    monkeypatch.chdir(tmp_path)
    out = ""
    for cmd in commands("<!-- worked-example:") + commands("<!-- worked-final:"):
        args = shlex.split(cmd)
        assert args[0] == "coloretto-log"
        result = runner.invoke(app, args[1:])
        assert result.exit_code == 0, (cmd, result.output)
        out = result.output
    assert out.strip() == shown.group(1).strip()
    # the final is round 3's one table, Boris starting; a second final and a round after it are refused
    shown_round = runner.invoke(app, ["tournament", "show", "Kitchen cup", "--db", "cup.duckdb", "--json"])
    assert '"final": true' in shown_round.output and '"starter": "Boris"' in shown_round.output
    again = runner.invoke(app, ["tournament", "final", "Kitchen cup", "--db", "cup.duckdb", "--size", "4"])
    assert again.exit_code == 2 and "the final table is seated already (Boris, Emil, Chloe)" in again.output
    more = runner.invoke(app, ["tournament", "pair", "Kitchen cup", "--db", "cup.duckdb"])
    assert more.exit_code == 2 and "all 2 rounds are paired" in more.output


def test_a_final_before_the_last_round_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for cmd in commands("<!-- worked-example:")[:4]:  # made, round 1 paired and half of its results
        assert runner.invoke(app, shlex.split(cmd)[1:]).exit_code == 0
    early = runner.invoke(app, ["tournament", "final", "Kitchen cup", "--db", "cup.duckdb", "--size", "3"])
    assert early.exit_code == 2 and "round 2 of 2 is not paired yet" in early.output
    unsized = runner.invoke(app, ["tournament", "final", "Kitchen cup", "--db", "cup.duckdb"])
    assert unsized.exit_code == 2 and "final needs --size" in unsized.output


def test_a_final_that_adds_is_stored_with_its_rule_and_ranks_by_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from coloretto_log.db.club import tournaments as tour_db
    from coloretto_log.db.store import MatchStore

    monkeypatch.chdir(tmp_path)
    for cmd in commands("<!-- worked-example:")[:-1]:
        assert runner.invoke(app, shlex.split(cmd)[1:]).exit_code == 0
    bad = runner.invoke(app, ["tournament", "final", "Kitchen cup", "--db", "cup.duckdb", "--size", "4", "--rule", "best"])
    assert bad.exit_code == 2 and "--rule must be decides or adds, not 'best'" in bad.output
    with MatchStore.open(tmp_path / "cup.duckdb") as store:
        # Swiss: Emil 6, Boris 5.5, Chloe 5, Hana 5 (docs/tournament.md); the final of four: Chloe 4, Hana 2, Emil 1,
        # Boris 0. Adding: Chloe 9, Emil 7 and Hana 7 (Emil ahead: 1st in the Swiss, Hana 4th), Boris 5.5; had the
        # final decided, Hana would be second
        assert tour_db.pair_final(store, "Kitchen cup", 4, "adds")[1][0] == "Boris"  # the one finalist yet to start
        tour_db.enter_result(store, "Kitchen cup", 3, 1, {"Chloe": 110, "Hana": 100, "Emil": 90, "Boris": 80})
        tour, lines = tour_db.tournament_standings(store, "Kitchen cup")
    assert tour.final_rule == "adds"
    assert [(s.place, s.player) for s in lines[:5]] == [(1, "Chloe"), (2, "Emil"), (3, "Hana"), (4, "Boris"), (5, "Dae")]
    shown = runner.invoke(app, ["tournament", "standings", "Kitchen cup", "--db", "cup.duckdb", "--json"])
    assert '"final_rule": "adds"' in shown.output
