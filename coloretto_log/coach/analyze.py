"""What each decision was worth: every decision of a game, valued from what the player could see.

A turn has two decisions (docs/rules-of-play.md §3): *draw or take* (before the card is
seen) and, after a draw, the *row* for the card turned over. For each, every
choice open to the player is valued by its expected final **margin** (the
player's final score less the mean of the others') and its probability of
winning the game (a shared first place counts as a win), with standard
errors:

- **sampled** (``estimate``): orders of the unseen cards, each drawn
  uniformly from what is public (the deck's composition less every card
  seen, the last-round card where the rules put it: ``under`` cards from the
  bottom); every choice is played out on the *same* orders (common random
  numbers), every seat following the ``greedy`` bot's policy (``playout``).
  The loss is cross-fitted (the best picked on one half of the samples,
  measured on the other), with a standard error even when the played choice
  looks best; sampling stops once the loss is precise, the best told apart
  and the mark settled (``marks``), or at ``samples`` (a mark still on its
  line then samples on, up to ``EXTEND`` times as many, for the mark alone);
  where the playouts can meet few orders of the cards, every one of them is
  counted instead (``every_order``: the same values without sampling error);
- **exact** (``exact``): in the last round with at most ``EXACT_SLOTS``
  places left in the rows, every order of the unseen cards and best play by
  everyone (max-n expectimax) on exact numbers; standard errors are 0.

The real order of a seeded game's deck is never read: positions are built
from ``GameState`` fields that every player sees.

Choices that lead to the same position (two rows with the same cards and the
same limit) are one choice, valued once. A decision with one choice is
*forced*: loss 0, no mark, no playouts.

Every value comes from one source, ``VALUE`` (a ``ValueSource``: today ``playouts``, the exact search
at the end and the sampled playouts elsewhere); another evaluator is swapped in there.

Marks (``marks.mark_for``) go by the winning chance lost (``chance_loss``), as lichess marks by the
win % lost: the chance of winning the match where one is under way (``match``: each game of a match with
its ``MatchContext``, ``match_contexts``), else the game's; the best is the highest such chance, the margin
breaking ties within the noise (``marks.pick``); a decision whose played and best choices are within their
noise is ``about_equal`` and unmarked (``judge``); near a line, ``Decision.mark_label`` says both marks.
Why, in words: ``explain``; error rate, accuracy, luck and skill: ``luck``.
``best_choice`` gives the best choice of any position (for a bot).

Every decision's samples come from a seed derived from (seed, match, game,
move, decision) alone, so the numbers are the same whatever ``jobs`` is.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from multiprocessing.pool import Pool
from typing import Any, Protocol

from ..bots import exact as exact_search
from ..bots.players import final_scores
from ..bots.playout import Choice, Start
from ..core.cards import KINDS
from ..core.engine import Draw, GameState, Move, Take
from ..core.errors import Finding
from ..core.rng import MASK64, nth_output
from ..log.load import LoadedMatch
from ..log.replay import MatchReport
from .estimate import BATCH, EXTEND, MIN_SAMPLES, ChoiceValue, Evaluation, sample
from .explain import explain_decision, ranked
from .luck import Standing, final_margins, standings
from .marks import EQUAL_CHANCE, THRESHOLDS, about_equal, mark_certain, mark_for, mark_label, pick
from .match import MatchContext, context_for, share_left

__all__ = [
    "BATCH",
    "DEFAULT_MAX_SE",
    "DEFAULT_SAMPLES",
    "EXTEND",
    "HORIZON",
    "MIN_SAMPLES",
    "POLICY",
    "START_SAMPLES",
    "THRESHOLDS",
    "VALUE",
    "ChoiceValue",
    "Decision",
    "Evaluation",
    "GameOutcome",
    "MatchAnalysis",
    "PlayerSummary",
    "Progress",
    "Settings",
    "Task",
    "ValueSource",
    "analyze",
    "analyze_match",
    "best_choice",
    "choice_label",
    "decision_json",
    "decision_seed",
    "evaluate",
    "explanation_of",
    "game_outcomes",
    "judge",
    "mark_for",
    "match_before",
    "match_contexts",
    "match_standing",
    "playouts",
    "settings_json",
    "start_margins",
    "summarise",
    "summary_json",
    "table_json",
    "tasks_of_game",
    "tasks_of_match",
    "usable_cores",
    "worker_pool",
]

#: The policy every seat follows in the playouts.
POLICY = "greedy"
#: How far the playouts go (``Settings.to_round``), the evaluator valuing the position there.
HORIZON = "the end of the round, then the evaluator (to the end of the game near it)"
#: At most this many sampled orders per decision (``--samples``).
DEFAULT_SAMPLES = 2000
#: Sampling stops once the loss is this precise (points) and the best choice is told apart.
DEFAULT_MAX_SE = 0.5

_SALT = 0x616E616C797A6521  # "analyze!"

DecisionKind = str  # "draw-or-take" or "row"


def choice_label(choice: Choice) -> str:
    """``draw``, ``take row 2``, ``row 3``: rows counted from 1."""
    kind, i = choice
    if kind == "draw":
        return "draw"
    return f"take row {i + 1}" if kind == "take" else f"row {i + 1}"


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard to look."""

    samples: int = DEFAULT_SAMPLES  # most sampled orders per decision
    seed: int = 0
    max_se: float = DEFAULT_MAX_SE  # 0: always take ``samples``
    exact: bool = True  # search exactly where ``exact.applies``, count every order where few (False: sample)
    to_round: bool = True  # playouts to the end of the round, the evaluator there (False: to the end of the game)


