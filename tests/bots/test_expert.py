"""The ``expert-mc`` bot (races of greedy playouts, ``expert.PlayoutExpertBot``): the analysis's best choice, legal,
reproducible and blind to the deck's order; and ``simulate`` with the ``expert`` on the evaluator."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.bots import exact as exact_search
from coloretto_log.bots import expert
from coloretto_log.bots import players as bots
from coloretto_log.bots import simulate as sim
from coloretto_log.bots.expert import PlayoutExpertBot
from coloretto_log.bots.players import BOTS, GreedyBot, RandomBot, hidden, make_bot, turn
from coloretto_log.bots.playout import Start
from coloretto_log.cli import app
from coloretto_log.core import engine
from coloretto_log.core.cards import counts_of
from coloretto_log.core.engine import Draw, GameState, Take
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.replay import check_match

from ..builders.positions import reordered

runner = CliRunner()


def quick(**kw: Any) -> PlayoutExpertBot:
    """An expert with few samples: the tests' games stay quick."""
    return PlayoutExpertBot(**{"samples": 16, "batch": 8, "min_samples": 8, **kw})


def new_state(seed: int, players: int = 4, edition: str = "classic") -> GameState:
    rules = RuleSet.of(edition=edition, scoring="alternative" if players == 3 else "standard")
    s = seeded_setup(rules, players, seed, 0)
    return engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)


def expert_game(seed: int, players: int = 3, edition: str = "classic") -> list[GameState]:
    """Every state of one game: seat 0 a quick expert, the others greedy and random; every move checked."""
    state = new_state(seed, players, edition)
    seats: list[bots.Bot] = [quick()] + [GreedyBot() if s % 2 else RandomBot() for s in range(1, players)]
    rngs = [SplitMix64(seed * 10 + s) for s in range(players)]
    out = [state]
    while not state.over:
        move = turn(seats[state.current], state, rngs[state.current])
        assert engine.check(state, move) is None, move
        state = engine.apply(state, move)
        out.append(state)
    return out


def position(players: int, collections: list[dict[str, int]], rows: list[list[str]], remaining: dict[str, int],
             ) -> GameState:
    """A classic position of the last round (the last-round card out) where the last seat is alone:
    every other seat has taken a row, one row each from the first."""
    base = new_state(1, players)

    def counts(d: dict[str, int]) -> tuple[int, ...]:
        return counts_of([k for k, n in d.items() for _ in range(n)])

    rem = counts(remaining)
    return hidden(base)._replace(
        collections=tuple(counts(c) for c in collections),
        rows=tuple(tuple(r) for r in rows),
        taken=tuple(i < players - 1 for i in range(len(rows))),
        done=tuple(s < players - 1 for s in range(players)),
        current=players - 1,
        remaining=rem,
        lr_pending=False,
        last_round=True,
        turned=base.total - sum(rem),
    )


BOARD = [{"orange": 3}, {"blue": 3}, {"brown": 3}, {"red": 4, "green": 3, "grey": 3, "yellow": 1}]


# --------------------------------------------------------------------------- positions known by hand


@pytest.mark.parametrize("exact", [True, False])
def test_takes_the_row_that_makes_six_of_a_colour_rather_than_draw(exact: bool) -> None:
    # Alone in the last round: row 4 holds two reds, which make her 4 reds 6 (10 -> 21 points).
    # Every unseen card is yellow, her negative colour: a draw goes into row 4, which she must then
    # take, and her second yellow costs her 3 - 1 = 2 points. Take row 4.
    state = position(4, BOARD, [[], [], [], ["red", "red"]], {"yellow": 8})
    assert expert.searched_exactly(Start(state))
    assert quick(exact=exact).choose(state, SplitMix64(0)) == Take(3, 4)


def test_puts_the_card_where_it_makes_six_of_a_colour() -> None:
    # Two players, the first has taken row 1; the second holds red 3, blue 3, brown 3, grey 1 (6+6+6-1 = 17)
    # and turned over a red. Rows 2 (limit 2, empty) and 3 (limit 3: red, red) are open. In row 3 the red
    # fills the row and taking it makes red 6: 21+6+6-1 = 32. In row 2 it is apart from the two others:
    # taking row 3 then makes red 5 (15): 26, and a draw brings a grey at 5 chances in 6. Row 3.
    mine = {"red": 3, "blue": 3, "brown": 3, "grey": 1}
    state = position(2, [{"orange": 3}, mine], [["blue"], [], ["red", "red"]], {"grey": 5, "red": 1})
    state = bots.turned_over(state, "red", False)
    for exact in (True, False):
        assert quick(exact=exact).place(state, "red", SplitMix64(0)) == 3


