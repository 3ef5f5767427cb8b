"""How fast is `analyze`? Playouts a second, and the time to analyse a whole 4-player game.

    python benchmarks/bench_analyze.py [--games N] [--jobs J] [--samples N] [--max-se POINTS]
                                       [--stability] [--memory MATCHES] [--only speed|stability|memory]

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
    standard error of a loss: the issue's target is at most 20 s of one core
    with every loss's standard error under 0.5 points, and about half that
    with ``--jobs 2``;
  * stability: the game of ``simulate -n 1 --games 1 --seed 11
    --player-count 3 --bots strong,greedy,random`` analysed with ``--seed``
    0 to 3 at the defaults: the share of unforced decisions whose mark
    differs between seeds (target at most 3%), and a close decision's loss
    against a 10,000-sample reference (target: within one standard error);
  * memory: ``analyze`` of a ``.jsonl`` of MATCHES matches (and of half of
    them) against ``validate`` of the same files, peak RSS of each process:
    flat memory means the same peak whatever the number of matches (the
    one thing that grows is the bots' score memo, bounded at 2^19 entries
    and full after about a thousand such matches). Each
    match is a four-player game cut after 12 moves (an unfinished game:
    read and checked whole, a few decisions to analyse, one sample each).

Asserts nothing about time: it prints figures and their ratios to the targets.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _logs import random_match

from coloretto_log.core import engine
from coloretto_log.core.engine import GameState, Move
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.load import Unreadable, load
from coloretto_log.play import analyze as A
from coloretto_log.play import bots
from coloretto_log.play.exact import EXACT_SLOTS
from coloretto_log.play.playout import Start
from coloretto_log.play.simulate import bot_seed, match_seed, play_game

TARGET_SECONDS = 20.0
TARGET_CHANGES = 0.03
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


def stability(seeds: int) -> None:
    """Marks across seeds on the issue's game, and a close decision against a 10,000-sample reference."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g11.jsonl"
        subprocess.run([sys.executable, "-m", "coloretto_log", "simulate", "-n", "1", "--games", "1", "--seed", "11",
                        "--player-count", "3", "--bots", "strong,greedy,random", "--out", str(path)],
                       check=True, capture_output=True)
        item = next(iter(load([str(path)])))
    assert not isinstance(item, Unreadable)
    runs = []
    for seed in range(seeds):
        settings = A.Settings(seed=seed)
        tasks = A.tasks_of_match(item.report, 1, seed)
        t = time.process_time()
        runs.append(list(A.analyze(tasks, settings)))
        print(f"seed {seed}: {time.process_time() - t:5.1f} s cpu, "
              f"{sum(d.evaluation.samples for d in runs[-1])} samples, "
              f"{sum(1 for d in runs[-1] if d.mark)} marks")
    unforced = [k for k, d in enumerate(runs[0]) if not d.forced]
    changed = [k for k in unforced if len({r[k].mark for r in runs}) > 1]
    named = [k for k in unforced if len({r[k].best for r in runs}) > 1]
    share = len(changed) / len(unforced)
    print(f"stability: {len(changed)} of {len(unforced)} unforced decisions change mark across --seed 0..{seeds - 1} "
          f"({100 * share:.1f}%; target at most {100 * TARGET_CHANGES:.0f}%: "
          f"{'met' if share <= TARGET_CHANGES else 'NOT met'}); the named best changes in {len(named)}")
    for k in changed:
        d = runs[0][k]
        print(f"  move {d.move} {d.decision}: " + ", ".join(
            f"{r[k].mark or 'none'} {r[k].loss:.2f} ± {r[k].loss_se:.2f} ({r[k].evaluation.samples})" for r in runs))
    # close decisions: the played choice not the best, a loss above 0 but under 1.5 points (the two smallest)
    close = sorted((k for k in unforced if runs[0][k].best != runs[0][k].played and not runs[0][k].evaluation.exact
                    and 0 < runs[0][k].loss < 1.5), key=lambda k: runs[0][k].loss)[:2]
    for k in close:
        d = runs[0][k]
        task = next(t for t in A.tasks_of_match(item.report, 1, 99) if (t.move, t.decision) == (d.move, d.decision))
        t = time.process_time()
        ref = A.evaluate(task, A.Settings(samples=10_000, max_se=0, seed=99))
        print(f"close decision: move {d.move} {d.decision}, reported {d.loss:.3f} ± {d.loss_se:.3f} at the defaults; "
              f"10,000-sample reference {ref.loss:.3f} ± {ref.loss_se:.3f} ({time.process_time() - t:.0f} s cpu): "
              f"{abs(d.loss - ref.loss) / d.loss_se:.2f} standard errors apart (target at most 1)")


def peak_rss(args: list[str]) -> tuple[float, float]:
    """Peak resident memory (MB) and wall seconds of one command, in a process of its own."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, text=True).stdout
    kb, seconds = out.split()
    return int(kb) / 1024, float(seconds)


def memory(matches: int) -> None:
    """analyze streams: its peak memory is the same on a tenth of the matches as on all of them."""
    with tempfile.TemporaryDirectory() as tmp:
        cli = [sys.executable, "-m", "coloretto_log"]
        for n in (matches // 2, matches):
            path = Path(tmp) / f"m{n}.jsonl"
            with path.open("w", encoding="utf-8") as f:
                for seed in range(n):  # whole matches to read and check, a few decisions each to analyse
                    match = random_match(seed, players=4, games=1)
                    match["games"][0]["moves"] = match["games"][0]["moves"][:12]
                    f.write(json.dumps(match) + "\n")
            size = path.stat().st_size / 1e6
            rss_a, sec_a = peak_rss([*cli, "analyze", str(path), "--player", "Aiko", "--samples", "1", "--max-se", "0",
                                     "--json"])
            rss_v, sec_v = peak_rss([*cli, "validate", str(path), "--json"])
            print(f"memory, {n} matches ({size:.1f} MB): analyze peak {rss_a:.0f} MB ({sec_a:.0f} s), validate peak "
                  f"{rss_v:.0f} MB ({sec_v:.0f} s): analyze / validate {rss_a / rss_v:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="simulated 4-player games to analyse")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=A.DEFAULT_SAMPLES)
    parser.add_argument("--max-se", type=float, default=A.DEFAULT_MAX_SE)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=4, help="seeds of the stability figure")
    parser.add_argument("--memory", type=int, default=2000, metavar="MATCHES", help="matches of the memory figure")
    parser.add_argument("--only", choices=["speed", "stability", "memory"], default=None)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus")
    if args.only in (None, "stability"):
        stability(args.seeds)
    if args.only in (None, "memory"):
        memory(args.memory)
    if args.only not in (None, "speed"):
        return

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
