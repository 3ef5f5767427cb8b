"""Benchmark of ``ratings`` on a simulated club: speed on one core, incremental updates, how well it predicts.

    python benchmarks/bench_ratings.py                      # 20,000 matches of 5 games: 100,000 games (a few minutes)
    python benchmarks/bench_ratings.py --matches 2000       # 10,000 games
    python benchmarks/bench_ratings.py --keep club/         # keep the logs and the database (and reuse them)

The club: ``--players`` members (40), each with a skill p from 0 to 1 (the
chance of playing a match as the greedy bot rather than the random one),
meeting at tables of 2 to 5 drawn at random, one match after another over two
years. Steps, each figure printed as it comes:

1. simulate the matches (``tests/builders/club.py``, ``--jobs`` processes) and ingest
   them (``coloretto-log ingest``);
2. in a child process pinned to one core, best of ``--repeat``:
   the baseline, reading the rows the ratings read from DuckDB (the same
   query, fetched in chunks); the ratings of every game in memory
   (``contests`` + ``Rater``); their ratio; and storing them
   (``rating_store.refresh`` on a copy: a full recompute, written);
3. ``coloretto-log ratings`` end to end (process start included), with the
   stored ratings and computed in memory (``--model plackett-luce --per game``
   with a filter that keeps every game);
4. an incremental update: 100 more matches after the last one, ingested, then
   ``refresh`` (rates only those) against a recompute;
5. the backtest figures and how well the ratings order the members by their
   hidden skill (Spearman's rank correlation).

Target (issue 14): ratings for 100,000 stored games within 10 s on one core.

``--calibration`` measures instead how well calibrated the chances are, club by
club and seed by seed (issue 21: within 5 points in every tenth of the chance
that holds at least 50 predictions)::

    python benchmarks/bench_ratings.py --calibration                       # 3 clubs x 5 seeds (tens of minutes)
    python benchmarks/bench_ratings.py --calibration --clubs gmr,ten --seeds 1,2,3

Each club is simulated (``tests/builders/club.py``), ingested, and backtested
(``rating_report.backtest``: every game predicted from the earlier ones). For
each seed it prints the expected calibration error, the worst tenth of at least
50 predictions (where, how many, its own noise ± se, and its gap in standard
errors), and the **noise floor**: the same chances with the outcomes drawn from
them (a perfectly calibrated predictor of those very games), 200 times; its
median worst tenth, how often it misses the 5-point target, and how often its
worst tenth is at least the observed one (beside the same chance by the formula
``--backtest`` uses, ``Calibration.by_chance``, and its verdict). Then the seeds
pooled. ``--variants`` instead measures the alternatives tried (docs/ratings.md)
on the same games, each predicted from the earlier ones: mean log-loss and top-1,
the worst tenth of each seed and of the seeds pooled::

    python benchmarks/bench_ratings.py --calibration --variants --clubs gmr,ten --seeds 1,2 The clubs (3 to 5 at a table, 360 matches of 4 games; ``ten``: 600
one-game matches of 2 to 5):

* ``issue``: the club of issue 21, Aiko, Boris, Chloe the strong bot, Dae,
  Emil, Fumi the greedy one, Gus, Hana, Ivo the random one;
* ``gmr``: greedy; greedy or random by a coin toss each match; random;
* ``ten``: five greedy and five random players.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHUNK = 500  # matches a simulation task writes


def roster(players: int) -> dict[str, float]:
    """``players`` members named M01, M02, ... with skills spread evenly from 0 to 1."""
    return {f"M{i + 1:02d}": round(i / max(players - 1, 1), 4) for i in range(players)}


def _write_chunk(args: tuple[str, int, int, int, int, int]) -> str:
    folder, first, count, total, games, players = args
    from coloretto_log.log.writer import dumps_line
    from tests.builders.club import club_matches

    path = Path(folder) / f"club-{first // CHUNK:05d}.jsonl"
    matches = club_matches(count, roster=roster(players), games=games, first=first, days=730, seed=11, span=total)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(dumps_line(m) + "\n" for m in matches)
    return str(path)


def simulate(folder: Path, matches: int, games: int, players: int, jobs: int) -> list[str]:
    tasks = [(str(folder), s, min(CHUNK, matches - s), matches, games, players) for s in range(0, matches, CHUNK)]
    with multiprocessing.Pool(jobs) as pool:
        return list(pool.imap(_write_chunk, tasks))


def without_ratings(db: Path, out: Path) -> Path:
    """A copy of ``db`` without stored ratings (as a database from before them, or a stale one)."""
    shutil.copy(db, out)
    with duckdb.connect(str(out)) as con:
        for t in ("rating_meta", "rating_matches", "rating_players", "rating_history"):
            con.execute(f"DROP TABLE IF EXISTS {t}")
    return out


def cli(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "coloretto_log", *args], capture_output=True, text=True, check=False)
    return time.perf_counter() - start, done


# --------------------------------------------------------------------------- the timed child


CHILD = r"""
import json, os, shutil, sys, time
sys.path.insert(0, {root!r})
os.sched_setaffinity(0, {{min(os.sched_getaffinity(0))}})  # one core
import duckdb
from coloretto_log.db.ratings.model import Options, Rater, contests
from coloretto_log.db.ratings.stored import refresh
from coloretto_log.db.store import MatchStore
db, repeat = {db!r}, {repeat}
con = duckdb.connect(db, read_only=True)
con.execute("SET threads = 1")
con.execute("SET enable_progress_bar = false")

