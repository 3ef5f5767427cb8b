"""A simulated club for the ratings tests and benchmark: named players, each a bot, at changing tables.

Every match draws its table (2 to 5 players, or a fixed size) from the
roster with its own generator, plays it with ``bots.simulate`` (seeded, so
the same arguments give the same logs) and names the seats after the
players, so a player meets many opponents, as at a club. Dates run one
match after another over ``days`` days from ``start``.
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from coloretto_log.bots.simulate import make_plan, play_match
from coloretto_log.log.writer import match_json, move_json, setup_json

#: A small club: three of each bot.
ROSTER: dict[str, str] = {
    "Aiko": "strong", "Boris": "strong", "Chloe": "strong",
    "Dae": "greedy", "Emil": "greedy", "Fumi": "greedy",
    "Gus": "random", "Hana": "random", "Ivo": "random",
}
#: Its regular tables: who usually plays with whom (the strong three with a greedy player; a
#: greedy player among the random ones wins most of their own games).
CIRCLES: tuple[tuple[str, ...], ...] = (
    ("Aiko", "Boris", "Chloe", "Dae"),
    ("Emil", "Gus", "Hana"),
    ("Fumi", "Ivo", "Hana", "Gus"),
)


def club_matches(
    count: int,
    *,
    roster: Mapping[str, str | float] = ROSTER,
    seed: int = 1,
    games: int = 1,
    sizes: Sequence[int] = (2, 3, 4, 5),
    start: _dt.date = _dt.date(2025, 1, 1),
    days: int = 365,
    first: int = 0,
    circles: Sequence[Sequence[str]] = (),
    mix: float = 0.3,
    span: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Matches ``first`` to ``first + count - 1`` of the club (each one's table from its own generator).

    With ``circles``, a match is drawn from one circle (2 players or more of
    it) except for a share ``mix`` of matches drawn from the whole roster.
    ``span``: the number of matches the ``days`` are spread over (default
    ``first + count``). A player whose roster entry is a number p plays a match as the greedy bot
    with chance p, else as the random one: a skill between the two.
    """
    names = sorted(roster)
    for i in range(first, first + count):
        rng = random.Random(seed * 1_000_003 + i)
        pool = names if not circles or rng.random() < mix else sorted(rng.choice(list(circles)))
        n = min(rng.choice(list(sizes)), len(pool))
        table = rng.sample(pool, n)
        bots = [_bot(roster[p], rng) for p in table]
        plan = make_plan(players=n, bots=bots, games=games, seed=seed)
        played = play_match(plan, i)
        logs = [
            {"setup": setup_json(g.setup, table, explicit=False), "moves": [move_json(m, table, cards=False) for m in g.moves]}
            for g in played.games
        ]
        day = start + _dt.timedelta(days=(i * days) // max(span or count + first, 1))
        yield match_json(rules=plan.rules, players=table, games=logs, seed=played.seed, date=day.isoformat())


def _bot(entry: str | float, rng: random.Random) -> str:
    if isinstance(entry, str):
        return entry
    return "greedy" if rng.random() < entry else "random"
