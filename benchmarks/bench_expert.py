"""The ladder of the bots, and what a decision of `expert` costs: seeded deals, every seat rotated.

    python benchmarks/bench_expert.py [--table BOTS:GAMES ...] [--seed S] [--jobs J] [--minutes M] [--expert-samples K]

Each ``--table`` is a comma-separated list of bots, one a seat, and a number of
games (a multiple of the seats); default the two tables of issue 27:

    expert,expert-mc,strong:600          three players, 200 deals
    expert,expert-mc,strong,greedy:300   four players, 75 deals

Deal ``d`` of a table is ``setup.seeded_setup`` (classic edition, standard
table, one game) on the (d+1)-th output of ``SplitMix64(S)`` (default run
seed 1), salted by the player count; it is played once per seat with the
bots rotated (rotation ``r`` puts bot ``(s + r) mod n`` in seat ``s``), so every
bot plays every deal from every seat; seat ``s``'s generator is
``simulate.bot_seed(deal seed, r, s)``. A deal's games are one job (``--jobs``
processes; the figures do not depend on it).

Prints, per table and bot: games, wins (a shared win counts for each
winner), the win rate with its 95% Wilson interval, points a game, and the
CPU time of one decision (``time.process_time`` around each ``choose`` and
``place``: one core's time even on a busy machine), mean and most; then each
pair of bots next in the ranking, whether their intervals overlap, and the
paired points difference of ``expert`` against each other bot (same games,
mean and 95% interval). Then the targets of issue 27: ``expert`` above
``expert-mc`` with non-overlapping 95% intervals, at most 0.1 s of one core
a decision on average. Asserts nothing about time. ``--minutes M`` stops
each table once M minutes of wall time have gone and reports the deals
played (the first ones, in order; the header says the run was cut).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import platform
import sys
import time
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.bots import simulate as sim
from coloretto_log.bots.expert import ExpertBot
from coloretto_log.bots.players import BOTS, Bot, make_bot
from coloretto_log.core.confidence import wilson
from coloretto_log.core.engine import Take, View
from coloretto_log.core.rng import SplitMix64, nth_output
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.scoring import winners
from coloretto_log.core.setup import seeded_setup

TARGET_SECONDS = 0.1  # one core's CPU time a decision, on average (issue 27)
DEFAULT_TABLES = ("expert,expert-mc,strong:600", "expert,expert-mc,strong,greedy:300")


class Timed:
    """A bot with a stopwatch: the CPU time of every decision."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, view: View, rng: SplitMix64) -> Take | None:
        t0 = time.process_time()
        out = self.bot.choose(view, rng)
        self.times.append(time.process_time() - t0)
        return out

    def place(self, view: View, card: str, rng: SplitMix64) -> int:
        t0 = time.process_time()
        out = self.bot.place(view, card, rng)
        self.times.append(time.process_time() - t0)
        return out


def bot_of(name: str, samples: int | None) -> Bot:
    return ExpertBot(samples=samples) if name == "expert" and samples is not None else make_bot(name)


@dataclass(frozen=True)
class Deal:
    bots: tuple[str, ...]
    seed: int  # the run seed
    index: int
    samples: int | None


Game = tuple[tuple[str, ...], tuple[int, ...]]  # the bots by seat, the scores by seat


def play_deal(deal: Deal) -> tuple[list[Game], dict[str, list[float]]]:
    """Every rotation of one deal: each game's bots and scores, and every bot's decision times."""
    n = len(deal.bots)
    rules = RuleSet.of(games=1)
    deal_seed = nth_output(deal.seed ^ n, deal.index + 1)
    setup = seeded_setup(rules, n, deal_seed, 0)
    games: list[Game] = []
    times: dict[str, list[float]] = {b: [] for b in deal.bots}
    for r in range(n):
        names = tuple(deal.bots[(s + r) % n] for s in range(n))
        seats = [Timed(bot_of(b, deal.samples)) for b in names]
        rngs = [SplitMix64(sim.bot_seed(deal_seed, r, s)) for s in range(n)]
        played = sim.play_game(rules, seats, setup, rngs)
        games.append((names, played.scores))
        for b, seat in zip(names, seats):
            times[b].extend(seat.times)
    return games, times


@dataclass
class Table:
    bots: tuple[str, ...]
    planned: int = 0
    games: list[Game] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)

    def add(self, games: list[Game], times: dict[str, list[float]]) -> None:
        self.games.extend(games)
        for b, ts in times.items():
            self.times.setdefault(b, []).extend(ts)

    def wins(self, bot: str) -> tuple[int, int]:
        """Games won (shared wins included) and games played by ``bot``."""
        won = sum(1 for names, scores in self.games for s in winners(scores) if names[s] == bot)
        return won, len(self.games)

    def points(self, bot: str) -> float:
        return sum(scores[names.index(bot)] for names, scores in self.games) / max(1, len(self.games))

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """``a``'s points less ``b``'s in the same game: mean and the half-width of its 95% interval."""
        d = [scores[names.index(a)] - scores[names.index(b)] for names, scores in self.games]
        mean = sum(d) / len(d)
        var = sum((x - mean) ** 2 for x in d) / (len(d) - 1) if len(d) > 1 else 0.0
        return mean, 1.96 * math.sqrt(var / len(d))


