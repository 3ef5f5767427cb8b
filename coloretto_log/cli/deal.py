"""``coloretto-log deal``: the seeded setup and deck of one game."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..core.cards import LAST_ROUND
from ..core.rng import MASK64
from ..core.ruleset import EDITIONS, LAYOUTS, RuleSet, under_last_round_problem
from ..core.setup import Setup, seeded_setup
from .app import app
from .common import emit_json


def deal_json(setup: Setup, *, seed: int, players: int, edition: str, game: int) -> dict[str, Any]:
    """The shape of the published test vectors (tests/vectors/seeded_setups.json)."""
    assert setup.deck is not None
    return {
        "seed": seed,
        "players": players,
        "edition": edition,
        "game": game,
        "removed": sorted(setup.removed, key=EDITIONS[edition].colours.index),
        "starting_by_seat": [list(cards) for cards in setup.starting],
        "first_seat": setup.first,
        "deck_top_first": list(setup.deck),
    }


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="The match seed, 0 <= seed < 2^64.", show_default=False)],
    players: Annotated[int, typer.Option(help="Number of players, 2 to 5.", show_default=False)],
    edition: Annotated[str, typer.Option(help="classic or anniversary.")] = "classic",
    game: Annotated[int, typer.Option(help="Game index within the match, from 0 (LOG_FORMAT.md §4): 0 is the first game.")] = 0,
    under_last_round: Annotated[
        int | None, typer.Option(help="Cards under the last-round card (default 15 classic, 16 anniversary).", show_default=False)
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON (the shape of the published test vectors).")] = False,
) -> None:
    """Print the setup and the whole deck, top card first, that a seed yields.

    Use it to stack a physical deck so several tables play the same cards,
    or to check a seeded log by hand.

    Example: coloretto-log deal --seed 42 --players 4
    """
    if not 0 <= seed <= MASK64:
        raise typer.BadParameter("must satisfy 0 <= seed < 2^64", param_hint="--seed")
    if players not in LAYOUTS:
        raise typer.BadParameter("must be 2, 3, 4 or 5", param_hint="--players")
    if edition not in EDITIONS:
        raise typer.BadParameter("must be classic or anniversary", param_hint="--edition")
    if game < 0:
        raise typer.BadParameter("must be 0 or more", param_hint="--game")
    rules = RuleSet.of(edition=edition, under_last_round=under_last_round)
    problem = under_last_round_problem(rules, players)
    if problem is not None:
        raise typer.BadParameter(f"is {problem}", param_hint="--under-last-round")
    setup = seeded_setup(rules, players, seed, game)
    if json_out:
        emit_json(deal_json(setup, seed=seed, players=players, edition=edition, game=game))
        return
    assert setup.deck is not None
    typer.secho(f"Seed {seed}, {players} players, {edition} edition, game index {game} (game {game + 1} of the match)", bold=True)
    typer.echo(f"Removed colours: {', '.join(setup.removed) if setup.removed else 'none'}")
    for seat, cards in enumerate(setup.starting):
        typer.echo(f"Seat {seat} starts with: {', '.join(cards)}")
    typer.echo(f"First player: seat {setup.first}")
    typer.echo(f"Deck, top card first ({len(setup.deck)} cards, last-round card included):")
    width = len(str(len(setup.deck)))
    for i, card in enumerate(setup.deck, start=1):
        mark = "  <- last-round card" if card == LAST_ROUND else ""
        typer.echo(f"  {i:>{width}}. {card}{mark}")
