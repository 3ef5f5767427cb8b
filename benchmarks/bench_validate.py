"""How fast is `validate`? Games validated per second, and the ratio to merely parsing the bytes.

    python benchmarks/bench_validate.py [--matches N] [--recorded]

Generates N four-player, four-game matches by random legal play (seeded, so
every run uses the same logs), then times in the same run:
  * baseline: json.loads of each match's bytes (and orjson.loads if installed);
  * validate: what `coloretto-log validate` does per match after reading the
    file: strict UTF-8 decoding, strict JSON parsing (duplicate keys, NaN),
    the pydantic models, and the full replay against the rules.
Prints figures and ratios; asserts nothing about time (these machines are noisy).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--recorded", action="store_true", help="recorded form (every card written) instead of seeded")
    parser.add_argument("--repeats", type=int, default=3)
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


if __name__ == "__main__":
    main()
