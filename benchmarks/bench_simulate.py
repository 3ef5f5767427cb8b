"""How fast is `simulate`? Games simulated per second, against replaying the same matches from their logs.

    python benchmarks/bench_simulate.py [--matches N] [--repeats R] [--strong M]

Everything runs in one process, on one core, in the same run. Each timed
workload is run once per round, R rounds, and its best round is kept (these
machines are noisy: compare the ratios, not the absolute figures). For N
four-player, four-game matches of ``greedy`` self-play (run seed 2026):

  * simulate (cold): the first pass, every memo empty (the bots' scores,
    the optimiser's cache, the packed rows), as in a new process;
  * simulate (warm): bots and engine only (``simulate.play_match``), the
    same matches again;
  * simulate + log: the same and the log line (``simulate.outcome``):
    this is what the command does per match, less the writing;
  * replay seeded / recorded: ``json.loads`` + ``replay.check_match`` of the
    lines simulate wrote, in both forms (what ``validate`` does per match);
  * engine fold: ``engine.new_game`` and ``engine.apply`` over the resolved
    moves, no bots, no checks: the floor that any bot running on this engine
    adds to (setups dealt beforehand);
  * simulate random: ``random`` self-play, and the engine fold of those same
    games (random games have more moves than greedy ones).

Self-play keeps no match once played, as the command does (each match is
written and dropped) and as the fold keeps no state: keeping a thousand
games' moves alive made the garbage collector's passes cost self-play
about 40 microseconds a game that the command never pays.

Then M matches with one ``strong`` seat against three ``greedy`` ones, and
from the command line (unless ``--no-cli``): the CPU time (user + system)
of ``coloretto-log simulate -n N --bots greedy --jobs 1 --out FILE`` in a
child process, against the same with ``-n 1`` (the start, the strength
table and the file, which the command pays once): games a second with and
without them, beside the cold and warm figures in-process. The child starts
as an installed program does, its modules' bytecode compiled beforehand
(``_child.bytecode_env``); the whole command is timed again in this
process's own environment (under PYTHONDONTWRITEBYTECODE, as on the
project's build machines, a checkout compiles its modules at every start). Times
are CPU time of this process (``time.process_time``): throughput on one core
even when the machine is shared. The targets (issue 10), printed with the
ratios measured in this run: random self-play within 2x the time of the fold
of its games; greedy self-play at 3,000 four-player games a second on one
core, or within 2.5x the time of the fold. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _child import bytecode_env, checkout_note, child_cpu, program

from coloretto_log.bots import players
from coloretto_log.bots import simulate as sim
from coloretto_log.core import engine, scoring
from coloretto_log.log.replay import check_match

TARGET = 3000  # four-player games a second with greedy on one core (issues 5 and 10)
RANDOM_TARGET = 2.0  # random self-play: at most this times the engine fold of its games (issue 10)
GREEDY_TARGET = 2.5  # greedy self-play: or at most this times the engine fold (issue 10)


def best_of_interleaved(repeats: int, work: dict[str, Callable[[], object]]) -> dict[str, float]:
    """The best time of each workload over ``repeats`` rounds, one run of each per round:
    a burst of load from elsewhere then hits every workload alike."""
    best = dict.fromkeys(work, float("inf"))
    for _ in range(repeats):
        for name, fn in work.items():
            t = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t)
    return best


def line(label: str, seconds: float, games: int) -> float:
    rate = games / seconds
    print(f"{label:<34} {seconds:8.3f} s {rate:10.0f} games/s")
    return rate


def command_line(matches: int, repeats: int, cold: float, warm: float) -> None:
    """``simulate`` from the command line, a user's run: every memo starts empty in the new process.

    Timed twice: as an installed program starts (its modules' bytecode compiled, as ``pip install`` leaves
    it: the figure the target is read against) and in this process's own environment (a checkout run under
    PYTHONDONTWRITEBYTECODE compiles the package's modules again at every start)."""
    cli = program()
    installed = bytecode_env()
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as work:
        out = str(Path(work) / "sims.jsonl")

        def run(n: int) -> list[str]:
            return [*cli, "simulate", "-n", str(n), "--bots", "greedy", "--seed", "2026", "--jobs", "1", "--out", out, "--force"]

        t_run = child_cpu(run(matches), repeats, installed)
        t_one = child_cpu(run(1), repeats, installed)
        t_here = child_cpu(run(matches), repeats)
    games = 4 * matches
    print()
    print(f"from the command line: simulate -n {matches} --bots greedy --jobs 1 --out FILE ({games} games)")
    print(f"  whole command        {t_run:8.3f} s CPU {games / t_run:10.0f} games/s   (as installed: bytecode compiled)")
    print(f"  the same, -n 1       {t_one:8.3f} s CPU (start, strength table, file)")
    print(f"  less the -n 1 run    {t_run - t_one:8.3f} s CPU {(games - 4) / (t_run - t_one):10.0f} games/s")
    print(f"  whole command here   {t_here:8.3f} s CPU {games / t_here:10.0f} games/s   ({checkout_note()})")
    print(f"  in-process: cold {cold:.0f} games/s, warm {warm:.0f} games/s")
    print(f"target: a user's {games:,} games at 2,000 games/s or more: {games / t_run:.0f}/s as installed "
          f"({'met' if games / t_run >= 2000 else 'not met'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=250, help="greedy self-play matches (4 games each)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strong", type=int, default=10, help="matches with a strong seat (slow)")
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line measurement")
    args = parser.parse_args()
    n = args.matches
    games = 4 * n
    print(f"python {platform.python_version()} on {platform.machine()}; {n} matches, {games} four-player games each pass")

    greedy = sim.make_plan(bots=["greedy"], games=4, seed=2026)
    players.clear_scores()
    players._ROW_UNITS.clear()
    scoring.clear_cache()
    t = time.process_time()
    played = [sim.play_match(greedy, i) for i in range(n)]
    cold = line("simulate greedy (cold memo)", time.process_time() - t, games)
    seeded = [sim.outcome(greedy, i).line for i in range(n)]
    recorded_plan = sim.make_plan(bots=["greedy"], games=4, seed=2026, recorded=True)
    recorded = [sim.outcome(recorded_plan, i).line for i in range(n)]
    rand = sim.make_plan(bots=["random"], games=4, seed=2026)
    played_random = [sim.play_match(rand, i) for i in range(n)]

    def with_log() -> None:
        for i in range(n):
            sim.outcome(greedy, i)

    def replay(lines: list[str]) -> Callable[[], None]:
        def run() -> None:
            for text in lines:
                if not check_match(json.loads(text)).valid:
                    raise SystemExit("a simulated log does not validate")

        return run

    def fold(matches: list[sim.PlayedMatch]) -> Callable[[], None]:
        def run() -> None:
            for m in matches:
                for g in m.games:
                    s = g.setup
                    state = engine.new_game(
                        greedy.rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck
                    )
                    for move in g.moves:
                        state = engine.apply(state, move)

        return run

    def self_play(plan: sim.Plan) -> Callable[[], None]:
        def run() -> None:
            for i in range(n):  # one match at a time, dropped when done, as the command does (``sim.run``)
                sim.play_match(plan, i)

        return run

    times = best_of_interleaved(
        args.repeats,
        {
            "warm": self_play(greedy),
            "logged": with_log,
            "seeded": replay(seeded),
            "recorded": replay(recorded),
            "fold": fold(played),
            "random": self_play(rand),
            "fold random": fold(played_random),
        },
    )
    warm = line("simulate greedy (warm)", times["warm"], games)
    logged = line("simulate greedy + log line", times["logged"], games)
    r_seeded = line("replay seeded logs (check_match)", times["seeded"], games)
    r_recorded = line("replay recorded logs (check_match)", times["recorded"], games)
    floor = line("engine fold only (no bots)", times["fold"], games)
    line("simulate random (warm)", times["random"], games)
    line("engine fold of the random games", times["fold random"], games)
    if args.strong:
        strong = sim.make_plan(bots=["strong", "greedy", "greedy", "greedy"], games=4, seed=2026)
        t = time.process_time()
        for i in range(args.strong):
            sim.play_match(strong, i)
        line(f"simulate strong+3 greedy ({args.strong} matches)", time.process_time() - t, 4 * args.strong)

    moves = sum(len(g.moves) for m in played for g in m.games)
    moves_random = sum(len(g.moves) for m in played_random for g in m.games)
    random_ratio = times["random"] / times["fold random"]
    greedy_ratio = times["warm"] / times["fold"]
    print()
    print(f"moves per game: greedy {moves / games:.1f}, random {moves_random / games:.1f}")
    print(f"ratio random self-play / engine fold (time):  {random_ratio:5.2f}x  (target: at most {RANDOM_TARGET}x)")
    print(
        f"ratio greedy self-play / engine fold (time):  {greedy_ratio:5.2f}x  "
        f"(target: at most {GREEDY_TARGET}x, or {TARGET} games/s)"
    )
    print(f"ratio simulate (warm) / replay seeded:   {warm / r_seeded:5.2f}x  (above 1: simulating is faster than replaying)")
    print(f"ratio simulate (warm) / replay recorded: {warm / r_recorded:5.2f}x")
    print(f"ratio simulate + log / replay seeded:    {logged / r_seeded:5.2f}x")
    print(f"ratio simulate (cold) / simulate (warm): {cold / warm:5.2f}x")
    print(f"engine fold alone: {floor:.0f} games/s, the ceiling for any bot on this engine")
    print(f"target {TARGET} games/s with greedy: reached {warm / TARGET:.2f} of it (warm), {logged / TARGET:.2f} with the log line")
    print(f"cold memo: {cold:.0f} games/s, {cold / warm:.2f} of warm (target: 2,000 games/s for a user's 1,000 games)")
    if not args.no_cli:
        command_line(n, args.repeats, cold, warm)


if __name__ == "__main__":
    main()
