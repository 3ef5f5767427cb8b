"""Does the Swiss of ``tournament`` find the strongest? Simulated tournaments against random tables.

    python benchmarks/bench_tournament.py calibrate [--matches N] [--games G] [--seed S]
    python benchmarks/bench_tournament.py synthetic [--sizes 12,16,24,40] [--rounds 3,4,5,6] [--seeds N]
                                          [--skill K] [--ranking placing,...] [--first random|rating]
                                          [--grouping group|none|mix] [--finals 3,4,5] [--seed S]
    python benchmarks/bench_tournament.py bots [--sizes 12,16] [--rounds 4] [--seeds N] [--games G] ...
    python benchmarks/bench_tournament.py pairing [--sizes 8,12,16,24,40] [--rounds 3,4,5,6] [--seeds N]

Every tournament has N players of known strength and R rounds. The same
field is played twice, each time with the same rules of ranking:

  * Swiss: round 1 at random (``--first random``) or mixed by a rating
    (``--first rating``: the strength seen through a normal error of
    ``--rating-error``, as a club's ratings know it), later rounds by
    ``club.swiss.pair_round`` on the standings (``--grouping``), starters by share;
  * random tables: every round drawn at random with the same table sizes.

After the R rounds, a final table (``--finals``: each size in turn) seats the
Swiss's top 3, 4 or 5 and plays one more match; the result is then ranked by
``club.swiss.final_standings`` under each rule: the final ``decides`` (its
result, then the Swiss standing) or ``adds`` its placing points to the Swiss ones.

Modes:

  calibrate  bot matches at tables of four drawn from the bots' mix: each bot's
             points above its table (an additive model: table + bot + luck), the
             luck of one match (the residual's spread) and the skill a synthetic
             field needs to match them (``--skill``: the spread of the strengths
             over the spread of the luck);
  synthetic  the fast model: strengths drawn N(0, 1); a player's match total is
             100 + 10 (skill x strength + luck), luck N(0, 1) drawn once per player
             and round, shared by the two pairings (common random numbers);
  bots       the real bots play the real games: ``--top`` (default one ``expert``,
             the strongest entrant, and three ``strong``), the rest ``greedy`` and
             ``random`` half and half; slow with an expert (about a second a game
             of its seat), fast with ``--top strong,greedy,greedy,greedy``;
  pairing    the pairing's own promises: repeated meetings against a lower bound
             and random tables, starts within one of the share, Kendall's tau
             (the first measurement of docs/design/tournament-pairing.md).

Printed per player count, round count and ranking rule, over the seeds: how
often the strongest finishes first (top-1), how often the final top 3 and top
4 are the true top 3 and 4 (players of equal strength at the cut count as
either), Kendall's tau-b between the final places and the strengths, each
with a 95% interval (Wilson for a share, normal for a mean), for Swiss and
random tables, and the Swiss-minus-random paired difference with its 95%
interval; then the final tables' top-1 and its gain over the Swiss alone.

Nothing is timed: every figure is a comparison inside the same run.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.club.split import meetings_of, pair_key, table_sizes
from coloretto_log.club.swiss import (
    FINAL_RULES,
    RANKINGS,
    Standing,
    TableResult,
    final_seats,
    final_standings,
    pair_round,
    parse_points,
    standings,
)
from coloretto_log.core.confidence import wilson

POINTS = parse_points(None)
#: The bots from strongest to weakest: their hidden strength is this order's reverse index.
BOT_ORDER = ("expert", "strong", "greedy", "random")
#: The luck of one match against the bots' skill, as ``calibrate --matches 400 --games 1`` measured it
#: (docs/design/tournament-pairing.md): the default of ``synthetic --skill``.
CALIBRATED_SKILL = 1.31


# --------------------------------------------------------------------------- statistics


def kendall_tau_b(xs: Sequence[float], ys: Sequence[float]) -> float:
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


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a 95% normal interval over the seeds."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, m, m
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return m, m - half, m + half


def share_text(hits: Sequence[float]) -> str:
    """A share with its Wilson 95% interval: ``0.41 [0.36,0.46]``."""
    k, n = int(sum(hits)), len(hits)
    lo, hi = wilson(k, n)
    return f"{k / n:.2f} [{lo:.2f},{hi:.2f}]"


def diff_text(a: Sequence[float], b: Sequence[float]) -> str:
    """The paired difference of two lists over the same seeds, with its 95% interval."""
    m, lo, hi = mean_ci([x - y for x, y in zip(a, b, strict=True)])
    return f"{m:+.3f} [{lo:+.3f},{hi:+.3f}]"


def top_hit(order: Sequence[str], strength: Mapping[str, float], k: int) -> bool:
    """Are the first ``k`` of ``order`` the ``k`` strongest? Equal strengths at the cut count as either."""
    cut = sorted(strength.values(), reverse=True)[k - 1]
    top = set(order[:k])
    return all(strength[p] >= cut for p in top) and all(p in top for p in strength if strength[p] > cut)


# --------------------------------------------------------------------------- fields


@dataclass
class Field:
    """The players of one tournament: hidden strengths, and how a table plays its match."""

    strength: dict[str, float]
    rating: dict[str, float]  # what a club's ratings would say of them before round 1
    play: Callable[[tuple[str, ...], int, int, str], dict[str, int]]  # table, round, table number, arm -> totals


def synthetic_field(n: int, seed: int, *, skill: float, rating_error: float, rounds: int) -> Field:
    rng = random.Random(f"field:{seed}")
    players = [f"p{i:02d}" for i in range(n)]
    strength = {p: rng.gauss(0, 1) for p in players}
    rating = {p: strength[p] + rng.gauss(0, rating_error) for p in players}
    # the luck of each player in each round (and the final, round R + 1), the same whatever the pairing
    luck = {(p, r): rng.gauss(0, 1) for r in range(1, rounds + 2) for p in players}

    def play(table: tuple[str, ...], r: int, t: int, arm: str) -> dict[str, int]:
        return {p: round(100 + 10 * (skill * strength[p] + luck[p, r])) for p in table}

    return Field(strength, rating, play)


DEFAULT_TOP = ("expert", "strong", "strong", "strong")


def bot_mix(n: int, top: Sequence[str] = DEFAULT_TOP) -> list[str]:
    """The ``top`` bots (by default one expert and three strong), the rest greedy and random half and half
    (greedy the odd one)."""
    rest = n - len(top)
    return [*top] + ["greedy"] * (rest - rest // 2) + ["random"] * (rest // 2)


def bot_totals(bots: Sequence[str], seed: int, games: int) -> list[int]:
    """One seeded match of ``bots`` (seat order): each seat's match total."""
    from coloretto_log.bots.simulate import make_plan, play_match

    plan = make_plan(players=len(bots), bots=list(bots), games=games, seed=seed)
    played = play_match(plan, 0)
    return [sum(col) for col in zip(*played.scores, strict=True)]


