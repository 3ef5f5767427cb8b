"""The rules engine: scripted games checked step by step, and sweeps over random seeded games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core import engine as E
from coloretto_log.core.cards import KIND_INDEX, LAST_ROUND
from coloretto_log.core.engine import Draw, Take
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import canonical_deck, insert_last_round, seeded_setup


def stacked(rules: RuleSet, removed: tuple[str, ...], starting: tuple[tuple[str, ...], ...], top: list[str]) -> tuple[str, ...]:
    """A legal deck whose first cards are ``top`` (in order), the rest in canonical order."""
    rest = canonical_deck(rules, removed, starting)
    for card in top:
        rest.remove(card)
    return insert_last_round(top + rest, rules.under)


def two_player_game(top: list[str]) -> E.GameState:
    rules = RuleSet()
    removed = ("grey", "red")
    starting = (("orange", "blue"), ("brown", "yellow"))
    deck = stacked(rules, removed, starting, top)
    return E.new_game(rules, 2, removed=removed, starting=starting, first=0, deck=deck)


def test_two_player_round_step_by_step() -> None:
    # docs/rules-of-play.md §7: rows of 1, 2, 3 cards; the leftover row is removed; the later taker starts.
    s = two_player_game(["green", "joker", "plus2", "green", "orange"])
    assert s.limits == (1, 2, 3)
    s, m = E.play(s, Draw(0, 1))
    assert m.card == "green" and s.rows == (("green",), (), ()) and s.current == 1
    # row 1 is now full
    assert E.check(s, Draw(1, 1)) == E.Violation("row-full", "row 1 already holds 1 card")
    s, m = E.play(s, Draw(1, 3))
    assert m.card == "joker" and s.current == 0
    s, _ = E.play(s, Draw(0, 2))  # plus2 -> row 2
    s, _ = E.play(s, Take(1, 3))  # seat 1 takes the joker
    assert s.done == (False, True) and s.taken == (False, False, True)
    assert s.collections[1][KIND_INDEX["joker"]] == 1
    assert s.current == 0
    assert E.check(s, Draw(1, 2)).rule == "not-your-turn"  # type: ignore[union-attr]
    assert E.check(s, Draw(0, 3)).rule == "row-taken"  # type: ignore[union-attr]
    s, m = E.play(s, Draw(0, 2))  # green -> row 2, now full (plus2, green)
    assert m.card == "green"
    # rows 1 and 2 are full: must take
    assert E.check(s, Draw(0, 2)).rule == "must-take"  # type: ignore[union-attr]
    s, _ = E.play(s, Take(0, 2))
    # round over: row 1 (green) is discarded; seat 0 took last and starts round 2
    assert s.round == 2 and s.current == 0
    assert s.rows == ((), (), ()) and s.taken == (False, False, False) and s.done == (False, False)
    assert s.discarded[KIND_INDEX["green"]] == 1
    assert s.collections[0][KIND_INDEX["plus2"]] == 1 and s.collections[0][KIND_INDEX["green"]] == 1


def test_take_of_an_empty_row_and_unknown_rows() -> None:
    s = two_player_game([])
    assert E.check(s, Take(0, 1)) == E.Violation("row-empty", "row 1 is empty and cannot be taken")
    assert E.check(s, Draw(0, 4)).rule == "unknown-row"  # type: ignore[union-attr]
    assert E.check(s, Draw(0, 0)).rule == "unknown-row"  # type: ignore[union-attr]
    assert E.check(s, Draw(5, 1)).rule == "unknown-player"  # type: ignore[union-attr]


def play_random(s: E.GameState, rng: random.Random) -> tuple[E.GameState, list[E.GameState]]:
    states = [s]
    while not s.over:
        s, _ = E.play(s, rng.choice(E.legal_actions(s)))
        states.append(s)
    return s, states


def test_last_round_card_ends_the_game_after_its_round() -> None:
    rules = RuleSet()
    setup = seeded_setup(rules, 4, 42, 0)
    s = E.new_game(rules, 4, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck)
    rng = random.Random(1)
    final, states = play_random(s, rng)
    lr_state = next(i for i, st_ in enumerate(states) if st_.last_round)
    # docs/rules-of-play.md §8: 4 players classic: the last-round card is the 58th card turned over
    before = states[lr_state - 1]
    assert before.turned == 57
    # the game ends when that round ends
    assert all(st_.round == states[lr_state].round for st_ in states[lr_state:])
    assert final.over and E.legal_actions(final) == ()
    assert E.check(final, Draw(final.current, 1)).rule == "game-over"  # type: ignore[union-attr]


def test_golden_joker_extra_card_and_the_last_round_decision() -> None:
    # docs/rules-of-play.md §3 Decision: when the extra card is the last-round card, it is set aside and the next card taken.
    rules = RuleSet.of(edition="anniversary")
    removed: tuple[str, ...] = ()
    starting = (("orange",), ("blue",), ("brown",), ("yellow",))
    rest = canonical_deck(rules, removed, starting)
    rest.remove("golden_joker")
    rest.remove("red")
    under = rules.under
    # golden joker first; after it the last-round card, then red
    body = rest[: len(rest) - under]
    tail = rest[len(rest) - under :]
    deck = tuple(["golden_joker", LAST_ROUND, "red"] + body + tail)
    s = E.new_game(rules, 4, removed=removed, starting=starting, first=0, deck=deck)
    s, m = E.play(s, Draw(0, 1))
    assert m.card == "golden_joker"
    assert E.check(s, Take(1, 1, extra="blue")).rule == "card-mismatch"  # type: ignore[union-attr]
    s, m = E.play(s, Take(1, 1))
    assert m == Take(1, 1, extra="red", last_round=True)
    assert s.last_round and not s.lr_pending and s.turned == 3
    assert s.collections[1][KIND_INDEX["red"]] == 1 and s.collections[1][KIND_INDEX["golden_joker"]] == 1


def test_recorded_game_checks_card_counts() -> None:
    rules = RuleSet()
    s = E.new_game(rules, 3, removed=("orange",), starting=(("blue",), ("red",), ("green",)), first=0)
    assert E.check(s, Draw(0, 1)) == E.Violation("missing-card", 'a draw in a recorded game must name its "card"')
    assert E.check(s, Draw(0, 1, "orange")).rule == "impossible-card"  # type: ignore[union-attr]
    assert E.check(s, Draw(0, 1, "purple")).rule == "impossible-card"  # type: ignore[union-attr]
    assert E.check(s, Draw(0, 1, "golden_joker")).rule == "impossible-card"  # type: ignore[union-attr]
    assert E.check(s, Draw(0, 1, LAST_ROUND)).rule == "impossible-card"  # type: ignore[union-attr]
    # 8 blue cards are left after the starting card: rows 1, 2 fill up, row 3 gets two
    for i in range(8):
        s, _ = E.play(s, Draw(s.current, 1 + i // 3, "blue"))
    v = E.check(s, Draw(s.current, 3, "blue"))
    assert v == E.Violation("impossible-card", "one blue too many: every blue of the deck is already out")


@pytest.mark.parametrize("edition", ["classic", "anniversary"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sweep_random_games_conserve_cards_and_follow_turn_order(edition: str, players: int) -> None:
    # 400 games for each of the 8 (edition, players) pairs: 3,200 random seeded games in all
    rules = RuleSet.of(edition=edition)
    for seed in range(400):
        setup = seeded_setup(rules, players, seed, seed % 4)
        s = E.new_game(rules, players, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck)
        total = E.card_total(s)
        rng = random.Random(seed)
        lr_seen_at = None
        while not s.over:
            actions = E.legal_actions(s)
            assert actions, "a player always has a legal action"
            move = rng.choice(actions)
            before = s
            s, resolved = E.play(s, move)
            # docs/rules-of-play.md §8: cards are conserved and the deck never runs out
            assert E.card_total(s) == total
            assert s.turned <= s.total
            if resolved.last_round:
                lr_seen_at = before.turned
            if isinstance(move, Take) and not s.over and s.round == before.round:
                assert s.current != move.seat and not s.done[s.current]
            if s.round == before.round + 1:
                # the player who took the last row starts the next round
                assert s.current == move.seat
        assert lr_seen_at == s.lr_expected_at
        assert s.remaining and sum(s.remaining) >= 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]))
def test_replay_is_deterministic(seed: int, players: int, edition: str) -> None:
    rules = RuleSet.of(edition=edition)
    setup = seeded_setup(rules, players, seed, 0)
    s0 = E.new_game(rules, players, removed=setup.removed, starting=setup.starting, first=setup.first, deck=setup.deck)
    final, _ = play_random(s0, random.Random(seed))
    again, _ = play_random(s0, random.Random(seed))
    assert final == again


def test_a_table_holds_the_state_it_starts_from() -> None:
    s = two_player_game(["green", "joker", "plus2"])
    assert E.Table(s).state() == s
    s, _ = E.play(s, Draw(0, 1))
    table = E.Table(s)
    assert table.state() == s and table.colours == s.colours
    # what a player reads of it (engine.View) is what the state says
    assert (table.cards_left, table.lr_expected_at, table.is_over()) == (s.cards_left, s.lr_expected_at, s.is_over())
    # the steps of a draw: turn over (the card leaves the deck), then place (the next seat moves)
    table.turn_over("joker", False)
    assert (table.turned, table.current, table.remaining[KIND_INDEX["joker"]]) == (2, 1, s.remaining[KIND_INDEX["joker"]] - 1)
    table.place(1, 2, "joker")
    assert table.state() == E.apply(s, Draw(1, 3, "joker", False))


def test_a_take_gives_the_row_and_a_new_collections_sequence() -> None:
    s = two_player_game(["green", "joker"])
    s, _ = E.play(s, Draw(0, 1))
    table = E.Table(s)
    before = table.collections
    table.take(1, 0, None, False)
    assert table.collections is not before  # readers may keep what they computed from the old one
    assert table.collections[1][KIND_INDEX["green"]] == 1 and table.rows[0] == () and table.taken[0]
    assert table.state() == E.apply(s, Take(1, 1))
