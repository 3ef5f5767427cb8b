"""The sampled estimator: every choice played out on the same sampled orders, the loss cross-fitted.

For one decision, ``sample`` draws orders of the unseen cards (``Start.deal``)
and plays every choice out on each order (common random numbers: the luck
the choices share cancels out of their differences). It keeps, per sample
and per choice, the deciding player's final margin and whether they won,
and, per choice, the mean final margin of every seat and the mean final
collection of the player deciding (for the explanations).

**The loss without selection bias (cross-fitting).** Picking the best choice
and measuring its lead on the same noisy samples overstates the lead: the
choice that looks best is, more often than not, one that was lucky. So the
samples are split in two halves (even and odd sample numbers); the choice
that looks best on one half is measured against the played choice on the
*other* half, and the two halves' paired differences are pooled:

    loss = mean over samples i of  x_i(best picked on the other half) − x_i(played)

A choice picked on independent samples is measured without the bias of its
own selection. The estimate is reported as 0 when it comes out negative (the
played choice measured better than what the other half would have picked).

**Its standard error** is the standard error of those pooled differences,
and never less than that of the paired difference between the played choice
and its strongest rival (the best other choice on all samples): so a played
choice that looks best still carries the uncertainty of that look
(``0.2 ± 0.3``, never ``0 ± 0``). That paired spread counts the unpaired
spread of the two choices as one more observation: on a few samples the
difference can come out the same every time while either side still varies.

**The chance lost** (``Tally.chance``) is cross-fitted the same way, on
the choices the rule picks (below): ``mean over i of w_i(best picked on the other
half) − w_i(played)``, ``w`` a sample's win (1) or not (0), with the
standard error of those differences. The marks go by it (``marks``).

**When to stop.** Samples come in batches of ``BATCH`` (at least
``MIN_SAMPLES``) until all of:

- the loss's standard error is at most ``max_se`` (or the played choice is
  the best, three standard errors ahead of every other);
- the best choice is told apart from every other (the standard error of
  the difference at most ``max_se``, or ahead by 3 standard errors);
- where the played choice is not the best, the mark is settled, so that
  another seed gives the same mark: the chance lost is at least ``SETTLE``
  of its standard errors from every threshold of the marks, and the
  in-sample chance lost (the best mean margin's chance
  less the played one's, biased high where the cross-fitted one is biased
  low on a few hundred samples) gives the same mark, ``SETTLE`` of its own
  standard errors clear (the spread of the two choices' chances over all
  the samples, where that is the larger: when the two halves pick
  different choices, half the cross-fitted differences are 0, and their
  standard error understates the in-sample one's);

or until ``samples`` (the cap). The named best (``Tally.best``, ``marks.pick``) is the choice with the
highest chance of winning what is played on all samples (the match's, per sample, where one is under way:
``match``), the best mean margin breaking ties within ``marks.Z`` standard errors of the paired chance
difference, never one the played choice beats on that chance (ties to the first: drawing, then the rows in
order); the cross-fitted picks follow the same rule on each half.

**Past the cap, for the mark alone.** A decision whose chance lost is still
within ``NEAR`` (1.5) standard errors of a threshold at the cap samples on,
the played choice against the best only (every other choice keeps its
samples), up to ``EXTEND`` (4) times the cap, until it is ``NEAR`` standard
errors from every threshold.

**Racing.** A choice neither played nor best that is ``DROP`` standard
errors behind the best is no longer played out (it keeps its samples, a
prefix of everyone's): close decisions spend their playouts where it
matters. **Stratified first card.** The first card of the k-th order is the
card at the fraction ``offset + k × φ`` of the unseen cards (a
low-discrepancy sequence; each order alone still uniform), so every kind
comes first in its share of the samples.

**Every order counted** (``count``, ``to_round``, ``max_se`` > 0). Each sample also
counts as one over the chance of the cards its playout met (Knuth's
estimator of the number of card sequences the playouts can meet). Where
that estimate is at most twice ``COUNT_SMALL`` after the first batch, or,
at a look that finds the decision unsettled, at most twice the playouts
drawn so far (twice ``COUNT_MOST`` at most), every sequence is walked
instead (``every_order``, given up past that number) and the decision is
valued on all of them (``counted``): the expectation the samples estimate,
without sampling error, the same whatever the seed. A walk costs about a
playout a sequence, so counting costs at most about twice what sampling
already did; except where sampling is about to stop with the mark
unsettled (at the cap, or at the end of sampling past it), where the walk
may go to twice ``COUNT_MOST`` whatever the samples: a mark another seed
might not give is worth a walk of a few seconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..bots.players import GreedyBot, Scores, fastplay, pack, scores_for
from ..bots.playout import Choice, Start
from ..core.cards import KIND_INDEX, LAST_ROUND
from ..core.engine import Table
from ..core.rng import MASK64, nth_output
from . import every_order, marks
from .marks import THRESHOLDS
from .match import MatchContext, share_left

__all__ = ["BATCH", "COUNT_MOST", "COUNT_SMALL", "DROP", "LOOK", "MIN_SAMPLES", "SETTLE", "ChoiceValue", "Evaluation",
           "Tally", "best_exact", "counted", "sample"]

#: Samples are drawn in batches of this many; at least ``MIN_SAMPLES`` before stopping.
BATCH = 32
MIN_SAMPLES = 64
#: Sampling goes on while the winning chance lost is within this many standard errors of a threshold of the marks.
SETTLE = 2.5
#: A choice (neither played nor best) this many standard errors behind the best is no longer played out.
DROP = 4.0
#: The first card of the k-th order is the card at the fraction ``offset + k × φ`` (mod 1) of the unseen
#: cards (a low-discrepancy sequence): every kind comes first in its share of the samples, nearly exactly.
STRATIFY = True
_PHI = 0x9E3779B97F4A7C15  # 2^64 / the golden ratio
#: The stopping rule is checked when the samples have grown by this factor since the last check.
LOOK = 1.25
#: A decision whose chance lost is within ``NEAR`` standard errors of a threshold at the cap samples on, up to
#: ``EXTEND`` times the cap, while it stays that close (for the mark alone).
NEAR = 1.5
EXTEND = 4
#: Every order counted (``every_order``) instead of sampled where the orders a playout can meet are estimated at
#: most twice ``COUNT_SMALL`` after the first batch, or, while the decision is not settled, at most twice the
#: playouts sampled so far (counting then costs at most about twice what sampling already did), up to twice
#: ``COUNT_MOST``; and up to twice ``COUNT_MOST`` where sampling would stop with the mark unsettled.
COUNT_SMALL = 256
COUNT_MOST = 16384


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One choice's value to the player deciding."""

    choice: str
    margin: float  # expected final margin of the player deciding
    margin_se: float
    win_prob: float
    win_prob_se: float
    margins: tuple[float, ...]  # every seat's expected final margin after this choice
    cards: tuple[float, ...] = ()  # the decider's expected final collection, by kind (sampled only)
    match_chance: float = math.nan  # the chance of winning the match (``match``), nan where no match is under way
    match_chance_se: float = 0.0

    @property
    def chance(self) -> float:
        """The chance of winning what is being played: the match where one is under way, else the game."""
        return self.win_prob if math.isnan(self.match_chance) else self.match_chance


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
    raw_loss: float | None = None  # the cross-fitted estimate before a negative one is reported as 0 (at the cap)
    chance: float = 0.0  # the winning chance the played choice lost against the best (cross-fitted; may be < 0)
    chance_se: float = 0.0

    @property
    def unbiased_loss(self) -> float:
        """The loss to add up (skill): the cross-fitted estimate as it came out, negative or not; for a
        decision sampled past the cap, as it came out at the cap (sampling on is decided on that estimate:
        its later samples, kept where it lay near a line and not elsewhere, would tilt the sum)."""
        return self.loss if self.raw_loss is None else self.raw_loss

    @property
    def forced(self) -> bool:
        return len(self.choices) == 1


