"""Every screenshot in docs/ made again from the current code: ``python -m tests.builders.screenshots``.

Each screenshot has a recipe here: the page is written (or served) by the
command a user runs, opened in headless Chromium at the size the docs show,
brought to the moment the docs show, and photographed into ``docs/NAME.png``.
Beside the pictures, ``docs/screenshots.json`` keeps each page's visible
text at that moment; ``tests/test_screenshots.py`` draws every page again
and fails when its text no longer matches, that is when a screenshot in
the docs shows words the code no longer draws (run this module, then commit
the pictures and the text together).

``python -m tests.builders.screenshots serve-ja-390 analysis-ko-390`` makes
only those. Chromium: ``bash .ci/install-browser`` installs it if missing.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from coloretto_log.cli import app

from ..conftest import ROOT, SAMPLES
from .browser import Browser, find_chromium

DOCS = ROOT / "docs"
#: Each screenshot's page text when it was taken (docs/screenshots.json).
TEXTS = DOCS / "screenshots.json"
THREE = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
TWO = SAMPLES / "classic-2p-recorded-game.json"
TYPED = SAMPLES / "classic-2p-recorded-game.typed.txt"
ANALYSE = ["--samples", "24", "--max-se", "2"]
#: Screenshots in docs/ that no recipe makes yet: they are drawn by the browser tests (test-artifacts/) and
#: copied by hand. A new screenshot must get a recipe (``test_screenshots`` holds docs/ to the two lists).
BY_HAND = ("ratings.png", "serve-390.png", "serve-1280.png", "site-index-1280.png", "site-index-390.png",
           "site-index-ja-390.png", "site-index-ru-390.png", "site-match-1280.png", "site-player-390.png",
           "site-replay-390.png", "site-evening-390.png", "site-player-stats-390.png")  # fmt: skip

#: A recipe: the browser, a scratch folder; it opens the page at the moment the docs show and returns the
#: height to photograph (None: the window's).
Recipe = Callable[[Browser, Path], "int | None"]
RECIPES: dict[str, Recipe] = {}


def recipe(name: str) -> Callable[[Recipe], Recipe]:
    def register(make: Recipe) -> Recipe:
        RECIPES[name] = make
        return make

    return register


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    if result.exit_code != 0:
        raise RuntimeError(f"coloretto-log {' '.join(args)}: {result.output}")
    return result.stdout


# the analysis page (analyze --html) -----------------------------------------------------------------------------


def _analysis(folder: Path, langs: str, *more: str) -> tuple[Path, dict[str, Any]]:
    page = folder / f"analysis-{langs}.html"
    if not page.exists():
        out = _run("analyze", str(THREE), *ANALYSE, *more, "--html", str(page), "--lang", langs, "--json")
        (folder / f"analysis-{langs}.json").write_text(out, encoding="utf-8")
    return page, json.loads((folder / f"analysis-{langs}.json").read_text(encoding="utf-8"))


def _worst_explained(lang: str) -> Recipe:
    def make(b: Browser, folder: Path) -> int:
        page, data = _analysis(folder, "ru,ja,ko,en", "--explain", "all")
        (match,) = data["matches"]
        worst = max((d for d in match["decisions"] if d["explanation"]), key=lambda d: d["loss"])
        b.open(page.as_uri() + f"?lang={lang}", width=390, height=844, mobile=True)
        b.press("ArrowRight", worst["move"])
        bottom = b.eval("document.querySelector('#decisions').getBoundingClientRect().bottom + window.scrollY")
        b.eval("window.scrollTo(0, 0)")
        return int(bottom) + 12

    return make


for _lang in ("ja", "ko", "ru"):
    recipe(f"analysis-{_lang}-390")(_worst_explained(_lang))


def _worst_marked(b: Browser, folder: Path, *, phone: bool) -> int | None:
    page, data = _analysis(folder, "en")
    (match,) = data["matches"]
    worst = max((d for d in match["decisions"] if d["mark"]), key=lambda d: d["loss"])
    if not phone:
        b.open(page.as_uri() + f"#m=1&g=1&s={worst['move']}", width=1280, height=900, mobile=False)
        return None
    b.open(page.as_uri(), width=390, height=844, mobile=True)
    b.tap(f"#marked .jump[data-move='{worst['move']}']")
    b.eval("window.scrollTo(0, 0)")
    return int(b.eval("document.getElementById('marked').getBoundingClientRect().bottom + window.scrollY")) + 12


recipe("analyze-390")(lambda b, folder: _worst_marked(b, folder, phone=True))
recipe("analyze-1280")(lambda b, folder: _worst_marked(b, folder, phone=False))


# the replay viewer (replay --html) ------------------------------------------------------------------------------


@recipe("replay-ru-390")
def _replay_ru(b: Browser, folder: Path) -> int:
    """The golden joker's extra card after the last-round card, told in Russian."""
    from coloretto_log.log.load import load
    from coloretto_log.report.timeline import from_loaded

    page = folder / "replay.html"
    _run("replay", str(THREE), "--html", str(page), "--lang", "ru,ja,ko,en")
    steps = from_loaded(next(iter(load([THREE])))).games[0].steps
    extra = next(i for i, s in enumerate(steps) if s.move is not None and getattr(s.move, "extra", None)
                 and s.move.last_round)  # fmt: skip
    b.open(page.as_uri() + "?lang=ru", width=390, height=844, mobile=True)
    b.press("ArrowRight", extra)
    return 640


