"""What the club's site shows, read from the database in a few bulk queries (``coloretto-log site``).

:func:`club_data` reads every match, every player's result in every game
and match, the ratings (stored when fresh, else computed: ``ratings.report``)
with each player's history, the club's statistics (``stats.report``) and the
stored analyses, and every tournament with its standings. It never writes: the store is opened read-only. The pages
are drawn from it by ``coloretto_log.site``.
"""

from __future__ import annotations

import datetime as _dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ...club.swiss import Standing
from ...core.cards import ALL_COLOURS
from ..club.tournaments import Tournament, every_tournament
from ..queries.stats import Filter, report
from ..ratings.model import HistoryRow, Options, PlayerRow
from ..ratings.report import plot_series
from ..store import MatchStore
from .analyses import stored_analyses

__all__ = ["ClubData", "GameSeat", "MatchRow", "MatchSeat", "club_data"]


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A stored match: what the lists of matches and the match page say about it."""

    match_id: str
    content_hash: str
    date: _dt.date | None
    edition: str
    scoring: str
    players: tuple[str, ...]
    games_played: int
    games_complete: int
    complete: bool
    winners: tuple[str, ...]
    source_file: str
    source_line: int | None


@dataclass(frozen=True, slots=True)
class MatchSeat:
    """A player's result over a match."""

    match_id: str
    seat: int
    player: str
    total: int
    rank: int
    win: bool | None


@dataclass(frozen=True, slots=True)
class GameSeat:
    """A player's finished game: cards held, the optimal assignment and score, the claim and its verdict."""

    match_id: str
    game: int
    seat: int
    player: str
    n_players: int
    held: dict[str, int]  # colour (in play) -> cards; "joker", "golden_joker", "plus2"
    score: int
    rank: int
    win: bool
    joker_colours: tuple[str, ...]
    positive: tuple[str, ...]
    points: dict[str, int]  # colour -> signed points; "plus2"
    claimed_score: int | None
    claimed_jokers: tuple[str, ...] | None
    claimed_positive: tuple[str, ...] | None
    verdict: str | None


@dataclass(slots=True)
class ClubData:
    """Everything the site draws, read at once."""

    matches: list[MatchRow]  # newest first (undated last)
    match_seats: dict[str, list[MatchSeat]]  # match id -> seats in order
    game_seats: dict[str, list[GameSeat]]  # match id -> finished games' seats, by game then seat
    ratings: list[PlayerRow]  # best first
    ratings_source: str  # "stored" or "computed"
    history: dict[str, list[HistoryRow]]  # player -> rating after each game, in rating order
    stats: dict[str, Any]  # stats.report over every match
    analyses: dict[str, tuple[str, dict[str, Any]]]  # match id -> (content hash, analyze JSON)
    players: list[str] = field(default_factory=list)  # every player, by name
    score_months: dict[str, list[tuple[str, int, float]]] = field(default_factory=dict)  # player -> (month, games, mean)
    score_bins: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # player -> (bin's lowest score, games)
    events: list[tuple[Tournament, list[Standing]]] = field(default_factory=list)  # every tournament, by name


def _t(value: Any) -> tuple[str, ...]:
    return tuple(value) if value is not None else ()


def club_data(store: MatchStore) -> ClubData:
    """Read everything the site shows (a handful of queries, whatever the number of matches)."""
    matches = [
        MatchRow(mid, digest, date, edition, scoring, tuple(players), played, done, bool(complete), _t(winners), src, line)
        for mid, digest, date, edition, scoring, players, played, done, complete, winners, src, line in store.execute(
            "SELECT match_id, content_hash, date, edition, scoring, players, games_played, games_complete, complete, "
            "winners, source_file, source_line FROM matches ORDER BY date DESC NULLS LAST, match_id"
        ).fetchall()
    ]
    match_seats: dict[str, list[MatchSeat]] = defaultdict(list)
    for row in store.execute(
        "SELECT match_id, seat, player, total, rank, win FROM match_players ORDER BY match_id, seat"
    ).fetchall():
        match_seats[row[0]].append(MatchSeat(*row))
    colours = ", ".join(f'"{c}", points_{c}' for c in ALL_COLOURS)
    game_seats: dict[str, list[GameSeat]] = defaultdict(list)
    for row in store.execute(
        "SELECT match_id, game, seat, player, n_players, score, rank, win, joker_colours, positive, plus2_points, "
        "claimed_score, claimed_jokers, claimed_positive, verdict, jokers, golden_jokers, plus2, "
        f"{colours} FROM game_players WHERE complete ORDER BY match_id, game, seat"
    ).fetchall():
        mid, game, seat, player, n, score, rank, win, jc, pos, p2, cs, cj, cp, verdict, jk, gj, plus2 = row[:18]
        rest = row[18:]
        held: dict[str, int] = {}
        points: dict[str, int] = {}
        for i, c in enumerate(ALL_COLOURS):
            if rest[2 * i] is not None:
                held[c] = rest[2 * i]
                points[c] = rest[2 * i + 1] or 0
        held.update(joker=jk, golden_joker=gj, plus2=plus2)
        points["plus2"] = p2 or 0
        game_seats[mid].append(
            GameSeat(mid, game, seat, player, n, held, score, rank, bool(win), _t(jc), _t(pos), points, cs,
                     None if cj is None else tuple(cj), None if cp is None else tuple(cp), verdict)
        )
    players = sorted({s.player for seats in match_seats.values() for s in seats})
    stats = report(store, Filter())
    score_months: dict[str, list[tuple[str, int, float]]] = defaultdict(list)
    for player, month, games, mean in store.execute(
        "SELECT gp.player, strftime(m.date, '%Y-%m'), count(*), avg(gp.score) FROM game_players gp "
        "JOIN matches m USING (match_id) WHERE gp.complete AND m.date IS NOT NULL GROUP BY ALL ORDER BY ALL"
    ).fetchall():
        score_months[player].append((month, games, float(mean)))
    width = max(int(stats.get("histogram", {}).get("width") or 1), 1)  # the club's bins
    score_bins: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for player, low, games in store.execute(
        "SELECT player, floor(score / $w)::INTEGER * $w, count(*) FROM game_players WHERE complete "
        "GROUP BY ALL ORDER BY ALL", {"w": width}
    ).fetchall():
        score_bins[player].append((low, games))
    source, rows, history_rows = plot_series(store, Options(), top=max(len(players), 1))
    history: dict[str, list[HistoryRow]] = defaultdict(list)
    for h in history_rows:
        history[h.player].append(h)
    return ClubData(
        matches=matches,
        match_seats=dict(match_seats),
        game_seats=dict(game_seats),
        ratings=rows,
        ratings_source=source.kind,
        history=dict(history),
        stats=stats,
        analyses=stored_analyses(store),
        players=players,
        score_months=dict(score_months),
        score_bins=dict(score_bins),
        events=every_tournament(store),
    )
