"""Every screenshot in docs/ made again from the current code: ``python -m tests.builders.screenshots``.

Each screenshot has a recipe here: the page is written (or served) by the
command a user runs on seeded input (a sample log, or a simulated club
season), opened in headless Chromium at the size the docs show, brought to
the moment the docs show, and photographed into ``docs/NAME.png``;
``ratings.png`` is what ``ratings --png`` draws of that season. Beside the
pictures, ``docs/screenshots.json`` keeps each page's visible text at that
moment (for ``ratings.png``, the ratings it draws, as ``ratings --format
csv`` prints them); ``tests/test_screenshots.py`` draws every page again
and fails when its text no longer matches, that is when a screenshot in the
docs shows words the code no longer draws (run this module, then commit the
pictures and the text together).

The inputs (the analyses, the replay, the club's site, the served tables)
are made once, side by side, each by its command in a process of its own;
one browser then visits every page in turn.

``python -m tests.builders.screenshots serve-ja-390 site-index-390`` makes
only those. Chromium: ``bash .ci/install-browser`` installs it if missing.
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from coloretto_log.log.writer import dumps_line
from coloretto_log.site.pages import match_slug, player_slug

from ..conftest import ROOT, SAMPLES
from .browser import Browser, CDPError, find_chromium
from .club import CIRCLES, club_matches

DOCS = ROOT / "docs"
#: Each screenshot's page text when it was taken (docs/screenshots.json).
TEXTS = DOCS / "screenshots.json"
THREE = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
TWO = SAMPLES / "classic-2p-recorded-game.json"
TYPED = SAMPLES / "classic-2p-recorded-game.typed.txt"
CLAIMS = SAMPLES / "classic-4p-recorded-match-with-claims.json"
ANALYSE = ["--samples", "24", "--max-se", "2"]
#: Screenshots in docs/ that no recipe makes (``test_screenshots`` holds docs/ to the recipes and this list).
BY_HAND: tuple[str, ...] = ()

#: The club of the site's pictures: nine players, each playing as the greedy bot with this chance (else as
#: the random one), so that their ratings spread out; cheap to simulate (no search).
CLUB: dict[str, float] = {
    "Aiko": 0.95, "Boris": 0.9, "Chloe": 0.85, "Dae": 0.7, "Emil": 0.6, "Fumi": 0.5, "Gus": 0.3, "Hana": 0.2,
    "Ivo": 0.1,
}  # fmt: skip
#: Its season: four matches of two games every Thursday evening from 5 March 2026; on the last evening, the
#: sample match with its players' claims as a fifth table.
EVENINGS, TABLES, FIRST_EVENING = 18, 4, _dt.date(2026, 3, 5)
LAST_EVENING = FIRST_EVENING + _dt.timedelta(weeks=EVENINGS - 1)
SITE_LANGS = "en,ja,ru"

#: A recipe: the browser, the inputs, where to write the picture (None: nowhere); the page's visible text.
Recipe = Callable[[Browser, "Inputs", "Path | None"], str]
RECIPES: dict[str, Recipe] = {}
#: The inputs each recipe reads (``Inputs.start`` makes them side by side before the first recipe runs).
NEEDS: dict[str, tuple[str, ...]] = {}


def recipe(name: str, *needs: str) -> Callable[[Recipe], Recipe]:
    def register(make: Recipe) -> Recipe:
        RECIPES[name] = make
        NEEDS[name] = needs
        return make

    return register


def run(*args: str) -> str:
    """``coloretto-log ARGS`` in a process of its own (several run side by side); its standard output."""
    done = subprocess.run([sys.executable, "-m", "coloretto_log", *args], capture_output=True, text=True,
                          encoding="utf-8", check=False)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"coloretto-log {' '.join(args)}: {done.stderr}")
    return done.stdout


# the inputs -----------------------------------------------------------------------------------------------------


class Inputs:
    """The pages' inputs in a scratch folder, each made once, in a thread of its own, on first need."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._made: dict[str, Future[Any]] = {}
        self._pool = ThreadPoolExecutor(max_workers=len(MAKERS))
        self.servers = ExitStack()
        self.began = time.monotonic()
        #: When each input was ready, in seconds from the start.
        self.ready_at: dict[str, float] = {}

    def start(self, names: Sequence[str]) -> None:
        """Begin making every input those screenshots need."""
        for name in names:
            for need in NEEDS[name]:
                self._future(need)

    def _future(self, what: str) -> Future[Any]:
        with self._lock:
            if what not in self._made:
                self._made[what] = self._pool.submit(self._make, what)
            return self._made[what]

    def _make(self, what: str) -> Any:
        made = MAKERS[what](self)
        self.ready_at[what] = time.monotonic() - self.began
        return made

    def get(self, what: str) -> Any:
        return self._future(what).result()

    def in_readiness(self, names: Sequence[str]) -> Iterator[str]:
        """``names``, each as soon as its inputs are made (the browser draws while the rest are being made)."""
        left = list(names)
        while left:
            ready = [n for n in left if all(self._future(need).done() for need in NEEDS[n])]
            if not ready:
                making = {self._future(need) for n in left for need in NEEDS[n]}
                wait([f for f in making if not f.done()], return_when=FIRST_COMPLETED)
                continue
            left.remove(ready[0])
            yield ready[0]

    def close(self) -> None:
        for future in self._made.values():
            future.cancel()
        self._pool.shutdown(wait=True)
        self.servers.close()


