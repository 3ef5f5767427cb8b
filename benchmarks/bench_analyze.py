"""How fast is `analyze`? Playouts a second, and the time to analyse a whole 4-player game.

    python benchmarks/bench_analyze.py [--games N] [--jobs J] [--samples N] [--max-se POINTS]

Everything is measured in this run, on this machine:

  * playouts/s: whole games from the first move, every seat greedy, as the
    analysis plays them (``play.playout.Start.play``: one ``engine.Table``
    and the bots' loop), against the same games one move at a time through
    ``engine.apply`` and ``bots.turn`` with ``GreedyBot`` (the baseline; CPU
    time of this process);
  * a whole game: N simulated four-player classic games (seats strong,
    greedy, random, greedy; run seed 2026), every decision of every player
    analysed at the given settings (default: the command's), on one
    process, then on J processes. For each: the time, the decisions, how
    many were forced or exact, the samples they took, and the largest
    standard error of a loss: the issue's target is under 60 s of one core
    with every loss's standard error under 0.5 points, and about half that
    with ``--jobs 2``.

Asserts nothing about time: it prints figures and their ratios to the targets.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.core import engine
from coloretto_log.core.engine import GameState, Move
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.play import analyze as A
from coloretto_log.play import bots
from coloretto_log.play.exact import EXACT_SLOTS
from coloretto_log.play.playout import Start
from coloretto_log.play.simulate import bot_seed, match_seed, play_game

TARGET_SECONDS = 60.0
TARGET_SE = 0.5


def start(seed: int) -> GameState:
    rules = RuleSet.of()
    s = seeded_setup(rules, 4, seed, 0)
    return engine.new_game(rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)


def playouts_per_second(n: int) -> tuple[float, float]:
    states = [start(seed) for seed in range(n)]
    for state in states[: n // 3]:  # the score memo warm for both (it is kept across games)
        assert state.deck is not None
        Start(state).play(("draw", -1), list(state.deck))
    t = time.process_time()
    for state in states:
        assert state.deck is not None
        Start(state).play(("draw", -1), list(state.deck))
    playouts = n / (time.process_time() - t)
    bot = bots.make_bot("greedy")
    t = time.process_time()
    for state in states:
        rng = SplitMix64(0)
        while not state.over:
            state = engine.apply(state, bots.turn(bot, state, rng))
    through_engine = n / (time.process_time() - t)
    return playouts, through_engine


def simulated_game(index: int) -> list[tuple[Move, GameState]]:
    rules = RuleSet.of()
    seed = match_seed(2026, index)
    setup = seeded_setup(rules, 4, seed, 0)
    names = ("strong", "greedy", "random", "greedy")
    played = play_game(rules, [bots.make_bot(b) for b in names], setup,
                       [SplitMix64(bot_seed(seed, 0, s)) for s in range(4)])
    state = engine.new_game(rules, 4, removed=setup.removed, starting=setup.starting, first=setup.first,
                            deck=setup.deck)
    pairs = []
    for move in played.moves:
        pairs.append((move, state))
        state = engine.apply(state, move)
    return pairs


def analyse(tasks: list[A.Task], settings: A.Settings, jobs: int) -> tuple[float, float, list[A.Decision]]:
    """Wall-clock seconds, CPU seconds (this process and its finished children) and the decisions."""
    t = time.perf_counter()
    cpu = _cpu()
    decisions = list(A.analyze(tasks, settings, jobs=jobs))
    return time.perf_counter() - t, _cpu() - cpu, decisions


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def describe(label: str, seconds: float, cpu: float, decisions: list[A.Decision], settings: A.Settings) -> None:
    real = [d for d in decisions if not d.forced]
    sampled = [d for d in real if not d.evaluation.exact]
    samples = [d.evaluation.samples for d in sampled]
    worst = max((d.loss_se for d in real), default=0.0)
    cpu_text = f"{cpu:6.1f} s" if not math.isnan(cpu) else "  (n/a)"  # the workers are the forkserver's children
    capped = sum(1 for n in samples if n >= settings.samples)
    print(
        f"{label:<16} {seconds:6.1f} s wall, {cpu_text} cpu  {len(decisions)} decisions ({len(decisions) - len(real)} forced, "
        f"{len(real) - len(sampled)} exact)  samples mean {statistics.mean(samples):.0f}, "
        f"median {statistics.median(samples):.0f}, max {max(samples)}, {capped} at the cap  "
        f"largest loss se {worst:.2f}" + (f"  (cpu: {cpu / TARGET_SECONDS:.2f} of the {TARGET_SECONDS:.0f} s target)"
                                            if not math.isnan(cpu) else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="simulated 4-player games to analyse")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=A.DEFAULT_SAMPLES)
    parser.add_argument("--max-se", type=float, default=A.DEFAULT_MAX_SE)
    parser.add_argument("--playouts", type=int, default=300)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus")

    fast, through = playouts_per_second(args.playouts)  # cpu time: compare the ratio
    print(f"whole-game playouts, 4 players: {fast:,.0f}/s as analyze plays them; {through:,.0f}/s one move at a "
          f"time through engine.apply + bots.turn (baseline): {fast / through:.1f}x")

    settings = A.Settings(samples=args.samples, max_se=args.max_se)
    print(f"settings: at most {settings.samples} samples, stop at se {settings.max_se}; "
          f"exact in the last round with <= {EXACT_SLOTS} places left")
    for g in range(args.games):
        tasks = A.tasks_of_game(simulated_game(g), 1, 1, 0)
        one, cpu1, d1 = analyse(tasks, settings, 1)
        describe(f"game {g + 1}, --jobs 1", one, cpu1, d1, settings)
        if args.jobs > 1:
            many, _, dj = analyse(tasks, settings, args.jobs)
            assert [A.decision_json(d, ("a", "b", "c", "d")) for d in dj] == [
                A.decision_json(d, ("a", "b", "c", "d")) for d in d1
            ], "the numbers depend on --jobs"
            describe(f"game {g + 1}, --jobs {args.jobs}", many, math.nan, dj, settings)
            print(f"{'':<16} --jobs {args.jobs} takes {many / one:.2f} of --jobs 1's wall time (same numbers); "
                  f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")


if __name__ == "__main__":
    main()
