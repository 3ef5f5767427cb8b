"""Every order counted (``every_order``): the tables a playout can stop at, with their probabilities, against a brute
force through the sampler's own playouts; the counted values in the analysis, the same whatever the seed."""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict

import pytest

from coloretto_log.bots import players as bots
from coloretto_log.bots.playout import Choice, Start
from coloretto_log.coach import analyze as A
from coloretto_log.coach import estimate, every_order
from coloretto_log.core import engine
from coloretto_log.core.cards import GOLDEN_JOKER, KINDS, LAST_ROUND
from coloretto_log.core.engine import GameState, Table
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

BUDGET = 300


def _tasks(seed: int, players: int, edition: str) -> list[A.Task]:
    """Every decision of a game of random play (varied positions: golden jokers left in rows, odd takes)."""
    rules = RuleSet.of(edition=edition)
    s = seeded_setup(rules, players, seed, 0)
    state = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    bot, rng = bots.make_bot("random"), SplitMix64(seed)
    pairs = []
    while not state.over:
        move = bots.turn(bot, state, rng)
        pairs.append((move, state))
        state = engine.apply(state, move)
    return A.tasks_of_game(pairs, 1, 1, seed)


@functools.cache
def small_trees() -> list[tuple[Start, tuple[Choice, ...], int]]:
    """Decisions of such games whose playouts meet at most ``BUDGET`` orders: (position, distinct choices, stop)."""
    out = []
    for seed in range(2):
        for players in (2, 3, 4, 5):
            for edition in ("classic", "anniversary"):
                for t in _tasks(seed, players, edition):
                    start = Start(t.state, t.card, t.last_round)
                    reps, _ = A._distinct(start.state, start.choices())
                    stop = start.stop_round()
                    if len(reps) > 1 and every_order.leaves(start, reps, stop, BUDGET) is not None:
                        out.append((start, tuple(reps), stop))
    return out


class _NeedMore(Exception):
    """A playout read past the cards dealt so far."""


class _Prefix(list[str]):
    """The first cards of an order, that cannot be read past: a playout that asks for another card says so
    (``_NeedMore``) instead of playing on as if the cards had run out."""

    def __len__(self) -> int:
        return 1 << 30

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        if isinstance(i, int) and i >= list.__len__(self):
            raise _NeedMore
        return list.__getitem__(self, i)


def brute(start: Start, choice: Choice, stop: int) -> dict[GameState, float]:
    """Where the sampler's playout of ``choice`` stops (``Start.play_to``), over every order of the unseen cards:
    each order cut after the cards its playout turns over, every such prefix with its probability."""
    unseen = sum(start.state.remaining)
    counts = list(start.state.remaining)
    out: dict[GameState, float] = defaultdict(float)

    def walk(prefix: list[str], p: float) -> None:
        cards = prefix[:]
        if 0 <= start.lr_at <= len(cards):
            cards.insert(start.lr_at, LAST_ROUND)
        deck = cards if len(prefix) == unseen else _Prefix(cards)  # every card dealt: the order ends there
        try:
            table = start.play_to(choice, deck, stop)
        except _NeedMore:
            left = unseen - len(prefix)
            for k, n in enumerate(counts):
                if n:
                    counts[k] -= 1
                    walk([*prefix, KINDS[k]], p * n / left)
                    counts[k] += 1
            return
        out[table.state()] += p

    walk([], 1.0)
    return out


def test_the_positions_are_varied() -> None:
    trees = small_trees()
    assert len(trees) >= 40
    # row decisions and draw-or-take ones; playouts to the end of the round and to the end of the game
    assert any(s.card is not None for s, _, _ in trees) and any(s.card is None for s, _, _ in trees)
    assert any(stop == 0 for _, _, stop in trees) and any(stop > 0 for _, _, stop in trees)
    # a golden joker taken (its extra card comes), and the last-round card met on the way
    assert any(GOLDEN_JOKER in s.state.rows[i] for s, reps, _ in trees for kind, i in reps if kind == "take")
    assert any(0 <= s.lr_at < 3 for s, _, _ in trees)
    assert {s.state.players for s, _, _ in trees} == {2, 3, 4, 5}


