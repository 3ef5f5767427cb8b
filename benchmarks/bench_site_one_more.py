"""Benchmark: what one more match costs a club site of 1,000 matches (issue 45, "incremental means incremental").

    python benchmarks/bench_site_one_more.py                 # 1,000 matches of 4 games, 40 members (2 to 4 min)
    python benchmarks/bench_site_one_more.py --matches 200   # quicker
    python benchmarks/bench_site_one_more.py --repeat 5      # more matches added, one at a time: a steadier median

The season of ``bench_site.py`` (``--matches`` matches of ``--games`` games
between ``--players`` members) is ingested and its site built once. Then,
``--repeat`` times: one more match is ingested and ``site`` run again, as
its own process on one core started as installed (``bench_site.timed``),
and the folder is compared, file by file, before and after. Each round
prints the pages rewritten, sorted into those that show the new match (its
replay and page, its evening, its players' pages, the index and the list
of every match) and the others, each other one with what changed in it
(its first differing words), and the CPU and wall time of the build. The
baseline, measured in the same round right before: ``site`` run again
with nothing changed (every page compared, none written). Target: one
more match in at most 2 s of CPU, rewriting only the pages that show it
(a player whose place in the ratings moved shows the match too: the place
on their page changed; they are counted apart).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _child import bytecode_env
from bench_site import load, remove, timed, write_season

#: The target: one more match's build in at most this many CPU seconds.
ONE_MORE = 2.0


def snapshot(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in site.rglob("*") if p.is_file() and p.name != ".coloretto-site.json"}


def shows_the_match(rel: str, match: dict[str, object], new: set[str]) -> bool:
    """Whether page ``rel`` shows the new ``match``: its own pages (``new``: those the build added), its evening,
    its players' pages, the index and the list of every match."""
    import datetime as _dt

    from coloretto_log.site.pages import evening_file, player_slug

    players = match["players"]
    assert isinstance(players, list)
    date = match.get("date")
    mine = {evening_file(_dt.date.fromisoformat(str(date)) if date else None), "index.html", "matches.html",
            *(f"players/{player_slug(p)}.html" for p in players)}
    return rel in mine or rel in new


def first_change(before: Path, after: Path) -> str:
    """The first words that differ between two versions of a page (what changed in it)."""
    import difflib
    import re

    a = re.sub(r"<[^>]+>", " ", before.read_text(encoding="utf-8")).split()
    b = re.sub(r"<[^>]+>", " ", after.read_text(encoding="utf-8")).split()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            return f"{' '.join(a[max(0, i1 - 3):i2 + 1])!r} -> {' '.join(b[max(0, j1 - 3):j2 + 1])!r}"
    return "the same words"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3, help="matches added, one at a time")
    opts = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-one-more-"))
    env = bytecode_env()
    try:
        logs, extra = work / "season.jsonl", work / "more.jsonl"
        span = opts.matches + opts.repeat
        write_season(logs, first=0, count=opts.matches, span=span, players=opts.players, games=opts.games)
        write_season(extra, first=opts.matches, count=opts.repeat, span=span, players=opts.players, games=opts.games)
        db, site, kept = work / "club.duckdb", work / "site", work / "before"
        timed(["ingest", "--db", str(db), str(logs)], env)
        first = timed(["site", "--db", str(db), "--out", str(site)], env)
        print(f"{opts.matches} matches, {opts.matches * opts.games} games, {opts.players} members; the first build "
              f"cpu {first.cpu:.2f} s; each command on one core, started as installed; CPU seconds:")
        cpus, bases, shown, others = [], [], [], []
        for r, line in enumerate(extra.read_text(encoding="utf-8").splitlines(), 1):
            same = timed(["site", "--db", str(db), "--out", str(site)], env)  # the baseline: nothing changed
            one = work / f"one-{r}.jsonl"
            one.write_text(line + "\n", encoding="utf-8")
            match = json.loads(line)
            timed(["ingest", "--db", str(db), str(one)], env)
            remove(kept)
            shutil.copytree(site, kept)
            before = snapshot(site)
            run = timed(["site", "--db", str(db), "--out", str(site)], env)
            after = snapshot(site)
            changed = sorted(rel for rel, digest in after.items() if before.get(rel) != digest)
            new = set(after) - set(before)
            mine = [rel for rel in changed if shows_the_match(rel, match, new)]
            rest = [rel for rel in changed if not shows_the_match(rel, match, new)]
            print(f"match {r} ({load()}): nothing changed cpu {same.cpu:.2f} s; one more match cpu {run.cpu:.2f} s "
                  f"wall {run.wall:.2f} s ({run.cpu / same.cpu:.2f}× nothing changed); {len(changed)} of {len(after)} "
                  f"files rewritten: {len(mine)} that show the match, {len(rest)} others")
            for rel in rest:
                print(f"    {rel}: {first_change(kept / rel, site / rel) if (kept / rel).is_file() else 'new'}")
            cpus.append(run.cpu)
            bases.append(same.cpu)
            shown.append(len(mine))
            others.append(len(rest))
        cpu = statistics.median(cpus)
        print(f"median: one more match cpu {cpu:.2f} s, nothing changed {statistics.median(bases):.2f} s, "
              f"{statistics.median(shown):g} pages that show it and {statistics.median(others):g} others rewritten")
        print(f"target: at most {ONE_MORE:g} s of CPU: {cpu:.2f} s ({'met' if cpu <= ONE_MORE else 'NOT met'})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