class Tally:
    """Per-sample margins and wins of every choice, and the running sums the explanations read.

    A choice dropped from the race (``active`` False) keeps the samples it has: every list is a
    prefix of the samples drawn, the same orders for every choice."""

    def __init__(self, choices: int, players: int, kinds: int, match: bool = False) -> None:
        self.x: list[list[float]] = [[] for _ in range(choices)]  # the decider's margin, per sample
        self.wins = [0.0] * choices  # the decider's game wins (or chances), summed
        # per sample, the decider's chance of winning what is played: the game's (1 or 0, or the evaluator's
        # chance), or the match's (``match``)
        self.w: list[list[float]] = [[] for _ in range(choices)]
        self.match = match
        self.seat_sums = [[0.0] * players for _ in range(choices)]
        self.card_sums = [[0] * kinds for _ in range(choices)]
        self.active = [True] * choices
        self.orders = [0.0] * choices  # per choice, the sum over its samples of 1 / P(the cards its playout met)

    def tree(self) -> float:
        """The number of card sequences the playouts of every choice can meet, estimated from the samples (Knuth's
        estimator: the mean of 1 / P(the sequence met) counts them without bias)."""
        return sum(o / len(xs) for o, xs in zip(self.orders, self.x) if xs)

    def means(self, fold: int | None = None) -> list[float]:
        """Every choice's mean margin: on all its samples, or on one half (``fold`` 0: even, 1: odd)."""
        if fold is None:
            return [sum(xs) / len(xs) for xs in self.x]
        return [sum(xs[fold::2]) / max(1, len(xs[fold::2])) for xs in self.x]

    def chances(self, fold: int | None = None) -> list[float]:
        """Every choice's mean chance of winning what is played: on all its samples, or on one half."""
        if fold is None:
            return [sum(ws) / len(ws) for ws in self.w]
        return [sum(ws[fold::2]) / max(1, len(ws[fold::2])) for ws in self.w]

    def best(self, played: int | None = None, fold: int | None = None, live: bool = False) -> int:
        """The best choice (``marks.pick``): the highest chance, the margin breaking ties within ``Z`` standard
        errors of the paired chance difference (``EQUAL_CHANCE`` at least); on all samples or one half;
        ``live``: among the choices still in the race."""
        w = self.w
        chances = self.chances(fold)
        if live:
            chances = [c if self.active[k] else -math.inf for k, c in enumerate(chances)]
        top = _argmax(chances)
        lo = 0 if fold is None else fold
        step = 1 if fold is None else 2
        n = min(len(w[top]), min(len(ws) for ws in w))
        widths = [max(marks.EQUAL_CHANCE, marks.Z * _se([a - b for a, b in zip(w[top][lo:n:step], ws[lo:n:step])]))
                  for ws in w]
        return marks.pick(self.means(fold), chances, widths, played)

    def loss(self, played: int) -> tuple[float, float, int]:
        """The cross-fitted loss of ``played``, its standard error, and the best choice on all samples."""
        x = self.x
        best = self.best(played)
        picks = self.picks(played)
        mine = x[played]
        d = [x[picks[i & 1]][i] - mine[i] for i in range(len(mine))]
        loss = sum(d) / len(d)
        se = max(_se(d), _paired_se(x[self.rival(played)], mine))
        return loss, se, best

    def rival(self, played: int) -> int:
        """The strongest rival of the played choice still in the race (one dropped keeps its last word)."""
        live = self.active
        means = self.means()
        rivals = [m if k != played and live[k] else -math.inf for k, m in enumerate(means)]
        if max(rivals) == -math.inf:
            rivals = [m if k != played else -math.inf for k, m in enumerate(means)]
        return _argmax(rivals)

    def picks(self, played: int | None = None) -> tuple[int, int]:
        """For the even samples, the choice picked (``best``) on the odd ones, and the other way round."""
        even, odd = (self.best(played, 1 - f, live=True) for f in (0, 1))
        return even, odd

    def chance(self, played: int) -> tuple[float, float, float]:
        """The winning chance ``played`` lost: cross-fitted on the choices the margins pick (as ``loss``), its
        standard error, and the in-sample one (the best mean margin's chance less the played one's)."""
        w = self.w
        picks = self.picks(played)
        mine = w[played]
        d = [float(w[picks[i & 1]][i] - mine[i]) for i in range(len(mine))]
        best = self.best(played)
        n = len(mine)
        naive = sum(w[best]) / max(1, len(w[best])) - sum(mine) / n
        return sum(d) / n, _se(d), naive

    def race(self, played: int, best: int) -> None:
        """Stop playing out the choices that are far behind the best (``DROP`` standard errors)."""
        x = self.x
        means = self.means()
        for k in range(len(x)):
            if self.active[k] and k not in (played, best):
                diff = [a - b for a, b in zip(x[best], x[k])]
                if means[best] - means[k] > DROP * _se(diff) + 1e-9:
                    self.active[k] = False


