"""Tournaments kept in the club's database (docs/tournament.md): the event, its rounds' tables, its results.

Four tables beside the matches, created the first time a tournament is
made (like the ratings' tables):

* ``tournaments``: name, rounds, placing points, table sizes, how round 1
  is paired, the seed;
* ``tournament_players``: who plays, in the order they were entered;
* ``tournament_seats``: every round's tables, seat by seat (seat 0 starts);
* ``tournament_results``: results entered by hand, a match total a player;
* ``tournament_finals``: the rule of each final table seated (made with the
  first final, so a database from before finals reads as it did).

Results recorded with ``record``/``serve --event NAME --round R
--at-table T`` and ingested are read from the matches themselves
(``matches.event``); a hand result stands for a table that did not record.
Every change is one transaction; a refused one changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from ...club.split import meetings_of
from ...club.swiss import (
    FINAL_RULES,
    Points,
    Standing,
    TableResult,
    final_seats,
    final_standings,
    pair_round,
    parse_points,
    points_text,
    standings,
)
from ...core.errors import UsageError
from ...log.limits import MAX_EVENT_NAME, MAX_EVENT_NUMBER
from ..errors import DatabaseError, db_error
from ..ingest.batches import digest_key
from ..ingest.rows import match_identity
from ..results import first_row
from ..store import MatchStore
from .history import UNRATED, player_ratings, seated_sizes

__all__ = [
    "FIRST_ROUND",
    "MAX_ROUNDS",
    "Result",
    "Tournament",
    "add_logs",
    "create",
    "enter_result",
    "every_tournament",
    "load",
    "pair_final",
    "pair_next",
    "tournament_standings",
]

MAX_ROUNDS = 20
#: How round 1 is paired: ``rating`` mixes the ratings at every table, ``random`` draws with the seed.
FIRST_ROUND = ("rating", "random")

_TABLES = {
    "tournaments": "name VARCHAR NOT NULL, rounds INTEGER NOT NULL, points VARCHAR NOT NULL, sizes VARCHAR NOT NULL, "
    "first_round VARCHAR NOT NULL, seed UBIGINT NOT NULL",
    "tournament_players": "name VARCHAR NOT NULL, entry INTEGER NOT NULL, player VARCHAR NOT NULL",
    "tournament_seats": "name VARCHAR NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, "
    "seat INTEGER NOT NULL, player VARCHAR NOT NULL",
    "tournament_results": "name VARCHAR NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, "
    "player VARCHAR NOT NULL, total INTEGER NOT NULL",
}
_FINALS = "name VARCHAR NOT NULL, rule VARCHAR NOT NULL"


@dataclass(frozen=True)
class Result:
    """A table's result: each player's match total, and where it came from (a match id, or ``by hand``)."""

    totals: dict[str, int]
    source: str


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored: its settings, players, rounds paired so far and results found."""

    name: str
    rounds: int
    points: Points
    sizes: tuple[int, ...]
    first_round: str
    seed: int
    players: tuple[str, ...]
    tables: dict[int, list[tuple[str, ...]]]  # round -> its tables in order, each in seat order (starter first)
    results: dict[tuple[int, int], Result] = field(default_factory=dict)  # (round, table) -> result
    ignored: list[str] = field(default_factory=list)  # logs of the event that fit no paired table, and why
    final_rule: str = "decides"  # how the final table ranks (club.swiss.FINAL_RULES)

    @property
    def paired(self) -> int:
        """The last round paired (0 before round 1)."""
        return max(self.tables, default=0)

    def missing(self, round_: int) -> list[int]:
        """The tables of ``round_`` without a result."""
        return [t for t in range(1, len(self.tables.get(round_, [])) + 1) if (round_, t) not in self.results]

    @property
    def final(self) -> tuple[str, ...] | None:
        """The final table (round ``rounds + 1``, its one table), in seat order; None before it is seated."""
        tables = self.tables.get(self.rounds + 1)
        return tables[0] if tables else None

    @property
    def final_result(self) -> Result | None:
        return self.results.get((self.rounds + 1, 1))

    def table_results(self) -> list[TableResult]:
        """The Swiss rounds' results (the final's is not one of them: it ranks on its own)."""
        return [TableResult(r, t, res.totals) for (r, t), res in sorted(self.results.items()) if r <= self.rounds]


def _fail(store: MatchStore, e: duckdb.Error, action: str) -> DatabaseError:
    """One line for a failed read or write of the tournament: what the database says of it (a full disk, an
    input/output error, permissions: what to do), the change not kept (each is one transaction)."""
    found = db_error(store.path, e, writing=action != "read")
    return type(found)(f"cannot {action} the tournament: {found}")


