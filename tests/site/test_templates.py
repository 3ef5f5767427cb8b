"""The site's pages come from Jinja2 templates: a club's own replace the package's, a broken one is refused in
one line before anything is written, every value is escaped, and the templates' words reach the catalogue."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.db.site.data import ClubData, MatchRow, MatchSeat
from coloretto_log.lang.extract import messages
from coloretto_log.site.pages import CSS, Site, TemplateProblem

from ..conftest import SAMPLES

runner = CliRunner()
HOSTILE = '<script>alert("x")</script>'


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tpl") / "club.duckdb"
    r = runner.invoke(app, ["ingest", "--db", str(path), str(SAMPLES / "classic-4p-recorded-match-with-claims.json")])
    assert r.exit_code == 0, r.output
    return path


def _club(player: str) -> ClubData:
    m = MatchRow("m1", "h", _dt.date(2026, 3, 1), "classic", "standard", (player, "Bo"), 1, 1, True, (player,),
                 "x.json", None)
    seats = [MatchSeat("m1", 0, player, 30, 1, True), MatchSeat("m1", 1, "Bo", 20, 2, False)]
    return ClubData(matches=[m], match_seats={"m1": seats}, game_seats={}, ratings=[], ratings_source="computed",
                    history={}, stats={}, analyses={}, players=sorted([player, "Bo"]))


def test_a_clubs_templates_replace_the_packages(db: Path, tmp_path: Path) -> None:
    style = tmp_path / "style"
    style.mkdir()
    (style / "site.css").write_text("body{color:#123456}\n", encoding="utf-8")
    (style / "matches.html").write_text(
        '{% extends "base.html" %}{% block body %}<h1 class="ours">{{ t("Every match") }}: {{ months|length }}'
        "</h1>{% endblock %}", encoding="utf-8")  # a page's template is given what the package's is (here: the months)
    out = tmp_path / "site"
    r = runner.invoke(app, ["site", "--db", str(db), "--out", str(out), "--templates", str(style)])
    assert r.exit_code == 0, r.output
    assert (out / "site.css").read_text(encoding="utf-8") == "body{color:#123456}\n"
    assert '<h1 class="ours">Every match: 1</h1>' in (out / "matches.html").read_text(encoding="utf-8")
    index = (out / "index.html").read_text(encoding="utf-8")  # the package's, where the club has none
    assert "<h2 id=standings>Standings</h2>" in index


def test_a_broken_template_is_refused_before_anything_is_written(db: Path, tmp_path: Path) -> None:
    style = tmp_path / "style"
    style.mkdir()
    (style / "player.html").write_text('{% extends "base.html" %}\n{% block body %}\n{{ no_such_value }}\n'
                                       "{% endblock %}", encoding="utf-8")
    out = tmp_path / "site"
    r = runner.invoke(app, ["site", "--db", str(db), "--out", str(out), "--templates", str(style)])
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "player.html line 3: 'no_such_value' is undefined" in r.stderr
    assert "Traceback" not in r.output and not out.exists()
    (style / "player.html").write_text("{% if %}", encoding="utf-8")  # a syntax error, with its line
    r = runner.invoke(app, ["site", "--db", str(db), "--out", str(out), "--templates", str(style)])
    assert r.exit_code == 2 and "player.html line 1:" in r.stderr and not out.exists()


def test_every_value_a_template_shows_is_escaped(tmp_path: Path) -> None:
    """Even a club's template that shows a name bare, without the name macro, cannot put markup into a page."""
    (tmp_path / "player.html").write_text(
        '{% extends "base.html" %}{% block body %}<p>{{ player }}</p>{% endblock %}', encoding="utf-8")
    site = Site(_club(HOSTILE), replays=set(), templates=tmp_path)
    page = site.player(HOSTILE)
    assert HOSTILE not in page and "<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</p>" in page
    match = Site(_club(HOSTILE), replays=set()).match(_club(HOSTILE).matches[0])  # the package's templates
    assert HOSTILE not in match and "<bdi>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</bdi>" in match


def test_a_template_error_says_where() -> None:
    bad = Path(__file__).parent  # no templates here: the package's are used, and an unknown one is an error
    site = Site(_club("Al"), replays=set(), templates=bad)
    with pytest.raises(TemplateProblem, match="no-such.html"):
        site.render("no-such.html", "x.html", "x")


def test_the_templates_words_are_in_the_catalogue() -> None:
    found = messages()
    where = {file for file, _ in found["Standings"]}
    assert any(f.endswith("site/templates/base.html") for f in where)
    assert ("{n} game", "{n} games") in found
    assert "#" not in found  # a header that is not a word stays as it is


def test_the_package_stylesheet_is_the_sites() -> None:
    assert CSS.startswith("*{box-sizing:border-box}") and "bdi{unicode-bidi:isolate}" in CSS
