"""Nothing from a log reaches a terminal raw: C1 controls, DEL, line separators and bidi overrides (issue 19).

Each command runs as a user runs it, with its standard output and error on a
real terminal (a pseudo-terminal); the player's name holds every character
the issue found printed raw: U+009B (the C1 CSI), DEL, U+2028, and the bidi
override and isolates (U+202E, U+2066…U+2069) that would show the rest of a
line backwards. The log itself keeps the exact name, and JSON on a terminal
says the same value with ``\\u`` escapes.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coloretto_log.core.errors import BIDI_CONTROLS, json_for_terminal, one_line

from ..builders.terminal import drain
from ..conftest import GENEROUS, ROOT

NAME = "Ai\u009bko\u007f\u2028\u202eevil\u2066x\u2067y\u2068z\u2069"
RAW = ("\u009b", "\u007f", "\u2028", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069")
SHOWN = "Ai\\u009bko\\x7f\\u2028\\u202eevil\\u2066x\\u2067y\\u2068z\\u2069"
IN_JSON = "Ai\\u009bko\\u007f\\u2028\\u202eevil\\u2066x\\u2067y\\u2068z\\u2069"
GAME = ROOT / "tests" / "data" / "db" / "recorded-3p-game.json"


def on_terminal(*args: str, cwd: Path) -> str:
    """What the command writes to a terminal (standard output and error on one pseudo-terminal)."""
    leader, follower = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="200", NO_COLOR="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "coloretto_log", *args], stdout=follower, stderr=follower,
        stdin=subprocess.DEVNULL, cwd=cwd, env=env,
    )  # fmt: skip
    os.close(follower)
    shown = drain(leader)
    proc.wait(timeout=60)
    return shown.decode("utf-8")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    data = json.loads(GAME.read_text(encoding="utf-8"))
    old = data["players"][0]
    text = GAME.read_text(encoding="utf-8").replace(json.dumps(old), json.dumps(NAME, ensure_ascii=False))
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    assert json.loads(path.read_text(encoding="utf-8"))["players"][0] == NAME
    return path


def assert_nothing_raw(shown: str) -> None:
    assert not [c for c in RAW if c in shown], [f"U+{ord(c):04X}" for c in RAW if c in shown]


def test_the_one_escaping_covers_bidi_c1_del_and_separators() -> None:
    assert one_line(NAME) == SHOWN
    for code in BIDI_CONTROLS:
        assert one_line(chr(code)) == f"\\u{code:04x}"
    encoded = json.dumps({"name": NAME}, ensure_ascii=False)
    safe = json_for_terminal(encoded)
    assert json.loads(safe) == {"name": NAME} and f'"{IN_JSON}"' in safe
    assert_nothing_raw(safe)


@pytest.mark.parametrize(
    "args",
    [["score", "LOG"], ["replay", "LOG"], ["replay", "LOG", "--moves"], ["validate", "LOG"]],
    ids=["score", "replay", "replay-moves", "validate"],
)
def test_tables_on_a_terminal_show_the_name_escaped(hostile: Path, args: list[str]) -> None:
    shown = on_terminal(*(str(hostile) if a == "LOG" else a for a in args), cwd=hostile.parent)
    assert_nothing_raw(shown)
    if args[0] != "validate":
        assert SHOWN in re.sub(r"\s*\r?\n\s*", "", shown) or SHOWN in shown, shown[:2000]


@pytest.mark.parametrize(
    "args", [["replay", "LOG", "--json"], ["score", "LOG", "--json"], ["validate", "LOG", "--json"]],
    ids=["replay", "score", "validate"],
)
def test_json_on_a_terminal_escapes_them_and_stays_the_same_value(hostile: Path, args: list[str]) -> None:
    """``replay --json`` to a terminal printed raw U+009B, DEL and U+2028; JSON elsewhere stays byte-exact."""
    argv = [str(hostile) if a == "LOG" else a for a in args]
    shown = on_terminal(*argv, cwd=hostile.parent)
    assert_nothing_raw(shown)
    value = json.loads(shown.replace("\r\n", "\n"))
    piped = subprocess.run([sys.executable, "-m", "coloretto_log", *argv], capture_output=True, check=False)
    assert json.loads(piped.stdout) == value
    if args[0] != "validate":
        assert IN_JSON in shown and NAME in piped.stdout.decode("utf-8")


def test_query_on_a_terminal(hostile: Path) -> None:
    db = hostile.parent / "club.duckdb"
    done = subprocess.run([sys.executable, "-m", "coloretto_log", "ingest", str(hostile), "--db", str(db)],
                          capture_output=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    sql = "SELECT DISTINCT player FROM game_players ORDER BY 1"
    table = on_terminal("query", *GENEROUS, sql, "--db", str(db), cwd=hostile.parent)
    assert_nothing_raw(table)
    assert SHOWN in table
    as_json = on_terminal("query", *GENEROUS, sql, "--db", str(db), "--json", cwd=hostile.parent)
    assert_nothing_raw(as_json)
    assert NAME in [row["player"] for row in json.loads(as_json.replace("\r\n", "\n"))]
    as_csv = on_terminal("query", *GENEROUS, sql, "--db", str(db), "--format", "csv", cwd=hostile.parent)
    assert_nothing_raw(as_csv)
    assert SHOWN in as_csv.splitlines()
    piped = subprocess.run([sys.executable, "-m", "coloretto_log", "query", *GENEROUS, sql, "--db", str(db), "--format", "csv"],
                           capture_output=True, check=False)  # fmt: skip
    assert NAME in piped.stdout.decode("utf-8").split("\n")  # exact data for programs


@pytest.mark.parametrize("command", ["score", "replay"])
def test_csv_on_a_terminal(hostile: Path, command: str) -> None:
    shown = on_terminal(command, str(hostile), "--format", "csv", cwd=hostile.parent)
    assert_nothing_raw(shown)
    assert SHOWN in shown
    piped = subprocess.run([sys.executable, "-m", "coloretto_log", command, str(hostile), "--format", "csv"],
                           capture_output=True, check=False)  # fmt: skip
    assert NAME in piped.stdout.decode("utf-8")  # exact data for programs


def test_record_on_a_terminal(tmp_path: Path) -> None:
    """The recorder's screens, typed at a terminal: the prompts, the table, the rows taken."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "kitchen.json"
    child = pexpect.spawn(
        sys.executable, ["-m", "coloretto_log", "record", str(path), "--players", f"{NAME},Ben", "--games", "1"],
        encoding="utf-8", dimensions=(40, 200), env=dict(os.environ, TERM="xterm-256color"), timeout=120,
    )  # fmt: skip
    out = io.StringIO()
    child.logfile_read = out
    for answer in ["r g", "bl o", "y br", "1", "d bl 1", "t 1"]:
        child.expect_exact("> ")
        child.sendline(answer)
    child.expect_exact("> ")
    child.sendline("q")
    child.expect_exact(pexpect.EOF)
    shown = out.getvalue()
    assert_nothing_raw(shown)
    assert SHOWN in shown
    assert json.loads(path.read_text(encoding="utf-8"))["players"][0] == NAME
