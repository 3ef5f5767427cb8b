"""Reading logs: .jsonl files and JSON Lines on stdin are streamed, with the size limit per match."""

from __future__ import annotations

import io
import json
from pathlib import Path

from coloretto_log.log import reader as files
from coloretto_log.log.load import LoadedMatch, Unreadable, load

from ..conftest import SAMPLES

MATCH = (SAMPLES / "classic-2p-recorded-game.json").read_text(encoding="utf-8")
LINE = json.dumps(json.loads(MATCH), separators=(",", ":"))


def test_a_jsonl_file_over_the_limit_is_read_match_by_match(tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    copies = files.MAX_FILE_BYTES // len(LINE) + 5
    path.write_text((LINE + "\n") * copies, encoding="utf-8")
    assert path.stat().st_size > files.MAX_FILE_BYTES
    seen = 0
    for item in load([str(path)]):
        assert isinstance(item, LoadedMatch) and item.report.valid
        seen += 1
    assert seen == copies
    assert item.line == copies and item.label == f"{path}:{copies}"


def test_a_json_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (files.MAX_FILE_BYTES + 1) + b"{}")
    (item,) = load([str(path)])
    assert isinstance(item, Unreadable) and "limit" in item.message


def test_one_line_over_the_limit_is_a_finding_and_the_next_lines_are_read(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        f.write(LINE + "\n")
        f.write('{"notes": "' + "x" * files.MAX_FILE_BYTES + '"}\n')
        f.write(LINE + "\n")
    items = list(load([str(path)]))
    assert [i.line for i in items if isinstance(i, LoadedMatch)] == [1, 2, 3]
    assert [f.rule for f in items[1].findings()] == ["bad-json"]  # type: ignore[union-attr]
    assert items[0].report.valid and items[2].report.valid  # type: ignore[union-attr]


def test_stdin_json_lines_are_numbered_and_a_pretty_document_is_one_match() -> None:
    stream = io.BytesIO(("\n" + LINE + "\n\n" + LINE + "\n").encode())
    items = list(load(["-"], stdin=stream))
    assert [(i.label, i.report.valid) for i in items] == [("<stdin>:2", True), ("<stdin>:4", True)]  # type: ignore[union-attr]
    (one,) = load(["-"], stdin=io.BytesIO(MATCH.encode()))
    assert isinstance(one, LoadedMatch) and one.label == "<stdin>" and one.report.valid
    (single,) = load(["-"], stdin=io.BytesIO((LINE + "\n").encode()))
    assert isinstance(single, LoadedMatch) and single.label == "<stdin>" and single.report.valid


def test_a_folder_without_logs_is_reported_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no logs here", encoding="utf-8")
    (item,) = load([str(tmp_path)])
    assert isinstance(item, Unreadable)
    assert item.message == f"{tmp_path}: not a regular file but a folder, with no .json or .jsonl files in it"
