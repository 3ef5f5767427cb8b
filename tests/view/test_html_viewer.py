"""The HTML viewer: a self-contained page, and the page stepped through in a real headless Chromium.

The browser is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages ended by a NUL byte on file descriptors 3 and 4), with the standard
library only. The test skips, saying why, where no Chromium can be found; set
COLORETTO_CHROMIUM to use another binary, and COLORETTO_REQUIRE_BROWSER=1 to make a
missing browser a failure (CI). The screenshot it takes is kept under
test-artifacts/ (not in the repository).
"""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from coloretto_log.core.cards import KINDS
from coloretto_log.core.engine import Draw
from coloretto_log.core.scoring import best_from_counts
from coloretto_log.log.replay import check_match
from coloretto_log.report.timeline import build
from coloretto_log.view.html import (
    CARD_COLOURS,
    CARD_LABELS,
    BadAnalysis,
    _asset,
    analysis_from_json,
    analysis_of,
    embed_json,
    fill,
    page_chunks,
    render_html,
    write_html,
)

from ..builders.browser import Browser
from ..builders.viewer import TWO_PLAYER, hand_analysis, random_match, with_claims

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def match_with_players(
    players: int, games: int = 2, seed: int = 2024
) -> tuple[dict[str, Any], list[list[Any]]]:
    log, _, states, _ = random_match(seed, players, "classic", games, random.Random(seed))
    return log, states


def page_for(
    log: dict[str, Any], title: str = "m.json", start: dict[str, int] | None = None
) -> str:
    return render_html([build(check_match(log), label=title, file=title)], title=title, start=start)


def embedded(page: str) -> Any:
    m = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL
    )
    assert m is not None
    return json.loads(m.group(1))


# --------------------------------------------------------------------------- the page as text


def test_page_is_self_contained() -> None:
    log, _ = match_with_players(4, games=1)
    page = page_for(log)
    assert page.startswith("<!DOCTYPE html>")
    lowered = page.lower()
    for needle in ("http:", "https:", "//cdn", "<link", "@import", "url(", " src=", "@font-face"):
        assert needle not in lowered, needle
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "default-src 'none'" in page  # the page may not fetch anything
    assert page.count("<script") == 2  # the data and the inline script, nothing loaded


def test_embedded_data_is_the_timeline_json() -> None:
    log, _ = match_with_players(3, games=1)
    t = build(check_match(log), label="m.json", file="m.json")
    data = embedded(render_html([t], title="m.json", start={"match": 1, "game": 1, "move": 5}))
    assert data["matches"] == [t.as_json(by_difference=True)]
    assert data["start"] == {"match": 1, "game": 1, "move": 5}
    assert set(data["labels"]) == set(KINDS)


def test_hostile_names_cannot_break_out_of_the_script() -> None:
    log = json.loads(json.dumps(TWO_PLAYER))
    evil = "</script><b>&"
    log["players"] = [evil, "Boris"]
    game = log["games"][0]
    game["setup"]["starting"] = {evil: ["orange", "blue"], "Boris": ["brown", "yellow"]}
    game["setup"]["first"] = evil
    for m in game["moves"]:
        if m["player"] == "Aiko":
            m["player"] = evil
    page = page_for(log, title="<x>.json")
    assert "</script><b>" not in page.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert embedded(page)["matches"][0]["players"][0] == evil
    assert "<title>Coloretto replay · &lt;x&gt;.json</title>" in page
    assert embed_json("a</script>&\u2028") == '"a\\u003c/script\\u003e\\u0026\\u2028"'


def test_no_user_text_is_read_as_a_placeholder() -> None:
    log, _ = match_with_players(2, games=1)
    log["players"] = ["%%TITLE%%", "%%JS%%"]
    for g in log["games"]:
        for m in g["moves"]:
            m["player"] = {"Aiko": "%%TITLE%%", "Boris": "%%JS%%"}[m["player"]]
        setup = g["setup"]
        if "first" in setup:
            setup["first"] = {"Aiko": "%%TITLE%%", "Boris": "%%JS%%"}[setup["first"]]
    title = "games %%DATA%% %%CSS%% %%JS%% %%NOPE%%.json"
    page = page_for(log, title=title)
    assert f"<title>Coloretto replay · {title}</title>" in page
    assert page.count('id="replay-data"') == 1
    # the script and the style appear once each, where the template puts them
    assert page.count(_asset("viewer.js")) == 1 and page.count(_asset("viewer.css")) == 1
    data = embedded(page)
    assert data["title"] == title
    assert data["matches"][0]["players"] == ["%%TITLE%%", "%%JS%%"]
    assert fill("%%A%% %%B%%", {"A": "%%B%%", "B": "b"}) == "%%B%% b"