@dataclass(frozen=True, slots=True)
class Task:
    """One decision to value: the public position and what was played."""

    game: int  # from 1
    move: int  # from 1
    seat: int
    decision: DecisionKind
    state: GameState  # the position before the move
    card: str | None  # the row decision: the card turned over
    last_round: bool  # the row decision: the last-round card came out first
    played: Choice
    seed: int  # this decision's own seed
    match: MatchContext | None = None  # where a match is under way (``match.context_for``), else None: the game alone

    def weight(self) -> float:
        """A rough cost, for the time left: playouts are as long as the cards left."""
        return 1.0 + len(self.state.rows) * max(1, self.state.cards_left)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a game, valued."""

    game: int
    move: int
    seat: int
    decision: DecisionKind
    state: GameState
    card: str | None
    played: str
    best: str
    loss: float
    loss_se: float
    mark: str | None
    evaluation: Evaluation
    chance_loss: float = 0.0  # the winning chance lost (0 to 1): 0 when forced, best, or about equal
    about_equal: bool = False  # the played choice and the best (or the runner-up) within their noise
    last_round: bool = False  # the row decision: the last-round card came out first
    match: MatchContext | None = None  # the match under way (None: the game alone)

    @property
    def mark_certain(self) -> bool:
        """No threshold of the marks within one standard error of the chance lost (``marks.mark_certain``)."""
        return self.chance_loss <= 0 or mark_certain(self.chance_loss, self.evaluation.chance_se)

    @property
    def mark_label(self) -> str | None:
        """The mark as said: ``mistake``, or near a line ``inaccuracy–mistake``, ``mistake?``."""
        if self.chance_loss <= 0:
            return self.mark
        return mark_label(self.chance_loss, self.evaluation.chance_se)

    @property
    def forced(self) -> bool:
        return self.evaluation.forced

    @property
    def margins(self) -> tuple[float, ...]:
        """Every seat's expected final margin after the played choice."""
        return self.evaluation.choices[self.evaluation.played].margins


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    seat: int
    decisions: int  # not forced
    forced: int
    mean_loss: float
    total_loss: float
    marks: dict[str, int]
    costliest: tuple[Decision, ...]
    standing: Standing | None = None  # error rate, accuracy, luck, skill over the games summarised
    games: tuple[tuple[int, Standing], ...] = ()  # per game: (game number, standing)
    match: Standing | None = None  # the match's own chain (``match_standing``), where one is played


