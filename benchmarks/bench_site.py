"""Benchmark of ``coloretto-log site`` on a simulated season: a first build against ``ingest``, in rounds.

    python benchmarks/bench_site.py                     # 1,000 matches of 4 games, 40 members, 3 rounds (5 to 10 min)
    python benchmarks/bench_site.py --matches 200       # quicker
    python benchmarks/bench_site.py --repeat 5          # more rounds: a steadier median
    python benchmarks/bench_site.py --keep season/      # keep the logs, the last round's database and site

The season: ``--matches`` matches of ``--games`` games between ``--players``
members (greedy or random bots by skill, tables of 3 to 5, one match after
another over a year; ``tests/builders/club.py``), and five more matches (one
evening). Each command runs as its own process pinned to one core
(``taskset -c 0`` where there is one), started as an installed program
starts (its modules' bytecode compiled beforehand, ``_child.bytecode_env``),
timed end to end with the CPU time it used. After one untimed warm-up (the
logs read once, a site of the evening alone: the bytecode written),
each of ``--repeat`` rounds runs, one right after the other:

1. ``ingest`` of the season into a new database (the baseline);
2. ``site`` into a new folder: every page and every replay drawn (the first build);
3. ``site`` again, nothing changed: every page compared, no replay drawn;
4. the evening ingested, then ``site``: what one more evening costs;

and a last ``ingest`` after them. A round's ratio is its first build's CPU
over the mean of the two ``ingest`` runs either side of it (ingest, build,
ingest, build, ..., ingest), each a minute or so away: a machine whose load
moves inflates them alike, where figures minutes apart drift apart. The run
prints every figure, then the median ratio and its spread (lowest to
highest), the least build over the least ingest (the least disturbed of
each), and each target's verdict on the medians. Targets (issues 21 and 28): the
first build of 1,000 matches in at most 3× the CPU of ``ingest`` of the same
matches, and in at most 30 s of one core; one more evening in at most 3 s
of CPU. The first round also times ``stats`` (every report) and prints what
the kept logs (``match_logs``, which the replays are drawn from) add to the
database.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _child import bytecode_env, program

#: The issues' targets: the first build at most this times ``ingest``'s CPU; 1,000 matches' first build, and one
#: more evening, in at most these CPU seconds.
RATIO, THOUSAND, EVENING = 3.0, 30.0, 3.0


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


@dataclass(frozen=True)
class Run:
    """A command's wall and CPU seconds, and what it said on standard error (one line)."""

    wall: float
    cpu: float
    said: str


def timed(args: list[str], env: dict[str, str]) -> Run:
    """Run ``coloretto-log ARGS`` on one core, started as installed (``env``): its wall and CPU seconds."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*pin, *program(), *args], capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"coloretto-log {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, " ".join(done.stderr.split()))


def load() -> str:
    """The machine's load (other jobs inflate the CPU figures too: compare the ratios, measured in the same round)."""
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


def remove(*paths: Path) -> None:
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def files_written(said: str) -> str:
    """'N files, M written' from ``site``'s summary line."""
    found = re.search(r"(\d+) files, (\d+) written", said)
    return f"{found.group(1)} files, {found.group(2)} written" if found else said


def spread(values: list[float], unit: str = "") -> str:
    """The median of ``values``, and their lowest and highest: '5.12× (4.90–5.31×)'."""
    return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}–{max(values):.2f}{unit})"


