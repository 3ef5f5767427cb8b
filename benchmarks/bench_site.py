"""Benchmark of ``coloretto-log site`` on a simulated season: a full build, an unchanged rerun, one more evening.

    python benchmarks/bench_site.py                     # 1,000 matches of 4 games, 40 members (about a minute)
    python benchmarks/bench_site.py --matches 200       # quicker
    python benchmarks/bench_site.py --keep season/      # keep the logs, database and site (and reuse the logs)

The season: ``--matches`` matches of ``--games`` games between ``--players``
members (greedy or random bots by skill, tables of 3 to 5, one match after
another over a year; ``tests/builders/club.py``), ingested with
``coloretto-log ingest``. Each command then runs as its own process pinned to
one core (``taskset -c 0`` where there is one), timed end to end (process
start included), with the CPU time it used:

1. the baselines, over the same database in the same run: ``ingest`` of the
   season into a fresh database, and ``stats`` (every report);
2. ``site`` into a new folder: every page and every replay drawn;
3. ``site`` again, nothing changed: every page compared, no replay drawn;
4. five more matches (one evening) ingested, then ``site``: what it wrote.

Targets (issues 21 and 28): the first build of 1,000 matches in at most 3×
the CPU time of ``ingest`` of the same matches in the same run, and at most
30 s of one core; one more evening in at most 3 s. The replays are drawn
from the logs the database keeps (``match_logs``): the run also prints what
they add to the database.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def roster(players: int) -> dict[str, float]:
    """Members M01, M02, ... with skills spread evenly from 0 to 1."""
    return {f"M{i + 1:02d}": round(i / max(players - 1, 1), 4) for i in range(players)}


def write_season(path: Path, *, first: int, count: int, span: int, players: int, games: int) -> None:
    from coloretto_log.log.writer import dumps_line
    from tests.builders.club import club_matches

    with path.open("w", encoding="utf-8") as f:
        for m in club_matches(count, roster=roster(players), seed=21, games=games, sizes=(3, 4, 5), first=first,
                              span=span, start=_dt.date(2026, 1, 1), days=365):
            f.write(dumps_line(m) + "\n")


def timed(args: list[str]) -> tuple[float, float, str]:
    """Run ``coloretto-log ARGS`` on one core: wall seconds, CPU seconds, standard error."""
    exe = str(Path(sys.executable).with_name("coloretto-log"))
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run([*pin, exe, *args], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"coloretto-log {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, done.stderr.strip()


def load() -> str:
    """The machine's load (other jobs inflate the CPU figures too: compare the ratios, measured in the same run)."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def log_size(db: Path, logs: Path) -> str:
    """What the kept logs (``match_logs``) weigh: their compressed bytes against the log file's and the database's."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT count(*), sum(octet_length(log)) FROM match_logs").fetchone()
    finally:
        con.close()
    n, packed = (0, 0) if row is None else (int(row[0]), int(row[1] or 0))
    return (f"the kept logs: {n} matches, {packed / 1e6:.1f} MB compressed ({packed / max(n, 1) / 1e3:.1f} kB a match) "
            f"of {logs.stat().st_size / 1e6:.1f} MB of log file; the database file {db.stat().st_size / 1e6:.1f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--keep", type=Path, help="keep everything in this folder (logs are reused when there)")
    opts = ap.parse_args()
    work = opts.keep or Path(tempfile.mkdtemp(prefix="bench-site-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        logs, extra = work / "season.jsonl", work / "evening.jsonl"
        span = opts.matches + 5
        if not logs.exists():
            t = time.perf_counter()
            write_season(logs, first=0, count=opts.matches, span=span, players=opts.players, games=opts.games)
            write_season(extra, first=opts.matches, count=5, span=span, players=opts.players, games=opts.games)
            print(f"simulated {opts.matches} matches of {opts.games} games in {time.perf_counter() - t:.1f} s")
        db, site = work / "club.duckdb", work / "site"
        for stale in (db, site):
            if stale.is_dir():
                shutil.rmtree(stale)
            elif stale.exists():
                stale.unlink()
        print(f"{opts.matches} matches, {opts.matches * opts.games} games, {opts.players} members; one core each "
              f"({load()}):")
        ing_wall, ing_cpu, _ = timed(["ingest", "--db", str(db), str(logs)])
        print(f"  ingest (baseline)       {ing_wall:6.2f} s   cpu {ing_cpu:6.2f} s")
        print(f"      {log_size(db, logs)}")
        st_wall, st_cpu, _ = timed(["stats", "--db", str(db), "--json"])
        print(f"  stats (baseline)        {st_wall:6.2f} s   cpu {st_cpu:6.2f} s")
        full_wall, full_cpu, said = timed(["site", "--db", str(db), "--out", str(site)])
        print(f"  site, first build       {full_wall:6.2f} s   cpu {full_cpu:6.2f} s   "
              f"{full_wall / ing_wall:.2f}× ingest, {full_wall / st_wall:.1f}× stats (wall); "
              f"{full_cpu / ing_cpu:.2f}× ingest, {full_cpu / st_cpu:.1f}× stats (cpu)")
        print(f"      {said}")
        same_wall, same_cpu, said = timed(["site", "--db", str(db), "--out", str(site)])
        print(f"  site, nothing changed   {same_wall:6.2f} s   cpu {same_cpu:6.2f} s   "
              f"{same_cpu / full_cpu:.2f}× the first build's cpu")
        print(f"      {said}")
        timed(["ingest", "--db", str(db), str(extra)])
        more_wall, more_cpu, said = timed(["site", "--db", str(db), "--out", str(site)])
        print(f"  site, one more evening  {more_wall:6.2f} s   cpu {more_cpu:6.2f} s   "
              f"{more_cpu / full_cpu:.2f}× the first build's cpu")
        print(f"      {said}")
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        files = re.search(r"(\d+) files", said)
        print(f"  the folder: {files.group(1) if files else '?'} files, {size / 1e6:.1f} MB")
        print(f"  the machine at the end: {load()}")
        scale = 1000 / opts.matches
        print(f"targets: the first build at most 3× ingest's CPU: {full_cpu / ing_cpu:.2f}× "
              f"({'within' if full_cpu <= 3 * ing_cpu else 'OVER'}); 1,000 matches in at most 30 s of one core: "
              f"{full_cpu:.1f} s for {opts.matches} matches, {full_cpu * scale:.1f} s for 1,000 "
              f"({'within' if full_cpu * scale <= 30 else 'OVER'}); one more evening in at most 3 s: {more_wall:.2f} s "
              f"wall, {more_cpu:.2f} s CPU ({'within' if more_cpu <= 3 else 'OVER'})")
    finally:
        if opts.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