# the serve page -------------------------------------------------------------------------------------------------


@contextmanager
def _served(folder: Path, lang: str) -> Iterator[str]:
    """``serve`` on the sample two-player game, its setup and first 30 moves entered; the page's address."""
    from .server import Server

    sample = json.loads(TWO.read_text(encoding="utf-8"))
    lines = [line for line in TYPED.read_text(encoding="utf-8").splitlines() if line.strip()]
    with Server(folder / f"serve-{lang}.json", "--players", ",".join(sample["players"]), "--date", sample["date"],
                "--games", "1", "--lang", lang) as server:  # fmt: skip
        server.feed(lines[:34])  # the setup's four lines, then 30 moves
        yield server.url
        server.stop()


#: The serve page's screenshots: photographed while their server runs (``_serve_take``).
SERVED = ("serve-ja-390", "serve-ko-390", "serve-ru-390")


# taking them ----------------------------------------------------------------------------------------------------

VISIBLE = "document.body.innerText"
#: Every screenshot a recipe makes.
NAMES = sorted([*RECIPES, *SERVED])


def normalised(text: str) -> str:
    """A page's visible text with what changes from one run to the next taken out (addresses, ports, tokens)."""
    text = re.sub(r"https?://[^\s]+", "ADDRESS", text)
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def visible_text(b: Browser) -> str:
    return normalised(str(b.eval(VISIBLE)))


def take(name: str, chromium: str, folder: Path, *, photograph: bool) -> str:
    """Draw ``name``'s page in a fresh browser; photograph it into docs/ when asked; its visible text."""
    with tempfile.TemporaryDirectory(prefix="coloretto-shot-") as profile:
        b = Browser(chromium, profile)
        try:
            if name in SERVED:
                return _serve_take(b, name, folder, photograph=photograph)
            tall = RECIPES[name](b, folder)
            text = visible_text(b)
            if photograph:
                b.screenshot(DOCS / f"{name}.png", height=tall)
            return text
        finally:
            b.close()


def _serve_take(b: Browser, name: str, folder: Path, *, photograph: bool) -> str:
    from .taps import live

    with _served(folder, name.split("-")[1]) as url:
        b.open(url, width=390, height=844, mobile=True)
        b.wait_for("document.body.dataset.ready === 'true'")
        live(b)
        row = b.eval("[...document.querySelectorAll('[data-row]')].find(e => !e.disabled).dataset.row")
        b.click(f'[data-row="{row}"]')  # a row chosen to take: "Take row N" showing
        text = visible_text(b)
        if photograph:
            b.screenshot(DOCS / f"{name}.png")
        return text


def main(argv: list[str]) -> int:
    chromium = find_chromium()
    if chromium is None:
        print("no Chromium: run bash .ci/install-browser (or set COLORETTO_CHROMIUM)", file=sys.stderr)
        return 2
    names = argv or NAMES
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        print(f"no recipe for {', '.join(unknown)}; recipes: {', '.join(NAMES)}", file=sys.stderr)
        return 2
    texts = json.loads(TEXTS.read_text(encoding="utf-8")) if TEXTS.exists() else {}
    with tempfile.TemporaryDirectory(prefix="coloretto-shots-") as scratch:
        for name in names:
            texts[name] = take(name, chromium, Path(scratch), photograph=True)
            print(f"docs/{name}.png")
    TEXTS.write_text(json.dumps(dict(sorted(texts.items())), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