def verdict(ok: bool) -> str:
    return "within" if ok else "OVER"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3, help="rounds of ingest, first build, rerun, one more evening")
    ap.add_argument("--keep", type=Path, help="keep everything in this folder (logs are reused when there)")
    opts = ap.parse_args()
    if opts.repeat < 1:
        ap.error("--repeat must be at least 1")
    work = opts.keep or Path(tempfile.mkdtemp(prefix="bench-site-"))
    work.mkdir(parents=True, exist_ok=True)
    env = bytecode_env()
    try:
        logs, extra = work / "season.jsonl", work / "evening.jsonl"
        span = opts.matches + 5
        if not logs.exists():
            t = time.perf_counter()
            write_season(logs, first=0, count=opts.matches, span=span, players=opts.players, games=opts.games)
            write_season(extra, first=opts.matches, count=5, span=span, players=opts.players, games=opts.games)
            print(f"simulated {opts.matches} matches of {opts.games} games in {time.perf_counter() - t:.1f} s")
        db, site = work / "club.duckdb", work / "site"
        remove(db, site)
        logs.read_bytes()  # the warm-up: the logs in the disk's cache, the bytecode written
        timed(["ingest", "--db", str(db), str(extra)], env)
        timed(["site", "--db", str(db), "--out", str(site)], env)
        print(f"{opts.matches} matches, {opts.matches * opts.games} games, {opts.players} members; {opts.repeat} rounds, "
              "each command on one core, started as installed (its bytecode compiled beforehand); CPU seconds:")
        ingests, builds, reruns, evenings = [], [], [], []
        scratch = work / "baseline.duckdb"  # the last ingest's: a baseline only

        def ingest(into: Path) -> float:
            remove(into)
            ing = timed(["ingest", "--db", str(into), str(logs)], env)
            print(f"  ingest (baseline)         cpu {ing.cpu:6.2f} s   wall {ing.wall:6.2f} s")
            ingests.append(ing.cpu)
            return ing.cpu

        for r in range(1, opts.repeat + 1):
            remove(site)
            print(f"round {r} ({load()}):")
            ingest(db)
            if r == 1:
                print(f"      {log_size(db, logs)}")
                st = timed(["stats", "--db", str(db), "--json"], env)
                print(f"  stats (baseline, once)    cpu {st.cpu:6.2f} s   wall {st.wall:6.2f} s")
            full = timed(["site", "--db", str(db), "--out", str(site)], env)
            print(f"  site, first build         cpu {full.cpu:6.2f} s   wall {full.wall:6.2f} s   {files_written(full.said)}")
            same = timed(["site", "--db", str(db), "--out", str(site)], env)
            print(f"  site, nothing changed     cpu {same.cpu:6.2f} s   wall {same.wall:6.2f} s   {files_written(same.said)}")
            timed(["ingest", "--db", str(db), str(extra)], env)
            more = timed(["site", "--db", str(db), "--out", str(site)], env)
            print(f"  site, one more evening    cpu {more.cpu:6.2f} s   wall {more.wall:6.2f} s   {files_written(more.said)}")
            builds.append(full.cpu)
            reruns.append(same.cpu)
            evenings.append(more.cpu)
        print(f"after round {opts.repeat} ({load()}):")
        ingest(scratch)
        remove(scratch)
        # each first build against the mean of the ingests either side of it: ingest, build, ..., ingest, build, ingest
        ratios = [b / ((ingests[i] + ingests[i + 1]) / 2) for i, b in enumerate(builds)]
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(f"the folder: {sum(1 for p in site.rglob('*') if p.is_file())} files, {size / 1e6:.1f} MB; "
              f"the machine at the end: {load()}")
        scale = 1000 / opts.matches
        print(f"over {opts.repeat} rounds, median (lowest–highest): ingest {spread(ingests, ' s')} ({len(ingests)} runs), first build "
              f"{spread(builds, ' s')}, nothing changed {spread(reruns, ' s')}, one more evening {spread(evenings, ' s')}")
        ratio, build, evening = statistics.median(ratios), statistics.median(builds) * scale, statistics.median(evenings)
        print(f"the first build / the mean of the ingests either side of it, each round: "
              f"{', '.join(f'{x:.2f}×' for x in ratios)}; median {spread(ratios, '×')}; "
              f"the least build / the least ingest {min(builds) / min(ingests):.2f}×")
        print(f"targets: the first build at most {RATIO:g}× ingest's CPU: {ratio:.2f}× ({verdict(ratio <= RATIO)}); "
              f"1,000 matches in at most {THOUSAND:g} s of one core: {build:.1f} s for 1,000"
              f"{'' if opts.matches == 1000 else f' (scaled from {opts.matches})'} ({verdict(build <= THOUSAND)}); "
              f"one more evening in at most {EVENING:g} s: {evening:.2f} s ({verdict(evening <= EVENING)})")
    finally:
        if opts.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