def bots_field(n: int, seed: int, *, games: int, rating_error: float, top: Sequence[str] = DEFAULT_TOP) -> Field:
    rng = random.Random(f"bots:{seed}")
    mix = bot_mix(n, top)
    rng.shuffle(mix)
    players = [f"p{i:02d}" for i in range(n)]
    bot = dict(zip(players, mix, strict=True))
    strength = {p: float(len(BOT_ORDER) - BOT_ORDER.index(bot[p])) for p in players}
    rating = {p: strength[p] + rng.gauss(0, rating_error) for p in players}

    def play(table: tuple[str, ...], r: int, t: int, arm: str) -> dict[str, int]:
        match = random.Random(f"{seed}:{arm}:{r}:{t}").getrandbits(63)
        return dict(zip(table, bot_totals([bot[p] for p in table], match, games), strict=True))

    return Field(strength, rating, play)


# --------------------------------------------------------------------------- one tournament


@dataclass(frozen=True)
class Rules:
    """The rules a run compares: how the standings rank, how round 1 and later rounds are paired."""

    ranking: str = "placing"
    first: str = "random"
    grouping: str = "group"
    restarts: int = 12


def random_tables(players: Sequence[str], rng: random.Random) -> list[tuple[str, ...]]:
    order = list(players)
    rng.shuffle(order)
    tables, i = [], 0
    for size in table_sizes(len(order)):
        tables.append(tuple(order[i : i + size]))
        i += size
    return tables