def _argmax(values: list[float]) -> int:
    """The first index of the largest value (ties to the first choice: the stated rule)."""
    best = 0
    for k in range(1, len(values)):
        if values[k] > values[best]:
            best = k
    return best


def _se(xs: list[float]) -> float:
    n = len(xs)
    return math.sqrt(_var(xs) / n) if n > 1 else 0.0


def _paired_se(a: list[float], b: list[float]) -> float:
    """The standard error of the mean of ``a - b``, sample by sample, with the unpaired spread as one more
    observation: a few samples whose difference happens to be the same every time (the same 3.75 points on
    8 orders) do not make the difference certain while either side still varies (never ``0 ± 0`` then)."""
    n = len(a)
    if n < 2:
        return 0.0
    return math.sqrt((_squares([p - q for p, q in zip(a, b)]) + _var(a) + _var(b)) / n / n)


def _squares(xs: list[float]) -> float:
    """The sum of squares about the mean."""
    mean = sum(xs) / len(xs)
    return sum((x - mean) ** 2 for x in xs)


def _var(xs: list[float]) -> float:
    return _squares(xs) / (len(xs) - 1)


def _near_line(chance: float, width: float) -> bool:
    """A threshold of the marks lies within ``width`` of the winning chance lost (counted from 0)."""
    x = max(0.0, chance)
    return any(abs(x - t) < width for _, t in THRESHOLDS)


