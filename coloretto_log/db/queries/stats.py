"""The reports of ``coloretto-log stats``: SQL over a ``MatchStore``, returned as plain values.

:func:`report` runs one aggregate query per section over the complete games
that pass a :class:`Filter` and returns a dict with a fixed key order (the
JSON of ``stats --format json``; docs/database.md describes every figure):

``filters``, ``summary``, ``players``, ``seats``, ``turns`` (first-player
advantage), ``head_to_head``, ``colours``, ``specials`` (jokers and "+2"
cards of winners and of the others), ``length``, ``claims`` and
``histogram`` (scores).

Win rates count a shared win as a win and come with their sample size and a
Wilson 95% interval. Nothing here prints.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.cards import ALL_COLOURS
from ...core.confidence import wilson
from ..filters import match_conditions
from ..store import MatchStore

__all__ = ["REPORTS", "SECTIONS", "Filter", "Report", "report", "report_file", "wilson"]

HISTOGRAM_BINS = 20


@dataclass(frozen=True, slots=True)
class Filter:
    """Which matches a report covers; ``None`` fields do not filter.

    ``player`` keeps the matches that player played and narrows the
    per-player sections to them; ``since`` / ``until`` are inclusive and leave
    out undated matches.
    """

    player: str | None = None
    since: _dt.date | None = None
    until: _dt.date | None = None
    edition: str | None = None
    players: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "since": None if self.since is None else self.since.isoformat(),
            "until": None if self.until is None else self.until.isoformat(),
            "edition": self.edition,
            "players": self.players,
        }


def _rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {
        "rate": None if n == 0 else k / n,
        "low": low,
        "high": high,
    }


class _Sql:
    """The filtered row sets every section reads, as SQL fragments with their parameters."""

    def __init__(self, flt: Filter) -> None:
        conds, params = match_conditions(since=flt.since, until=flt.until, edition=flt.edition, players=flt.players)
        # conditions every table can answer on its own rows (n_players); the others only matches can
        direct = [conds.pop("n_players")] if "n_players" in conds else []
        in_matches = list(conds.values())
        played: list[str] = []
        if flt.player is not None:
            played.append("list_contains(players, $player)")
            params["player"] = flt.player
        self.params = params

        def semi(conds: list[str]) -> str:
            if not conds:
                return ""
            return f" AND match_id IN (SELECT match_id FROM matches WHERE {' AND '.join(conds)})"

        plain = "".join(f" AND {c}" for c in direct)
        every = direct + in_matches + played
        self.matches = f"(SELECT * FROM matches WHERE {' AND '.join(every) or 'true'})"
        #: complete games of the selected matches (those the --player played)
        self.games = f"(SELECT * FROM games WHERE complete{plain}{semi(in_matches + played)})"
        #: every player of those games
        self.all_players = f"(SELECT * FROM game_players WHERE complete{plain}{semi(in_matches + played)})"
        #: the rows the per-player sections are about: every player, or the --player's own
        only = " AND player = $player" if flt.player is not None else ""
        self.players = f"(SELECT * FROM game_players WHERE complete{plain}{semi(in_matches)}{only})"
        self.match_players = f"(SELECT * FROM match_players WHERE true{plain}{semi(in_matches)}{only})"


def report_file(path: str | Path | None, flt: Filter) -> dict[str, Any]:
    """:func:`report` over the database file at ``path`` (default ``$COLORETTO_DB`` or ``coloretto.duckdb``), read-only."""
    with MatchStore.open(path, read_only=True) as store:
        return report(store, flt)


def report(store: MatchStore, flt: Filter) -> dict[str, Any]:
    """Every report of :data:`REPORTS` for the matches ``flt`` selects, after the ``filters``."""
    sql = _Sql(flt)

    def rows(query: str, **extra: str) -> list[tuple[Any, ...]]:
        text = query.format(
            m=sql.matches, g=sql.games, gp=sql.players, ap=sql.all_players, mp=sql.match_players, **extra
        )
        used = {k: v for k, v in sql.params.items() if f"${k}" in text}
        return store.execute(text, used).fetchall()

    out: dict[str, Any] = {"filters": flt.as_json()}
    for entry in REPORTS:
        out[entry.name] = entry.compute(rows, flt, out)
    return out


Rows = Any  # the ``rows(query, **fragments)`` helper of ``report``


def _summary(rows: Rows) -> dict[str, Any]:
    (matches, complete, games, dated, first, last), = rows(
        "SELECT count(*), count(*) FILTER (WHERE complete), coalesce(sum(games_complete), 0), count(date), min(date), max(date) FROM {m}"
    )
    (players,), = rows("SELECT count(DISTINCT player) FROM {ap}")
    return {
        "matches": matches,
        "complete_matches": complete,
        "games": int(games),
        "players": players,
        "dated_matches": dated,
        "first_date": None if first is None else first.isoformat(),
        "last_date": None if last is None else last.isoformat(),
    }


def _players(rows: Rows) -> list[dict[str, Any]]:
    per_game = {
        r[0]: r[1:]
        for r in rows(
            "SELECT player, count(*), count(*) FILTER (WHERE win), count(*) FILTER (WHERE shared_win), avg(score), max(score), min(score), avg(rank) "
            "FROM {gp} GROUP BY player"
        )
    }
    per_match = {
        r[0]: r[1:]
        for r in rows("SELECT player, count(*), count(win), count(*) FILTER (WHERE win) FROM {mp} GROUP BY player")
    }
    out = []
    for name in sorted(set(per_game) | set(per_match)):
        games, wins, shared, avg, best, worst, avg_rank = per_game.get(name, (0, 0, 0, None, None, None, None))
        matches, finished, match_wins = per_match.get(name, (0, 0, 0))
        out.append(
            {
                "player": name,
                "matches": matches,
                "complete_matches": finished,
                "match_wins": match_wins,
                "games": games,
                "wins": wins,
                "shared_wins": shared,
                "win_rate": _rate(wins, games),
                "avg_score": avg,
                "best_score": best,
                "worst_score": worst,
                "avg_rank": avg_rank,
            }
        )
    out.sort(key=lambda p: (-(p["win_rate"]["rate"] or 0.0), -p["games"], p["player"]))
    return out


def _advantage(rows: Rows, column: str) -> list[dict[str, Any]]:
    """Win rate by ``seat`` (from 0) or by place in the turn order (``turn``, 1 = the first player)."""
    return [
        {
            "players": n,
            column: place,
            "games": games,
            "wins": wins,
            "win_rate": _rate(wins, games),
            "expected": 1 / n,
        }
        for n, place, games, wins in rows(
            f"SELECT n_players, {column}, count(*), count(*) FILTER (WHERE win) FROM {{gp}} "
            f"GROUP BY n_players, {column} ORDER BY n_players, {column}"
        )
    ]


def _seats(rows: Rows) -> list[dict[str, Any]]:
    """Win rate by seat, and who held each seat most often, with the share of its games (``most_often``): a
    seat one player held nearly always (a bot of ``simulate`` without ``--rotate-seats``) measures that player."""
    held = {
        (n, seat): {"player": player, "share": games / total}
        for n, seat, player, games, total in rows(
            "SELECT n_players, seat, arg_max(player, c), max(c), sum(c) FROM "
            "(SELECT n_players, seat, player, count(*) AS c FROM {gp} GROUP BY n_players, seat, player) "
            "GROUP BY n_players, seat"
        )
    }
    return [{**r, "most_often": held[r["players"], r["seat"]]} for r in _advantage(rows, "seat")]


def _head_to_head(rows: Rows, player: str | None) -> list[dict[str, Any]]:
    """Games two players played together: who scored more. With ``player``, only that player's pairs."""
    # with a player: that player's rows against everyone; else each pair once
    left, pair = ("{gp}", "a.seat <> b.seat") if player is not None else ("{ap}", "a.player < b.player")
    query = (
        "SELECT a.player, b.player, count(*), count(*) FILTER (WHERE a.score > b.score), count(*) FILTER (WHERE a.score < b.score), "
        f"count(*) FILTER (WHERE a.score = b.score) FROM {left} a JOIN {{ap}} b "
        f"ON a.match_id = b.match_id AND a.game = b.game AND {pair} GROUP BY ALL"
    )
    out = [
        {"player": a, "opponent": b, "games": games, "wins": wins, "losses": losses, "ties": ties}
        for a, b, games, wins, losses, ties in rows(query)
    ]
    out.sort(key=lambda r: (-r["games"], r["player"], r["opponent"]))
    return out


