"""How well does the evaluator value a position, against greedy playouts? Seeded games it never saw.

    python benchmarks/bench_evaluator.py [--games N] [--seed S] [--every K] [--playouts P]

Plays N seeded games of ``strong`` in every seat (default 60: half three and
half four players, classic edition, standard table; run seed 2727, which the
training's seed 27 never deals) and at every K-th position (default 4)
predicts every seat's final margin and winner three ways, each from what a
player sees (the deck's order hidden):

- ``evaluator``: ``bots.evaluate.evaluate`` (one pass of the model);
- ``greedy playouts``: the mean over P orders of the unseen cards (default
  32, drawn with ``playout.Start.deal``) of the game played out with every
  seat ``greedy`` (``bots.playout``): what the analysis of issue 18 valued a
  position by;
- ``score now``: the margins of the scores as they stand (and the leader as
  the winner).

Prints, against the real final margins and winners of those games: the root
mean square error of the margins, the winners' log-loss and Brier score
(playouts' chances are the share of playouts a seat won, a shared win
split; clipped to [0.01, 0.99] for the log-loss), by stage of the game, and
the CPU time of one valuation. Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.bots import simulate as sim
from coloretto_log.bots.evaluate import Values, evaluate, final_values
from coloretto_log.bots.players import GreedyBot, final_scores, hidden, make_bot, playout
from coloretto_log.bots.playout import Start
from coloretto_log.core.rng import SplitMix64, nth_output
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup


def greedy_values(state: object, seed: int, k: int) -> Values:
    view = hidden(state)  # type: ignore[arg-type]
    start = Start(view)
    n = view.players
    need = start.need()
    margins = [0.0] * n
    wins = [0.0] * n
    for j in range(k):
        deck = start.deal(nth_output(seed, j + 1), need)
        v = final_values(playout(view, [GreedyBot()] * n, [SplitMix64(0)] * n, deck=deck))
        for s in range(n):
            margins[s] += v.margin[s] / k
            wins[s] += v.win[s] / k
    return Values(tuple(margins), tuple(wins))


def now_values(state: object) -> Values:
    return final_values(final_scores(state))  # type: ignore[arg-type]


class Score:
    def __init__(self) -> None:
        self.se = 0.0
        self.margins = 0
        self.ll = 0.0
        self.brier = 0.0
        self.positions = 0
        self.seconds = 0.0

    def add(self, v: Values, real: Values, seconds: float) -> None:
        for p, r in zip(v.margin, real.margin):
            self.se += (p - r) ** 2
            self.margins += 1
        self.ll -= sum(r * math.log(min(0.99, max(0.01, p))) for p, r in zip(v.win, real.win))
        self.brier += sum((p - r) ** 2 for p, r in zip(v.win, real.win))
        self.positions += 1
        self.seconds += seconds

    def line(self, name: str) -> str:
        n = max(1, self.positions)
        return (f"  {name:<16} margin RMSE {math.sqrt(self.se / max(1, self.margins)):6.2f}   winner log-loss "
                f"{self.ll / n:6.3f}   Brier {self.brier / n:6.3f}   {1000 * self.seconds / n:8.2f} ms a position")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2727)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=32)
    args = parser.parse_args()
    stages = ("first third", "second third", "last third", "all")
    methods = ("evaluator", "greedy playouts", "score now")
    table = {(st, m): Score() for st in stages for m in methods}
    for i in range(args.games):
        players = 3 + i % 2
        rules = RuleSet.of(games=1)
        seed = nth_output(args.seed, i + 1)
        setup = seeded_setup(rules, players, seed, 0)
        rngs = [SplitMix64(sim.bot_seed(seed, 0, s)) for s in range(players)]
        game = sim.play_game(rules, [make_bot("strong") for _ in range(players)], setup, rngs)
        real = final_values(game.scores)
        states = [s for _, s in sim.moves_with_states(rules, game)]
        for j in range(0, len(states), args.every):
            state = states[j]
            stage = stages[min(2, 3 * j // len(states))]
            for name in methods:
                t0 = time.process_time()
                if name == "evaluator":
                    v = evaluate(hidden(state))
                elif name == "greedy playouts":
                    v = greedy_values(state, nth_output(seed, 1000 + j), args.playouts)
                else:
                    v = now_values(state)
                dt = time.process_time() - t0
                table[stage, name].add(v, real, dt)
                table["all", name].add(v, real, dt)
        if (i + 1) % 10 == 0:
            print(f"  {i + 1}/{args.games} games", file=sys.stderr, flush=True)
    print(f"{args.games} games of strong (3 and 4 players), seed {args.seed}, every {args.every}th position, "
          f"{args.playouts} greedy playouts a position")
    for st in stages:
        print(f"{st} ({table[st, 'evaluator'].positions} positions):")
        for m in methods:
            print(table[st, m].line(m))


if __name__ == "__main__":
    main()