def run(bots: tuple[str, ...], games: int, seed: int, jobs: int, samples: int | None,
        minutes: float | None = None) -> Table:
    """Play the table's deals in order; with ``minutes``, stop once that much wall time has gone (the deals
    played so far are the table: a prefix of the full run, whatever ``jobs`` is)."""
    n = len(bots)
    deals = [Deal(bots, seed, d, samples) for d in range(games // n)]
    table = Table(bots, planned=games)
    started = time.monotonic()

    def out_of_time() -> bool:
        return minutes is not None and time.monotonic() - started > 60 * minutes

    if jobs <= 1:
        for k, deal in enumerate(deals, start=1):
            table.add(*play_deal(deal))
            _progress(table, k, len(deals), started)
            if out_of_time():
                break
        return table
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(jobs) as pool:
        for k, result in enumerate(pool.imap(play_deal, deals, chunksize=1), start=1):
            table.add(*result)
            _progress(table, k, len(deals), started)
            if out_of_time():
                pool.terminate()  # the deals under way are dropped: the table stays a prefix
                break
    return table


def _progress(table: Table, k: int, n: int, started: float) -> None:
    if k % 10 == 0 or k == n:
        wins = ", ".join(f"{b} {table.wins(b)[0]}" for b in table.bots)
        print(f"  {k}/{n} deals, {time.monotonic() - started:.0f} s: wins {wins}", file=sys.stderr, flush=True)


def report(table: Table) -> tuple[bool, bool] | None:
    n = len(table.bots)
    cut = f", stopped by --minutes: {table.planned} planned" if len(table.games) < table.planned else ""
    print(f"\n{n} players: {len(table.games)} games ({len(table.games) // n} deals, each played {n} times, "
          f"seats rotated{cut})")
    header = (f"{'bot':<10} {'games':>5} {'wins':>5} {'win %':>6} {'95% interval':>13} {'pts/game':>8} "
              f"{'decisions':>9} {'ms/decision':>11} {'most ms':>8}")
    print(header)
    print("-" * len(header))
    rows = []
    for b in table.bots:
        won, played = table.wins(b)
        low, high = wilson(won, played)
        rows.append((won / played, b, won, played, low, high))
    rows.sort(key=lambda r: (-r[0], table.bots.index(r[1])))
    for rate, b, won, played, low, high in rows:
        ts = table.times.get(b, [])
        mean = sum(ts) / len(ts) if ts else 0.0
        print(f"{b:<10} {played:>5} {won:>5} {100 * rate:>6.1f} {100 * low:>6.1f}–{100 * high:<6.1f} "
              f"{table.points(b):>8.2f} {len(ts):>9} {1000 * mean:>11.2f} {1000 * max(ts, default=0.0):>8.1f}")
    for above, below in pairwise(rows):
        apart = above[4] > below[5]
        print(f"{above[1]} > {below[1]}: the 95% intervals {'do not overlap' if apart else 'overlap'}")
    if "expert" in table.bots:
        for b in table.bots:
            if b != "expert":
                mean, half = table.difference("expert", b)
                print(f"expert's points less {b}'s in the same game: {mean:+.2f} ± {half:.2f}")
    if "expert" not in table.bots or "expert-mc" not in table.bots:
        return None
    stats = {r[1]: r for r in rows}
    e, m = stats["expert"], stats["expert-mc"]
    strength = e[0] > m[0] and e[4] > m[5]
    ts = table.times.get("expert", [])
    mean = sum(ts) / len(ts) if ts else 0.0
    speed = mean <= TARGET_SECONDS
    print(f"target (issue 27): expert above expert-mc with non-overlapping 95% intervals: "
          f"{'met' if strength else 'NOT met'} ({100 * e[4]:.1f}–{100 * e[5]:.1f} against "
          f"{100 * m[4]:.1f}–{100 * m[5]:.1f}, {e[3]} games)")
    print(f"                   at most {TARGET_SECONDS:g} s of one core a decision on average: "
          f"{'met' if speed else 'NOT met'} (mean {mean:.4f} s, most {max(ts, default=0.0):.3f} s over "
          f"{len(ts)} decisions)")
    return strength, speed


def parse_table(text: str) -> tuple[tuple[str, ...], int]:
    bots, _, games = text.rpartition(":")
    names = tuple(b.strip() for b in bots.split(","))
    unknown = [b for b in names if b not in BOTS]
    if unknown or not 2 <= len(names) <= 5 or not games.isdigit() or int(games) % len(names):
        raise argparse.ArgumentTypeError(f"{text!r}: want BOT,BOT,...:GAMES with known bots and GAMES a multiple "
                                         f"of the seats")
    return names, int(games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", type=parse_table, action="append", default=None,
                        help="BOTS:GAMES (repeatable); default: " + " and ".join(DEFAULT_TABLES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop starting deals after this many minutes of wall time; report the deals played")
    parser.add_argument("--expert-samples", type=int, default=None,
                        help="play an expert with this many orders a decision instead of the default")
    args = parser.parse_args()
    tables = args.table or [parse_table(t) for t in DEFAULT_TABLES]
    print(f"Python {platform.python_version()}; seed {args.seed}, {args.jobs} process(es)"
          + (f", expert with {args.expert_samples} orders a decision" if args.expert_samples is not None else ""))
    for bots, games in tables:
        report(run(bots, games, args.seed, args.jobs, args.expert_samples, args.minutes))


if __name__ == "__main__":
    main()
