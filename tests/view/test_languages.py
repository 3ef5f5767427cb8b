"""The replay viewer and the analysis page in ja, ko and ru: the page's words from the catalogues, switched on
the page without the network among the languages it was written with (``--lang``), fitting a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.lang import LANGUAGES, NATIVE_NAMES, translator
from coloretto_log.lang.chips import CHIP_LABELS
from coloretto_log.view.html import VIEWER_MESSAGES, _asset, _back_links

from ..builders.browser import Browser
from ..conftest import SAMPLES

THREE = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
FAST = ["--samples", "24", "--max-se", "2"]
#: Words the page translates from its data (card names, marks) rather than from a literal in its code.
FROM_DATA = {"orange", "blue", "brown", "yellow", "grey", "green", "red", "purple", "joker", "golden joker", "+2",
             "inaccuracy", "mistake", "blunder", "inaccuracies", "mistakes", "blunders", *CHIP_LABELS.values()}  # fmt: skip
runner = CliRunner()


def _js_string(text: str) -> str:
    return re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1), 16)), text).replace("\\'", "'")


def test_the_catalogue_list_is_the_pages_words() -> None:
    """Every t('...'), nt('...', '...') of viewer.js and data-t of viewer.html is in VIEWER_MESSAGES (so in the
    catalogues), and the list holds nothing else."""
    js, page = _asset("viewer.js"), _asset("viewer.html")
    singles = {_js_string(m.group(2)) for m in re.finditer(r"\bt\((['\"])((?:\\.|(?!\1).)*)\1", js)}
    counted = {(_js_string(a), _js_string(b)) for a, b in re.findall(r"\bnt\('((?:\\.|[^'])*)',\s*'((?:\\.|[^'])*)'", js)}
    back = _back_links({"index": "index", "evening": "evenings/x", "date": "2026-01-01"})  # a site replay's own HTML
    attrs = set(re.findall(r'data-t(?:-title|-aria)?="([^"]+)"', page + back))
    used = singles | attrs | counted
    listed = set(VIEWER_MESSAGES)
    assert len(used) > 80 and counted
    assert used - listed == set()
    assert listed - used == FROM_DATA


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("languages")
    out = {"ru": folder / "ru.html", "en": folder / "en.html"}
    r = runner.invoke(app, ["analyze", str(THREE), *FAST, "--html", str(out["ru"]), "--lang", "ru,ja,ko,en"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["analyze", str(THREE), *FAST, "--html", str(out["en"])])
    assert r.exit_code == 0, r.output
    return out


def test_english_is_the_default_and_has_no_switch(pages: dict[str, Path], browser: Browser) -> None:
    text = pages["en"].read_text(encoding="utf-8")
    assert '<html lang="en">' in text
    browser.open(pages["en"].as_uri(), width=390, height=844, mobile=True)
    assert browser.eval("document.getElementById('langs').hidden") is True
    assert browser.eval("document.querySelector('#table h2').textContent") == "Rows"


PROBE = """(() => ({lang: document.documentElement.lang,
  rows: document.querySelector('#table h2').textContent,
  status: document.getElementById('status').textContent,
  legend: [...document.querySelectorAll('#legend .key')].map(k => k.textContent).slice(-3),
  pressed: [...document.querySelectorAll('#langs button[aria-pressed=true]')].map(b => b.dataset.lang),
  buttons: [...document.querySelectorAll('#langs button')].map(b => b.textContent)}))()"""


def test_the_page_opens_in_the_first_language_and_switches_offline(pages: dict[str, Path], browser: Browser) -> None:
    browser.open(pages["ru"].as_uri(), width=390, height=844, mobile=True)
    seen = browser.eval(PROBE)
    ru = translator("ru")
    assert seen["lang"] == "ru" and seen["rows"] == ru.t("Rows") == "Ряды" and seen["pressed"] == ["ru"]
    assert seen["buttons"] == [NATIVE_NAMES[lang] for lang in ("ru", "ja", "ko", "en")]
    assert seen["legend"] == [ru.t(m) for m in ("inaccuracy", "mistake", "blunder")]
    deck = int(browser.eval("document.body.dataset.move") == "0")  # the status counts the deck in Russian forms
    assert "колоде" in seen["status"] and deck in (0, 1)
    assert browser.overflow() <= 0
    for lang in ("ja", "ko", "en"):
        browser.tap(f"#langs button[data-lang={lang}]")
        seen = browser.eval(PROBE)
        assert seen["lang"] == lang and seen["rows"] == translator(lang).t("Rows") and seen["pressed"] == [lang]
        assert browser.overflow() <= 0, lang
    browser.press("ArrowRight", 3)  # the viewer still steps through the moves
    assert browser.eval("document.body.dataset.move") == "3"
    assert browser.events_named("Network.requestWillBeSent") == [] or all(
        e["params"]["request"]["url"].startswith(("file:", "data:", "about:"))
        for e in browser.events_named("Network.requestWillBeSent"))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_lang_in_the_address_opens_that_language_and_every_move_fits_a_phone(
    pages: dict[str, Path], browser: Browser, lang: str
) -> None:
    browser.open(pages["ru"].as_uri() + f"?lang={lang}", width=390, height=844, mobile=True)
    tr = translator(lang)
    assert browser.eval("document.documentElement.lang") == lang
    assert browser.eval("document.querySelector('#final button, #to-final span').textContent") == tr.t("Final scores")
    last = int(browser.eval("document.getElementById('slider').max"))
    wide = []
    for _ in range(last):
        browser.press("ArrowRight")
        if browser.overflow() > 0:
            wide.append(browser.eval("document.body.dataset.move"))
    assert wide == [] and browser.eval("document.body.dataset.move") == str(last)
    # every card and collection tile is labelled in the page's language (lang/chips.py), none in English letters
    labels = browser.eval("[...document.querySelectorAll('.card, .chip .cl')].map(c => c.textContent)")
    assert labels and [text for text in labels if re.search("[A-Za-z]", text)] == []
    option = browser.eval("document.querySelector('#game option').textContent")
    assert option == tr.t("game {game}", game=1) + " · " + tr.nt("{n} move", "{n} moves", last)  # counted as CLDR says


def test_a_wrong_language_is_a_usage_error(tmp_path: Path) -> None:
    for command in (["replay", str(THREE), "--html", str(tmp_path / "r.html")],
                    ["analyze", str(THREE), *FAST, "--html", str(tmp_path / "a.html")]):  # fmt: skip
        r = runner.invoke(app, [*command, "--lang", "en,fr"])
        assert r.exit_code == 2 and "fr" in r.stderr and not list(tmp_path.iterdir())
