"""Decisions to explain that do not depend on the estimator: every decision of sample games, at its real
position, with every choice given made-up values (a seeded ``random.Random``), so that the explanation's
words, and only they, are what a test compares."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from coloretto_log.core.cards import KINDS
from coloretto_log.core.engine import GameState
from coloretto_log.log.load import LoadedMatch, load
from coloretto_log.play.analyze import choice_label, tasks_of_match
from coloretto_log.play.estimate import ChoiceValue, Evaluation
from coloretto_log.play.playout import Start

from ..conftest import SAMPLES

#: The logs whose decisions are explained (2, 3 and 4 players, both editions).
LOGS = ("classic-2p-recorded-game.json", "anniversary-3p-golden-joker-after-last-round-card.json",
        "anniversary-4p-golden-joker.json")
GOLDEN = Path(__file__).parent / "data" / "explain-en.txt"


@dataclass(frozen=True)
class Case:
    where: str  # "FILE game G move M DECISION"
    ev: Evaluation
    state: GameState
    card: str | None
    seat: int
    players: tuple[str, ...]
    loss: float
    loss_se: float


def cases() -> Iterator[Case]:
    for name in LOGS:
        (item,) = [m for m in load([str(SAMPLES / name)]) if isinstance(m, LoadedMatch)]
        players = item.report.players
        for task in tasks_of_match(item.report, 1, 0):
            rng = random.Random(f"{name}:{task.game}:{task.move}:{task.decision}")
            choices = Start(task.state, task.card, task.last_round).choices()
            if len(choices) < 2:
                continue
            exact = rng.random() < 0.15
            values = []
            for c in choices:
                margin = round(rng.uniform(-8, 8), 2)
                cards = () if exact else tuple(round(rng.uniform(0, 6), 2) for _ in KINDS)
                values.append(ChoiceValue(choice_label(c), margin, 0.0 if exact else round(rng.uniform(0, 2), 2),
                                          round(rng.random(), 3), 0.0, (margin,) * task.state.players, cards))
            played = choices.index(task.played)
            best = max(range(len(values)), key=lambda k: (values[k].margin, -k))
            loss = values[best].margin - values[played].margin
            loss_se = 0.0 if exact else round(rng.uniform(0, 2), 2)
            ev = Evaluation(tuple(values), played, best, loss, loss_se, 0 if exact else 64, exact)
            yield Case(f"{name} game {task.game} move {task.move} {task.decision}", ev, task.state, task.card,
                       task.seat, players, loss, loss_se)
