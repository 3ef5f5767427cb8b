"""What each decision was worth: every decision of a game, valued from what the player could see.

A turn has two decisions (docs/rules-of-play.md §3): *draw or take* (before the card is
seen) and, after a draw, the *row* for the card turned over. For each, every
choice open to the player is valued by its expected final **margin** (the
player's final score less the mean of the others') and its probability of
winning the game (a shared first place counts as a win), with standard
errors:

- **sampled**: ``samples`` orders of the unseen cards, each drawn uniformly
  from what is public (the deck's composition less every card seen, the
  last-round card where the rules put it: ``under`` cards from the bottom);
  every choice is played out on the *same* orders (common random numbers),
  every seat following the ``greedy`` bot's policy (``playout``), so the
  differences between choices are sharper. Sampling goes on in batches
  until the loss of the played choice has a standard error of at most
  ``max_se`` points and the best choice is told apart from every other
  (within ``max_se``, or ahead by 3 standard errors), or until ``samples``;
- **exact** (``exact``): in the last round with at most ``EXACT_SLOTS``
  places left in the rows, every order of the unseen cards and best play by
  everyone (max-n expectimax); standard errors are 0.

The real order of a seeded game's deck is never read: positions are built
from ``GameState`` fields that every player sees.

Choices that lead to the same position (two rows with the same cards and the
same limit) are one choice, valued once. A decision with one choice is
*forced*: loss 0, no mark, no playouts.

The **loss** of the played choice is the best choice's value less its own
(0 when it is the best), with the standard error of that paired difference.
A mark is given when ``loss - 2 * loss_se`` reaches a threshold
(``THRESHOLDS``): the loss is then beyond noise.

Every decision's samples come from a seed derived from (seed, match, game,
move, decision) alone, so the numbers are the same whatever ``jobs`` is.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import KINDS
from ..core.engine import Draw, GameState, Move, Take
from ..core.errors import Finding
from ..core.rng import MASK64, nth_output
from ..log.load import LoadedMatch
from ..log.replay import MatchReport
from . import bots
from . import exact as exact_search
from .playout import Choice, Start

__all__ = [
    "BATCH",
    "DEFAULT_MAX_SE",
    "DEFAULT_SAMPLES",
    "MIN_SAMPLES",
    "POLICY",
    "THRESHOLDS",
    "ChoiceValue",
    "Decision",
    "Evaluation",
    "MatchAnalysis",
    "PlayerSummary",
    "Progress",
    "Settings",
    "Task",
    "analyze",
    "analyze_match",
    "choice_label",
    "decision_json",
    "decision_seed",
    "evaluate",
    "mark_for",
    "settings_json",
    "summarise",
    "summary_json",
    "table_json",
    "tasks_of_game",
    "tasks_of_match",
]

#: The policy every seat follows in the playouts.
POLICY = "greedy"
#: At most this many sampled orders per decision (``--samples``).
DEFAULT_SAMPLES = 2000
#: Sampling stops once the loss is this precise (points) and the best choice is told apart.
DEFAULT_MAX_SE = 0.5
#: Samples are drawn in batches of this many; at least ``MIN_SAMPLES`` before stopping.
BATCH = 32
MIN_SAMPLES = 64
#: Marks by the loss in margin points, worst first: given when ``loss - 2 * loss_se`` reaches the threshold.
THRESHOLDS: tuple[tuple[str, float], ...] = (("blunder", 6.0), ("mistake", 3.0), ("inaccuracy", 1.5))

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
    exact: bool = True  # search exactly where ``exact.applies``


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One choice's value to the player deciding."""

    choice: str
    margin: float  # expected final margin of the player deciding
    margin_se: float
    win_prob: float
    win_prob_se: float
    margins: tuple[float, ...]  # every seat's expected final margin after this choice


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every (distinct) choice of one decision, valued; ``played`` and ``best`` index ``choices``."""

    choices: tuple[ChoiceValue, ...]
    played: int
    best: int
    loss: float
    loss_se: float
    samples: int  # 0 when exact or forced
    exact: bool

    @property
    def forced(self) -> bool:
        return len(self.choices) == 1


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


# --------------------------------------------------------------------------- seeds


def decision_seed(seed: int, match: int, game: int, move: int, decision: int) -> int:
    """The seed of one decision: a SplitMix64 chain over (seed, match, game, move, decision), all from 1."""
    s = nth_output((seed ^ _SALT) & MASK64, match)
    s = nth_output(s, game)
    s = nth_output(s, move)
    return nth_output(s, decision)


def mark_for(loss: float, loss_se: float) -> str | None:
    """The mark of a loss: the worst kind whose threshold ``loss - 2 * loss_se`` reaches."""
    sure = loss - 2 * loss_se
    for kind, threshold in THRESHOLDS:
        if sure >= threshold:
            return kind
    return None


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
    all_choices = start.choices()
    if task.played not in all_choices:  # a legal move always is; keep going if the deck is odd
        all_choices.append(task.played)
    reps, cls = _distinct(start.state, all_choices)
    played = cls[task.played]
    players = start.state.players
    if len(reps) == 1:
        zero = ChoiceValue(choice_label(reps[0]), math.nan, 0.0, math.nan, 0.0, ())
        return Evaluation((zero,), 0, 0, 0.0, 0.0, 0, False)
    if settings.exact and exact_search.applies(start):
        vectors = exact_search.choice_values(start, reps)
        values = tuple(
            ChoiceValue(choice_label(c), v[task.seat], 0.0, min(1.0, max(0.0, v[players + task.seat])), 0.0,
                        v[:players])
            for c, v in zip(reps, vectors)
        )
        best = max(range(len(values)), key=lambda k: (values[k].margin, -k))
        return Evaluation(values, played, best, values[best].margin - values[played].margin, 0.0, 0, True)
    return _sampled(task, settings, start, reps, played)


def _sampled(task: Task, settings: Settings, start: Start, reps: list[Choice], played: int) -> Evaluation:
    seat = task.seat
    players = start.state.players
    scores = bots.scores_for(start.state)
    pack = bots.pack
    m = len(reps)
    margins: list[list[float]] = [[] for _ in reps]  # the deciding player's, per sample
    wins = [0.0] * m
    seat_sums = [[0.0] * players for _ in reps]
    need = start.need()
    n = 0
    limit = max(1, settings.samples)
    while n < limit:
        batch = min(BATCH, limit - n)
        for k in range(n, n + batch):
            deck = start.deal(nth_output(task.seed, k + 1), need)
            for c, choice in enumerate(reps):
                s = [scores[pack(x)] for x in start.play(choice, deck)]
                total = sum(s)
                top = max(s)
                mine = s[seat]
                margins[c].append(mine - (total - mine) / (players - 1))
                if mine == top:
                    wins[c] += 1.0
                sums = seat_sums[c]
                for p in range(players):
                    sums[p] += s[p] - (total - s[p]) / (players - 1)
        n += batch
        if settings.max_se > 0 and n >= min(MIN_SAMPLES, limit) and _precise(margins, played, settings.max_se):
            break
    means = [sum(x) / n for x in margins]
    best = max(range(m), key=lambda k: (means[k], -k))
    values = tuple(
        ChoiceValue(
            choice_label(c),
            means[k],
            _se(margins[k]),
            wins[k] / n,
            math.sqrt(max(0.0, (wins[k] / n) * (1 - wins[k] / n) / n)) if n > 1 else 0.0,
            tuple(x / n for x in seat_sums[k]),
        )
        for k, c in enumerate(reps)
    )
    loss = means[best] - means[played]
    loss_se = 0.0 if best == played else _diff_se(margins[best], margins[played])
    return Evaluation(values, played, best, loss, loss_se, n, False)


def _se(xs: list[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return math.sqrt(var / n)


def _diff_se(a: list[float], b: list[float]) -> float:
    return _se([x - y for x, y in zip(a, b)])


def _precise(margins: list[list[float]], played: int, max_se: float) -> bool:
    """The loss of the played choice and the gap between the two best choices are within ``max_se``."""
    n = len(margins[0])
    means = [sum(x) / n for x in margins]
    order = sorted(range(len(means)), key=lambda k: (-means[k], k))
    best = order[0]
    if played != best and _diff_se(margins[best], margins[played]) > max_se:
        return False
    # the best must be told apart from every other choice: within ``max_se``, or far ahead (3 se)
    for other in order[1:]:
        if other == played:
            continue
        se = _diff_se(margins[best], margins[other])
        if se > max_se and means[best] - means[other] < 3 * se:
            return False
    return True


# --------------------------------------------------------------------------- a game's decisions


def tasks_of_game(
    states: list[tuple[Move, GameState]], game: int, match: int, seed: int, seats: set[int] | None = None
) -> list[Task]:
    """The decisions of one game: ``states`` holds each resolved move (numbered from 1) with the
    state it was played in. ``seats``: only these players' decisions."""
    out: list[Task] = []
    for number, (move, before) in enumerate(states, start=1):
        if before.over or (seats is not None and move.seat not in seats):
            continue
        if isinstance(move, Take):
            played: Choice = ("take", move.row - 1)
            out.append(Task(game, number, move.seat, "draw-or-take", before, None, False, played,
                            decision_seed(seed, match, game, number, 1)))
            continue
        assert isinstance(move, Draw) and move.card is not None
        out.append(Task(game, number, move.seat, "draw-or-take", before, None, False, ("draw", -1),
                        decision_seed(seed, match, game, number, 1)))
        out.append(Task(game, number, move.seat, "row", before, move.card, bool(move.last_round),
                        ("row", move.row - 1), decision_seed(seed, match, game, number, 2)))
    return out