def _settled(tally: Tally, played: int, max_se: float, cap: int) -> bool:
    """Precise enough: the loss, the best choice told apart, the mark the same under another seed."""
    n = len(tally.x[played])
    if n > cap:  # past the cap: only the mark is still sampled for, the played choice against the best (no race)
        chance, chance_se, _ = tally.chance(played)
        return not _near_line(chance, NEAR * chance_se)
    tally.race(played, tally.loss(played)[2])
    _, se, best = tally.loss(played)
    x = tally.x
    means = tally.means()
    if se > max_se and any(tally.active[k] for k in range(len(x)) if k != played):
        # (when every other choice is out of the race, more samples cannot narrow it)
        ahead = best == played and all(
            means[played] - means[k] >= 3 * _se([a - b for a, b in zip(x[played], x[k])])
            for k in range(len(x)) if k != played and tally.active[k])
        if not ahead:  # the played choice clearly best needs no finer loss
            return False
    # a played choice that is the best is not marked, whatever the chance: a choice behind the best needs its
    # chance lost settled, and the in-sample one (biased high where the cross-fitted one is biased low) to agree;
    # a played choice that looks best, that its rival is not ahead by a chance that would make a mark
    if best != played:
        chance, chance_se, naive = tally.chance(played)
        naive_se = max(chance_se, _se([a - b for a, b in zip(tally.w[best], tally.w[played])]))
        if _near_line(chance, SETTLE * chance_se) or marks.mark_for(naive) != marks.mark_for(chance) or _near_line(
                naive, SETTLE * naive_se):
            return False
    elif _rival_unsettled(tally, played):
        return False
    for other in range(len(x)):
        if other in (best, played) or not tally.active[other]:
            continue
        s = _se([a - b for a, b in zip(x[best], x[other])])
        if s > max_se and means[best] - means[other] < 3 * s:
            return False
    return True


def _rival_unsettled(tally: Tally, played: int) -> bool:
    """The played choice looks best, but another seed could find a rival best with a chance lost that makes a
    mark: the rival with the highest chance of winning what is played (still in the race) is not ``SETTLE``
    standard errors short of the played one's chance plus the lowest line. (The best goes by that chance, the
    margin only breaking ties within its noise: a lead in margin does not settle it.)"""
    chances = tally.chances()
    rivals = [c if k != played and tally.active[k] else -math.inf for k, c in enumerate(chances)]
    if max(rivals) == -math.inf:
        return False
    rival = _argmax(rivals)
    dw = [a - b for a, b in zip(tally.w[rival], tally.w[played])]
    return bool(dw) and sum(dw) / len(dw) + SETTLE * _se(dw) >= min(t for _, t in THRESHOLDS)


