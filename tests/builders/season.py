"""The command line in-process, a club season's log file and a small database, for the site's tests.

``season(folder, first, count)`` writes matches ``first`` .. of a spring
season whose players include a ``<script>`` name and one with a right-to-left
override (``HOSTILE``, ``BIDI``); ``two_matches(tmp_path)`` ingests two
sample logs; ``tree(folder)`` is a built folder's every file and its digest.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.writer import dumps_line

from ..conftest import SAMPLES
from .club import club_matches

HOSTILE = "<script>alert(1)</script>"
BIDI = "Ada\u202eevil\u202c"
ROSTER: dict[str, str] = {
    "Aiko": "strong", "Boris": "greedy", "Chloe": "greedy", "Dae": "random", HOSTILE: "greedy", BIDI: "random",
}  # fmt: skip

_runner = CliRunner(env={"COLUMNS": "1000"})  # whole lines: piped output wraps at 80


def cli(*args: str) -> Any:
    """``coloretto-log ARGS`` in this process: the click result (exit_code, stdout, stderr, output)."""
    return _runner.invoke(app, list(args))


def write_jsonl(path: Path, matches: Iterator[dict[str, Any]]) -> Path:
    path.write_text("".join(dumps_line(m) + "\n" for m in matches), encoding="utf-8")
    return path


def season(folder: Path, first: int, count: int) -> Path:
    """Matches ``first`` .. of a club season: dated, one or two a day over the spring."""
    return write_jsonl(
        folder / f"season-{first}.jsonl",
        club_matches(count, roster=ROSTER, seed=5, first=first, sizes=(3, 4), start=_dt.date(2026, 3, 1), days=60,
                     span=40),
    )


def two_matches(tmp_path: Path) -> tuple[Path, Path]:
    """Two sample logs (a 2-player game, a 3-player match) copied into ``tmp_path/logs`` and ingested into
    ``tmp_path/club.duckdb``: (the database, the logs' folder)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(SAMPLES / "classic-2p-recorded-game.json", logs)
    shutil.copy(SAMPLES / "classic-3p-seeded-match.json", logs)
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(logs)).exit_code == 0
    return db, logs


def tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (by its path inside it) with the SHA-256 of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}
