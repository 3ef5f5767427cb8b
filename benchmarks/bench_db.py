"""Benchmark of the match database: ingest speed and memory, its cost over validate+score, stats time.

    python benchmarks/bench_db.py                 # 20,000 simulated games (a few minutes)
    python benchmarks/bench_db.py --games 100000
    python benchmarks/bench_db.py --million       # 1,000,000 games, stats at 100k and 1M (about an hour here)

Steps, each figure printed as it comes:

1. simulate the games once (random bots, 4 players, 4-game matches, seeded)
   into .jsonl files in a temporary folder;
2. baseline: read, check and score the same logs as ``score`` does
   (``logs.load`` + ``scorecard.score_match``), in a child process;
3. ingest them into a new database (``logs.load`` + ``MatchStore.ingest``),
   in a child process: games per second end to end and peak memory
   (``ru_maxrss`` of the child);
4. the ratio ingest / baseline on the same logs (best of ``--repeat`` runs,
   alternated, on the first ``--ratio-games`` games): what the database adds;
   and the ratio of a second ingest of the same logs (every match already
   stored, skipped by its content hash before it is checked) / baseline;
5. ``stats`` reports (every section) on the stored games, several filters,
   best of 3.

Targets (issue 6): the database adds at most 30% to validate+score; every
stats report on 1M games within 2 s; ingest of 1M games with peak memory
under 1 GB.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MATCHES_PER_FILE = 600  # 2,400 games, about 11 MB a file (a log file is read whole, 16 MiB at most)
GAMES_PER_MATCH = 4


# --------------------------------------------------------------------------- data


def _write_chunk(args: tuple[str, int, int, int]) -> tuple[str, int]:
    folder, seed, start, count = args
    from coloretto_log.bots.simulate import make_plan, match_log, play_match
    from coloretto_log.log.writer import dumps_line

    plan = make_plan(players=4, bots=["random"], games=GAMES_PER_MATCH, seed=seed)
    path = Path(folder) / f"sim-{start // MATCHES_PER_FILE:05d}.jsonl"
    first = datetime.date(2025, 1, 1)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(start, start + count):
            log = match_log(plan, play_match(plan, i))
            log["date"] = (first + datetime.timedelta(days=i % 730)).isoformat()  # two seasons of dates
            f.write(dumps_line(log) + "\n")
    return str(path), count


def simulate(folder: Path, games: int, *, seed: int, jobs: int) -> list[str]:
    """``games`` games in 4-game matches, as .jsonl files of ``MATCHES_PER_FILE`` matches."""
    matches = (games + GAMES_PER_MATCH - 1) // GAMES_PER_MATCH
    chunks = [
        (str(folder), seed, start, min(MATCHES_PER_FILE, matches - start))
        for start in range(0, matches, MATCHES_PER_FILE)
    ]
    with multiprocessing.Pool(jobs) as pool:
        files = [path for path, _ in pool.imap(_write_chunk, chunks)]
    return files


# --------------------------------------------------------------------------- child processes


def child(mode: str, db: str, files: list[str]) -> None:
    """Run one measured step in this (child) process; print its figures as JSON."""
    start = time.perf_counter()
    cpu = time.process_time()
    out: dict[str, object] = {}
    if mode == "baseline":
        from coloretto_log.log.load import LoadedMatch, load
        from coloretto_log.report.scorecard import score_match

        games = 0
        for item in load(files):
            if not isinstance(item, LoadedMatch):
                sys.exit(f"unreadable: {item.message}")
            scored = score_match(item)
            games += len(scored.games)
        out["games"] = games
    elif mode in ("ingest", "reingest"):
        from coloretto_log.db.ingest.files import ingest_logs
        from coloretto_log.db.ingest.reading import planned

        summary = ingest_logs(db, planned(files)).summary  # what the ingest command runs
        out["games"] = summary.games
        out["matches"] = summary.stored
        out["skipped"] = summary.skipped
    elif mode == "stats":
        from coloretto_log.db.queries.stats import Filter, report
        from coloretto_log.db.store import MatchStore

        filters = {
            "all": Filter(),
            "--player random-1": Filter(player="random-1"),
            "--players 4 --edition classic": Filter(players=4, edition="classic"),
            "--since 2026-01-01 --until 2026-06-30": Filter(
                since=datetime.date(2026, 1, 1), until=datetime.date(2026, 6, 30)
            ),
        }
        with MatchStore.open(db, read_only=True) as store:
            timings = {}
            for name, flt in filters.items():
                best = float("inf")
                for _ in range(3):
                    t = time.perf_counter()
                    report(store, flt)
                    best = min(best, time.perf_counter() - t)
                timings[name] = best
            out["stats"] = timings
            out["games"] = store.counts()["games"]
    out["seconds"] = time.perf_counter() - start
    out["cpu_seconds"] = time.process_time() - cpu  # every thread of the process (DuckDB's included)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB
    print(json.dumps(out))


def run_child(mode: str, db: Path, files: list[str]) -> dict[str, object]:
    listing = db.with_suffix(".files")
    listing.write_text("\n".join(files), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--db", str(db), "--files", str(listing)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"child {mode} failed:\n{proc.stderr}")
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def print_stats(s: dict[str, object]) -> None:
    timings: dict[str, float] = s["stats"]  # type: ignore[assignment]
    worst = max(timings.values())
    print(f"  stats on {int(s['games']):,} stored games (every report, best of 3):")  # type: ignore[call-overload]
    for name, secs in timings.items():
        print(f"    {name:<38} {secs:6.3f} s")
    print(f"    slowest {worst:.3f} s (target <= 2 s)")


def fresh(db: Path) -> Path:
    for p in (db, Path(str(db) + ".wal")):
        if p.exists():
            p.unlink()
    return db


# --------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games to simulate and ingest (default 20000)")
    ap.add_argument("--million", action="store_true", help="1,000,000 games; stats at 100k and 1M")
    ap.add_argument("--ratio-games", type=int, default=20_000, help="games for the ingest / baseline ratio")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side of the ratio (best counts)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for simulating")
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--keep", type=Path, help="keep the logs and databases in this folder")
    ap.add_argument("--stats-db", type=Path, help="only time the stats reports on this existing database")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    ap.add_argument("--files", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.db, Path(args.files).read_text(encoding="utf-8").split("\n"))
        return
    if args.stats_db:
        print_stats(run_child("stats", args.stats_db, []))
        return
    games = 1_000_000 if args.million else args.games
    stats_at = sorted({100_000, games}) if args.million else [games]

    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-db-"))
    work.mkdir(parents=True, exist_ok=True)
    logs = work / "logs"
    try:
        print(f"coloretto-log database benchmark: {games:,} games (4 players, {GAMES_PER_MATCH}-game matches, random bots)")
        if logs.is_dir() and any(logs.iterdir()):
            files = sorted(str(p) for p in logs.glob("*.jsonl"))
            print(f"  logs: reusing {len(files)} files in {logs}")
        else:
            logs.mkdir(exist_ok=True)
            t = time.perf_counter()
            files = simulate(logs, games, seed=args.seed, jobs=args.jobs)
            size = sum(Path(f).stat().st_size for f in files) / 1e6
            print(f"  simulated in {time.perf_counter() - t:.0f} s with {args.jobs} processes: {len(files)} files, {size:,.0f} MB")

        per_file = MATCHES_PER_FILE * GAMES_PER_MATCH
        ratio_files = files[: max(1, args.ratio_games // per_file)]
        base_best = ingest_best = base_cpu = ingest_cpu = float("inf")
        ratio_n = 0
        for _ in range(args.repeat):
            b = run_child("baseline", work / "none.duckdb", ratio_files)
            i = run_child("ingest", fresh(work / "ratio.duckdb"), ratio_files)
            base_best = min(base_best, float(b["seconds"]))  # type: ignore[arg-type]
            ingest_best = min(ingest_best, float(i["seconds"]))  # type: ignore[arg-type]
            base_cpu = min(base_cpu, float(b["cpu_seconds"]))  # type: ignore[arg-type]
            ingest_cpu = min(ingest_cpu, float(i["cpu_seconds"]))  # type: ignore[arg-type]
            ratio_n = int(i["games"])  # type: ignore[call-overload]
        print(
            f"  validate+score (baseline): {ratio_n:,} games in {base_best:.2f} s = {ratio_n / base_best:,.0f} games/s "
            f"(best of {args.repeat})"
        )
        print(
            f"  ingest:                    {ratio_n:,} games in {ingest_best:.2f} s = {ratio_n / ingest_best:,.0f} games/s "
            f"(best of {args.repeat})"
        )
        print(
            f"  ratio ingest / (validate+score) = {ingest_best / base_best:.2f} wall, "
            f"{ingest_cpu / base_cpu:.2f} CPU time  (target <= 1.30)"
        )
        again = run_child("reingest", work / "ratio.duckdb", ratio_files)
        print(
            f"  ingest again (all {int(again['skipped']):,} matches stored, skipped by hash): "  # type: ignore[call-overload]
            f"ratio to validate+score = {float(again['seconds']) / base_best:.2f} wall"  # type: ignore[arg-type]
        )

        for size in stats_at:
            db = fresh(work / f"games-{size}.duckdb")
            chosen = files[: max(1, -(-size // per_file))]
            r = run_child("ingest", db, chosen)
            n = int(r["games"])  # type: ignore[call-overload]
            secs = float(r["seconds"])  # type: ignore[arg-type]
            mb = db.stat().st_size / 1e6
            print(
                f"  ingest of {n:,} games: {secs:.0f} s = {n / secs:,.0f} games/s end to end, "
                f"peak memory {float(r['peak_mb']):,.0f} MB (target < 1024), database {mb:,.0f} MB"  # type: ignore[arg-type]
            )
            print_stats(run_child("stats", db, []))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
