"""SplitMix64, below, shuffle and the seeded setup, pinned by golden values (docs/format.md §4)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.core.cards import LAST_ROUND
from coloretto_log.core.rng import MASK64, SplitMix64, game_generator
from coloretto_log.core.ruleset import LAYOUTS, RuleSet, max_under_last_round
from coloretto_log.core.setup import seeded_setup

from ..conftest import load_json
from ..vectors import make_vectors


def test_splitmix64_golden_values_seed_0() -> None:
    # the golden values of docs/format.md §4, as the reference implementation gives them (Vigna, splitmix64.c).
    r = SplitMix64(0)
    assert [r.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_splitmix64_wraps_at_2_64() -> None:
    r = SplitMix64(MASK64)
    value = r.next()
    assert 0 <= value <= MASK64
    assert r.state == (MASK64 + 0x9E3779B97F4A7C15) % 2**64


def test_game_generator_uses_the_match_generators_outputs() -> None:
    match = SplitMix64(7)
    first, second = match.next(), match.next()
    assert game_generator(7, 0).state == first
    assert game_generator(7, 1).state == second


def test_below_rejects_values_at_or_over_the_limit() -> None:
    # n = 2^63 + 1: limit = 2^64 - (2^64 mod n) = 2^63 + 1, so about half of the outputs are rejected.
    n = (1 << 63) + 1
    limit = (1 << 64) - (1 << 64) % n
    assert limit == n
    rejected = 0
    for seed in range(40):
        outputs = SplitMix64(seed)
        drawn = [outputs.next() for _ in range(60)]
        k = next(k for k, r in enumerate(drawn) if r < limit)  # the first output under the limit
        rejected += k
        rng = SplitMix64(seed)
        assert rng.below(n) == drawn[k] % n
        assert rng.next() == drawn[k + 1]  # every rejected output was consumed, and no more
    assert rejected > 0
    # n = 3: only 2^64 - 1 itself is rejected; small n take their limit from a table
    assert all(SplitMix64(seed).below(3) == SplitMix64(seed).next() % 3 for seed in range(50))


def test_shuffle_pinned_and_returns_a_new_list() -> None:
    items = list(range(10))
    out = SplitMix64(1).shuffle(items)
    assert items == list(range(10))
    assert sorted(out) == items
    assert out == SplitMix64(1).shuffle(range(10))
    # pinned by an independent C implementation of docs/format.md §4 (64-bit unsigned arithmetic)
    assert out == [4, 2, 8, 1, 9, 3, 0, 6, 7, 5]


def test_seed_42_matches_the_shared_example(examples_dir) -> None:  # type: ignore[no-untyped-def]
    expected = load_json(examples_dir / "seed-42-4p-classic-game0.json")
    setup = seeded_setup(RuleSet(), 4, 42, 0)
    assert list(setup.removed) == expected["removed"]
    assert [list(s) for s in setup.starting] == expected["starting_by_seat"]
    assert setup.first == expected["first_seat"]
    assert list(setup.deck or ()) == expected["deck_top_first"]


def test_published_vectors_are_current() -> None:
    assert make_vectors.PATH.read_text(encoding="utf-8") == make_vectors.text()
    vectors = json.loads(make_vectors.PATH.read_text(encoding="utf-8"))
    assert len(vectors) == 5 * 2 * 4 * 2


@pytest.mark.parametrize("edition", ["classic", "anniversary"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_shape(edition: str, players: int) -> None:
    rules = RuleSet.of(edition=edition)
    layout = LAYOUTS[players]
    for seed in range(50):
        s = seeded_setup(rules, players, seed, seed % 3)
        assert len(s.removed) == layout.removed
        starting = [c for cards in s.starting for c in cards]
        assert len(starting) == players * layout.starting == len(set(starting))
        assert not set(starting) & set(s.removed)
        assert 0 <= s.first < players
        assert s.deck is not None
        assert s.deck.count(LAST_ROUND) == 1
        assert len(s.deck) - 1 - s.deck.index(LAST_ROUND) == rules.under
        assert len(s.deck) == max_under_last_round(rules.edition, players) + 1


@given(seed=st.integers(0, MASK64), game=st.integers(0, 5))
def test_explicit_removed_is_used_in_later_steps_but_draws_are_still_consumed(seed: int, game: int) -> None:
    rules = RuleSet()
    drawn = seeded_setup(rules, 3, seed, game)
    other = next(c for c in rules.edition.colours if c not in drawn.removed)
    forced = seeded_setup(rules, 3, seed, game, removed=(other,))
    assert forced.removed == (other,)
    assert other not in [c for cards in forced.starting for c in cards]
    # step 3 consumed the same number of draws before it, so the first seat is drawn from the same state
    # only when step 2 consumed the same draws: it always does (same number of colours in play).
    assert forced.first == drawn.first
    assert forced.deck is not None and other not in forced.deck


def _shuffled_by_below(rng: SplitMix64, n: int) -> list[int]:
    """``range(n)`` shuffled as docs/format.md §4 writes it, one ``below`` a step (the reference)."""
    out = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@given(seed=st.integers(0, MASK64), n=st.integers(0, 80))
def test_inlined_shuffle_equals_below_step_by_step(seed: int, n: int) -> None:
    # shuffle() inlines next() and below() for speed; it must stay docs/format.md §4 to the letter
    a, b = SplitMix64(seed), SplitMix64(seed)
    expected = _shuffled_by_below(b, n)
    assert a.shuffle(range(n)) == expected
    assert a.state == b.state


def test_side_by_side_draws_are_never_rejected_below_the_bound() -> None:
    """shuffle() takes a deck's draws side by side when all lie under ``_NEVER_REJECTED``: under every limit."""
    from coloretto_log.core import rng as rng_module

    sizes = range(2, rng_module._MAX_LANES + 2)
    assert all((1 << 64) - (1 << 64) % n >= rng_module._NEVER_REJECTED for n in sizes)
    outputs = SplitMix64(99)
    assert SplitMix64(99)._draws(100) == [outputs.next() for _ in range(100)]


@settings(max_examples=30)
@given(seed=st.integers(0, MASK64), n=st.integers(16, 140))
def test_shuffle_one_draw_at_a_time_when_a_side_by_side_draw_may_be_rejected(seed: int, n: int) -> None:
    """With the bound lowered so that a draw often passes it, the fallback gives the same shuffle and state."""
    from coloretto_log.core import rng as rng_module

    a, b = SplitMix64(seed), SplitMix64(seed)
    expected = _shuffled_by_below(b, n)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(rng_module, "_NEVER_REJECTED", 1 << 63)
        assert a.shuffle(range(n)) == expected
    assert a.state == b.state