def _decision(task: Task, ev: Evaluation) -> Decision:
    loss = ev.loss if ev.played != ev.best else 0.0
    mark = None if ev.forced else mark_for(loss, ev.loss_se)
    played = choice_label(task.played)
    return Decision(
        task.game, task.move, task.seat, task.decision, task.state, task.card, played,
        ev.choices[ev.best].choice if ev.best != ev.played else played,
        loss, ev.loss_se, mark, ev,
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


def analyze(
    tasks: list[Task],
    settings: Settings,
    *,
    jobs: int = 1,
    progress: Callable[[Progress], None] | None = None,
) -> Iterator[Decision]:
    """Every task valued, in order; the same numbers whatever ``jobs`` is."""
    weights = [t.weight() for t in tasks]
    total_weight = sum(weights) or 1.0
    started = time.monotonic()
    done_weight = 0.0

    def report(k: int) -> None:
        if progress is None:
            return
        elapsed = time.monotonic() - started
        left = elapsed * (total_weight - done_weight) / done_weight if done_weight > 0 else None
        progress(Progress(k, len(tasks), elapsed, left))

    work = [(t, settings) for t in tasks]
    if jobs <= 1 or len(tasks) < 2:
        for k, (task, w) in enumerate(zip(tasks, weights), start=1):
            ev = evaluate(task, settings)
            done_weight += w
            report(k)
            yield _decision(task, ev)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(jobs) as pool:
        for k, (task, ev) in enumerate(zip(tasks, pool.imap(_run_task, work, chunksize=1)), start=1):
            done_weight += weights[k - 1]
            report(k)
            yield _decision(task, ev)


# --------------------------------------------------------------------------- per player


def summarise(decisions: list[Decision], players: int, *, costliest: int = 3) -> list[PlayerSummary]:
    """Per seat: decisions (forced ones apart), mean loss, marks by kind, the costliest decisions."""
    out: list[PlayerSummary] = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        real = [d for d in mine if not d.forced]
        total = sum(d.loss for d in real)
        marks = {kind: sum(1 for d in real if d.mark == kind) for kind, _ in reversed(THRESHOLDS)}
        worst = sorted(real, key=lambda d: (-d.loss, d.game, d.move, d.decision))[:costliest]
        out.append(PlayerSummary(
            seat, len(real), len(mine) - len(real), total / len(real) if real else 0.0, total, marks,
            tuple(d for d in worst if d.loss > 0),
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


def decision_json(d: Decision, players: tuple[str, ...]) -> dict[str, Any]:
    """One decision in the documented shape (docs/analyze.md)."""
    ev = d.evaluation
    played, best = ev.choices[ev.played], ev.choices[ev.best]
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
        "mark": d.mark,
        "forced": d.forced,
        "exact": ev.exact,
        "samples": ev.samples,
        "margin_played": _num(played.margin),
        "margin_best": _num(best.margin),
        "win_prob_played": _num(played.win_prob),
        "win_prob_best": _num(best.win_prob),
        "margins": None if d.forced else {players[s]: round(x, 3) for s, x in enumerate(d.margins)},
        "choices": [
            {
                "choice": c.choice,
                "margin": _num(c.margin),
                "margin_se": round(c.margin_se, 3),
                "win_prob": _num(c.win_prob),
                "win_prob_se": round(c.win_prob_se, 3),
            }
            for c in ev.choices
        ],
    }


def summary_json(s: PlayerSummary, players: tuple[str, ...]) -> dict[str, Any]:
    return {
        "player": players[s.seat],
        "decisions": s.decisions,
        "forced": s.forced,
        "mean_loss": round(s.mean_loss, 3),
        "total_loss": round(s.total_loss, 3),
        "marks": dict(s.marks),
        "costliest": [
            {
                "game": d.game,
                "move": d.move,
                "decision": d.decision,
                "played": d.played,
                "best": d.best,
                "loss": round(d.loss, 3),
                "loss_se": round(d.loss_se, 3),
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

    def as_json(self) -> dict[str, Any]:
        players = self.players
        return {
            "file": self.file,
            "line": self.line,
            "match": self.match,
            "players": list(players),
            "valid": self.valid,
            "findings": [f.as_json() for f in self.findings],
            "decisions": [decision_json(d, players) for d in self.decisions],
            "summary": [summary_json(s, players) for s in self.summaries],
        }


def settings_json(settings: Settings) -> dict[str, Any]:
    """How the numbers were made: the policy, the samples, the seed, where the search is exact, the marks."""
    return {
        "policy": POLICY,
        "samples": settings.samples,
        "max_se": settings.max_se,
        "seed": settings.seed,
        "exact": f"last round, at most {exact_search.EXACT_SLOTS} places left in the rows" if settings.exact else None,
        "thresholds": {kind: t for kind, t in THRESHOLDS},
    }


def tasks_of_match(
    report: MatchReport, match: int, seed: int, *, game: int | None = None, seats: set[int] | None = None
) -> list[Task]:
    """Every decision of a checked match (of game ``game`` only, of ``seats`` only), up to any error."""
    out: list[Task] = []
    for record in report.games:
        if game is not None and record.number != game:
            continue
        states = list(record.states())
        pairs = list(zip(record.moves, states))
        out.extend(tasks_of_game(pairs, record.number, match, seed, seats))
    return out


def analyze_match(
    item: LoadedMatch,
    match: int,
    settings: Settings,
    *,
    game: int | None = None,
    seats: set[int] | None = None,
    jobs: int = 1,
    progress: Callable[[Progress], None] | None = None,
) -> MatchAnalysis:
    """Value every decision of one loaded match (``match``: its number in the input, from 1)."""
    report = item.report
    players = report.players
    tasks = tasks_of_match(report, match, settings.seed, game=game, seats=seats)
    decisions = list(analyze(tasks, settings, jobs=jobs, progress=progress))
    return MatchAnalysis(
        item.label, item.file, item.line, match, players, settings, decisions,
        summarise(decisions, len(players)) if players else [],
        item.findings(), report.valid,
    )