def play_rounds(field: Field, rounds: int, seed: int, rules: Rules, *, swiss: bool) -> tuple[list[TableResult], list[list[tuple[str, ...]]], dict[str, float], dict[str, float]]:
    """The R rounds of one arm: the results, every round's tables, each player's starts and share of starts."""
    players = list(field.strength)
    draw = random.Random(f"draw:{seed}:{swiss}")
    history: list[list[tuple[str, ...]]] = []
    results: list[TableResult] = []
    starts: Counter[str] = Counter()
    shares: Counter[str] = Counter()
    arm = "swiss" if swiss else "random"
    for r in range(1, rounds + 1):
        if not swiss:
            tables = random_tables(players, draw)
        else:
            met = meetings_of([t for tables_ in history for t in tables_])
            if r == 1 and rules.first == "rating":
                order, grouping = sorted(players, key=lambda p: -field.rating[p]), "mix"
            elif r == 1:
                order, grouping = random.Random(f"order:{seed}").sample(players, len(players)), "none"
            else:
                order, grouping = [s.player for s in standings(players, results, POINTS, ranking=rules.ranking)], rules.grouping
            tables = pair_round(order, met, starts, shares, draw, grouping=grouping, restarts=rules.restarts)
        for table in tables:
            starts[table[0]] += 1
            for p in table:
                shares[p] += 1 / len(table)
        history.append(list(tables))
        results.extend(TableResult(r, t, field.play(table, r, t, arm)) for t, table in enumerate(tables, 1))
    return results, history, dict(starts), dict(shares)


@dataclass
class Outcome:
    """What one arm of one tournament measured."""

    top1: float
    top3: float
    top4: float
    tau: float
    final_top1: dict[tuple[int, str], float]  # (final size, rule) -> the strongest won after the final


def measure(field: Field, order: Sequence[Standing]) -> tuple[float, float, float, float]:
    names = [s.player for s in order]
    place = {s.player: s.place for s in order}
    players = list(field.strength)
    tau = kendall_tau_b([-place[p] for p in players], [field.strength[p] for p in players])
    return (float(top_hit(names, field.strength, 1)), float(top_hit(names, field.strength, 3)),
            float(top_hit(names, field.strength, 4)), tau)  # fmt: skip


def tournament(field: Field, rounds: int, seed: int, rules: Rules, *, swiss: bool, finals: Sequence[int]) -> Outcome:
    results, _, _, _ = play_rounds(field, rounds, seed, rules, swiss=swiss)
    order = standings(list(field.strength), results, POINTS, ranking=rules.ranking)
    top1, top3, top4, tau = measure(field, order)
    final_top1 = {}
    for size in finals if swiss else ():
        seats = final_seats(order, size)
        totals = field.play(seats, rounds + 1, 100 + size, "final")
        for rule in FINAL_RULES:
            after = final_standings(order, totals, rule=rule, points=POINTS)
            final_top1[size, rule] = float(top_hit([s.player for s in after], field.strength, 1))
    return Outcome(top1, top3, top4, tau, final_top1)


# --------------------------------------------------------------------------- modes