def test_a_choice_that_trails_beyond_noise_is_dropped_after_the_first_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every order of eight yellows is the same: the draw trails the take by 2 points in every sample
    # (standard error 0), so the race ends after its first batch: 8 orders for each of the two choices.
    calls: list[tuple[str, int]] = []
    real = expert._sampled_margin

    def counted(start: Start, scores: bots.Scores, choice: tuple[str, int], deck: list[str]) -> float:
        calls.append(choice)
        return real(start, scores, choice, deck)

    monkeypatch.setattr(expert, "_sampled_margin", counted)
    state = position(4, BOARD, [[], [], [], ["red", "red"]], {"yellow": 8})
    bot = PlayoutExpertBot(samples=256, batch=8, min_samples=8, exact=False)
    assert bot.choose(state, SplitMix64(0)) == Take(3, 4)
    assert sorted(set(calls)) == [("draw", -1), ("take", 3)] and len(calls) == 16


def test_rows_alike_are_one_choice_and_a_forced_decision_draws_no_number() -> None:
    # the first card of a game: every row is empty, so one choice, played without a sample
    state = bots.turned_over(hidden(new_state(2)), "red", False)
    assert expert.distinct(expert.public_position(state, "red")) == [("row", 0)]
    rng = SplitMix64(5)
    assert PlayoutExpertBot().place(state, "red", rng) == 1
    assert rng.state == SplitMix64(5).state


def test_in_the_exact_end_it_plays_the_exact_search_best_choice() -> None:
    checked = 0
    for seed in range(6):
        if checked >= 3:
            break
        for state in expert_game(seed, 3)[:-1]:
            view = hidden(state)
            start = Start(view)
            if not expert.searched_exactly(start) or len(expert.distinct(start)) < 2:
                continue
            choices = expert.distinct(start)
            values = [v[view.current] for v in exact_search.choice_values(start, choices)]
            best = max(values)
            rng = SplitMix64(seed)
            got = PlayoutExpertBot().choose(view, rng)
            kind, i = choices[values.index(best)]  # ties to the first choice
            assert got == (None if kind == "draw" else Take(view.current, i + 1))
            assert rng.state == SplitMix64(seed).state  # the exact search draws no number
            checked += 1
    assert checked >= 3


def test_needs_one_sample() -> None:
    with pytest.raises(ValueError):
        PlayoutExpertBot(samples=0)


# --------------------------------------------------------------------------- legal, reproducible, blind


@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]))
@settings(max_examples=6, deadline=None)
def test_plays_only_legal_moves_to_the_end(seed: int, players: int, edition: str) -> None:
    states = expert_game(seed, players, edition)
    assert states[-1].over
    assert engine.card_total(states[-1]) == engine.card_total(states[0])


def test_the_same_generator_gives_the_same_decisions() -> None:
    state = new_state(31, 3)
    for _ in range(12):
        a = turn(quick(), state, SplitMix64(77))
        assert turn(quick(), state, SplitMix64(77)) == a
        state = engine.apply(state, a)


class NoPeeking(tuple):  # type: ignore[type-arg]
    """A deck that fails the test if anybody looks at it."""

    def _fail(self, *args: Any) -> Any:
        raise AssertionError("the expert looked at the deck")

    __getitem__ = __iter__ = __len__ = __contains__ = _fail


def test_decks_that_differ_only_in_unseen_cards_give_the_same_decision() -> None:
    bot = quick()
    checked = exact = 0
    for state in expert_game(41, 3)[:-1:2]:
        other = reordered(state, state.turned)
        if sum(state.remaining) > 1:
            assert other.deck != state.deck
        assert bot.choose(state, SplitMix64(3)) == bot.choose(other, SplitMix64(3))
        assert bot.choose(state._replace(deck=NoPeeking()), SplitMix64(3)) == bot.choose(other, SplitMix64(3))
        if any(type(m) is Draw for m in engine.legal_actions(state)):
            card = next(c for c in ("red", "joker", "plus2", "green", "blue") if c in state.deck[state.turned:])
            a = bot.place(bots.turned_over(state, card, False), card, SplitMix64(4))
            assert a == bot.place(bots.turned_over(other, card, False), card, SplitMix64(4))
        exact += exact_search.applies(Start(hidden(state)))
        checked += 1
    assert checked > 20 and exact > 0


# --------------------------------------------------------------------------- simulate


def test_registry_and_simulate_know_the_expert() -> None:
    assert "expert" in BOTS and make_bot("expert").name == "expert"
    assert sim.make_plan(players=2, bots=["expert", "greedy"]).players == ("expert-1", "greedy-2")


def test_simulate_plays_expert_end_to_end_the_same_for_any_jobs(tmp_path: Path) -> None:
    out = tmp_path / "e.jsonl"
    args = ["simulate", "-n", "2", "--player-count", "2", "--games", "1", "--bots", "expert,greedy", "--seed", "5",
            "--out", str(out), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert {b["bot"] for b in summary["bots"]} == {"expert", "greedy"}
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        assert check_match(json.loads(line)).valid
    plan = sim.make_plan(players=2, bots=["expert", "greedy"], games=1, seed=5)
    assert [o.line for o in sim.run(plan, 2, jobs=2)] == lines
