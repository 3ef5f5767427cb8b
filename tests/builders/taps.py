"""Entering a game on the ``serve`` page by taps in headless Chromium (``test_serve_browser*``).

Every move is a real mouse click on the page, found by its data attributes
(``data-card``, ``data-row``, ``data-take``, ``data-action``), which are the
same in every language of the page.
"""

from __future__ import annotations

import json
from typing import Any

from ..conftest import ROOT
from .browser import Browser

#: Where the browser tests leave their screenshots (docs/'s are made by python -m tests.builders.screenshots).
ARTIFACTS = ROOT / "test-artifacts"


def version(b: Browser) -> int:
    return int(b.eval("Number(document.body.dataset.version)"))


def tap(b: Browser, selector: str) -> None:
    """Click something that sends a line, and wait for the table it answers with."""
    before = version(b)
    b.click(selector)
    b.wait_for(f"document.body.dataset.busy === 'false' && Number(document.body.dataset.version) > {before}"
               " || !document.getElementById('error').hidden")
    error = b.eval("document.getElementById('error').hidden ? '' : document.getElementById('error').textContent")
    assert not error, (selector, error)


def live(b: Browser) -> None:
    """Wait for the page's live connection: its badge ("connecting…", then "live") sits beside the heading, so
    the heading can wrap differently when it changes and move every button below it; a tap computed before
    that move would land beside its button (seen once in CI as a card tap lost, the OK never enabled)."""
    b.wait_for("document.getElementById('conn').className === 'live'")


def enter_setup(b: Browser, setup: dict[str, Any], players: list[str]) -> None:
    live(b)
    answers = ([setup["removed"]] if setup.get("removed") else []) + [setup["starting"][p] for p in players]
    for colours in answers:
        for colour in colours:
            b.click(f'#input [data-card="{colour}"]')
        tap(b, '[data-action="ok"]')
    tap(b, f'[data-seat="{players.index(setup["first"]) + 1}"]')


def enter_move(b: Browser, move: dict[str, Any]) -> None:
    """One move of a log by taps: the card, then its row; or the row, then "Take row N" (and the golden joker's card)."""
    if move.get("last_round"):
        tap(b, '[data-action="lr"]')
    if move["action"] == "draw":
        b.click(f'#input [data-card="{move["card"]}"]')
        tap(b, f'[data-row="{move["row"]}"]')
    else:
        b.click(f'[data-row="{move["row"]}"]')  # the row is chosen, not taken yet
        tap(b, f'[data-take="{move["row"]}"]')
        if "extra" in move:
            tap(b, f'#input [data-card="{move["extra"]}"]')


def enter_claims(b: Browser, claims: dict[str, Any], players: list[str]) -> None:
    for name in players:
        score = claims.get(name, {}).get("score")
        if score is None:
            tap(b, '[data-action="skip"]')
        else:
            b.type_text("#score-input", str(score))
            tap(b, '[data-action="save"]')


def text_of(b: Browser, selector: str) -> str:
    return str(b.eval(f"(document.querySelector({json.dumps(selector)}) || {{textContent: ''}}).textContent"))
