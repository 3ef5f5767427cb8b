"""No English where a player looks: what the recorder says through a whole game (its prompts, hints, ``?``
help, refusals, moves, best scores, written-score verdicts and standings) and what ``score`` prints (games,
verdicts, totals, the hand calculator), in Japanese, Korean and Russian.

Every ASCII word left in the output must be one the output is allowed: the players' names, the file's path,
rule ids in brackets, the match id, and in the recorder what is typed (the command letters, ``games``, the
card names and their short forms the help lists, ``Enter``, ``Ctrl-C``), which stay the same in every
language (docs/languages.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.core.cards import CARD_ALIASES

from ..conftest import SAMPLES

LANGS = ("ja", "ko", "ru")
runner = CliRunner()
TYPED = SAMPLES / "classic-2p-recorded-game.typed.txt"
CLAIMS = SAMPLES / "classic-4p-recorded-match-with-claims.json"
GOLDEN = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
#: What is typed at the recorder, the same in every language.
TYPED_WORDS = {"d", "t", "l", "u", "q", "y", "n", "games", "Enter", "Ctrl", "C", *CARD_ALIASES}


def english_left(text: str, allowed: set[str], drop: tuple[str, ...] = ()) -> list[str]:
    """The ASCII words of ``text`` that are not allowed (rule ids in brackets, the texts ``drop`` (paths, match
    ids) and the labels of matches without an id (``sha256-…``) taken out first)."""
    for exact in sorted(drop, key=len, reverse=True):
        text = text.replace(exact, "")
    text = re.sub(r"\[[a-z0-9-]+\]|sha256-[0-9a-f]+", "", text)
    words = re.findall(r"[A-Za-z][A-Za-z0-9_+]*", text)
    return sorted({w for w in words if w not in allowed and w.lower() not in allowed})


def _names(path: Path) -> tuple[str, ...]:
    """What a log says that is printed as it is: its path, players' names and match id."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return (str(path), *data["players"], *([data["id"]] if data.get("id") else []))


@pytest.mark.parametrize("lang", LANGS)
def test_the_recorder_says_a_whole_game_in_the_language(lang: str, tmp_path: Path) -> None:
    lines = TYPED.read_text(encoding="utf-8").splitlines()
    # the help, a refused line and a line not understood, before the first move; then the whole game
    typed = [*lines[:4], "?", "t 1", "d r 9", "hello", *lines[4:]]
    log = tmp_path / "game.json"
    r = runner.invoke(app, ["record", str(log), "--players", "Aiko,Boris", "--games", "1", "--lang", lang],
                      input="\n".join(typed) + "\n")  # fmt: skip
    assert r.exit_code == 1, r.output  # piped lines were refused (on purpose), the game saved
    said = r.output
    assert "d CARD ROW" not in said and "CARD" not in said  # the hint and the help say CARD and ROW in the language
    assert english_left(said, TYPED_WORDS | {"hello"}, drop=(str(log), "Aiko", "Boris")) == []


