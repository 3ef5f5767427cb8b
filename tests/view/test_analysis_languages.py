"""The analysis page says its explanations and choices in the reader's language: the page written with
``--lang ru,ja,ko,en`` shows, at every move, each decision's explanation as ``coach.explain.render`` says it in
that language (the same parts, so the same numbers, rows and cards), the choices by their names in it, and fits
a 390 px phone with the longest Russian words. In English it shows the ``explanation`` of the JSON, byte for byte.
The screenshots go to test-artifacts/analysis-LANG-390.png (docs/languages.md's: tests/builders/screenshots.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.coach.explain import choice_name, render
from coloretto_log.lang import translator

from ..builders.browser import Browser
from ..conftest import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
THREE = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
runner = CliRunner()

SHOWN = """(() => [...document.querySelectorAll('#decisions article')].map(a => ({
  decision: a.dataset.decision,
  why: (a.querySelector('.why') || {}).textContent || null,
  played: a.querySelector('.fact b') ? a.querySelector('.fact b').textContent : null,
  choices: [...a.querySelectorAll('tr[data-choice]')].map(r => [r.dataset.choice, r.cells[0].firstChild.textContent])})))()"""


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    page = tmp_path_factory.mktemp("analysis-languages") / "analysis.html"
    r = runner.invoke(app, ["analyze", str(THREE), "--samples", "24", "--max-se", "2", "--explain", "all",
                            "--html", str(page), "--lang", "ru,ja,ko,en", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    return page, json.loads(r.stdout)


def test_the_page_carries_the_explanations_messages_in_every_language(analysed: tuple[Path, dict[str, Any]]) -> None:
    page, data = analysed
    text = page.read_text(encoding="utf-8")
    (match,) = data["matches"]
    explained = [d for d in match["decisions"] if d["explanation"]]
    assert explained and all(d["explanation_parts"] for d in explained)
    ru = translator("ru")
    first = explained[0]["explanation_parts"][0]["message"]
    assert json.dumps(ru.gettext(first), ensure_ascii=False)[1:-1] in text  # embedded, translated


@pytest.mark.parametrize("lang", ["ru", "ja", "ko", "en"])
def test_every_explanation_and_choice_is_in_the_pages_language(
    analysed: tuple[Path, dict[str, Any]], browser: Browser, lang: str
) -> None:
    page, data = analysed
    (match,) = data["matches"]
    tr = translator(lang)
    browser.open(page.as_uri() + f"?lang={lang}", width=390, height=844, mobile=True)
    assert browser.eval("document.documentElement.lang") == lang
    last = int(browser.eval("document.getElementById('slider').max"))
    by_move: dict[int, dict[str, Any]] = {}
    for d in match["decisions"]:
        by_move.setdefault(d["move"], {})[d["decision"]] = d
    compared = wide = 0
    for move in range(last + 1):
        assert browser.eval("document.body.dataset.move") == str(move)
        for shown in browser.eval(SHOWN):
            d = by_move[move][shown["decision"]]
            assert shown["played"] == choice_name(d["played"], tr)
            assert shown["choices"] == [[c, choice_name(c, tr)] for c, _ in shown["choices"]]
            if d["explanation"]:
                want = d["explanation"] if lang == "en" else render(d["explanation_parts"], tr)
                assert shown["why"] == want
                compared += 1
        wide += browser.overflow() > 0
        browser.press("ArrowRight")
    assert compared == sum(1 for d in match["decisions"] if d["explanation"]) and wide == 0
    if lang in ("ru", "ja", "ko"):
        _photograph(browser, lang, match)


def _photograph(browser: Browser, lang: str, match: dict[str, Any]) -> None:
    """The page at the costliest explained decision, from the top to the end of its choices."""
    worst = max((d for d in match["decisions"] if d["explanation"]), key=lambda d: d["loss"])
    browser.press("Home")
    browser.press("ArrowRight", worst["move"])
    bottom = browser.eval("document.querySelector('#decisions').getBoundingClientRect().bottom + window.scrollY")
    browser.eval("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.screenshot(ARTIFACTS / f"analysis-{lang}-390.png", height=int(bottom) + 12)


def test_an_analysis_without_parts_shows_its_english(analysed: tuple[Path, dict[str, Any]], tmp_path: Path,
                                                     browser: Browser) -> None:
    """A saved analysis from before the parts (``replay --analysis``) still shows, in English."""
    _, data = analysed
    for d in data["matches"][0]["decisions"]:
        d.pop("explanation_parts")
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "old.html"
    r = runner.invoke(app, ["replay", str(THREE), "--html", str(out), "--analysis", str(saved), "--lang", "ru"])
    assert r.exit_code == 0, r.output
    d = next(d for d in data["matches"][0]["decisions"] if d["explanation"])
    browser.open(out.as_uri(), width=390, height=844, mobile=True)
    browser.press("ArrowRight", d["move"])
    whys = browser.eval("[...document.querySelectorAll('#decisions .why')].map(p => p.textContent)")
    assert d["explanation"] in whys