def _value(label: str, tally: Tally, k: int) -> ChoiceValue:
    n = len(tally.x[k])
    p = tally.wins[k] / n
    ws = tally.w[k]
    return ChoiceValue(
        label, sum(tally.x[k]) / n, _se(tally.x[k]), p, math.sqrt(max(0.0, p * (1 - p) / n)) if n > 1 else 0.0,
        tuple(v / n for v in tally.seat_sums[k]), tuple(v / n for v in tally.card_sums[k]),
        sum(ws) / n if tally.match else math.nan, _se(ws) if tally.match else 0.0,
    )


def sample(start: Start, reps: list[Choice], labels: list[str], played: int, seed: int, *, samples: int,
           max_se: float, to_round: bool = False, count: bool = True, match: MatchContext | None = None) -> Evaluation:
    """Value ``reps`` at ``start`` for the player to move on sampled orders drawn from ``seed``.

    ``to_round``: each playout stops where ``Start.stop_round`` says (the end of the round, or of the game
    near its end) and the evaluator (``bots.evaluate``) values the position there, every batch of positions
    in one pass of the model: each sample's margin and chance of winning are then the evaluator's
    expectations instead of one game's outcome (a finished game keeps its real ones). Else every playout
    goes to the end of the game. ``count``: every order counted where they are few (with ``to_round`` and
    ``max_se`` > 0). ``match``: where a match is under way, each sample's chance of winning the match
    (``MatchContext.chance``) is what the chance lost, the marks and the best choice read."""
    seat = start.state.current
    players = start.state.players
    scores = scores_for(start.state)
    kinds = len(start.state.remaining)
    tally = Tally(len(reps), players, kinds, match is not None)
    stop = start.stop_round() if to_round else 0
    need = start.need(stop)
    offset = nth_output(seed, 0)
    n = 0
    cap = limit = max(1, samples)
    at_cap: float | None = None  # the cross-fitted loss at the cap, for a decision that samples on
    look = min(MIN_SAMPLES, limit)
    counting = count and to_round and max_se > 0  # every order counted where they are few (``every_order``)
    tried = 0  # the largest number of orders a count was given up at
    turned = start.state.turned
    valued: dict[tuple[object, ...], _Outcome] = {}  # the evaluator's values of the tables met so far, by position
    met = _Playouts(start, reps, stop)
    while n < limit:
        batch = min(BATCH, limit - n)
        live = [c for c in range(len(reps)) if tally.active[c]]
        played_out: list[tuple[int, Table]] = []
        decks = [start.deal(nth_output(seed, k + 1), need, ((offset + k * _PHI) & MASK64) if STRATIFY else None)
                 for k in range(n, n + batch)]
        for deck, tables in zip(decks, met.play_many(live, decks, need)):
            played_out.extend(zip(live, tables))
            if counting:  # the chances of the cards met, as far as the longest playout went
                inverse = _inverse_chances(start, deck, max(t.turned for t in tables) - turned)
                for c, table in zip(live, tables):
                    tally.orders[c] += inverse[min(table.turned - turned, len(inverse) - 1)]
        outcomes = _outcomes([t for _, t in played_out], seat, scores, pack, to_round, valued)
        for (c, table), (margins, won) in zip(played_out, outcomes):
            tally.x[c].append(margins[seat])
            tally.wins[c] += won
            tally.w[c].append(won if match is None else match.chance(margins, seat, _share(table)))
            sums = tally.seat_sums[c]
            for p in range(players):
                sums[p] += margins[p]
            held = tally.card_sums[c]
            for j, kept in enumerate(table.collections[seat]):
                held[j] += kept
        n += batch
        if counting and n == batch and n < look:  # after the first batch: a small tree is counted at once
            found, tried = _count(start, reps, stop, tally, COUNT_SMALL, tried)
            if found is not None:
                return counted(start, reps, labels, played, found, match)
        if max_se > 0 and (n >= look or n == limit):
            if _settled(tally, played, max_se, cap):
                break
            extend = False  # at the cap, the mark still on its line: sample on, for it alone
            if n == limit == cap and EXTEND > 1:
                chance, chance_se, _ = tally.chance(played)
                best = tally.loss(played)[2]
                extend = best != played and _near_line(chance, NEAR * chance_se)
            if counting:  # not settled: count every order where that costs at most twice the samples so far, or,
                # about to stop unsettled (a mark another seed may not give), wherever the orders are few enough
                allow = COUNT_MOST if n == limit and not extend else min(COUNT_MOST, n * len(reps))
                found, tried = _count(start, reps, stop, tally, allow, tried)
                if found is not None:
                    return counted(start, reps, labels, played, found, match)
            if extend:  # the played choice against the best
                limit = EXTEND * cap
                at_cap = tally.loss(played)[0]
                tally.active = [k in (played, best) for k in range(len(reps))]
            look = max(n + BATCH, int(n * LOOK))
    chance, chance_se = 0.0, 0.0
    if n < 2:
        means = tally.means()
        best = tally.best(played)
        loss, se = means[best] - means[played], 0.0
    else:
        loss, se, best = tally.loss(played)
        chance, chance_se, _ = tally.chance(played)
    values = tuple(_value(labels[k], tally, k) for k in range(len(reps)))
    return Evaluation(values, played, best, max(0.0, loss), se, n, False, loss if at_cap is None else at_cap,
                      chance, chance_se)


