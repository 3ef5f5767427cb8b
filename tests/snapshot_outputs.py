"""Write every command's output on the shipped samples and on 200 simulated matches to a folder.

Run it before and after a change that must not change behaviour, then compare:

    python tests/snapshot_outputs.py /tmp/before      # on the old commit
    python tests/snapshot_outputs.py /tmp/after       # on the new one
    diff -r /tmp/before /tmp/after

Each command's standard output, standard error and exit code go to files named
after the command; files the commands write (HTML pages, databases' exports,
recorded logs) are copied in as well. Figures that measure time are the only
lines expected to differ; ``--mask`` replaces them with ``<time>``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from make_sample_logs import typed_lines  # this script runs from tests/, beside it

ROOT = Path(__file__).resolve().parents[1]
TIME = re.compile(r"\b\d+(?:\.\d+)?\s?(?:s|ms|seconds?|games/s|matches/s)\b|\d+:\d\d:\d\d")


class Runner:
    def __init__(self, out: Path, work: Path, mask: bool) -> None:
        self.out, self.work, self.mask, self.n = out, work, mask, 0

    def __call__(self, name: str, *args: str, stdin: str | None = None) -> None:
        self.n += 1
        env = dict(os.environ, COLUMNS="120", LINES="50", NO_COLOR="", TERM="dumb", PYTHONHASHSEED="0")
        env.pop("NO_COLOR")
        proc = subprocess.run(
            [sys.executable, "-m", "coloretto_log", *args],
            cwd=self.work, input=stdin, capture_output=True, text=True, env=env, check=False,
        )
        stem = self.out / f"{self.n:03d}-{name}"
        stdout, stderr = proc.stdout, proc.stderr
        if self.mask:
            stdout, stderr = TIME.sub("<time>", stdout), TIME.sub("<time>", stderr)
        stem.with_suffix(".cmd").write_text(" ".join(args) + f"\nexit {proc.returncode}\n", encoding="utf-8")
        stem.with_suffix(".out").write_text(stdout, encoding="utf-8")
        stem.with_suffix(".err").write_text(stderr, encoding="utf-8")

    def keep(self, name: str, path: str) -> None:
        src = self.work / path
        if src.is_dir():
            shutil.copytree(src, self.out / name)
        elif src.exists():
            shutil.copyfile(src, self.out / name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write (must not exist)")
    parser.add_argument("--matches", type=int, default=200, help="simulated matches (default 200)")
    parser.add_argument("--mask", action="store_true", help="replace time figures with <time>")
    opts = parser.parse_args()
    opts.out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "sample_logs", work / "sample_logs")
        # the broken logs moved to tests/data/invalid/; copied where they were, so labels compare with old runs
        shutil.copytree(ROOT / "tests" / "data" / "invalid", work / "sample_logs" / "invalid")
        run = Runner(opts.out, work, opts.mask)
        samples = sorted(p.relative_to(work).as_posix() for p in (work / "sample_logs").glob("*.json*"))
        broken = sorted(p.relative_to(work).as_posix() for p in (work / "sample_logs" / "invalid").glob("*.json"))
        run("help", "--help")
        for command in ("validate", "score", "replay", "record", "simulate", "deal", "schema", "ingest", "stats",
                        "query", "export", "analyze"):
            run(f"help-{command}", command, "--help")
        run("schema", "schema")
        run("validate-all", "validate", *samples)
        run("validate-all-json", "validate", "--json", *samples)
        run("validate-invalid", "validate", *broken)
        run("validate-invalid-json", "validate", "--json", *broken)
        run("score-invalid", "score", *broken)
        for i, sample in enumerate(samples):
            tag = Path(sample).stem
            run(f"score-{tag}", "score", sample)
            run(f"score-json-{tag}", "score", "--json", sample)
            run(f"replay-{tag}", "replay", sample)
            run(f"replay-moves-{tag}", "replay", "--moves", sample)
            run(f"replay-json-{tag}", "replay", "--json", sample)
            run(f"replay-html-{tag}", "replay", sample, "--html", f"page-{i}.html")
            run.keep(f"page-{tag}.html", f"page-{i}.html")
        for sample in broken[:6]:
            run(f"replay-broken-{Path(sample).stem}", "replay", "--moves", sample)
        run("replay-move", "replay", "sample_logs/classic-3p-seeded-match.json", "--game", "2", "--move", "17")
        run("replay-move-json", "replay", "sample_logs/classic-3p-seeded-match.json", "--game", "2", "--move", "17",
            "--json")
        for hand in ("green=6 yellow=4 red=3 blue=2 joker=1 +2=1", "red=6 blue=2 green=1 j"):
            run("score-hand", "score", "--hand", hand)
            run("score-hand-json", "score", "--hand", hand, "--json")
            run("score-hand-alt", "score", "--hand", hand, "--table", "alternative", "--json")
        run("score-hand-bad", "score", "--hand", "red=10")
        for args in (["--seed", "42", "--players", "4"], ["--seed", "42", "--players", "4", "--json"],
                     ["--seed", "7", "--players", "3", "--edition", "anniversary", "--game", "2"],  # --game counts from 1
                     ["--seed", "7", "--players", "2", "--json"]):
            run("deal", "deal", *args)
        run("simulate", "simulate", "-n", str(opts.matches), "--seed", "1", "--out", "sims.jsonl", "--json")
        run("simulate-recorded", "simulate", "-n", "20", "--seed", "2", "--bots", "strong,greedy,random,greedy",
            "--recorded", "--out", "sims-recorded.jsonl")
        run.keep("sims.jsonl", "sims.jsonl")
        run.keep("sims-recorded.jsonl", "sims-recorded.jsonl")
        run("validate-sims", "validate", "sims.jsonl", "sims-recorded.jsonl")
        run("validate-sims-json", "validate", "--json", "sims.jsonl")
        run("score-sims", "score", "sims.jsonl")
        run("score-sims-json", "score", "--json", "sims.jsonl")
        run("replay-sims", "replay", "sims.jsonl", "--match", "3", "--moves")
        run("replay-sims-json", "replay", "sims-recorded.jsonl", "--match", "2", "--json")
        run("ingest", "ingest", *samples, "--db", "club.duckdb")
        run("ingest-again", "ingest", *samples, "--db", "club.duckdb")
        run("ingest-sims", "ingest", "sims.jsonl", "sims-recorded.jsonl", "--db", "club.duckdb")
        run("ingest-invalid", "ingest", *broken[:5], "--db", "club.duckdb")
        run("stats", "stats", "--db", "club.duckdb")
        run("stats-json", "stats", "--db", "club.duckdb", "--format", "json")
        run("stats-csv", "stats", "--db", "club.duckdb", "--format", "csv")
        run("stats-4p", "stats", "--db", "club.duckdb", "--players", "4", "--since", "2026-01-01")
        run("query", "query", "SELECT player, count(*) AS n, avg(score) AS s FROM game_players GROUP BY player "
            "ORDER BY player", "--db", "club.duckdb")
        run("query-bad", "query", "DROP TABLE games", "--db", "club.duckdb")
        run("export", "export", "--db", "club.duckdb", "--bgstats", "plays.json")
        run.keep("plays.json", "plays.json")
        run("record-help", "record", "--help")
        recorded = json.loads((work / "sample_logs" / "classic-4p-recorded-match-with-claims.json").read_text())
        lines = typed_lines(recorded)
        names = ",".join(recorded["players"])
        run("record-piped", "record", "kitchen.json", "--players", names, "--date", recorded["date"],
            stdin="".join(f"{line}\n" for line in lines))
        run.keep("kitchen.json", "kitchen.json")
        run("record-half", "record", "half.json", "--players", names, "--date", recorded["date"],
            stdin="".join(f"{line}\n" for line in lines[:90]) + "q\n")
        run("record-resume", "record", "half.json", "--players", names, "--date", recorded["date"],
            stdin="".join(f"{line}\n" for line in lines[90:]))
        run.keep("half.json", "half.json")
        run("analyze-2p", "analyze", "sample_logs/classic-2p-recorded-game.json", "--json", "--samples", "64")
        run("analyze-4p", "analyze", "sample_logs/classic-4p-recorded-match-with-claims.json", "--game", "1",
            "--samples", "32", "--max-se", "0")
        run("analyze-3p-jobs", "analyze", "sample_logs/anniversary-3p-golden-joker-after-last-round-card.json",
            "--json", "--samples", "48", "--jobs", "2")
        run("record-bad", "record", "bad.json", "--players", names, "--date", recorded["date"],
            stdin="".join(f"{line}\n" for line in lines[:8]) + "t 9\nd red 1\n")
    print(f"{run.n} commands written to {opts.out}")


if __name__ == "__main__":
    main()
