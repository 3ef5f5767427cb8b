"""Seeded matches between bots: play them, write their logs, measure the bots' strength.

Everything follows from one run seed ``S`` (docs/format.md §4's SplitMix64):

- match ``i`` (from 0) has the seed ``match_seed(S, i)``: the (i+1)-th output
  of ``SplitMix64(S)``; that seed deals its games as §4 says;
- the bot in seat ``s`` draws its random numbers in game ``g`` from
  ``SplitMix64(bot_seed(m, g, s))``, where ``bot_seed(m, g, s)`` is the
  (5g + s + 1)-th output of ``SplitMix64(m XOR BOT_SALT)`` for the match
  seed ``m``.

A run may be dated (``Plan.date``): match ``i`` is dated ``date + i // per_day``
days, one match a day by default, so the dates too follow from the match's
place in the run, however the run is split.

So a match is a function of (rules, bots, its seed): it is the same played
alone or among thousands, in one process or many, and its seeded log (the
seed and the decisions) replays to the same game.

``run(plan, n, jobs=J)`` yields ``Outcome``s in match order, whatever ``J``;
``Tally`` turns outcomes into the strength report (win rates with Wilson
95% intervals, average scores, sample sizes). Nothing here prints or writes
files: the ``simulate`` command does.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..core import engine
from ..core.confidence import wilson
from ..core.engine import Draw, GameState, Move
from ..core.errors import UsageError
from ..core.rng import MASK64, SplitMix64, nth_output
from ..core.ruleset import EDITIONS, LAYOUTS, MAX_PLAYERS, TABLES, RuleSet
from ..core.scoring import winners as best_seats
from ..core.setup import Setup, seeded_setup
from ..log.atomic import SIMULATED_NOTE
from ..log.writer import dumps_line, match_json, move_json, setup_json
from .players import BOTS, Bot, fastplay, final_scores, make_bot, play_to_end

__all__ = [
    "BOT_SALT",
    "DEFAULT_BOTS",
    "BotStats",
    "Outcome",
    "Plan",
    "PlayedGame",
    "PlayedMatch",
    "Tally",
    "bot_seed",
    "default_bots",
    "log_line",
    "make_plan",
    "match_log",
    "match_seed",
    "outcome",
    "play_game",
    "play_match",
    "playout_path",
    "run",
    "speed_json",
    "wilson",
]

#: XOR-ed into a match seed to start the bots' generators (ASCII "bot-seed").
BOT_SALT = 0x626F742D73656564
#: The bots of ``--bots``' default, seat by seat (cut to the number of players).
DEFAULT_BOTS = ("strong", "greedy", "random", "greedy", "random")

# --------------------------------------------------------------------------- seeds


def match_seed(run_seed: int, index: int) -> int:
    """The seed of match ``index`` (from 0): the (index+1)-th output of ``SplitMix64(run_seed)``."""
    return nth_output(run_seed, index + 1)


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of seat ``seat``'s generator in game ``game`` (from 0) of the match seeded ``seed``.

    The (5·game + seat + 1)-th output of ``SplitMix64(seed XOR BOT_SALT)``.
    """
    return nth_output(seed ^ BOT_SALT, game * MAX_PLAYERS + seat + 1)


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True, slots=True)
class Plan:
    """What every match of a run shares."""

    rules: RuleSet
    bots: tuple[str, ...]  # by seat
    seed: int = 0  # the run seed
    recorded: bool = False  # write every card and the setups, no seed
    date: _dt.date | None = None  # the date of the run's first match (match 0); None: undated logs
    per_day: int = 1  # matches dated the same day before the date moves on a day
    rotate: bool = False  # --rotate-seats: match i seats the bots turned i places (``seating``)

    def match_date(self, index: int) -> str | None:
        """The date of match ``index`` (from 0), ``YYYY-MM-DD``; ``OverflowError`` past the year 9999."""
        if self.date is None:
            return None
        return (self.date + _dt.timedelta(days=index // self.per_day)).isoformat()

    @property
    def players(self) -> tuple[str, ...]:
        """Player names: the bot and the seat, ``strong-1``, ``greedy-2``, ..."""
        return tuple(f"{bot}-{seat + 1}" for seat, bot in enumerate(self.bots))

    def seating(self, index: int) -> tuple[int, ...]:
        """Which bot of ``bots`` (and of ``players``) sits in each seat in match ``index``: in turn with
        ``rotate`` (match 1 as given, match 2 each bot one seat on, ...), else each bot in its own seat."""
        n = len(self.bots)
        turn = index % n if self.rotate else 0
        return tuple((seat - turn) % n for seat in range(n))

    def players_at(self, index: int) -> tuple[str, ...]:
        """The names of match ``index``'s players, seat by seat: the log says who sat where."""
        return tuple(self.players[b] for b in self.seating(index))

    @property
    def form(self) -> str:
        """The log form the run writes: ``recorded`` or ``seeded``."""
        return "recorded" if self.recorded else "seeded"


def default_bots(players: int) -> tuple[str, ...]:
    """``DEFAULT_BOTS`` cut to ``players`` seats."""
    return DEFAULT_BOTS[:players]


def make_plan(
    *,
    players: int = 4,
    bots: Sequence[str] | None = None,
    edition: str = "classic",
    table: str = "standard",
    games: int = 4,
    seed: int = 0,
    recorded: bool = False,
    date: _dt.date | None = None,
    per_day: int = 1,
    rotate: bool = False,
) -> Plan:
    """A checked plan; ``UsageError`` with a one-line reason for a bad value.

    ``bots``: one name per seat, or a single name for every seat; ``None``
    for ``default_bots(players)``. ``date``: the first match's date, then
    ``per_day`` matches a day.
    """
    if players not in LAYOUTS:
        raise UsageError(f"--players must be 2, 3, 4 or 5, not {players}")
    if bots is None:
        names = default_bots(players)
    else:
        names = tuple(b.strip() for b in bots)
        unknown = [b for b in names if b not in BOTS]
        if unknown:
            raise UsageError(f"unknown bot {unknown[0]!r}: the bots are {', '.join(BOTS)}")
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise UsageError(f"--bots names {len(names)} bots for {players} players (give one per seat, or one for all)")
    if edition not in EDITIONS:
        raise UsageError(f"--edition must be {' or '.join(EDITIONS)}, not {edition!r}")
    if table not in TABLES:
        raise UsageError(f"--table must be {' or '.join(TABLES)}, not {table!r}")
    if not 1 <= games <= 100:
        raise UsageError(f"--games must be 1 to 100, not {games}")
    if not 0 <= seed <= MASK64:
        raise UsageError(f"--seed must satisfy 0 <= seed < 2^64, not {seed}")
    if per_day < 1:
        raise UsageError(f"--per-day must be 1 or more, not {per_day}")
    return Plan(RuleSet.of(edition=edition, scoring=table, games=games), names, seed, recorded, date, per_day, rotate)


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game as played: its setup, resolved moves, final state and scores by seat."""

    setup: Setup
    moves: tuple[Move, ...]
    final: GameState
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One match as played."""

    index: int
    seed: int
    games: tuple[PlayedGame, ...]

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(g.scores for g in self.games)


def _first_state(rules: RuleSet, setup: Setup) -> GameState:
    return engine.new_game(
        rules, len(setup.starting), removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck
    )


def play_game(rules: RuleSet, bots: Sequence[Bot], setup: Setup, rngs: Sequence[SplitMix64]) -> PlayedGame:
    """Play one seeded game to its end; seat ``s`` is ``bots[s]`` drawing from ``rngs[s]``."""
    state = _first_state(rules, setup)
    moves: list[Move] = []
    final = play_to_end(state, bots, rngs, moves=moves)
    return PlayedGame(setup, tuple(moves), final, final_scores(final))


def moves_with_states(rules: RuleSet, game: PlayedGame) -> list[tuple[Move, GameState]]:
    """Every move of a played game with the state it was played in (what ``analyze.tasks_of_game`` reads)."""
    state = _first_state(rules, game.setup)
    out = []
    for move in game.moves:
        out.append((move, state))
        state = engine.apply(state, move)
    return out


def play_match(plan: Plan, index: int, bots: Sequence[Bot] | None = None) -> PlayedMatch:
    """Match ``index`` of the run: every game of ``plan.rules.games``.

    ``bots``: the players by seat, by default made from ``plan.bots`` (a
    benchmark passes the same bots wrapped, to time them).
    """
    seed = match_seed(plan.seed, index)
    if bots is None:
        made = [make_bot(name) for name in plan.bots]
        bots = [made[b] for b in plan.seating(index)]
    n = len(bots)
    games = []
    for g in range(plan.rules.games):
        setup = seeded_setup(plan.rules, n, seed, g)
        rngs = [SplitMix64(bot_seed(seed, g, s)) for s in range(n)]
        games.append(play_game(plan.rules, bots, setup, rngs))
    return PlayedMatch(index, seed, tuple(games))


def match_log(plan: Plan, played: PlayedMatch) -> dict[str, Any]:
    """The match as a log (docs/format.md): seeded form, or recorded with ``plan.recorded``.

    Seeded: the match ``seed``, ``setup: {}`` and moves without cards.
    Recorded: no seed, explicit setups, every card drawn and extra card.
    """
    names = plan.players_at(played.index)
    recorded = plan.recorded
    games = [
        {
            "setup": setup_json(g.setup, names, explicit=recorded),
            "moves": [move_json(m, names, cards=recorded) for m in g.moves],
        }
        for g in played.games
    ]
    return _match_head(plan, played, games)


def _match_head(plan: Plan, played: PlayedMatch, games: list[dict[str, Any]]) -> dict[str, Any]:
    """The match object of ``match_log`` around ``games``."""
    return match_json(
        rules=plan.rules,
        players=plan.players_at(played.index),
        games=games,
        seed=None if plan.recorded else played.seed,
        date=plan.match_date(played.index),
        notes=f"{SIMULATED_NOTE} --seed {plan.seed}{' --rotate-seats' if plan.rotate else ''}, "
        f"match {played.index + 1}",
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a run keeps of one match: its log line and its scores."""

    index: int
    seed: int
    line: str  # the match as one line of JSON Lines, without the newline
    scores: tuple[tuple[int, ...], ...]  # by game, by seat

    @property
    def totals(self) -> tuple[int, ...]:
        """Match score by seat: the sum over its games."""
        return tuple(sum(col) for col in zip(*self.scores))

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the highest total (more than one: a shared win, docs/rules-of-play.md §6)."""
        return best_seats(self.totals)


def outcome(plan: Plan, index: int) -> Outcome:
    """Play match ``index`` and keep its line and scores."""
    played = play_match(plan, index)
    return Outcome(index, played.seed, log_line(plan, played), played.scores)


def log_line(plan: Plan, played: PlayedMatch) -> str:
    """``dumps_line(match_log(plan, played))``, the same text made faster: a move's JSON text is made once
    for a run's players and form (``_MOVE_TEXTS``: a run has a few hundred distinct moves, some 350 a
    match) and the games are put together around the texts as compact JSON puts them. The log line was a
    sixth of a greedy match's time."""
    names, recorded = plan.players_at(played.index), plan.recorded
    texts = _MOVE_TEXTS.get((names, recorded))
    if texts is None:
        if len(_MOVE_TEXTS) >= 16:
            _MOVE_TEXTS.clear()
        texts = _MOVE_TEXTS[names, recorded] = ({}, {})
    draws, takes = texts  # a Draw and a Take can be equal tuples: one table each
    games = []
    for g in played.games:
        parts: list[str] = []
        add = parts.append
        for m in g.moves:
            known = draws if type(m) is Draw else takes
            text = known.get(m)
            if text is None:
                text = known[m] = dumps_line(move_json(m, names, cards=recorded))
            add(text)
        setup = dumps_line(setup_json(g.setup, names, explicit=recorded))
        games.append('{"setup":' + setup + ',"moves":[' + ",".join(parts) + "]}")
    head = dumps_line(_match_head(plan, played, []))
    # '"games":[]' can only be the key itself: a quote inside a JSON string is always escaped
    return head.replace('"games":[]', '"games":[' + ",".join(games) + "]", 1)


#: (players, recorded form) -> the JSON text of each move seen, Draws and Takes apart (``log_line``).
_MOVE_TEXTS: dict[tuple[tuple[str, ...], bool], tuple[dict[Move, str], dict[Move, str]]] = {}


def run(plan: Plan, matches: int, *, jobs: int = 1, start: int = 0) -> Iterator[Outcome]:
    """Matches ``start`` .. ``start + matches - 1``, in order, on ``jobs`` processes.

    The outcomes do not depend on ``jobs``: each match is a function of the
    plan and its index.
    """
    if matches < 0 or jobs < 1:
        raise ValueError("matches must be >= 0 and jobs >= 1")
    indices = range(start, start + matches)
    if jobs == 1 or matches <= 1:
        for i in indices:
            yield outcome(plan, i)
        return
    import multiprocessing  # only here: a run on one process never loads it

    chunk = max(1, min(32, matches // (jobs * 16)))
    # forkserver (or spawn): workers start clean, never forked from a process whose
    # other threads (a progress bar's) might hold a lock
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(jobs) as pool:
        yield from pool.imap(partial(outcome, plan), indices, chunksize=chunk)


#: The bots whose thinking is greedy playouts (``players._play_greedy``): the fast path's (``bots.fastplay``).
PLAYOUT_BOTS = frozenset({"strong", "expert", "expert-mc"})


def playout_path(plan: Plan) -> str | None:
    """Where this process's greedy play ran: ``"fast"`` (the kernel loaded: ``fastplay.used``), ``"pure"``, or
    None when no seat plays greedy playouts (a greedy seat plays on the fast path only when every seat is
    greedy; ``strong``, ``expert`` and ``expert-mc`` think in playouts)."""
    if not (PLAYOUT_BOTS & set(plan.bots) or set(plan.bots) == {"greedy"}):
        return None
    return "fast" if fastplay().used() else "pure"


def speed_json(plan: Plan, games: int, seconds: float) -> dict[str, Any]:
    """How fast a run went: its games a second of wall-clock time, and where its greedy play ran."""
    path = playout_path(plan)
    return {
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "playouts": path,
        "pure_because": _pure_because() if path == "pure" else None,
    }


def _pure_because() -> str:
    """Why greedy play ran on the pure path: the kernel is off (``fastplay.reason``), or the run was too short to
    pay for its load."""
    fast = fastplay()
    return fast.off() or f"a short run (the kernel loads after {fast.WARM_UP:,} cards of play)"


# --------------------------------------------------------------------------- strength report


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's results over a run (all the seats it held)."""

    bot: str
    seats: int  # seats it held in every match
    entries: int  # seat-matches: the sample size of the win rate
    wins: int  # seat-matches it won, shared wins included
    shared: int  # of those, wins shared with another seat
    games: int  # seat-games
    points: int  # points over every game
    low: float  # Wilson 95% interval of the win rate
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.entries if self.entries else 0.0

    @property
    def mean_match(self) -> float:
        """Average match total of one seat."""
        return self.points / self.entries if self.entries else 0.0

    @property
    def mean_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            "entries": self.entries,
            "wins": self.wins,
            "shared_wins": self.shared,
            "win_rate": round(self.rate, 4),
            "win_rate_ci95": [round(self.low, 4), round(self.high, 4)],
            "games": self.games,
            "mean_match_score": round(self.mean_match, 2),
            "mean_game_score": round(self.mean_game, 2),
        }


@dataclass
class Tally:
    """Adds up outcomes, seat by seat, into per-bot statistics."""

    plan: Plan
    matches: int = 0
    games: int = 0
    shared_matches: int = 0
    wins: list[int] = field(default_factory=list)  # by place in plan.bots (the seat, unless seats rotate)
    shared: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.plan.bots)
        self.wins, self.shared, self.points = [0] * n, [0] * n, [0] * n

    def add(self, outcome: Outcome) -> None:
        self.matches += 1
        self.games += len(outcome.scores)
        winners = outcome.winners
        if len(winners) > 1:
            self.shared_matches += 1
        bot = self.plan.seating(outcome.index)  # seat -> the bot's place in plan.bots, which the tally counts by
        for s in winners:
            self.wins[bot[s]] += 1
            if len(winners) > 1:
                self.shared[bot[s]] += 1
        for s, total in enumerate(outcome.totals):
            self.points[bot[s]] += total

    def stats(self) -> list[BotStats]:
        """One entry per bot, in order of first seat; sorted by ``ranking`` for the report."""
        out = []
        for bot in dict.fromkeys(self.plan.bots):
            seats = [s for s, b in enumerate(self.plan.bots) if b == bot]
            entries = self.matches * len(seats)
            wins = sum(self.wins[s] for s in seats)
            low, high = wilson(wins, entries)
            out.append(
                BotStats(
                    bot=bot,
                    seats=len(seats),
                    entries=entries,
                    wins=wins,
                    shared=sum(self.shared[s] for s in seats),
                    games=self.games * len(seats),
                    points=sum(self.points[s] for s in seats),
                    low=low,
                    high=high,
                )
            )
        return out

    def ranking(self) -> list[tuple[BotStats, bool | None]]:
        """Bots by win rate (then mean score), each with whether its interval lies wholly
        above the next bot's (``None`` for the last)."""
        ranked = sorted(self.stats(), key=lambda b: (-b.rate, -b.mean_game))
        return [
            (b, None if i + 1 == len(ranked) else b.low > ranked[i + 1].high)
            for i, b in enumerate(ranked)
        ]

    def summary_json(self) -> dict[str, Any]:
        """The machine-readable summary (stable key order)."""
        plan = self.plan
        return {
            "matches": self.matches,
            "games": self.games,
            "players": list(plan.players),
            "rules": {"edition": plan.rules.edition.name, "scoring": plan.rules.table.name, "games": plan.rules.games},
            "seed": plan.seed,
            "form": plan.form,
            "shared_wins": self.shared_matches,
            "bots": [
                dict(b.as_json(), above_next=separated) for b, separated in self.ranking()
            ],
        }
