"""Positions of greedy self-play games, for the analysis's tests."""

from __future__ import annotations

from coloretto_log.bots import players
from coloretto_log.core import engine
from coloretto_log.core.cards import LAST_ROUND
from coloretto_log.core.engine import GameState
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup


def last_round_position() -> GameState:
    """A draw-or-take decision of a greedy four-player classic game's last round with 4 places left and at
    least three choices: the analysis would search it exactly, and its playouts are cheap."""
    rules = RuleSet.of()
    for seed in range(40):
        s = seeded_setup(rules, 4, seed, 0)
        state = engine.new_game(rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
        bot, rng = players.make_bot("greedy"), SplitMix64(seed)
        while not state.over:
            free = sum(lim - len(r) for lim, r, t in zip(state.limits, state.rows, state.taken) if not t)
            if state.last_round and free == 4 and len(engine.legal_actions(state)) > 3:
                return state
            state = engine.apply(state, players.turn(bot, state, rng))
    raise AssertionError("no such position")


def reordered(state: GameState, seed: int) -> GameState:
    """The same state with its unturned cards (the next one included) in another order; the
    last-round card stays where it lies."""
    assert state.deck is not None
    deck = list(state.deck)
    free = [i for i in range(state.turned, len(deck)) if deck[i] != LAST_ROUND]
    for i, card in zip(free, SplitMix64(seed).shuffle([deck[i] for i in free])):
        deck[i] = card
    return state._replace(deck=tuple(deck))
