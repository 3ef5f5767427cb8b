"""How strong is `expert`, and what does a decision cost? Seeded three-player games against `strong` and `greedy`.

    python benchmarks/bench_expert.py [--matches N] [--seed S] [--jobs J] [--bots expert,strong,greedy]
                                      [--games G] [--samples K] [--check C]

Plays N seeded matches (default 300 three-player matches of one game each,
run seed 1) exactly as

    coloretto-log simulate -n N --player-count 3 --games G --bots expert,strong,greedy --seed S

plays them (``simulate.play_match``: the same seeds, the same bots), with
every bot wrapped to time its decisions: the CPU time of the process
(``time.process_time``) around each ``choose`` and ``place``, so the time
per decision is one core's even when the machine is shared. The wrapper
changes no decision; ``--check C`` (default 2) plays the first C matches
again through ``simulate.outcome`` and stops if a score differs.

Prints the strength table of ``simulate`` (match wins, shared wins, win
rate with its 95% Wilson interval, points per game) with, per bot, the
decisions it made and its CPU time per decision (mean, 99th percentile,
most), then the target of issue 18: ``expert`` wins more than ``strong``
with non-overlapping 95% intervals, at no more than 1 s of one core per
decision. ``--samples K`` plays an ``expert`` with at most K orders per
decision instead of the default (the command above then does not
reproduce it). Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import sys
import time
from collections.abc import Iterator
from functools import partial
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.core.engine import Take, View
from coloretto_log.core.rng import SplitMix64
from coloretto_log.play import expert
from coloretto_log.play import simulate as sim
from coloretto_log.play.bots import Bot, make_bot

TARGET_SECONDS = 1.0  # one core's CPU time per decision (issue 18)


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
    return expert.ExpertBot(samples=samples) if name == "expert" and samples else make_bot(name)


def play(plan: sim.Plan, samples: int | None, index: int) -> tuple[sim.Outcome, list[list[float]]]:
    """Match ``index``, timed: its outcome (without the log line) and each seat's decision times."""
    seats = [Timed(bot_of(name, samples)) for name in plan.bots]
    played = sim.play_match(plan, index, seats)
    return sim.Outcome(index, played.seed, "", played.scores), [s.times for s in seats]


def matches(plan: sim.Plan, n: int, jobs: int, samples: int | None) -> Iterator[tuple[sim.Outcome, list[list[float]]]]:
    work = partial(play, plan, samples)
    if jobs <= 1:
        yield from map(work, range(n))
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(jobs) as pool:
        yield from pool.imap(work, range(n), chunksize=1)


def percentile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bots", default="expert,strong,greedy")
    parser.add_argument("--games", type=int, default=1, help="games a match (default 1: a match is a game)")
    parser.add_argument("--samples", type=int, default=None, help="expert's most orders per decision")
    parser.add_argument("--check", type=int, default=2, help="matches replayed through simulate.outcome")
    args = parser.parse_args()

    names = args.bots.split(",")
    plan = sim.make_plan(players=len(names), bots=names, games=args.games, seed=args.seed)
    command = (f"coloretto-log simulate -n {args.matches} --player-count {len(names)} --games {args.games} "
               f"--bots {args.bots} --seed {args.seed}")
    print(f"Python {platform.python_version()}; {args.matches} matches of {args.games} game(s), "
          f"{len(names)} players, {args.jobs} process(es); expert: at most "
          f"{args.samples or expert.SAMPLES} orders a decision")
    print(f"the same games as: {command}" + (" (not with --samples)" if args.samples else ""))

    if args.samples is None:
        for i in range(min(args.check, args.matches)):
            timed, _ = play(plan, None, i)
            if timed.scores != sim.outcome(plan, i).scores:
                sys.exit(f"match {i}: the timed bots played another game than simulate")

    tally = sim.Tally(plan)
    times: dict[str, list[float]] = {name: [] for name in dict.fromkeys(names)}
    started = time.monotonic()
    for k, (outcome, seat_times) in enumerate(matches(plan, args.matches, args.jobs, args.samples), start=1):
        tally.add(outcome)
        for name, ts in zip(names, seat_times):
            times[name].extend(ts)
        if k % 25 == 0 or k == args.matches:
            wins = ", ".join(f"{b.bot} {b.wins}" for b in tally.stats())
            print(f"  {k}/{args.matches} matches, {time.monotonic() - started:.0f} s: wins {wins}", file=sys.stderr,
                  flush=True)

    print(f"\n{tally.matches} matches ({tally.games} games), {tally.shared_matches} with a shared win; "
          f"{time.monotonic() - started:.0f} s wall")
    header = (f"{'bot':<8} {'n':>5} {'wins':>5} {'shared':>6} {'win %':>6} {'95% CI':>11} {'pts/game':>8} "
              f"{'decisions':>9} {'ms/decision':>11} {'p99 ms':>7} {'most ms':>7}")
    print(header)
    print("-" * len(header))
    ranking = tally.ranking()
    for b, _ in ranking:
        ts = times[b.bot]
        mean = sum(ts) / len(ts) if ts else 0.0
        print(f"{b.bot:<8} {b.entries:>5} {b.wins:>5} {b.shared:>6} {100 * b.rate:>6.1f} "
              f"{100 * b.low:>5.1f}–{100 * b.high:<5.1f} {b.mean_game:>8.2f} {len(ts):>9} {1000 * mean:>11.2f} "
              f"{1000 * percentile(ts, 0.99):>7.1f} {1000 * max(ts, default=0.0):>7.1f}")
    for (b, apart), (nxt, _) in pairwise(ranking):
        print(f"{b.bot} > {nxt.bot}: the 95% intervals {'do not overlap' if apart else 'overlap'}")

    stats = {b.bot: b for b, _ in ranking}
    if "expert" in stats and "strong" in stats:
        e, s = stats["expert"], stats["strong"]
        ts = times["expert"]
        mean = sum(ts) / len(ts) if ts else 0.0
        strength = e.rate > s.rate and e.low > s.high
        speed = mean <= TARGET_SECONDS
        print(f"\ntarget (issue 18): expert above strong with non-overlapping 95% intervals: "
              f"{'met' if strength else 'NOT met'} ({100 * e.low:.1f}–{100 * e.high:.1f} against "
              f"{100 * s.low:.1f}–{100 * s.high:.1f}, {e.entries} games)")
        print(f"                   at most {TARGET_SECONDS:g} s of one core per decision: {'met' if speed else 'NOT met'} "
              f"(mean {mean:.4f} s, 99% under {percentile(ts, 0.99):.3f} s, most {max(ts, default=0.0):.3f} s "
              f"over {len(ts)} decisions; strong's mean {sum(times['strong']) / max(1, len(times['strong'])):.4f} s)")


if __name__ == "__main__":
    main()
