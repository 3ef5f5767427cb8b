"""``coloretto-log deal``: the seeded setup and deck of one game."""

from __future__ import annotations

import csv
import sys
from typing import Annotated, Any

import typer

from ..core.cards import card_name
from ..core.editions import edition_choice, under_last_round_defaults
from ..core.errors import one_line
from ..core.rng import MASK64
from ..core.ruleset import EDITIONS, LAYOUTS, RuleSet, under_last_round_problem
from ..core.setup import Setup, seeded_setup
from ..lang import ENGLISH, Translator
from ..lang.games import edition_word
from .app import app
from .common import (
    Format,
    FormatOption,
    JsonOption,
    LangOption,
    count_of_players,
    emit_json,
    old_short,
    output_format,
    terminal_translator,
    with_old_short,
)


def deal_json(setup: Setup, *, seed: int, players: int, edition: str, game: int) -> dict[str, Any]:
    """The shape of the published test vectors (tests/vectors/seeded-setups.json).

    For programs, as docs/format.md §4 counts them: ``game`` is the game's
    index in the match from 0 (the first game is 0), ``first_seat`` and the
    positions in ``starting_by_seat`` are seat indices from 0.
    """
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


def _shown(card: str) -> str:
    """A card as people say it, and the log's word beside it where the two differ: ``+2 (plus2)``."""
    name = card_name(card)
    return name if name == card else f"{name} ({card})"


def deal_rows(setup: Setup, names: list[str]) -> list[list[Any]]:
    """The deal as csv rows: ``part`` (removed, starting, first_player, deck), ``seat`` and ``position``
    from 1, ``card`` as a log writes it and ``name`` as people say it."""
    assert setup.deck is not None
    rows: list[list[Any]] = [["removed", "", "", "", card, card_name(card)] for card in setup.removed]
    for i, cards in enumerate(setup.starting):
        who = names[i] if names else ""
        rows.extend(["starting", i + 1, who, "", card, card_name(card)] for card in cards)
    rows.append(["first_player", setup.first + 1, names[setup.first] if names else "", "", "", ""])
    rows.extend(["deck", "", "", i, card, card_name(card)] for i, card in enumerate(setup.deck, start=1))
    return rows


@app.command()
def deal(
    seed: Annotated[int, typer.Option(metavar="N", help="The match seed, 0 <= seed < 2^64.", show_default=False)],
    player_count: Annotated[
        int | None,
        typer.Option("--player-count", metavar="N", help="Number of players, 2 to 5.", show_default=False),
    ] = None,
    old_n: Annotated[int | None, old_short("-n", "--player-count")] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players", metavar="NAMES",
            help='Player names in seat order, comma-separated ("Aiko,Boris,Chloe"): their number is the '
            "player count, and the seats are shown with the names. A number here means --player-count.",
            show_default=False,
        ),
    ] = None,
    edition: Annotated[str, typer.Option(metavar="EDITION", help=f"{edition_choice()}.")] = "classic",
    game: Annotated[
        int, typer.Option("--game", "-g", metavar="G", help="Which game of the match, from 1 (the first game is 1).")
    ] = 1,
    under_last_round: Annotated[
        int | None,
        typer.Option(metavar="N", help=f"Cards under the last-round card (default {under_last_round_defaults()}).", show_default=False),
    ] = None,
    fmt: FormatOption = None,
    json_out: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """Print the setup and the whole deck, top card first, that a seed yields.

    Use it to stack a physical deck so several tables play the same cards,
    or to check a seeded log by hand (docs/format.md §4). Games and seats count from 1.
    Each card is named as people say it, with the word a log needs beside it where
    the two differ: "+2 (plus2)", "last-round card (last_round)".
    --format csv prints the same as rows (part, seat, player, position, card, name):
    seats and positions from 1, card the log's word, name the people's word.
    --format json prints the shape of the published test vectors, for programs: there
    "game" is the game's index from 0 and "first_seat" a seat index from 0, as §4 counts.

    \b
    Example: coloretto-log deal --seed 42 --player-count 4
    Example: coloretto-log deal --seed 42 --players Aiko,Boris,Chloe --game 2
    Example: coloretto-log deal --seed 42 --player-count 3 --format csv
    Example: coloretto-log deal --seed 42 --player-count 3 --lang ru
    """
    chosen = output_format(fmt, json_out)
    count, names = count_of_players(with_old_short(player_count, old_n, "--player-count", "-n"), players)
    if not 0 <= seed <= MASK64:
        raise typer.BadParameter("must satisfy 0 <= seed < 2^64", param_hint="--seed")
    if count not in LAYOUTS:
        raise typer.BadParameter(f"must be 2, 3, 4 or 5, not {count}", param_hint="--player-count")
    if edition not in EDITIONS:
        raise typer.BadParameter(f"must be {edition_choice()}", param_hint="--edition")
    if game < 1:
        raise typer.BadParameter("games count from 1: --game 1 is the first game of the match", param_hint="--game")
    rules = RuleSet.of(edition=edition, under_last_round=under_last_round)
    problem = under_last_round_problem(rules, count)
    if problem is not None:
        raise typer.BadParameter(f"is {problem}", param_hint="--under-last-round")
    setup = seeded_setup(rules, count, seed, game - 1)
    if chosen is Format.json:
        emit_json(deal_json(setup, seed=seed, players=count, edition=edition, game=game - 1))
        return
    if chosen is Format.csv:
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(("part", "seat", "player", "position", "card", "name"))
        out.writerows(deal_rows(setup, names))
        return
    assert setup.deck is not None

    tr: Translator = terminal_translator(lang)

    def seat(i: int) -> str:
        return tr.t("seat {n} ({name})", n=i + 1, name=one_line(names[i])) if names else tr.t("seat {n}", n=i + 1)

    def shown(card: str) -> str:
        """English: the people's word and the log's beside it; another language: the people's word in it."""
        return _shown(card) if tr is ENGLISH else tr.gettext(card_name(card))

    players = tr.nt("{n} player", "{n} players", count)
    typer.secho(tr.t("Seed {seed}, {players}, {edition}, game {game} of the match", seed=seed, players=players,
                     edition=edition_word(edition, tr), game=game), bold=True)  # fmt: skip
    removed = tr.join(shown(c) for c in setup.removed) if setup.removed else tr.gettext("none")
    typer.echo(tr.t("Removed colours: {colours}", colours=removed))
    for i, cards in enumerate(setup.starting):
        line = tr.t("{seat} starts with: {cards}", seat=seat(i), cards=tr.join(shown(c) for c in cards))
        typer.echo(line[:1].upper() + line[1:])
    typer.echo(tr.t("First player: {seat}", seat=seat(setup.first)))
    typer.echo(tr.nt("Deck, top card first ({n} card, last-round card included):",
                     "Deck, top card first ({n} cards, last-round card included):", len(setup.deck)))  # fmt: skip
    width = len(str(len(setup.deck)))
    for i, card in enumerate(setup.deck, start=1):
        typer.echo(f"  {i:>{width}}. {shown(card)}")
