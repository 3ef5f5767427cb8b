"""Piped output fits the width: every line of every terminal output, at 80 and 120 columns, in cells.

Each command runs on every log of sample_logs/ (a 5-player file among them)
with ``COLUMNS`` set, standard output not a terminal, as ``| less`` sees it.
No line may be wider than the width, measured in terminal cells (a wide
Japanese character takes two). Where an output is text rather than a table,
its words must be the ones it prints unwrapped (at 1000 columns) with the
whitespace collapsed: wrapping only moves line breaks. A line that fits
stays whole (what fits at 120 columns is on one line), and a points line
goes on under its first colour, a move under its sentence.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner, Result

from coloretto_log.cli import app

ROOT = Path(__file__).resolve().parents[2]
#: The logs as a user names them, from the project's folder (a file name wider than the line may overflow it).
SAMPLES = sorted(p.relative_to(ROOT) for p in (ROOT / "sample_logs").iterdir() if p.suffix in (".json", ".jsonl"))
INVALID = ROOT / "tests" / "data" / "invalid"
WIDTHS = (80, 120)
WIDE = 1000  # wide enough that nothing wraps: the text as it reads unwrapped


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def run(width: int, *args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(width), "NO_COLOR": "1"})


def too_wide(text: str, width: int) -> list[str]:
    """The lines wider than ``width``, but for a line holding one word alone (a file name longer than the line
    stays whole, as docs say; a test's temporary folder is longer under pytest -n)."""
    return [f"{cell_len(line)}: {line}" for line in text.splitlines()
            if cell_len(line) > width and len(line.split()) > 1]


def words(text: str) -> str:
    return " ".join(text.split())


def letters(text: str) -> str:
    """The text without any whitespace: a Japanese line may break between two characters, with no space."""
    return re.sub(r"\s+", "", text)


def check_text(args: tuple[str, ...], width: int, *, cjk: bool = False) -> str:
    """``args`` at ``width``: no line too wide, the words as unwrapped, and every line that fits kept whole."""
    narrow, wide = run(width, *args), run(WIDE, *args)
    assert narrow.exit_code == wide.exit_code, narrow.output
    assert too_wide(narrow.stdout, width) == []
    same = letters if cjk else words
    assert same(narrow.stdout) == same(wide.stdout)
    lines = set(narrow.stdout.splitlines())
    kept = [line for line in wide.stdout.splitlines() if cell_len(line) <= width]
    assert [line for line in kept if line not in lines] == []
    return narrow.stdout


def text_outputs() -> Iterator[tuple[str, ...]]:
    for log in SAMPLES:
        yield ("score", str(log))
        yield ("replay", str(log), "--moves")
        yield ("validate", str(log))
    yield ("validate", ".")  # every finding of every rule, run in tests/data/invalid (short file names)
    yield ("score", ".")
    yield ("deal", "--seed", "3003", "--players", "5")
    yield ("deal", "--seed", "5006", "--players", "5", "--edition", "anniversary")
    yield ("score", "--hand", "green=6 yellow=4 red=3 blue=2 joker=1 +2=1")
    yield ("score", "--hand", "green=6 yellow=4 red=3 blue=2 j j gj +2 +2", "--edition", "anniversary",
           "--removed", "orange")  # fmt: skip


TEXT = list(text_outputs())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", TEXT, ids=[" ".join(a) for a in TEXT])
def test_text_output_fits_with_the_same_words(args: tuple[str, ...], width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    if args[1:] == (".",):
        monkeypatch.chdir(INVALID)
    check_text(args, width)


def test_a_finding_keeps_its_file_and_rule_on_its_first_line() -> None:
    """For grep and head: the place and the rule id stay together; the message goes on 4 columns in."""
    out = run(80, "validate", str(INVALID / "not-your-turn-after-taking.json")).stdout.splitlines()
    assert out[0].startswith(f"{INVALID / 'not-your-turn-after-taking.json'}: game 1, move 7: error [not-your-turn] ")
    assert out[1].startswith("    ") and all(cell_len(line) <= 80 for line in out[1:])


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ja", "ko", "ru"])
@pytest.mark.parametrize("command", [("score",), ("replay", "--moves")], ids=["score", "replay-moves"])
def test_other_languages_fit_in_cells(command: tuple[str, ...], lang: str, width: int) -> None:
    """Japanese and Korean take two cells a character; Japanese lines break between characters, never before a
    closing mark; Korean and Russian ones between words."""
    for log in SAMPLES:
        out = check_text((command[0], str(log), *command[1:], "--lang", lang), width, cjk=lang == "ja")
        assert not any(line.lstrip().startswith(("、", "。", "）", "：")) for line in out.splitlines())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("log", SAMPLES, ids=[p.name for p in SAMPLES])
def test_replay_table_fits(log: Path, width: int) -> None:
    """The table after the last move: its heading wrapped, a collection's cards on lines, never cut from a count."""
    r = run(width, "replay", str(log))
    assert r.exit_code == 0, r.output
    assert too_wide(r.stdout, width) == []
    assert not re.search(r"(?m)^[ │]*×\d", r.stdout)  # a count never starts a line without its card


@pytest.mark.parametrize("width", WIDTHS)
def test_analysis_fits(width: int) -> None:
    for log, more in ((SAMPLES[0], ("--match", "1")), (Path("sample_logs/classic-2p-recorded-game.json"), ())):
        r = run(width, "analyze", str(log), "--samples", "2", "--max-se", "0", *more)  # 2 samples, no more: 3 s, not 13
        assert r.exit_code == 0, r.output
        assert too_wide(r.stdout, width) == []
        assert "about eq " not in r.stdout and "…" not in r.stdout  # no word cut to make a column fit


@pytest.mark.parametrize("width", WIDTHS)
def test_club_outputs_fit(tmp_path: Path, width: int) -> None:
    """ingest's summary, stats, ratings, query, tables and a tournament's lines, from one database."""
    db = str(tmp_path / "club.duckdb")
    people = "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus"
    for args in (
        ("ingest", "--db", db, "sample_logs"),
        ("ingest", "--db", db, "sample_logs"),  # the second time: all skipped, the longer summary
        ("stats", "--db", db),
        ("ratings", "--db", db),
        ("ratings", "--db", db, "--history", "Aiko"),
        ("query", "--db", db, "SELECT * FROM matches"),
        ("tables", "--db", db, people),
        ("tournament", "new", "Autumn open", "--db", db, "--players", people, "--rounds", "3"),
        ("tournament", "pair", "Autumn open", "--db", db),
        ("tournament", "standings", "Autumn open", "--db", db),
    ):
        r = run(width, *args)
        assert r.exit_code == 0, (args, r.output)
        assert too_wide(r.stdout, width) == [], args


def test_points_go_on_under_the_first_colour() -> None:
    """Hand-worked: Chloe's points in game 1 of the 4-player sample take 89 cells; at 80 the fifth colour and the
    "+2" cards go on under the first colour, each whole, the score last."""
    out = run(80, "score", "sample_logs/classic-4p-recorded-match-with-claims.json").stdout
    lines = out.splitlines()
    at = lines.index("     points   ▲ orange  3+1J=4 +10  ▲ blue  3 +6  ▼ brown  1 −1  ▲ green  3 +6")
    assert lines[at + 1] == "              ▼ red  1 −1   +2 ×4 +8  = 28"
    wide = run(120, "score", "sample_logs/classic-4p-recorded-match-with-claims.json").stdout
    assert "     points   ▲ orange  3+1J=4 +10  ▲ blue  3 +6  ▼ brown  1 −1  ▲ green  3 +6  ▼ red  1 −1   +2 ×4 +8  = 28" \
        in wide.splitlines()  # fmt: skip


def test_a_move_goes_on_under_its_sentence() -> None:
    out = run(80, "replay", "sample_logs/classic-2p-recorded-game.json", "--moves").stdout
    lines = out.splitlines()
    at = lines.index(" 0. game 1 · green and grey removed · starting cards: Aiko blue and red, Boris")
    assert lines[at + 1] == "    brown and orange · Aiko starts"


def test_piped_without_columns_is_80_wide(tmp_path: Path) -> None:
    """A real pipe and no COLUMNS: 80 columns, as ``coloretto-log score FILE | less`` shows it."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.run([sys.executable, "-m", "coloretto_log", "score", "sample_logs/5p-seeded-games.jsonl"],
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT, env=env, timeout=300,
                          check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert too_wide(proc.stdout, 80) == []
    assert max(cell_len(line) for line in proc.stdout.splitlines()) > 70  # the width is used, not a narrow default
