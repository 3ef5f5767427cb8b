"""Simulated matches: seeds, both log forms, byte-identical output for any --jobs, the strength report, the CLI."""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.bots import simulate as sim
from coloretto_log.bots.simulate import Outcome, Tally, make_plan, wilson
from coloretto_log.cli import app
from coloretto_log.core.engine import Draw, Take
from coloretto_log.core.errors import UsageError
from coloretto_log.core.rng import SplitMix64
from coloretto_log.log.replay import check_match
from coloretto_log.log.writer import dumps_line

runner = CliRunner()


# --------------------------------------------------------------------------- seeds


def test_match_seeds_are_the_run_generators_outputs() -> None:
    g = SplitMix64(20261129)
    assert [sim.match_seed(20261129, i) for i in range(5)] == [g.next() for _ in range(5)]
    # golden values: SplitMix64(0)'s first outputs (docs/format.md §4)
    assert sim.match_seed(0, 0) == 0xE220A8397B1DCDAF
    assert sim.match_seed(0, 2) == 0x06C45D188009454F
    top = SplitMix64(2**64 - 1)
    assert [sim.match_seed(2**64 - 1, i) for i in range(3)] == [top.next() for _ in range(3)]  # wraps mod 2^64


def test_bot_seeds_follow_the_documented_formula() -> None:
    m = 0x1234_5678_9ABC_DEF0
    g = SplitMix64(m ^ sim.BOT_SALT)
    outputs = [g.next() for _ in range(4 * 5)]
    for game in range(4):
        for seat in range(5):
            assert sim.bot_seed(m, game, seat) == outputs[5 * game + seat]
    assert sim.BOT_SALT == int.from_bytes(b"bot-seed", "big")


def test_a_match_does_not_depend_on_the_other_matches_of_the_run() -> None:
    plan = make_plan(bots=["greedy", "random", "greedy", "random"], games=1, seed=5)
    alone = sim.outcome(plan, 7)
    in_run = list(sim.run(plan, 3, start=6))[1]
    assert alone == in_run


# --------------------------------------------------------------------------- plans


def test_default_bots_and_player_names() -> None:
    plan = make_plan()
    assert plan.bots == ("strong", "greedy", "random", "greedy")
    assert plan.players == ("strong-1", "greedy-2", "random-3", "greedy-4")
    assert make_plan(players=2).bots == ("strong", "greedy")
    assert make_plan(players=3, bots=["greedy"]).bots == ("greedy",) * 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 6}, "--players must be 2, 3, 4 or 5"),
        ({"bots": ["greedy", "oracle", "random", "greedy"]}, "unknown bot 'oracle'"),
        ({"bots": ["greedy", "random"]}, "names 2 bots for 4 players"),
        ({"edition": "deluxe"}, "--edition"),
        ({"table": "fancy"}, "--table"),
        ({"games": 0}, "--games"),
        ({"seed": -1}, "--seed"),
        ({"seed": 2**64}, "--seed"),
    ],
)
def test_bad_plans_are_usage_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make_plan(**kwargs)


# --------------------------------------------------------------------------- both forms


def replayed(line: str) -> Any:
    report = check_match(json.loads(line))
    assert report.valid and report.complete, [f.line("sim") for f in report.all_findings()]
    assert report.all_findings() == []  # not even a warning
    return report


@pytest.mark.parametrize(
    ("players", "edition", "table", "bots"),
    [
        (4, "classic", "standard", ["strong", "greedy", "random", "greedy"]),
        (2, "anniversary", "standard", ["strong", "random"]),
        (3, "classic", "alternative", ["greedy", "strong", "random"]),
        (5, "anniversary", "alternative", ["random", "greedy", "random", "greedy", "strong"]),
    ],
)
def test_both_forms_validate_and_replay_to_the_same_games(players: int, edition: str, table: str, bots: list[str]) -> None:
    seeded = make_plan(players=players, bots=bots, edition=edition, table=table, games=2, seed=players)
    recorded = make_plan(players=players, bots=bots, edition=edition, table=table, games=2, seed=players, recorded=True)
    for index in range(2):
        played = sim.play_match(seeded, index)
        a = replayed(sim.outcome(seeded, index).line)
        b = replayed(sim.outcome(recorded, index).line)
        assert len(a.games) == len(b.games) == 2
        for game, ra, rb in zip(played.games, a.games, b.games):
            assert list(ra.moves) == list(rb.moves) == list(game.moves)  # resolved moves, cards included
            assert ra.final == game.final
            assert rb.final == game.final._replace(deck=None)  # a recorded game's deck is unknown
            assert rb.setup is not None and rb.setup.deck is None