# --------------------------------------------------------------------------- seeds


def decision_seed(seed: int, match: int, game: int, move: int, decision: int) -> int:
    """The seed of one decision: a SplitMix64 chain over (seed, match, game, move, decision), all from 1."""
    s = nth_output((seed ^ _SALT) & MASK64, match)
    s = nth_output(s, game)
    s = nth_output(s, move)
    return nth_output(s, decision)


# --------------------------------------------------------------------------- choices


def _distinct(state: GameState, choices: list[Choice]) -> tuple[list[Choice], dict[Choice, int]]:
    """One choice per class of choices that lead to the same position up to the order of rows,
    and the class of each choice."""
    reps: list[Choice] = []
    keys: dict[tuple[object, ...], int] = {}
    cls: dict[Choice, int] = {}
    rows, limits = state.rows, state.limits
    for c in choices:
        kind, i = c
        key: tuple[object, ...] = (kind,) if kind == "draw" else (kind, tuple(sorted(rows[i])), limits[i])
        if key not in keys:
            keys[key] = len(reps)
            reps.append(c)
        cls[c] = keys[key]
    return reps, cls


# --------------------------------------------------------------------------- evaluation


def evaluate(task: Task, settings: Settings) -> Evaluation:
    """Value every choice of ``task``'s decision (see the module's docstring)."""
    start = Start(task.state, task.card, task.last_round)
    return _evaluate(start, task.played, task.seed, settings, task.match)[0]


def best_choice(
    state: GameState,
    settings: Settings,
    *,
    card: str | None = None,
    last_round: bool = False,
    seed: int = 0,
    turned: bool = False,
) -> tuple[Choice, Evaluation]:
    """The best choice for ``state.current`` by the analysis, and every choice's value.

    ``card``: the card just turned over (a row decision; ``last_round``: the
    last-round card came out first), else the draw-or-take decision. Returns
    ``("draw", -1)``, ``("take", i)`` or ``("row", i)`` (row *index*, from 0)
    and the ``Evaluation`` (whose ``played`` is the first choice). Reads only
    what every player sees (the deck's order is dropped); ``seed`` draws the
    sampled orders. ``turned``: ``state`` already has ``card`` turned over (a bot's view when it places
    a card), else it is the state before the card came off the deck.
    """
    if turned and card is not None:
        start = Start(state)
        start.card = card
    else:
        start = Start(state, card, last_round)
    first = start.choices()[0]
    ev, reps = _evaluate(start, first, seed, settings)
    return reps[ev.best], ev


class ValueSource(Protocol):
    """Where the value of a position comes from: every (distinct) choice ``reps`` of the decision at ``start``
    valued for every seat (expected final margin, chance of winning), the played one ``played`` (an index of
    ``reps``), with the loss and the chance lost against the best (``estimate.Evaluation``)."""

    def __call__(self, start: Start, reps: list[Choice], labels: list[str], played: int, seed: int,
                 settings: Settings, match: MatchContext | None = None) -> Evaluation: ...


def playouts(start: Start, reps: list[Choice], labels: list[str], played: int, seed: int,
             settings: Settings, match: MatchContext | None = None) -> Evaluation:
    """Today's values: the exact search at the end of a game (``exact``), elsewhere sampled orders of the unseen
    cards played out greedily (``estimate``); ``match``: the chance of winning the match beside the game's
    (for the exact search, from its expected margins with the rest of the game as ``match`` models it)."""
    if settings.exact and exact_search.applies(start):
        state = start.state
        players = state.players
        seat = state.current
        vectors = exact_search.choice_values(start, reps)
        share = share_left(state.turned, state.lr_expected_at, state.over)
        values = tuple(
            ChoiceValue(labels[k], float(v[seat]), 0.0, float(v[players + seat]), 0.0,
                        tuple(float(x) for x in v[:players]), (),
                        math.nan if match is None else match.chance([float(x) for x in v[:players]], seat, share))
            for k, v in enumerate(vectors)
        )
        # on exact values (the margins as fractions): ties by the rule, not by rounding
        best = pick([v[seat] for v in vectors], [c.chance for c in values], [EQUAL_CHANCE] * len(values), played)
        loss = float(vectors[best][seat] - vectors[played][seat])  # < 0 where the best by chance has less margin
        chance = values[best].chance - values[played].chance
        return Evaluation(values, played, best, max(0.0, loss), 0.0, 0, True, loss, chance, 0.0)
    return sample(start, reps, labels, played, seed, samples=settings.samples, max_se=settings.max_se,
                  to_round=settings.to_round, count=settings.exact, match=match)


