"""``coloretto-log record`` end to end: piped matches, resume, lock, signals, SIGKILL, a real pseudo-terminal.

Subprocess tests run the installed package with ``sys.executable -m
coloretto_log``; they wait on the log file, never on the clock, except the
SIGKILL trials, whose random delays only choose where the kill lands.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.replay import check_match
from coloretto_log.log.writer import dumps_pretty
from coloretto_log.record import Recorder

from ..builders.record import DATE, FOUR, Script, match_script
from ..conftest import ROOT

runner = CliRunner()
ARGS = ["--players", ",".join(FOUR), "--date", DATE]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def script() -> Script:
    return match_script(20261129)


def run_cli(path: Path, lines: list[str], *extra: str) -> Any:
    return runner.invoke(app, ["record", str(path), *ARGS, *extra], input="".join(f"{line}\n" for line in lines))


def spawn(path: Path, *args: str, stdin: Any = subprocess.PIPE) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "coloretto_log", "record", str(path), *args],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(predicate: Any, what: str, limit: float = 120.0) -> None:
    """Poll until ``predicate()`` holds (a generous limit: only a hung process reaches it)."""
    end = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def moves_on_disk(path: Path) -> int:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return -1
    return sum(len(g["moves"]) for g in data["games"])


def expected_text(script: Script) -> str:
    return dumps_pretty(script.expected)


def resume_index(script: Script, on_disk: dict[str, Any]) -> int:
    """Where typing must go on after a stop that left ``on_disk``: the first line after which the log was that."""
    on_disk = dict(on_disk, id=f"{DATE}-kitchen")  # the file's name is in its id
    rec = Recorder(rules=script.rules, players=script.players, match_id=f"{DATE}-kitchen", date=DATE)
    if rec.data == on_disk:
        return 0
    for i, line in enumerate(script.lines):
        rec.feed(line)
        if rec.data == on_disk:
            return i + 1
    raise AssertionError("the file on disk is no state the script went through")


# --------------------------------------------------------------------------- piped matches


def test_a_whole_match_piped_in_validates_and_scores(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    typed = tmp_path / "kitchen.txt"
    typed.write_text("".join(f"{line}\n" for line in script.lines), encoding="utf-8")
    with typed.open() as stdin:
        proc = spawn(path, *ARGS, stdin=stdin)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert path.read_text(encoding="utf-8") == expected_text(script)
    assert "\x1b" not in out and "'s move" not in out and ">" not in out  # no colours, no prompts
    assert out.count("is over. Best scores") == 4 and "The match is complete. Totals and ranking:" in out
    assert err.strip() == f"Match complete: {path} is saved."
    assert {p.name for p in tmp_path.iterdir()} == {"kitchen.json", "kitchen.txt"}  # no lock, no temporary file
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    if "score" in {c.name or c.callback.__name__ for c in app.registered_commands}:  # type: ignore[union-attr]
        result = runner.invoke(app, ["score", str(path), "--json"])
        assert result.exit_code == 4  # some written scores are 3 below the optimum, on purpose
        totals = {t["player"]: t["total"] for t in json.loads(result.stdout)["matches"][0]["totals"]}
        report = check_match(json.loads(path.read_text(encoding="utf-8")))
        rec = Recorder.resume(json.loads(path.read_text(encoding="utf-8")))
        assert report.complete
        assert totals == {s.player: s.total for s in rec.standings()}


def test_refused_lines_are_reported_on_stderr_with_their_line_number(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    result = run_cli(path, ["blue", "red", "green", "yellow", "Aiko", "d r 1", "d r 9", "t 2", "d x 1", "t 1"], "--games", "1")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "line 7 (d r 9): refused [unknown-row] row 9 does not exist: rows are 1 to 4",
        "line 8 (t 2): refused [row-empty] row 2 is empty and cannot be taken",
        'line 9 (d x 1): refused: "x" is not a card; type ? for the card names',
        f"Input ended: {path} is saved (game 1 of 1, 2 moves); run the same command to continue.",
    ]
    moves = json.loads(path.read_text(encoding="utf-8"))["games"][0]["moves"]
    assert moves == [
        {"player": "Aiko", "action": "draw", "row": 1, "card": "red"},
        {"player": "Boris", "action": "take", "row": 1},
    ]


def test_players_are_asked_when_not_given(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    result = runner.invoke(app, ["record", str(path), "--date", DATE, "--edition", "anniversary", "--table", "alternative",
                                 "--games", "2"], input="Solo\nAnn, Ben, Cy\n")  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "line 1 (Solo): refused [player-count] 1 player: Coloretto is for 2 to 5, names separated by commas"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {
        "format": "coloretto-log", "version": 1, "id": f"{DATE}-kitchen", "date": DATE,
        "rules": {"edition": "anniversary", "scoring": "alternative", "games": 2},
        "players": ["Ann", "Ben", "Cy"], "games": [],
    }  # fmt: skip


# --------------------------------------------------------------------------- resume


def test_resume_after_stopping_at_every_tenth_move_gives_the_same_file(tmp_path: Path, script: Script) -> None:
    whole = tmp_path / "whole" / "kitchen.json"
    whole.parent.mkdir()
    assert run_cli(whole, script.lines).exit_code == 0
    stops = script.move_ends[9::10]
    path = tmp_path / "kitchen.json"
    start = 0
    for n, stop in enumerate(stops):
        # stop with q, or by the end of the input: the file must then hold exactly the moves typed
        lines = script.lines[start:stop] + (["q"] if n % 2 else [])
        result = run_cli(path, lines)
        assert result.exit_code == 0, result.output
        assert moves_on_disk(path) == 10 * (n + 1)
        if n:
            assert result.stderr.startswith(f"Resuming {path}: ")
        start = stop
    result = run_cli(path, script.lines[start:])
    assert result.exit_code == 0 and result.stderr.splitlines()[-1] == f"Match complete: {path} is saved."
    assert path.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8") == expected_text(script)
    again = run_cli(path, [])
    assert again.exit_code == 0 and f"{path}: the match is complete; nothing to record." in again.stderr


def test_a_log_with_an_error_is_not_resumed(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    run_cli(path, script.lines[:30])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["games"][0]["moves"][4]["row"] = 7
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_cli(path, script.lines[30:])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"Error: {path}: the log has an error, so it cannot be resumed: "
        "game 1, move 5: error [unknown-row] row 7 does not exist: rows are 1 to 4"
    )
    path.write_text('{"format": "coloretto-log",', encoding="utf-8")
    result = run_cli(path, [])
    assert result.exit_code == 1 and "not a readable log: invalid JSON" in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--players", "Ann,Ben"], 2, "already holds a match with other --players"),
        (["--edition", "anniversary"], 2, "already holds a match with other --edition"),
        (["--games", "3", "--table", "alternative"], 2, "other --table; leave it out"),
    ],
)
def test_options_that_differ_from_the_log_are_refused(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    path = tmp_path / "kitchen.json"
    assert run_cli(path, ["q"]).exit_code == 0
    result = runner.invoke(app, ["record", str(path), *args], input="")
    assert result.exit_code == code and message in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["kitchen.txt"], 2, "the log must be a .json file"),
        (["k.json", "--players", "Ann"], 2, "1 player: Coloretto is for 2 to 5"),
        (["k.json", "--players", "Ann,Ann"], 2, '"Ann" is given twice'),
        (["k.json", "--date", "2026-02-30"], 2, "must be a real date"),
        (["k.json", "--edition", "deluxe"], 2, "must be classic or anniversary"),
        (["k.json", "--games", "0"], 2, "must be 1 to 100"),
        (["no/such/folder/k.json"], 3, "no/such/folder: no such folder"),
        (["adir.json"], 3, "adir.json: not a regular file"),
    ],
)
def test_usage_and_file_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], code: int, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir.json").mkdir()
    result = runner.invoke(app, ["record", *args], input="")
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- lock, strays, signals


def test_a_second_recorder_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    first = spawn(path, *ARGS)
    try:
        wait_for(lambda: path.exists(), "the first recorder to save")
        wait_for(lambda: (tmp_path / ".kitchen.json.lock").exists(), "the lock file")
        second = run_cli(path, ["q"])
        assert second.exit_code == 3
        assert second.stderr.strip() == (
            f"Error: {path} is being recorded by another recorder (process {first.pid}); close that one first"
        )
    finally:
        _, err = first.communicate("q\n", timeout=120)
    assert first.returncode == 0, err
    assert not (tmp_path / ".kitchen.json.lock").exists()
    assert run_cli(path, ["q"]).exit_code == 0


def test_stray_temporary_files_are_cleaned_up_on_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    run_cli(path, ["blue", "red", "green", "yellow", "Aiko", "d r 1"])
    stray = tmp_path / ".kitchen.json.tmp-4242"
    stray.write_text('{"half": ', encoding="utf-8")
    result = run_cli(path, ["d r 2"])
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == "Removed 1 temporary file left by a crash: .kitchen.json.tmp-4242"
    assert not stray.exists() and moves_on_disk(path) == 2


@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGTERM, 143, "Terminated"), (signal.SIGINT, 130, "Interrupted"), (signal.SIGHUP, 129, "Hung up")],
)
def test_signals_save_and_exit_with_one_line(tmp_path: Path, signum: int, code: int, word: str) -> None:
    path = tmp_path / "kitchen.json"
    proc = spawn(path, *ARGS)
    assert proc.stdin is not None
    proc.stdin.write("blue\nred\ngreen\nyellow\nDae\nd r 1\nd +2 2\nt 1\n")
    proc.stdin.flush()
    wait_for(lambda: moves_on_disk(path) == 3, "three moves on disk")
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code
    assert err == f"{word}: {path} is saved (game 1 of 4, 3 moves); run the same command to resume.\n"
    assert out == ""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [m["action"] for m in data["games"][0]["moves"]] == ["draw", "draw", "take"]
    assert check_match(data).valid
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kitchen.json"]


def test_sigkill_at_random_points_leaves_a_prefix_that_resumes(tmp_path: Path, script: Script) -> None:
    """Ten trials on one file: start ``record`` (resuming), SIGKILL it at a seeded random time, check the file.

    Each start finds the lock file and maybe a temporary file the killed
    process left; the last run finishes the match, which must then be the
    file an uninterrupted run writes.
    """
    r = random.Random(20261129)
    path = tmp_path / "kitchen.json"
    lock = tmp_path / ".kitchen.json.lock"
    expected_games = script.expected["games"]
    counts = [0]
    for _ in range(10):
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        start = resume_index(script, data) if data is not None else 0
        typed = tmp_path / "typed.txt"
        typed.write_text("".join(f"{line}\n" for line in script.lines[start:]), encoding="utf-8")
        lock.unlink(missing_ok=True)  # a killed recorder leaves it; its reappearance says the next one started
        with typed.open() as stdin:
            proc = spawn(path, *ARGS, stdin=stdin)
            wait_for(lambda p=proc: lock.exists() or p.poll() is not None, "the recorder to start")
            time.sleep(r.uniform(0.0, 0.12))
            proc.kill()
            proc.communicate(timeout=120)
        if not path.exists():  # killed before its first save
            assert counts == [0] * len(counts)
            counts.append(0)
            continue
        data = json.loads(path.read_text(encoding="utf-8"))  # always parses
        games = data["games"]
        assert len(games) <= len(expected_games)
        for g, game in enumerate(games):
            assert game["setup"] == expected_games[g]["setup"]
            assert game["moves"] == expected_games[g]["moves"][: len(game["moves"])]
        assert check_match(data).valid
        counts.append(moves_on_disk(path))
    assert counts == sorted(counts) and len(set(counts)) >= 4, f"the kills should land at different points: {counts}"
    result = run_cli(path, script.lines[resume_index(script, json.loads(path.read_text(encoding="utf-8"))) :])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == expected_text(script)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kitchen.json", "typed.txt"]  # no lock, no stray file


# --------------------------------------------------------------------------- a real terminal


def test_interactive_session_in_a_pseudo_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "kitchen.json"
    screen_log = io.StringIO()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="40")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "coloretto_log", "record", str(path), "--players", ",".join(FOUR), "--date", DATE],
        encoding="utf-8",
        dimensions=(40, 100),
        env=env,
        timeout=120,
    )
    child.logfile_read = screen_log
    for prompt, answer in [("Aiko's starting card", "blue"), ("Boris's starting card", "red"),
                           ("Chloe's starting card", "green"), ("Dae's starting card", "yellow"),
                           ("who starts", "Boris")]:  # fmt: skip
        child.expect_exact(prompt)
        child.expect_exact("> ")
        child.sendline(answer)
    for player, move in [("Boris", "d r 1"), ("Chloe", "d +2 2"), ("Dae", "t 2"), ("Aiko", "d j 3"),
                         ("Boris", "d x 3"), ("Boris", "d gr 1")]:  # fmt: skip
        child.expect_exact(f"{player}'s move")
        child.expect_exact("> ")
        child.sendline(move)
    child.expect_exact("Chloe's move")
    child.expect_exact("> ")
    raw = screen_log.getvalue()
    screen = ANSI.sub("", raw.rsplit("\x1b[2J", 1)[-1]).replace("\r\n", "\n")
    artifacts = ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "record-mid-game-screen.txt").write_text(screen, encoding="utf-8")
    lines = [line.rstrip() for line in screen.splitlines()]
    assert lines[0] == "Game 1 of 4 · round 1 · classic edition, standard table"
    assert lines[1] == "53 cards to turn over before the last-round card (15 under it)"
    rows = {line.split()[1]: line.split()[2:] for line in lines if line.strip().startswith("Row ")}
    assert rows == {"1": ["red", "grey", "2/3"], "2": ["-", "taken", "by", "Dae"], "3": ["joker", "1/3"], "4": ["(empty)", "0/3"]}
    players = {name: next(line for line in lines if re.search(rf"\b{name}\b.*×", line)) for name in FOUR}
    assert "blue ×1" in players["Aiko"] and players["Aiko"].split()[-1] == "1"
    assert "yellow ×1  +2 ×1" in players["Dae"] and "took 2" in players["Dae"] and players["Dae"].split()[-1] == "3"
    assert players["Chloe"].lstrip().startswith("▶")
    assert 'refused: "x" is not a card' not in screen  # the refusal was shown on Boris's screen, which is gone
    assert "Boris drew grey into row 1" in lines
    assert lines[-2] == "Chloe's move  (d CARD ROW · t ROW · l · u · ? · q)" and lines[-1] == ">"
    assert 'refused: "x" is not a card; type ? for the card names' in ANSI.sub("", raw)
    # Ctrl-C saves and exits with 130 and one line.
    child.sendintr()
    child.expect_exact(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert f"Interrupted: {path} is saved (game 1 of 4, 5 moves); run the same command to resume." in ANSI.sub("", screen_log.getvalue())
    assert moves_on_disk(path) == 5


def test_interactive_end_of_game_claims_and_quit(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    script = match_script(31, ("Ann", "Ben"), games=1, claims=False)
    path = tmp_path / "kitchen.json"
    # Record all but the last move through a pipe, then finish at the keyboard.
    last = script.move_lines[-1]
    assert run_cli_players(path, ("Ann", "Ben"), script.lines[: last[0]], "--games", "1").exit_code == 0
    child = pexpect.spawn(sys.executable, ["-m", "coloretto_log", "record", str(path)], encoding="utf-8",
                          dimensions=(40, 100), env=dict(os.environ, TERM="xterm-256color"), timeout=120)  # fmt: skip
    out = io.StringIO()
    child.logfile_read = out
    child.expect_exact("'s move")
    for line in script.lines[last[0] : last[1]]:
        child.expect_exact("> ")
        child.sendline(line)
    child.expect_exact("Game 1 is over. Best scores")
    child.expect_exact("Game 1 of 1: Ann's written score")
    child.sendline("12")
    child.expect_exact("Game 1 of 1: Ben's written score")
    child.sendline("")
    child.expect_exact("The match is complete. Totals and ranking:")
    child.expect_exact(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = ANSI.sub("", out.getvalue())
    assert "Ann wrote 12: " in text
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["games"][0]["claims"] == {"Ann": {"score": 12}}
    assert check_match(data).complete


def run_cli_players(path: Path, players: tuple[str, ...], lines: list[str], *extra: str) -> Any:
    return runner.invoke(
        app, ["record", str(path), "--players", ",".join(players), "--date", DATE, *extra],
        input="".join(f"{line}\n" for line in lines),
    )  # fmt: skip


def test_quit_messages_and_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    result = runner.invoke(app, ["record", str(path)], input="")
    assert result.exit_code == 0 and not path.exists()
    assert result.stderr == f"Input ended: nothing recorded yet ({path} is not written); run the same command to continue.\n"
    path.touch()  # an empty file is a new log
    result = run_cli(path, ["blue", "red", "green", "yellow", "Aiko", "d r 1", "q", "d r 2"])
    assert result.exit_code == 0
    assert result.stderr == f"Stopped: {path} is saved (game 1 of 4, 1 move); run the same command to resume.\n"
    assert moves_on_disk(path) == 1


def test_bytes_that_are_not_utf8_are_refused_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    proc = subprocess.run(
        [sys.executable, "-m", "coloretto_log", "record", str(path), "--date", DATE, "--games", "1"],
        input=b"Ann,B\xffn\nAnn,Ben\nr g\nbl y\no br\nAnn\nd \xe9 1\nd y 1\n",
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr.decode("utf-8", "replace").splitlines()[:2] == [
        "line 1 (Ann,B\ufffdn): refused: the line is not valid UTF-8 text",
        "line 7 (d \ufffd 1): refused: the line is not valid UTF-8 text",
    ]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["players"] == ["Ann", "Ben"] and len(data["games"][0]["moves"]) == 1


# --------------------------------------------------------------------------- the user's file, the user's terminal


def test_a_symbolic_link_is_saved_through_and_locked_on_its_target(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "work").mkdir()
    target = tmp_path / "real" / "m.json"
    link = tmp_path / "work" / "m.json"
    link.symlink_to(target)
    assert run_cli(link, ["blue", "red", "green", "yellow", "Aiko", "d r 1"]).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert moves_on_disk(target) == 1
    first = spawn(link)  # resumes through the link and holds the lock
    try:
        wait_for(lambda: (tmp_path / "real" / ".m.json.lock").exists(), "the lock beside the target")
        second = runner.invoke(app, ["record", str(target)], input="q\n")
        assert second.exit_code == 3
        assert "is being recorded by another recorder" in second.stderr
        _, err = first.communicate("d bl 2\nq\n", timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err
    assert link.is_symlink() and moves_on_disk(target) == 2
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["m.json"]


def test_the_file_mode_is_kept_on_save(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    assert run_cli(path, ["blue", "red", "green", "yellow", "Aiko", "d r 1"]).exit_code == 0
    path.chmod(0o600)
    assert runner.invoke(app, ["record", str(path)], input="d bl 2\n").exit_code == 0
    assert moves_on_disk(path) == 2
    assert path.stat().st_mode & 0o7777 == 0o600


def test_a_read_only_log_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    assert run_cli(path, ["blue", "red", "green", "yellow", "Aiko", "d r 1"]).exit_code == 0
    before = path.read_bytes()
    path.chmod(0o444)
    result = runner.invoke(app, ["record", str(path)], input="d bl 2\n")
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [f"Error: {path} is read-only: make it writable (chmod u+w) to record into it"]
    assert path.read_bytes() == before and path.stat().st_mode & 0o7777 == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kitchen.json"]


HOSTILE = "Ai\u001b[31mko\u001b]0;pwned\u0007"


def test_control_characters_in_names_are_escaped_on_every_piped_line(tmp_path: Path) -> None:
    players = (HOSTILE, "Boris", "Chloe", "Dae")
    script = match_script(7, players, games=1)
    path = tmp_path / "kitchen.json"
    lines = [HOSTILE.lower() if line == players[0].lower() else line for line in script.lines]
    proc = subprocess.run(
        [sys.executable, "-m", "coloretto_log", "record", str(path), "--players", ",".join(players), "--games", "1"],
        input="".join(f"{line}\n" for line in [*lines[:-1], "d x 1", lines[-1]]),
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    shown = proc.stdout + proc.stderr
    assert "\x1b" not in shown and "\x07" not in shown
    assert "Ai\\x1b[31mko\\x1b]0;pwned\\x07" in proc.stdout  # the final scores name the player, escaped
    assert json.loads(path.read_text(encoding="utf-8"))["players"][0] == HOSTILE  # the log keeps the exact name


def _pty(pexpect: Any, *args: str) -> tuple[Any, io.StringIO]:
    child = pexpect.spawn(
        sys.executable, ["-m", "coloretto_log", "record", *args], encoding="utf-8", dimensions=(40, 100),
        env=dict(os.environ, TERM="xterm-256color"), timeout=120,
    )  # fmt: skip
    out = io.StringIO()
    child.logfile_read = out
    return child, out


def test_control_characters_in_names_are_escaped_on_the_terminal_screens(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "kitchen.json"
    child, out = _pty(pexpect, str(path), "--players", f"{HOSTILE},Ben", "--games", "1")
    for answer in ["r g", "bl o", "y br", "1", "d bl 1", "d y 2"]:
        child.expect_exact("> ")
        child.sendline(answer)
    child.expect_exact("'s move")
    child.expect_exact("> ")
    child.sendline("q")
    child.expect_exact(pexpect.EOF)
    raw = out.getvalue()
    assert "\x07" not in raw and "\x1b]0;" not in raw and "\x1b[31mko" not in raw
    assert "Ai\\x1b[31mko\\x1b]0;pwned\\x07" in ANSI.sub("", raw)


def test_ctrl_c_ends_the_typed_line_before_its_message(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "kitchen.json"
    child, out = _pty(pexpect, str(path), "--players", "Ann,Ben", "--games", "1")
    for answer in ["r g", "bl o", "y br", "Ann"]:
        child.expect_exact("> ")
        child.sendline(answer)
    child.expect_exact("Ann's move")
    child.expect_exact("> ")
    child.send("d bl")
    child.expect_exact("d bl")
    child.sendintr()
    child.expect_exact(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    lines = ANSI.sub("", out.getvalue()).replace("\r\n", "\n").split("\n")
    said = [line for line in lines if "Interrupted:" in line]
    assert said == [f"Interrupted: {path} is saved (game 1 of 1, 0 moves); run the same command to resume."]


def test_resuming_says_so_in_one_line_piped_and_on_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    assert run_cli(path, ["q"]).exit_code == 0  # players known, no game set up yet
    result = runner.invoke(app, ["record", str(path)], input="")
    assert result.stderr.splitlines()[0] == f"Resuming {path}: game 1 of 4 not started, 0 complete."
    assert run_cli(path, ["blue", "red", "green", "yellow", "Aiko", "d r 1"][: 6]).exit_code == 0
    pexpect = pytest.importorskip("pexpect")
    child, out = _pty(pexpect, str(path))
    child.expect_exact("'s move")
    child.expect_exact("> ")
    child.sendline("q")
    child.expect_exact(pexpect.EOF)
    screen = ANSI.sub("", out.getvalue().rsplit("\x1b[2J", 1)[-1]).replace("\r\n", "\n")
    assert screen.count(f"Resuming {path}: game 1 of 4, 1 move.") == 1  # on the screen, not wiped by it


# --------------------------------------------------------------------------- issue 20: games, last-round card, words


def test_at_the_keyboard_games_are_asked_a_misplaced_last_round_card_is_confirmed_and_words_are_peoples(
    tmp_path: Path,
) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "two.json"
    child, out = _pty(pexpect, str(path), "--date", DATE)
    answers = [
        ("Players in seat order (clockwise) (separated by commas)", "Aiko, Boris"),
        ("How many games in the match? (Enter for 4)", ""),
        ("Game 1 of 4: The 2 colours removed from the game", "games 1"),
        ("Game 1 of 1: The 2 colours removed from the game", "orange blue"),
        ("Aiko's 2 starting cards", "red green"),
        ("Boris's 2 starting cards", "yellow grey"),
        ("Game 1 of 1: who starts? (name or seat 1-2)", "Aiko"),
        ("Aiko's move", "d +2 1"),
        ("Boris's move", "d br 2"),
        ("Aiko's move", "l d y 3"),
        ("Record the last-round card here all the same?", "y"),
        ("Boris's move", "t 1"),
        ("Aiko's move", "t 2"),
        ("Aiko's written score", ""),
        ("Boris's written score", ""),
    ]
    screens = []
    for prompt, answer in answers:
        child.expect_exact(prompt)
        child.expect_exact("> ")
        screens.append(ANSI.sub("", out.getvalue()).replace("\r\n", "\n"))
        child.sendline(answer)
    child.expect_exact("The match is complete. Totals and ranking:")
    child.expect_exact(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = ANSI.sub("", out.getvalue()).replace("\r\n", "\n")
    assert "The match is 4 games" in text and "The match is 1 game" in text
    row1 = next(line for line in screens[8].rsplit("Game 1 of 1 · round 1", 1)[1].splitlines() if "Row 1" in line)
    assert row1.split()[:3] == ["Row", "1", "+2"] and "plus2" not in screens[8]  # people's words: +2
    assert "Aiko drew +2 into row 1" in screens[8]
    warning = ("warning [last-round-position] the last-round card belongs at card 40 of the deck, with 15 cards "
               "under it: 37 cards are still to turn over before it (this would be card 3)")  # fmt: skip
    assert warning in " ".join(screens[10].split())
    assert "End of the game: row 3 (yellow) is discarded (the row left over is not kept)." in text
    # The same lines piped (no confirmation asked: the warning on standard error) make the same bytes.
    typed = [answer for _, answer in answers if answer not in ("y", "games 1")]
    piped = tmp_path / "piped.json"
    result = runner.invoke(app, ["record", str(piped), "--date", DATE, "--games", "1"],
                           input="".join(f"{line}\n" for line in typed[0:1] + typed[2:]))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"line 8 (l d y 3): {warning}" in result.stderr
    assert piped.read_text(encoding="utf-8") == path.read_text(encoding="utf-8").replace('"id": "2026-11-29-two"', '"id": "2026-11-29-piped"')
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rules"]["games"] == 1 and check_match(data).complete


def test_games_given_again_on_resume_change_the_match_until_a_game_is_finished(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    assert run_cli(path, script.lines[:10]).exit_code == 0  # a match of 4 (the default), game 1 begun
    result = runner.invoke(app, ["record", str(path), "--games", "1"], input="q\n")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == f"Resuming {path}: game 1 of 1, {moves_on_disk(path)} moves."
    assert json.loads(path.read_text(encoding="utf-8"))["rules"]["games"] == 1
    first_end = next(end for start, end, g in script.move_lines if g == 1) - 1  # into game 2: game 1 finished
    result = runner.invoke(app, ["record", str(path), "--games", "4"], input="".join(f"{line}\n" for line in script.lines[10:first_end]))
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["record", str(path), "--games", "2"], input="")
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"Error: {path}: --games 2: the match stays 4 games: the number of games can "
                                     "change only before the first game ends (1 finished)")  # fmt: skip


def test_piped_input_is_not_asked_the_number_of_games_and_may_say_it(tmp_path: Path) -> None:
    path = tmp_path / "k.json"
    lines = ["Ann, Ben, Cy", "red", "green", "blue", "yellow", "games 2", "Ann", "d o 1"]
    result = runner.invoke(app, ["record", str(path), "--date", DATE], input="".join(f"{line}\n" for line in lines))
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rules"]["games"] == 2 and data["games"][0]["moves"] == [
        {"player": "Ann", "action": "draw", "row": 1, "card": "orange"}]  # fmt: skip
    assert result.stderr.strip().endswith("(game 1 of 2, 1 move); run the same command to continue.")
