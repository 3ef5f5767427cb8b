"""``simulate`` from the command line: dates, the numbers in its notes, and how many processes it starts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app, common
from coloretto_log.log.replay import check_match

runner = CliRunner(env={"COLUMNS": "1000"})  # whole lines: piped output wraps at 80
BASE = ["simulate", "--games", "1", "--bots", "greedy", "--seed", "7", "--no-progress"]


def _matches(*args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, [*BASE, *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_notes_count_matches_from_1_as_first_match_does() -> None:
    part = _matches("-n", "2", "--first-match", "11")
    assert [m["notes"] for m in part] == [
        "simulated: coloretto-log simulate --seed 7, match 11",
        "simulated: coloretto-log simulate --seed 7, match 12",
    ]
    again = _matches("-n", "1", "--first-match", "12")  # what the note says gives the same match again
    assert again == part[1:]


def test_date_one_match_a_day_from_the_first_match_of_the_run() -> None:
    whole = _matches("-n", "4", "--date", "2026-12-30")
    assert [m["date"] for m in whole] == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]
    tail = _matches("-n", "2", "--first-match", "3", "--date", "2026-12-30")
    assert tail == whole[2:]  # a split run is dated as one run
    two = _matches("-n", "5", "--date", "2028-02-28", "--per-day", "2")
    assert [m["date"] for m in two] == ["2028-02-28", "2028-02-28", "2028-02-29", "2028-02-29", "2028-03-01"]
    for m in whole:  # the date sits where the format puts it, and the logs stay valid without a finding
        assert list(m)[:4] == ["format", "version", "date", "rules"]
        assert check_match(m).all_findings() == []
    assert "date" not in _matches("-n", "1")[0]  # no --date: undated, as before


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--date", "2026-02-30"], "--date 2026-02-30: not a day of the calendar"),
        (["--date", "1/2/2026"], "not a day of the calendar"),
        (["--date", "9999-12-31"], "after the year 9999"),
        (["--date", "2026-01-01", "--per-day", "0"], "--per-day must be 1 or more"),
    ],
)
def test_bad_dates_are_usage_errors(args: list[str], words: str) -> None:
    result = runner.invoke(app, [*BASE, "-n", "2", *args])
    assert result.exit_code == 2
    assert words in result.output and "Traceback" not in result.output


def test_jobs_is_capped_at_the_cores(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(common, "usable_cores", lambda: 2)
    assert [common.processes(j) for j in (0, 1, 2, 3, 500)] == [2, 1, 2, 2, 2]
    import coloretto_log.cli.simulate as command

    asked: list[int] = []
    real = command.run

    def counting(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["jobs"])
        return real(*args, **kwargs)

    monkeypatch.setattr(command, "run", counting)
    one = runner.invoke(app, [*BASE, "-n", "2", "-j", "500", "--out", str(tmp_path / "a.jsonl")])
    assert one.exit_code == 0, one.output
    assert asked == [2]
    plain = runner.invoke(app, [*BASE, "-n", "2", "--out", str(tmp_path / "b.jsonl")])
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes() and plain.exit_code == 0


def test_the_summary_names_the_output_file_as_written(tmp_path: Path) -> None:
    """A path with brackets and colons is printed as given: never read as rich markup ("[bold]" vanished)
    or as an emoji code (":smile:" became a face)."""
    folder = tmp_path / "x[bold]y"
    folder.mkdir()
    out = folder / "s:smile:.jsonl"
    result = runner.invoke(app, [*BASE, "-n", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"to {out};" in result.stdout
    assert out.stat().st_size > 0