def test_seeded_form_holds_the_seed_and_the_decisions_only() -> None:
    plan = make_plan(edition="anniversary", bots=["greedy"], games=2, seed=3)
    log = json.loads(sim.outcome(plan, 0).line)
    assert log["seed"] == sim.match_seed(3, 0)
    assert log["players"] == ["greedy-1", "greedy-2", "greedy-3", "greedy-4"]
    assert log["rules"] == {"edition": "anniversary", "scoring": "standard", "games": 2}
    for game in log["games"]:
        assert game["setup"] == {}
        for move in game["moves"]:
            assert set(move) == {"player", "action", "row"}


def test_recorded_form_holds_every_card_and_no_seed() -> None:
    plan = make_plan(edition="anniversary", bots=["greedy"], games=4, seed=3, recorded=True)
    played = sim.play_match(plan, 0)
    log = json.loads(sim.outcome(plan, 0).line)
    assert "seed" not in log
    extras = 0
    for game, logged in zip(played.games, log["games"]):
        assert set(logged["setup"]) == {"removed", "starting", "first"}
        for move, m in zip(game.moves, logged["moves"]):
            if isinstance(move, Draw):
                assert m["card"] == move.card
                assert m.get("last_round", False) == move.last_round
            else:
                assert isinstance(move, Take)
                assert m.get("extra") == move.extra
                extras += move.extra is not None
    assert extras > 0  # some golden joker was taken in four games


@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]))
@settings(max_examples=10, deadline=None)
def test_any_seed_gives_valid_logs(seed: int, players: int, edition: str) -> None:
    for recorded in (False, True):
        bots = ["greedy", "random", "greedy", "random", "greedy"][:players]
        plan = make_plan(players=players, bots=bots, edition=edition, games=1, seed=seed, recorded=recorded)
        replayed(sim.outcome(plan, 0).line)


@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]),
       recorded=st.booleans(), date=st.sampled_from([None, _dt.date(2026, 11, 1)]), index=st.integers(0, 5000))
@settings(max_examples=25, deadline=None)
def test_the_log_line_is_the_match_log_as_compact_json(
    seed: int, players: int, edition: str, recorded: bool, date: _dt.date | None, index: int
) -> None:
    """``log_line`` (each distinct move's text made once) writes exactly ``dumps_line(match_log(...))``."""
    bots = ["random", "greedy", "random", "greedy", "random"][:players]
    plan = make_plan(players=players, bots=bots, edition=edition, games=2, seed=seed, recorded=recorded, date=date)
    played = sim.play_match(plan, index)
    assert sim.log_line(plan, played) == dumps_line(sim.match_log(plan, played))
    assert sim.outcome(plan, index).line == sim.log_line(plan, played)


# --------------------------------------------------------------------------- jobs


def test_the_same_seed_gives_the_same_outcomes_whatever_the_jobs() -> None:
    plan = make_plan(bots=["greedy", "random", "strong", "greedy"], games=1, seed=11)
    one = list(sim.run(plan, 6, jobs=1))
    two = list(sim.run(plan, 6, jobs=2))
    assert one == two
    assert [o.index for o in two] == list(range(6))


# --------------------------------------------------------------------------- strength


def test_wilson_interval_known_values() -> None:
    # Wilson (1927); e.g. 8 of 10: 0.4902 .. 0.9433
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 50)
    assert lo == 0.0 and 0.07 < hi < 0.072
    lo, hi = wilson(50, 50)
    assert hi == 1.0 and 0.928 < lo < 0.93