#: The one source of every value the analysis reads (a decision's choices, luck and skill, the explanations):
#: swap in another evaluator here.
VALUE: ValueSource = playouts


def _evaluate(start: Start, played_choice: Choice, seed: int, settings: Settings,
              match: MatchContext | None = None) -> tuple[Evaluation, list[Choice]]:
    all_choices = start.choices()
    if played_choice not in all_choices:  # a legal move always is; keep going if the deck is odd
        all_choices.append(played_choice)
    reps, cls = _distinct(start.state, all_choices)
    played = cls[played_choice]
    labels = [choice_label(c) for c in reps]
    if len(reps) == 1:
        zero = ChoiceValue(labels[0], math.nan, 0.0, math.nan, 0.0, ())
        return Evaluation((zero,), 0, 0, 0.0, 0.0, 0, False), reps
    return VALUE(start, reps, labels, played, seed, settings, match), reps


# --------------------------------------------------------------------------- a game's decisions


def tasks_of_game(
    states: list[tuple[Move, GameState]], game: int, match: int, seed: int, seats: set[int] | None = None,
    context: MatchContext | None = None,
) -> list[Task]:
    """The decisions of one game: ``states`` holds each resolved move (numbered from 1) with the
    state it was played in. ``seats``: only these players' decisions; ``context``: the match under way."""
    out: list[Task] = []
    for number, (move, before) in enumerate(states, start=1):
        if before.over or (seats is not None and move.seat not in seats):
            continue
        if isinstance(move, Take):
            played: Choice = ("take", move.row - 1)
            out.append(Task(game, number, move.seat, "draw-or-take", before, None, False, played,
                            decision_seed(seed, match, game, number, 1), context))
            continue
        assert isinstance(move, Draw) and move.card is not None
        out.append(Task(game, number, move.seat, "draw-or-take", before, None, False, ("draw", -1),
                        decision_seed(seed, match, game, number, 1), context))
        out.append(Task(game, number, move.seat, "row", before, move.card, bool(move.last_round),
                        ("row", move.row - 1), decision_seed(seed, match, game, number, 2), context))
    return out


def judge(ev: Evaluation) -> tuple[float, bool, str | None]:
    """A valued decision's chance lost, whether it is about equal, and its mark (``marks``): the played choice
    against the best, or where it is the best, against the runner-up (about equal only)."""
    if ev.forced:
        return 0.0, False, None
    played = ev.choices[ev.played]
    if ev.best != ev.played:
        equal = about_equal(ev.loss, ev.loss_se, ev.chance, ev.chance_se)
        chance = 0.0 if equal else max(0.0, ev.chance)
        return chance, equal, mark_for(chance)
    runner = max((k for k in range(len(ev.choices)) if k != ev.played), key=lambda k: (ev.choices[k].margin, -k))
    other = ev.choices[runner]
    equal = about_equal(played.margin - other.margin, ev.loss_se, played.chance - other.chance, ev.chance_se)
    return 0.0, equal, None


def _decision(task: Task, ev: Evaluation) -> Decision:
    chance, equal, mark = judge(ev)
    played = choice_label(task.played)
    return Decision(
        task.game, task.move, task.seat, task.decision, task.state, task.card, played,
        ev.choices[ev.best].choice if ev.best != ev.played else played,
        ev.loss, ev.loss_se, mark, ev, chance, equal, task.last_round, task.match,
    )


