"""The two experts: ``expert`` on the evaluator, ``expert-mc`` on the analysis's playouts.

``expert`` (``ExpertBot``) plays every choice open to it out on ``ROLLOUTS``
(32) orders of the unseen cards (one number of the seat's generator seeds
them), the next turn by ``strong``, every seat then ``greedy``, to the end of the round (to the end of the
game once the last-round card is due within a round of cards), and the
evaluator (``bots.evaluate``) says what each position reached is worth to
every seat, expected final margin and chance of winning
(``search.rollout_values``). With ``samples=0`` it looks one decision deep
instead (``search.choice_values``: a take, the position after it; a draw,
every card that may come, by how many are unseen, in the player's best row):
measured weaker (docs/design/evaluator.md). With ``most`` above ``samples`` it
races instead, as ``expert-mc`` does: batches of ``samples`` orders up to
``most``, a choice dropped once it trails by more than ``z`` standard errors
(``survivors``); off by default (measured no stronger). With ``blend`` above 0
each playout also goes on, greedily, to the end of the game, and its value mixes
the evaluator's at the end of the round with the real one at the end
(``search.rollout_samples``). The first ``replies`` turns of each playout
after the choice (``REPLIES``, 1: the next player's, and the row of the
player's own card drawn) are played by ``by`` (``REPLY_POLICY``, ``strong``;
or ``one-ply``: the evaluator one decision deep) instead of ``greedy``
(``search.play_replies``): measured stronger than all-greedy playouts
(docs/design/evaluator.md, round 4). It plays the choice with the best
win chance plus ``search.MARGIN_WEIGHT`` times the margin; ties to the first. Where the exact
search applies and is small (``searched_exactly``, below) it plays the exact
best, as ``expert-mc`` does. How strong and how fast: docs/simulate.md.

``expert-mc`` (``PlayoutExpertBot``), the expert of issue 18, kept to
measure ``expert`` against:

At each decision (draw or take; the row for a card turned over) it values
every choice open to it the way ``analyze`` does, by the expected final
**margin** (own score less the mean of the others') of the whole game:

- **exact**, where the analysis's exact search applies (``exact.applies``:
  the last round, few places left in the rows) and its tree is small
  (``searched_exactly``): every order of the unseen cards, best play by
  everyone; the best value wins, ties to the first choice;
- **sampled** elsewhere: orders of the unseen cards drawn from what is public
  (``playout.Start.deal``: the composition of the cards not yet turned over,
  the last-round card where the rules put it; never the real order), each
  choice played out on the *same* orders (common random numbers), every seat
  then following ``greedy`` (``playout.Start.play``). It samples in batches
  and drops a choice as soon as it trails the leader by more than ``Z``
  standard errors of their paired difference (a race), so a decision where
  one choice dominates costs one batch; it stops when one choice is left or
  after ``samples`` orders, and plays the best mean (ties to the first).

Choices that lead to the same position (two rows holding the same cards
under the same limit) are valued once, the lower row standing for both;
a decision with one such choice costs nothing.

Random numbers: one 64-bit output of the ``rng`` passed in per valued
decision seeds that decision's orders (the k-th order from the k-th output
of ``SplitMix64(seed)``), so a game replays from the seat's generator, as
with the other bots, whatever ``simulate --jobs`` is. Nothing is kept
between calls.

The playouts and the exact search are the analysis's own (``bots.playout``,
``bots.exact``), reached through ``public_position``, ``_sampled_margin`` and
``_exact_margins`` below only: one place to follow if they change.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..core.engine import GameState, Table, Take, View
from ..core.rng import SplitMix64, nth_output
from . import exact as exact_search
from . import search
from .evaluate.model import Model
from .players import Scores, hidden, scores_for
from .playout import Choice, Start

__all__ = [
    "BATCH",
    "EXACT_WORK",
    "MIN_SAMPLES",
    "REPLIES",
    "REPLY_POLICY",
    "ROLLOUTS",
    "SAMPLES",
    "ExpertBot",
    "PlayoutExpertBot",
    "Z",
    "distinct",
    "public_position",
    "searched_exactly",
    "survivors",
]

#: ``expert``: orders of the unseen cards a decision, each choice played out on every one (0: one decision deep).
ROLLOUTS = 32
#: ``expert``: turns after the choice played in each playout by ``REPLY_POLICY`` instead of ``greedy``.
REPLIES = 1
#: ``expert``: who plays those turns (``search.play_replies``): ``strong`` (round 4 of docs/design/evaluator.md).
REPLY_POLICY = "strong"
#: ``expert-mc``: at most this many sampled orders per decision.
SAMPLES = 256
#: Orders are drawn in batches of this many; a choice may be dropped after each batch ...
BATCH = 16
#: ... once at least this many have been played.
MIN_SAMPLES = 16
#: A choice is dropped when it trails the leader by more than ``Z`` standard errors.
Z = 3.0
#: The exact search only where the places left in the rows and the players still in the round
#: number at most this many together: with 4 places and 3 players one search can take 1.5 s.
EXACT_WORK = 6


# --------------------------------------------------------------------------- the analysis's machinery


def public_position(view: View, card: str | None) -> Start:
    """The public position of a decision. ``view`` is what the bot is shown: for a row
    decision the card is turned over already (``Start`` would turn it over again)."""
    state = view.state() if isinstance(view, Table) else view
    assert isinstance(state, GameState)
    start = Start(hidden(state))
    start.card = card
    return start


def _exact_margins(start: Start, choices: list[Choice]) -> list[Fraction | int]:
    """Each choice's exact expected margin for the player to move (exact numbers: ties are true ties)."""
    seat = start.state.current
    return [v[seat] for v in exact_search.choice_values(start, choices)]


