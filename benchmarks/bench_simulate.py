"""How fast is `simulate`? Games simulated per second, against replaying the same matches from their logs.

    python benchmarks/bench_simulate.py [--matches N] [--repeats R] [--strong M]

Everything runs in one process, on one core, in the same run. Each timed
workload is run once per round, R rounds, and its best round is kept (these
machines are noisy: compare the ratios, not the absolute figures). For N
four-player, four-game matches of ``greedy`` self-play (run seed 2026):

  * simulate (cold): the first pass, with the bots' score memo empty;
  * simulate (warm): bots and engine only (``simulate.play_match``);
  * simulate + log: the same and the log line (``simulate.outcome``):
    this is what the command does per match, less the writing;
  * replay seeded / recorded: ``json.loads`` + ``replay.check_match`` of the
    lines simulate wrote, in both forms (what ``validate`` does per match);
  * engine fold: ``engine.apply`` over the resolved moves, no bots, no checks:
    the floor that any bot running on this engine adds to.

Then, for reference, ``random`` self-play, and M matches with one ``strong``
seat against three ``greedy`` ones. The issue's target is 3,000 four-player
games a second with ``greedy`` on one core; the ratio to it is printed.
Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.core import engine
from coloretto_log.log.replay import check_match
from coloretto_log.play import bots
from coloretto_log.play import simulate as sim

TARGET = 3000  # four-player games a second with greedy on one core (issue 5)


def best_of_interleaved(repeats: int, work: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The best time of each workload over ``repeats`` rounds, one run of each per round:
    a burst of load from elsewhere then hits every workload alike."""
    best = dict.fromkeys(work, float("inf"))
    for _ in range(repeats):
        for name, fn in work.items():
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
    return best


def line(label: str, seconds: float, games: int) -> float:
    rate = games / seconds
    print(f"{label:<34} {seconds:8.3f} s {rate:10.0f} games/s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=250, help="greedy self-play matches (4 games each)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strong", type=int, default=10, help="matches with a strong seat (slow)")
    args = parser.parse_args()
    n = args.matches
    games = 4 * n
    print(f"python {platform.python_version()} on {platform.machine()}; {n} matches, {games} four-player games each pass")

    greedy = sim.make_plan(bots=["greedy"], games=4, seed=2026)
    bots._SCORES.clear()
    bots._last.clear()
    t = time.perf_counter()
    played = [sim.play_match(greedy, i) for i in range(n)]
    cold = line("simulate greedy (cold memo)", time.perf_counter() - t, games)
    seeded = [sim.outcome(greedy, i).line for i in range(n)]
    recorded_plan = sim.make_plan(bots=["greedy"], games=4, seed=2026, recorded=True)
    recorded = [sim.outcome(recorded_plan, i).line for i in range(n)]
    rand = sim.make_plan(bots=["random"], games=4, seed=2026)

    def with_log() -> None:
        for i in range(n):
            sim.outcome(greedy, i)

    def replay(lines: list[str]) -> Callable[[], None]:
        def run() -> None:
            for text in lines:
                if not check_match(json.loads(text)).valid:
                    raise SystemExit("a simulated log does not validate")

        return run

    def fold() -> None:
        for m in played:
            for g in m.games:
                s = g.setup
                state = engine.new_game(
                    greedy.rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck
                )
                for move in g.moves:
                    state = engine.apply(state, move)

    times = best_of_interleaved(
        args.repeats,
        {
            "warm": lambda: [sim.play_match(greedy, i) for i in range(n)],
            "logged": with_log,
            "seeded": replay(seeded),
            "recorded": replay(recorded),
            "fold": fold,
            "random": lambda: [sim.play_match(rand, i) for i in range(n)],
        },
    )
    warm = line("simulate greedy (warm)", times["warm"], games)
    logged = line("simulate greedy + log line", times["logged"], games)
    r_seeded = line("replay seeded logs (check_match)", times["seeded"], games)
    r_recorded = line("replay recorded logs (check_match)", times["recorded"], games)
    floor = line("engine fold only (no bots)", times["fold"], games)
    line("simulate random (warm)", times["random"], games)
    if args.strong:
        strong = sim.make_plan(bots=["strong", "greedy", "greedy", "greedy"], games=4, seed=2026)
        t = time.perf_counter()
        for i in range(args.strong):
            sim.play_match(strong, i)
        line(f"simulate strong+3 greedy ({args.strong} matches)", time.perf_counter() - t, 4 * args.strong)

    moves = sum(len(g.moves) for m in played for g in m.games)
    print()
    print(f"moves per game (greedy): {moves / games:.1f}")
    print(f"ratio simulate (warm) / replay seeded:   {warm / r_seeded:5.2f}x  (above 1: simulating is faster than replaying)")
    print(f"ratio simulate (warm) / replay recorded: {warm / r_recorded:5.2f}x")
    print(f"ratio simulate + log / replay seeded:    {logged / r_seeded:5.2f}x")
    print(f"ratio simulate (cold) / simulate (warm): {cold / warm:5.2f}x")
    print(f"engine fold alone: {floor:.0f} games/s, the ceiling for any bot on this engine")
    print(f"target {TARGET} games/s with greedy: reached {warm / TARGET:.2f} of it (warm), {logged / TARGET:.2f} with the log line")


if __name__ == "__main__":
    main()