def _run_task(args: tuple[Task, Settings]) -> Evaluation:
    return evaluate(*args)


@dataclass
class Progress:
    """Where a run is: decisions done, and the time left by the work done so far."""

    done: int
    total: int
    elapsed: float
    left: float | None  # seconds, None until a first estimate
    game: int = 0  # the game (from 1) of the decision just valued; 0: none yet


def usable_cores() -> int:
    """The cores this process may run on (``--jobs`` is capped there)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


@contextmanager
def worker_pool(jobs: int) -> Iterator[Pool | None]:
    """Processes for ``analyze`` (at most the cores), opened once for a whole run; None for one job."""
    jobs = min(jobs, usable_cores())
    if jobs <= 1:
        yield None
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(jobs) as pool:
        yield pool


def analyze(
    tasks: list[Task],
    settings: Settings,
    *,
    jobs: int = 1,
    pool: Pool | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Iterator[Decision]:
    """Every task valued, in order; the same numbers whatever ``jobs`` is (or the ``pool`` given)."""
    weights = [t.weight() for t in tasks]
    total_weight = sum(weights) or 1.0
    started = time.monotonic()
    done_weight = 0.0

    def report(k: int) -> None:
        if progress is None:
            return
        elapsed = time.monotonic() - started
        left = elapsed * (total_weight - done_weight) / done_weight if done_weight > 0 else None
        progress(Progress(k, len(tasks), elapsed, left, tasks[k - 1].game if k else 0))

    if pool is None and jobs > 1 and len(tasks) > 1:
        with worker_pool(jobs) as own:
            yield from analyze(tasks, settings, pool=own, progress=progress)
        return
    if pool is None or len(tasks) < 2:
        for k, (task, w) in enumerate(zip(tasks, weights), start=1):
            ev = evaluate(task, settings)
            done_weight += w
            report(k)
            yield _decision(task, ev)
        return
    work = [(t, settings) for t in tasks]
    for k, (task, ev) in enumerate(zip(tasks, pool.imap(_run_task, work, chunksize=1)), start=1):
        done_weight += weights[k - 1]
        report(k)
        yield _decision(task, ev)


# --------------------------------------------------------------------------- per player


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What ``summarise`` needs of a game beyond its decisions: its resolved moves and real final margins."""

    moves: tuple[Move, ...]
    final: tuple[float, ...] | None  # None: the game did not finish
    start: tuple[float, ...] | None = None  # every seat's expected margin before the first move (None: 0)


def match_standing(before: float, games: Sequence[Standing]) -> Standing:
    """One seat's match as one chain, from its games' standings (in order) and its match margin ``before`` the
    first of them (0 at game 1): ``start`` the value before the first move of the first game (``before`` and
    that game's start), ``luck`` the games' luck and the deal of every later game (its start: what its order
    of play and starting cards are worth), ``skill`` and ``others`` the games'; ``margin`` and ``end`` the
    match margin after the last (``before`` and the games' margins). So ``start + luck + skill + others = end``
    for the match as for a game, and ``end`` is the final match margin when every game finished."""
    first, later = games[0], games[1:]
    whole = first
    for st in later:
        whole = whole + st
    margin = None if whole.margin is None else before + whole.margin
    return replace(whole, start=before + first.start, luck=whole.luck + sum(st.start for st in later),
                   margin=margin, end=before + whole.end)


