"""How fast is `analyze`? Playouts a second, and the time to analyse a whole 4-player game.

    python benchmarks/bench_analyze.py [--games N] [--jobs J] [--samples N] [--max-se POINTS]
                                       [--seeds N] [--stability-games P:SEED,...] [--memory MATCHES]
                                       [--error-games N] [--only speed|stability|errors|memory]

Everything is measured in this run, on this machine:

  * playouts/s: whole games from the first move, every seat greedy, as the
    analysis plays them (``bots.playout.Start.play``: one ``engine.Table``
    and the bots' loop), against the same games one move at a time through
    ``engine.apply`` and ``bots.turn`` with ``GreedyBot`` (the baseline; CPU
    time of this process);
  * a whole game: the first game of a recorded four-player match
    (``sample_logs/classic-4p-recorded-match-with-claims.json``) and N
    (default 2) simulated four-player classic games (seats strong, greedy,
    random, greedy; run seed 2026), every decision of every player analysed
    at the given settings (default: the command's) on one process, then the
    same with the playouts to the end of the game (``Settings(to_round=False)``,
    the analysis before the evaluator: the baseline, measured in the same
    run, with the ratio of the CPU times), then on J processes. For each: the
    time (and of one unforced decision on average), the load average as it
    ended (CPU time grows with the load of a shared machine), the decisions, how many were forced or exact
    (searched at the end, or every order counted), the samples they
    took, and the largest standard error of a loss: the issue's target is at
    most 10 s of one core;
  * stability: six simulated games (``--stability-games``, players:seed of
    ``simulate``; the issue's, ``simulate -n 1 --games 1 --seed 11
    --player-count 3 --bots strong,greedy,random``, first) analysed with
    ``--seed`` 0 to 3 at the defaults: the share of unforced decisions whose
    mark differs between seeds (target at most 1%) with, for each that does,
    the mark, the winning chance lost ± its standard error and the samples
    under every seed; with ``--seeds`` N above 4, seeds 0 to N-1, and also
    the same count averaged over every set of four of them (the issue's
    figure with less of the luck of which four seeds were drawn: the count
    of one set moves by two or three from set to set); and on the issue's
    game a
    close decision's loss against a 10,000-sample reference (target: within
    one standard error);
  * error rates by bot: ``--error-games`` simulated games, one seat for
    each of ``--error-bots`` (strong, greedy and random by default;
    random,greedy,strong,expert for the issue's ladder), the seats rotated
    from game to game, every decision analysed at cheap settings
    (``--error-samples``, ``--error-max-se``): per bot the error rate
    (marked decisions per unforced one), the mean loss per decision, the
    accuracy by points and lichess's accuracy by the winning chance lost,
    with 95% intervals over the games; the ranges of one player's accuracy
    in one game and whether they separate the bots; strong − greedy paired
    game by game;
  * memory: the peak resident memory of ``analyze``, ``validate``,
    ``score --json`` and ``replay --json``, each in a process of its own,
    once it has dealt with a twentieth, a quarter, half and all of MATCHES
    matches (default 20,000, the issue's size; counted where every command
    reads its matches, ``log.load.load``): flat memory means the same peak
    at a quarter of the matches as at all of them. Two files: MATCHES
    four-player games cut after 12 moves, where ``analyze --player Aiko
    --samples 1 --max-se 0`` analyses every match (each a few decisions, one
    sample each: the cheapest run that still reads, checks and analyses
    every match; with ``--html`` too, refused where the page passes its
    limit); and the issue's file, ``simulate -n MATCHES --bots
    greedy`` (about 325 MB at 20,000), where ``analyze --match MATCHES
    --game 1`` and ``replay --match MATCHES`` read past every match before
    the last. Beside ``analyze``: the entries of the bots' score memo, the
    one thing of a run that grows with the positions played (emptied at
    ``SCORE_MEMO_CAP`` entries). About eight minutes of one core at 20,000
    (36 minutes of wall time on a loaded two-core machine).

Asserts nothing about time: it prints figures and their ratios to the targets.
"""

from __future__ import annotations

import argparse
import inspect
import itertools
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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _child import child_cpu, peak_by_match, program
from _logs import random_match

