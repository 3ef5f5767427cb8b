"""``export``: the database as Parquet (every table, partitioned by month) and as BG Stats plays.

Nothing is ever written onto the database or into a folder that holds it;
an existing output is replaced only with ``force`` (``outputs.py`` beside it).
"""

from __future__ import annotations

import datetime as _dt
import os
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...log.atomic import atomic_write_text, write_problem
from ...log.writer import dumps_pretty
from ..errors import DatabaseError, db_error, shown
from ..schema import APP, LOGS_TABLE, TABLES
from ..store import MatchStore, default_db_path
from .outputs import folder_problem, output_problem

__all__ = ["Exported", "bgstats_plays", "export", "export_parquet", "write_bgstats"]



def export_parquet(store: MatchStore, folder: str | Path, *, force: bool = False) -> dict[str, int]:
    """Every table as Parquet under ``folder/TABLE/month=YYYY-MM/`` (hive style); rows per table.

    ``month`` comes from the match's date (``undated`` when it has none).
    The folder must be new or empty (or, with ``force``, an earlier export,
    which is replaced); :func:`outputs.folder_problem` says why not. It is
    written beside its place first and renamed into place when complete.
    """
    target = Path(folder)
    problem = folder_problem(target, inputs=[store.path], force=force)
    if problem:
        raise DatabaseError(problem)
    parent = target.parent if str(target.parent) else Path(".")
    tmp = parent / f".{target.name}.tmp-{secrets.token_hex(8)}"  # unpredictable, made here (mkdir never reuses one)
    try:
        tmp.mkdir()
    except OSError as e:
        raise db_error(target, e, writing=True) from None
    old = tmp.with_name(tmp.name.replace(".tmp-", ".old-", 1))
    month = "coalesce(strftime(m.date, '%Y-%m'), 'undated')"
    counts: dict[str, int] = {}
    try:
        for name in TABLES:
            if name == LOGS_TABLE and not store.has_logs:  # a version-1 database, read as it is: no logs kept
                continue
            if name == "matches":
                source = f"SELECT m.*, {month} AS month FROM matches m"
            else:
                source = f"SELECT t.*, {month} AS month FROM {name} t JOIN matches m USING (match_id)"
            counts[name] = int(store.scalar(f"SELECT count(*) FROM {name}"))
            out = tmp / name
            if counts[name] == 0:
                out.mkdir()
                continue
            path = str(out).replace("'", "''")
            store.execute(f"COPY ({source}) TO '{path}' (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd)").fetchall()
        if target.is_dir() and any(target.iterdir()):
            os.replace(target, old)  # an earlier export, replaced with --force
        elif target.is_dir():
            target.rmdir()
        os.replace(tmp, target)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        if old.exists() and not target.exists():
            os.replace(old, target)
        raise db_error(target, e, writing=True) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return counts


def write_bgstats(store: MatchStore, out: str | Path, *, force: bool = False) -> tuple[int, int]:
    """Write :func:`bgstats_plays` to ``out`` atomically; how many plays, and how many finished matches had no date.

    Refuses (:func:`outputs.output_problem`) the database itself and, unless
    ``force``, an existing file.
    """
    target = Path(out)
    problem = output_problem(target, inputs=[store.path], force=force)
    if problem:
        raise DatabaseError(problem)
    plays, undated = bgstats_plays(store)
    try:
        atomic_write_text(Path(os.path.realpath(target)), dumps_pretty(plays))
    except OSError as e:
        raise DatabaseError(write_problem(shown(target), e)) from None
    return len(plays), undated


@dataclass(frozen=True, slots=True)
class Exported:
    """What :func:`export` wrote: rows per table in Parquet (None when not asked), plays and undated matches."""

    parquet: dict[str, int] | None
    plays: int | None
    undated: int


def export(path: str | Path | None, *, parquet: Path | None, bgstats: Path | None, force: bool = False) -> Exported:
    """``export``: the database at ``path`` as Parquet into ``parquet`` and/or as BG Stats plays into ``bgstats``.

    Both outputs are checked before either is written.
    """
    db = Path(path) if path is not None else default_db_path()
    if parquet is not None and bgstats is not None:
        try:
            inside = Path(os.path.realpath(bgstats)).is_relative_to(os.path.realpath(parquet))
        except OSError:
            inside = False
        if inside:
            raise DatabaseError(f"{shown(bgstats)}: is inside the --parquet folder; write it elsewhere")
    with MatchStore.open(db, read_only=True) as store:
        if bgstats is not None:
            problem = output_problem(bgstats, inputs=[store.path], force=force)
            if problem:
                raise DatabaseError(problem)
        if parquet is not None:
            problem = folder_problem(parquet, inputs=[store.path], force=force)
            if problem:
                raise DatabaseError(problem)
        counts = export_parquet(store, parquet, force=force) if parquet is not None else None
        plays, undated = write_bgstats(store, bgstats, force=force) if bgstats is not None else (None, 0)
    return Exported(counts, plays, undated)


def bgstats_plays(store: MatchStore) -> tuple[list[dict[str, Any]], int]:
    """Finished, dated matches as BG Stats plays; and how many finished matches had no date."""
    rows = store.execute(
        """
        SELECT m.match_id, m.date, m.games_planned, m.edition, m.scoring,
               list(struct_pack(seat := p.seat, player := p.player, total := p.total, rank := p.rank) ORDER BY p.seat),
               (SELECT first_player FROM games g WHERE g.match_id = m.match_id AND g.game = 1)
        FROM matches m JOIN match_players p USING (match_id)
        WHERE m.complete AND m.date IS NOT NULL
        GROUP BY ALL
        ORDER BY m.date, m.match_id
        """
    ).fetchall()
    undated = int(store.scalar("SELECT count(*) FROM matches WHERE complete AND date IS NULL"))
    return [_bgstats_play(*row) for row in rows], undated


def _bgstats_play(
    match_id: str, date: _dt.date, games: int, edition: str, scoring: str, players: list[dict[str, Any]], first: str | None
) -> dict[str, Any]:
    """One match in the shape of BG Stats' play import (bgstatsapp.com, "push plays")."""
    rules = f"{edition} edition, {scoring} scoring, {games} game{'s' if games != 1 else ''}"
    return {
        "sourceName": APP,
        "sourcePlayId": match_id,
        "playDate": f"{date.isoformat()} 00:00:00",
        "game": {
            "name": "Coloretto",
            "bggId": 5782,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": "coloretto",
        },
        "players": [
            {
                "name": p["player"],
                "score": p["total"],
                "winner": p["rank"] == 1,
                "rank": p["rank"],
                "startPlayer": p["player"] == first,
                "sourcePlayerId": p["player"],
            }
            for p in players
        ],
        "comments": f"coloretto-log match {match_id}: {rules}",
    }