def summarise(
    decisions: list[Decision], players: int, *, costliest: int = 3, games: dict[int, GameOutcome] | None = None,
    seats: set[int] | None = None, before: Sequence[float] | None = None,
) -> list[PlayerSummary]:
    """Per seat: decisions (forced ones apart), mean loss, marks by kind, the costliest decisions; with
    ``games``, each game's error rate, accuracy, start, luck, skill and others (``luck.standings``: they add
    up to the margin) and their sum; ``seats``: the seats whose decisions were valued (None: all); ``before``:
    where a match is played, every seat's match margin before the first game of ``games``: the match as one
    chain (``match_standing``)."""
    per_game: dict[int, list[Standing]] = {}
    for number, outcome in sorted((games or {}).items()):
        mine = [d for d in decisions if d.game == number]
        per_game[number] = standings(mine, players, outcome.moves, outcome.final, seats, outcome.start)
    out: list[PlayerSummary] = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        real = [d for d in mine if not d.forced]
        total = sum(d.loss for d in real)
        marks = {kind: sum(1 for d in real if d.mark == kind) for kind, _ in reversed(THRESHOLDS)}
        worst = sorted(real, key=lambda d: (-d.chance_loss, -d.loss, d.game, d.move, d.decision))[:costliest]
        rows = tuple((number, st[seat]) for number, st in per_game.items())
        whole = None
        for _, st in rows:
            whole = st if whole is None else whole + st
        chain = match_standing(before[seat], [st for _, st in rows]) if before is not None and rows else None
        out.append(PlayerSummary(
            seat, len(real), len(mine) - len(real), total / len(real) if real else 0.0, total, marks,
            tuple(d for d in worst if d.loss > 0 or d.chance_loss > 0), whole, rows, chain,
        ))
    return out


# --------------------------------------------------------------------------- JSON


def _num(x: float, digits: int = 3) -> float | None:
    return None if math.isnan(x) else round(x, digits)


def table_json(state: GameState, card: str | None, players: tuple[str, ...]) -> dict[str, Any]:
    """The table at a decision: rows, collections (counts by card), the card in hand."""
    return {
        "rows": [
            None if state.taken[i] else list(cards) for i, cards in enumerate(state.rows)
        ],
        "collections": {
            players[s]: {k: n for k, n in zip(KINDS, counts) if n} for s, counts in enumerate(state.collections)
        },
        "card": card,
        "cards_left": state.cards_left,
        "round": state.round,
        "last_round": state.last_round,
    }


def decision_json(d: Decision, players: tuple[str, ...], *, explain_all: bool = False) -> dict[str, Any]:
    """One decision in the documented shape (docs/analyze.md); ``explanation`` for a marked decision,
    or for every unforced one with ``explain_all``."""
    ev = d.evaluation
    played, best = ev.choices[ev.played], ev.choices[ev.best]
    why = explanation_of(d, players) if not d.forced and (explain_all or d.mark) else None
    order = ranked(ev) if not d.forced else [0]
    context = d.match
    before = None if context is None else context.margin(d.seat)
    return {
        "game": d.game,
        "move": d.move,
        "player": players[d.seat],
        "decision": d.decision,
        "card": d.card,
        "played": d.played,
        "best": d.best,
        "loss": round(d.loss, 3),
        "loss_se": round(d.loss_se, 3),
        "chance_loss": round(d.chance_loss, 3),
        "chance_se": round(ev.chance_se, 3),
        "about_equal": d.about_equal,
        "mark": d.mark,
        "mark_certain": d.mark_certain,
        "mark_label": d.mark_label,
        "forced": d.forced,
        "exact": ev.exact,
        "samples": ev.samples,
        "margin_played": _num(played.margin),
        "margin_best": _num(best.margin),
        "win_prob_played": _num(played.win_prob),
        "win_prob_best": _num(best.win_prob),
        "match_chance_played": _num(played.match_chance),
        "match_chance_best": _num(best.match_chance),
        "match_margin_played": None if before is None or d.forced else round(before + played.margin, 3),
        "match_margin_best": None if before is None or d.forced else round(before + best.margin, 3),
        "match_lead": None if context is None else round(context.lead(d.seat), 3),
        "margins": None if d.forced else {players[s]: round(x, 3) for s, x in enumerate(d.margins)},
        "choices": [
            {
                "choice": ev.choices[k].choice,
                "margin": _num(ev.choices[k].margin),
                "margin_se": round(ev.choices[k].margin_se, 3),
                "win_prob": _num(ev.choices[k].win_prob),
                "win_prob_se": round(ev.choices[k].win_prob_se, 3),
                "match_chance": _num(ev.choices[k].match_chance),
                "played": k == ev.played,
            }
            for k in order
        ],
        "explanation": why,
        "explanation_parts": None if why is None else list(explain_decision(d, players).parts),
    }