def test_every_order_agrees_with_a_brute_force_through_the_sampler_playouts() -> None:
    for start, reps, stop in small_trees():
        found = every_order.leaves(start, list(reps), stop, BUDGET)
        assert found is not None
        for choice, tables in zip(reps, found):
            assert sum(p for _, p in tables) == pytest.approx(1.0)
            mine: dict[GameState, float] = defaultdict(float)
            for table, p in tables:
                mine[table.state()] += p
            theirs = brute(start, choice, stop)
            assert mine.keys() == theirs.keys(), (choice, start.state)
            for key, p in theirs.items():
                assert mine[key] == pytest.approx(p, abs=1e-12)


def test_a_large_tree_is_given_up() -> None:
    state = _tasks(0, 4, "classic")[0].state  # the first draw of a game: the round's every card still to come
    start = Start(state)
    assert every_order.leaves(start, start.choices(), start.stop_round(), 500) is None


def test_counted_values_are_the_leaves_weighted_and_carry_no_noise() -> None:
    start, reps, stop = next((s, r, st) for s, r, st in small_trees() if s.state.players == 3 and st > 0)
    found = every_order.leaves(start, list(reps), stop, BUDGET)
    assert found is not None
    labels = [A.choice_label(c) for c in reps]
    ev = estimate.counted(start, list(reps), labels, 0, found)
    seat = start.state.current
    from coloretto_log.bots.evaluate import evaluate

    for value, tables in zip(ev.choices, found):
        by_hand = [0.0, 0.0]
        for table, p in tables:
            v = evaluate(table)
            by_hand[0] += p * v.margin[seat]
            by_hand[1] += p * v.win[seat]
        assert value.margin == pytest.approx(by_hand[0]) and value.win_prob == pytest.approx(by_hand[1])
        assert value.margin_se == value.win_prob_se == 0
    assert ev.exact and ev.samples == 0 and ev.loss_se == ev.chance_se == 0
    assert ev.loss == pytest.approx(ev.choices[ev.best].margin - ev.choices[0].margin)
    assert all(c.margin <= ev.choices[ev.best].margin for c in ev.choices)


def test_the_analysis_counts_a_small_tree_the_same_on_every_seed() -> None:
    t = next(t for t in _tasks(1, 3, "classic")
             if (s := Start(t.state, t.card, t.last_round)).stop_round()
             and len(A._distinct(s.state, s.choices())[0]) > 1
             and every_order.leaves(s, A._distinct(s.state, s.choices())[0], s.stop_round(), 64) is not None)
    evs = [A.evaluate(dataclasses.replace(t, seed=seed), A.Settings(seed=seed)) for seed in (0, 1, 2, 3)]
    assert all(ev.exact and ev.samples == 0 for ev in evs)
    assert all(ev == evs[0] for ev in evs)
    # --max-se 0 (always --samples orders) samples as it says
    sampled = A.evaluate(t, A.Settings(samples=64, max_se=0))
    assert not sampled.exact and sampled.samples == 64


def test_a_sample_counts_as_one_over_the_chance_of_its_cards() -> None:
    state = _tasks(2, 4, "classic")[5].state
    start = Start(state)
    deck = start.deal(7, 4)
    inverse = estimate._inverse_chances(start, deck)
    counts = list(start.state.remaining)
    left = sum(counts)
    expected = [1.0]
    for card in deck:
        if card != LAST_ROUND:
            k = KINDS.index(card)
            expected.append(expected[-1] * left / counts[k])
            counts[k] -= 1
            left -= 1
        else:
            expected.append(expected[-1])
    assert inverse == pytest.approx(expected)
    assert Table(state).turned == state.turned
    # worked out only as far as a playout went: the same numbers, cut there
    for most in range(len(deck) + 1):
        assert estimate._inverse_chances(start, deck, most) == inverse[:most + 1]