from coloretto_log.bots import players as bots
from coloretto_log.bots.exact import EXACT_SLOTS
from coloretto_log.bots.exact import applies as exact_applies
from coloretto_log.bots.playout import Start
from coloretto_log.bots.simulate import bot_seed, match_seed, moves_with_states, play_game
from coloretto_log.coach import analyze as A
from coloretto_log.coach.luck import accuracy_of
from coloretto_log.coach.match import context_for
from coloretto_log.core import engine
from coloretto_log.core.engine import GameState, Move
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.load import Unreadable, load
from coloretto_log.view.html import PAGE_LIMIT

TARGET_SECONDS = 10.0
TARGET_CHANGES = 0.01
FOUR = 4  # the issue's figure: marks across --seed 0..3
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
    return moves_with_states(rules, played)


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
    # every order counted (``every_order``) rather than searched at the end of the game
    counted = sum(1 for d in real if d.evaluation.exact and not exact_applies(Start(d.state, d.card, d.last_round)))
    samples = [d.evaluation.samples for d in sampled]
    worst = max((d.loss_se for d in real), default=0.0)
    cpu_text = f"{cpu:6.1f} s" if not math.isnan(cpu) else "  (n/a)"  # the workers are the forkserver's children
    capped = sum(1 for n in samples if n >= settings.samples)
    past = sum(1 for n in samples if n > settings.samples)  # a mark still on its line at the cap samples on
    per = f", {1000 * cpu / len(real):.0f} ms a decision" if real and not math.isnan(cpu) else ""
    print(
        f"{label:<16} {seconds:6.1f} s wall, {cpu_text} cpu{per}  load average {os.getloadavg()[0]:.1f}  "
        f"{len(decisions)} decisions ({len(decisions) - len(real)} forced, "
        f"{len(real) - len(sampled)} exact: {counted} counted)  samples {sum(samples):,} in all, mean {statistics.mean(samples):.0f}, "
        f"median {statistics.median(samples):.0f}, max {max(samples)}, {capped} at the cap ({past} past it)  "
        f"largest loss se {worst:.2f}" + (f"  (cpu: {cpu / TARGET_SECONDS:.2f} of the {TARGET_SECONDS:.0f} s target)"
                                            if not math.isnan(cpu) else "")
    )


ISSUE_GAME = (3, 11)  # simulate -n 1 --games 1 --seed 11 --player-count 3 --bots strong,greedy,random
SIX_GAMES = "3:11,3:12,4:7,3:13,4:8,5:3"  # the stability figure's games (the issue asks for six)
RECORDED = Path(__file__).resolve().parents[1] / "sample_logs" / "classic-4p-recorded-match-with-claims.json"


def recorded_game() -> list[A.Task]:
    """The decisions of the first game of a recorded four-player match (``sample_logs/``)."""
    item = next(iter(load([str(RECORDED)])))
    assert not isinstance(item, Unreadable)
    return A.tasks_of_match(item.report, 1, 0, game=1)


def simulated_log(players: int, seed: int) -> Any:
    """One game of ``simulate -n 1 --games 1 --seed SEED --player-count PLAYERS`` (strong, greedy, random,
    greedy...), loaded."""
    names = ",".join(("strong", "greedy", "random", "greedy", "random")[:players])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"g{players}-{seed}.jsonl"
        subprocess.run([sys.executable, "-m", "coloretto_log", "simulate", "-n", "1", "--games", "1", "--seed", str(seed),
                        "--player-count", str(players), "--bots", names, "--out", str(path)],
                       check=True, capture_output=True)
        item = next(iter(load([str(path)])))
    assert not isinstance(item, Unreadable)
    return item