def explanation_of(d: Decision, players: tuple[str, ...]) -> str:
    """Why, in words (``explain.explain``), for an unforced decision."""
    return explain_decision(d, players).text


def _standing_json(st: Standing) -> dict[str, Any]:
    return {
        "decisions": st.decisions,
        "errors": st.errors,
        "error_rate": round(st.error_rate, 3),
        "accuracy": round(st.accuracy, 1),
        "start": round(st.start, 2),
        "luck": round(st.luck, 2),
        "skill": round(st.skill, 2),
        "others": round(st.others, 2),
        "margin": None if st.margin is None else round(st.margin, 2),
        "end": round(st.end, 2),
    }


def summary_json(s: PlayerSummary, players: tuple[str, ...]) -> dict[str, Any]:
    whole = _standing_json(s.standing) if s.standing is not None else {}
    return {
        "player": players[s.seat],
        "decisions": s.decisions,
        "forced": s.forced,
        "mean_loss": round(s.mean_loss, 3),
        "total_loss": round(s.total_loss, 3),
        "marks": dict(s.marks),
        "error_rate": whole.get("error_rate"),
        "accuracy": whole.get("accuracy"),
        "start": whole.get("start"),
        "luck": whole.get("luck"),
        "skill": whole.get("skill"),
        "others": whole.get("others"),
        "margin": whole.get("margin"),
        "end": whole.get("end"),
        "games": [{"game": number, **_standing_json(st)} for number, st in s.games],
        "match": None if s.match is None else _standing_json(s.match),
        "costliest": [
            {
                "game": d.game,
                "move": d.move,
                "decision": d.decision,
                "played": d.played,
                "best": d.best,
                "loss": round(d.loss, 3),
                "loss_se": round(d.loss_se, 3),
                "chance_loss": round(d.chance_loss, 3),
                "about_equal": d.about_equal,
                "mark": d.mark,
                "table": table_json(d.state, d.card, players),
            }
            for d in s.costliest
        ],
    }


@dataclass
class MatchAnalysis:
    """One match's decisions, valued, and the per-player summary."""

    label: str
    file: str
    line: int | None
    match: int  # from 1
    players: tuple[str, ...]
    settings: Settings
    decisions: list[Decision] = field(default_factory=list)
    summaries: list[PlayerSummary] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # errors and warnings of the log
    valid: bool = True

    def as_json(self, *, explain_all: bool = False) -> dict[str, Any]:
        players = self.players
        return {
            "file": self.file,
            "line": self.line,
            "match": self.match,
            "players": list(players),
            "valid": self.valid,
            "findings": [f.as_json() for f in self.findings],
            "decisions": [decision_json(d, players, explain_all=explain_all) for d in self.decisions],
            "summary": [summary_json(s, players) for s in self.summaries],
        }


def settings_json(settings: Settings) -> dict[str, Any]:
    """How the numbers were made: the policy, the samples, the seed, where the search is exact, the marks."""
    return {
        "policy": POLICY,
        "horizon": HORIZON if settings.to_round else "the end of the game",
        "samples": settings.samples,
        "max_se": settings.max_se,
        "seed": settings.seed,
        "exact": f"last round, at most {exact_search.EXACT_SLOTS} places left in the rows" if settings.exact else None,
        "thresholds": {kind: t for kind, t in THRESHOLDS},
    }


