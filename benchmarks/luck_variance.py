"""How much GNU Backgammon's luck adjustment would narrow the analysis's samples (an experiment, not adopted).

    python benchmarks/luck_variance.py                       # the four decisions of the design note, 1,000 orders each
    python benchmarks/luck_variance.py --decisions 3:11:14:row --orders 300

The analysis values a choice by playing it out greedily on a sampled order of
the unseen cards to the end of the round and asking the evaluator there
(``coach.estimate``); a decision's winning chance lost is the mean, over
orders, of the difference between two choices' values on the same order.
GNU Backgammon narrows its rollouts by subtracting the luck of every roll:
the value after the roll less the mean of the values after every roll that
could have come. The same here: at every card a playout turns over, the
evaluator's value (for the player deciding) after that card, less the mean
of its values after every kind of card that could have come (each with its
probability: its count over the cards unseen), summed along the playout.
That sum has mean zero whatever the evaluator, so the value less it is the
same expectation; where the evaluator foresees what the cards do, it varies
less.

For each decision (``players:seed:move:decision`` of the stability figure's
games, ``simulate -n 1 --games 1 --seed SEED --player-count PLAYERS``; the
choice the analysis names best at the defaults against the played one, or
where the played one is best, the choice with the next best winning chance)
it prints, over ``--orders`` orders: the difference's mean and standard
deviation as sampled today, the same less the luck (and less the luck times
the least-squares factor), how many positions the evaluator had to value
for one order (today: one a choice), and the CPU time of an order both ways,
measured order by order in turn (the walk with the evaluator asked one
position at a time, as a first look would; the walk alone, without the
evaluator, is the part batching could not take away). The design note
(docs/design/analyze-notes.md, the seventh pass) has the figures.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_analyze import simulated_log

from coloretto_log.bots import players as bots
from coloretto_log.bots.evaluate import evaluate_many
from coloretto_log.bots.playout import Start
from coloretto_log.coach import analyze as A
from coloretto_log.coach import estimate as E
from coloretto_log.coach import every_order
from coloretto_log.core.cards import KINDS, LAST_ROUND
from coloretto_log.core.engine import Table
from coloretto_log.core.rng import MASK64, nth_output

DECISIONS = "3:11:14:row,5:3:7:draw-or-take,4:7:6:row,3:11:32:draw-or-take"


class Walker:
    """One decision's playouts, card by card, with the luck of every card (the evaluator's values cached by
    position)."""

    def __init__(self, start: Start) -> None:
        self.start = start
        self.state = start.state
        self.seat = start.state.current
        self.stop = start.stop_round()
        self.unseen = sum(start.state.remaining)
        self.values: dict[tuple[object, ...], float] = {}
        self.valuing = 0.0  # CPU seconds in the evaluator

    def value(self, table: Table) -> float:
        """The chance of winning of the player deciding: the evaluator's, or the real one of a finished game."""
        key = E._key(table)
        got = self.values.get(key)
        if got is None:
            if table.over:
                scores = bots.scores_for(self.state)
                s = [scores[bots.pack(c)] for c in table.collections]
                got = 1.0 if s[self.seat] == max(s) else 0.0
            else:
                t = time.process_time()
                got = evaluate_many([table])[0].win[self.seat]
                self.valuing += time.process_time() - t
            self.values[key] = got
        return got

    def play(self, choice: tuple[str, int], deck: list[str]) -> tuple[float, float]:
        """The value where ``choice``'s playout on ``deck`` stops, and the luck of the cards it met: the playout
        walked as ``every_order`` walks every order, one card at a time, along the cards of ``deck``."""
        table, waiting = every_order.after_choice(self.start, choice, self.stop)
        luck = 0.0
        cards = iter(c for c in deck if c != LAST_ROUND)
        while waiting is not None:
            left = sum(table.remaining)
            last_round = every_order.last_round_due(table, self.unseen, self.start.lr_at)
            children = {}
            for k, n in enumerate(table.remaining):
                if n:
                    after = every_order.turned_up(table, waiting, KINDS[k], last_round)
                    children[KINDS[k]] = (n / left, after, every_order.until_card(after, self.stop))
            expected = sum(p * self.value(after) for p, after, _ in children.values())
            _, table, waiting = children[next(cards)]
            luck += self.value(table) - expected
        return self.value(table), luck


