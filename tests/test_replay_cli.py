"""``coloretto-log replay``: the terminal table, the narrative, JSON, HTML and exit codes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app

from .conftest import EXAMPLES, SAMPLES
from .viewer_builders import GOLDEN, TWO_PLAYER, TWO_PLAYER_NARRATIVE, random_match

runner = CliRunner()


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def broken_match() -> dict[str, Any]:
    """Two games: the first breaks at move 5 (row 1 of a 2-player game holds one card), the second is fine."""
    data = json.loads(json.dumps(TWO_PLAYER))
    data["rules"]["games"] = 2
    broken = json.loads(json.dumps(data["games"][0]))
    broken["moves"][4] = {"player": "Aiko", "action": "draw", "row": 1, "card": "green"}
    data["games"] = [broken, TWO_PLAYER["games"][0]]
    return data


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["replay", *args])


def test_narrative_line_by_line(tmp_path: Path) -> None:
    path = write(tmp_path, "two.json", TWO_PLAYER)
    result = invoke(str(path), "--moves")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path} · game 1"
    width = 2
    assert lines[1:12] == [f"{n:>{width}}. {text}" for n, text in enumerate(TWO_PLAYER_NARRATIVE)]
    assert lines[12] == "final scores: Aiko 7 · Boris 5 — Aiko wins"
    # the last-round card came out early in this script: legal, and worth a warning
    assert lines[13].startswith(f"{path}: game 1, move 7: warning [last-round-position] ")
    assert len(lines) == 14


def test_narrative_up_to_a_move(tmp_path: Path) -> None:
    path = write(tmp_path, "golden.json", GOLDEN)
    result = invoke(str(path), "--moves", "--move", "2")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == [
        "0. game 1 · starting cards: Aiko orange, Boris blue, Chloe brown, Dae yellow · Aiko starts",
        "1. round 1 · Aiko draws golden joker → row 1",
        "2. round 1 · Boris takes row 1: golden joker; golden joker extra: last-round card! then red",
    ]


def test_table_after_a_move(tmp_path: Path) -> None:
    path = write(tmp_path, "two.json", TWO_PLAYER)
    result = invoke(str(path), "--move", "4")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "game 1 · after move 4 of 10: round 1 · Boris takes row 3: joker" in out
    assert (
        "round 1 · Aiko to play · 52 cards left in the deck, the last-round card among them" in out
    )
    assert "taken by Boris" in out
    lines = out.splitlines()
    row1 = next(line for line in lines if line.strip().startswith("1 "))
    assert "green" in row1 and "1/1" in row1
    aiko = next(line for line in lines if "Aiko" in line and "orange" in line)
    assert "▶ Aiko" in aiko and " 2 " in aiko  # orange 1 + blue 1
    boris = next(line for line in lines if "Boris ✓" in line)
    assert " 4 " in boris and "brown" in boris  # the joker makes brown 2: 3 + yellow 1


def test_table_at_the_end_shows_the_final_scores(tmp_path: Path) -> None:
    path = write(tmp_path, "two.json", TWO_PLAYER)
    result = invoke(str(path))
    assert result.exit_code == 0
    assert "after move 10 of 10" in result.stdout
    assert "last round!" in result.stdout and "game over" in result.stdout
    assert "discarded with leftover rows:" in result.stdout
    assert "final scores: Aiko 7 · Boris 5 — Aiko wins" in result.stdout
    assert "warning [last-round-position]" in result.stdout


def test_setup_table(tmp_path: Path) -> None:
    path = write(tmp_path, "two.json", TWO_PLAYER)
    result = invoke(str(path), "--game", "1", "--move", "0")
    assert result.exit_code == 0
    assert "game 1 · setup: game 1 · grey and red removed" in result.stdout
    assert "55 cards left in the deck" in result.stdout


def test_json_states(tmp_path: Path) -> None:
    path = write(tmp_path, "two.json", TWO_PLAYER)
    result = invoke(str(path), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    (match,) = data["matches"]
    assert match["file"] == str(path) and match["valid"] is True
    (game,) = match["games"]
    assert [s["move"] for s in game["states"]] == list(range(11))
    assert [s["narrative"] for s in game["states"]] == TWO_PLAYER_NARRATIVE
    assert game["scores"] == [
        {"player": "Aiko", "score": 7, "rank": 1},
        {"player": "Boris", "score": 5, "rank": 2},
    ]
    assert game["winners"] == ["Aiko"] and game["scores_so_far"] is None
    one = json.loads(invoke(str(path), "--json", "--move", "6").stdout)["matches"][0]["games"][0][
        "states"
    ]
    assert len(one) == 1 and one[0]["move"] == 6 and one[0]["discarded"] == ["green"]


def test_seeded_log_without_cards_prints_the_same_json(tmp_path: Path) -> None:
    a, b, _, _ = random_match(5, 4, "anniversary", 2, random.Random(5))
    out = []
    for name, log in (("a", a), ("b", b)):
        path = tmp_path / name / "m.json"
        path.parent.mkdir()
        path.write_text(json.dumps(log), encoding="utf-8")
        result = invoke(str(path), "--json")
        assert result.exit_code == 0
        out.append(json.loads(result.stdout)["matches"][0]["games"])
    assert out[0] == out[1]


def test_invalid_log_replays_to_the_first_error_and_exits_1(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", broken_match())
    line = f"{path}: game 1, move 5: error [row-full] row 1 already holds 1 card"
    result = invoke(str(path), "--moves")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[5] == "4. round 1 · Boris takes row 3: joker"
    assert lines[6] == "scores so far (best assignment now): Aiko 2 · Boris 4 — Boris leads"
    assert lines[7] == f"play broke off at move 5: {line}"
    assert "final scores: Aiko 7 · Boris 5 — Aiko wins" in lines  # game 2 still replays
    assert lines[-1] == "match totals after 1 complete game: Aiko 7 · Boris 5 — Aiko wins"
    table = invoke(str(path))
    assert table.exit_code == 1
    assert f"play broke off at move 5: {line}" in table.stdout
    assert "after move 4 of 4" in table.stdout
    data = json.loads(invoke(str(path), "--json").stdout)
    assert data["matches"][0]["games"][0]["error"]["line"] == line
    assert invoke(str(path), "--json").exit_code == 1


def test_usage_errors(tmp_path: Path) -> None:
    two = write(tmp_path, "two.json", TWO_PLAYER)
    bad = write(tmp_path, "bad.json", broken_match())
    cases = [
        ((str(two), "--game", "3"), "--game 3: "),
        ((str(two), "--game", "0"), "--game counts from 1"),
        ((str(two), "--move", "11"), "--move 11: game 1 of "),
        ((str(two), "--move", "-1"), "--move must be 0 or more"),
        ((str(bad), "--move", "2"), "--move needs --game"),
        ((str(two), "--moves", "--json"), "cannot be used together"),
        ((str(two), "--match", "2"), "--match 2: "),
    ]
    for args, message in cases:
        result = invoke(*args)
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)


def test_unreadable_file_exits_3(tmp_path: Path) -> None:
    result = invoke(str(tmp_path / "missing.json"))
    assert result.exit_code == 3
    assert "missing.json" in result.stderr
    assert invoke(str(tmp_path / "missing.json"), "--match", "2").exit_code == 3


def test_html_file_is_written(tmp_path: Path) -> None:
    path = write(tmp_path, "two.json", TWO_PLAYER)
    out = tmp_path / "view.html"
    result = invoke(str(path), "--html", str(out), "--game", "1", "--move", "3")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert f"wrote {out} (1 game)" in result.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert '"start":{"match":1,"game":1,"move":3}' in page
    result = invoke(str(path), "--html", str(tmp_path / "no" / "such" / "dir.html"))
    assert result.exit_code == 3 and "cannot write" in result.stderr


def test_help_has_an_example() -> None:
    result = runner.invoke(app, ["replay", "--help"])
    assert result.exit_code == 0
    assert "Example: coloretto-log replay" in result.stdout


def logs_to_replay() -> list[Path]:
    found: list[Path] = []
    for folder in (SAMPLES, EXAMPLES):
        if folder.is_dir():
            found += sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".jsonl"))
    return found


@pytest.mark.parametrize("mode", [(), ("--moves",), ("--json",)], ids=["table", "moves", "json"])
def test_every_sample_log_replays(mode: tuple[str, ...], tmp_path: Path) -> None:
    paths = logs_to_replay()
    if not paths:
        pytest.skip("no sample logs beside the project")
    for path in paths:
        result = invoke(str(path), *mode, "--html", str(tmp_path / "v.html"))
        invalid = "invalid" in path.parts or path.name.startswith(
            "seed-42-"
        )  # a setup vector, not a log
        assert result.exit_code == (1 if invalid else 0), (path, result.output)
        assert (tmp_path / "v.html").stat().st_size > 1000
        if mode == ("--json",):
            data = json.loads(result.stdout)
            for match in data["matches"]:
                for game in match["games"]:
                    assert len(game["states"]) == (game["moves"] + 1 if game["setup"] else 0)
                    assert game["complete"] == (game["scores"] is not None)


def test_end_to_end_in_a_subprocess(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", broken_match())
    proc = subprocess.run(
        [sys.executable, "-m", "coloretto_log", "replay", str(path), "--game", "1", "--moves"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert (
        proc.stdout.splitlines()[-1]
        == f"play broke off at move 5: {path}: game 1, move 5: error [row-full] row 1 already holds 1 card"
    )