def _has_tables(store: MatchStore) -> bool:
    names = {r[0] for r in store.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    return all(t in names for t in _TABLES)


def _final_rules(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Each tournament's final rule, by name (none before the first final of the database)."""
    names = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if "tournament_finals" not in names:
        return {}
    return {n: rule for n, rule in con.execute("SELECT name, rule FROM tournament_finals").fetchall()}


def create(
    db: Path,
    name: str,
    players: Sequence[str],
    *,
    rounds: int,
    points: str | None = None,
    sizes: Sequence[int] = (3, 4, 5),
    first_round: str = "rating",
    seed: int = 0,
) -> Tournament:
    """Store a new tournament in the database ``db`` (made if missing), once every setting is checked.

    ``UsageError`` for a bad name, player list or setting: then nothing is
    written (not even a new, empty database).
    """
    if not 1 <= len(name) <= MAX_EVENT_NAME:
        raise UsageError(f"a tournament's name has 1 to {MAX_EVENT_NAME} characters (it is the logs' event.name)")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise UsageError(f"--rounds must be 1 to {MAX_ROUNDS}")
    if first_round not in FIRST_ROUND:
        raise UsageError(f"--first-round must be {' or '.join(FIRST_ROUND)}")
    if not 0 <= seed < 1 << 64:
        raise UsageError("--seed must be 0 to 2^64 - 1")
    plan = seated_sizes(players, sizes)
    try:
        parsed = parse_points(points)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if len(plan) > MAX_EVENT_NUMBER:
        raise UsageError(f"at most {MAX_EVENT_NUMBER} tables a round")
    with MatchStore.open(db) as store:
        _store_new(store, name, players, rounds, points_text(parsed), sizes, first_round, seed)
        return load(store, name)


def _store_new(
    store: MatchStore, name: str, players: Sequence[str], rounds: int, points: str, sizes: Sequence[int], first_round: str, seed: int
) -> None:
    try:
        with store.transaction() as con:
            for table, cols in _TABLES.items():
                con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({cols})")
            if first_row(con.execute("SELECT count(*) FROM tournaments WHERE name = $n", {"n": name})) != (0,):
                raise UsageError(f"{name!r}: a tournament of that name exists already in {store.path}")
            con.execute(
                "INSERT INTO tournaments VALUES ($n, $r, $p, $s, $f, $seed)",
                {"n": name, "r": rounds, "p": points, "s": ",".join(map(str, sorted(set(sizes)))),
                 "f": first_round, "seed": seed},
            )  # fmt: skip
            con.executemany("INSERT INTO tournament_players VALUES (?, ?, ?)", [[name, i, p] for i, p in enumerate(players)])
    except duckdb.Error as e:
        raise _fail(store, e, "store") from None


def load(store: MatchStore, name: str) -> Tournament:
    """The tournament ``name`` with its rounds and results; ``UsageError`` when there is none."""
    if not _has_tables(store):
        raise UsageError(f"{name!r}: no tournament in {store.path} (make one with: tournament new)")
    try:
        con = store.con
        row = first_row(con.execute(
            "SELECT rounds, points, sizes, first_round, seed FROM tournaments WHERE name = $n", {"n": name}
        ))
        if row is None:
            known = [r[0] for r in con.execute("SELECT name FROM tournaments ORDER BY name").fetchall()]
            raise UsageError(f"{name!r}: no such tournament in {store.path} (there are: {', '.join(map(repr, known))})")
        players = tuple(r[0] for r in con.execute(
            "SELECT player FROM tournament_players WHERE name = $n ORDER BY entry", {"n": name}).fetchall())  # fmt: skip
        seats = con.execute(
            "SELECT round, table_no, player FROM tournament_seats WHERE name = $n ORDER BY round, table_no, seat", {"n": name}
        ).fetchall()
        hand = con.execute(
            "SELECT round, table_no, player, total FROM tournament_results WHERE name = $n", {"n": name}
        ).fetchall()
        logged = con.execute(
            """
            SELECT m.match_id, m.event_round, m.event_table, m.complete, list(p.player ORDER BY p.seat), list(p.total ORDER BY p.seat)
            FROM matches m JOIN match_players p USING (match_id)
            WHERE m.event = $n GROUP BY ALL ORDER BY m.match_id
            """,
            {"n": name},
        ).fetchall()
        rule = _final_rules(con).get(name, "decides")
    except duckdb.Error as e:
        raise _fail(store, e, "read") from None
    return _assemble(name, row, players, seats, hand, logged, rule)


def every_tournament(store: MatchStore) -> list[tuple[Tournament, list[Standing]]]:
    """Every tournament of the database with its standings, by name, read in five queries whatever their number
    (the club's site); none in a database without the tournaments' tables. Each is what :func:`load` and
    :func:`tournament_standings` give."""
    if not _has_tables(store):
        return []
    try:
        con = store.con
        settings = con.execute("SELECT name, rounds, points, sizes, first_round, seed FROM tournaments ORDER BY name").fetchall()
        players = con.execute("SELECT name, player FROM tournament_players ORDER BY name, entry").fetchall()
        seats = con.execute("SELECT name, round, table_no, player FROM tournament_seats ORDER BY name, round, table_no, seat").fetchall()
        hand = con.execute("SELECT name, round, table_no, player, total FROM tournament_results").fetchall()
        logged = con.execute(
            """
            SELECT m.event, m.match_id, m.event_round, m.event_table, m.complete, list(p.player ORDER BY p.seat),
                   list(p.total ORDER BY p.seat)
            FROM matches m JOIN match_players p USING (match_id)
            WHERE m.event IN (SELECT name FROM tournaments) GROUP BY ALL ORDER BY m.match_id
            """
        ).fetchall()
        rules = _final_rules(con)
    except duckdb.Error as e:
        raise _fail(store, e, "read") from None
    by_name: dict[str, tuple[list[Any], ...]] = {row[0]: ([], [], [], []) for row in settings}
    for i, rows in enumerate((players, seats, hand, logged)):
        for n, *rest in rows:
            by_name[n][i].append(rest[0] if i == 0 else tuple(rest))
    found = []
    for name, *row in settings:
        ps, ss, hs, ls = by_name[name]
        tour = _assemble(name, tuple(row), tuple(ps), ss, hs, ls, rules.get(name, "decides"))
        found.append((tour, tour_standings(tour)))
    return found


def _assemble(
    name: str, row: Sequence[Any], players: tuple[str, ...], seats: Sequence[tuple[Any, ...]],
    hand: Sequence[tuple[Any, ...]], logged: Sequence[tuple[Any, ...]], final_rule: str = "decides",
) -> Tournament:
    """A tournament from its rows: settings, players, seats, results by hand, its event's matches."""
    rounds, points, sizes, first_round, seed = row
    tables: dict[int, list[tuple[str, ...]]] = {}
    current: dict[tuple[int, int], list[str]] = {}
    for r, t, p in seats:
        current.setdefault((r, t), []).append(p)
    for (r, _t), members in sorted(current.items()):
        tables.setdefault(r, []).append(tuple(members))
    results: dict[tuple[int, int], Result] = {}
    by_hand: dict[tuple[int, int], dict[str, int]] = {}
    for r, t, p, total in hand:
        by_hand.setdefault((r, t), {})[p] = total
    ignored: list[str] = []
    for match_id, r, t, complete, names, totals in logged:
        table = _paired_table(tables, r, t)
        if table is None:
            ignored.append(f"{match_id}: round {r}, table {t} was not paired")
        elif set(names) != set(table):
            ignored.append(f"{match_id}: its players are not those of round {r}, table {t}")
        elif not complete:
            ignored.append(f"{match_id}: round {r}, table {t}: the match is not complete")
        elif (r, t) in results:
            ignored.append(f"{match_id}: round {r}, table {t} has a result already ({results[r, t].source})")
        else:
            results[r, t] = Result(dict(zip(names, totals)), match_id)
    for key, totals in sorted(by_hand.items()):
        if key not in results:
            results[key] = Result(totals, "by hand")
    return Tournament(
        name, rounds, parse_points(points), tuple(int(s) for s in sizes.split(",")), first_round, int(seed),
        players, tables, results, ignored, final_rule,
    )  # fmt: skip


def _paired_table(tables: Mapping[int, list[tuple[str, ...]]], r: int | None, t: int | None) -> tuple[str, ...] | None:
    if r is None or t is None or r not in tables or not 1 <= t <= len(tables[r]):
        return None
    return tables[r][t - 1]


def pair_next(store: MatchStore, name: str, round_: int | None = None) -> tuple[int, list[tuple[str, ...]]]:
    """Pair the next round of ``name`` and store it; its number and tables (each in seat order, starter first).

    Refused (``UsageError``, nothing written): a round paired already, a
    round after the last, a round whose previous round lacks results.
    """
    tour = load(store, name)
    next_round = tour.paired + 1
    if round_ is not None and round_ <= tour.paired:
        raise UsageError(f"{name!r}: round {round_} is paired already")
    if round_ is not None and round_ != next_round:
        raise UsageError(f"{name!r}: round {next_round} comes first")
    if next_round > tour.rounds:
        raise UsageError(f"{name!r}: all {tour.rounds} rounds are paired")
    _check_results(tour, tour.paired)
    rng = random.Random(f"{tour.seed}:{next_round}")
    met, starts, shares = _seat_history(tour)
    if next_round == 1:
        if tour.first_round == "random":
            order = list(tour.players)
            rng.shuffle(order)
            grouping = "none"
        else:
            rating = player_ratings(store)
            entry = {p: i for i, p in enumerate(tour.players)}
            order = sorted(tour.players, key=lambda p: (-rating.get(p, UNRATED), entry[p]))
            grouping = "mix"
    else:
        order = [s.player for s in swiss_order(tour)]
        grouping = "group"
    tables = pair_round(order, met, starts, shares, rng, sizes=tour.sizes, grouping=grouping)
    _store_seats(store, name, next_round, tables)
    return next_round, tables


def pair_final(store: MatchStore, name: str, size: int, rule: str = "decides") -> tuple[int, tuple[str, ...]]:
    """Seat the final table of ``name``: the top ``size`` of the Swiss standings, as round ``rounds + 1``,
    ranked by ``rule`` once it has its result (``club.swiss.final_standings``).

    The starter is the finalist furthest below their share of starts (as in
    every round), the others clockwise in a seeded order. Refused
    (``UsageError``, nothing written): a size outside 3 to 5 or above the
    field, a Swiss round not yet paired or without a result, a final seated
    already.
    """
    if rule not in FINAL_RULES:
        raise UsageError(f"--rule must be {' or '.join(FINAL_RULES)}, not {rule!r}")
    tour = load(store, name)
    if tour.final is not None:
        raise UsageError(f"{name!r}: the final table is seated already ({', '.join(tour.final)})")
    if tour.paired < tour.rounds:
        raise UsageError(f"{name!r}: round {tour.paired + 1} of {tour.rounds} is not paired yet; the final comes after the last")
    _check_results(tour, tour.rounds)
    try:
        seats = final_seats(swiss_order(tour), size)
    except ValueError as e:
        raise UsageError(f"{name!r}: {e}") from None
    met, starts, shares = _seat_history(tour)
    rng = random.Random(f"{tour.seed}:final")
    (table,) = pair_round(seats, met, starts, shares, rng, sizes=(size,), grouping="none")
    _store_seats(store, name, tour.rounds + 1, [table], final_rule=rule)
    return tour.rounds + 1, table


def _check_results(tour: Tournament, round_: int) -> None:
    """``UsageError`` when a table of ``round_`` (0: none) has no result yet."""
    missing = tour.missing(round_) if round_ else []
    if missing:
        raise UsageError(
            f"{tour.name!r}: round {round_} has no result yet at table {', '.join(map(str, missing))} "
            "(ingest its logs with: tournament add, or enter it with: tournament result)"
        )


def _seat_history(tour: Tournament) -> tuple[dict[tuple[str, str], int], dict[str, float], dict[str, float]]:
    """Who met whom so far, each player's starts and their share of starts (the sum of 1 / the table's size)."""
    history = [table for r in sorted(tour.tables) for table in tour.tables[r]]
    starts: dict[str, float] = {}
    shares: dict[str, float] = {}
    for table in history:
        starts[table[0]] = starts.get(table[0], 0) + 1
        for p in table:
            shares[p] = shares.get(p, 0.0) + 1 / len(table)
    return meetings_of(history), starts, shares


def _store_seats(
    store: MatchStore, name: str, round_: int, tables: Sequence[tuple[str, ...]], *, final_rule: str | None = None
) -> None:
    """A round's seats in one transaction; for a final, with its rule."""
    try:
        with store.transaction() as con:
            if final_rule is not None:
                con.execute(f"CREATE TABLE IF NOT EXISTS tournament_finals ({_FINALS})")
                con.execute("INSERT INTO tournament_finals VALUES ($n, $r)", {"n": name, "r": final_rule})
            con.executemany(
                "INSERT INTO tournament_seats VALUES (?, ?, ?, ?, ?)",
                [[name, round_, t, seat, p] for t, table in enumerate(tables, 1) for seat, p in enumerate(table)],
            )
    except duckdb.Error as e:
        raise _fail(store, e, "store") from None


def swiss_order(tour: Tournament) -> list[Standing]:
    """The Swiss standings in the order the pairing reads them: by place, a shared place in the order of entry."""
    entry = {p: i for i, p in enumerate(tour.players)}
    swiss = standings(tour.players, tour.table_results(), tour.points)
    return sorted(swiss, key=lambda s: (s.place, entry[s.player]))


def tour_standings(tour: Tournament) -> list[Standing]:
    """The standings of ``tour`` from the results found (docs/tournament.md, "Standings"); once the final
    table has its result, the finalists first by it, then the Swiss standing ("The final table")."""
    result = tour.final_result
    if result is None:
        return standings(tour.players, tour.table_results(), tour.points)
    return final_standings(swiss_order(tour), result.totals, rule=tour.final_rule, points=tour.points)


def tournament_standings(store: MatchStore, name: str) -> tuple[Tournament, list[Standing]]:
    tour = load(store, name)
    return tour, tour_standings(tour)


def enter_result(store: MatchStore, name: str, round_: int, table: int, totals: Mapping[str, int]) -> Result:
    """Store a table's result entered by hand; ``UsageError`` (nothing written) when it fits no paired table."""
    tour = load(store, name)
    paired = _paired_table(tour.tables, round_, table)
    if paired is None:
        raise UsageError(f"{name!r}: round {round_}, table {table} was not paired")
    if set(totals) != set(paired):
        raise UsageError(
            f"{name!r}: round {round_}, table {table} seats {', '.join(paired)}; the result names {', '.join(totals)}"
        )
    if (round_, table) in tour.results:
        raise UsageError(f"{name!r}: round {round_}, table {table} has a result already ({tour.results[round_, table].source})")
    try:
        with store.transaction() as con:
            con.executemany(
                "INSERT INTO tournament_results VALUES (?, ?, ?, ?, ?)",
                [[name, round_, table, p, int(totals[p])] for p in paired],
            )
    except duckdb.Error as e:
        raise _fail(store, e, "store") from None
    return Result(dict(totals), "by hand")


def add_logs(store: MatchStore, name: str, paths: Sequence[str | Path]) -> list[tuple[int, int, str]]:
    """Check the logs of ``name`` and ingest them; (round, table, match id) of each.

    Every log must be valid and complete, of this event, of a paired table
    with its players, for a table without a result: else ``UsageError``
    naming the file, and none is stored.
    """
    from ...log.load import LoadedMatch
    from ...log.load import load as load_logs

    tour = load(store, name)
    items: list[LoadedMatch] = []
    found: list[tuple[int, int, str]] = []
    taken: set[tuple[int, int]] = set()
    for item in load_logs([str(p) for p in paths]):
        if not isinstance(item, LoadedMatch):
            raise UsageError(f"{item.file}: {item.message}")
        report, label = item.report, item.label
        if not report.valid or report.match is None:
            first = next((f for f in report.all_findings() if f.severity == "error"), None)
            raise UsageError(f"{label}: the log is invalid{'' if first is None else ': ' + first.line('').lstrip(': ')}")
        event = report.match.event
        if event is None:
            raise UsageError(f"{label}: the log names no event (record it with --event {name!r})")
        if event.name != name:
            raise UsageError(f"{label}: a log of another event ({event.name!r}, not {name!r})")
        r, t = event.round, event.table
        paired = _paired_table(tour.tables, r or 0, t or 0)
        if r is None or t is None or paired is None:
            raise UsageError(f"{label}: round {r}, table {t} was not paired in {name!r}")
        if set(report.players) != set(paired):
            raise UsageError(f"{label}: its players are not those of round {r}, table {t} ({', '.join(paired)})")
        if not report.complete:
            raise UsageError(f"{label}: the match is not complete")
        had = tour.results.get((r, t))
        again = had is not None and report.match_id is not None and had.source == report.match_id
        if (had is not None and not again) or (r, t) in taken:  # the same match added again is no new result:
            raise UsageError(f"{label}: round {r}, table {t} has a result already")  # (a rerun after a failure)
        taken.add((r, t))
        items.append(item)
        found.append((r, t, report.match_id or label))
    stored = store.stored_digests()
    for item in items:
        match_id, digest = match_identity(item)
        if match_id in stored and stored[match_id] != digest_key(digest):
            raise UsageError(f"{item.label}: another match with the id {match_id!r} is stored, with other content")
    store.ingest(items)
    from ..ratings.stored import refresh as refresh_ratings

    refresh_ratings(store)
    return found
