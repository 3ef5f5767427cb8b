"""The bots' score memos (``players.Scores``): shared by games with as many colours in play, equal to the optimiser."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.bots import players as bots
from coloretto_log.bots.players import hidden
from coloretto_log.core import engine
from coloretto_log.core.cards import KIND_INDEX, N_KINDS
from coloretto_log.core.engine import GameState
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.scoring import best_from_counts
from coloretto_log.core.setup import seeded_setup


def new_state(seed: int, players: int, edition: str, scoring: str) -> GameState:
    rules = RuleSet.of(edition=edition, scoring=scoring)
    s = seeded_setup(rules, players, seed, 0)
    return engine.new_game(
        rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck
    )


@given(
    st.sampled_from(["classic", "anniversary"]),
    st.integers(2, 5),
    st.sampled_from(["standard", "alternative"]),
    st.integers(0, 50),
    st.lists(st.integers(0, 9), min_size=7, max_size=7),
    st.integers(0, 3),
    st.integers(0, 1),
    st.integers(0, 10),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_shared_memos_give_the_optimisers_score_for_every_colour_set(
    edition: str,
    players: int,
    scoring: str,
    seed: int,
    colours: list[int],
    jokers: int,
    golden: int,
    plus2: int,
    cold: bool,
) -> None:
    """The memos are shared by every game with as many colours in play (whichever they are) and the same table;
    each score, and ``final_scores``, is still the optimiser's for this game's colours."""
    if cold:
        bots.clear_scores()
    view = hidden(new_state(seed, players, edition, scoring))
    counts = [0] * N_KINDS
    for colour, n in zip(view.colours, colours, strict=False):
        counts[KIND_INDEX[colour]] = n
    counts[KIND_INDEX["joker"]], counts[KIND_INDEX["golden_joker"]], counts[KIND_INDEX["plus2"]] = (
        jokers,
        golden,
        plus2,
    )
    want = best_from_counts(counts, view.colours, table=view.rules.table).score
    assert bots.scores_for(view)[bots.pack(counts)] == want
    state = view._replace(collections=(tuple(counts),) + view.collections[1:])
    assert bots.final_scores(state) == tuple(
        best_from_counts(c, view.colours, table=view.rules.table).score for c in state.collections
    )
