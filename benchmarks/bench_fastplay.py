"""The fast playout path against the pure one: the same moves on every seeded game, and how many more games a second.

    python benchmarks/bench_fastplay.py [--games N] [--speed-games M] [--repeats R] [--only agree|speed]

Agreement (issue 42: at least 100,000 seeded games of every player count,
edition and table): for every combination, ``fastplay.agreement`` on seeds
0 .. N-1: each seed's game from the deal to its end, its first round, and a
position after some greedy moves played out on a cut order of the unseen
cards (the cards running out), by the kernel and by the pure loop
(``players.play_greedy_pure``), compared move for move, table for table,
score for score. Prints the count that agree and the time.

Speed, in the same run, on one core (``time.process_time``; each workload
once a round, R rounds, the best kept: compare the ratios, not the
figures): M seeded four-player classic games (and M three-player
anniversary ones) played by greedy in every seat

  * to the end of the game, and to the end of the first round, no moves
    kept (a playout's): the pure loop one table at a time, the kernel on
    all M tables in one call (``fastplay.play_tables``);
  * to the end of the game with the moves kept (``simulate``'s);
  * one table a call through ``players.play_out`` (what a caller that plays
    one playout at a time gets);
  * from one position, many orders of the unseen cards (what the strong
    bot and the analysis play): positions of M/50 of those games after
    some greedy moves, 50 orders each, to the end of the position's round
    and to the end of the game, every seat's score: the pure loop on a copy
    of the table an order, the kernel on every order of a position in one
    call (``fastplay.playouts``).

Prints games a second and the ratio fast / pure (target: 10x). The
kernel's compile (or its load from numba's cache) is timed apart, first.
Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_simulate import best_of_interleaved

from coloretto_log.bots import fastplay, players
from coloretto_log.core import engine
from coloretto_log.core.cards import KINDS, LAST_ROUND
from coloretto_log.core.engine import GameState, Table
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

TARGET = 10.0  # games a second, fast over pure (issue 42)
EDITIONS = ("classic", "anniversary")
TABLES = ("standard", "alternative")
PLAYERS = (2, 3, 4, 5)


def agree(games: int) -> bool:
    print(f"agreement: seeds 0..{games - 1} of every combination, 3 playouts a seed (a game, its first round, "
          "a cut order from mid-game)")
    every = True
    total = equal = 0
    t0 = time.process_time()
    for edition in EDITIONS:
        for table in TABLES:
            for n in PLAYERS:
                t = time.process_time()
                a = fastplay.agreement(RuleSet.of(edition=edition, scoring=table), n, range(games))
                total, equal = total + a.playouts, equal + a.equal
                every = every and a.equal == a.playouts
                note = "" if a.first_differing is None else f"  first differing: {a.first_differing}"
                print(f"  {edition:<11} {table:<11} {n} players: {a.equal:>9,} of {a.playouts:,} agree "
                      f"({time.process_time() - t:7.1f} s){note}")
    print(f"  in all: {equal:,} of {total:,} playouts agree ({games:,} seeded games a combination), "
          f"{time.process_time() - t0:.1f} s of CPU")
    return every


def _starts(rules: RuleSet, n: int, games: int) -> list[GameState]:
    out = []
    for seed in range(games):
        s = seeded_setup(rules, n, seed, 0)
        out.append(engine.new_game(rules, n, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck))
    return out


def _tables(states: list[GameState]) -> list[Table]:
    tables = [Table(s) for s in states]
    for t in tables:
        t.deck = None
    return tables


def _round_need(table: Table) -> int:
    """The most cards the rest of a round can turn over: the places left in its rows, a golden joker's extra
    card a player, and the last-round card (what the strong bot's and the analysis's orders hold)."""
    return sum(lim - len(r) for lim, r, t in zip(table.limits, table.rows, table.taken) if not t) + table.players + 1


def workloads(states: list[GameState]) -> dict[str, Callable[[], object]]:
    """Each workload plays every start once (tables made inside: both paths pay for them); to the end of
    round 1 on the first cards of the deck that round can turn over (``_round_need``)."""
    whole = [list(s.deck or ()) for s in states]
    cut = [d[: _round_need(Table(s))] for d, s in zip(whole, states)]
    take_at = players.TAKE_AT
    n = states[0].players
    greedy, rngs = [players.GreedyBot()] * n, [SplitMix64(0)] * n

    def pure(stop: int, keep: bool) -> Callable[[], object]:
        decks = cut if stop else whole

        def run() -> None:
            for t, d in zip(_tables(states), decks):
                players.play_greedy_pure(t, d, 0, take_at, [] if keep else None, -1, stop)
        return run

    def fast(stop: int, keep: bool) -> Callable[[], object]:
        decks = cut if stop else whole

        def run() -> None:
            tables = _tables(states)
            fastplay.play_tables(tables, decks, [0] * len(tables), take_at, stop_round=stop, keep=keep)
        return run

    def one_at_a_time() -> None:
        for t, d in zip(_tables(states), whole):
            players.play_out(t, d, 0, greedy, rngs)

    return {"pure game": pure(0, False), "fast game": fast(0, False),
            "pure round": pure(2, False), "fast round": fast(2, False),
            "pure game+moves": pure(0, True), "fast game+moves": fast(0, True),
            "fast one a call": one_at_a_time}


ORDERS = 50  # orders of the unseen cards a position


def position_workloads(states: list[GameState]) -> dict[str, Callable[[], object]]:
    """From a position of every ORDERS-th game of ``states``, ORDERS orders of its unseen cards: the scores
    where play stops (the end of the position's round, or of the game)."""
    positions = []
    for k, state in enumerate(states[::ORDERS]):
        mid = fastplay.starts(state.rules, state.players, [k])[2][0]  # after k % 40 greedy moves of seed k
        pool = [KINDS[i] for i, n in enumerate(mid.remaining) for _ in range(n)]
        decks = []
        for o in range(ORDERS):
            order = SplitMix64(k * ORDERS + o).shuffle(pool)
            if mid.lr_pending:
                order.insert(max(0, min(len(order), mid.lr_expected_at - mid.turned)), LAST_ROUND)
            decks.append(order)
        table = Table(mid)
        table.deck = None
        positions.append((table, decks, [d[: _round_need(table)] for d in decks]))
    take_at = players.TAKE_AT

    def pure(to_round: bool) -> Callable[[], object]:
        def run() -> None:
            for table, whole, cut in positions:
                decks = cut if to_round else whole
                memo = players.scores_for(table).memo
                stop = table.round + 1 if to_round else 0
                for d in decks:
                    t = table.copy()
                    players.play_greedy_pure(t, d, t.turned, take_at, None, -1, stop)
                    [memo[players.pack(c)] for c in t.collections]
        return run

    def fast(to_round: bool) -> Callable[[], object]:
        def run() -> None:
            for table, whole, cut in positions:
                decks = cut if to_round else whole
                fastplay.playouts(table, [fastplay.GREEDY], decks, table.turned, take_at,
                                  stop_round=table.round + 1 if to_round else 0)
        return run

    return {"pure position game": pure(False), "fast position game": fast(False),
            "pure position round": pure(True), "fast position round": fast(True)}


def speed(games: int, repeats: int) -> None:
    print(f"\nspeed: {games:,} seeded games a set, greedy in every seat, best of {repeats} rounds (CPU time)")
    for edition, n in (("classic", 4), ("anniversary", 3)):
        states = _starts(RuleSet.of(edition=edition), n, games)
        best = best_of_interleaved(repeats, workloads(states) | position_workloads(states))
        print(f"  {edition}, {n} players:")
        for what in ("game", "round", "game+moves"):
            p, f = best[f"pure {what}"], best[f"fast {what}"]
            to = {"game": "to the end of the game", "round": "to the end of round 1",
                  "game+moves": "to the end, moves kept"}[what]
            print(f"    {to:<24} pure {games / p:9,.0f} games/s, fast {games / f:9,.0f} games/s: "
                  f"{p / f:5.1f}x (target {TARGET:.0f}x: {'met' if p / f >= TARGET else 'not met'})")
        f1 = best["fast one a call"]
        print(f"    one table a call (play_out) {games / f1:9,.0f} games/s: {best['pure game'] / f1:5.1f}x the pure loop")
        played = len(states[::ORDERS]) * ORDERS
        for what, to in (("game", "to the end of the game"), ("round", "to the end of its round")):
            p, f = best[f"pure position {what}"], best[f"fast position {what}"]
            print(f"    {ORDERS} orders a position, {to:<24} pure {played / p:9,.0f}/s, fast {played / f:9,.0f}/s: "
                  f"{p / f:5.1f}x (target {TARGET:.0f}x: {'met' if p / f >= TARGET else 'not met'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games a combination for the agreement")
    parser.add_argument("--speed-games", type=int, default=2000, help="games a set for the speed")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=["agree", "speed"])
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    t = time.process_time()
    if not fastplay.available():
        raise SystemExit(f"the fast path is off: {fastplay.reason()}")
    fastplay.play_tables(_tables(_starts(RuleSet.of(), 4, 1)), [[]], [0], players.TAKE_AT)
    import numba

    print(f"numba {numba.__version__}: the kernel compiled or loaded from its cache in {time.process_time() - t:.2f} s "
          "of CPU (with numba's import)")
    ok = True
    if args.only != "speed":
        ok = agree(args.games)
    if args.only != "agree":
        speed(args.speed_games, args.repeats)
    if not ok:
        raise SystemExit("the fast path and the pure path disagree (above)")


if __name__ == "__main__":
    main()