def test_shared_wins_count_for_every_seat_that_shares_them() -> None:
    plan = make_plan(bots=["greedy", "random", "greedy", "random"], games=2)
    tally = Tally(plan)
    tally.add(Outcome(0, 0, "", ((10, 5, 7, 1), (2, 7, 5, 0))))  # totals 12 12 12 1: three share
    tally.add(Outcome(1, 0, "", ((30, 5, 7, 1), (2, 7, 5, 0))))  # seat 0 alone
    stats = {b.bot: b for b in tally.stats()}
    assert tally.shared_matches == 1
    assert (stats["greedy"].entries, stats["greedy"].wins, stats["greedy"].shared) == (4, 3, 2)
    assert (stats["random"].entries, stats["random"].wins, stats["random"].shared) == (4, 1, 1)
    assert stats["greedy"].points == 12 + 12 + 32 + 12
    assert stats["greedy"].games == 8


def strength(bots: list[str], matches: int, games: int, seed: int) -> Tally:
    plan = make_plan(bots=bots, games=games, seed=seed)
    tally = Tally(plan)
    for o in sim.run(plan, matches):
        tally.add(o)
    return tally


def test_greedy_beats_random_with_separate_intervals() -> None:
    tally = strength(["random", "greedy", "random", "greedy"], matches=60, games=2, seed=1)
    (first, above), (second, _) = tally.ranking()
    assert (first.bot, second.bot) == ("greedy", "random")
    assert above and first.low > second.high  # 95% intervals apart: what the sample supports
    assert first.mean_game > second.mean_game + 5


def test_strong_beats_greedy_with_separate_intervals() -> None:
    tally = strength(["greedy", "strong", "greedy", "greedy"], matches=36, games=2, seed=2)
    (first, above), (second, _) = tally.ranking()
    assert (first.bot, second.bot) == ("strong", "greedy")
    assert (first.entries, second.entries) == (36, 108)
    assert above and first.low > second.high
    assert first.mean_game > second.mean_game


def test_summary_json_ranks_the_bots() -> None:
    tally = strength(["strong", "greedy", "random", "greedy"], matches=3, games=1, seed=4)
    summary = tally.summary_json()
    assert list(summary) == ["matches", "games", "players", "rules", "seed", "form", "shared_wins", "bots"]
    assert [b["bot"] for b in summary["bots"]][-1] == "random"
    assert summary["bots"][-1]["above_next"] is None
    for b in summary["bots"]:
        assert list(b) == [
            "bot", "seats", "entries", "wins", "shared_wins", "win_rate", "win_rate_ci95",
            "games", "mean_match_score", "mean_game_score", "above_next",
        ]


# --------------------------------------------------------------------------- the command


