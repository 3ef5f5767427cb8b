"""``coloretto-log serve`` in headless Chromium: a recorded sample match entered by clicks, from two phones.

Every move is a real mouse click on the page (the card, then the row; "take
row N" on the row tapped; the last-round card; the written scores), never an API call. Two
browsers share the table, one game each in turn: each must see the other's
moves before it can move (a stale page is refused). The log written must be
the sample's, byte for byte in its setups and moves (the recorder keeps only
the written scores of the claims). Screenshots of the page at 390 px and
1280 px go to test-artifacts/ (docs/serve.md's are made by tests/builders/screenshots.py).
"""

from __future__ import annotations

import copy
import json
import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coloretto_log.log.writer import dumps_pretty

from ..builders.browser import Browser
from ..builders.server import Server
from ..builders.taps import (
    ARTIFACTS,
    enter_claims,
    enter_move,
    enter_setup,
    live,
    tap,
    text_of,
    version,
)
from ..conftest import ROOT

pytest.importorskip("starlette")



@pytest.fixture
def two_browsers(chromium: str) -> Iterator[tuple[Browser, Browser]]:
    with tempfile.TemporaryDirectory(prefix="coloretto-a-", ignore_cleanup_errors=True) as a, tempfile.TemporaryDirectory(prefix="coloretto-b-", ignore_cleanup_errors=True) as b:
        first, second = Browser(chromium, a), Browser(chromium, b)
        try:
            yield first, second
        finally:
            first.close()
            second.close()






def enter_game(b: Browser, game: dict[str, Any], players: list[str], shots: Browser | None = None) -> None:
    """Click a game in; with ``shots`` (the other phone), screenshot both at the 30th move's card tapped."""
    enter_setup(b, game["setup"], players)
    enter_moves(b, game["moves"], shots)
    enter_claims(b, game.get("claims", {}), players)




def enter_moves(b: Browser, moves: list[dict[str, Any]], shots: Browser | None = None) -> None:
    for i, move in enumerate(moves):
        if shots is not None and i == 30 and move["action"] == "draw":
            screenshots(b, shots, move["card"])
        enter_move(b, move)




def as_recorded(log: dict[str, Any]) -> dict[str, Any]:
    """The sample as the recorder writes it: no notes, only the written scores of the claims."""
    out = copy.deepcopy(log)
    out.pop("notes", None)
    for game in out["games"]:
        scores = {name: {"score": c["score"]} for name, c in game.pop("claims", {}).items() if "score" in c}
        if scores:
            game["claims"] = scores
    return out


@pytest.mark.parametrize("sample", ["classic-4p-recorded-match-with-claims.json", "anniversary-3p-golden-joker-after-last-round-card.json"])
def test_a_sample_match_entered_by_clicks_from_two_phones_is_the_sample(
    tmp_path: Path, two_browsers: tuple[Browser, Browser], sample: str
) -> None:
    log = json.loads((ROOT / "sample_logs" / sample).read_text(encoding="utf-8"))
    date = log.get("date", "2026-11-30")
    path = tmp_path / f"{log['id'].removeprefix(date + '-') if 'id' in log else 'game'}.json"
    rules = log["rules"]
    phones = two_browsers
    with Server(path, "--players", ",".join(log["players"]), "--date", date, "--edition", rules["edition"],
                "--table", rules["scoring"], "--games", str(rules["games"])) as server:  # fmt: skip
        phones[0].open(server.url, width=390, height=844, mobile=True)
        phones[1].open(server.url, width=1280, height=800, mobile=False)
        for g, game in enumerate(log["games"]):
            phone, other = phones[g % 2], phones[1 - g % 2]
            phone.wait_for(f"Number(document.body.dataset.version) === {server.state()['version']}")
            enter_game(phone, game, log["players"], other if g == 0 and sample.startswith("classic") else None)
            other.wait_for(f"Number(document.body.dataset.version) === {version(phone)}")  # the other phone saw it all
        assert server.state()["complete"]
        server.stop()
    written = json.loads(path.read_text(encoding="utf-8"))
    if "id" not in log:  # the recorder names every match it writes; this sample has no name
        assert written.pop("id") == f"{date}-game"
        if "date" not in log:
            assert written.pop("date") == date
        assert dumps_pretty(written) == dumps_pretty(as_recorded(log))
    else:
        assert path.read_text(encoding="utf-8") == dumps_pretty(as_recorded(log))