def _colours(rows: Rows) -> list[dict[str, Any]]:
    parts = []
    for c in ALL_COLOURS:
        parts.append(
            f'count("{c}"), count_if("{c}" > 0), count_if(points_{c} > 0), avg(points_{c}), '
            f'avg(points_{c}) FILTER (WHERE "{c}" > 0)'
        )
    (values,) = rows("SELECT " + ", ".join(parts) + " FROM {gp}")
    out = []
    for i, c in enumerate(ALL_COLOURS):
        in_play, collected, positive, avg_points, avg_collected = values[5 * i : 5 * i + 5]
        if not in_play:
            continue  # (count_if over no row in play would be NULL, not 0)
        out.append(
            {
                "colour": c,
                "in_play": in_play,
                "collected": collected,
                "collected_rate": collected / in_play,
                "positive": positive,
                "positive_rate": positive / in_play,
                "avg_points": avg_points,
                "avg_points_collected": avg_collected,
            }
        )
    return out


def _specials(rows: Rows) -> list[dict[str, Any]]:
    found = {
        r[0]: r[1:]
        for r in rows(
            "SELECT win, count(*), avg(jokers + golden_jokers), avg(golden_jokers), avg(plus2), avg(score) "
            "FROM {gp} GROUP BY win"
        )
    }
    out = []
    for win, group in ((True, "winners"), (False, "others")):
        n, jokers, golden, plus2, score = found.get(win, (0, None, None, None, None))
        out.append(
            {
                "group": group,
                "player_games": n,
                "avg_jokers": jokers,
                "avg_golden_jokers": golden,
                "avg_plus2": plus2,
                "avg_score": score,
            }
        )
    return out