def _analysis(langs: str, *more: str) -> Callable[[Inputs], tuple[Path, dict[str, Any]]]:
    def make(inputs: Inputs) -> tuple[Path, dict[str, Any]]:
        page = inputs.folder / f"analysis-{langs}.html"
        out = run("analyze", str(THREE), *ANALYSE, *more, "--html", str(page), "--lang", langs, "--json")
        return page, json.loads(out)

    return make


def _replay(inputs: Inputs) -> Path:
    page = inputs.folder / "replay.html"
    run("replay", str(THREE), "--html", str(page), "--lang", "ru,ja,ko,en")
    return page


def season_matches() -> Iterator[dict[str, Any]]:
    """The club's season, dated by evening (a week apart), then the claims sample on the last evening."""
    count = EVENINGS * TABLES
    for match in club_matches(count, roster=CLUB, seed=7, games=2, sizes=(3, 4, 5), circles=CIRCLES,
                              start=FIRST_EVENING, days=EVENINGS, span=count):  # fmt: skip
        evening = (_dt.date.fromisoformat(match["date"]) - FIRST_EVENING).days
        yield {**match, "date": (FIRST_EVENING + _dt.timedelta(weeks=evening)).isoformat()}
    yield {**json.loads(CLAIMS.read_text(encoding="utf-8")), "date": LAST_EVENING.isoformat()}


def _club(inputs: Inputs) -> Path:
    """The season ingested into ``club/club.duckdb``, and a copy of it for ``ratings`` (which then runs beside
    ``site``, each on its own file); the club's folder."""
    club = inputs.folder / "club"
    club.mkdir()
    log = club / "season-2026.jsonl"
    log.write_text("".join(dumps_line(m) + "\n" for m in season_matches()), encoding="utf-8")
    run("ingest", "--db", str(club / "club.duckdb"), str(log))
    shutil.copyfile(club / "club.duckdb", club / "ratings.duckdb")
    return club


def _site(inputs: Inputs) -> Path:
    """The club's site in English, Japanese and Russian; its folder."""
    club = inputs.get("club")
    run("site", "--db", str(club / "club.duckdb"), "--out", str(club / "site"), "--lang", SITE_LANGS)
    return Path(club / "site")


def _ratings(inputs: Inputs) -> str:
    """``ratings --png`` of the season, drawn into the scratch folder; the ratings it draws (``--format csv``,
    every number rounded to a tenth: the last digits of a float may differ from one machine to another)."""
    db = str(inputs.get("club") / "ratings.duckdb")
    table = run("ratings", "--db", db, "--format", "csv", "--png", str(inputs.folder / "ratings.png"))
    return re.sub(r"-?\d+\.\d+", lambda m: f"{float(m.group(0)):.1f}", table)


def _serve(inputs: Inputs) -> str:
    return inputs.servers.enter_context(_served(inputs.folder))


@contextmanager
def _served(folder: Path) -> Iterator[str]:
    """``serve`` on the sample two-player game, its setup and first 30 moves entered; the page's address (each
    language's page is the address with ``&lang=``)."""
    from .server import Server

    sample = json.loads(TWO.read_text(encoding="utf-8"))
    lines = [line for line in TYPED.read_text(encoding="utf-8").splitlines() if line.strip()]
    with Server(folder / "serve.json", "--players", ",".join(sample["players"]), "--date", sample["date"],
                "--games", "1") as server:  # fmt: skip
        server.feed(lines[:34])  # the setup's four lines, then 30 moves
        yield server.url
        server.stop()