def test_cli_writes_json_lines_to_stdout_and_the_summary_to_stderr() -> None:
    result = runner.invoke(app, ["simulate", "-n", "2", "--games", "1", "--bots", "greedy,random,greedy,random"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        replayed(line)
    assert "Bot strength" in result.stderr and "greedy" in result.stderr


def test_cli_out_file_json_summary(tmp_path: Path) -> None:
    out = tmp_path / "sims.jsonl"
    args = ["simulate", "-n", "3", "--games", "1", "--bots", "greedy", "--seed", "9", "--out", str(out), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["matches"] == 3 and summary["seed"] == 9 and summary["bots"][0]["entries"] == 12
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sims.jsonl"]  # no temporary file left
    speed = summary["speed"]  # after the strength report: wall-clock time, and where greedy play ran
    assert list(summary)[-1] == "speed" and list(speed) == ["seconds", "games_per_second", "playouts", "pure_because"]
    # the seconds are rounded to the millisecond, the games a second are not: 3 games within that rounding
    seconds, rate = speed["seconds"], speed["games_per_second"]
    assert seconds > 0 and 3 / (seconds + 0.0005) - 0.05 <= rate
    assert seconds <= 0.0005 or rate <= 3 / (seconds - 0.0005) + 0.05
    assert speed["playouts"] in ("fast", "pure") and (speed["pure_because"] is None) == (speed["playouts"] == "fast")


def test_the_summary_says_games_a_second_and_where_greedy_play_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLORETTO_PURE", "1")
    result = runner.invoke(app, ["simulate", "-n", "1", "--games", "1", "--bots", "greedy"])
    assert result.exit_code == 0, result.output
    assert re.search(r"\d[\d,]* games a second \(\d+\.\d\d s of wall-clock time; greedy play on the pure path: "
                     r"COLORETTO_PURE is set\)\.", " ".join(result.stderr.split())), result.stderr
    result = runner.invoke(app, ["simulate", "-n", "1", "--games", "1", "--bots", "random"])
    assert "games a second" in result.stderr and "greedy play" not in result.stderr  # no greedy play to speak of


def test_cli_leaves_no_file_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import coloretto_log.cli.simulate as command

    def failing_run(*args: Any, **kwargs: Any) -> Any:
        yield from sim.run(*args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(command, "run", failing_run)
    out = tmp_path / "sims.jsonl"
    result = runner.invoke(app, ["simulate", "-n", "1", "--games", "1", "--bots", "greedy", "--out", str(out)])
    assert result.exit_code == 3
    assert "No space left on device" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["-n", "0"], 2),
        (["-n", "1", "--players", "6"], 2),
        (["-n", "1", "--bots", "greedy,oracle"], 2),
        (["-n", "1", "--bots", "greedy,random"], 2),
        (["-n", "1", "--seed", "-5"], 2),
        (["-n", "1", "--jobs", "-1"], 2),
        (["-n", "1", "--games", "101"], 2),
        (["--players", "4"], 2),
        (["-n", "1", "--out", "/no/such/folder/x.jsonl"], 3),
    ],
)
def test_cli_usage_errors_are_one_line(args: list[str], code: int, tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == code
    assert "Traceback" not in result.output
    if code == 3:
        assert result.stderr.count("\n") == 1


def test_cli_out_must_not_be_a_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-n", "1", "--out", str(tmp_path)])
    assert result.exit_code == 3 and "folder" in result.stderr


def test_subprocess_jobs_give_identical_bytes_that_validate_and_score(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONHASHSEED="random")
    common = ["-n", "4", "--games", "2", "--bots", "strong,greedy,random,greedy", "--seed", "77", "--no-progress"]
    files = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.jsonl"
        done = subprocess.run(
            [sys.executable, "-m", "coloretto_log", "simulate", *common, "--jobs", jobs, "--out", str(out)],
            check=False, capture_output=True, text=True, env=env,
        )
        assert done.returncode == 0, done.stderr
        files.append(out.read_bytes())
    assert files[0] == files[1]
    stdout = subprocess.run(
        [sys.executable, "-m", "coloretto_log", "simulate", *common], check=False, capture_output=True, env=env
    )
    assert stdout.returncode == 0 and stdout.stdout == files[0]
    for command in ("validate", "score"):
        done = subprocess.run(
            [sys.executable, "-m", "coloretto_log", command, str(tmp_path / "jobs2.jsonl")],
            check=False, capture_output=True, text=True,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)


def test_cli_first_match_splits_a_run_into_parts() -> None:
    common = ["simulate", "--games", "1", "--bots", "greedy,random", "--players", "2", "--seed", "5"]
    whole = runner.invoke(app, [*common, "-n", "3"])
    head = runner.invoke(app, [*common, "-n", "1"])
    tail = runner.invoke(app, [*common, "-n", "2", "--first-match", "2"])  # matches count from 1
    assert whole.exit_code == head.exit_code == tail.exit_code == 0
    assert head.stdout + tail.stdout == whole.stdout
    assert json.loads(tail.stdout.splitlines()[0])["notes"].endswith("match 2")  # the note counts as --first-match does


def test_cli_refuses_to_replace_an_existing_out_file_without_force(tmp_path: Path) -> None:
    out = tmp_path / "mine.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    args = ["simulate", "-n", "1", "--games", "1", "--bots", "greedy", "--out", str(out)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 3 and "already exists" in refused.output
    assert out.read_text(encoding="utf-8") == "precious\n"
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith('{"format":"coloretto-log"')