@pytest.mark.parametrize("lang", LANGS)
def test_score_prints_games_verdicts_and_totals_in_the_language(lang: str) -> None:
    r = runner.invoke(app, ["score", "--lang", lang, str(CLAIMS), str(GOLDEN)])
    assert r.exit_code == 0, r.output
    assert english_left(r.output, set(), drop=(*_names(CLAIMS), *_names(GOLDEN))) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_disputed_claim_is_said_in_the_language_with_its_rule_id(lang: str, tmp_path: Path) -> None:
    data = json.loads(CLAIMS.read_text(encoding="utf-8"))
    game = data["games"][0]
    name = data["players"][0]
    game["claims"] = {name: {"score": 999}}
    log = tmp_path / "disputed.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    r = runner.invoke(app, ["score", "--lang", lang, str(log)])
    assert r.exit_code == 4, r.output
    assert "[claim-score]" in r.output
    assert english_left(r.output, set(), drop=(str(log), *_names(CLAIMS))) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_hand_calculator_answers_in_the_language(lang: str) -> None:
    r = runner.invoke(app, ["score", "--lang", lang, "--hand", "green=6 yellow=4 red=3 blue=2 joker=1 golden=1 +2=1",
                            "--edition", "anniversary", "--removed", "purple"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert english_left(r.output, set()) == []


def test_score_follows_the_locale_and_english_is_unchanged() -> None:
    english = runner.invoke(app, ["score", str(CLAIMS)])
    assert "Match totals" in english.output and "claim" in english.output
    r = runner.invoke(app, ["score", str(CLAIMS)], env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP.UTF-8"})
    assert "対戦の合計" in r.output and "Match totals" not in r.output
    wrong = runner.invoke(app, ["score", "--lang", "fr", str(CLAIMS)])
    assert wrong.exit_code == 2 and "fr" in wrong.output


@pytest.mark.parametrize("lang", LANGS)
def test_deal_prints_the_setup_and_the_deck_in_the_language(lang: str) -> None:
    r = runner.invoke(app, ["deal", "--seed", "42", "--players", "Aiko,Boris,Chloe", "--edition", "anniversary",
                            "--lang", lang])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert len(r.output.splitlines()) > 60  # the whole deck
    assert english_left(r.output, set(), drop=("Aiko", "Boris", "Chloe")) == []


@pytest.mark.parametrize("lang", LANGS)
def test_replay_moves_tells_every_move_and_the_scores_in_the_language(lang: str) -> None:
    three = SAMPLES / "classic-3p-seeded-match.json"
    for log, moves in ((three, 200), (GOLDEN, 60)):  # every move of four games; a golden joker after the last round
        r = runner.invoke(app, ["replay", str(log), "--moves", "--lang", lang])
        assert r.exit_code == 0, r.output
        assert len(r.output.splitlines()) > moves
        assert english_left(r.output, set(), drop=_names(log)) == []


def test_replay_moves_follows_the_locale() -> None:
    r = runner.invoke(app, ["replay", str(GOLDEN), "--moves"], env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ru_RU.UTF-8"})
    assert r.exit_code == 0 and "итоговый счёт" in r.output and "final scores" not in r.output


@pytest.mark.parametrize("lang", LANGS)
def test_the_serve_pages_own_words_are_in_the_language(lang: str) -> None:
    """Its buttons, hints and errors; what it shows of the recorder is the recorder's words, tested above. Allowed:
    the command ``serve`` and the address's ``?t=`` an error names, OK on a button, and the Russian glossary's
    Latin title Coloretto."""
    from coloretto_log.lang import translator
    from coloretto_log.serve.page import MESSAGES

    tr = translator(lang)
    said = [tr.gettext(m) if isinstance(m, str) else tr.ngettext(m[0], m[1], 5) for m in MESSAGES]
    text = re.sub(r"\{[a-z_]+\}", "", "\n".join(said))
    assert english_left(text, {"serve", "t", "OK", "Coloretto"}) == []


INVALID = Path(__file__).parents[1] / "data" / "invalid"
#: The format's field names a finding names (``"setup.first"``), quoted the language's way: the format's words,
#: like rule ids.
FIELD = re.compile(r'["「“«][A-Za-z_][A-Za-z0-9_.\[\]]*["」”»]')


def _players(folder: Path) -> set[str]:
    """Every name the logs of ``folder`` (those that read as JSON) give a player: in ``players``, a move's
    ``player``, a setup's ``first``, the names of ``claims`` (an invalid log names people who do not play)."""
    names: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("player", "first") and isinstance(item, str):
                    names.add(item)
                elif key == "players" and isinstance(item, list):
                    names.update(p for p in item if isinstance(p, str))
                elif key == "claims" and isinstance(item, dict):
                    names.update(item)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in (*folder.glob("*.json"), *folder.glob("*.jsonl")):
        try:
            text = path.read_text(encoding="utf-8")
            for data in [json.loads(text)] if path.suffix == ".json" else map(json.loads, text.splitlines()):
                walk(data)
        except (UnicodeDecodeError, ValueError):
            continue
    return names


@pytest.mark.parametrize("lang", LANGS)
def test_validate_says_every_rules_finding_and_the_summary_in_the_language(lang: str) -> None:
    """One invalid log a rule id (tests/data/invalid), and the valid samples with their warnings and notes."""
    r = runner.invoke(app, ["validate", "--lang", lang, str(INVALID), str(SAMPLES)])
    assert r.exit_code == 1, r.output
    said = r.output
    rules = {p.stem for p in INVALID.glob("*.json")} - {"not-your-turn-after-taking"}
    assert {rule for rule in rules if f"[{rule}]" in said} == rules  # every rule's finding, with its id as it is
    paths = sorted({str(p) for p in (*INVALID.glob("*"), *SAMPLES.glob("*"))}, key=len, reverse=True)
    text = FIELD.sub("", said)
    allowed = {"UTF", "JSON"} | ({"Coloretto"} if lang == "ru" else set())
    assert english_left(text, allowed, drop=(*paths, *_players(INVALID), *_players(SAMPLES))) == []


def test_validate_follows_the_locale_and_its_json_stays_english() -> None:
    env = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ko_KR.UTF-8", "COLUMNS": "200"}  # the finding on one line
    r = runner.invoke(app, ["validate", str(INVALID / "row-full.json")], env=env)
    assert r.exit_code == 1 and "오류 [row-full] 3번 열" in r.output and "already holds" not in r.output
    data = json.loads(runner.invoke(app, ["validate", "--json", str(INVALID / "row-full.json")], env=env).output)
    assert data["matches"][0]["findings"][0]["message"] == "row 3 already holds 3 cards"
    english = runner.invoke(app, ["validate", str(INVALID / "row-full.json")], env={"LC_ALL": "C", "COLUMNS": "200"})
    assert "error [row-full] row 3 already holds 3 cards" in english.output


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample logs in a database."""
    db = tmp_path_factory.mktemp("club") / "club.duckdb"
    r = runner.invoke(app, ["ingest", str(SAMPLES), "--db", str(db)])
    assert r.exit_code == 0, r.output
    return db


#: What a player types that the stats' seat note names: a command and its option.
TYPED_OPTIONS = {"simulate", "rotate", "seats", "format", "json"}


@pytest.mark.parametrize("lang", LANGS)
def test_stats_prints_every_table_heading_column_and_note_in_the_language(lang: str, club: Path) -> None:
    r = runner.invoke(app, ["stats", "--db", str(club), "--lang", lang, "--player-count", "4"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    every = runner.invoke(app, ["stats", "--db", str(club), "--lang", lang], env={"COLUMNS": "200"})
    assert every.exit_code == 0, every.output
    said = r.output + every.output
    assert "┊" in said and "█" in said  # the seat bars and the histogram
    assert english_left(said, TYPED_OPTIONS, drop=tuple(_players(SAMPLES))) == []


def test_stats_follows_the_locale_and_english_and_json_are_unchanged(club: Path) -> None:
    english = runner.invoke(app, ["stats", "--db", str(club), "--report", "players"], env={"LC_ALL": "C", "COLUMNS": "200"})
    assert "Players: games won" in english.output and "35.7%" in english.output
    r = runner.invoke(app, ["stats", "--db", str(club), "--report", "players"],
                      env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ru_RU.UTF-8", "COLUMNS": "200"})  # fmt: skip
    assert "Игроки: выигранные игры" in r.output and "35,7 %" in r.output and "Players" not in r.output
    data = json.loads(runner.invoke(app, ["stats", "--db", str(club), "--json", "--lang", "ru"]).output)
    assert "players" in data and "summary" in data


def _match_ids(folder: Path) -> set[str]:
    """The match ids of the logs of ``folder`` and the short forms the ratings' history shows (the date cut off)."""
    ids: set[str] = set()
    for path in (*folder.glob("*.json"), *folder.glob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        for data in [json.loads(text)] if path.suffix == ".json" else map(json.loads, text.splitlines()):
            if data.get("id"):
                ids.add(data["id"])
                if data.get("date") and data["id"].startswith(data["date"] + "-"):
                    ids.add(data["id"][len(data["date"]) + 1 :])
    return ids


#: The options the ratings' notes name, the library function a backtest compares with, and the formulas' symbols
#: (−ln, 1/k).
RATINGS_TYPED = {"json", "csv", "format", "openskill", "predict_win", "ln", "k"}


@pytest.mark.parametrize("lang", LANGS)
def test_ratings_table_history_predictions_and_backtest_are_in_the_language(lang: str, club: Path) -> None:
    said = []
    for extra in ([], ["--history", "Aiko"], ["--predict", "Aiko,Boris,Zed"], ["--backtest"],
                  ["--per", "match", "--player-count", "4", "--since", "2026-01-01"]):  # fmt: skip
        r = runner.invoke(app, ["ratings", "--db", str(club), "--lang", lang, *extra], env={"COLUMNS": "200"})
        assert r.exit_code == 0, (extra, r.output)
        said.append(r.output)
    text = "\n".join(said)
    assert "μ" in text and "σ" in text  # the scale's formula stays a formula
    assert english_left(text, RATINGS_TYPED, drop=(*_players(SAMPLES), "Zed", *_match_ids(SAMPLES))) == []


def test_ratings_follow_the_locale_and_english_is_unchanged(club: Path) -> None:
    english = runner.invoke(app, ["ratings", "--db", str(club)], env={"LC_ALL": "C", "COLUMNS": "200"})
    assert "Ratings of 5 players after 14 games" in english.output and "the skill estimate" in english.output
    r = runner.invoke(app, ["ratings", "--db", str(club)],
                      env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ko_KR.UTF-8", "COLUMNS": "200"})  # fmt: skip
    assert "플레이어 5명의 레이팅" in r.output and "Ratings of" not in r.output


#: Usage errors a player meets: a wrong option value (a number, a day, a choice), a missing argument, an unknown
#: command or option, an option without its value, a language we do not have.
USAGE_ERRORS = (
    ["deal", "--seed", "abc"],
    ["simulate", "--matches", "x"],
    ["ratings", "--since", "2026-13-01"],
    ["validate", "--format", "jsno", "x"],
    ["validate", "--format", "csv", "x"],
    ["validate"],
    ["valdate"],
    ["xyzzy"],
    ["validate", "--fromat", "json", "x"],
    ["validate", "--zzzz", "x"],
    ["validate", "--format"],
    ["stats", "--lang", "fr"],
    ["stats", "--since", "2026-13-01", "--db", "x"],
)
#: What such an error names as typed: the program, the commands and options, the values given and the choices
#: (table, json), the argument's name (PATH), the form of a day (YYYY-MM-DD).
USAGE_TYPED = {"coloretto", "log", "h", "n", "PATH", "YYYY", "MM", "DD", "table", "json", "csv", "jsno", "abc", "x", "f",
               "fr", "en", "ja", "ko", "ru"}  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_usage_errors_are_said_in_the_language_of_the_locale(lang: str) -> None:
    env = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": f"{lang}_XX.UTF-8"}
    for args in USAGE_ERRORS:
        r = runner.invoke(app, args, env=env)
        assert r.exit_code == 2, (args, r.output)
        options = {w.lstrip("-") for w in args} | {"lang", "matches", "since", "seed", "format"}
        commands = {"deal", "simulate", "ratings", "validate", "valdate", "xyzzy", "stats", "fromat", "zzzz", "until"}
        assert english_left(r.output, USAGE_TYPED | options | commands) == [], (args, r.output)


def test_a_usage_error_follows_lang_on_the_command_line_and_english_is_unchanged() -> None:
    r = runner.invoke(app, ["deal", "--lang", "ru", "--seed", "abc"], env={"LC_ALL": "C", "COLUMNS": "200"})
    assert r.exit_code == 2 and "неверное значение '--seed': 'abc' — не целое число" in r.output
    english = runner.invoke(app, ["deal", "--seed", "abc"], env={"LC_ALL": "C", "COLUMNS": "200"})
    assert "Usage: coloretto-log deal [OPTIONS]" in english.output
    assert "Error: Invalid value for '--seed': 'abc' is not a whole number" in english.output


@pytest.mark.parametrize("lang", LANGS)
def test_the_ratings_usage_errors_are_in_the_language(lang: str, club: Path) -> None:
    for args in (["--history", "Nobody"], ["--history", "Aiko", "--backtest"], ["--predict", "Aiko"],
                 ["--player-count", "7"]):  # fmt: skip
        r = runner.invoke(app, ["ratings", "--db", str(club), "--lang", lang, *args])
        assert r.exit_code == 2, (args, r.output)
        options = {"ratings", "history", "backtest", "predict", "player", "count", "Nobody", "Aiko"}
        assert english_left(r.output, options | USAGE_TYPED) == [], (args, r.output)


@pytest.mark.parametrize("lang", LANGS)
def test_a_file_that_cannot_be_read_is_said_in_the_language(lang: str, tmp_path: Path) -> None:
    missing, empty = tmp_path / "missing.json", tmp_path / "empty"
    empty.mkdir()
    valid = SAMPLES / "classic-2p-recorded-game.json"
    r = runner.invoke(app, ["validate", "--lang", lang, str(missing), str(empty), str(valid)])
    assert r.exit_code == 3, r.output
    said = r.output
    assert str(missing) in said and str(empty) in said
    assert english_left(said, {"json", "jsonl"}, drop=(str(missing), str(empty), *_names(valid))) == []