MAKERS: dict[str, Callable[[Inputs], Any]] = {
    "analysis": _analysis("ru,ja,ko,en", "--explain", "all"),
    "replay": _replay,
    "club": _club,
    "site": _site,
    "ratings": _ratings,
    "serve": _serve,
}


# photographs ----------------------------------------------------------------------------------------------------

VISIBLE = "document.body.innerText"


def normalised(text: str) -> str:
    """A page's visible text with what changes from one run to the next taken out (addresses, ports, tokens)."""
    text = re.sub(r"https?://[^\s]+", "ADDRESS", text)
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


def visible_text(b: Browser) -> str:
    return normalised(str(b.eval(VISIBLE)))


def _top(b: Browser, selector: str) -> int:
    return int(b.eval(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().top + window.scrollY"))


def photograph(b: Browser, out: Path | None, *, height: int | None = None, top: int = 0) -> str:
    """The page's visible text; and, given ``out``, the page photographed into it: whole, or ``height`` CSS
    pixels from ``top``."""
    text = visible_text(b)
    if out is None:
        return text
    if top == 0:
        b.screenshot(out, height=height)
        return text
    width = b.eval("document.documentElement.clientWidth")
    clip = {"x": 0, "y": top, "width": width, "height": height, "scale": 1}
    png = b.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})["data"]
    out.write_bytes(base64.b64decode(png))
    return text


def _opened(b: Browser, url: str, *, width: int, height: int, mobile: bool) -> None:
    """The page opened and read to its end (a site page says it is ready in its first lines: on a loaded
    machine its text could be read half parsed)."""
    b.open(url, width=width, height=height, mobile=mobile)
    b.wait_for("document.readyState === 'complete'")


def _phone(b: Browser, url: str) -> None:
    _opened(b, url, width=390, height=844, mobile=True)


def _laptop(b: Browser, url: str, height: int = 900) -> None:
    _opened(b, url, width=1280, height=height, mobile=False)


def _at(move: int) -> str:
    """The address's end that opens a viewer page (replay, analysis) at that move of the first game, as if
    the reader had pressed → that many times."""
    return f"#m=1&g=1&s={move}"


# the analysis page (analyze --html) -----------------------------------------------------------------------------


def _worst_explained(lang: str) -> Recipe:
    def make(b: Browser, inputs: Inputs, out: Path | None) -> str:
        page, data = inputs.get("analysis")
        (match,) = data["matches"]
        worst = max((d for d in match["decisions"] if d["explanation"]), key=lambda d: d["loss"])
        _phone(b, page.as_uri() + f"?lang={lang}" + _at(worst["move"]))
        bottom = b.eval("document.querySelector('#decisions').getBoundingClientRect().bottom + window.scrollY")
        b.eval("window.scrollTo(0, 0)")
        return photograph(b, out, height=int(bottom) + 12)

    return make


for _lang in ("ja", "ko", "ru"):
    recipe(f"analysis-{_lang}-390", "analysis")(_worst_explained(_lang))


def _worst_marked(b: Browser, inputs: Inputs, out: Path | None, *, phone: bool) -> str:
    """The costliest marked decision, on the same page in English."""
    page, data = inputs.get("analysis")
    (match,) = data["matches"]
    worst = max((d for d in match["decisions"] if d["mark"]), key=lambda d: d["loss"])
    if not phone:
        _laptop(b, page.as_uri() + "?lang=en" + _at(worst["move"]))
        return photograph(b, out)
    _phone(b, page.as_uri() + "?lang=en")
    b.tap(f"#marked .jump[data-move='{worst['move']}']")
    b.eval("window.scrollTo(0, 0)")
    bottom = b.eval("document.getElementById('marked').getBoundingClientRect().bottom + window.scrollY")
    return photograph(b, out, height=int(bottom) + 12)


recipe("analyze-390", "analysis")(lambda b, inputs, out: _worst_marked(b, inputs, out, phone=True))
recipe("analyze-1280", "analysis")(lambda b, inputs, out: _worst_marked(b, inputs, out, phone=False))