class _Playouts:
    """One decision's playouts, each kept by the cards it turned over: an order that begins with the same cards
    plays the same (a playout reads no card past the last it turns over, and every order of a decision is as
    long, the last-round card in the same place), so it is looked up instead of played again (about one
    playout in seven, where playouts stop at the end of the round). The tables are read, never changed."""

    __slots__ = ("known", "lengths", "reps", "start", "stop", "turned")

    def __init__(self, start: Start, reps: list[Choice], stop: int) -> None:
        self.start = start
        self.reps = reps
        self.stop = stop
        self.turned = start.state.turned
        self.known: dict[tuple[int, tuple[str, ...]], Table] = {}  # (choice, the cards turned over): the table
        self.lengths: list[list[int]] = [[] for _ in reps]  # per choice, how many cards its playouts turned over

    def play_many(self, live: list[int], decks: list[list[str]], need: int) -> list[list[Table]]:
        """For each deck, the table where each choice of ``live`` stops on it: ``play`` for each, or on the fast
        path (``bots.fastplay``, when ready) every one in one call of its kernel (the same tables: the kernel
        plays as ``Start.play_to``, every seat greedy, its first decision the choice)."""
        fast = fastplay()
        if not fast.ready(len(live) * len(decks) * need):
            return [[self.play(c, deck) for c in live] for deck in decks]
        start = self.start
        firsts = [fast.place(i) if kind == "row" else fast.DRAW if kind == "draw" else i
                  for kind, i in (self.reps[c] for c in live)]
        tables = fast.play_from(start.state, firsts, decks, self.turned, GreedyBot().take_at, stop_round=self.stop,
                                hand=start.card)
        m = len(decks)
        return [[tables[f * m + d] for f in range(len(live))] for d in range(m)]

    def play(self, c: int, deck: list[str]) -> Table:
        """The table where choice ``c``'s playout on ``deck`` stops (``Start.play_to``)."""
        known = self.known
        for m in self.lengths[c]:  # at most one kept playout's cards begin the order (it would play the same)
            table = known.get((c, tuple(deck[:m])))
            if table is not None:
                return table
        table = self.start.play_to(self.reps[c], deck, self.stop)
        m = table.turned - self.turned
        if m not in self.lengths[c]:
            self.lengths[c].append(m)
        known[c, tuple(deck[:m])] = table
        return table


def _inverse_chances(start: Start, deck: list[str], most: int | None = None) -> list[float]:
    """For each j, 1 / the probability of the first j cards of ``deck`` (as ``Start.deal`` draws them; the
    last-round card, which lies where the rules put it, counted as a card turned over but not as a chance);
    ``most``: for j up to that only."""
    counts = list(start.state.remaining)
    left = len(start.pool)
    out = [1.0]
    inverse = 1.0
    for card in deck if most is None else deck[:most]:
        if card != LAST_ROUND:
            k = KIND_INDEX[card]
            inverse *= left / counts[k]
            counts[k] -= 1
            left -= 1
        out.append(inverse)
    return out


def _count(start: Start, reps: list[Choice], stop: int, tally: Tally, allow: int,
           tried: int) -> tuple[every_order.Leaves | None, int]:
    """Every order counted (``every_order.leaves``, given up past ``2 × allow``) where the samples estimate at most
    twice ``allow`` of them and no count was given up at half as many or more; with the largest number a count was
    given up at."""
    if allow < 2 * tried or tally.tree() > 2 * allow:
        return None, tried
    found = every_order.leaves(start, reps, stop, 2 * allow)
    return found, tried if found is not None else allow