def test_the_page_is_the_package_data_files_inlined() -> None:
    page = page_for(match_with_players(3, games=1)[0])
    head, _, tail = page.partition('<script type="application/json" id="replay-data">')
    assert "<style>\n" + _asset("viewer.css") in head
    scripts = "\n".join(_asset(name) for name in ("i18n.js", "narrative.js", "states.js", "viewer.js"))
    assert "<script>\n" + scripts + "\n</script>" in tail
    # inlined text cannot end its element early
    assert "</script" not in scripts.lower() and "</style" not in _asset("viewer.css").lower()
    assert "%%" not in head.replace(_asset("viewer.css"), "") + tail.replace(scripts, "")
    # the chunks a long file is written in make the same page
    t = build(check_match(match_with_players(3, games=1)[0]), label="m.json", file="m.json")
    assert "".join(page_chunks(iter([t, t]), title="m.json")) == render_html([t, t], title="m.json")


def test_package_data_names_every_viewer_file() -> None:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["coloretto_log"]
    assets = sorted((ROOT / "coloretto_log" / "view" / "assets").iterdir())
    assert {p.name for p in assets} >= {"viewer.html", "viewer.css", "viewer.js"}
    for path in assets:
        name = path.relative_to(ROOT / "coloretto_log").as_posix()
        assert any(fnmatch.fnmatch(name, g) for g in globs), name


def _can_build_wheel() -> bool:
    try:
        from setuptools.command import bdist_wheel  # noqa: F401
    except ImportError:
        return importlib.util.find_spec("wheel") is not None
    return True