def screenshots(phone: Browser, other: Browser, card: str) -> None:
    """Both phones in the middle of a game: the 390 px one with a row chosen to take, the other with the drawn card tapped."""
    ARTIFACTS.mkdir(exist_ok=True)
    other.wait_for(f"Number(document.body.dataset.version) === {version(phone)}")
    other.click(f'#input [data-card="{card}"]')
    row = phone.eval("[...document.querySelectorAll('[data-row]')].find(e => !e.disabled).dataset.row")
    phone.click(f'[data-row="{row}"]')  # chosen, not taken: "Take row N" shows on it
    assert phone.eval("document.documentElement.scrollWidth") <= 390  # nothing sticks out of a phone's screen
    phone.screenshot(ARTIFACTS / "serve-390.png")
    other.screenshot(ARTIFACTS / "serve-1280.png")
    phone.click(f'[data-row="{row}"]')
    other.click(f'#input [data-card="{card}"]')  # untapped again: the pages hold no half move


def test_the_page_goes_on_after_the_server_is_killed_and_restarted(tmp_path: Path, chromium: str) -> None:
    log = json.loads((ROOT / "sample_logs" / "classic-2p-recorded-game.json").read_text(encoding="utf-8"))
    game = log["games"][0]
    path = tmp_path / "game.json"
    with socket.socket() as probe:  # a free port, for both runs: the page keeps its address
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = ("--players", ",".join(log["players"]), "--date", "2026-11-30", "--games", "1")
    with tempfile.TemporaryDirectory(prefix="coloretto-c-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            with Server(path, *args, port=port) as server:
                b.open(server.url, width=390, height=844, mobile=True)
                live(b)  # tapped once connected: the badge's change can move the buttons
                enter_setup(b, game["setup"], log["players"])
                enter_moves(b, game["moves"][:20])
                epoch = b.eval("document.body.dataset.epoch")
                server.stop(signal.SIGKILL)
            with Server(path, port=port) as server:
                b.wait_for(f"document.body.dataset.epoch !== {json.dumps(epoch)} && document.body.dataset.version === '0'")
                enter_moves(b, game["moves"][20:])
                enter_claims(b, game.get("claims", {}), log["players"])
                assert server.state()["complete"]
                server.stop()
        finally:
            b.close()
    written = json.loads(path.read_text(encoding="utf-8"))["games"][0]
    expected = as_recorded(log)["games"][0]
    assert written["moves"] == expected["moves"] and written["claims"] == expected["claims"]
    # The recorder writes the removed colours in the edition's order; this sample does not.
    assert dict(written["setup"], removed=sorted(written["setup"]["removed"])) == dict(
        expected["setup"], removed=sorted(expected["setup"]["removed"]))


def test_names_are_shown_as_text_never_as_html(tmp_path: Path, chromium: str) -> None:
    names = ('<img src=x onerror="alert(1)">', "Ben\u001b[31m")
    with tempfile.TemporaryDirectory(prefix="coloretto-d-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            with Server(tmp_path / "k.json", "--players", ",".join(names), "--games", "1") as server:
                b.open(server.url, width=390, height=844, mobile=True)
                live(b)  # tapped once connected: the badge's change can move the buttons
                for colours in (["red", "green"], ["blue", "orange"], ["yellow", "brown"]):
                    for colour in colours:
                        b.click(f'#input [data-card="{colour}"]')
                    tap(b, '[data-action="ok"]')
                tap(b, '[data-seat="1"]')
                shown = b.eval("[...document.querySelectorAll('.player .name')].map(e => e.textContent)")
                assert shown == list(names)
                assert b.eval("document.querySelectorAll('img').length") == 0 and not b.events_named("Page.javascriptDialogOpening")
                server.stop()
        finally:
            b.close()


# --------------------------------------------------------------------------- issue 20: at 390 px, by taps




def offered(b: Browser) -> list[str]:
    return list(b.eval("[...document.querySelectorAll('#input [data-card]')].map(e => e.dataset.card)"))


def refused(b: Browser, selector: str) -> str:
    """Click something the recorder refuses; the error the page shows.

    A refused line changes nothing, so a click that is lost (seen once in CI at load, the page never busy) is
    clicked again: up to three clicks, each given a generous while to show its error."""
    shown = "document.body.dataset.busy === 'false' && !document.getElementById('error').hidden"
    for _ in range(2):
        b.click(selector)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if b.eval(f"!!({shown})"):
                return text_of(b, "#error")
            if b.eval("document.body.dataset.busy === 'true'"):
                break  # the click landed: wait for its answer below
            time.sleep(0.05)
        else:
            continue  # nothing happened: the click was lost
        break
    else:
        b.click(selector)
    b.wait_for(shown)
    return text_of(b, "#error")


def test_a_new_table_on_a_phone_by_taps(tmp_path: Path, chromium: str) -> None:
    """Names and games asked, only legal cards offered, a take in two deliberate taps, the last-round card asked about."""
    path = tmp_path / "k.json"
    with tempfile.TemporaryDirectory(prefix="coloretto-e-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            with Server(path, "--date", "2026-11-30") as server:
                b.open(server.url, width=390, height=844, mobile=True)
                live(b)  # tapped once connected: the badge's change can move the buttons
                # Before the first move no empty box is drawn, and the live label keeps its own place.
                b.wait_for("document.getElementById('conn').textContent === 'live'")
                assert b.eval("document.getElementById('table').offsetHeight === 0 && document.getElementById('news').offsetHeight === 0")
                apart = b.eval("(() => { const h = document.getElementById('head').getBoundingClientRect(),"
                               " c = document.getElementById('conn').getBoundingClientRect();"
                               " return c.left >= h.right && c.height < 30; })()")  # fmt: skip
                assert apart
                # A refused list of names keeps what was typed.
                b.type_text("#players-input", "Aiko, Boris, Aiko")
                assert '"Aiko" is given twice' in refused(b, '[data-action="ok"]')
                assert b.eval("document.getElementById('players-input').value") == "Aiko, Boris, Aiko"
                b.eval("document.getElementById('players-input').value = ''")
                b.type_text("#players-input", "Aiko, Boris, Chloe")
                tap(b, '[data-action="ok"]')
                # The number of games is asked with the names.
                assert b.eval("document.body.dataset.phase") == "games" and text_of(b, '[data-games="4"]') == "4 games"
                tap(b, '[data-games="2"]')
                assert text_of(b, "#head").startswith("Game 1 of 2")
                # Setup: the removed colour is no longer offered; a second tap replaces the choice.
                assert offered(b) == ["orange", "blue", "brown", "yellow", "grey", "green", "red"]
                b.click('#input [data-card="red"]')
                b.click('#input [data-card="grey"]')
                assert b.eval("[...document.querySelectorAll('#input [aria-pressed=\"true\"]')].map(e => e.dataset.card)") == ["grey"]
                tap(b, '[data-action="ok"]')
                assert "grey" not in offered(b) and len(offered(b)) == 6
                for colour in ("red", "green", "blue"):
                    b.click(f'#input [data-card="{colour}"]')
                    tap(b, '[data-action="ok"]')
                    assert colour not in offered(b)
                # Who starts, in words: the buttons say the rest.
                assert text_of(b, "#prompt") == "Game 1 of 2: who starts?"
                tap(b, '[data-seat="1"]')
                assert "grey" not in offered(b) and {"joker", "plus2", "orange"} <= set(offered(b))
                # The number of games can still change: no game is finished.
                b.click('[data-action="games"]')
                tap(b, '#games [data-games="1"]')
                assert text_of(b, "#head").startswith("Game 1 of 1")
                # A take is a deliberate step: the row tapped shows "Take row N", nothing is sent before it.
                b.click('#input [data-card="orange"]')
                tap(b, '[data-row="1"]')
                assert "To take a row, tap the row, then “Take row N”" in text_of(b, "#input")
                before = version(b)
                b.click('[data-row="1"]')
                assert version(b) == before and text_of(b, '[data-take="1"]') == "Take row 1"
                b.click('[data-action="keep"]')
                assert b.eval("document.querySelector('[data-take]') === null")
                b.click('[data-row="1"]')
                tap(b, '[data-take="1"]')
                assert text_of(b, '[data-row="1"]').startswith("Row 1—") and "taken by Boris" in text_of(b, '[data-row="1"]')
                # The last-round card far too early: asked first, with its place; No records nothing.
                tap(b, '[data-action="lr"]')
                assert b.eval("document.body.dataset.phase") == "confirm"
                assert "belongs at card" in text_of(b, ".caution") and "this would be card 2" in text_of(b, ".caution")
                tap(b, '[data-action="no"]')
                assert b.eval("document.body.dataset.phase") == "move" and not server.state()["lr_mark"]
                tap(b, '[data-action="lr"]')
                tap(b, '[data-action="yes"]')
                assert server.state()["lr_mark"]
                assert b.eval("document.documentElement.scrollWidth") <= 390
                server.stop()
        finally:
            b.close()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rules"]["games"] == 1 and data["games"][0]["setup"]["removed"] == ["grey"]
    assert data["games"][0]["moves"] == [{"player": "Aiko", "action": "draw", "row": 1, "card": "orange"},
                                         {"player": "Boris", "action": "take", "row": 1}]  # fmt: skip