def _length(rows: Rows) -> list[dict[str, Any]]:
    return [
        {
            "players": n,
            "games": games,
            "avg_rounds": avg_r,
            "min_rounds": min_r,
            "max_rounds": max_r,
            "avg_moves": avg_m,
            "min_moves": min_m,
            "max_moves": max_m,
        }
        for n, games, avg_r, min_r, max_r, avg_m, min_m, max_m in rows(
            "SELECT n_players, count(*), avg(rounds), min(rounds), max(rounds), avg(moves), min(moves), max(moves) "
            "FROM {g} GROUP BY ALL ORDER BY ALL"
        )
    ]


#: Verdicts in the order ``score`` ranks them (docs/score.md).
VERDICTS = (
    "agrees",
    "illegal-choice",
    "over-claimed",
    "under-claimed",
    "choice-below-optimum",
    "choice-not-claimed",
)


def _claims(rows: Rows) -> dict[str, Any]:
    found = rows("SELECT verdict, count(*), count(claimed_score), count(*) FILTER (WHERE claimed_score <> score) FROM {gp} GROUP BY verdict")
    counts = {verdict: n for verdict, n, _, _ in found}
    player_games = sum(counts.values())
    checked = player_games - counts.get("no-claim", 0)
    agree = counts.get("agrees", 0)
    wrong = checked - agree
    return {
        "player_games": player_games,
        "checked": checked,
        "agree": agree,
        "wrong": wrong,
        "wrong_rate": _rate(wrong, checked),
        "score_claims": sum(r[2] for r in found),
        "wrong_scores": sum(r[3] for r in found),
        "by_verdict": {v: counts.get(v, 0) for v in VERDICTS},
    }


_EMPTY: dict[str, Any] = {"width": 1, "bins": []}


def _scores(rows: Rows, done: dict[str, Any]) -> dict[str, Any]:
    """The histogram over the range of the players' worst and best scores (the players report)."""
    scores = [(p["worst_score"], p["best_score"]) for p in done["players"] if p["best_score"] is not None]
    if not scores:
        return _EMPTY
    return _histogram(rows, min(w for w, _ in scores), max(b for _, b in scores))


def _histogram(rows: Rows, low: int, high: int) -> dict[str, Any]:
    """Scores in about ``HISTOGRAM_BINS`` bins of a round width, from ``low`` to ``high`` (the worst and best)."""
    width = _nice_width((high - low + 1) / HISTOGRAM_BINS)
    found = dict(rows(f"SELECT floor(score / {width})::BIGINT * {width}, count(*) FROM {{gp}} GROUP BY ALL"))
    bins = []
    edge = math.floor(low / width) * width
    while edge <= high:
        bins.append({"low": edge, "high": edge + width - 1, "count": found.get(edge, 0)})
        edge += width
    return {"width": width, "bins": bins}