def read_rows():
    n = 0
    for c in contests(con, Options()):
        n += 1
    return n

def rate_all():
    r = Rater()
    for c in contests(con, Options()):
        r.rate(c)
    return r.contests

out = {{}}
for name, fn in (("read", read_rows), ("rate", rate_all)):
    best = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        n = fn()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        best = (wall, cpu) if best is None or wall < best[0] else best
    out[name] = {{"wall": best[0], "cpu": best[1], "games": n}}
con.close()
copy = db + ".bench-copy"
shutil.copy(db, copy)
with MatchStore.open(copy) as store:
    store.execute("SET threads = 1")
    store.execute("SET enable_progress_bar = false")
    for t in ("rating_meta", "rating_matches", "rating_players", "rating_history"):
        store.execute("DROP TABLE IF EXISTS " + t)
    t0, c0 = time.perf_counter(), time.process_time()
    done = refresh(store)
    out["store"] = {{"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "action": done.action, "games": done.games}}
os.unlink(copy)
print(json.dumps(out))
"""


def timed_child(db: Path, repeat: int) -> dict[str, Any]:
    code = CHILD.format(root=str(ROOT), db=str(db), repeat=repeat)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        out = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy)


# --------------------------------------------------------------------------- calibration

NINE = ("Aiko", "Boris", "Chloe", "Dae", "Emil", "Fumi", "Gus", "Hana", "Ivo")
CLUBS: dict[str, dict[str, Any]] = {
    "issue": {"roster": dict(zip(NINE, ["strong"] * 3 + ["greedy"] * 3 + ["random"] * 3)), "sizes": (3, 4, 5),
              "count": 360, "games": 4},
    "gmr": {"roster": dict(zip(NINE, ["greedy"] * 3 + [0.5] * 3 + ["random"] * 3)), "sizes": (3, 4, 5),
            "count": 360, "games": 4},
    "ten": {"roster": {f"greedy-{i}": "greedy" for i in range(5)} | {f"random-{i}": "random" for i in range(5)},
            "sizes": (2, 3, 4, 5), "count": 600, "games": 1},
}
TARGET, AT_LEAST, DRAWS = 0.05, 50, 200


def _club_chances(task: tuple[str, int, str]) -> tuple[str, int, list[list[float]], list[list[int]], dict[str, Any]]:
    """Simulate, ingest and backtest one club and seed: each game's chances, its winners, and the backtest's JSON."""
    club, seed, folder = task
    from coloretto_log.db.ratings import report as rating_report
    from coloretto_log.db.ratings.model import Options, Rater, contests, win_chances
    from coloretto_log.db.store import MatchStore
    from coloretto_log.log.load import load
    from coloretto_log.log.writer import dumps_line
    from tests.builders.club import club_matches

    c = CLUBS[club]
    src, db = Path(folder) / f"{club}-{seed}.jsonl", Path(folder) / f"{club}-{seed}.duckdb"
    if not db.exists():
        matches = club_matches(c["count"], roster=c["roster"], seed=seed, games=c["games"], sizes=c["sizes"])
        src.write_text("".join(dumps_line(m) + "\n" for m in matches), encoding="utf-8")
        with MatchStore.open(db) as store:
            store.ingest(load([str(src)]))
    chances, winners = [], []
    with MatchStore.open(db, read_only=True) as store:
        back = rating_report.backtest(store, Options()).as_json()
        rater = Rater()
        for contest in contests(store.con, Options()):  # the backtest's own chances, game by game
            chances.append(win_chances(rater.model, rater.ratings_before(contest)))
            winners.append([i for i, r in enumerate(contest.ranks) if r == 1])
            rater.rate(contest)
    assert len(chances) == back["games"]
    return club, seed, chances, winners, back


def _worst(chances: list[list[float]], won: list[list[float]]) -> tuple[float, int, int]:
    """The largest |won - chance| of a tenth of at least AT_LEAST predictions: (gap, tenth, predictions)."""
    n, p, w = [0] * 10, [0.0] * 10, [0.0] * 10
    for probs, outcome in zip(chances, won):
        for q, o in zip(probs, outcome):
            b = min(int(q * 10), 9)
            n[b] += 1
            p[b] += q
            w[b] += o
    best = (0.0, -1, 0)
    for b in range(10):
        if n[b] >= AT_LEAST and abs(w[b] - p[b]) / n[b] > best[0]:
            best = (abs(w[b] - p[b]) / n[b], b, n[b])
    return best


def noise_floor(chances: list[list[float]], observed: float, draws: int = DRAWS, seed: int = 0) -> tuple[float, float, float]:
    """A perfectly calibrated predictor of these games: winners drawn from ``chances`` themselves, ``draws``
    times. Its median worst tenth, the share of draws whose worst tenth misses the target, and the share
    whose worst tenth is at least ``observed`` (the p-value of the observed miss: small means beyond noise)."""
    import random

    rng = random.Random(seed)
    worst = []
    for _ in range(draws):
        won = []
        for probs in chances:
            k = rng.choices(range(len(probs)), weights=probs)[0]
            won.append([1.0 if i == k else 0.0 for i in range(len(probs))])
        worst.append(_worst(chances, won)[0])
    worst.sort()
    return (worst[len(worst) // 2], sum(w > TARGET for w in worst) / len(worst),
            sum(w >= observed for w in worst) / len(worst))


# --------------------------------------------------------------------------- alternatives, on the same games


class _Shipped:
    """The chances ``ratings`` gives: openskill's Plackett–Luce, :func:`win_chances` (``tau``, ``beta``: times
    openskill's defaults)."""

    def __init__(self, tau: float = 1.0, beta: float = 1.0) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce(tau=25 / 300 * tau, beta=25 / 6 * beta)
        self.ratings: dict[str, Any] = {}

    def rating(self, player: str) -> Any:
        return self.ratings.setdefault(player, self.model.rating())

    def predict(self, players: tuple[str, ...], match_id: str) -> list[float]:
        from coloretto_log.db.ratings.model import win_chances

        return win_chances(self.model, [self.rating(p) for p in players])

    def update(self, players: tuple[str, ...], ranks: tuple[int, ...], match_id: str) -> None:
        after = self.model.rate([[self.rating(p)] for p in players], ranks=list(ranks))
        for p, team in zip(players, after):
            self.ratings[p] = team[0]


class _Form(_Shipped):
    """Each player's form of the evening: a second member of their team, N(0, sf²), shared by the match's
    games and learned from them by the same update (a random effect per player and match). ``em``: each
    player's sf learned from their past matches' forms (an EM step per match, from sf with weight 10)."""

    def __init__(self, sf: float, em: bool = False) -> None:
        super().__init__()
        self.sf, self.em = sf, em
        self.form: dict[str, Any] = {}
        self.match: str | None = None
        self.seen: dict[str, tuple[float, int]] = {}

    def spread(self, player: str) -> float:
        total, matches = self.seen.get(player, (0.0, 0))
        return float(((10 * self.sf ** 2 + total) / (10 + matches)) ** 0.5) if self.em else self.sf

    def of(self, player: str, match_id: str) -> Any:
        if match_id != self.match:
            for p, f in self.form.items():
                total, matches = self.seen.get(p, (0.0, 0))
                self.seen[p] = (total + f.mu ** 2 + f.sigma ** 2, matches + 1)
            self.form, self.match = {}, match_id
        return self.form.setdefault(player, self.model.rating(mu=0.0, sigma=self.spread(player)))

    def predict(self, players: tuple[str, ...], match_id: str) -> list[float]:
        from types import SimpleNamespace

        from coloretto_log.db.ratings.model import win_chances

        both = [(self.rating(p), self.of(p, match_id)) for p in players]
        return win_chances(self.model, [SimpleNamespace(mu=r.mu + f.mu, sigma=(r.sigma ** 2 + f.sigma ** 2) ** 0.5)
                                        for r, f in both])

    def update(self, players: tuple[str, ...], ranks: tuple[int, ...], match_id: str) -> None:
        after = self.model.rate([[self.rating(p), self.of(p, match_id)] for p in players], ranks=list(ranks))
        for p, team in zip(players, after):
            self.ratings[p], self.form[p] = team


class _Tempered(_Shipped):
    """An online temperature: chances proportional to ``exp(a mu / c)``, ``a`` moved by one Newton step of the
    log-likelihood after each game (from a = 1 with the weight of 20 games' curvature)."""

    def __init__(self) -> None:
        super().__init__()
        self.a, self.curvature = 1.0, 20.0
        self.last: Any = None

    def predict(self, players: tuple[str, ...], match_id: str) -> list[float]:
        import math

        rs = [self.rating(p) for p in players]
        c = math.sqrt(sum(r.sigma ** 2 + self.model.beta ** 2 for r in rs))
        x = [r.mu / c for r in rs]
        w = [math.exp(self.a * (v - max(x))) for v in x]
        probs = [v / sum(w) for v in w]
        self.last = (probs, x)
        return probs

    def update(self, players: tuple[str, ...], ranks: tuple[int, ...], match_id: str) -> None:
        probs, x = self.last
        winners = [i for i, r in enumerate(ranks) if r == 1]
        mean = sum(p * v for p, v in zip(probs, x))
        self.curvature += sum(p * (v - mean) ** 2 for p, v in zip(probs, x))
        self.a += (sum(x[i] for i in winners) / len(winners) - mean) / self.curvature
        super().update(players, ranks, match_id)


class _EmpiricalBayes(_Shipped):
    """The club's skills as the prior (empirical Bayes): a distribution on a grid of 40 skills fitted to every
    player's (mu, sigma) so far by maximum likelihood (EM, once a match), each player's skill its posterior
    mean under it, and c from the posterior variances."""

    def __init__(self) -> None:
        super().__init__()
        self.match: str | None = None
        self.prior: tuple[list[float], list[float]] = ([], [])

    def _fit(self) -> tuple[list[float], list[float]]:
        import math

        rs = list(self.ratings.values())
        low = min(r.mu for r in rs) - 2 * min(r.sigma for r in rs) - 1
        high = max(r.mu for r in rs) + 2 * min(r.sigma for r in rs) + 1
        grid = [low + (high - low) * k / 39 for k in range(40)]
        like = [[math.exp(-0.5 * ((r.mu - g) / r.sigma) ** 2) / r.sigma for g in grid] for r in rs]
        w = [1 / 40] * 40
        for _ in range(50):
            acc = [0.0] * 40
            for row in like:
                post = [a * b for a, b in zip(row, w)]
                total = sum(post)
                acc = [a + b / total for a, b in zip(acc, post)]
            w = [a / len(rs) for a in acc]
        return grid, w

    def predict(self, players: tuple[str, ...], match_id: str) -> list[float]:
        import math
        from types import SimpleNamespace

        from coloretto_log.db.ratings.model import win_chances

        for p in players:
            self.rating(p)
        if match_id != self.match:
            self.prior, self.match = self._fit(), match_id
        grid, w = self.prior
        skills = []
        for p in players:
            r = self.ratings[p]
            post = [wk * math.exp(-0.5 * ((r.mu - g) / r.sigma) ** 2) for g, wk in zip(grid, w)]
            total = sum(post)
            mean = sum(q * g for q, g in zip(post, grid)) / total
            var = sum(q * (g - mean) ** 2 for q, g in zip(post, grid)) / total
            skills.append(SimpleNamespace(mu=mean, sigma=math.sqrt(var)))
        return win_chances(self.model, skills)


class _FormByMoments(_Form):
    """The form of the evening with each player's spread v from their past matches by moments: the square
    of the match's residual sum (won less the ratings' chance, game by game) less its binomial variance,
    over the sum of the cross products of the chance's slopes p (1 - p) / c (from v = 1 with weight 0.5)."""

    def __init__(self) -> None:
        super().__init__(1.0)
        self.moments: dict[str, tuple[float, float]] = {}
        self.current: dict[str, tuple[float, float, list[float]]] = {}
        self.plain: tuple[list[float], float] = ([], 1.0)

    def spread(self, player: str) -> float:
        excess, cross = self.moments.get(player, (0.0, 0.0))
        return max(((excess + 0.5) / (cross + 0.5)) ** 0.5, 1e-3) if excess + 0.5 > 0 else 1e-3

    def of(self, player: str, match_id: str) -> Any:
        if match_id != self.match:
            for p, (residual, variance, slopes) in self.current.items():
                excess, cross = self.moments.get(p, (0.0, 0.0))
                self.moments[p] = (excess + residual ** 2 - variance,
                                   cross + sum(slopes) ** 2 - sum(x * x for x in slopes))
            self.current = {}
        return super().of(player, match_id)

    def predict(self, players: tuple[str, ...], match_id: str) -> list[float]:
        from coloretto_log.db.ratings.model import win_chances

        probs = super().predict(players, match_id)
        rs = [self.rating(p) for p in players]
        self.plain = (win_chances(self.model, rs), sum(r.sigma ** 2 + self.model.beta ** 2 for r in rs) ** 0.5)
        return probs

    def update(self, players: tuple[str, ...], ranks: tuple[int, ...], match_id: str) -> None:
        chances, c = self.plain
        winners = [i for i, r in enumerate(ranks) if r == 1]
        for i, p in enumerate(players):
            residual, variance, slopes = self.current.get(p, (0.0, 0.0, []))
            q = chances[i]
            self.current[p] = (residual + (1 / len(winners) if i in winners else 0.0) - q, variance + q * (1 - q),
                               [*slopes, q * (1 - q) / c])
        super().update(players, ranks, match_id)


VARIANTS: dict[str, Any] = {
    "shipped (Plackett-Luce, openskill's defaults)": _Shipped,
    "tau x 2": lambda: _Shipped(tau=2.0),
    "beta x 1.5": lambda: _Shipped(beta=1.5),
    "form of the evening, sf 3": lambda: _Form(3.0),
    "form of the evening, sf per player (EM)": lambda: _Form(2.0, em=True),
    "form of the evening, sf per player (moments)": _FormByMoments,
    "online temperature": _Tempered,
    "empirical Bayes (the club's skills as prior)": _EmpiricalBayes,
}


def _variant_chances(task: tuple[str, int, str]) -> tuple[str, int, dict[str, tuple[list[list[float]], list[list[int]]]]]:
    """One club and seed (simulated as :func:`_club_chances` does): every variant's chances, game by game,
    each game predicted before it is rated."""
    club, seed, folder = task
    from coloretto_log.db.ratings.model import Options, contests
    from coloretto_log.db.store import MatchStore

    _club_chances(task)  # simulates and ingests when not kept
    with MatchStore.open(Path(folder) / f"{club}-{seed}.duckdb", read_only=True) as store:
        games = list(contests(store.con, Options()))
    out = {}
    for name, make in VARIANTS.items():
        predictor, chances, winners = make(), [], []
        for c in games:
            chances.append(predictor.predict(c.players, c.match_id))
            winners.append([i for i, r in enumerate(c.ranks) if r == 1])
            predictor.update(c.players, c.ranks, c.match_id)
        out[name] = (chances, winners)
    return club, seed, out


def variants(args: argparse.Namespace, clubs: list[str], seeds: list[int], folder: Path) -> None:
    import math

    print("alternatives on the same games (each game predicted from the earlier ones): mean log-loss and top-1 "
          "over the seeds, worst tenth of each seed (* missed 5 points), pooled worst tenth")
    tasks = [(c, s, str(folder)) for c in clubs for s in seeds]
    results: dict[tuple[str, str], list[tuple[float, float, float, list[list[float]], list[list[float]]]]] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for club, seed, out in pool.imap(_variant_chances, tasks):
            for name, (chances, winners) in out.items():
                won = [[(1 / len(w)) if i in w else 0.0 for i in range(len(p))] for p, w in zip(chances, winners)]
                loss = sum(-sum(math.log(max(p[i], 1e-300)) for i in w) / len(w) for p, w in zip(chances, winners))
                top = 0.0
                for p, w in zip(chances, winners):
                    fav = [i for i, q in enumerate(p) if q == max(p)]
                    top += sum(i in w for i in fav) / len(fav)
                results.setdefault((club, name), []).append(
                    (loss / len(chances), top / len(chances), _worst(chances, won)[0], chances, won))
    for club in clubs:
        for name in VARIANTS:
            rows = results[(club, name)]
            pooled = _worst([c for r in rows for c in r[3]], [w for r in rows for w in r[4]])
            seeds_text = " ".join(f"{100 * r[2]:.1f}{'*' if r[2] > TARGET else ''}" for r in rows)
            print(f"  {club:<5} {name:<46} log-loss {sum(r[0] for r in rows) / len(rows):.4f}  top-1 "
                  f"{100 * sum(r[1] for r in rows) / len(rows):.1f}%  worst tenth by seed {seeds_text}; "
                  f"pooled {100 * pooled[0]:.1f}", flush=True)


def calibration(args: argparse.Namespace) -> None:
    clubs = [c for c in args.clubs.split(",") if c]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    unknown = [c for c in clubs if c not in CLUBS]
    if unknown:
        sys.exit(f"unknown club {unknown[0]!r}: the clubs are {', '.join(CLUBS)}")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-calibration-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"calibration of the ratings' chances: worst tenth of at least {AT_LEAST} predictions, target "
          f"{100 * TARGET:.0f} points; noise floor from {DRAWS} draws of the outcomes from the chances themselves")
    try:
        if args.variants:
            variants(args, clubs, seeds, folder)
            return
        tasks = [(c, s, str(folder)) for c in clubs for s in seeds]
        pooled: dict[str, tuple[list[list[float]], list[list[float]]]] = {}
        with multiprocessing.Pool(args.jobs) as pool:
            for club, seed, chances, winners, back in pool.imap(_club_chances, tasks):
                won = [[(1 / len(w)) if i in w else 0.0 for i in range(len(p))] for p, w in zip(chances, winners)]
                gap, tenth, n = _worst(chances, won)
                bins = {round(10 * b["from"]): b for b in back["calibration"]["bins"]}
                where = bins.get(tenth)
                floor, miss, p_value = noise_floor(chances, gap)
                cal = back["calibration"]
                assert where is None or abs(abs(where["gap"]) - gap) < 1e-9
                detail = (f"{10 * tenth}–{10 * tenth + 10}%: {100 * where['predicted']:.1f}% given, "
                          f"{100 * where['won']:.1f}% won, {n} predictions, ± {100 * where['se']:.1f}, "
                          f"{abs(where['gap']) / where['se']:.1f} se" if where else "no tenth of 50")
                print(f"  {club:<5} seed {seed}: {back['games']:>5} games, ECE {100 * cal['expected_calibration_error']:.1f}"
                      f", worst tenth {100 * gap:4.1f} points ({'met' if gap <= TARGET else 'MISSED'}; {detail}); "
                      f"noise floor {100 * floor:.1f}, missed by chance alone in {100 * miss:.0f}% of draws; "
                      f"a worst tenth this large by chance in {100 * p_value:.1f}% of draws "
                      f"({100 * cal['worst_gap_by_chance']:.1f}% by --backtest's formula, which says: {cal['verdict']})",
                      flush=True)
                pc, pw = pooled.setdefault(club, ([], []))
                pc.extend(chances)
                pw.extend(won)
        for club, (pc, pw) in pooled.items():
            gap, tenth, n = _worst(pc, pw)
            print(f"  {club:<5} seeds pooled: {len(pc):>5} games, worst tenth {100 * gap:.1f} points "
                  f"({10 * tenth}–{10 * tenth + 10}%, {n} predictions; {'met' if gap <= TARGET else 'MISSED'})")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=5, help="games per match")
    ap.add_argument("--players", type=int, default=40, help="club members")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="a folder to keep (and reuse) the logs and the database in")
    ap.add_argument("--calibration", action="store_true", help="measure calibration by club and seed instead")
    ap.add_argument("--clubs", default="issue,gmr,ten", help="with --calibration: " + ", ".join(CLUBS))
    ap.add_argument("--seeds", default="1,2,3,4,5", help="with --calibration")
    ap.add_argument("--variants", action="store_true",
                    help="with --calibration: the alternatives tried, before/after on the same games")
    args = ap.parse_args()
    if args.calibration:
        calibration(args)
        return

    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-ratings-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "club.duckdb"
    try:
        print(f"club: {args.players} members, {args.matches:,} matches of {args.games} games ({args.matches * args.games:,} games)")
        logs = folder / "logs"
        if not db.exists():
            logs.mkdir(exist_ok=True)
            t = time.perf_counter()
            simulate(logs, args.matches, args.games, args.players, args.jobs)
            print(f"  simulated in {time.perf_counter() - t:.0f} s")
            t, done = cli("ingest", str(logs), "--db", str(db))
            print(f"  ingested in {t:.0f} s: {done.stdout.strip().splitlines()[-1] if done.stdout else done.stderr}")
        else:
            print(f"  reusing {db}")

        print("one core (child process pinned to one CPU, DuckDB threads = 1), best of", args.repeat)
        out = timed_child(db, args.repeat)
        read, rate, store = out["read"], out["rate"], out["store"]
        games = rate["games"]
        print(f"  baseline: read the {games:,} games' rows from DuckDB   {read['wall']:.2f} s wall, {read['cpu']:.2f} s CPU")
        print(f"  ratings of every game in memory (openskill)       {rate['wall']:.2f} s wall, {rate['cpu']:.2f} s CPU"
              f"  = {games / rate['wall']:,.0f} games/s; {rate['wall'] / read['wall']:.1f}x the baseline")
        print(f"  stored (refresh: recompute and write the tables)  {store['wall']:.2f} s wall, {store['cpu']:.2f} s CPU"
              f" ({store['action']}, {store['games']:,} games)")
        print(f"  target: {games:,} games within 10 s on one core: {'met' if rate['wall'] < 10 else 'NOT met'}"
              f" ({rate['wall'] * 100_000 / games:.1f} s per 100,000 games)")

        print("end to end (coloretto-log ratings, process start included)")
        plain = without_ratings(db, folder / "plain.duckdb")
        t, done = cli("ratings", "--db", str(plain), "--json")
        print(f"  without stored ratings (computed in memory): {t:.2f} s (source: {json.loads(done.stdout)['source']})")
        work = without_ratings(db, folder / "stored.duckdb")
        code = "import sys; from coloretto_log.db.store import MatchStore; from coloretto_log.db.ratings.stored import refresh\n" \
               f"s = MatchStore.open({str(work)!r}); print(refresh(s)); s.close()"
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=ROOT)
        t, done = cli("ratings", "--db", str(work), "--json")
        stored = json.loads(done.stdout)
        print(f"  with the stored ratings: {t:.2f} s (source: {stored['source']})")
        t, _ = cli("ratings", "--db", str(work), "--backtest", "--json")
        print(f"  --backtest: {t:.2f} s")

        print("incremental update: 100 more matches after the last one")
        extra = folder / "extra.jsonl"
        code = (
            f"import sys; sys.path.insert(0, {str(ROOT)!r}); import datetime as d\n"
            "from tests.builders.club import club_matches\nfrom coloretto_log.log.writer import dumps_line\n"
            f"from benchmarks.bench_ratings import roster\n"
            f"ms = club_matches(100, roster=roster({args.players}), games={args.games}, first={args.matches}, seed=11, "
            "start=d.date(2027, 1, 5), days=30)\n"
            f"open({str(extra)!r}, 'w').write(''.join(dumps_line(m) + chr(10) for m in ms))"
        )
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        cli("ingest", str(extra), "--db", str(work))
        code = (
            "import time; from coloretto_log.db.store import MatchStore; from coloretto_log.db.ratings.stored import refresh, freshness\n"
            f"s = MatchStore.open({str(work)!r}); f = freshness(s).state; t = time.perf_counter(); r = refresh(s); "
            "print(f, r.action, r.games, time.perf_counter() - t); s.close()"
        )
        state, action, n, secs = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT
        ).stdout.split()
        print(f"  freshness {state}: refresh {action} {int(n):,} games in {float(secs):.2f} s (a recompute: {store['wall']:.2f} s)")

        print("how well the ratings predict and order the club")
        t, done = cli("ratings", "--db", str(work), "--backtest", "--json")
        back = json.loads(done.stdout)
        for p in back["predictors"]:
            print(f"  {p['predictor']:<12} log-loss {p['log_loss']:.4f}  top-1 {100 * p['top1_accuracy']:.1f}%")
        print(f"  ratings beat both baselines: {back['ratings_beat_both']}")
        t, done = cli("ratings", "--db", str(work), "--json")
        table = json.loads(done.stdout)["players"]
        skill = roster(args.players)
        rho = spearman([skill[p["player"]] for p in table], [p["rating"] for p in table])
        print(f"  Spearman correlation of rating and hidden skill over {len(table)} members: {rho:.3f}")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