def test_a_built_wheel_carries_the_viewer_files(tmp_path: Path) -> None:
    if not _can_build_wheel():
        pytest.skip("neither setuptools>=70.1 nor wheel is installed: cannot build a wheel offline")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("coloretto_log-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for asset in ("viewer.html", "viewer.css", "viewer.js"):
        assert f"coloretto_log/view/assets/{asset}" in names


# --------------------------------------------------------------------------- a real browser


SHOWN = """(() => ({
  game: document.body.dataset.game,
  move: Number(document.body.dataset.move),
  counter: document.getElementById('counter').textContent,
  narrative: document.getElementById('narrative').textContent,
  status: document.getElementById('status').textContent,
  rows: [...document.querySelectorAll('#rows .row')].map(r => ({
    row: Number(r.dataset.row), taken: r.dataset.taken === 'true', text: r.textContent,
    cards: [...r.querySelectorAll('.card')].map(c => c.dataset.card)})),
  players: [...document.querySelectorAll('#players .player')].map(p => ({
    name: p.dataset.player, score: Number(p.querySelector('.score').textContent), next: p.classList.contains('next'),
    chips: Object.fromEntries([...p.querySelectorAll('.chip')].map(c => [c.dataset.card, Number(c.textContent.split('\u00d7').pop())]))})),
  final: document.getElementById('final').hidden ? null : document.getElementById('final').innerText,
  error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent,
}))()"""


FINAL_ROWS = """[...document.querySelectorAll('#final tr')].map(tr => ({
  player: tr.dataset.player, rank: Number(tr.dataset.rank),
  score: Number(tr.lastChild.textContent), win: tr.classList.contains('win')}))"""


def check_shown(
    shown: dict[str, Any], state: Any, players: tuple[str, ...], move: int, moves: int
) -> None:
    """What the page shows equals the engine's state at that move."""
    assert shown["move"] == move
    assert shown["counter"] == ("setup" if move == 0 else f"move {move}") + f" / {moves}"
    assert shown["status"].startswith(f"round {state.round} · ")
    assert ("last round!" in shown["status"]) == state.last_round
    assert f"{state.cards_left} card" in shown["status"]
    if not state.over:
        assert f"{players[state.current]} to play" in shown["status"]
    assert [r["row"] for r in shown["rows"]] == list(range(1, len(state.rows) + 1))
    for r, cards, taken in zip(shown["rows"], state.rows, state.taken):
        assert r["taken"] == taken
        assert r["cards"] == ([] if taken else list(cards))
    for p, seat in zip(shown["players"], range(len(players))):
        assert p["name"] == players[seat]
        best = best_from_counts(state.collections[seat], state.colours, table=state.rules.table)
        assert p["score"] == best.score
        held = {k: n for k, n in zip(KINDS, state.collections[seat]) if n}
        assert p["chips"] == held
        assert p["next"] == (not state.over and seat == state.current)


def test_stepping_through_a_real_page(browser: Browser, tmp_path: Path) -> None:
    log, states = match_with_players(4, games=2)
    players = tuple(log["players"])
    timeline = build(check_match(log), label="m.json", file="m.json")
    page = tmp_path / "replay.html"
    page.write_text(render_html([timeline], title="m.json"), encoding="utf-8")
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    game1 = states[0]
    n1 = len(game1) - 1

    shown = browser.eval(SHOWN)
    assert shown["game"] == "1"
    check_shown(shown, game1[0], players, 0, n1)
    assert shown["narrative"] == timeline.games[0].steps[0].narrative

    browser.press("ArrowRight", 12)
    shown = browser.eval(SHOWN)
    check_shown(shown, game1[12], players, 12, n1)
    assert shown["narrative"] == timeline.games[0].steps[12].narrative

    browser.press("ArrowLeft", 3)
    shown = browser.eval(SHOWN)
    check_shown(shown, game1[9], players, 9, n1)
    assert shown["narrative"] == timeline.games[0].steps[9].narrative
    assert shown["final"] is None

    browser.press("ArrowLeft", 20)  # stops at the setup
    check_shown(browser.eval(SHOWN), game1[0], players, 0, n1)

    # the buttons and the slider move too
    browser.eval("document.getElementById('next').click()")
    check_shown(browser.eval(SHOWN), game1[1], players, 1, n1)
    browser.eval(
        "(s => { s.value = '20'; s.dispatchEvent(new Event('input')); })(document.getElementById('slider'))"
    )
    check_shown(browser.eval(SHOWN), game1[20], players, 20, n1)
    browser.eval("document.getElementById('prev').click()")
    check_shown(browser.eval(SHOWN), game1[19], players, 19, n1)

    browser.press("End")
    shown = browser.eval(SHOWN)
    check_shown(shown, game1[-1], players, n1, n1)
    final = timeline.games[0].final_scores
    assert final is not None
    assert shown["final"] is not None and "Final scores" in shown["final"]
    for name, score in zip(players, final):
        assert re.search(rf"{name}\s+{score}\b", shown["final"]), (name, score, shown["final"])
    assert "Match totals" in shown["final"]
    # the ranks and winners shown are the report's, listed by rank (ties in seat order)
    data = timeline.as_json()
    want = data["games"][0]["scores"] + data["totals"]["scores"]
    want_winners = data["games"][0]["winners"] + data["totals"]["winners"]
    rows = browser.eval(FINAL_ROWS)
    assert sorted(rows[:4], key=lambda r: r["player"]) == sorted(
        ({**w, "win": w["player"] in data["games"][0]["winners"]} for w in want[:4]),
        key=lambda r: r["player"],
    )
    assert [r["rank"] for r in rows[:4]] == sorted(r["rank"] for r in rows[:4])
    assert [r["player"] for r in rows if r["win"]] == [
        r["player"] for r in rows if r["player"] in want_winners and r["rank"] == 1
    ]

    # the next game, by keyboard; then a mid-game position
    browser.press("]")
    shown = browser.eval(SHOWN)
    game2 = states[1]
    n2 = len(game2) - 1
    assert shown["game"] == "2"
    check_shown(shown, game2[0], players, 0, n2)
    mid = n2 // 2
    browser.press("ArrowRight", mid)
    shown = browser.eval(SHOWN)
    check_shown(shown, game2[mid], players, mid, n2)
    assert shown["narrative"] == timeline.games[1].steps[mid].narrative

    # cards are drawn in their colours
    colours = browser.eval(
        "Object.fromEntries([...document.querySelectorAll('[data-card]')].map(c => [c.dataset.card, getComputedStyle(c).backgroundColor]))"
    )
    for name, rgb in colours.items():
        if name not in ("joker",):
            hexa = CARD_COLOURS[name][0].lstrip("#")
            want = tuple(int(hexa[i : i + 2], 16) for i in (0, 2, 4))
            assert rgb == "rgb({}, {}, {})".format(*want), (name, rgb)
    # every card and collection tile names its colour in letters too (colour-blind players)
    labels = browser.eval(
        "[...document.querySelectorAll('.card, .chip')].map(c => [c.dataset.card, (c.querySelector('.cl') || c).textContent])"
    )
    assert labels and all(text.startswith(CARD_LABELS[name]) for name, text in labels), labels
        # the slider follows the keyboard; the page fits a phone's width
    assert browser.eval("Number(document.getElementById('slider').value)") == mid
    assert browser.eval("document.documentElement.scrollWidth <= window.innerWidth")

    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "replay-viewer-mid-game.png"
    browser.screenshot(shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000

    # nothing was fetched but the page itself
    urls = [
        e["params"]["request"]["url"]
        for e in browser.events
        if e.get("method") == "Network.requestWillBeSent"
    ]
    assert urls == [page.as_uri()]


def test_the_page_opens_at_the_asked_move_and_shows_where_play_broke_off(
    browser: Browser, tmp_path: Path
) -> None:
    log = json.loads(json.dumps(TWO_PLAYER))
    log["games"][0]["moves"][4] = {"player": "Aiko", "action": "draw", "row": 1, "card": "green"}
    timeline = build(check_match(log), label="bad.json", file="bad.json")
    page = tmp_path / "bad.html"
    page.write_text(
        render_html([timeline], title="bad.json", start={"match": 1, "game": 1, "move": 2}),
        encoding="utf-8",
    )
    browser.open(page.as_uri(), width=1000, height=800, mobile=False)
    shown = browser.eval(SHOWN)
    states = [s.state for s in timeline.games[0].steps]
    check_shown(shown, states[2], ("Aiko", "Boris"), 2, 4)
    assert shown["error"] is None
    browser.press("End")
    shown = browser.eval(SHOWN)
    check_shown(shown, states[4], ("Aiko", "Boris"), 4, 4)
    assert shown["error"] == (
        "Play broke off at move 5: bad.json: game 1, move 5: error [row-full] row 1 already holds 1 card"
    )
    assert "Scores so far" in shown["final"]


CLAIMS = """[...document.querySelectorAll('#claims .claim')].map(c => ({
  player: c.dataset.claim, status: c.dataset.status, verdict: c.querySelector('.verdict').textContent,
  claimed: c.querySelector('.claimed').textContent, optimum: c.querySelector('.optimum').textContent,
  problems: [...c.querySelectorAll('li')].map(li => li.textContent)}))"""


def test_final_scores_and_claim_verdicts_one_click_away(browser: Browser, tmp_path: Path) -> None:
    log = with_claims({
        "Aiko": {"score": 9},
        "Boris": {"score": 5, "jokers": ["blue"], "positive": ["blue", "brown", "yellow"]},
    })
    timeline = build(check_match(log), label="claims.json", file="claims.json")
    page = tmp_path / "claims.html"
    page.write_text(render_html([timeline], title="claims.json"), encoding="utf-8")
    browser.open(page.as_uri(), width=390, height=700, mobile=True)
    assert browser.eval("document.getElementById('final').hidden")
    assert browser.eval("document.getElementById('to-final').textContent").startswith("Final scores")
    browser.eval("document.getElementById('to-final').click()")
    shown = browser.eval(SHOWN)
    assert shown["move"] == 10 and shown["final"] is not None
    assert re.search(r"Aiko\s+7\b", shown["final"]) and re.search(r"Boris\s+5\b", shown["final"])
    # the final scores are scrolled into view
    assert abs(browser.eval("document.getElementById('final').getBoundingClientRect().top")) < 5
    aiko, boris = browser.eval(CLAIMS)
    verdicts = {c["player"]: c for c in timeline.as_json()["games"][0]["claims"]}
    assert aiko["player"] == "Aiko" and aiko["status"] == "over-claimed" == verdicts["Aiko"]["status"]
    assert aiko["verdict"] == "\u2717 over-claimed by 2"
    assert aiko["claimed"] == "claimed 9"
    assert aiko["optimum"] == "optimum 7 \u00b7 jokers \u2192 none \u00b7 positive: orange, blue, green"
    assert aiko["problems"] == [p["message"] for p in verdicts["Aiko"]["problems"]]
    assert boris["status"] == "agrees" and boris["verdict"] == "\u2713 agrees" and boris["problems"] == []
    assert boris["claimed"] == "claimed 5 \u00b7 jokers \u2192 blue \u00b7 positive: blue, brown, yellow"
    assert boris["optimum"] == "optimum 5 \u00b7 jokers \u2192 blue \u00b7 positive: blue, brown, yellow"
    # the winner is marked by more than a colour
    assert browser.eval(
        "getComputedStyle(document.querySelector('#final tr.win td.mark'), '::after').content"
    ) == '" \u2605"'
    assert browser.eval("document.documentElement.scrollWidth <= window.innerWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    browser.screenshot(ARTIFACTS / "replay-viewer-claims.png")


# --------------------------------------------------------------------------- the page with an analysis in it


METHOD = {"policy": "greedy", "samples": 64, "seed": 0, "exact": None,
          "thresholds": {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}}


def renamed(log: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A copy of ``log`` with its players called ``names``, in order."""
    rename = dict(zip(log["players"], names))
    log = json.loads(json.dumps(log))
    log["players"] = names
    for g in log["games"]:
        for m in g["moves"]:
            m["player"] = rename[m["player"]]
        setup = g["setup"]
        if "first" in setup:
            setup["first"] = rename[setup["first"]]
        if "starting" in setup:
            setup["starting"] = {rename[k]: v for k, v in setup["starting"].items()}
    return log


def analysed_match(
    players: int = 4, games: int = 2, seed: int = 2024, *, file: str = "m.json", names: list[str] | None = None,
    explain: str = "row {row} closes for {next}",
) -> tuple[Any, dict[str, Any], dict[int, str]]:
    """A random match's timeline and a hand-made analysis with three marked row decisions in game 1."""
    log, _, _, moves = random_match(seed, players, "classic", games, random.Random(seed))
    if names is not None:
        log = renamed(log, names)
    draws = [n for n, m in enumerate(moves[0], start=1) if isinstance(m, Draw)]
    picked = [draws[2], draws[len(draws) // 2], draws[-3]]
    marks = dict(zip(picked, ("inaccuracy", "mistake", "blunder")))
    timeline = build(check_match(log), label=file, file=file)
    return timeline, hand_analysis(log, moves, file=file, marks=marks, explain=explain), marks


def test_the_analysis_goes_in_with_its_match() -> None:
    t, a, _ = analysed_match(3, games=1)
    page = render_html([t], title="m.json", analysis={1: a}, method=METHOD)
    data = embedded(page)
    assert data["matches"] == [{**t.as_json(by_difference=True), "analysis": a}]
    assert data["method"] == METHOD
    assert "<title>Coloretto analysis · m.json</title>" in page
    # without one the page is the replay viewer as it was
    plain = render_html([t], title="m.json")
    assert "analysis" not in embedded(plain)["matches"][0] and embedded(plain)["method"] is None
    assert "<title>Coloretto replay · m.json</title>" in plain
    # pieces and the written file are the same page
    assert "".join(page_chunks(iter([t]), title="m.json", analysis={1: a}, method=METHOD)) == page


def test_an_analysis_finds_its_match_by_number_or_by_file_and_line(tmp_path: Path) -> None:
    lines = []
    for k, seed in enumerate((1, 2, 3), start=1):
        log, _, _, moves = random_match(seed, 3, "classic", 1, random.Random(seed))
        t = build(check_match(log), label=f"m.jsonl:{k}", file="m.jsonl", line=k)
        lines.append((t, hand_analysis(log, moves, file="m.jsonl", line=k, match=k)))
    analysis = {k: a for k, (_, a) in enumerate(lines, start=1)}
    # every match given: by number
    for k, (t, a) in enumerate(lines, start=1):
        assert analysis_of(k, t, analysis) is a
    # one match given (replay --match 3, a page a match): by file and line, wherever the file was read from
    t3, a3 = lines[2]
    assert analysis_of(1, t3, analysis) is a3
    moved = {k: {**a, "file": f"/somewhere/else/{a['file']}"} for k, a in analysis.items()}
    assert analysis_of(1, t3, moved) == moved[3]
    # an analysis of other players, or of another line of the same file, is not this match's
    assert analysis_of(1, t3, {1: {**a3, "players": ["X", "Y", "Z"]}}) is None
    assert analysis_of(1, t3, {1: lines[0][1]}) is None
    assert analysis_of(1, t3, None) is None and analysis_of(1, t3, {}) is None
    # the analysis of the same match read from another file (a club's copy): taken at its position
    elsewhere = {**a3, "file": "club/2024-05-02.json", "line": None}
    assert analysis_of(1, t3, {1: elsewhere}) is elsewhere
    assert analysis_of(2, t3, {1: elsewhere}) is None
    written = write_html(tmp_path / "p.html", [t3, lines[0][0]], title="m.jsonl", analysis={3: a3})
    assert (written.matches, written.analysed) == (2, 1)
    data = embedded((tmp_path / "p.html").read_text(encoding="utf-8"))
    assert data["matches"][0]["analysis"] == a3 and "analysis" not in data["matches"][1]


def test_only_an_analyze_json_document_is_taken() -> None:
    _, a, _ = analysed_match(3, games=1)
    analysis, method = analysis_from_json({**METHOD, "matches": [a]})
    assert analysis == {1: a} and method == METHOD
    for bad in ([], {"matches": {}}, {"format": "coloretto-log"}, {"matches": [{"match": 1}]},
                {"matches": [{**a, "decisions": [1]}]}, {"matches": [{**a, "match": "1"}]}):
        with pytest.raises(BadAnalysis, match="not the output of analyze --json"):
            analysis_from_json(bad)


ANALYSIS_SHOWN = """(() => ({
  move: Number(document.body.dataset.move),
  slider: Number(document.getElementById('slider').value),
  heading: document.querySelector('#decisions h2').textContent,
  decisions: [...document.querySelectorAll('#decisions .dec')].map(d => ({
    decision: d.dataset.decision, mark: d.dataset.mark, who: d.querySelector('bdi.who').textContent,
    facts: Object.fromEntries([...d.querySelectorAll('[data-fact]')].map(f => [f.dataset.fact, f.querySelector('b').textContent])),
    why: d.querySelector('.why') ? d.querySelector('.why').textContent : null,
    choices: [...d.querySelectorAll('tr[data-choice]')].map(r => r.dataset.choice)})),
  points: [...document.querySelectorAll('#chart .point')].map(p => Number(p.dataset.move)),
  here: [...document.querySelectorAll('#chart circle.dot.here')].length,
  xticks: [...document.querySelectorAll('#chart .xtick')].map(t => Number(t.textContent)),
  marked: [...document.querySelectorAll('#marked .jump')].map(b => Number(b.dataset.move)),
  overflow: document.documentElement.scrollWidth - window.innerWidth,
}))()"""

SUMMARY = """[...document.querySelectorAll('#summary-players .pcard')].map(c => ({
  player: c.dataset.player,
  stats: Object.fromEntries([...c.querySelectorAll('.stats:not(.game-stats) [data-stat]')].map(s => [s.dataset.stat, s.querySelector('b').textContent]))}))"""


def shown_name(name: str) -> str:
    """A name as the analysis shows it: control characters as ``\\xNN`` escapes."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", name)


GAME_SUMMARY = """[...document.querySelectorAll('#summary-players .game-stats')].map(c => ({
  game: c.dataset.game,
  stats: Object.fromEntries([...c.querySelectorAll('[data-stat]')].map(s => [s.dataset.stat, s.querySelector('b').textContent]))}))"""


def check_decision_panel(shown: dict[str, Any], analysis: dict[str, Any], move: int) -> None:
    """The panel shows every decision of ``move`` (game 1) as the analysis gives it."""
    want = [d for d in analysis["decisions"] if d["game"] == 1 and d["move"] == move]
    assert shown["move"] == move and shown["slider"] == move
    assert shown["heading"].startswith(f"Move {move}")
    assert [d["decision"] for d in shown["decisions"]] == [d["decision"] for d in want]
    for got, d in zip(shown["decisions"], want):
        assert got["who"] == shown_name(d["player"])
        assert got["mark"] == (d["mark"] or "")
        facts = got["facts"]
        assert facts["played"] == d["played"]
        assert facts["best"] == (d["best"] if d["best"] != d["played"] else f"{d['played']} (played)")
        assert facts["loss"] == f"{d['loss']:.1f} ± {d['loss_se']:.1f}"
        assert facts["mark"] == (d["mark"] or "none")
        assert got["why"] == d.get("explanation")
        if d["mark"]:
            assert facts["win"] == f"{round(100 * d['win_prob_played'])}% → {round(100 * d['win_prob_best'])}%"
            ranked = sorted(d["choices"], key=lambda c: -c["margin"])
            assert got["choices"] == [c["choice"] for c in ranked[:3]]


def test_tapping_a_marked_point_on_a_phone_shows_that_decision(browser: Browser, tmp_path: Path) -> None:
    t, analysis, marks = analysed_match(4, games=2)
    page = tmp_path / "analysis.html"
    write_html(page, [t], title="m.json", analysis={1: analysis}, method=METHOD)
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    shown = browser.eval(ANALYSIS_SHOWN)
    n = len(t.games[0].steps) - 1
    assert shown["move"] == 0 and shown["decisions"] == [] and shown["overflow"] <= 0
    # one point a marked decision, on a chart with move numbers along its axis, the marked moves listed too
    assert shown["points"] == sorted(marks) == shown["marked"]
    ticks = shown["xticks"]
    assert ticks[0] == 0 and len(ticks) >= 4 and ticks == sorted(ticks) and ticks[-1] <= n
    # legible at 390 px: the chart is drawn at the size it is shown, its numbers at 12 px or more
    width = browser.eval("document.querySelector('#chart svg').getBoundingClientRect().width")
    assert 300 <= width <= 390
    assert browser.eval("document.querySelector('#chart svg').viewBox.baseVal.width") == pytest.approx(width, abs=1)
    assert browser.eval("parseFloat(getComputedStyle(document.querySelector('#chart .xtick')).fontSize)") >= 12
    for move in sorted(marks, reverse=True):
        browser.tap(f"#chart .point[data-move='{move}']")
        shown = browser.eval(ANALYSIS_SHOWN)
        check_decision_panel(shown, analysis, move)
        assert shown["decisions"][-1]["mark"] == marks[move]
        assert shown["decisions"][-1]["why"].startswith("row ")
        assert shown["here"] == 1  # the point of this move stands out
        assert shown["overflow"] <= 0
    # the narrative and the table follow the slider
    first = min(marks)
    browser.tap(f"#marked .jump[data-move='{first}']")
    shown = browser.eval(ANALYSIS_SHOWN)
    check_decision_panel(shown, analysis, first)
    check_shown(browser.eval(SHOWN), t.games[0].steps[first].state, t.players, first, n)
    # a move without a mark: its decisions with their losses, no explanation
    browser.press("ArrowRight")
    shown = browser.eval(ANALYSIS_SHOWN)
    check_decision_panel(shown, analysis, first + 1)
    assert all(d["why"] is None for d in shown["decisions"])
    # the per-player summary, with what issue 18 adds
    summary = {s["player"]: s["stats"] for s in browser.eval(SUMMARY)}
    for s in analysis["summary"]:
        got = summary[s["player"]]
        assert got["decisions"] == str(s["decisions"]) and got["mean_loss"] == f"{s['mean_loss']:.2f}"
        assert got["accuracy"] == f"{s['accuracy']:.0f}%"
        assert got["error_rate"] == f"{100 * s['error_rate']:.0f}%"
        assert got["luck"].lstrip("+−") == f"{abs(s['luck']):.1f}"
        for kind in ("inaccuracy", "mistake", "blunder"):
            assert got[kind] == str(s["marks"][kind])
    # and for the game on screen
    per_game = browser.eval(GAME_SUMMARY)
    assert [g["game"] for g in per_game] == ["1"] * len(analysis["summary"])
    for g, s in zip(per_game, analysis["summary"]):
        assert g["stats"]["accuracy"] == f"{s['games'][0]['accuracy']:.0f}%"
        assert g["stats"]["margin"].lstrip("+−") == f"{abs(s['games'][0]['margin']):.1f}"
    # the second game has no marked decision; its chart has no point
    browser.press("]")
    shown = browser.eval(ANALYSIS_SHOWN)
    assert shown["points"] == [] and shown["marked"] == [] and shown["overflow"] <= 0
    for where in ("#decisions", "#chart"):
        assert browser.eval(f"document.querySelector('{where}').getBoundingClientRect().right") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    browser.eval("window.scrollTo(0, 0)")
    browser.screenshot(ARTIFACTS / "analysis-hand-390.png")


def test_at_1280_px_the_analysis_stands_beside_the_table(browser: Browser, tmp_path: Path) -> None:
    t, analysis, marks = analysed_match(3, games=1)
    plain, _, _ = analysed_match(3, games=1, seed=7, file="other.json")
    page = tmp_path / "analysis.html"
    written = write_html(page, [t, plain], title="m.json", analysis={1: analysis}, method=METHOD)
    assert (written.matches, written.analysed) == (2, 1)
    move = sorted(marks)[1]
    browser.open(page.as_uri() + f"#m=1&g=1&s={move}", width=1280, height=900, mobile=False)
    shown = browser.eval(ANALYSIS_SHOWN)
    check_decision_panel(shown, analysis, move)
    assert shown["overflow"] <= 0
    board, side = (browser.eval(f"document.getElementById('{i}').getBoundingClientRect().toJSON()") for i in ("board", "side"))
    assert side["left"] >= board["right"] and abs(side["top"] - board["top"]) < 5
    assert browser.eval("document.querySelector('#chart svg').getBoundingClientRect().width") > 450
    # a mouse click on a point does what a tap does
    other = min(marks)
    browser.click(f"#chart .point[data-move='{other}']")
    check_decision_panel(browser.eval(ANALYSIS_SHOWN), analysis, other)
    assert "seed 0" in browser.eval("document.getElementById('method').textContent")
    # a match without an analysis is the plain viewer, one column as before
    browser.press("]")
    assert browser.eval("document.body.dataset.match") == "2"
    assert browser.eval("document.getElementById('side').hidden && document.getElementById('summary').hidden")
    assert not browser.eval("document.body.classList.contains('analysed')")
    assert browser.overflow() <= 0


HOSTILE = "<script>alert(1)</script>\u202eevil\u0007"


def test_names_and_explanations_from_a_log_stay_text(browser: Browser, tmp_path: Path) -> None:
    names = [HOSTILE, "constructor", "%%JS%%"]
    explain = "<img src=x onerror=\"window.pwned=1\"></script><b>{player}</b>"
    t, analysis, marks = analysed_match(3, games=1, names=names, explain=explain)
    page_text = render_html([t], title="<x>.json", analysis={1: analysis}, method=METHOD)
    data_text = page_text.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data_text and embedded(page_text)["matches"][0]["analysis"] == analysis
    page = tmp_path / "hostile.html"
    page.write_text(page_text, encoding="utf-8")
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    for move in sorted(marks):
        browser.tap(f"#marked .jump[data-move='{move}']")
        shown = browser.eval(ANALYSIS_SHOWN)
        check_decision_panel(shown, analysis, move)
        assert shown["overflow"] <= 0
    assert browser.eval("document.scripts.length") == 2
    assert browser.eval("document.querySelectorAll('img, b b').length") == 0
    assert browser.eval("window.pwned === undefined")
    # every name shown is its own isolated text: a right-to-left override in it turns nothing around it
    shown_names = browser.eval("[...document.querySelectorAll('bdi.who')].map(b => [b.textContent, getComputedStyle(b).unicodeBidi])")
    assert {n for n, _ in shown_names} >= {shown_name(n) for n in names} and {b for _, b in shown_names} == {"isolate"}
    assert shown_name(HOSTILE) == "<script>alert(1)</script>\u202eevil\\x07"
    assert browser.eval("document.title") == "Coloretto analysis · <x>.json"


def test_a_match_named_by_its_hash_is_headed_by_its_players(browser: Browser, tmp_path: Path) -> None:
    names = [HOSTILE, "Boris", "Chloe"]
    log = renamed(match_with_players(3, games=1)[0], names)
    del log["id"]  # the match is named by its hash
    page = tmp_path / "unnamed.html"
    page.write_text(page_for(log), encoding="utf-8")
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    heading = browser.eval(
        "[...document.getElementById('title').childNodes].map(n => [n.nodeName, n.textContent])"
    )
    assert heading == [
        ["BDI", shown_name(HOSTILE)], ["#text", ", "], ["BDI", "Boris"], ["#text", ", "], ["BDI", "Chloe"]
    ]
    assert browser.overflow() <= 0
    # a match with an id of its own is headed by it
    log = json.loads(json.dumps(TWO_PLAYER))
    page.write_text(page_for(log), encoding="utf-8")
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    assert browser.eval("document.getElementById('title').textContent") == log["id"]