def compare(args: argparse.Namespace, make_field: Callable[[int, int, int], Field]) -> None:
    finals = [int(x) for x in args.finals.split(",") if x]
    head = (f"{'N':>3} {'R':>2} {'ranking':<9} | {'top-1 swiss':>17} {'random':>17} {'swiss-random':>22} |"
            f" {'top-3 swiss':>17} {'random':>17} {'swiss-random':>22} | {'top-4 swiss':>17} {'random':>17} |"
            f" {'tau swiss':>21} {'random':>21} {'swiss-random':>22}")  # fmt: skip
    head += "".join(f" | {f'final {k} {rule}: top-1':>17} {'gain':>22}" for k in finals for rule in FINAL_RULES)
    print(head, flush=True)
    for n in [int(x) for x in args.sizes.split(",")]:
        for rounds in [int(x) for x in args.rounds.split(",")]:
            for ranking in args.ranking.split(","):
                rules = Rules(ranking=ranking, first=args.first, grouping=args.grouping, restarts=args.restarts)
                s_out, r_out = [], []
                for i in range(args.seeds):
                    seed = args.seed + i
                    field = make_field(n, seed, rounds)
                    s_out.append(tournament(field, rounds, seed, rules, swiss=True, finals=finals))
                    r_out.append(tournament(field, rounds, seed, rules, swiss=False, finals=()))
                cols = []
                for metric in ("top1", "top3"):
                    a, b = [getattr(o, metric) for o in s_out], [getattr(o, metric) for o in r_out]
                    cols.append(f"{share_text(a):>17} {share_text(b):>17} {diff_text(a, b):>22}")
                a4, b4 = [o.top4 for o in s_out], [o.top4 for o in r_out]
                cols.append(f"{share_text(a4):>17} {share_text(b4):>17}")
                ta, tb = [o.tau for o in s_out], [o.tau for o in r_out]
                (ma, la, ha), (mb, lb, hb) = mean_ci(ta), mean_ci(tb)
                cols.append(f"{ma:.3f} [{la:.3f},{ha:.3f}] {mb:.3f} [{lb:.3f},{hb:.3f}] {diff_text(ta, tb):>22}")
                line = f"{n:>3} {rounds:>2} {ranking:<9} | " + " | ".join(cols)
                for k, rule in [(k, rule) for k in finals for rule in FINAL_RULES]:
                    fk = [o.final_top1[k, rule] for o in s_out]
                    line += f" | {share_text(fk):>17} {diff_text(fk, [o.top1 for o in s_out]):>22}"
                print(line, flush=True)


def calibrate(args: argparse.Namespace) -> None:
    """Bot matches at tables of four drawn from the mix of 16 players; the additive model's fit."""
    rng = random.Random(f"calibrate:{args.seed}")
    mix = bot_mix(16)
    rows: list[tuple[int, str, int]] = []  # (table, bot, total)
    for m in range(args.matches):
        bots = rng.sample(mix, 4)
        for bot, total in zip(bots, bot_totals(bots, rng.getrandbits(63), args.games), strict=True):
            rows.append((m, bot, total))
    effect = dict.fromkeys(BOT_ORDER, 0.0)
    table = dict.fromkeys(range(args.matches), 0.0)
    for _ in range(50):  # alternate least squares: table level, then each bot's effect (centred on the mix)
        sums: dict[int, list[float]] = {}
        for t, b, x in rows:
            sums.setdefault(t, []).append(x - effect[b])
        table = {t: statistics.fmean(v) for t, v in sums.items()}
        by_bot: dict[str, list[float]] = {}
        for t, b, x in rows:
            by_bot.setdefault(b, []).append(x - table[t])
        effect = {b: statistics.fmean(v) for b, v in by_bot.items()}
        centre = statistics.fmean(effect[b] for b in mix)
        effect = {b: e - centre for b, e in effect.items()}
    residuals = [x - table[t] - effect[b] for t, b, x in rows]
    dof = len(rows) - len(table) - len(effect) + 1
    luck = math.sqrt(sum(e * e for e in residuals) / dof)
    spread = statistics.pstdev([effect[b] for b in mix])
    wins = Counter(b for t in range(args.matches) for b in [max((r for r in rows if r[0] == t), key=lambda r: r[2])[1]])
    seats = Counter(b for _, b, _ in rows)
    print(f"{args.matches} matches of {args.games} game(s) at tables of four drawn from the mix {Counter(mix)}")
    for b in BOT_ORDER:
        print(f"  {b:<7} {effect[b]:+6.2f} points above the table ({seats[b]} seats, won {wins[b] / seats[b]:.0%} of them)")
    print(f"luck of one match (residual sd): {luck:.2f} points; spread of the mix's skill (sd of effects): {spread:.2f}")
    print(f"skill / luck = {spread / luck:.2f}  (synthetic --skill; a strength one sd above average is worth that many sd of luck)")


# --------------------------------------------------------------------------- the pairing's promises


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


