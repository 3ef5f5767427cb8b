"""``coloretto-log replay``: the terminal table, the narrative, JSON, HTML and exit codes."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.replay import check_match
from coloretto_log.report.timeline import build
from coloretto_log.view.html import render_html

from ..builders.viewer import GOLDEN, TWO_PLAYER, TWO_PLAYER_NARRATIVE, random_match, with_claims
from ..conftest import EXAMPLES, SAMPLES

runner = CliRunner()


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def timeline_of(data: dict[str, Any], label: str) -> Any:
    file, _, line = label.rpartition(":")
    return build(check_match(data), label=label, file=file or label, line=int(line) if file else None)


def broken_match() -> dict[str, Any]:
    """Two games: the first breaks at move 5 (row 1 of a 2-player game holds one card), the second is fine."""
    data = json.loads(json.dumps(TWO_PLAYER))
    data["rules"]["games"] = 2
    broken = json.loads(json.dumps(data["games"][0]))
    broken["moves"][4] = {"player": "Aiko", "action": "draw", "row": 1, "card": "green"}
    data["games"] = [broken, TWO_PLAYER["games"][0]]
    return data


def invoke(*args: str) -> Any:
    """Replay at 250 columns, so that every line is whole (tests/cli/test_narrow_outputs.py wraps them)."""
    return runner.invoke(app, ["replay", *args], env={"COLUMNS": "250"})


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
        result = invoke(str(path), *mode, "--html", str(tmp_path / "v.html"), "--force")
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
        env={**os.environ, "COLUMNS": "250"},
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert (
        proc.stdout.splitlines()[-1]
        == f"play broke off at move 5: {path}: game 1, move 5: error [row-full] row 1 already holds 1 card"
    )


# --------------------------------------------------------------------------- writing the page safely


def one_error_line(result: Any) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return str(lines[0])


def test_html_never_overwrites_an_input_log(tmp_path: Path) -> None:
    log = write(tmp_path, "log.json", TWO_PLAYER)
    before = log.read_bytes()
    link = tmp_path / "link.html"
    link.symlink_to(log)
    for out in (log, link):
        for force in ((), ("--force",)):
            result = invoke(str(log), "--html", str(out), *force)
            assert result.exit_code == 2, (out, force, result.output)
            assert "is the log being replayed" in one_error_line(result)
            assert log.read_bytes() == before
    # a log inside the folder being replayed
    result = invoke(str(tmp_path), "--html", str(log), "--force")
    assert result.exit_code == 2 and "is the log being replayed" in one_error_line(result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "log.json"]


def test_html_replaces_an_existing_file_only_with_force(tmp_path: Path) -> None:
    log = write(tmp_path, "log.json", TWO_PLAYER)
    out = tmp_path / "view.html"
    out.write_text("keep me", encoding="utf-8")
    result = invoke(str(log), "--html", str(out))
    assert result.exit_code == 2
    assert one_error_line(result) == f"Error: --html {out}: already exists; give another file name, or --force to replace it"
    assert out.read_text(encoding="utf-8") == "keep me"
    result = invoke(str(log), "--html", str(out), "--force")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    folder = tmp_path / "pages"
    folder.mkdir()
    result = invoke(str(log), "--html", str(folder), "--force")
    assert result.exit_code == 2 and "is a folder" in one_error_line(result)


def test_a_page_too_big_to_open_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    many = tmp_path / "many.jsonl"
    many.write_text("\n".join(json.dumps(TWO_PLAYER) for _ in range(6)) + "\n", encoding="utf-8")
    t = timeline_of(TWO_PLAYER, f"{many}:1")  # as read from the file
    one, two = (len(render_html([t] * n, title=str(many)).encode("utf-8")) for n in (1, 2))
    # a limit that a page of three matches keeps and a fourth passes
    monkeypatch.setattr("coloretto_log.view.html.PAGE_LIMIT", one + 2 * (two - one) + 100)
    out = tmp_path / "view.html"
    result = invoke(str(many), "--html", str(out))
    assert result.exit_code == 2, result.output
    line = one_error_line(result)
    assert line.startswith(f"Error: {out} not written: with match 4 the page would pass ")
    assert line.endswith(" bytes, too big for a browser to open; choose a match with --match K")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.jsonl"]  # no page, no temporary file
    result = invoke(str(many), "--html", str(out), "--match", "2")
    assert result.exit_code == 0 and out.exists()


# --------------------------------------------------------------------------- streaming


def jsonl(tmp_path: Path, name: str, logs: list[dict[str, Any]]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(log) + "\n" for log in logs), encoding="utf-8")
    return path


def test_json_streamed_a_match_at_a_time_is_one_document(tmp_path: Path) -> None:
    logs = [random_match(seed, 3, "classic", 2, random.Random(seed))[0] for seed in range(3)]
    path = jsonl(tmp_path, "three.jsonl", [*logs, broken_match()])
    result = invoke(str(path), "--json")
    assert result.exit_code == 1  # the broken match
    timelines = [timeline_of(log, f"{path}:{n}") for n, log in enumerate([*logs, broken_match()], start=1)]
    expected = {"matches": [{**t.as_json(), "file": str(path), "line": n} for n, t in enumerate(timelines, start=1)]}
    # byte for byte what one json.dumps of the whole document prints
    assert result.stdout == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    assert invoke(str(path), "--format", "json").stdout == result.stdout
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    (only,) = json.loads(invoke(str(empty), "--json").stdout)["matches"]  # an empty file is a bad-json finding
    assert [f["rule"] for f in only["findings"]] == ["bad-json"]
    as_csv = invoke(str(path), "--format", "csv")  # the players' tables, for a spreadsheet
    assert as_csv.exit_code == 1  # the broken match, as with --json
    rows = as_csv.stdout.splitlines()
    assert rows[0].startswith("file,line,game,move,round,seat,player,")
    good = [r for r in rows[1:] if r.split(",")[1] in ("1", "2", "3")]
    assert len(good) == sum(3 * len(log["games"]) for log in logs)  # a row a player of each game


def test_match_k_stops_reading_after_the_kth(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(TWO_PLAYER) + "\n{not json\n", encoding="utf-8")
    result = invoke(str(path), "--match", "1", "--moves")
    assert result.exit_code == 0, result.output  # the broken second line is never read
    assert result.stdout.splitlines()[0] == f"{path}:1 · game 1"
    assert invoke(str(path), "--moves").exit_code == 1


# --------------------------------------------------------------------------- the terminal


HOSTILE = "Ai\u001b[31mko\u001b]0;pwned\u0007"


def hostile_log() -> dict[str, Any]:
    text = json.dumps(with_claims({"Aiko": {"score": 9}}))
    data: dict[str, Any] = json.loads(text.replace('"Aiko"', json.dumps(HOSTILE)))
    return data


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "coloretto_log", "replay", *args],
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_control_characters_from_a_log_or_a_file_name_never_reach_the_terminal(tmp_path: Path) -> None:
    path = write(tmp_path, "x\u001b[2Jy.json", hostile_log())
    out = tmp_path / "p\u001b]0;t\u0007.html"
    runs = [
        ((), 0),
        (("--moves",), 0),
        (("--move", "4"), 0),
        (("--game", "2"), 2),  # the usage error names the file
        (("--html", str(out)), 0),
        (("--html", str(out)), 2),  # exists
    ]
    for args, code in runs:
        result = invoke(str(path), *args)
        assert result.exit_code == code, (args, result.output)
        for stream in (result.stdout_bytes, result.stderr_bytes):
            assert b"\x1b" not in stream and b"\x07" not in stream, (args, stream[:300])
    shown = invoke(str(path), "--moves").stdout
    assert "Ai\\x1b[31mko\\x1b]0;pwned\\x07 draws" in shown and "x\\x1b[2Jy.json" in shown
    # JSON stays exact data (JSON escapes control characters itself)
    result = invoke(str(path), "--json")
    assert b"\x1b" not in result.stdout_bytes
    assert json.loads(result.stdout)["matches"][0]["players"][0] == HOSTILE
    # in a real process too, where a terminal would read the bytes
    proc = run(str(path), "--moves")
    assert proc.returncode == 0 and b"\x1b" not in proc.stdout + proc.stderr
    # a name that is not UTF-8 is shown escaped
    odd = tmp_path / os.fsdecode(b"bad\xffname.json")
    odd.write_text(json.dumps(TWO_PLAYER), encoding="utf-8")
    for args in ((), ("--json",), ("--game", "3")):
        proc = run(str(odd), *args)
        assert proc.returncode in (0, 2) and b"Traceback" not in proc.stderr, proc.stderr
        assert b"bad\\udcffname.json" in proc.stdout + proc.stderr


@pytest.mark.parametrize("mode", [("--moves",), (), ("--json",)], ids=["moves", "table", "json"])
def test_piped_into_head_it_stops_quietly(tmp_path: Path, mode: tuple[str, ...]) -> None:
    logs = [random_match(seed, 4, "classic", 4, random.Random(seed))[0] for seed in range(12)]
    path = jsonl(tmp_path, "many.jsonl", logs)
    replay = subprocess.Popen(
        [sys.executable, "-m", "coloretto_log", "replay", str(path), *mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    head = subprocess.Popen(["head", "-1"], stdin=replay.stdout, stdout=subprocess.PIPE)
    assert replay.stdout is not None and replay.stderr is not None
    replay.stdout.close()  # head holds the only reading end
    first, _ = head.communicate(timeout=120)
    err = replay.stderr.read()
    assert replay.wait(timeout=120) == 0, err
    assert err == b""
    assert first.count(b"\n") == 1


def test_progress_on_a_terminal_only(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    logs = [random_match(seed, 2, "classic", 1, random.Random(seed))[0] for seed in range(60)]
    path = jsonl(tmp_path, "sixty.jsonl", logs)
    out = tmp_path / "p.html"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "coloretto_log", "replay", str(path), "--html", str(out)],
        encoding="utf-8",
        timeout=120,
        dimensions=(24, 120),
    )
    screen = child.read()
    child.close()
    assert child.exitstatus == 0, screen
    assert "60/60" in screen and re.search(r"\d+ matches/s", screen), screen[-500:]
    assert f"wrote {out} (60 games)" in screen
    # not a terminal: nothing but the one line
    proc = run(str(path), "--html", str(out), "--force")
    assert proc.returncode == 0
    assert proc.stderr.decode() == f"wrote {out} (60 games)\n"


def test_a_file_name_holding_the_data_placeholder_stays_a_name(tmp_path: Path) -> None:
    path = write(tmp_path, "%%DATA%% and %%JS%%.json", TWO_PLAYER)
    out = tmp_path / "view.html"
    assert invoke(str(path), "--html", str(out)).exit_code == 0
    page = out.read_text(encoding="utf-8")
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert title == f"Coloretto replay · {path}"
    assert page.count('id="replay-data"') == 1 and len(page) < 100_000
