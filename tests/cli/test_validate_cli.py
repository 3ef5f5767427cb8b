"""``coloretto-log validate`` end to end: through Typer's CliRunner and once as a subprocess.

Lines and summary, ``--json`` shape, exit codes 0/1/2/3, files, folders, ``-`` and ``.jsonl``, and no
traceback for any broken input (hypothesis throws random JSON-ish data and mutated logs at
``check_match`` and at the command).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.reader import MAX_FILE_BYTES, default_match_id
from coloretto_log.log.replay import check_match

from ..builders.log import EXTRA_IDS, RULE_IDS, TINY_MOVES, d, t, tiny, tiny_match
from ..conftest import INVALID, ROOT, SAMPLES

runner = CliRunner()
TWO_P = SAMPLES / "classic-2p-recorded-game.json"
ROW_FULL = INVALID / "row-full.json"


def run(*args: str, input: bytes | str | None = None) -> Any:
    result = runner.invoke(app, ["validate", *args], input=input, env={"COLUMNS": "250"})  # every finding whole
    # Never an exception other than the command's own exit, never a traceback.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- lines, summary, exit codes


def test_a_valid_log_prints_only_the_summary_and_exits_0() -> None:
    result = run(str(TWO_P))
    assert result.exit_code == 0
    assert result.stdout == "1 match in 1 file: 1 valid, 0 invalid; 0 errors, 0 warnings\n"
    assert result.stderr == ""


def test_an_invalid_log_prints_its_finding_and_exits_1() -> None:
    result = run(str(ROW_FULL))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{ROW_FULL}: game 1, move 36: error [row-full] row 3 already holds 3 cards",
        "1 match in 1 file: 0 valid, 1 invalid; 1 error, 0 warnings",
    ]


def test_sample_folder_end_to_end() -> None:
    """The help's own example, `validate sample_logs/`, exits 0: the broken logs live in tests/data/invalid/."""
    result = run(str(SAMPLES))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["8 matches in 7 files: 8 valid, 0 invalid; 0 errors, 0 warnings"]


def test_invalid_folder_end_to_end() -> None:
    result = run(str(INVALID))
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert out[-1] == "34 matches in 34 files: 0 valid, 34 invalid; 34 errors, 0 warnings"
    # one line per invalid sample, each naming its file, in sorted order
    findings = out[:-1]
    assert len(findings) == 34 and all(line.startswith(str(INVALID) + "/") for line in findings)
    assert findings == sorted(findings, key=lambda line: line.split(":")[0])


def test_warnings_exit_0_and_quiet_hides_them(tmp_path: Path) -> None:
    log = write(tmp_path / "w.json", tiny_match(tiny(claims={"Aiko": {"score": 6}})))
    result = run(str(log))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        (f"{log}: game 1: warning [claim-score] Aiko claims 6 but the optimum is 5 "
        "(over-claimed by 1; jokers to orange; positive orange, blue, green)"),
        "1 match in 1 file: 1 valid, 0 invalid; 0 errors, 1 warning",
    ]
    quiet = run("--quiet", str(log))
    assert quiet.exit_code == 0
    assert quiet.stdout.splitlines() == ["1 match in 1 file: 1 valid, 0 invalid; 0 errors, 1 warning"]


def test_errors_go_on_with_the_next_file(tmp_path: Path) -> None:
    bad = write(tmp_path / "a.json", tiny_match(tiny(moves=[TINY_MOVES[0], t("Aiko", 3)])))
    result = run(str(bad), str(ROW_FULL), str(TWO_P))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{bad}: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's",
        f"{ROW_FULL}: game 1, move 36: error [row-full] row 3 already holds 3 cards",
        "3 matches in 3 files: 1 valid, 2 invalid; 2 errors, 0 warnings",
    ]


def test_a_missing_file_exits_3(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    result = run(str(missing))
    assert result.exit_code == 3
    assert result.stderr == f"{missing}: no such file or folder\n"
    assert result.stdout == "0 matches in 0 files: 0 valid, 0 invalid; 0 errors, 0 warnings; 1 file could not be read\n"
    # an unreadable file outranks an invalid one
    both = run(str(ROW_FULL), str(missing))
    assert both.exit_code == 3


def test_a_file_name_with_a_newline_stays_on_one_line(tmp_path: Path) -> None:
    log = write(tmp_path / "a\nb.json", tiny_match(tiny(moves=[TINY_MOVES[0], t("Aiko", 3)])))
    result = run(str(log))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"{tmp_path}/a\\nb.json: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's"
    )
    assert json.loads(run("--json", str(log)).stdout)["matches"][0]["file"] == str(log)  # JSON keeps the name