def pairing(args: argparse.Namespace) -> None:
    rules = Rules(restarts=args.restarts)
    print(f"seeds {args.seeds}, skill {args.skill}, restarts {args.restarts}")
    print(f"{'N':>3} {'R':>2} | {'repeats swiss':>13} {'bound':>5} {'random':>7} | {'starts within 1':>15} {'max |d|':>7} |"
          f" {'tau swiss [95%]':>22} {'tau random [95%]':>22} {'swiss - random [95%]':>24}")  # fmt: skip
    for n in [int(x) for x in args.sizes.split(",")]:
        for rounds in [int(x) for x in args.rounds.split(",")]:
            taus: dict[bool, list[float]] = {True: [], False: []}
            reps: dict[bool, list[int]] = {True: [], False: []}
            devs: list[float] = []
            for i in range(args.seeds):
                field = synthetic_field(n, args.seed + i, skill=args.skill, rating_error=args.rating_error, rounds=rounds)
                for swiss in (True, False):
                    results, history, starts, shares = play_rounds(field, rounds, args.seed + i, rules, swiss=swiss)
                    order = standings(list(field.strength), results, POINTS)
                    taus[swiss].append(measure(field, order)[3])
                    reps[swiss].append(repeats(history))
                    if swiss:
                        devs.extend(starts.get(p, 0) - shares[p] for p in field.strength)
            bound = lower_bound(n, rounds, table_sizes(n))
            (ms, ls, hs), (mr, lr, hr) = mean_ci(taus[True]), mean_ci(taus[False])
            within = sum(1 for d in devs if abs(d) <= 1 + 1e-9) / len(devs)
            print(f"{n:>3} {rounds:>2} | {statistics.fmean(reps[True]):>13.2f} {bound:>5} {statistics.fmean(reps[False]):>7.2f} |"
                  f" {within:>15.1%} {max(abs(d) for d in devs):>7.2f} |"
                  f" {ms:>6.3f} [{ls:.3f}, {hs:.3f}] {mr:>6.3f} [{lr:.3f}, {hr:.3f}] {diff_text(taus[True], taus[False]):>24}",
                  flush=True)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("mode", choices=("calibrate", "synthetic", "bots", "pairing"))
    ap.add_argument("--sizes", default="12,16,24,40")
    ap.add_argument("--rounds", default="3,4,5,6")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0, help="the first seed (seeds are SEED, SEED + 1, ...)")
    ap.add_argument("--skill", type=float, default=CALIBRATED_SKILL)
    ap.add_argument("--rating-error", type=float, default=0.5)
    ap.add_argument("--ranking", default="placing", help=f"rankings to compare, of {','.join(RANKINGS)}")
    ap.add_argument("--first", choices=("random", "rating"), default="random")
    ap.add_argument("--grouping", choices=("group", "none", "mix"), default="group")
    ap.add_argument("--finals", default="3,4,5", help="final table sizes to measure ('' for none)")
    ap.add_argument("--restarts", type=int, default=12)
    ap.add_argument("--matches", type=int, default=400, help="calibrate: bot matches to play")
    ap.add_argument("--games", type=int, default=1, help="games a match (calibrate, bots)")
    ap.add_argument("--top", default=",".join(DEFAULT_TOP), help="bots: the strongest entrants, the rest greedy and random")
    args = ap.parse_args()
    if args.mode == "calibrate":
        calibrate(args)
    elif args.mode == "pairing":
        pairing(args)
    elif args.mode == "synthetic":
        print(f"synthetic: seeds {args.seed}..{args.seed + args.seeds - 1}, skill {args.skill}, first round {args.first},"
              f" grouping {args.grouping}, rating error {args.rating_error}", flush=True)  # fmt: skip
        compare(args, lambda n, seed, rounds: synthetic_field(n, seed, skill=args.skill, rating_error=args.rating_error, rounds=rounds))
    else:
        top = tuple(args.top.split(","))
        print(f"bots: seeds {args.seed}..{args.seed + args.seeds - 1}, {args.games} game(s) a match, mix: {', '.join(top)},"
              f" the rest greedy and random; first round {args.first}, grouping {args.grouping}", flush=True)  # fmt: skip
        compare(args, lambda n, seed, rounds: bots_field(n, seed, games=args.games, rating_error=args.rating_error, top=top))


if __name__ == "__main__":
    main()