def _nice_width(raw: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... at least ``raw``."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m >= raw:
                return step * m
        step *= 10


# --------------------------------------------------------------------------- the registry


def _months(rows: Rows) -> list[dict[str, Any]]:
    """Matches and finished games a month (dated matches), every month from the first to the last."""
    found = {month: (n, int(g)) for month, n, g in rows(
        "SELECT strftime(date, '%Y-%m'), count(*), coalesce(sum(games_complete), 0) FROM {m} "
        "WHERE date IS NOT NULL GROUP BY 1"
    )}
    if not found:
        return []
    year, month = map(int, min(found).split("-"))
    out = []
    while (key := f"{year:04d}-{month:02d}") <= max(found):
        n, g = found.get(key, (0, 0))
        out.append({"month": key, "matches": n, "games": g})
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


#: Recent form: the last this many finished games.
FORM = 10


def _form(rows: Rows) -> list[dict[str, Any]]:
    """Each player's finished games in order (date, match, game; undated first): the places of the last
    :data:`FORM`, wins among them, the longest run of wins and the run going on now."""
    ordered = (
        "SELECT gp.player, gp.win, gp.rank, gp.n_players, count(*) OVER (PARTITION BY gp.player) AS n, "
        "row_number() OVER (PARTITION BY gp.player ORDER BY m.date NULLS FIRST, gp.match_id, gp.game) AS i "
        "FROM {gp} gp JOIN matches m USING (match_id)"
    )
    longest = dict(rows(
        f"SELECT player, max(c) FROM (SELECT player, count(*) AS c FROM (SELECT player, "
        f"i - row_number() OVER (PARTITION BY player ORDER BY i) AS run FROM ({ordered}) WHERE win) "
        "GROUP BY player, run) GROUP BY player"
    ))
    out = []
    for player, n, places, sizes, current in rows(
        f"SELECT player, max(n), list(rank ORDER BY i) FILTER (WHERE i > n - {FORM}), "
        f"list(n_players ORDER BY i) FILTER (WHERE i > n - {FORM}), max(n) - coalesce(max(i) FILTER (WHERE NOT win), 0) "
        f"FROM ({ordered}) GROUP BY player ORDER BY player"
    ):
        out.append({"player": player, "games": n, "last": list(places), "last_players": list(sizes),
                    "last_wins": sum(1 for p in places if p == 1), "longest_streak": longest.get(player, 0),
                    "current_streak": current})
    return out


def _rivals(rows: Rows) -> list[dict[str, Any]]:
    """Each player's nemesis (the opponent who most often finished above them in a finished game; ties: the
    higher share of their games together, then the name) and victim (the one they most often finished above)."""
    pairs: dict[str, list[tuple[str, int, int, int]]] = {}  # player -> (opponent, games, above, below)
    for a, b, games, above, below in rows(
        "SELECT a.player, b.player, count(*), count(*) FILTER (WHERE b.rank < a.rank), "
        "count(*) FILTER (WHERE b.rank > a.rank) FROM {gp} a JOIN {ap} b "
        "ON a.match_id = b.match_id AND a.game = b.game AND a.seat <> b.seat GROUP BY ALL ORDER BY ALL"
    ):
        pairs.setdefault(a, []).append((b, games, above, below))
    out = []
    for player, met in sorted(pairs.items()):
        row: dict[str, Any] = {"player": player}
        for role, key, col in (("nemesis", "nemesis_above", 2), ("victim", "victim_below", 3)):
            found: list[tuple[int, int, str]] = [(int(m[col]), m[1], m[0]) for m in met if m[col]]  # count, games, who
            best = min(found, key=lambda f: (-f[0], -f[0] / f[1], f[2]), default=None)
            row[role] = None if best is None else best[2]
            row[f"{role}_games"] = 0 if best is None else best[1]
            row[key] = 0 if best is None else best[0]
        out.append(row)
    return out


@dataclass(frozen=True, slots=True)
class Report:
    """One report of ``stats``: its name (``--report NAME``, the JSON key) and the query that computes it.

    ``compute(rows, filter, done)`` runs its SQL through ``rows`` and may read
    the reports computed before it (``done``). Its renderer for people is the
    entry of the same name in ``view.stats_table.RENDERERS``.
    """

    name: str
    compute: Callable[[Rows, Filter, dict[str, Any]], Any]


#: Every report, in output order. A new report is one entry here and one renderer in view/stats_table.py.
REPORTS: tuple[Report, ...] = (
    Report("summary", lambda rows, flt, done: _summary(rows)),
    Report("players", lambda rows, flt, done: _players(rows)),
    Report("seats", lambda rows, flt, done: _seats(rows)),
    Report("turns", lambda rows, flt, done: _advantage(rows, "turn")),
    Report("head_to_head", lambda rows, flt, done: _head_to_head(rows, flt.player)),
    Report("colours", lambda rows, flt, done: _colours(rows)),
    Report("specials", lambda rows, flt, done: _specials(rows)),
    Report("length", lambda rows, flt, done: _length(rows)),
    Report("claims", lambda rows, flt, done: _claims(rows)),
    Report("histogram", lambda rows, flt, done: _scores(rows, done)),
    Report("months", lambda rows, flt, done: _months(rows)),
    Report("form", lambda rows, flt, done: _form(rows)),
    Report("rivals", lambda rows, flt, done: _rivals(rows)),
)
#: The reports' names, in output order.
SECTIONS = tuple(r.name for r in REPORTS)
