"""The replay viewer's narrative in Japanese, Korean and Russian: each move's line told from its story.

``report.timeline`` gives every state its story (English templates and their
values); the page fills each template from its catalogue with the cards'
names in its language. The reference here fills the same templates with
the Python translator; a few lines are also written out by hand. Every move
fits a 390 px phone in every language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.core.cards import card_name
from coloretto_log.lang import Translator, translator
from coloretto_log.log.load import load
from coloretto_log.report.timeline import (
    HAND,
    JOINS,
    PHRASES,
    Cards,
    Hands,
    Phrase,
    from_loaded,
    tell,
)
from coloretto_log.view.html import NARRATIVE_MESSAGES

from ..builders.browser import Browser
from ..builders.taps import ARTIFACTS
from ..conftest import SAMPLES

GOLDEN = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
TWO = SAMPLES / "classic-2p-recorded-game.json"
runner = CliRunner()
#: Words of the English narrative that a translated line must not keep.
ENGLISH = ("draws", "takes", "row ", "round ", "discarded", "removed", "starts", "extra", "end of")


def told(story: tuple[Phrase, ...], tr: Translator) -> str:
    """The reference: each phrase's template translated and filled, cards by their names in ``tr``'s language."""

    def word(card: str) -> str:
        return tr.gettext(card_name(card))

    def value(v: Any) -> str:
        if isinstance(v, Cards):
            return tr.gettext(JOINS[v.join]).join(map(word, v.cards))
        if isinstance(v, Hands):
            return tr.gettext(", ").join(tr.t(HAND, player=p, cards=tr.gettext(" and ").join(map(word, cs)))
                                         for p, cs in v.hands)  # fmt: skip
        return str(v)

    return " · ".join(tr.t(p.text, **{k: value(v) for k, v in p.values}) for p in story)


def test_the_page_carries_every_phrase_and_the_english_story_is_the_narrative() -> None:
    assert set(PHRASES) | set(JOINS.values()) | {HAND} == set(NARRATIVE_MESSAGES)
    for path in (GOLDEN, TWO):
        for game in from_loaded(next(iter(load([path])))).games:
            for step in game.steps:
                assert tell(step.story) == step.narrative == told(step.story, translator("en"))
                for p in step.story:
                    assert p.text in PHRASES


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("narrative")
    out = {}
    for name, path in (("golden", GOLDEN), ("two", TWO)):
        out[name] = folder / f"{name}.html"
        r = runner.invoke(app, ["replay", str(path), "--html", str(out[name]), "--lang", "ja,ko,ru,en"])
        assert r.exit_code == 0, r.output
    return out


def lines_shown(browser: Browser) -> list[str]:
    """The narrative at every move of the page's first game, stepping with → (each step must fit 390 px)."""
    last = int(browser.eval("document.getElementById('slider').max"))
    shown = [browser.eval("document.getElementById('narrative').textContent")]
    for _ in range(last):
        browser.press("ArrowRight")
        assert browser.overflow() <= 0, browser.eval("document.body.dataset.move")
        shown.append(browser.eval("document.getElementById('narrative').textContent"))
    return shown


@pytest.mark.parametrize("lang", ["ja", "ko", "ru"])
def test_every_move_is_told_in_the_pages_language_and_fits_a_phone(pages: dict[str, Path], browser: Browser,
                                                                     lang: str) -> None:  # fmt: skip
    tr = translator(lang)
    for name, path in (("golden", GOLDEN), ("two", TWO)):
        steps = from_loaded(next(iter(load([path])))).games[0].steps
        browser.open(pages[name].as_uri() + f"?lang={lang}", width=390, height=844, mobile=True)
        shown = lines_shown(browser)
        assert shown == [told(step.story, tr) for step in steps]
        assert not [line for line in shown if any(w in line for w in ENGLISH)]


#: Lines written out by hand: the setup of the two-player game, and the golden joker's take after the
#: last-round card (its extra card is the one after it).
BY_HAND = {
    "ja": ("ゲーム 1 · 緑と灰を取り除く · 初期カード：Aiko 青と赤、Boris 茶と橙 · Aikoが先手", "ゴールデンジョーカーで山札からもう1枚：終了札！ 続いて "),
    "ko": ("게임 1 · 녹색, 회색 제거 · 시작 카드: Aiko: 파란색, 빨간색, Boris: 갈색, 주황색 · Aiko 님이 시작", "황금 조커로 더미에서 한 장 더: [마지막 라운드] 카드! 이어서 "),
    "ru": (("игра 1 · убрано из игры: зелёный и серый · начальные карты: Aiko синий и красный, Boris коричневый и "
            "оранжевый · начинает Aiko"), "за золотой джокер из колоды: карта «последнего раунда»! затем «"),
}


def test_a_few_lines_by_hand_and_the_switch_tells_the_move_again(pages: dict[str, Path], browser: Browser) -> None:
    steps = from_loaded(next(iter(load([GOLDEN])))).games[0].steps
    extra = next(i for i, s in enumerate(steps) if s.move is not None and getattr(s.move, "extra", None)
                 and s.move.last_round)  # fmt: skip
    browser.open(pages["golden"].as_uri() + "?lang=ja", width=390, height=844, mobile=True)
    browser.press("ArrowRight", extra)
    for lang in ("ja", "ko", "ru"):
        browser.tap(f"#langs button[data-lang={lang}]")
        line = browser.eval("document.getElementById('narrative').textContent")
        assert BY_HAND[lang][1] in line and line == told(steps[extra].story, translator(lang))
        if lang == "ru":  # the longest words (docs/languages.md shows them: tests/builders/screenshots.py)
            assert browser.overflow() <= 0
            ARTIFACTS.mkdir(exist_ok=True)
            browser.screenshot(ARTIFACTS / "replay-ru-390.png", height=640)
    browser.tap("#langs button[data-lang=en]")
    assert browser.eval("document.getElementById('narrative').textContent") == steps[extra].narrative
    two = from_loaded(next(iter(load([TWO])))).games[0].steps[0]
    for lang in ("ja", "ko", "ru"):
        browser.open(pages["two"].as_uri() + f"?lang={lang}", width=390, height=844, mobile=True)
        setup = browser.eval("document.getElementById('narrative').textContent")
        assert setup == BY_HAND[lang][0] == told(two.story, translator(lang))