def test_an_unreadable_file_name_with_a_newline_stays_on_one_line(tmp_path: Path) -> None:
    result = run(str(tmp_path / "gone\nx.json"))
    assert result.exit_code == 3
    assert result.stderr.count("\n") == 1


def test_a_file_over_the_size_limit_exits_3(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse
    result = run(str(big))
    assert result.exit_code == 3
    assert result.stderr == f"{big}: {MAX_FILE_BYTES + 1} bytes is over the 16 MiB limit for a log\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_non_regular_file_exits_3(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    result = run(str(fifo))
    assert result.exit_code == 3
    assert result.stderr == f"{fifo}: not a regular file\n"


def test_a_folder_is_searched_recursively_for_json_and_jsonl(tmp_path: Path) -> None:
    (tmp_path / "deep" / "deeper").mkdir(parents=True)
    (tmp_path / "dir.json").mkdir()  # a folder named like a log is not a log
    write(tmp_path / "deep" / "deeper" / "b.json", tiny_match())
    (tmp_path / "a.jsonl").write_text(json.dumps(tiny_match()) + "\n" + json.dumps(tiny_match()) + "\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a log", encoding="utf-8")
    (tmp_path / "README.md").write_text("# not a log", encoding="utf-8")
    result = run(str(tmp_path))
    assert result.exit_code == 0
    assert result.stdout == "3 matches in 2 files: 3 valid, 0 invalid; 0 errors, 0 warnings\n"


def test_jsonl_lines_carry_their_number(tmp_path: Path) -> None:
    log = tmp_path / "club.jsonl"
    bad = tiny_match(tiny(moves=[TINY_MOVES[0], t("Aiko", 3)]))
    log.write_text("\n".join([json.dumps(tiny_match()), "", json.dumps(bad), "[1,"]) + "\n", encoding="utf-8")
    result = run(str(log))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{log}:3: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's",
        f"{log}:4: error [bad-json] invalid JSON at column 4: expecting value",
        "3 matches in 1 file: 1 valid, 2 invalid; 2 errors, 0 warnings",
    ]


def test_standard_input() -> None:
    bad = tiny_match(tiny(moves=[TINY_MOVES[0], t("Aiko", 3)]))
    result = run("-", input=json.dumps(bad, indent=2))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "<stdin>: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's",
        "1 match in 1 file: 0 valid, 1 invalid; 1 error, 0 warnings",
    ]
    # JSON Lines on standard input: findings carry the line number
    lines = json.dumps(tiny_match()) + "\n" + json.dumps(bad) + "\n"
    result = run("-", input=lines)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "<stdin>:2: game 1, move 2: error [not-your-turn] it is Boris's turn, not Aiko's"
    assert run("-", input=TWO_P.read_bytes()).exit_code == 0
    broken = run("-", input=b"\xef\xbb\xbf{}")
    assert broken.exit_code == 1 and "<stdin>: error [bad-encoding]" in broken.stdout


@pytest.mark.parametrize("args", [[], ["--nope", str(TWO_P)], ["--json=3", str(TWO_P)]])
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""


def test_help_has_an_example_and_the_exit_codes() -> None:
    result = runner.invoke(app, ["validate", "--help"])
    assert result.exit_code == 0
    assert "Example: coloretto-log validate" in result.stdout and "Exit codes" in result.stdout


# --------------------------------------------------------------------------- --json


