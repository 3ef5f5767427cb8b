"""The estimator past its cap: a mark still on its line samples on, for the mark alone, judged on the cap's noise."""

from __future__ import annotations

import math

import pytest

from coloretto_log.core.engine import GameState
from coloretto_log.play import analyze as A
from coloretto_log.play import estimate, marks
from coloretto_log.play.estimate import EXTEND, NEAR, Evaluation
from coloretto_log.play.playout import Start

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


def test_a_mark_on_its_line_at_the_cap_samples_on_for_it_alone_and_keeps_the_caps_noise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    worst, cap_ev = at_the_cap(monkeypatch)
    # the line drawn right where the cap's bound lies: the mark is as unsettled as it can be
    line_at(monkeypatch, cap_ev.loss - marks.Z * cap_ev.loss_se)
    ev, t = evaluate(worst)
    assert CAP < ev.samples <= EXTEND * CAP
    # past the cap the bound takes off the noise the loss had at the cap: the same spread over CAP samples
    assert math.isclose(ev.mark_se, ev.loss_se * math.sqrt(ev.samples / CAP))
    assert ev.mark_se > ev.loss_se
    lower = ev.loss - marks.Z * ev.mark_se
    if ev.samples < EXTEND * CAP:  # it stopped because the bound moved off the line
        assert abs(lower - (cap_ev.loss - marks.Z * cap_ev.loss_se)) >= NEAR * ev.loss_se
    # only the played choice and the best are played out past the cap: every other keeps its CAP samples
    for k, (before, after) in enumerate(zip(cap_ev.choices, ev.choices)):
        if k not in (ev.played, ev.best, cap_ev.best):
            assert after == before
    # skill adds the loss as it came out at the cap (sampling on was decided on it)
    assert ev.unbiased_loss == cap_ev.unbiased_loss
    # and analyze marks it on that bound
    decision = next(iter(A.analyze([t], A.Settings(samples=CAP, exact=False))))
    assert decision.evaluation == ev
    assert decision.mark == marks.mark_for(ev.loss, ev.mark_se)


def test_a_settled_mark_stops_at_the_cap_and_is_judged_on_its_own_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    worst, cap_ev = at_the_cap(monkeypatch)
    for far in (-10.0, 10.0):  # the bound far below, then far above the line
        line_at(monkeypatch, cap_ev.loss - marks.Z * cap_ev.loss_se + far * cap_ev.loss_se)
        ev, _ = evaluate(worst)
        assert ev.samples <= CAP
        assert ev.mark_se == ev.loss_se


def test_always_n_samples_never_samples_past_them(monkeypatch: pytest.MonkeyPatch) -> None:
    worst, cap_ev = at_the_cap(monkeypatch)
    line_at(monkeypatch, cap_ev.loss - marks.Z * cap_ev.loss_se)
    ev, _ = evaluate(worst, max_se=0)  # --max-se 0: exactly --samples orders, whatever the mark
    assert ev.samples == CAP
    assert ev.mark_se == ev.loss_se


def test_the_mark_of_a_hand_made_evaluation_goes_by_the_caps_noise() -> None:
    # 1.75 ± 0.09 after four times the cap, 0.18 at the cap: 1.75 - 2 × 0.18 = 1.39, short of 1.5
    ev = Evaluation((), 0, 1, 1.75, 0.09, 8000, False, 1.75, 0.18)
    assert ev.mark_se == 0.18
    assert marks.mark_for(ev.loss, ev.mark_se) is None
    assert marks.mark_for(ev.loss, ev.loss_se) == "inaccuracy"  # what the smaller noise alone would say
    assert Evaluation((), 0, 1, 1.75, 0.09, 500, False, 1.75).mark_se == 0.09