def tasks_of_match(
    report: MatchReport, match: int, seed: int, *, game: int | None = None, seats: set[int] | None = None
) -> list[Task]:
    """Every decision of a checked match (of game ``game`` only, of ``seats`` only), up to any error; each game
    of a match under way with its context (``match_contexts``)."""
    out: list[Task] = []
    contexts = match_contexts(report)
    for record in report.games:
        if game is not None and record.number != game:
            continue
        states = list(record.states())
        pairs = list(zip(record.moves, states))
        out.extend(tasks_of_game(pairs, record.number, match, seed, seats, contexts.get(record.number)))
    return out


def match_before(report: MatchReport, game: int) -> tuple[float, ...] | None:
    """Every seat's match margin before game ``game`` (the finished games before it), or None where no match is
    played (one game planned)."""
    if report.rules is None or report.rules.games <= 1 or len(report.players) < 2:
        return None
    totals = [0] * len(report.players)
    for record in report.games:
        if record.number >= game or record.final is None or not record.final.over:
            break
        totals = [t + s for t, s in zip(totals, final_scores(record.final))]
    return final_margins(totals)


def match_contexts(report: MatchReport) -> dict[int, MatchContext]:
    """Each game of a match under way (``match.context_for``: more than one game planned; not the last game with
    level totals) with the totals of the finished games before it; a game after an unfinished one has none."""
    out: dict[int, MatchContext] = {}
    players = len(report.players)
    if report.rules is None or players < 2:
        return out
    totals = [0] * players
    for record in report.games:
        context = context_for(report.rules, players, record.number, totals)
        if context is not None:
            out[record.number] = context
        final = record.final
        if final is None or not final.over:
            break
        totals = [t + s for t, s in zip(totals, final_scores(final))]
    return out


def analyze_match(
    item: LoadedMatch,
    match: int,
    settings: Settings,
    *,
    game: int | None = None,
    seats: set[int] | None = None,
    jobs: int = 1,
    pool: Pool | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> MatchAnalysis:
    """Value every decision of one loaded match (``match``: its number in the input, from 1)."""
    report = item.report
    players = report.players
    tasks = tasks_of_match(report, match, settings.seed, game=game, seats=seats)
    decisions = list(analyze(tasks, settings, jobs=jobs, pool=pool, progress=progress))
    outcomes = game_outcomes(report, game, settings, match)
    return MatchAnalysis(
        item.label, item.file, item.line, match, players, settings, decisions,
        summarise(decisions, len(players), games=outcomes, seats=seats,
                  before=match_before(report, min(outcomes)) if outcomes else None)
        if players else [],
        item.findings(), report.valid,
    )


def game_outcomes(report: MatchReport, game: int | None = None, settings: Settings | None = None,
                  match: int = 1) -> dict[int, GameOutcome]:
    """Each game's resolved moves, real final margins (None when it did not finish) and, with ``settings``,
    every seat's expected margin at its start (``start_margins``), for luck and skill."""
    out: dict[int, GameOutcome] = {}
    for record in report.games:
        if game is not None and record.number != game:
            continue
        final = record.final
        margins = final_margins(final_scores(final)) if final is not None and final.over else None
        first = next(iter(record.states()), None) if record.moves and settings is not None else None
        start = None
        if first is not None and settings is not None:
            start = start_margins(first, settings, decision_seed(settings.seed, match, record.number, 0, 0))
        out[record.number] = GameOutcome(tuple(record.moves), margins, start)
    return out


#: The samples of the game's start (``start_margins``): a standard error of about 0.1 point.
START_SAMPLES = 512


def start_margins(state: GameState, settings: Settings, seed: int) -> tuple[float, ...]:
    """Every seat's expected final margin before the game's first move (the first player's draw, the one choice
    there), valued as every decision is (``Settings.to_round``: playouts to the end of the first round and the
    evaluator there; else to the end of the game), on ``START_SAMPLES`` orders drawn from ``seed``: the
    ``start`` of luck and skill. It reads only what every player sees."""
    start = Start(state)
    ev = sample(start, [("draw", -1)], ["draw"], 0, seed, samples=START_SAMPLES, max_se=0,
                to_round=settings.to_round)
    return ev.choices[0].margins