def stability(seeds: int, games: list[tuple[int, int]]) -> None:
    """Marks across seeds on each game (the issue's first), and on the issue's game a close decision against a
    10,000-sample reference."""
    total_changed = total_unforced = 0
    total_expected = 0.0
    for players, game_seed in games:
        item = simulated_log(players, game_seed)
        print(f"{players}-player game of simulate --seed {game_seed}:")
        runs = []
        for seed in range(seeds):
            settings = A.Settings(seed=seed)
            tasks = A.tasks_of_match(item.report, 1, seed)
            t = time.process_time()
            runs.append(list(A.analyze(tasks, settings)))
            print(f"  seed {seed}: {time.process_time() - t:5.1f} s cpu (load average {os.getloadavg()[0]:.1f}), "
                  f"{sum(d.evaluation.samples for d in runs[-1])} samples, "
                  f"{sum(1 for d in runs[-1] if d.mark)} marks")
        unforced = [k for k, d in enumerate(runs[0]) if not d.forced]
        issue = runs[:FOUR]  # the issue's figure: --seed 0..3 (all the seeds, where fewer were run)
        changed = [k for k in unforced if len({r[k].mark for r in issue}) > 1]
        named = [k for k in unforced if len({r[k].best for r in issue}) > 1]
        share = len(changed) / len(unforced)
        total_changed += len(changed)
        total_unforced += len(unforced)
        print(f"  stability: {len(changed)} of {len(unforced)} unforced decisions change mark across --seed "
              f"0..{len(issue) - 1} ({100 * share:.1f}%; target at most {100 * TARGET_CHANGES:.0f}%: "
              f"{'met' if share <= TARGET_CHANGES else 'NOT met'}); the named best changes in {len(named)}")
        shown = [k for k in unforced if len({r[k].mark for r in runs}) > 1]
        if seeds > FOUR and shown:
            print(f"  the decisions whose mark changes across any of the {seeds} seeds:")
        for k in shown:  # the mark, the winning chance lost and its standard error, the samples, under each seed
            d = runs[0][k]
            print(f"    move {d.move} {d.decision}: " + ", ".join(
                f"{r[k].mark or 'none'} {r[k].evaluation.chance:.4f} ± {r[k].evaluation.chance_se:.4f} "
                f"({r[k].evaluation.samples})" for r in runs))
        if seeds > FOUR:
            expected = four_seed_changes(runs, unforced)
            total_expected += expected
            print(f"  over every {FOUR} of the {seeds} seeds: {expected:.2f} decisions change mark on average")
        if (players, game_seed) == ISSUE_GAME:
            close_decisions(item, runs[0], unforced)
    if len(games) > 1:
        print(f"stability over the {len(games)} games: {total_changed} of {total_unforced} unforced decisions change "
              f"mark ({100 * total_changed / total_unforced:.1f}%)")
        if seeds > FOUR:
            print(f"  over every {FOUR} of the {seeds} seeds (the issue's --seed 0..3 is one such set), on average: "
                  f"{total_expected:.2f} of {total_unforced} ({100 * total_expected / total_unforced:.2f}%)")


def four_seed_changes(runs: Sequence[Sequence[Any]], unforced: list[int]) -> float:
    """The number of decisions whose mark changes across four seeds, averaged over every set of four of the seeds
    run: the issue's figure with less of the luck of which four seeds were drawn."""
    sets = list(itertools.combinations(range(len(runs)), FOUR))
    return sum(sum(1 for k in unforced if len({runs[s][k].mark for s in four}) > 1) for four in sets) / len(sets)


def close_decisions(item: Any, decisions: list[A.Decision], unforced: list[int]) -> None:
    """The two smallest losses above 0 and under 1.5 (the played choice not the best) against 10,000 samples."""
    close = sorted((k for k in unforced if decisions[k].best != decisions[k].played
                    and not decisions[k].evaluation.exact and 0 < decisions[k].loss < 1.5),
                   key=lambda k: decisions[k].loss)[:2]
    for k in close:
        d = decisions[k]
        task = next(t for t in A.tasks_of_match(item.report, 1, 99) if (t.move, t.decision) == (d.move, d.decision))
        t = time.process_time()
        ref = A.evaluate(task, A.Settings(samples=10_000, max_se=0, seed=99))
        print(f"  close decision: move {d.move} {d.decision}, reported {d.loss:.3f} ± {d.loss_se:.3f} at the defaults; "
              f"10,000-sample reference {ref.loss:.3f} ± {ref.loss_se:.3f} ({time.process_time() - t:.0f} s cpu): "
              f"{abs(d.loss - ref.loss) / d.loss_se:.2f} standard errors apart (target at most 1)")


BOTS = ("strong", "greedy", "random")
LADDER = ("random", "greedy", "strong", "expert")  # the order the accuracy should separate