def test_the_evaluator_is_asked_once_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    from coloretto_log.bots import evaluate

    asked: list[int] = []
    real = evaluate.evaluate_many

    def counting(views: list[Table]) -> list[evaluate.Values]:
        asked.append(len(views))
        return real(views)

    monkeypatch.setattr(evaluate, "evaluate_many", counting)
    start = Start(_tasks(2, 4, "classic")[5].state)
    stop = start.stop_round()
    assert stop  # playouts to the end of the round: the evaluator values where they stop
    scores = bots.scores_for(start.state)
    tables = [start.play_to(c, start.deal(seed, start.need(stop)), stop) for seed in range(24) for c in start.choices()]
    tables += [t.copy() for t in tables[::3]]  # the same positions reached again (as two orders of one round's cards)
    keys = {estimate._key(t) for t in tables if not t.over}
    assert len(keys) < len(tables)
    valued: dict[tuple[object, ...], tuple[tuple[float, ...], float]] = {}
    seat = start.state.current
    got = estimate._outcomes(tables, seat, scores, bots.pack, True, valued)
    assert sum(asked) == len(keys) and set(valued) == keys
    # the same values as each table valued on its own, in order
    alone = [estimate._outcomes([t], seat, scores, bots.pack, True)[0] for t in tables]
    assert len(got) == len(alone)
    for (m, w), (m1, w1) in zip(got, alone):  # (one row of a batch and a batch of one may round apart in the last bit)
        assert m == pytest.approx(m1) and w == pytest.approx(w1)
    # asked again with the positions known: the evaluator is not asked at all
    asked.clear()
    assert estimate._outcomes(tables, seat, scores, bots.pack, True, valued) == got and not asked


def test_a_tree_estimated_at_most_twice_the_allowance_is_counted() -> None:
    start, reps, stop = small_trees()[0]
    found = every_order.leaves(start, list(reps), stop, BUDGET)
    assert found is not None
    allow = sum(len(x) for x in found)  # the walk may go to twice this: the whole tree fits
    tally = estimate.Tally(len(reps), start.state.players, len(start.state.remaining))
    tally.x = [[0.0] for _ in reps]  # one sample a choice; Knuth's estimate of the tree set by hand below

    def estimated(orders: float) -> None:
        tally.orders = [orders / len(reps)] * len(reps)
        assert tally.tree() == pytest.approx(orders)

    estimated(2 * allow)  # twice the allowance: counted
    got, tried = estimate._count(start, list(reps), stop, tally, allow, 0)
    assert got is not None and tried == 0
    estimated(2 * allow + 1)  # more: left to the sampler, not even tried
    got, tried = estimate._count(start, list(reps), stop, tally, allow, 0)
    assert got is None and tried == 0
    # a walk given up at an allowance is not tried again before the allowance doubles
    estimated(1)
    assert estimate._count(start, list(reps), stop, tally, allow, allow // 2 + 1) == (None, allow // 2 + 1)


def test_a_decision_about_to_stop_unsettled_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    # a decision whose playouts meet more orders than twice the playouts of the cap's samples, few enough to walk
    cap = 64
    t, size = next((t, sum(len(x) for x in found)) for t in _tasks(1, 3, "classic")
                   if (s := Start(t.state, t.card, t.last_round)).stop_round()
                   and len(reps := A._distinct(s.state, s.choices())[0]) > 1
                   and every_order.leaves(s, reps, s.stop_round(), 4 * cap * len(reps)) is None
                   and (found := every_order.leaves(s, reps, s.stop_round(), 8192)) is not None)
    assert size > 2 * cap
    monkeypatch.setattr(estimate, "COUNT_SMALL", 1)  # not counted after the first batch
    monkeypatch.setattr(estimate, "EXTEND", 1)  # nor sampled past the cap
    settings = A.Settings(samples=cap, max_se=1e-6)  # never settled: sampling stops at the cap
    ev = A.evaluate(t, settings)
    assert ev.exact and ev.samples == 0 and ev.chance_se == 0
    # the same where counting is not allowed to go past what the samples cost: sampled to the cap
    monkeypatch.setattr(estimate, "COUNT_MOST", cap)
    sampled = A.evaluate(t, settings)
    assert not sampled.exact and sampled.samples == cap