# the replay viewer (replay --html) ------------------------------------------------------------------------------


@recipe("replay-ru-390", "replay")
def _replay_ru(b: Browser, inputs: Inputs, out: Path | None) -> str:
    """The golden joker's extra card after the last-round card, told in Russian."""
    from coloretto_log.log.load import load
    from coloretto_log.report.timeline import from_loaded

    steps = from_loaded(next(iter(load([THREE])))).games[0].steps
    extra = next(i for i, s in enumerate(steps) if s.move is not None and getattr(s.move, "extra", None)
                 and s.move.last_round)  # fmt: skip
    _phone(b, inputs.get("replay").as_uri() + "?lang=ru" + _at(extra))
    return photograph(b, out, height=640)


# the serve page -------------------------------------------------------------------------------------------------


def _tapped(b: Browser, selector: str, shown: str) -> None:
    """A click on ``selector`` until the page shows it (``shown``, an expression): on a loaded machine a click
    can land while the page is still being drawn, and be lost (the page then shows no change)."""
    for _ in range(5):
        b.click(selector)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if b.eval(f"!!({shown})"):
                return
            time.sleep(0.05)
    raise CDPError(f"the page never showed {shown} after a click on {selector}")


def _row_chosen(b: Browser, url: str) -> None:
    """The page on a phone, live, a row chosen to take: "Take row N" showing."""
    from .taps import live

    _phone(b, url)
    live(b)
    row = b.eval("[...document.querySelectorAll('[data-row]')].find(e => !e.disabled).dataset.row")
    _tapped(b, f'[data-row="{row}"]', "document.querySelector('[data-take]')")


def _serve_phone(lang: str) -> Recipe:
    def make(b: Browser, inputs: Inputs, out: Path | None) -> str:
        _row_chosen(b, inputs.get("serve") + f"&lang={lang}")
        return photograph(b, out)

    return make


for _lang in ("ja", "ko", "ru"):
    recipe(f"serve-{_lang}-390", "serve")(_serve_phone(_lang))
recipe("serve-390", "serve")(_serve_phone("en"))


@recipe("serve-1280", "serve")
def _serve_laptop(b: Browser, inputs: Inputs, out: Path | None) -> str:
    """The page on a laptop, live, the next move's drawn card tapped: "Put COLOUR here" on the rows."""
    from .taps import live

    card = json.loads(TWO.read_text(encoding="utf-8"))["games"][0]["moves"][30]["card"]
    _laptop(b, inputs.get("serve") + "&lang=en", height=800)
    live(b)
    pressed = f'#input [data-card="{card}"][aria-pressed="true"]'
    _tapped(b, f'#input [data-card="{card}"]', f"document.querySelector({json.dumps(pressed)})")
    b.eval("window.scrollTo(0, 0)")
    return photograph(b, out, height=800)


# the club's site (site), and ratings --png ----------------------------------------------------------------------


def _site_of(inputs: Inputs) -> Path:
    return Path(inputs.get("site"))


def _site_page(inputs: Inputs, name: str) -> str:
    """The address of the club's site page ``name`` (a path in the site's folder)."""
    return (_site_of(inputs) / name).as_uri()


def _player(inputs: Inputs) -> str:
    """The page of the club's strongest player."""
    return (_site_of(inputs) / "players" / f"{player_slug('Aiko')}.html").as_uri()


def _index_in(lang: str) -> Recipe:
    def make(b: Browser, inputs: Inputs, out: Path | None) -> str:
        _phone(b, _site_page(inputs, f"index.{lang}.html"))
        return photograph(b, out, height=_top(b, "h2:nth-of-type(3)"))

    return make


for _lang in ("ja", "ru"):
    recipe(f"site-index-{_lang}-390", "site")(_index_in(_lang))


def _claims_match(inputs: Inputs, folder: str) -> str:
    """The address of the claims sample's page in ``matches`` or ``replay`` of the club's site."""
    match_id = json.loads(CLAIMS.read_text(encoding="utf-8"))["id"]
    return (_site_of(inputs) / folder / f"{match_slug(match_id)}.html").as_uri()