def test_json_shape(tmp_path: Path) -> None:
    named = write(tmp_path / "named.json", {**tiny_match(tiny(moves=TINY_MOVES[:4])), "id": "kitchen"})
    jsonl = tmp_path / "two.jsonl"
    anonymous = tiny_match(tiny(claims={"Aiko": {"score": 6}}))
    jsonl.write_text(json.dumps(anonymous) + "\n" + "{bad\n", encoding="utf-8")
    result = run("--json", str(named), str(jsonl), str(tmp_path / "missing.json"))
    assert result.exit_code == 3
    out = json.loads(result.stdout)
    assert list(out) == ["matches", "unreadable", "summary"]
    assert out["summary"] == {"files": 2, "matches": 3, "valid": 2, "invalid": 1, "errors": 1, "warnings": 2, "unreadable": 1,
                              "missing_games": 0}
    assert out["unreadable"] == [{"file": str(tmp_path / "missing.json"), "error": f"{tmp_path / 'missing.json'}: no such file or folder"}]
    first, second, third = out["matches"]
    for m in out["matches"]:
        assert list(m) == ["file", "line", "match_id", "valid", "complete", "games", "findings"]
        for f in m["findings"]:
            assert list(f) == ["game", "move", "rule", "severity", "message"]
        for g in m["games"]:
            assert list(g) == ["game", "complete"]
    assert first == {
        "file": str(named),
        "line": None,
        "match_id": "kitchen",
        "valid": True,
        "complete": False,
        "games": [{"game": 1, "complete": False}],
        "findings": [{
            "game": 1, "move": None, "rule": "incomplete-game", "severity": "warning",
            "message": "the game stops after move 4, before its last round has ended",
        }],
    }
    assert second["file"] == str(jsonl) and second["line"] == 1
    assert second["match_id"] == default_match_id(anonymous) and second["match_id"].startswith("sha256-")
    assert second["valid"] is True and second["complete"] is True and second["games"] == [{"game": 1, "complete": True}]
    assert [f["rule"] for f in second["findings"]] == ["claim-score"]
    assert third["line"] == 2 and third["valid"] is False and third["match_id"] is None and third["games"] == []
    assert [(f["game"], f["move"], f["rule"], f["severity"]) for f in third["findings"]] == [(None, None, "bad-json", "error")]


def test_json_moves_and_places(tmp_path: Path) -> None:
    result = run("--json", str(ROW_FULL))
    assert result.exit_code == 1
    (m,) = json.loads(result.stdout)["matches"]
    assert m["findings"] == [
        {"game": 1, "move": 36, "rule": "row-full", "severity": "error", "message": "row 3 already holds 3 cards"}
    ]
    assert m["valid"] is False and m["games"] == [{"game": 1, "complete": False}]


def test_json_has_no_markup_and_stable_output() -> None:
    a = run("--json", str(SAMPLES), str(INVALID))
    b = run("--json", str(SAMPLES), str(INVALID))
    assert a.stdout == b.stdout and "\x1b[" not in a.stdout
    assert json.loads(a.stdout)["summary"]["matches"] == 42


# --------------------------------------------------------------------------- as a subprocess


def _subprocess(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**{k: v for k, v in os.environ.items() if k != "COLUMNS"}, "PYTHONHASHSEED": "0", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "coloretto_log", "validate", *args],
        input=stdin, capture_output=True, cwd=ROOT, env=env, timeout=120, check=False,
    )


def test_subprocess_end_to_end(tmp_path: Path) -> None:
    proc = _subprocess("tests/data/invalid/row-full.json", "sample_logs/classic-2p-recorded-game.json", "-",
                       stdin=b"[" * 50_000)
    assert proc.returncode == 1
    assert proc.stdout.decode().splitlines() == [  # piped: 80 columns, the message going on 4 in
        "tests/data/invalid/row-full.json: game 1, move 36: error [row-full] row 3",
        "    already holds 3 cards",
        "<stdin>: error [bad-json] nesting too deep",
        "3 matches in 3 files: 1 valid, 2 invalid; 2 errors, 0 warnings",
    ]
    assert proc.stderr == b""
    missing = _subprocess("sample_logs/classic-2p-recorded-game.json", str(tmp_path / "gone.json"))
    assert missing.returncode == 3
    assert missing.stderr.decode() == f"{tmp_path / 'gone.json'}: no such file or folder\n"
    assert b"Traceback" not in missing.stderr + missing.stdout


# --------------------------------------------------------------------------- nothing crashes

KNOWN_RULES = set(RULE_IDS) | set(EXTRA_IDS)
#: Any text that UTF-8 can hold, control characters included (a finding must still be one line).
#: Lone surrogates are left out here: test_a_lone_surrogate_escape_does_not_crash pins that case.
TEXT = st.text(st.characters(codec="utf-8"), max_size=12)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | TEXT
    | st.sampled_from(["draw", "take", "Aiko", "Boris", "red", "joker", "golden_joker", "last_round", "coloretto-log"]),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(
        st.sampled_from(["format", "version", "players", "games", "setup", "moves", "player", "action", "row",
                         "card", "extra", "last_round", "rules", "seed", "claims", "score", "first", "removed",
                         "starting", "deck", "edition", "id", "x"]) | TEXT,
        children, max_size=6,
    ),
    max_leaves=25,
)

