"""The estimator's stopping rule for the marks: a chance lost near a line samples on, past the cap for the mark alone;
and its playouts, looked up by the cards they turned over, the ones played."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.bots import players as bots
from coloretto_log.bots.playout import Start
from coloretto_log.coach import analyze as A
from coloretto_log.coach import estimate, marks
from coloretto_log.coach.estimate import EXTEND, NEAR, SETTLE, Evaluation
from coloretto_log.core import engine
from coloretto_log.core.engine import GameState
from coloretto_log.core.rng import SplitMix64, nth_output
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

from ..builders.positions import last_round_position

CAP = 64  # the first look of the stopping rule (MIN_SAMPLES): a run with this cap is judged there first


def task(state: GameState, played: tuple[str, int], seed: int) -> A.Task:
    return A.Task(1, 1, state.current, "draw-or-take", state, None, False, played, seed)


def evaluate(played: int, cap: int = CAP, max_se: float = 0.5) -> tuple[Evaluation, A.Task]:
    state = last_round_position()
    open_choices = Start(state).choices()
    t = task(state, open_choices[played], seed=5)
    return A.evaluate(t, A.Settings(samples=cap, max_se=max_se, exact=False)), t


def at_the_cap(monkeypatch: pytest.MonkeyPatch) -> tuple[int, Evaluation]:
    """The worst choice of the position played, valued on the cap's samples alone (no sampling past it)."""
    first, _ = evaluate(0, max_se=0)
    worst = min(range(len(first.choices)), key=lambda k: first.choices[k].margin)
    monkeypatch.setattr(estimate, "EXTEND", 1)
    ev, _ = evaluate(worst)
    monkeypatch.undo()
    assert ev.samples == CAP and ev.best != ev.played and ev.loss > 0
    return worst, ev


def line_at(monkeypatch: pytest.MonkeyPatch, threshold: float) -> None:
    """One mark, drawn at ``threshold`` points, for the sampler and the rule alike."""
    line = (("inaccuracy", threshold),)
    monkeypatch.setattr(marks, "THRESHOLDS", line)
    monkeypatch.setattr(estimate, "THRESHOLDS", line)


def test_a_mark_on_its_line_at_the_cap_samples_on_for_it_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    worst, cap_ev = at_the_cap(monkeypatch)
    # the line drawn right where the chance lost lies at the cap: the mark is as unsettled as it can be
    line_at(monkeypatch, max(0.0, cap_ev.chance))
    ev, t = evaluate(worst)
    assert CAP < ev.samples <= EXTEND * CAP
    if ev.samples < EXTEND * CAP:  # it stopped because the chance lost moved off the line
        assert abs(max(0.0, ev.chance) - max(0.0, cap_ev.chance)) >= NEAR * ev.chance_se
    # only the played choice and the best are played out past the cap: every other keeps its CAP samples
    for k, (before, after) in enumerate(zip(cap_ev.choices, ev.choices)):
        if k not in (ev.played, ev.best, cap_ev.best):
            assert after == before
    # the loss added up elsewhere is the one at the cap (sampling on was decided on it)
    assert ev.unbiased_loss == cap_ev.unbiased_loss
    # and analyze marks it on the chance lost
    decision = next(iter(A.analyze([t], A.Settings(samples=CAP, exact=False))))
    assert decision.evaluation == ev
    assert decision.mark == (None if decision.about_equal else marks.mark_for(max(0.0, ev.chance)))


def test_a_settled_mark_stops_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    worst, cap_ev = at_the_cap(monkeypatch)
    for far in (-10.0, 10.0):  # the line far below, then far above the chance lost
        line_at(monkeypatch, max(0.0, cap_ev.chance) + far * max(cap_ev.chance_se, 0.01) + 20.0 * (far < 0))
        ev, _ = evaluate(worst)
        assert ev.samples <= CAP


def test_always_n_samples_never_samples_past_them(monkeypatch: pytest.MonkeyPatch) -> None:
    worst, cap_ev = at_the_cap(monkeypatch)
    line_at(monkeypatch, max(0.0, cap_ev.chance))
    ev, _ = evaluate(worst, max_se=0)  # --max-se 0: exactly --samples orders, whatever the mark
    assert ev.samples == CAP


def test_near_a_line_by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    line_at(monkeypatch, 0.05)
    assert estimate._near_line(0.04, SETTLE * 0.005)  # 2 se under the line: sample on
    assert not estimate._near_line(0.03, SETTLE * 0.005)  # 4 se under it: settled
    assert not estimate._near_line(-0.2, SETTLE * 0.01)  # a chance raised counts from 0
    assert estimate._near_line(-0.2, SETTLE * 0.03)  # 0 lies within 2.5 × 0.03 of 0.05


