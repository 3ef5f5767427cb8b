"""How fast is `validate`? Games validated per second, and the ratio to merely parsing the bytes.

    python benchmarks/bench_validate.py [--matches N] [--recorded]

Generates N four-player, four-game matches by random legal play (seeded, so
every run uses the same logs), then times in the same run:
  * baseline: json.loads of each match's bytes (and orjson.loads if installed);
  * validate: what `coloretto-log validate` does per match after reading the
    file: strict UTF-8 decoding, strict JSON parsing (duplicate keys, NaN),
    the format's checks (the pydantic models; for a plain seeded match their
    equal at C speed, log.replay._plain_match) and the full replay against
    the rules.
Then the same matches, one a line, in a temporary ``.jsonl`` file, and from
the command line (CPU time, user + system, of the child process, best of
--repeats runs; process start included; the child starts as an installed
program does, its modules' bytecode compiled beforehand, and the whole file
is timed again in this process's own environment):
  * ``coloretto-log validate FILE.jsonl`` against ``json.loads`` of every line
    of that file in this process (target: at most 8x; 4x the stretch);
  * ``coloretto-log validate ONE.jsonl`` of the first match alone: the start,
    which the ratio above includes.
Prints figures and ratios; asserts nothing about time (these machines are noisy).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _child import bytecode_env, checkout_note, child_cpu, program
from _logs import match_seeds, random_match

from coloretto_log.log.reader import sources_from_bytes
from coloretto_log.log.replay import check_match


def best_of(repeats: int, fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def command_line(blobs: list[bytes], repeats: int) -> None:
    """``validate`` from the command line on a .jsonl of ``blobs``, against json.loads of its lines."""
    cli = program()
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as work:
        path = Path(work) / "matches.jsonl"
        path.write_bytes(b"".join(b + b"\n" for b in blobs))
        one = Path(work) / "one.jsonl"
        one.write_bytes(blobs[0] + b"\n")
        lines = path.read_bytes().splitlines()

        def parse_lines() -> None:
            for line in lines:
                json.loads(line)

        t_json = best_of(repeats, parse_lines)
        installed = bytecode_env()
        t_cli = child_cpu([*cli, "validate", str(path)], repeats, installed)
        t_one = child_cpu([*cli, "validate", str(one)], repeats, installed)
        t_here = child_cpu([*cli, "validate", str(path)], repeats)
    games = 4 * len(blobs)
    print()
    print(f"from the command line: {' '.join(cli)} validate FILE.jsonl ({len(blobs)} matches, one a line)")
    print(f"json.loads of every line     {t_json:8.3f} s CPU")
    print(f"validate FILE.jsonl          {t_cli:8.3f} s CPU  {games / t_cli:10.0f} games/s (process start included;"
          " as installed: bytecode compiled)")
    print(f"validate of one match        {t_one:8.3f} s CPU  (the start)")
    print(f"validate FILE.jsonl here     {t_here:8.3f} s CPU  ({checkout_note()})")
    print(f"ratio command line / json.loads: {t_cli / t_json:.1f}x   (target: at most 8x; stretch 4x)")
    print(f"ratio less the start:            {(t_cli - t_one) / t_json:.1f}x")
    print(f"ratio here / json.loads:         {t_here / t_json:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--recorded", action="store_true", help="recorded form (every card written) instead of seeded")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line measurement")
    args = parser.parse_args()

    t0 = time.process_time()
    blobs = [
        json.dumps(random_match(s, recorded=args.recorded)).encode("utf-8")
        for s in match_seeds(2026, args.matches)
    ]
    gen = time.process_time() - t0
    games = 4 * len(blobs)
    mbytes = sum(map(len, blobs)) / 1e6
    print(f"{len(blobs)} matches ({games} games, {mbytes:.1f} MB, {'recorded' if args.recorded else 'seeded'} form) generated in {gen:.1f} s")

    def parse_json() -> None:
        for b in blobs:
            json.loads(b)

    def validate() -> None:
        for b in blobs:
            for source in sources_from_bytes(b, "bench.json"):
                report = check_match(source.data)
                if not report.valid:
                    raise SystemExit("benchmark log unexpectedly invalid")

    t_json = best_of(args.repeats, parse_json)
    t_val = best_of(args.repeats, validate)
    print(f"json.loads      {t_json:8.3f} s  {games / t_json:10.0f} games/s")
    try:
        import orjson
    except ImportError:
        orjson = None
    if orjson is not None:
        loads = orjson.loads

        def parse_orjson() -> None:
            for b in blobs:
                loads(b)

        t_or = best_of(args.repeats, parse_orjson)
        print(f"orjson.loads    {t_or:8.3f} s  {games / t_or:10.0f} games/s")
    print(f"validate        {t_val:8.3f} s  {games / t_val:10.0f} games/s")
    print(f"ratio validate / json.loads: {t_val / t_json:.1f}x   (target: at most 8x)")
    if orjson is not None:
        print(f"ratio validate / orjson.loads: {t_val / t_or:.1f}x")
    if not args.no_cli:
        command_line(blobs, args.repeats)


if __name__ == "__main__":
    main()