def lichess_accuracy(chance_loss: float) -> float:
    """lichess's accuracy of one move from the win % it lost (0 to 100 points of win %), as documented:
    103.1668 × exp(−0.04354 × lost) − 3.1669, between 0 and 100."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * max(0.0, chance_loss)) - 3.1669))


def error_rates(games: int, samples: int, max_se: float, names: tuple[str, ...] = BOTS) -> None:
    """Per bot, over simulated games (one seat a bot) with the seats rotated: error rate, mean loss, accuracy."""
    settings = A.Settings(samples=samples, max_se=max_se)
    rules = RuleSet.of()
    players = len(names)
    # per game and bot: (unforced decisions, marked, loss added up, accuracy added up, lichess accuracy added up)
    tally: dict[str, list[tuple[int, int, float, float, float]]] = {b: [] for b in names}
    t = time.process_time()
    for g in range(games):
        seed = match_seed(2026, 1000 + g)
        order = names[g % players:] + names[:g % players]
        setup = seeded_setup(rules, players, seed, 0)
        played = play_game(rules, [bots.make_bot(b) for b in order], setup,
                           [SplitMix64(bot_seed(seed, 0, s)) for s in range(players)])
        pairs = moves_with_states(rules, played)
        decisions = [d for d in A.analyze(A.tasks_of_game(pairs, 1, 1, 0), settings) if not d.forced]
        for seat, name in enumerate(order):
            mine = [d for d in decisions if d.seat == seat]
            tally[name].append((len(mine), sum(d.mark is not None for d in mine),
                                sum(d.evaluation.unbiased_loss for d in mine), sum(accuracy_of(d.loss) for d in mine),
                                sum(lichess_accuracy(d.chance_loss) for d in mine)))
    print(f"error rates by bot: {games} {players}-player games (seats rotated), every decision at --samples {samples} "
          f"--max-se {max_se:g} ({time.process_time() - t:.0f} s cpu); 95% intervals over the games")
    print(f"  {'bot':<8} {'decisions':>9}  {'error rate':>15}  {'mean loss':>15}  {'accuracy %':>15}  "
          f"{'by chance %':>15}")
    for name in names:
        rows = tally[name]
        n = [r[0] for r in rows]
        cells = [_ratio([r[i] for r in rows], n) for i in (1, 2, 3, 4)]
        print(f"  {name:<8} {sum(n):>9}  " + "  ".join(f"{m:7.3f} ± {h:5.3f}" if i < 2 else f"{m:7.1f} ± {h:5.1f}"
                                                  for i, (m, h) in enumerate(cells)))
    ladder_names = [b for b in LADDER if b in names]
    for label, i in (("accuracy of one player in one game (100 × 2^(−loss/3) a decision, averaged)", 3),
                     ("accuracy by the winning chance lost (lichess's formula, averaged)", 4)):
        # the ranges of a game's accuracy (min to max over the games): do they separate the bots?
        ranges = {name: [r[i] / r[0] for r in tally[name] if r[0]] for name in ladder_names}
        print(f"  {label}, range over the games: "
              + ", ".join(f"{name} {min(v):.1f}–{max(v):.1f} (mean {statistics.mean(v):.1f})"
                          for name, v in ranges.items() if v))
        ladder = [ranges[b] for b in ladder_names if ranges[b]]
        pairs_apart = [max(lo) < min(hi) for lo, hi in itertools.pairwise(ladder)]
        print(f"    the ranges separate {' < '.join(ladder_names)}: {'yes' if all(pairs_apart) else 'no'} "
              f"(" + ", ".join(f"{a}/{b} {'apart' if ok else 'overlap'}"
                               for (a, b), ok in zip(itertools.pairwise(ladder_names), pairs_apart)) + ")")
    if "strong" in names and "greedy" in names:
        for what, i in (("error rate", 1), ("mean loss", 2)):
            diffs = [a[i] / a[0] - b[i] / b[0] for a, b in zip(tally["strong"], tally["greedy"]) if a[0] and b[0]]
            mean = statistics.mean(diffs)
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
            print(f"  strong - greedy, {what}, paired by game: {mean:+.3f} ± {half:.3f} "
                  f"({'strong lower' if mean + half < 0 else 'greedy lower' if mean - half > 0 else 'not told apart'})")


def _ratio(values: list[float], counts: list[int]) -> tuple[float, float]:
    """A ratio of sums over games and its 95% half-width (the games as clusters, the delta method)."""
    r = sum(values) / sum(counts)
    g = len(values)
    mean_n = sum(counts) / g
    var = sum((v - r * c) ** 2 for v, c in zip(values, counts)) / (g * (g - 1)) if g > 1 else 0.0
    return r, 1.96 * math.sqrt(var) / mean_n


SCORE_MEMO_CAP: int = inspect.signature(bots.Scores).parameters["limit"].default  # entries, then emptied
MEMORY_FLAT = 1.05  # the largest peak / the peak at a quarter of the matches that still reads as flat


def memory(matches: int) -> None:
    """Every reader streams: the peak memory at a quarter of the matches is the peak at all of them."""
    marks = (matches // 20, matches // 4, matches // 2)
    cli = program()
    with tempfile.TemporaryDirectory() as tmp:
        short = Path(tmp) / "short.jsonl"
        t = time.process_time()
        with short.open("w", encoding="utf-8") as f:
            for seed in range(matches):
                f.write(json.dumps(random_match(seed, players=4, games=1, moves=12)) + "\n")
        print(f"memory: peak resident MB of each command once it has dealt with "
              f"{' | '.join(f'{n:,}' for n in (*marks, matches))} matches (one process each, output discarded; "
              f"flat: last / a quarter at most {MEMORY_FLAT})")
        print(f"{matches:,} four-player games cut after 12 moves ({short.stat().st_size / 1e6:.0f} MB, "
              f"{time.process_time() - t:.0f} s of CPU to write), every match analysed:")
        base = _memory_line(["validate", str(short), "--json"], marks)
        _memory_line(["analyze", str(short), "--player", "Aiko", "--samples", "1", "--max-se", "0", "--json"], marks,
                     base)
        _memory_line(["score", str(short), "--json"], marks, base)
        _memory_line(["replay", str(short), "--json"], marks, base)
        # the page: written as each match is done, refused (exit 2) at the match that passes its 50 MB limit,
        # where the analysis stops
        seen = peak_by_match(["analyze", str(short), "--player", "Aiko", "--samples", "1", "--max-se", "0",
                              "--html", str(Path(tmp) / "page.html")], marks, exits=(0, 2))
        print(f"  {'analyze FILE --player Aiko --samples 1 --max-se 0 --html OUT':<58} "
              f"{' | '.join(f'{m.peak_mb:.0f}' for m in seen)} MB; "
              f"{'written' if (Path(tmp) / 'page.html').exists() else 'refused'} after {seen[-1].matches:,} matches "
              f"(the page's limit: {PAGE_LIMIT / 1e6:.0f} MB); {seen[-1].cpu:.0f} s of CPU")

        big = Path(tmp) / "big.jsonl"
        cpu = child_cpu([*cli, "simulate", "-n", str(matches), "--bots", "greedy", "--out", str(big)], 1)
        print(f"the issue's file: `simulate -n {matches} --bots greedy` ({big.stat().st_size / 1e6:.0f} MB, "
              f"{cpu:.0f} s of CPU to write), whole four-game matches:")
        base = _memory_line(["validate", str(big), "--json"], marks)
        _memory_line(["score", str(big), "--json"], marks, base)
        _memory_line(["analyze", str(big), "--match", str(matches), "--game", "1", "--json"], marks, base, last=True)
        _memory_line(["replay", str(big), "--match", str(matches), "--json"], marks, base, last=True)


def _memory_line(args: list[str], marks: tuple[int, ...], base: float | None = None, *, last: bool = False) -> float:
    """One command's peaks at ``marks`` and at its end, printed on one line; the peak at its end. ``last``:
    the command reads every match before the last and deals with that one only (``--match``): flat is then
    the peak once every match before the last was read, against a quarter; the last is shown apart."""
    total = int(args[args.index("--match") + 1]) if last else 0
    seen = peak_by_match(args, (*marks, total - 1) if last else marks)
    peaks = [m.peak_mb for m in seen]
    quarter = next((m.peak_mb for m in seen if m.matches == marks[1]), peaks[0])
    read = peaks[-2] if last else peaks[-1]
    words = [f"{' | '.join(f'{p:.0f}' for p in (peaks[:-2] + peaks[-1:] if last else peaks))} MB"]
    if last:
        words.append(f"{read:.0f} MB once the first {total - 1:,} were read")
    words.append(f"{'read' if last else 'last'} / a quarter {read / quarter:.2f} "
                 f"({'flat' if read / quarter <= MEMORY_FLAT else 'GROWS'})")
    if base is not None:
        words.append(f"{peaks[-1] / base:.2f}x validate's")
    if seen[-1].memo:
        shown = seen[:-2] + seen[-1:] if last else seen
        words.append("score memo " + " | ".join(f"{m.memo:,}" for m in shown) + f" entries (cap {SCORE_MEMO_CAP:,})")
    words.append(f"{seen[-1].cpu:.0f} s of CPU")
    command = " ".join("FILE" if a.endswith(".jsonl") else a for a in args)
    print(f"  {command:<58} " + "; ".join(words))
    return peaks[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2,
                        help="simulated 4-player games to analyse, beside the recorded one")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=A.DEFAULT_SAMPLES)
    parser.add_argument("--max-se", type=float, default=A.DEFAULT_MAX_SE)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=4, help="seeds of the stability figure")
    parser.add_argument("--stability-games", default=SIX_GAMES, metavar="P:SEED,...",
                        help="games of the stability figure, players:seed of simulate (3:11 is the issue's)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="speed: skip the baseline (playouts to the end of the game) beside each game")
    parser.add_argument("--error-games", type=int, default=30, help="three-player games of the error-rate figure")
    parser.add_argument("--error-samples", type=int, default=128)
    parser.add_argument("--error-bots", default=",".join(BOTS),
                        help="one seat each, rotated from game to game (random,greedy,strong,expert: the issue's ladder)")
    parser.add_argument("--error-max-se", type=float, default=1.0)
    parser.add_argument("--memory", type=int, default=20_000, metavar="MATCHES",
                        help="matches of the memory figure (the issue's 20,000)")
    parser.add_argument("--only", choices=["speed", "stability", "errors", "memory"], default=None)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus")
    if args.only in (None, "stability"):
        stability(args.seeds, [(int(p), int(q)) for p, q in (g.split(":") for g in args.stability_games.split(","))])
    if args.only in (None, "errors"):
        error_rates(args.error_games, args.error_samples, args.error_max_se, tuple(args.error_bots.split(",")))
    if args.only in (None, "memory"):
        memory(args.memory)
    if args.only not in (None, "speed"):
        return

    fast, through = playouts_per_second(args.playouts)  # cpu time: compare the ratio
    print(f"whole-game playouts, 4 players: {fast:,.0f}/s as analyze plays them; {through:,.0f}/s one move at a "
          f"time through engine.apply + bots.turn (baseline): {fast / through:.1f}x")

    settings = A.Settings(samples=args.samples, max_se=args.max_se)
    baseline = A.Settings(samples=args.samples, max_se=args.max_se, to_round=False)
    print(f"settings: at most {settings.samples} samples, stop at se {settings.max_se}; "
          f"exact in the last round with <= {EXACT_SLOTS} places left; playouts to {A.HORIZON}; "
          f"baseline: the same settings, playouts to the end of the game (the analysis before the evaluator)")
    # every game valued as the first of the default four-game match (``coach.match``), as the recorded one is
    first_of_four = context_for(RuleSet.of(), 4, 1, (0, 0, 0, 0))
    games = [("recorded 4p game", recorded_game())] + [
        (f"simulated game {g + 1}", A.tasks_of_game(simulated_game(g), 1, 1, 0, context=first_of_four))
        for g in range(args.games)]
    ratios = []
    for label, tasks in games:
        one, cpu1, d1 = analyse(tasks, settings, 1)
        describe(f"{label}, --jobs 1", one, cpu1, d1, settings)
        if not args.no_baseline:
            old_wall, old_cpu, d0 = analyse(tasks, baseline, 1)
            describe(f"{label}, baseline", old_wall, old_cpu, d0, baseline)
            ratios.append(cpu1 / old_cpu)
            print(f"{'':<16} {cpu1 / old_cpu:.2f} of the baseline's CPU time in the same run")
        if args.jobs > 1:
            many, _, dj = analyse(tasks, settings, args.jobs)
            assert [A.decision_json(d, ("a", "b", "c", "d")) for d in dj] == [
                A.decision_json(d, ("a", "b", "c", "d")) for d in d1
            ], "the numbers depend on --jobs"
            describe(f"{label}, --jobs {args.jobs}", many, math.nan, dj, settings)
            print(f"{'':<16} --jobs {args.jobs} takes {many / one:.2f} of --jobs 1's wall time (same numbers); "
                  f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")
    if ratios:
        print(f"over the {len(ratios)} games: {statistics.mean(ratios):.2f} of the baseline's CPU time on average "
              f"({min(ratios):.2f} to {max(ratios):.2f})")

if __name__ == "__main__":
    main()