def test_a_mark_settles_only_if_the_in_sample_chance_gives_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # two choices, 0 played; on the even samples choice 1 is 4 points better and wins where 0 loses, on the odd
    # ones 1 point worse (give or take a little) and both lose: the odd half picks the played choice for the even
    # samples, the even half picks choice 1 for the odd ones, so the cross-fitted chance lost is 0 while the
    # in-sample one is a half
    n = 64
    tally = estimate.Tally(2, 3, 1)
    noise = [((7 * i) % 5 - 2) / 10 for i in range(n)]
    tally.x[0] = [noise[i] for i in range(n)]
    tally.x[1] = [noise[i] + (4.0 if i % 2 == 0 else -1.0) + noise[(i + 3) % n] for i in range(n)]
    tally.w[0] = [0] * n
    tally.w[1] = [1 if i % 2 == 0 else 0 for i in range(n)]
    chance, chance_se, naive = tally.chance(0)
    assert chance == 0 and naive == 0.5
    line_at(monkeypatch, 0.45)  # far above the cross-fitted chance lost, near the in-sample one
    assert not estimate._near_line(chance, SETTLE * chance_se)
    assert not estimate._settled(tally, 0, 10.0, n)
    # the same samples with the line far above both: settled
    line_at(monkeypatch, 0.95)
    assert estimate._settled(tally, 0, 10.0, n)


def test_the_in_sample_chance_lost_is_settled_by_its_own_standard_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # two choices, 0 played; choice 1 is a point worse on the even samples and two points better on the odd ones, so
    # the even half picks the played choice for the odd samples (their cross-fitted differences are 0) and the odd
    # half picks choice 1 for the even ones, where the two chances differ by 0.01. On the odd samples choice 1's
    # chance is 0.26 or 0.14 either side of the played one's: the in-sample chance lost, 0.035, varies that much,
    # while the cross-fitted one, 0.005, has a standard error of 0.0006 (seed 4 of the stability figure's
    # 3-player game 13, move 34, stopped at 96 samples on such a split: 0.0047 ± 0.0079, where seven seeds counted
    # every order, 0.0501)
    n = 64
    tally = estimate.Tally(2, 3, 1)
    tally.x[0] = [0.0] * n
    tally.x[1] = [-1.0 if i % 2 == 0 else 2.0 for i in range(n)]
    tally.w[0] = [0.3] * n
    tally.w[1] = [0.31 if i % 2 == 0 else (0.56 if i % 4 == 1 else 0.16) for i in range(n)]
    chance, chance_se, naive = tally.chance(0)
    assert chance == pytest.approx(0.005) and chance_se < 0.001 and naive == pytest.approx(0.035)
    line_at(monkeypatch, 0.05)
    assert not estimate._near_line(chance, SETTLE * chance_se)
    assert not estimate._near_line(naive, SETTLE * chance_se)  # judged by the cross-fitted error: settled
    assert not estimate._settled(tally, 0, 10.0, n)  # by its own: 0.05 is within 2.5 standard errors of 0.035
    line_at(monkeypatch, 0.2)  # a line far from both
    assert estimate._settled(tally, 0, 10.0, n)


def greedy_game(seed: int, players: int) -> list[GameState]:
    """Every state of one seeded game of greedy seats."""
    rules = RuleSet.of(games=1)
    s = seeded_setup(rules, players, seed, 0)
    state = engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
    out = [state]
    rng = SplitMix64(seed)
    while not state.over:
        state = engine.apply(state, bots.turn(bots.GreedyBot(), state, rng))
        out.append(state)
    return out


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(3, 5), st.floats(0.0, 0.95))
def test_a_playout_looked_up_by_the_cards_it_turned_over_is_the_one_played(seed: int, players: int,
                                                                          when: float) -> None:
    states = greedy_game(seed, players)
    start = Start(states[int(when * (len(states) - 1))])
    reps = start.choices()
    stop = start.stop_round()
    need = start.need(stop)
    kept = estimate._Playouts(start, reps, stop)
    for k in range(120):
        deck = start.deal(nth_output(seed, k), need)
        for c in range(len(reps)):
            got = kept.play(c, deck)
            assert got.state() == start.play_to(reps[c], deck, stop).state()
            assert kept.play(c, deck) is got  # the same order again: looked up, not played
