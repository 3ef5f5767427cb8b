"""The estimator past its cap: a mark still on its line samples on, for the mark alone, judged on the cap's noise."""

from __future__ import annotations

import math

import pytest

from coloretto_log.core.engine import GameState
from coloretto_log.play import analyze as A
from coloretto_log.play import estimate, marks
from coloretto_log.play.estimate import EXTEND, NEAR, SETTLE, Evaluation
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


def test_a_bound_below_its_line_settles_only_where_more_samples_would_not_carry_it_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(estimate, "DROP", math.inf)  # no racing: the first look sees the 64 samples' loss
    worst, first = at_the_cap(monkeypatch)
    loss, se = max(0.0, first.loss), first.loss_se
    # the line 2.6 standard errors above the bound at the first look: the bound alone is settled there, but
    # twice the samples shrink se by √2 and lift the bound by 2 (1 - 1/√2) se, to within SETTLE se of the line
    t = loss - marks.Z * se + 2.6 * se
    line_at(monkeypatch, t)
    assert not estimate._unsettled(loss, se, se, SETTLE)  # the bound alone would settle at the first look
    assert estimate._reachable(loss, se, se / math.sqrt(estimate.AHEAD))
    cap = 16 * CAP
    ev, _ = evaluate(worst, cap=cap, max_se=100.0)
    assert ev.samples > CAP
    if ev.samples < cap:  # it stopped once neither the bound nor the one more samples would give is near the line
        ahead = ev.loss_se * math.sqrt(ev.samples / min(cap, estimate.AHEAD * ev.samples))
        lower, higher = max(0.0, ev.loss) - marks.Z * ev.loss_se, max(0.0, ev.loss) - marks.Z * ahead
        assert not lower - SETTLE * ev.loss_se < t < higher + SETTLE * ev.loss_se


def test_the_look_ahead_by_hand() -> None:
    # 1.22 ± 0.46 after 160 samples, where 2000 samples said 2.2 (a four-player game's row, one seed of four):
    # the bound 1.22 - 0.92 = 0.30 lies 1.20 = 2.6 se under the 1.5 line, settled on its own; twice the
    # samples give se 0.325 and the bound 0.57, which lies 0.93 = 2.0 se (of now) under it: not settled
    assert not estimate._unsettled(1.22, 0.46, 0.46, SETTLE)
    assert estimate._reachable(1.22, 0.46, 0.46 / math.sqrt(2))
    # a loss of 0.4 ± 0.46 stays clear: the bound twice the samples give, -0.25, is 3.8 se under the line
    assert not estimate._reachable(0.4, 0.46, 0.46 / math.sqrt(2))
    # above a line nothing changes: 5.0 ± 0.3 has its bound at 4.4 (4.6 on twice the samples), 4.7 se clear of 3 and 6
    assert not estimate._reachable(5.0, 0.3, 0.3 / math.sqrt(2))


def test_a_mark_settles_only_if_the_in_sample_loss_gives_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # two choices, 0 played; on the even samples choice 1 is 4 points better, on the odd ones 1 point worse
    # (give or take a little): the odd half picks the played choice for the even samples, the even half picks
    # choice 1 for the odd ones, so the cross-fitted loss is about -0.5 while the in-sample loss is about 1.5
    n = 64
    tally = estimate.Tally(2, 3, 1)
    noise = [((7 * i) % 5 - 2) / 10 for i in range(n)]
    tally.x[0] = [noise[i] for i in range(n)]
    tally.x[1] = [noise[i] + (4.0 if i % 2 == 0 else -1.0) + noise[(i + 3) % n] for i in range(n)]
    loss, se, best = tally.loss(0)
    naive = sum(tally.x[1]) / n - sum(tally.x[0]) / n
    assert best == 1 and loss < 0 and naive > 1
    line_at(monkeypatch, naive - marks.Z * se)  # right on the in-sample loss's bound, far above the other's
    assert not estimate._reachable(loss, se, se)  # the cross-fitted loss alone: settled, no mark
    assert not estimate._settled(tally, 0, 10.0, n)
    # the same samples with the line far above both: settled
    line_at(monkeypatch, naive + 10.0)
    assert estimate._settled(tally, 0, 10.0, n)