BASE_LOGS = [
    tiny_match(),
    tiny_match(tiny(claims={"Aiko": {"score": 5, "jokers": ["orange"], "positive": ["orange"]}})),
    {**tiny_match(), "seed": 42, "players": ["Aiko", "Boris", "Chloe", "Dae"], "rules": {"games": 2},
     "games": [{"moves": [d("Chloe", 1), d("Dae", 1), d("Aiko", 2), t("Boris", 1)]}]},
    json.loads((SAMPLES / "anniversary-4p-golden-joker.json").read_text(encoding="utf-8")),
    json.loads((SAMPLES / "alternative-table-4p-deck-seeded-game.json").read_text(encoding="utf-8")),
]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:8]):
            out.extend(_paths(v, prefix + (i,)))
    return out


@st.composite
def mutated_logs(draw: st.DrawFn) -> Any:
    """A valid log with a few random changes: values replaced, keys dropped or added, moves repeated."""
    log = copy.deepcopy(draw(st.sampled_from(BASE_LOGS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(log) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = log
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        how = draw(st.sampled_from(["replace", "drop", "duplicate", "add"]))
        if how == "replace":
            parent[last] = draw(json_values)
        elif how == "drop":
            del parent[last]
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["card", "extra", "last_round", "notes", "zz"]))] = draw(json_values)
    return log


def _assert_sane(data: Any) -> None:
    report = check_match(data)
    for f in report.all_findings():
        assert f.rule in KNOWN_RULES and f.severity in ("error", "warning")
        assert f.message and "\n" not in f.line("x.json") and "\r" not in f.line("x.json")
        assert f.game is None or f.game >= 1
        assert f.move is None or (f.move >= 1 and f.game is not None)
    assert report.valid == (not any(f.severity == "error" for f in report.all_findings()))
    assert report.match_id is None or isinstance(report.match_id, str)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, mutated_logs()))
def test_check_match_never_raises(data: Any) -> None:
    _assert_sane(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, mutated_logs()), st.booleans())
def test_the_command_never_crashes(data: Any, as_lines: bool) -> None:
    text = json.dumps(data) + "\n" if as_lines else json.dumps(data, indent=1)
    result = run("-", input=text)
    assert result.exit_code in (0, 1)
    out = result.stdout.splitlines()
    assert out[-1].startswith("1 match in 1 file: ")
    assert all(line.startswith("<stdin>") for line in out[:-1])  # one line per finding


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200) | st.builds(lambda b, i: TWO_P.read_bytes()[:i] + b, st.binary(max_size=4), st.integers(0, 4000)))
def test_random_bytes_never_crash(raw: bytes) -> None:
    result = run("-", input=raw)
    assert result.exit_code in (0, 1)


@pytest.mark.parametrize("json_out", [False, True], ids=["lines", "json"])
def test_a_lone_surrogate_escape_does_not_crash(json_out: bool) -> None:
    log = json.dumps(tiny_match(tiny(moves=[d("\ud800", 3, "green")])))
    assert "\\ud800" in log  # JSON text, pure ASCII: the escape is valid JSON syntax
    result = run(*(["--json"] if json_out else []), "-", input=log)
    assert result.exit_code == 1


def test_the_match_id_of_a_log_with_a_lone_surrogate() -> None:
    report = check_match(tiny_match(tiny(moves=[d("\ud800", 3, "green")])))
    assert [f.rule for f in report.all_findings()] == ["bad-value"]
    assert report.match_id is not None and report.match_id.startswith("sha256-")


def test_every_broken_sample_and_fixture_through_the_command() -> None:
    # no traceback and exit 1 for each invalid sample, one at a time
    for path in sorted(INVALID.iterdir()):
        result = run(str(path))
        assert result.exit_code == 1, path
        assert len(result.stdout.splitlines()) == 2


# --------------------------------------------------------------------------- hostile logs: bounded and readable


