"""``serve`` in Japanese, Korean and Russian in headless Chromium, by taps.

The same whole game recorded by taps on a Japanese page and on an English
one writes the same log, byte for byte; the Korean page (chosen by the
browser's Accept-Language) and the Russian one (``--lang ru``) fit a 390 px
phone at every step of a game. Screenshots at 390 px go to test-artifacts/
(docs/serve.md's and docs/languages.md's are made by tests/builders/screenshots.py).
"""

from __future__ import annotations

import copy
import json
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from coloretto_log.lang import translator

from ..builders.browser import Browser
from ..builders.server import Server
from ..builders.taps import ARTIFACTS, enter_claims, enter_move, enter_setup, live, tap, text_of
from ..conftest import ROOT

pytest.importorskip("starlette")

SAMPLE = json.loads((ROOT / "sample_logs" / "classic-2p-recorded-game.json").read_text(encoding="utf-8"))
ARGS = ("--date", SAMPLE["date"], "--games", "1")


@contextmanager
def serve_page(tmp_path: Path, chromium: str, prefix: str) -> Iterator[tuple[Browser, Server]]:
    """A new match of the sample's players served, and a 390 px phone on its page, live; both closed after."""
    with tempfile.TemporaryDirectory(prefix=f"coloretto-{prefix}-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            with Server(tmp_path / "game.json", "--players", ",".join(SAMPLE["players"]), *ARGS) as server:
                b.open(server.url, width=390, height=844, mobile=True)
                live(b)
                yield b, server
                server.stop()
        finally:
            b.close()


def choose(b: Browser, lang: str) -> None:
    """Choose ``lang`` in the page's own switch, and wait for the table drawn in it."""
    b.eval(f"(() => {{ const s = document.getElementById('lang'); s.value = {json.dumps(lang)};"
           " s.dispatchEvent(new Event('change')); })()")  # fmt: skip
    b.wait_for(f"document.body.dataset.lang === {json.dumps(lang)}")


def reload(b: Browser, url: str) -> None:
    """The page opened again in the same tab (its storage and settings kept); wait for the new one drawn."""
    b.eval("window.oldPage = true")  # a new document has a new window: the old page cannot pass for it
    b.send("Page.navigate", {"url": url})
    b.wait_for("!window.oldPage && document.body && document.body.dataset.ready === 'true'")


def fits(b: Browser) -> bool:
    """Nothing sticks out of the phone's screen sideways, nor any word out of its button."""
    return bool(b.eval("document.documentElement.scrollWidth <= window.innerWidth && window.innerWidth === 390"
                       " && [...document.querySelectorAll('button')].every(e => e.scrollWidth <= e.clientWidth)"))


def arm_and_shoot(b: Browser, name: str) -> None:
    """A row chosen to take ("Take row N" showing), the screenshot, and the row let go again."""
    row = b.eval("[...document.querySelectorAll('[data-row]')].find(e => !e.disabled).dataset.row")
    b.click(f'[data-row="{row}"]')
    assert fits(b)
    ARTIFACTS.mkdir(exist_ok=True)
    b.screenshot(ARTIFACTS / name)
    b.click(f'[data-row="{row}"]')


def record(path: Path, lang: str, chromium: str, *, shot: str | None = None) -> None:
    """The sample game by taps on a page in ``lang``, chosen with the page's switch (and kept on reloading)."""
    with tempfile.TemporaryDirectory(prefix=f"coloretto-{lang}-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            with Server(path, "--players", ",".join(SAMPLE["players"]), *ARGS) as server:
                b.open(server.url, width=390, height=844, mobile=True)
                live(b)  # tapped once connected: the badge's change can move the buttons
                assert b.eval("document.body.dataset.lang") == "en"  # headless Chromium asks for English
                choose(b, lang)
                reload(b, server.url)  # this browser keeps its choice
                live(b)  # tapped once connected: the badge's change can move the buttons
                assert b.eval("document.body.dataset.lang") == lang
                tr = translator(lang)
                game = SAMPLE["games"][0]
                enter_setup(b, game["setup"], SAMPLE["players"])
                assert text_of(b, "#head").startswith(tr.t("Game {game} of {games}", game=1, games=1))
                for move in game["moves"][:30]:
                    enter_move(b, move)
                if shot:
                    arm_and_shoot(b, shot)
                b.click('[data-row="1"]')
                assert text_of(b, '[data-take="1"]') == tr.t("Take row {row}", row=1)
                b.click('[data-action="keep"]')
                for move in game["moves"][30:]:
                    enter_move(b, move)
                enter_claims(b, game["claims"], SAMPLE["players"])
                assert text_of(b, "#input") == tr.gettext("The match is complete and saved.")
                assert server.state()["complete"]
                server.stop()
        finally:
            b.close()


def test_the_same_game_by_taps_in_japanese_and_in_english_writes_the_same_bytes(tmp_path: Path, chromium: str) -> None:
    (tmp_path / "ja").mkdir()
    (tmp_path / "en").mkdir()
    record(tmp_path / "ja" / "game.json", "ja", chromium, shot="serve-ja-390.png")
    record(tmp_path / "en" / "game.json", "en", chromium)
    ja, en = ((tmp_path / lang / "game.json").read_bytes() for lang in ("ja", "en"))
    assert ja == en
    written = json.loads(ja)
    assert written["games"][0]["moves"] == SAMPLE["games"][0]["moves"]


def server_text(server: Server, key: str, lang: str) -> str:
    """A text of the table as the server gives it to a page in ``lang``."""
    with urllib.request.urlopen(f"{server.base}/api/state?t={server.token}&lang={lang}", timeout=120) as answer:
        return str(json.loads(answer.read())[key])


def renamed(game: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    out = copy.deepcopy(game)
    setup = out["setup"]
    setup["starting"] = {names[p]: cards for p, cards in setup["starting"].items()}
    setup["first"] = names[setup["first"]]
    out["claims"] = {names[p]: c for p, c in out["claims"].items()}
    return out


@pytest.mark.parametrize("lang", ["ko", "ru"])
def test_a_game_by_taps_in_korean_and_russian_fits_a_phone_at_every_step(tmp_path: Path, chromium: str, lang: str) -> None:
    """Korean chosen by the browser's Accept-Language, Russian by --lang; names stay text, never HTML."""
    names = {"Aiko": "Aiko", "Boris": "<b>Boris</b>"}
    players = list(names.values())
    game = renamed(SAMPLE["games"][0], names)
    tr = translator(lang)
    extra = ("--lang", "ru") if lang == "ru" else ()
    with tempfile.TemporaryDirectory(prefix=f"coloretto-{lang}-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            with Server(tmp_path / "game.json", "--date", SAMPLE["date"], *extra) as server:
                b.open(server.url, width=390, height=844, mobile=True)
                live(b)  # tapped once connected: the badge's change can move the buttons
                if lang == "ko":  # the browser asks for Korean first: the page opens in Korean
                    agent = b.eval("navigator.userAgent")
                    b.send("Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ko-KR,ko;q=0.9,en;q=0.5"})
                    reload(b, server.url)
                    live(b)  # tapped once connected: the badge's change can move the buttons
                b.wait_for(f"document.body.dataset.lang === '{lang}' && document.getElementById('conn').className === 'live'")
                assert text_of(b, "#conn") == tr.gettext("live") and b.eval("document.documentElement.lang") == lang
                assert fits(b)
                b.type_text("#players-input", players[0])  # one name: refused, said in the page's language
                b.click('[data-action="ok"]')
                b.wait_for("!document.getElementById('error').hidden")
                one = tr.nt("{n} player: Coloretto is for {least} to {most}, names separated by commas",
                            "{n} players: Coloretto is for {least} to {most}, names separated by commas", 1, least=2,
                            most=5)  # fmt: skip
                assert text_of(b, "#error") == tr.t("refused [{rule}] {message}", rule="player-count", message=one)
                assert {"ko": "1명: 컬러레또는", "ru": "1 игрок: в Coloretto"}[lang] in text_of(b, "#error") and fits(b)
                b.eval("document.getElementById('players-input').value = ''")
                b.type_text("#players-input", ", ".join(players))
                tap(b, '[data-action="ok"]')
                assert text_of(b, '[data-games="4"]') == tr.nt("{n} game", "{n} games", 4) and fits(b)
                tap(b, '[data-games="1"]')
                b.click('[data-action="games"]')  # "a match of 1 game · change": the choices open
                assert text_of(b, '[data-action="games"]') == tr.nt("Keep {n} game", "Keep {n} games", 1) and fits(b)
                b.click('[data-action="games"]')
                enter_setup(b, game["setup"], players)
                assert fits(b)
                tap(b, '[data-action="lr"]')  # far too early: asked about, in the page's language
                assert b.eval("document.body.dataset.phase") == "confirm" and fits(b)
                assert text_of(b, ".caution") == server_text(server, "confirm", lang)
                assert text_of(b, '[data-action="no"]') == tr.gettext("No: record nothing")
                tap(b, '[data-action="no"]')
                for i, move in enumerate(game["moves"]):
                    enter_move(b, move)
                    assert fits(b), (lang, i)
                    if i == 29:
                        arm_and_shoot(b, f"serve-{lang}-390.png")
                names_shown = b.eval("[...document.querySelectorAll('.player .name')].map(e => e.textContent)")
                assert names_shown == players and b.eval("document.querySelectorAll('main b').length") == 0
                assert b.eval("document.body.dataset.phase") == "claim" and fits(b)
                enter_claims(b, game["claims"], players)
                assert fits(b) and server.state()["complete"]
                assert text_of(b, "#standings caption") == tr.nt("Match after {n} game", "Match after {n} games", 1)
                server.stop()
        finally:
            b.close()
    assert json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))["players"] == players


def test_the_connection_badge_moves_nothing_when_it_changes(tmp_path: Path, chromium: str) -> None:
    """Connecting, live, reconnecting: the badge keeps its width in every language, so the heading beside it
    never wraps anew and no button moves under a finger about to tap (a tap once landed beside its card)."""
    where = ("[...document.querySelectorAll('#head, #input button, #lang')]"
             ".map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })")
    with serve_page(tmp_path, chromium, "badge") as (b, _):
        for lang in ("en", "ja", "ko", "ru"):
            if lang != "en":  # the page opens in English; choosing it again would reconnect while it is measured
                choose(b, lang)  # drawn in lang, and connecting again (the same task): then live once more
                live(b)
            tr = translator(lang)
            settled = b.eval(where)
            assert settled and text_of(b, "#conn") == tr.gettext("live")
            for state, word in ((2, "reconnecting…"), (0, "connecting…"), (1, "live")):
                b.eval(f"showConn({state})")
                assert text_of(b, "#conn") == tr.gettext(word)
                assert b.eval(where) == settled, (lang, word)


def test_a_tap_pressed_while_the_stream_echoes_the_table_is_not_lost(tmp_path: Path, chromium: str) -> None:
    """The stream sends every page the table that a tap's answer has already drawn. Drawing it again replaced
    the buttons between a finger's press and its release, and the tap was lost: a card not picked, the setup's
    OK never enabled (2 of 3 CI runs). The page draws a table once: a tap across the echo counts."""
    with serve_page(tmp_path, chromium, "echo") as (b, _):
        assert b.eval("document.body.dataset.phase") in ("removed", "starting")  # cards to pick, then OK
        card = str(b.eval("document.querySelector('#input [data-card]').dataset.card"))
        x, y = b.centre(f'#input [data-card="{card}"]')
        press = {"x": x, "y": y, "button": "left", "clickCount": 1}
        b.send("Input.dispatchMouseEvent", {"type": "mousePressed", **press})
        b.eval("draw(JSON.parse(JSON.stringify(S)))")  # the stream's echo: the same table, the same version
        b.send("Input.dispatchMouseEvent", {"type": "mouseReleased", **press})
        assert b.eval(f"document.querySelector('#input [data-card=\"{card}\"]').ariaPressed") == "true"
        assert b.eval("picks.length") == 1