def _sampled_margin(start: Start, scores: Scores, choice: Choice, deck: list[str]) -> float:
    """The margin of the player to move after ``choice`` and greedy play on the order ``deck``."""
    return exact_search.final_vector(scores, start.play(choice, deck))[start.state.current]


# --------------------------------------------------------------------------- choosing


def searched_exactly(start: Start) -> bool:
    """Whether the expert searches ``start`` exactly: where the analysis would (``exact.applies``)
    and the tree is small (places left plus players in the round at most ``EXACT_WORK``)."""
    if not exact_search.applies(start):
        return False
    state = start.state
    free = sum(lim - len(r) for lim, r, t in zip(state.limits, state.rows, state.taken) if not t)
    return free + state.done.count(False) <= EXACT_WORK


def distinct(start: Start) -> list[Choice]:
    """The choices open at ``start``, one per position they lead to (the first standing for the rest)."""
    state = start.state
    rows, limits = state.rows, state.limits
    seen: set[tuple[object, ...]] = set()
    out: list[Choice] = []
    for c in start.choices():
        kind, i = c
        key: tuple[object, ...] = (kind,) if kind == "draw" else (kind, tuple(sorted(rows[i])), limits[i])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def survivors(values: list[list[float]], alive: list[int], n: int, z: float) -> list[int]:
    """The choices of ``alive`` not yet behind the leader (the best sum of its ``n`` values) by more than ``z``
    standard errors of their paired difference."""
    leader = max(alive, key=lambda c: (sum(values[c]), -c))
    top = values[leader]
    out = []
    for c in alive:
        if c == leader:
            out.append(c)
            continue
        diffs = [a - b for a, b in zip(top, values[c])]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        if mean <= z * math.sqrt(var / n):
            out.append(c)
    return out


class _PositionBot:
    """A bot that picks its choice from the public position alone: a forced choice as it is, the exact best where
    the exact search is small (``exact``), else its own ``sampled`` pick; the bots' interface on it."""

    exact = True

    def best(self, start: Start, rng: SplitMix64) -> Choice:
        """The choice to play at ``start``: draws one number from ``rng`` unless the choice is forced
        or the search is exact."""
        choices = distinct(start)
        if len(choices) == 1:
            return choices[0]
        if self.exact and searched_exactly(start):
            values = _exact_margins(start, choices)
            return choices[max(range(len(choices)), key=lambda k: (values[k], -k))]
        return choices[self.sampled(start, choices, rng)]

    def sampled(self, start: Start, choices: list[Choice], rng: SplitMix64) -> int:
        raise NotImplementedError

    def choose(self, view: View, rng: SplitMix64) -> Take | None:
        start = public_position(view, None)
        kind, i = self.best(start, rng)
        return None if kind == "draw" else Take(start.state.current, i + 1)

    def place(self, view: View, card: str, rng: SplitMix64) -> int:
        return self.best(public_position(view, card), rng)[1] + 1