def _site_top(page: Callable[[Inputs], str], *, phone: bool) -> Recipe:
    """The top 1000 CSS pixels of a site page, on a phone or on a laptop."""

    def make(b: Browser, inputs: Inputs, out: Path | None) -> str:
        if phone:
            _phone(b, page(inputs))
        else:
            _laptop(b, page(inputs), height=1000)
        return photograph(b, out, height=1000)

    return make


recipe("site-index-1280", "site")(_site_top(lambda inputs: _site_page(inputs, "index.html"), phone=False))
recipe("site-index-390", "site")(_site_top(lambda inputs: _site_page(inputs, "index.html"), phone=True))
#: the last evening's sample match: its players' claims and their verdicts
recipe("site-match-1280", "site")(_site_top(lambda inputs: _claims_match(inputs, "matches"), phone=False))


@recipe("site-player-390", "site")
def _player_rating(b: Browser, inputs: Inputs, out: Path | None) -> str:
    _phone(b, _player(inputs))
    return photograph(b, out, height=_top(b, "#form"))


@recipe("site-player-stats-390", "site")
def _player_stats(b: Browser, inputs: Inputs, out: Path | None) -> str:
    """The best player's form, scores, nemesis and victim, and results by seat."""
    _phone(b, _player(inputs))
    top = _top(b, "#form") - 8
    return photograph(b, out, top=top, height=_top(b, "#colours") - 8 - top)


@recipe("site-evening-390", "site")
def _evening(b: Browser, inputs: Inputs, out: Path | None) -> str:
    """The last evening: five tables, the claims sample's among them."""
    _phone(b, _site_page(inputs, f"evenings/{LAST_EVENING.isoformat()}.html"))
    return photograph(b, out)


@recipe("site-replay-390", "site")
def _site_replay(b: Browser, inputs: Inputs, out: Path | None) -> str:
    """The replay page of the last evening's sample match, at its 20th move."""
    _phone(b, _claims_match(inputs, "replay") + _at(20))
    return photograph(b, out, height=844)


@recipe("ratings", "ratings")
def _ratings_png(b: Browser, inputs: Inputs, out: Path | None) -> str:
    """``ratings --png`` of the club's season (no page: the text is the ratings it draws)."""
    text = str(inputs.get("ratings"))
    if out is not None:
        out.write_bytes((inputs.folder / "ratings.png").read_bytes())
    return normalised(text)


# taking them ----------------------------------------------------------------------------------------------------

#: Every screenshot a recipe makes.
NAMES = sorted(RECIPES)


def _page_targets(b: Browser) -> set[str]:
    return {t["targetId"] for t in b.send("Target.getTargets", session=False)["targetInfos"] if t["type"] == "page"}


def draw(
    names: Sequence[str], chromium: str, folder: Path, *, photographs: Path | None = None,
    timings: dict[str, float] | None = None,
) -> dict[str, str]:
    """Each screenshot's visible text, its page drawn in one browser; photographed into ``photographs`` (as
    ``NAME.png``) when given. The inputs are made side by side first. ``timings`` receives when each input
    and each page was ready, in seconds from the start."""
    texts: dict[str, str] = {}
    inputs = Inputs(folder)
    try:
        inputs.start(names)
        with tempfile.TemporaryDirectory(prefix="coloretto-shot-") as profile:
            b = Browser(chromium, profile)
            try:
                for name in inputs.in_readiness(names):
                    before = _page_targets(b)
                    out = None if photographs is None else photographs / f"{name}.png"
                    try:
                        texts[name] = RECIPES[name](b, inputs, out)
                    except Exception as e:
                        raise RuntimeError(f"{name}: {e}") from e
                    if timings is not None:
                        timings[name] = time.monotonic() - inputs.began
                    for target in _page_targets(b) - before:  # the page closed: one tab open at a time
                        b.send("Target.closeTarget", {"targetId": target}, session=False)
                    b.events.clear()
            finally:
                b.close()
    finally:
        inputs.close()
        if timings is not None:
            timings.update(inputs.ready_at)
    return texts


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
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="coloretto-shots-") as scratch:
        texts.update(draw(names, chromium, Path(scratch), photographs=DOCS, timings=timings))
    for name in names:
        print(f"docs/{name}.png")
    ready = ", ".join(f"{what} {at:.1f}" for what, at in sorted(timings.items(), key=lambda kv: kv[1]))
    print(f"ready after (s): {ready}", file=sys.stderr)
    TEXTS.write_text(json.dumps(dict(sorted(texts.items())), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
