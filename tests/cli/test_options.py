"""The command line as a whole: one meaning for each short option, and only the formats a command has.

Every command's click parameters are walked: a short option that is shown
in help means the same long option in every command (``SHORT_OPTIONS``), and
the hidden old spellings are exactly those listed in ``OLD_SHORT_OPTIONS``
(and docs/options.md). Every command with ``--format`` lists in its help the
formats it accepts, and each of them is run: table, json that parses, csv
with a header and rows; a format it does not list is refused (exit 2).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from coloretto_log.cli import COMMANDS, app
from coloretto_log.cli.app import _own_words
from coloretto_log.cli.common import OLD_SHORT_OPTIONS, SHORT_OPTIONS

from ..conftest import GENEROUS, ROOT, SAMPLES

runner = CliRunner(env={"COLUMNS": "1000"})  # whole lines: piped output wraps at 80
TWO_P = str(SAMPLES / "classic-2p-recorded-game.json")
FORMATS = ("table", "json", "csv")


def _commands() -> dict[str, Any]:
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    return {name: group.get_command(ctx, name) for name in COMMANDS}


def _options(command: Any) -> list[Any]:
    return [p for p in command.params if p.param_type_name == "option"]


def _shorts(param: Any) -> list[str]:
    return [o for o in [*param.opts, *param.secondary_opts] if re.fullmatch(r"-[A-Za-z]", o)]


def _long(param: Any) -> str | None:
    return next((o for o in param.opts if o.startswith("--")), None)


def test_each_short_option_has_one_meaning_across_commands() -> None:
    meanings: dict[str, set[tuple[str, str]]] = defaultdict(set)
    hidden: dict[tuple[str, str], str] = {}
    for name, command in _commands().items():
        for param in _options(command):
            for short in _shorts(param):
                long = _long(param)
                if param.hidden and long is None:  # an old spelling alone: its help names what it meant
                    found = re.search(r"old spelling of (--[a-z-]+)", param.help or "")
                    assert found, f"{name} {short}: a hidden short option that says nothing of its meaning"
                    hidden[(name, short)] = found.group(1)
                    continue
                assert long is not None, f"{name} {short}: a short option without its long form"
                meanings[short].add((long, name))
    twice = {s: sorted(m) for s, m in meanings.items() if len({long for long, _ in m}) > 1}
    assert not twice, f"short options with two meanings: {twice}"
    for short, uses in meanings.items():
        for long, name in uses:
            assert SHORT_OPTIONS.get(short) == long, f"{name}: {short} means {long}; SHORT_OPTIONS says {SHORT_OPTIONS.get(short)}"
    assert hidden == OLD_SHORT_OPTIONS
    # -h is help in every command, -n is simulate's --matches, -j is --jobs in both commands that have it.
    assert {"simulate", "analyze"} <= {name for long, name in meanings["-j"]}
    assert meanings["-n"] == {("--matches", "simulate")}


def test_the_options_page_lists_every_short_option_and_old_spelling() -> None:
    page = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    section = page[page.index("## Short options"):]
    section = section[: section.index("\n#", 1)]
    for short, long in SHORT_OPTIONS.items():
        assert f"| `{short}` | `{long}` |" in section, short
    for (name, short), long in OLD_SHORT_OPTIONS.items():
        assert f"`{name} {short} N` is `{long} N`" in section, (name, short)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["deal", "--seed", "42", "-n", "3"], ["deal", "--seed", "42", "--player-count", "3"]),
        (["deal", "--seed", "42", "-n", "3", "--player-count", "3"], ["deal", "--seed", "42", "--player-count", "3"]),
    ],
)
def test_old_short_spellings_still_work(old: list[str], new: list[str]) -> None:
    a, b = runner.invoke(app, old), runner.invoke(app, new)
    assert a.exit_code == b.exit_code == 0, a.output
    assert a.stdout == b.stdout
    # one line says the spelling to use (issue 30): -n means --matches in simulate
    assert a.stderr == "Note: -n 3 is the old spelling of --player-count 3 (-n is --matches in other commands); " \
        "write --player-count 3\n"
    assert b.stderr == ""


def test_an_old_spelling_that_disagrees_with_the_long_option_is_a_usage_error() -> None:
    result = runner.invoke(app, ["deal", "--seed", "42", "-n", "3", "--player-count", "4"])
    assert result.exit_code == 2
    assert "-n (the old spelling of --player-count) and --player-count disagree" in result.output


def test_analyze_old_samples_spelling_reaches_the_analysis() -> None:
    args = ["analyze", TWO_P, "--game", "1", "--player", "Aiko", "--max-se", "0", "--json"]
    old = runner.invoke(app, [*args, "-n", "2"])
    assert old.exit_code == 0, old.output
    assert json.loads(old.stdout)["samples"] == 2
    assert "Note: -n 2 is the old spelling of --samples 2" in old.stderr


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("club") / "club.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def _invocation(name: str, db: Path, tmp: Path) -> list[str] | None:
    """A short run of command ``name`` that prints its result on standard output."""
    if name == "tournament":  # a tournament to show, made once in the club's database
        runner.invoke(app, ["tournament", "new", "Options cup", "--db", str(db), "--players", "Aiko,Boris,Chloe", "--rounds", "1"])
        return ["tournament", "standings", "Options cup", "--db", str(db)]
    return {
        "validate": ["validate", TWO_P],
        "score": ["score", TWO_P],
        "replay": ["replay", TWO_P],
        "simulate": ["simulate", "-n", "2", "--games", "1", "--bots", "greedy", "--no-progress",
                     "--out", str(tmp / "sims.jsonl"), "--force"],
        "analyze": ["analyze", TWO_P, "--samples", "1", "--max-se", "0", "--player", "Aiko"],
        "deal": ["deal", "--seed", "42", "--player-count", "3"],
        "ingest": ["ingest", TWO_P, "--db", str(db)],
        "stats": ["stats", "--db", str(db)],
        "query": ["query", *GENEROUS, "--db", str(db), "SELECT player, avg(score) AS mean FROM game_players GROUP BY player"],
        "ratings": ["ratings", "--db", str(db)],
        "tables": ["tables", "Aiko,Boris,Chloe,Dae", "--db", str(db), "--seed", "1"],
    }.get(name)


def _help_formats(name: str) -> list[str] | None:
    result = runner.invoke(app, [name, "--help"], terminal_width=200)
    assert result.exit_code == 0
    found = re.search(r"-f, --format ([a-z|]+)", result.output)
    return None if found is None else found.group(1).split("|")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_lists_exactly_the_formats_that_work(name: str, club: Path, tmp_path: Path) -> None:
    listed = _help_formats(name)
    has_format = any(_long(p) == "--format" for p in _options(_commands()[name]))
    assert (listed is not None) == has_format
    if listed is None:
        return
    assert listed[0] == "table" and set(listed) <= set(FORMATS)
    args = _invocation(name, club, tmp_path)
    assert args is not None, f"{name} has --format: give it a run here"
    for fmt in FORMATS:
        result = runner.invoke(app, [*args, "--format", fmt])
        if fmt not in listed:
            assert result.exit_code == 2, (name, fmt, result.output)
            assert "is not one of" in result.output
            continue
        assert result.exit_code == 0, (name, fmt, result.output)
        out = result.stdout
        assert out.strip(), (name, fmt)
        if fmt == "json":
            json.loads(out)
        elif fmt == "csv":
            rows = list(csv.reader(io.StringIO(out)))
            assert len(rows) >= 2 and len(rows[0]) >= 2, (name, rows[:3])
            assert all(len(r) == len(rows[0]) for r in rows), name
            assert "┃" not in out and "│" not in out  # no table drawing in csv


@pytest.mark.parametrize(
    "args",
    [["score", "--hand", "blue=4 brown=4 j j j +2 +2"], ["replay", TWO_P, "--moves"], ["replay", TWO_P, "--move", "3"]],
    ids=["score --hand", "replay --moves", "replay --move"],
)
def test_every_format_help_lists_works_in_each_mode(args: list[str]) -> None:
    """A mode of a command (a hand instead of logs, the narrative instead of the table) takes every format its
    --help lists: before, score --hand and replay --moves refused csv (issue 30)."""
    listed = _help_formats(args[0])
    assert listed == list(FORMATS)
    for fmt in listed:
        result = runner.invoke(app, [*args, "--format", fmt])
        assert result.exit_code == 0, (args, fmt, result.output)
        if fmt == "json":
            json.loads(result.stdout)
        elif fmt == "csv":
            rows = list(csv.reader(io.StringIO(result.stdout)))
            assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), rows[:3]


def test_hand_csv_adds_up_to_the_score() -> None:
    hand = ["score", "--hand", "blue=4 brown=4 j j j +2 +2"]
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, [*hand, "-f", "csv"]).stdout)))
    assert [(r["card"], r["counted"], r["points"]) for r in rows] == [("blue", "6", "21"), ("brown", "5", "15"),
                                                                      ("plus2", "2", "4")]
    assert sum(int(r["points"]) for r in rows) == json.loads(runner.invoke(app, [*hand, "--json"]).stdout)["score"] == 40


def test_moves_csv_is_the_narrative_a_row_a_move() -> None:
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, ["replay", TWO_P, "--moves", "-f", "csv"]).stdout)))
    told = runner.invoke(app, ["replay", TWO_P, "--moves"]).stdout
    assert [int(r["move"]) for r in rows] == list(range(len(rows)))
    for r in rows:
        assert f"{int(r['move']):>2}. {r['narrative']}\n" in told
        assert r["player"] == "" if r["move"] == "0" else f"{r['player']} draws" in r["narrative"] or \
            f"{r['player']} takes" in r["narrative"]


def test_deal_csv_is_the_deal_the_table_shows() -> None:
    table = runner.invoke(app, ["deal", "--seed", "42", "--players", "Aiko,Boris,Chloe"]).output
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, ["deal", "--seed", "42", "--player-count", "3",
                                                              "--players", "Aiko,Boris,Chloe", "-f", "csv"]).output)))
    deck = [r for r in rows if r["part"] == "deck"]
    assert [int(r["position"]) for r in deck] == list(range(1, len(deck) + 1))
    for r in deck:  # the table's line for the card: people's word, and the log's beside it where they differ
        shown = r["name"] if r["name"] == r["card"] else f"{r['name']} ({r['card']})"
        assert f"{int(r['position']):>2}. {shown}\n" in table
    assert {r["card"] for r in deck} >= {"plus2", "last_round", "joker"}
    first = next(r for r in rows if r["part"] == "first_player")
    assert f"First player: seat {first['seat']} ({first['player']})" in table
    for r in rows:
        if r["part"] == "starting":
            assert f"Seat {r['seat']} ({r['player']}) starts with: " in table


def test_deal_shows_the_log_word_beside_the_people_word() -> None:
    out = runner.invoke(app, ["deal", "--seed", "42", "--player-count", "3"]).output
    assert "last-round card (last_round)" in out
    assert "+2 (plus2)" in out
    assert "(blue)" not in out  # a colour is the same word for both


def test_replay_csv_is_the_players_table_after_the_move() -> None:
    out = runner.invoke(app, ["replay", TWO_P, "--game", "1", "--move", "5", "-f", "csv"]).output
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["seat"] for r in rows] == ["1", "2"]
    state = json.loads(runner.invoke(app, ["replay", TWO_P, "--game", "1", "--move", "5", "--json"]).output)
    players = state["matches"][0]["games"][0]["states"][0]["players"]
    for r, p in zip(rows, players):
        assert r["player"] == p["player"] and int(r["score"]) == p["score"]
        assert {k: int(r[k]) for k in p["collection"]} == p["collection"]
        assert int(r["took_row"]) == p["taken"]


def test_one_placeholder_for_each_option_across_commands() -> None:
    shown: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for name, command in _commands().items():
        for param in _options(command):
            if param.hidden or param.is_flag or param.count:
                continue
            long = _long(param)
            assert param.metavar, f"{name} {long}: no placeholder of its own (help would say TEXT)"
            if long != "--format":  # --format lists the formats of each command (above)
                shown[str(long)].add((param.metavar, name))
    differ = {long: sorted(uses) for long, uses in shown.items() if len({m for m, _ in uses}) > 1}
    assert not differ, f"options with two placeholders: {differ}"
    assert {m for m, _ in shown["--table"]} == {"TABLE"} and {m for m, _ in shown["--edition"]} == {"EDITION"}


def test_query_rounds_floats_for_people_and_keeps_them_for_programs(club: Path) -> None:
    sql = "SELECT 94.685::DOUBLE / 3 AS x, 2.0::DOUBLE AS two, 0.00001::DOUBLE AS tiny"
    table = runner.invoke(app, ["query", *GENEROUS, "--db", str(club), sql])
    assert table.exit_code == 0, table.output
    assert "31.5617" in table.stdout and "31.56166" not in table.stdout
    assert " 2.0" in table.stdout and "1e-05" in table.stdout
    exact = json.loads(runner.invoke(app, ["query", *GENEROUS, "--db", str(club), sql, "--json"]).stdout)
    assert exact == [{"x": 94.685 / 3, "two": 2.0, "tiny": 0.00001}]
    rows = list(csv.reader(io.StringIO(runner.invoke(app, ["query", *GENEROUS, "--db", str(club), sql, "-f", "csv"]).stdout)))
    assert float(rows[1][0]) == 94.685 / 3 and rows[1][0] == repr(94.685 / 3)


def test_validate_says_a_match_is_missing_planned_games(tmp_path: Path) -> None:
    match = json.loads(Path(TWO_P).read_text(encoding="utf-8"))
    match["rules"]["games"] = 3  # one game played of three planned, and that game ended
    short = tmp_path / "short.json"
    short.write_text(json.dumps(match), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(short)])
    assert result.exit_code == 0  # valid: a match being recorded is valid
    assert "the match is incomplete: 1 of 3 planned games played, 2 missing" in result.stdout
    assert "1 match short of planned games" in result.stdout
    summary = json.loads(runner.invoke(app, ["validate", str(short), "--json"]).stdout)["summary"]
    assert summary["missing_games"] == 1 and summary["warnings"] == 0
    whole = runner.invoke(app, ["validate", TWO_P])
    assert "incomplete" not in whole.stdout and "short of" not in whole.stdout


def _typer_converts(param: Any, ctx: Any, value: Any) -> tuple[str, Any]:
    """What typer's own step makes of ``value``: ("ok", the value) or ("error", its message, in the tool's words
    where typer's were the validation library's: ``_own_words``, issue 30)."""
    try:
        return "ok", type(param).process_value(param, ctx, value)
    except click_errors() as exc:
        if isinstance(exc, typer.BadParameter):
            desc = param.type_descriptor
            exc.message = _own_words(desc.annotation, desc.parameter_info, value, exc.message)
        return "error", exc.format_message()


def click_errors() -> tuple[type[BaseException], ...]:
    return (typer.BadParameter, typer.core._click.exceptions.UsageError)


def _quick_params() -> list[tuple[str, Any, Any]]:
    """(command, parameter, context) for each parameter given the quick conversion (cli/app.py), --help less."""
    group = typer.main.get_command(app)
    root = typer.Context(group)
    group.parse_args(typer.Context(group), ["--debug", "validate"])  # quickens the group's own options
    found = [("", p, root) for p in group.params]
    for name in COMMANDS:
        command = group.get_command(root, name)
        found += [(name, p, typer.Context(command, parent=root)) for p in command.params]
    return [(n, p, c) for n, p, c in found if getattr(p, "_converts_quickly", False) and p.callback is None]


def _sample_values(tmp: Path) -> list[Any]:
    (tmp / "a-file.json").write_text("{}", encoding="utf-8")
    (tmp / "a-dir").mkdir(exist_ok=True)
    words = ["0", "7", "-3", "007", "+5", "2", "5", "6", "1", "99999999999999999999", "1.5", "-0.25", "1e3", " 4",
             "4 ", "", "x", "1_000", "٣", "nan", "inf", "table", "json", "csv", "TABLE", "classic", "Classic",
             "greedy", "-", str(tmp / "a-file.json"), str(tmp / "a-dir"), str(tmp / "missing.json"), "a\x00b"]
    return [None, 0, 3, 2.5, True, False, (), *words, tuple(words[:3]), [words[0]], Path(tmp / "a-file.json")]


def test_the_quick_conversion_of_options_is_typers_own(tmp_path: Path) -> None:
    """Every option converted without typer's pydantic check (a fast start) gets exactly what typer would give
    it, value and type; every value typer would refuse is refused with typer's own message."""
    params = _quick_params()
    kinds = {repr(p.type_descriptor.annotation) for _, p, _ in params}
    assert {"<class 'int'>", "<class 'str'>", "<class 'pathlib.Path'>", "<class 'bool'>"} <= kinds
    checked = 0
    for name, param, ctx in params:
        for value in _sample_values(tmp_path):
            want = _typer_converts(param, ctx, value)
            try:
                got: tuple[str, Any] = "ok", param.process_value(ctx, value)
            except click_errors() as exc:
                got = "error", exc.format_message()
            assert repr(got) == repr(want) and type(got[1]) is type(want[1]), f"{name} {param.name} {value!r}: {got} != {want}"
            checked += want[0] == "ok"
    assert checked > 100
