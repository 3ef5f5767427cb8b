"""Do `replay` and `score` stay flat? Peak memory on a long .jsonl, next to validate's.

    python benchmarks/bench_replay.py [--matches N] [--page-matches P] [--keep FOLDER]

Writes N seeded four-player matches (default 20,000) with
`coloretto-log simulate --bots random`, then runs, each in its own process
(peak memory: the child's ru_maxrss from os.wait4; time: wall clock):
  * validate FILE                        the baseline: streamed a match at a time
  * score FILE (table, --json, --format csv) > /dev/null
  * replay FILE --json > /dev/null       every state of every match as JSON
  * replay FILE --html OUT.html          the page; refused (exit 2) where it would pass
                                         50 MB, after about 100 matches
  * replay --html on the first P matches (default 1,000) with the 50 MB limit
    lifted: the writer itself, a page of about 0.5 MB a match, in flat memory
Prints each peak in MB and its ratio to validate's; a ratio near 1 whatever N
is means flat memory (before streaming, --json on 200 matches peaked at
2.65 GB). Asserts nothing about time (these machines are noisy).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-m", "coloretto_log"]
#: The page writer with the 50 MB limit lifted (PAGE_LIMIT is read when the page is written).
UNLIMITED = (
    "import sys, coloretto_log.view.html as h; h.PAGE_LIMIT = 1 << 62; "
    "from coloretto_log.cli import main; main(sys.argv[1:])"
)


def measure(args: list[str], *, stdout: int | None = subprocess.DEVNULL) -> tuple[int, float, float]:
    """(exit code, peak resident memory in MB, wall seconds) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=stdout, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss / 1024, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20_000, help="matches in the file (default 20,000)")
    parser.add_argument("--page-matches", type=int, default=1_000, help="matches in the unlimited page")
    parser.add_argument("--keep", type=Path, help="a folder to keep (and reuse) the generated file in")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-replay-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        logs = folder / f"sims-{args.matches}.jsonl"
        if not logs.exists():
            t = time.perf_counter()
            subprocess.run(
                [*CLI, "simulate", "-n", str(args.matches), "--bots", "random", "--seed", "2026",
                 "--jobs", "0", "--out", str(logs)],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            print(f"simulate: {args.matches} matches in {time.perf_counter() - t:.0f} s")
        first = folder / f"sims-first-{args.page_matches}.jsonl"
        with open(logs, encoding="utf-8") as src, open(first, "w", encoding="utf-8") as dst:
            dst.writelines(line for _, line in zip(range(args.page_matches), src))
        size = logs.stat().st_size / 1e6
        print(f"{logs.name}: {args.matches} matches, {size:.0f} MB")

        page = Path(tmp) / "page.html"
        runs = [
            ("validate", [*CLI, "validate", str(logs)]),
            ("score", [*CLI, "score", str(logs)]),
            ("score --json", [*CLI, "score", str(logs), "--json"]),
            ("score --format csv", [*CLI, "score", str(logs), "--format", "csv"]),
            ("replay --json", [*CLI, "replay", str(logs), "--json"]),
            ("replay --html (50 MB limit)", [*CLI, "replay", str(logs), "--html", str(page), "--force"]),
            (f"replay --html, {args.page_matches} matches, no limit",
             [sys.executable, "-c", UNLIMITED, "replay", str(first), "--html", str(page), "--force"]),
        ]
        base = None
        print(f"{'command':42} {'exit':>4} {'peak MB':>8} {'x validate':>10} {'wall s':>8}")
        for name, command in runs:
            code, peak, wall = measure(command)
            base = base or peak
            note = f"  (page {page.stat().st_size / 1e6:.0f} MB)" if page.exists() and "no limit" in name else ""
            print(f"{name:42} {code:>4} {peak:8.0f} {peak / base:10.2f} {wall:8.1f}{note}")
            page.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
