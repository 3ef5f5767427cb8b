"""``export``: the database as Parquet (every table, partitioned by month) and as BG Stats plays."""

from __future__ import annotations

import datetime as _dt
import os
import shutil
from pathlib import Path
from typing import Any

from .errors import DatabaseError, db_error
from .schema import APP, TABLES
from .store import MatchStore

__all__ = ["bgstats_plays", "export_parquet"]



def export_parquet(store: MatchStore, folder: str | Path) -> dict[str, int]:
    """Every table as Parquet under ``folder/TABLE/month=YYYY-MM/`` (hive style); rows per table.

    ``month`` comes from the match's date (``undated`` when it has none).
    The folder must not exist or be empty; it is written beside it first
    and renamed into place when complete.
    """
    target = Path(folder)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise DatabaseError(f"{target}: exists and is not an empty folder; choose a new folder")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise DatabaseError(f"{parent}: no such folder")
    tmp = parent / f".{target.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    month = "coalesce(strftime(m.date, '%Y-%m'), 'undated')"
    counts: dict[str, int] = {}
    try:
        tmp.mkdir()
        for name in TABLES:
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
            store.execute(
                f"COPY ({source}) TO '{path}' (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd)"
            )
        if target.exists():
            target.rmdir()
        os.replace(tmp, target)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise db_error(target, e, writing=True) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return counts

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
