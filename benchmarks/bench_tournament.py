"""How well does the Swiss pairing of ``tournament`` work? Simulated tournaments against random tables.

    python benchmarks/bench_tournament.py [--sizes 8,12,16,24,40] [--rounds 3,4,5,6] [--seeds N]
                                          [--noise POINTS] [--restarts N]

Every tournament has N players with hidden strengths (drawn from a normal
distribution, one per player) and R rounds. A table's result is strength-
weighted random: each player's match total is 100 + 10 x strength + a
normal noise of --noise points (default 15: a strong player wins about 60%
of the games against an average one's 25% at a table of four, as in the
club data of docs/ratings.md). The same players, strengths and results'
random numbers are played twice:

  * Swiss: round 1 at random (the seed), later rounds by
    ``club.swiss.pair_round`` on the standings (placing points 4-2-1-0,
    scaled), starters by share;
  * random tables: every round drawn at random with the same table sizes,
    starters drawn at random.

Printed per player count and round count, over the seeds:

  * repeated meetings (a pair meeting for the k-th time counts k - 1) of
    the Swiss pairing, against the counting lower bound (each player meets
    at most N - 1 others before repeating: the sum over players of their
    excess seats, halved, rounded up) and against random tables;
  * starting seats: the share of players whose starts are within one of
    their share (the sum of 1/size over their tables), and the largest
    difference seen;
  * Kendall's tau-b between the final standings and the hidden strengths,
    Swiss and random tables, each with a 95% interval over the seeds, and
    their paired difference with its interval.

Nothing is timed: the figures are about the pairing's quality, measured
here against the baseline of random tables in the same run.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.club.split import pair_key, table_sizes
from coloretto_log.club.swiss import TableResult, pair_round, parse_points, standings

POINTS = parse_points(None)


def kendall_tau_b(xs: list[float], ys: list[float]) -> float:
    """Kendall's tau-b of two equally long lists (ties in either allowed)."""
    concordant = discordant = ties_x = ties_y = 0
    for i, j in combinations(range(len(xs)), 2):
        dx, dy = xs[i] - xs[j], ys[i] - ys[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    n0 = concordant + discordant
    denom = math.sqrt((n0 + ties_x) * (n0 + ties_y))
    return (concordant - discordant) / denom if denom else 0.0


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and a 95% normal interval over the seeds."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def lower_bound(n: int, rounds: int, sizes: tuple[int, ...]) -> int:
    """The fewest repeated meetings any pairing with these table sizes can have, by counting seats.

    A round seats M = sum(s (s - 1)) ordered neighbours; over R rounds a player p has m_p of them, which
    sum to R M. A player meets at most n - 1 others before repeating, so the repeats number at least
    sum(max(0, m_p - (n - 1))) / 2, and that sum is smallest when the m_p are as even as integers can be
    (the function is convex). Also at least R M / 2 - n (n - 1) / 2 (there are only so many pairs).
    """
    total = rounds * sum(s * (s - 1) for s in sizes)
    low, extra = divmod(total, n)
    even = [low + 1] * extra + [low] * (n - extra)
    by_player = sum(max(0, m - (n - 1)) for m in even)
    # And round by round: a table of s players drawn from the T tables of the round before seats some of
    # their table-mates together again, at least when the s are spread as evenly as possible over the T.
    per_round = 0
    for s in sizes:
        low_s, more = divmod(s, len(sizes))
        per_round += more * math.comb(low_s + 1, 2) + (len(sizes) - more) * math.comb(low_s, 2)
    return max(math.ceil(by_player / 2), total // 2 - n * (n - 1) // 2, (rounds - 1) * per_round, 0)


def repeats(history: list[list[tuple[str, ...]]]) -> int:
    met: Counter[tuple[str, str]] = Counter()
    for tables in history:
        for table in tables:
            for a, b in combinations(table, 2):
                met[pair_key(a, b)] += 1
    return sum(k - 1 for k in met.values() if k > 1)


def results_of(tables: list[tuple[str, ...]], strength: dict[str, float], rng: random.Random, noise: float, r: int) -> list[TableResult]:
    out = []
    for t, table in enumerate(tables, 1):
        totals = {p: round(100 + 10 * strength[p] + rng.gauss(0, noise)) for p in table}
        out.append(TableResult(r, t, totals))
    return out


def play(n: int, rounds: int, seed: int, noise: float, *, swiss: bool, restarts: int) -> tuple[float, int, list[float]]:
    """One tournament: tau-b with the hidden strength, repeated meetings, each player's starts minus share."""
    setup = random.Random(seed)
    players = [f"p{i:02d}" for i in range(n)]
    strength = {p: setup.gauss(0, 1) for p in players}
    draw = random.Random(seed * 7919 + 1)
    luck = random.Random(seed * 104729 + 2)  # the same results' random numbers for both pairings, table by table
    sizes = table_sizes(n)
    history: list[list[tuple[str, ...]]] = []
    results: list[TableResult] = []
    starts: Counter[str] = Counter()
    shares: Counter[str] = Counter()
    for r in range(1, rounds + 1):
        met: Counter[tuple[str, str]] = Counter()
        for tables_ in history:
            for table in tables_:
                for a, b in combinations(table, 2):
                    met[pair_key(a, b)] += 1
        if swiss:
            if r == 1:
                order = list(players)
                draw.shuffle(order)
                grouping = "none"
            else:
                order = [s.player for s in standings(players, results, POINTS)]
                grouping = "group"
            tables = pair_round(order, met, starts, shares, draw, grouping=grouping, restarts=restarts)
        else:
            order = list(players)
            draw.shuffle(order)
            tables, i = [], 0
            for size in sizes:
                tables.append(tuple(order[i : i + size]))
                i += size
        for table in tables:
            starts[table[0]] += 1
            for p in table:
                shares[p] += 1 / len(table)
        history.append(list(tables))
        results.extend(results_of(list(tables), strength, luck, noise, r))
    final = standings(players, results, POINTS)
    place = {s.player: s.place for s in final}
    tau = kendall_tau_b([-place[p] for p in players], [strength[p] for p in players])
    return tau, repeats(history), [starts[p] - shares[p] for p in players]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="8,12,16,24,40")
    ap.add_argument("--rounds", default="3,4,5,6")
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--noise", type=float, default=15.0)
    ap.add_argument("--restarts", type=int, default=12)
    args = ap.parse_args()
    counts = [int(x) for x in args.sizes.split(",")]
    round_counts = [int(x) for x in args.rounds.split(",")]
    print(f"seeds {args.seeds}, noise {args.noise} points, restarts {args.restarts}")
    print(
        f"{'N':>3} {'R':>2} | {'repeats swiss':>13} {'bound':>5} {'random':>7} | {'starts within 1':>15} {'max |d|':>7} |"
        f" {'tau swiss [95%]':>22} {'tau random [95%]':>22} {'swiss - random [95%]':>24}"
    )
    for n in counts:
        for rounds in round_counts:
            taus_s, taus_r, reps_s, reps_r, within, worst = [], [], [], [], 0, 0.0
            devs_total = 0
            for seed in range(args.seeds):
                tau_s, rep_s, devs = play(n, rounds, seed, args.noise, swiss=True, restarts=args.restarts)
                tau_r, rep_r, _ = play(n, rounds, seed, args.noise, swiss=False, restarts=args.restarts)
                taus_s.append(tau_s)
                taus_r.append(tau_r)
                reps_s.append(rep_s)
                reps_r.append(rep_r)
                within += sum(1 for d in devs if abs(d) <= 1 + 1e-9)
                devs_total += len(devs)
                worst = max(worst, max(abs(d) for d in devs))
            bound = lower_bound(n, rounds, table_sizes(n))
            ms, ls, hs = mean_ci(taus_s)
            mr, lr, hr = mean_ci(taus_r)
            md, ld, hd = mean_ci([a - b for a, b in zip(taus_s, taus_r, strict=True)])
            print(
                f"{n:>3} {rounds:>2} | {statistics.fmean(reps_s):>13.2f} {bound:>5} {statistics.fmean(reps_r):>7.2f} |"
                f" {within / devs_total:>15.1%} {worst:>7.2f} |"
                f" {ms:>6.3f} [{ls:.3f}, {hs:.3f}] {mr:>6.3f} [{lr:.3f}, {hr:.3f}] {md:>+7.3f} [{ld:+.3f}, {hd:+.3f}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
