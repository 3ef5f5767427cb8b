"""Measure the match model of the analysis (``coach/match_model.json``) from seeded self-play.

    python benchmarks/measure_match_model.py                   # writes coloretto_log/coach/match_model.json
    python benchmarks/measure_match_model.py --games 40 --out /tmp/model.json

For every player count (2 to 5), edition and scoring table, ``--games`` seeded
games of ``--bot`` in every seat (``simulate``'s seeds: match ``i`` of run
seed ``--seed``, one game a match), and of each game every ordered pair of
seats' score difference ``s_p - s_q``. Kept per configuration: the number of
games, the mean and standard deviation of those differences (the mean is 0
by symmetry, the first seat's edge aside), a few quantiles (to check the
normal shape the analysis assumes: docs/analyze.md, "Match values"), and
the check of the model of the rest of a game: at each round's end, the
variance of the rest of the game's score difference (final less current)
against the game's, by the share of the deck still to come. The analysis
reads ``sd`` alone; the rest is there to be read.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
from pathlib import Path

from coloretto_log.bots.players import final_scores
from coloretto_log.bots.simulate import make_plan, moves_with_states, play_match
from coloretto_log.core.editions import EDITION_TABLE
from coloretto_log.core.ruleset import TABLES

OUT = Path(__file__).resolve().parent.parent / "coloretto_log" / "coach" / "match_model.json"
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
BUCKETS = (0.25, 0.5, 0.75, 1.0)  # the share of the deck to come at a round's end, upper bounds


def measure(players: int, edition: str, table: str, games: int, bot: str, seed: int) -> dict[str, object]:
    plan = make_plan(players=players, bots=[bot], edition=edition, table=table, games=1, seed=seed)
    diffs: list[float] = []
    rest: dict[float, list[float]] = {b: [] for b in BUCKETS}
    for i in range(games):
        played = play_match(plan, i)
        game = played.games[0]
        final = game.scores
        diffs.extend(final[p] - final[q] for p in range(players) for q in range(players) if p != q)
        states = [s for _, s in moves_with_states(plan.rules, game)] + [game.final]
        for before, after in itertools.pairwise(states):
            if after.round != before.round and not after.over:
                now = final_scores(after)
                share = after.cards_left / after.total
                bucket = next(b for b in BUCKETS if share <= b)
                rest[bucket].extend((final[p] - now[p]) - (final[q] - now[q])
                                    for p in range(players) for q in range(players) if p != q)
    cut = statistics.quantiles(diffs, n=100)
    var = statistics.pvariance(diffs)
    return {
        "games": games,
        "mean": round(statistics.fmean(diffs), 3),
        "sd": round(math.sqrt(var), 3),
        "quantiles": {str(q): round(cut[round(q * 100) - 1], 2) for q in QUANTILES},
        "rest_variance_share": {str(b): round(statistics.pvariance(v) / var, 3) if len(v) > 1 else None
                                for b, v in rest.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80, help="games per configuration (default 80)")
    parser.add_argument("--bot", default="strong", help="the bot in every seat (default strong)")
    parser.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the model")
    args = parser.parse_args()
    models: dict[str, object] = {}
    for edition in (e.name for e in EDITION_TABLE):
        for table in TABLES:
            for players in (2, 3, 4, 5):
                key = f"{edition}/{table}/{players}"
                models[key] = measure(players, edition, table, args.games, args.bot, args.seed)
                print(key, models[key], flush=True)
    model = {
        "source": f"python benchmarks/measure_match_model.py --games {args.games} --bot {args.bot} --seed {args.seed}",
        "what": "per edition/table/players: one game's score difference s_p - s_q between two seats, "
                "over every ordered pair of seats of seeded self-play games",
        "models": models,
    }
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    tmp.replace(args.out)


if __name__ == "__main__":
    main()