def test_a_flood_of_unknown_keys_is_one_finding(tmp_path: Path) -> None:
    """Issue 11 §4: a move with 200,000 unknown keys gives one line, not 200,000 (and no gigabytes)."""
    data = copy.deepcopy(tiny_match(tiny()))
    fields = len(data["games"][0]["moves"][2]) + 200_000
    data["games"][0]["moves"][2] |= {f"k{i}": 1 for i in range(200_000)}
    result = run(str(write(tmp_path / "flood.json", data)))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        (f"{tmp_path / 'flood.json'}: game 1, move 3: error [unknown-field] move 3 has {fields} fields; "
        "the format allows far fewer: not checked further"),
        "1 match in 1 file: 0 valid, 1 invalid; 1 error, 0 warnings",
    ]


def test_a_flood_of_claim_names_is_one_finding(tmp_path: Path) -> None:
    data = tiny_match(tiny(claims={f"p{i}": {} for i in range(100_000)}))
    result = run(str(write(tmp_path / "claims.json", data)))
    assert result.exit_code == 1
    (line, _) = result.stdout.splitlines()
    assert line.endswith('game 1: error [unknown-player] "claims" has 100000 names; the format allows far fewer: '
                         "not checked further")


def test_repeated_findings_of_a_game_are_capped_with_a_count(tmp_path: Path) -> None:
    data = tiny_match(tiny(claims={f"p{i}": {} for i in range(50)}))
    lines = run(str(write(tmp_path / "claims.json", data))).stdout.splitlines()
    assert len(lines) == 22
    assert all("[unknown-player] claims name" in line for line in lines[:20])
    assert lines[20].endswith("game 1: error [unknown-player] 30 more [unknown-player] findings here, not shown")


def test_a_4000_digit_row_number_is_shortened(tmp_path: Path) -> None:
    path = tmp_path / "row.json"
    text = json.dumps(tiny_match(tiny(moves=[d("Aiko", 1, "blue")])))
    path.write_text(text.replace('"row": 1', '"row": ' + "7" * 4000), encoding="utf-8")
    (line, _) = run(str(path)).stdout.splitlines()
    assert "777777…777 (4000 digits)" in line and len(line) < 300


def test_a_match_without_games_gets_a_warning(tmp_path: Path) -> None:
    data = tiny_match(tiny())
    data["games"] = []
    result = run(str(write(tmp_path / "none.json", data)))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].endswith('warning [incomplete-game] "games" is empty: the match has no game yet')


def test_empty_files_say_they_are_empty(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"")
    (tmp_path / "b.jsonl").write_bytes(b"\n\n")
    result = run(str(tmp_path / "a.json"), str(tmp_path / "b.jsonl"))
    assert result.stdout.splitlines()[:2] == [
        f"{tmp_path / 'a.json'}: error [bad-json] the file is empty: a log holds one JSON object",
        f"{tmp_path / 'b.jsonl'}: error [bad-json] the file is empty: no match in it",
    ]


def test_a_broken_jsonl_line_gives_the_column_and_the_whole_parser_message(tmp_path: Path) -> None:
    good = json.dumps(tiny_match(tiny()))
    quote = good.rindex('"Boris"')
    log = tmp_path / "club.jsonl"
    log.write_text(good + "\n" + good[: quote + 3] + "\n" + good[:quote] + "}\n", encoding="utf-8")
    lines = run(str(log)).stdout.splitlines()
    assert lines[:2] == [
        f"{log}:2: error [bad-json] invalid JSON: unterminated string starting at column {quote + 1}",
        f"{log}:3: error [bad-json] invalid JSON at column {quote + 1}: expecting value",
    ]


def test_c1_controls_are_escaped_too() -> None:
    from coloretto_log.core.errors import one_line

    assert one_line("A\x9b31mB\x1b]0;x\x07") == "A\\u009b31mB\\x1b]0;x\\x07"


def test_json_report_is_written_a_match_at_a_time_with_the_same_bytes() -> None:
    import io

    from coloretto_log.cli.common import JsonReport, emit_json

    for matches in ([], [{"a": [1, {"b": "é"}]}, {"c": None}]):
        streamed, whole = io.StringIO(), io.StringIO()
        report = JsonReport(streamed)
        for m in matches:
            report.match(m)
        report.close(unreadable=[{"file": "x", "error": "y"}], summary={"matches": len(matches)})
        emit_json({"matches": matches, "unreadable": [{"file": "x", "error": "y"}],
                   "summary": {"matches": len(matches)}}, file=whole)
        assert streamed.getvalue() == whole.getvalue()