def _share(table: Table) -> float:
    return share_left(table.turned, table.lr_expected_at, table.over)


def counted(start: Start, reps: list[Choice], labels: list[str], played: int, found: every_order.Leaves,
            match: MatchContext | None = None) -> Evaluation:
    """The values of every choice from every order its playouts can meet (``every_order.leaves``), each table where
    they stop valued as the sampler values it (the evaluator, or the real scores of a finished game), the same
    table once: no sampling error (``exact``, standard errors 0)."""
    seat = start.state.current
    players = start.state.players
    kinds = len(start.state.remaining)
    # every table of every choice valued in one pass, the same position once (``_outcomes``)
    outcomes = iter(_outcomes([t for tables in found for t, _ in tables], seat, scores_for(start.state),
                              pack, True))
    values = []
    for c, tables in enumerate(found):
        margins = [0.0] * players
        win = 0.0
        match_win = 0.0
        cards = [0.0] * kinds
        for table, p in tables:
            m, w = next(outcomes)
            for q in range(players):
                margins[q] += p * m[q]
            win += p * w
            if match is not None:
                match_win += p * match.chance(m, seat, _share(table))
            for j, count in enumerate(table.collections[seat]):
                cards[j] += p * count
        values.append(ChoiceValue(labels[c], margins[seat], 0.0, win, 0.0, tuple(margins), tuple(cards),
                                  math.nan if match is None else match_win))
    best = best_exact(values, played)
    loss = values[best].margin - values[played].margin
    chance = values[best].chance - values[played].chance
    return Evaluation(tuple(values), played, best, max(0.0, loss), 0.0, 0, True, loss, chance, 0.0)


def best_exact(values: tuple[ChoiceValue, ...] | list[ChoiceValue], played: int) -> int:
    """The best of values without sampling error (``marks.pick``, ``EQUAL_CHANCE`` the width of a tie)."""
    return marks.pick([v.margin for v in values], [v.chance for v in values],
                      [marks.EQUAL_CHANCE] * len(values), played)


def _key(table: Table) -> tuple[object, ...]:
    """What tells two tables apart (the same key: the same position)."""
    return (tuple(table.rows), tuple(table.collections), tuple(table.remaining), tuple(table.taken),
            tuple(table.done), table.current, table.round, table.turned, table.lr_pending, table.last_round,
            table.over, table.discarded)


#: One playout's outcome for the player deciding: every seat's margin, and the decider's win (or chance of it).
_Outcome = tuple[tuple[float, ...], float]


def _outcomes(tables: list[Table], seat: int, scores: Scores, pack: Callable[[tuple[int, ...]], int],
              evaluator: bool, valued: dict[tuple[object, ...], _Outcome] | None = None) -> list[_Outcome]:
    """Every seat's margin at the end of each playout and whether ``seat`` won (1 or 0; a shared first place
    counts): the real ones for a finished game (and, without ``evaluator``, for one whose cards ran out), the
    evaluator's expectations (its chance of winning) for a table stopped at the end of a round, all those in
    one pass of the model, each position once. ``valued``: the evaluator's values of positions met before
    (by ``_key``), read and added to (the same position reached by two orders is valued once)."""
    out: list[_Outcome | None] = [None] * len(tables)
    later: dict[tuple[object, ...], list[int]] = {}  # a position the evaluator values, where it stands in ``out``
    known = {} if valued is None else valued
    for k, table in enumerate(tables):
        if table.over or not evaluator:
            s = [scores[pack(x)] for x in table.collections]
            total = sum(s)
            n = len(s)
            out[k] = (tuple(v - (total - v) / (n - 1) for v in s), 1.0 if s[seat] == max(s) else 0.0)
            continue
        key = _key(table)
        got = known.get(key)
        if got is not None:
            out[k] = got
        else:
            later.setdefault(key, []).append(k)
    if later:
        from ..bots.evaluate import (
            evaluate_many,  # numpy, loaded only when the evaluator is asked for
        )

        for (key, ks), v in zip(later.items(), evaluate_many([tables[ks[0]] for ks in later.values()])):
            got = known[key] = (v.margin, v.win[seat])
            for k in ks:
                out[k] = got
    return [o for o in out if o is not None]