def measure(spec: str, orders: int, seed: int) -> None:
    players, game_seed, move, decision = spec.split(":")
    item = simulated_log(int(players), int(game_seed))
    task = next(t for t in A.tasks_of_match(item.report, 1, 0) if (t.move, t.decision) == (int(move), decision))
    start = Start(task.state, task.card, task.last_round)
    reps, cls = A._distinct(start.state, start.choices())
    played = cls[task.played]
    ev = A.evaluate(task, A.Settings(seed=0))
    other = ev.best if ev.best != played else max((k for k in range(len(reps)) if k != played),
                                                  key=lambda k: ev.choices[k].win_prob)
    walker = Walker(start)
    need = start.need(walker.stop)
    offset = nth_output(seed, 0)
    diffs, lucks = [], []
    today = walking = 0.0  # CPU seconds: today's playouts and their values; the walk with the luck
    scores = bots.scores_for(start.state)
    valued: dict[tuple[object, ...], tuple[tuple[float, ...], float]] = {}
    for k in range(orders):  # the orders the analysis draws (the first card stratified)
        deck = start.deal(nth_output(seed, k + 1), need, (offset + k * E._PHI) & MASK64)
        t = time.process_time()
        tables = [start.play_to(reps[c], deck, walker.stop) for c in (other, played)]
        E._outcomes(tables, walker.seat, scores, bots.pack, True, valued)  # (the analysis values 32 orders at once)
        today += time.process_time() - t
        t = time.process_time()
        w_other, luck_other = walker.play(reps[other], deck)
        w_played, luck_played = walker.play(reps[played], deck)
        walking += time.process_time() - t
        diffs.append(w_other - w_played)
        lucks.append(luck_other - luck_played)
    sd = statistics.pstdev(diffs)
    less = [d - u for d, u in zip(diffs, lucks)]
    beta = statistics.covariance(diffs, lucks) / statistics.variance(lucks)
    fitted = [d - beta * u for d, u in zip(diffs, lucks)]
    print(f"{spec}: {A.choice_label(reps[other])} against {A.choice_label(reps[played])} (played), "
          f"chance lost at the defaults {ev.chance:.4f}")
    print(f"  today:          mean {statistics.mean(diffs):.4f}, standard deviation {sd:.4f}")
    print(f"  less the luck:  mean {statistics.mean(less):.4f}, standard deviation {statistics.pstdev(less):.4f} "
          f"(variance x{(statistics.pstdev(less) / sd) ** 2:.2f})")
    print(f"  less {beta:.2f} x the luck (least squares): standard deviation {statistics.pstdev(fitted):.4f} "
          f"(variance x{(statistics.pstdev(fitted) / sd) ** 2:.2f})")
    print(f"  positions valued: {len(walker.values) / (2 * orders):.1f} an order and choice (today 1); "
          f"standard error of today's mean {sd / math.sqrt(orders):.4f}")
    print(f"  CPU an order: today {1000 * today / orders:.2f} ms; with the luck {1000 * walking / orders:.2f} ms, "
          f"of which the walk without the evaluator {1000 * (walking - walker.valuing) / orders:.2f} ms "
          f"({(walking - walker.valuing) / today:.1f}x today's all in)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", default=DECISIONS, help="players:seed:move:decision,... (default: %(default)s)")
    parser.add_argument("--orders", type=int, default=1000, help="orders sampled a decision (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=777, help="the orders' seed (default: %(default)s)")
    args = parser.parse_args()
    for spec in args.decisions.split(","):
        measure(spec, args.orders, args.seed)


if __name__ == "__main__":
    main()