class PlayoutExpertBot(_PositionBot):
    """``expert-mc``: plays the choice with the best expected final margin: the exact search at the end of
    the game, a race of sampled greedy playouts elsewhere (see the module's docstring)."""

    name = "expert-mc"

    def __init__(self, samples: int = SAMPLES, batch: int = BATCH, min_samples: int = MIN_SAMPLES,
                 z: float = Z, exact: bool = True) -> None:
        if samples < 1 or batch < 1:
            raise ValueError("samples and batch must be at least 1")
        self.samples = samples
        self.batch = batch
        self.min_samples = min_samples
        self.z = z
        self.exact = exact

    def sampled(self, start: Start, choices: list[Choice], rng: SplitMix64) -> int:
        return self.race(start, choices, rng.next())

    def race(self, start: Start, choices: list[Choice], seed: int) -> int:
        """The index of the best sampled choice; the k-th order comes from the k-th output of ``seed``."""
        scores = scores_for(start.state)
        need = start.need()
        margins: list[list[float]] = [[] for _ in choices]
        alive = list(range(len(choices)))
        n = 0
        while n < self.samples and len(alive) > 1:
            for k in range(n, min(n + self.batch, self.samples)):
                deck = start.deal(nth_output(seed, k + 1), need)
                for c in alive:
                    margins[c].append(_sampled_margin(start, scores, choices[c], deck))
            n = len(margins[alive[0]])
            if n >= self.min_samples:
                alive = survivors(margins, alive, n, self.z)
        return max(alive, key=lambda c: (sum(margins[c]), -c))

class ExpertBot(_PositionBot):
    """``expert``: one decision deep on the evaluator (``bots.search``), the exact search at the end."""

    name = "expert"

    def __init__(self, exact: bool = True, samples: int = ROLLOUTS, margin_weight: float = search.MARGIN_WEIGHT,
                 model: Model | None = None, most: int | None = None, z: float = Z, blend: float = 0.0,
                 replies: int = REPLIES, by: str = REPLY_POLICY) -> None:
        self.exact = exact
        self.samples = samples
        self.margin_weight = margin_weight
        self.model = model  # the evaluator's weights (None: the shipped ones)
        self.most = samples if most is None else max(most, samples)  # a race in batches of ``samples`` up to this
        self.z = z
        self.blend = blend  # the weight of a greedy playout to the end of the game beside the evaluator
        self.replies = replies  # turns after the choice played by ``by``, not greedily
        self.by = by  # who plays those turns: "one-ply" (the evaluator) or "strong"

    def sampled(self, start: Start, choices: list[Choice], rng: SplitMix64) -> int:
        seat = start.state.current
        if not self.samples:
            values = search.choice_values(start, choices, self.margin_weight, self.model)
            return max(range(len(choices)), key=lambda k: (search.objective(values[k], seat, self.margin_weight), -k))
        seed = rng.next()
        got: list[list[float]] = [[] for _ in choices]
        alive = list(range(len(choices)))
        n = 0
        while n < self.most and len(alive) > 1:
            orders = range(n, min(n + self.samples, self.most))
            batch = search.rollout_samples(start, [choices[c] for c in alive], seed, orders, self.model,
                                           self.blend, self.replies, self.by)
            for c, vs in zip(alive, batch):
                got[c].extend(search.objective(v, seat, self.margin_weight) for v in vs)
            n = len(got[alive[0]])
            if n < self.most:
                alive = survivors(got, alive, n, self.z)
        return max(alive, key=lambda c: (sum(got[c]), -c))
