"""``analyze`` streams a ``.jsonl``: each match is analysed and printed as it is read, and nothing of it is
kept once it is (issue 19: it used to read every match before analysing any). Behaviour, not timing: the
memory figures on 20,000 matches are ``benchmarks/bench_analyze.py --only memory``'s."""

from __future__ import annotations

import gc
import json
import queue
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import analyze as cli_analyze
from coloretto_log.cli import app
from coloretto_log.coach.analyze import MatchAnalysis, analyze_match

runner = CliRunner()
#: Cheap settings: one sample a decision, one player's decisions of short two-player games.
CHEAP = ["--player", "greedy-1", "--samples", "1", "--max-se", "0"]


def matches(tmp_path: Path, n: int, games: int = 1) -> Path:
    path = tmp_path / f"sims-{n}x{games}.jsonl"
    result = runner.invoke(app, ["simulate", "-n", str(n), "--games", str(games), "--player-count", "2",
                                 "--bots", "greedy", "--out", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_each_match_is_printed_before_the_next_line_is_read(tmp_path: Path) -> None:
    lines = matches(tmp_path, 3).read_bytes().splitlines(keepends=True)
    proc = subprocess.Popen([sys.executable, "-m", "coloretto_log", "analyze", "-", *CHEAP, "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    out: queue.Queue[bytes] = queue.Queue()
    stdout = proc.stdout

    def read() -> None:
        for line in stdout:
            out.put(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        # two lines tell JSON Lines from one document; the third is not written until both matches are out
        proc.stdin.write(lines[0] + lines[1])
        proc.stdin.flush()
        seen = b""
        while b'"match": 2,' not in seen:
            try:
                seen += out.get(timeout=120)
            except queue.Empty:
                pytest.fail(f"nothing printed of match 2 while the input stays open; so far: {seen[-300:]!r}")
        assert b'"match": 3,' not in seen
        proc.stdin.write(lines[2])
        proc.stdin.close()
        assert proc.wait(timeout=120) == 0, proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    while not out.empty():
        seen += out.get()
    assert [m["line"] for m in json.loads(seen)["matches"]] == [1, 2, 3]


def test_no_match_analysis_is_kept_once_it_is_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = matches(tmp_path, 6)
    made: list[weakref.ref[MatchAnalysis]] = []
    alive_at_each: list[int] = []

    def analyse(*args: Any, **kwargs: Any) -> MatchAnalysis:
        gc.collect()
        alive_at_each.append(sum(1 for r in made if r() is not None))
        result = analyze_match(*args, **kwargs)
        made.append(weakref.ref(result))
        return result

    monkeypatch.setattr(cli_analyze, "analyze_match", analyse)
    page = tmp_path / "page.html"
    # What the process held before the test is set apart from the collections (gc.freeze): in a worker of the
    # whole suite each full collection walked every object of the suite's modules and fixtures (51 s of the
    # test at load 7, 6.5 s alone). An analysis's result is made after it and collected as before; one held
    # through something older stays alive, so the check finds every leak it found before.
    gc.collect()
    gc.freeze()
    try:
        for args in (["--json"], ["--format", "csv"], [], ["--json", "--html", str(page)], ["--html", str(page), "--force"]):
            made.clear()
            alive_at_each.clear()
            result = runner.invoke(app, ["analyze", str(path), *CHEAP, *args])
            assert result.exit_code == 0, result.output
            assert len(made) == 6
            # when match k is analysed, at most match k-1's result is still held (the loop's variable)
            assert max(alive_at_each) <= 1, (args, alive_at_each)
    finally:
        gc.unfreeze()
    assert page.read_text(encoding="utf-8").count('"summary"') >= 6  # the page has every match's analysis


def test_a_page_past_its_limit_stops_the_analysis_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = matches(tmp_path, 6)
    page = tmp_path / "page.html"
    whole = runner.invoke(app, ["analyze", str(path), *CHEAP, "--json", "--html", str(page)])
    assert whole.exit_code == 0, whole.output
    size = page.stat().st_size
    page.unlink()
    calls: list[int] = []

    def analyse(item: Any, number: int, *args: Any, **kwargs: Any) -> MatchAnalysis:
        calls.append(number)
        return analyze_match(item, number, *args, **kwargs)

    monkeypatch.setattr(cli_analyze, "analyze_match", analyse)
    monkeypatch.setattr("coloretto_log.view.html.PAGE_LIMIT", size // 2)  # passed at about the third match
    result = runner.invoke(app, ["analyze", str(path), *CHEAP, "--json", "--html", str(page)])
    assert result.exit_code == 2
    assert "not written: with match" in result.stderr and not page.exists()
    assert 1 < len(calls) < 6 and calls == list(range(1, len(calls) + 1))  # no match analysed past the limit
    printed = json.loads(result.stdout)["matches"]  # what was printed is whole JSON
    assert printed == json.loads(whole.stdout)["matches"][: len(calls)]


def test_matches_without_game_g_are_said_as_met_and_the_others_analysed(tmp_path: Path) -> None:
    one = matches(tmp_path, 2, games=1)
    first, third = one.read_text(encoding="utf-8").splitlines()
    second = matches(tmp_path, 1, games=2).read_text(encoding="utf-8").strip()
    path = tmp_path / "mixed.jsonl"
    path.write_text(f"{first}\n{second}\n{third}\n", encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), "--game", "2", *CHEAP, "--json"])
    assert result.exit_code == 2  # a match without game 2 is the usage error, the others are still analysed
    assert [m["line"] for m in json.loads(result.stdout)["matches"]] == [2]
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [f"Error: --game 2: {path}:1 holds 1 game", f"Error: --game 2: {path}:3 holds 1 game"]
    none = runner.invoke(app, ["analyze", str(one), "--game", "2", *CHEAP, "--json"])
    assert none.exit_code == 2 and len(none.stderr.splitlines()) == 2 and "Traceback" not in none.output
