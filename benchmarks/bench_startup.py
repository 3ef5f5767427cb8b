"""How fast does `coloretto-log` start? CPU time of whole processes, as ratios to baselines in the same run.

    python benchmarks/bench_startup.py [--repeats 7] [--matches 1000]

Times, each the best of --repeats runs (CPU time, user + system, of the child process, started as an
installed program starts: its modules' bytecode compiled beforehand, see _child.bytecode_env):
  * baseline: `python -c "import typer"`;
  * `coloretto-log --version`            (target: at most 2x the baseline);
  * `coloretto-log score --hand "..."`   (target: at most 3x the baseline);
and, against `json.loads` of every line of the same file in this process (CPU time):
  * `coloretto-log validate FILE.jsonl` of --matches seeded four-game matches written by
    `coloretto-log simulate --bots greedy` (greedy bots only to write the file quickly),
    process start included                (target: at most 8x).
Prints figures and ratios; asserts nothing about time (these machines are noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _child import bytecode_env, checkout_note, child_cpu, program

HAND = "green=6 yellow=4 red=3 blue=2 joker=1 +2=1"




def parse_cpu(path: Path, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        with open(path, "rb") as f:
            for line in f:
                json.loads(line)
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--matches", type=int, default=1000)
    args = parser.parse_args()
    cli = program()
    print(f"program: {' '.join(cli)}")

    installed = bytecode_env()  # every child starts as an installed program: its modules' bytecode compiled
    print("children start with their modules' bytecode compiled, as pip install leaves them")
    base = child_cpu([sys.executable, "-c", "import typer"], args.repeats, installed)
    version = child_cpu([*cli, "--version"], args.repeats, installed)
    hand = child_cpu([*cli, "score", "--hand", HAND], args.repeats, installed)
    hand_here = child_cpu([*cli, "score", "--hand", HAND], args.repeats)
    print(f"python -c 'import typer'       {base * 1000:7.1f} ms CPU")
    print(f"coloretto-log --version        {version * 1000:7.1f} ms CPU  {version / base:5.2f}x  (target <= 2x)")
    print(f'coloretto-log score --hand ... {hand * 1000:7.1f} ms CPU  {hand / base:5.2f}x  (target <= 3x)')
    print(f"  the same here                {hand_here * 1000:7.1f} ms CPU  {hand_here / base:5.2f}x  ({checkout_note()})")

    work = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    try:
        log = work / "sims.jsonl"
        subprocess.run(
            [*cli, "simulate", "-n", str(args.matches), "--bots", "greedy", "--seed", "1", "--jobs", "0",
             "--out", str(log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        )
        size = os.path.getsize(log) / 1e6
        runs = max(1, args.repeats // 2)
        parse = parse_cpu(log, runs)
        validate = child_cpu([*cli, "validate", str(log)], runs, installed)
        print(f"{args.matches} seeded four-game matches, {size:.1f} MB in one .jsonl (simulate --bots greedy)")
        print(f"json.loads of every line         {parse * 1000:7.0f} ms CPU")
        print(f"coloretto-log validate FILE      {validate * 1000:7.0f} ms CPU  {validate / parse:5.2f}x  (target <= 8x)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
