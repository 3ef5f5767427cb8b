"""``analyze --html`` and ``replay --html --analysis``: one page, the replay viewer with the analysis in it.

The analysis here is a real one (``analyze`` on a sample log, few samples): the page embeds exactly what
``analyze --json`` prints, ``replay --html --analysis`` of that JSON writes the same page byte for byte, and in
headless Chromium at 390 px a tap on every marked point of the chart shows that decision as the JSON gives it.
The screenshots it takes go to test-artifacts/ (docs/analyze.md's: tests/builders/screenshots.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.cli.analyze import lost_text

from ..builders.browser import Browser
from ..builders.replay_page import rebuilt
from ..conftest import SAMPLES

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
THREE = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
FAST = ["--samples", "24", "--max-se", "2"]
runner = CliRunner()


def embedded(page: str) -> Any:
    m = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL)
    assert m is not None
    return json.loads(m.group(1))


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """``analyze THREE --html page --json``: the page, and the JSON printed beside it."""
    page = tmp_path_factory.mktemp("analysed") / "analysis.html"
    result = runner.invoke(app, ["analyze", str(THREE), *FAST, "--html", str(page), "--json"])
    assert result.exit_code == 0, result.output
    return page, json.loads(result.stdout)


def test_the_page_is_the_viewer_with_the_analysis_in_it(analysed: tuple[Path, dict[str, Any]]) -> None:
    page, data = analysed
    text = page.read_text(encoding="utf-8")
    shown = embedded(text)
    (match,) = data["matches"]
    (timeline,) = shown["matches"]
    assert timeline["analysis"] == match
    assert shown["method"] == {k: v for k, v in data.items() if k != "matches"}
    assert timeline["players"] == match["players"] and len(timeline["games"]) == 1
    # every decision analysed is at a move the viewer can show
    assert {d["move"] for d in match["decisions"]} <= set(range(1, len(timeline["games"][0]["changes"])))
    assert "http://" not in text and "https://" not in text and text.count("<script") == 2


def test_replay_with_the_saved_analysis_writes_the_same_page(
    analysed: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    page, data = analysed
    saved = tmp_path / "a.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "replay.html"
    result = runner.invoke(app, ["replay", str(THREE), "--html", str(out), "--analysis", str(saved)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == page.read_bytes()
    assert "warning" not in result.stderr


def test_replay_analysis_errors(analysed: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    _, data = analysed
    saved = tmp_path / "a.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    out = str(tmp_path / "p.html")
    without_html = runner.invoke(app, ["replay", str(THREE), "--analysis", str(saved)])
    assert without_html.exit_code == 2 and "--analysis goes with --html" in without_html.stderr
    missing = runner.invoke(app, ["replay", str(THREE), "--html", out, "--analysis", str(tmp_path / "none.json")])
    assert missing.exit_code == 3 and "no such file" in missing.stderr
    a_log = runner.invoke(app, ["replay", str(THREE), "--html", out, "--analysis", str(THREE)])
    assert a_log.exit_code == 2 and "not the output of analyze --json" in a_log.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"matches": [', encoding="utf-8")
    cut = runner.invoke(app, ["replay", str(THREE), "--html", out, "--analysis", str(broken)])
    assert cut.exit_code == 2 and cut.stderr.startswith(f"Error: --analysis {broken}: ")
    assert len(cut.stderr.strip().splitlines()) == 1
    assert not Path(out).exists()
    # the analysis of another log: the page is written without it, and the command says so
    other = SAMPLES / "classic-2p-recorded-game.json"
    result = runner.invoke(app, ["replay", str(other), "--html", out, "--analysis", str(saved)])
    assert result.exit_code == 0
    assert "holds no analysis of a match shown" in result.stderr
    assert "analysis" not in embedded(Path(out).read_text(encoding="utf-8"))["matches"][0]


def test_html_is_refused_over_an_existing_file_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "a.html"
    out.write_text("keep", encoding="utf-8")
    args = ["analyze", str(THREE), "--player", "Aiko", "--samples", "16", "--max-se", "5", "--html", str(out)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and out.read_text(encoding="utf-8") == "keep"
    done = runner.invoke(app, [*args, "--force"])
    assert done.exit_code == 0, done.output
    (match,) = embedded(out.read_text(encoding="utf-8"))["matches"]
    assert {d["player"] for d in match["analysis"]["decisions"]} == {"Aiko"}


PANEL = """[...document.querySelectorAll('#decisions .dec')].map(d => ({
  decision: d.dataset.decision, mark: d.dataset.mark,
  played_row: d.querySelector('.dtable .row.played') ? Number(d.querySelector('.dtable .row.played').dataset.row) : null,
  best_row: d.querySelector('.dtable .row.best') ? Number(d.querySelector('.dtable .row.best').dataset.row) : null,
  rows: d.querySelectorAll('.dtable .row').length,
  facts: Object.fromEntries([...d.querySelectorAll('[data-fact]')].map(f => [f.dataset.fact, f.querySelector('b').textContent])),
  why: d.querySelector('.why') ? d.querySelector('.why').textContent : null}))"""


def test_a_real_analysis_read_on_a_phone_and_a_desktop(
    browser: Browser, analysed: tuple[Path, dict[str, Any]]
) -> None:
    page, data = analysed
    (match,) = data["matches"]
    marked = [d for d in match["decisions"] if d["mark"]]
    assert marked, "the sample game has a marked decision at these settings"
    timeline_states = rebuilt(embedded(page.read_text(encoding="utf-8"))["matches"][0]["games"][0])
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    assert browser.overflow() <= 0
    points = browser.eval("[...document.querySelectorAll('#chart .point')].map(p => Number(p.dataset.move))")
    assert points == [d["move"] for d in marked]
    for d in marked:
        browser.tap(f"#chart .point[data-move='{d['move']}']")
        assert browser.eval("Number(document.getElementById('slider').value)") == d["move"]
        panel = browser.eval(PANEL)
        here = [x for x in match["decisions"] if x["move"] == d["move"]]
        assert [p["decision"] for p in panel] == [x["decision"] for x in here]
        shown = panel[[x["decision"] for x in here].index(d["decision"])]
        # the card is classed by the mark; its words say the mark as the analysis does, near a line both marks
        # (``mark_label``: inaccuracy–mistake)
        assert shown["mark"] == d["mark"] and shown["facts"]["mark"] == d["mark_label"]
        assert shown["facts"]["played"] == d["played"]
        assert shown["facts"]["best"] == d["best"]
        # the loss as printed, to the precision its standard error gives it (one or two decimals)
        assert abs(float(shown["facts"]["loss"].split()[0].replace("\u2212", "-")) - d["loss"]) <= 0.05 + 1e-9
        assert shown["why"] == d.get("explanation")
        # the table as it stood when the decision was taken sits in its card, the played and the best row marked
        state = timeline_states[d["move"] - 1]
        assert shown["rows"] == len(state["rows"])
        row_of = {c: int(c.split()[-1]) for c in (d["played"], d["best"]) if c != "draw"}
        assert shown["played_row"] == row_of.get(d["played"])
        assert shown["best_row"] == (None if d["best"] == d["played"] else row_of.get(d["best"]))
        assert browser.overflow() <= 0
    ARTIFACTS.mkdir(exist_ok=True)
    # the screenshots of docs/analyze.md: the costliest marked decision, on a phone and on a desktop
    worst = max(marked, key=lambda d: d["loss"])
    browser.tap(f"#marked .jump[data-move='{worst['move']}']")
    browser.eval("window.scrollTo(0, 0)")
    bottom = browser.eval("document.getElementById('marked').getBoundingClientRect().bottom + window.scrollY")
    browser.screenshot(ARTIFACTS / "analyze-390.png", height=int(bottom) + 12)
    browser.open(page.as_uri() + f"#m=1&g=1&s={worst['move']}", width=1280, height=900, mobile=False)
    assert browser.overflow() <= 0
    assert browser.eval("document.body.dataset.move") == str(worst["move"])
    browser.screenshot(ARTIFACTS / "analyze-1280.png")


def test_one_match_of_a_jsonl_file_finds_its_analysis(tmp_path: Path) -> None:
    jsonl = SAMPLES / "5p-seeded-games.jsonl"
    fast = ["--player", "Chloe", "--samples", "8", "--max-se", "9"]
    every = runner.invoke(app, ["analyze", str(jsonl), *fast, "--json"])
    assert every.exit_code == 0, every.output
    saved = tmp_path / "a.json"
    saved.write_text(every.stdout, encoding="utf-8")
    by_number = {m["match"]: m for m in json.loads(every.stdout)["matches"]}
    assert set(by_number) == {1, 2}
    # replay --match 2: the page's only match is the file's second, and takes the second analysis
    out = tmp_path / "second.html"
    result = runner.invoke(app, ["replay", str(jsonl), "--match", "2", "--html", str(out), "--analysis", str(saved)])
    assert result.exit_code == 0, result.output
    (shown,) = embedded(out.read_text(encoding="utf-8"))["matches"]
    assert shown["line"] == 2 and shown["analysis"] == by_number[2]
    # analyze --match 2 --html: the same page as replay --match 2 of that analysis
    page = tmp_path / "analyze.html"
    one = runner.invoke(app, ["analyze", str(jsonl), "--match", "2", *fast, "--html", str(page), "--json"])
    assert one.exit_code == 0, one.output
    (alone,) = embedded(page.read_text(encoding="utf-8"))["matches"]
    assert alone["analysis"] == by_number[2] == json.loads(one.stdout)["matches"][0]


def test_the_page_prints_a_chance_lost_as_the_terminal_does(
    browser: Browser, analysed: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    """Never on the other side of a mark's line: 0.1996 lost (a mistake) reads 19.9% on the page, not 20%."""
    _, data = analysed
    data = json.loads(json.dumps(data))
    marked = [d for d in data["matches"][0]["decisions"] if d["mark"]]
    assert marked
    values = [(0.1996, "mistake"), (0.0996, "inaccuracy"), (0.25, "blunder"), (0.13, "mistake")]
    for d, (chance, mark) in zip(marked, values * len(marked)):
        d["chance_loss"], d["mark"] = chance, mark
    saved, page = tmp_path / "a.json", tmp_path / "page.html"
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(THREE), "--html", str(page), "--analysis", str(saved)])
    assert result.exit_code == 0, result.output
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    shown = []
    for d in marked:
        browser.tap(f"#chart .point[data-move='{d['move']}']")
        panel = {p["decision"]: p for p in browser.eval(PANEL)}
        shown.append(panel[d["decision"]]["facts"]["chance_loss"])
    assert shown == [lost_text(d["chance_loss"]) for d in marked]
    assert shown[0] == "19.9%"
