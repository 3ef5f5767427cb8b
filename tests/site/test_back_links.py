"""Every replay and event page of the site links back: to the index and to the pages that led there (a replay:
its evening, its match and its players; an event: its players and the evenings its tables were played on), in
the page itself (a replay's links are in its HTML, not only made by its script), and every such link resolves
to a page of the site, in the page's language.

One small club day: a tournament of six players, two tables recorded and added, and one more match outside it
on another day; the site in English and Japanese.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from pathlib import Path

import pytest

from coloretto_log.site.pages import evening_file, event_slug, match_slug, player_slug

from ..builders.season import BIDI, cli
from ..builders.tournament import ROSTER, table_match

NAME = "Spring open"
PLAYERS = ["Aiko", "Boris", "Chloe", "Dae", "Emil", BIDI]
STRENGTH = {**ROSTER, BIDI: "random"}
HREF = re.compile(r'href="([^"#?]+)')


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("back")
    db = folder / "club.duckdb"
    made = cli("tournament", "new", NAME, "--db", str(db), "--players", ",".join(PLAYERS), "--rounds", "1",
               "--sizes", "3", "--first-round", "random")  # fmt: skip
    assert made.exit_code == 0, made.output
    paired = cli("tournament", "pair", NAME, "--db", str(db), "--json")
    assert paired.exit_code == 0, paired.output
    for t, table in enumerate(json.loads(paired.output)["tables"], 1):
        path = folder / f"t{t}.json"
        path.write_text(json.dumps(table_match(table["players"], t, roster=STRENGTH,
                                               event={"name": NAME, "round": 1, "table": t})), encoding="utf-8")
        added = cli("tournament", "add", NAME, str(path), "--db", str(db))
        assert added.exit_code == 0, added.output
    other = folder / "other.json"
    other.write_text(json.dumps(table_match(["Aiko", BIDI, "Chloe"], 9, roster=STRENGTH, date="2026-12-12")),
                     encoding="utf-8")
    assert cli("ingest", "--db", str(db), str(other)).exit_code == 0
    out = folder / "site"
    built = cli("site", "--db", str(db), "--out", str(out), "--lang", "en,ja")
    assert built.exit_code == 0, built.output
    return out


def links(page: Path) -> set[Path]:
    """Every page a page links to (resolved from its folder)."""
    html = page.read_text(encoding="utf-8")
    return {(page.parent / href).resolve() for href in HREF.findall(html) if href.endswith(".html")}


def players_of(replay: Path) -> tuple[str, list[str]]:
    """A replay page's date and players (from the data it embeds)."""
    html = replay.read_text(encoding="utf-8")
    found = re.search(r'"heading":(\{.*?\})', html)
    assert found, replay
    heading = json.loads(found.group(1))
    return heading["date"], heading["players"]


def test_every_replay_links_to_the_index_its_evening_match_and_players(site: Path) -> None:
    replays = sorted((site / "replay").glob("*.html"))
    assert len(replays) == 3
    for replay in replays:
        date, players = players_of(replay)
        found = links(replay)
        want = {site / "index.html", site / evening_file(_dt.date.fromisoformat(date))}
        want |= {site / "players" / f"{player_slug(p)}.html" for p in players}
        assert want <= found, f"{replay.name}: lacks {sorted(map(str, want - found))}"
        assert all(p.is_file() for p in found), replay.name  # every link resolves
        match = site / "matches" / replay.name
        assert match.is_file() and replay.resolve() in links(match)  # the match page led there, and links it
    text = replays[0].read_text(encoding="utf-8")
    assert '<nav id="back"' in text and "<bdi>" in text


def test_the_event_page_links_to_the_index_its_players_and_evenings(site: Path) -> None:
    for page in (site / "events" / f"{event_slug(NAME)}.html", site / "events" / f"{event_slug(NAME)}.ja.html"):
        found = links(page)
        ja = page.name.endswith(".ja.html")
        suffix = ".ja.html" if ja else ".html"
        want = {site / ("index" + suffix), site / evening_file(_dt.date(2026, 12, 5)).replace(".html", suffix)}
        want |= {site / "players" / f"{player_slug(p)}{suffix}" for p in PLAYERS}
        assert want <= found, f"{page.name}: lacks {sorted(map(str, want - found))}"
        assert all(p.is_file() for p in found), page.name
        assert site / ("evenings/2026-12-12" + suffix) not in found  # the match outside the event is not its evening
    for mid in ("Spring open-r1-t1-1", "Spring open-r1-t2-2"):  # its tables' matches link to their replays
        assert (site / "replay" / f"{match_slug(mid)}.html").resolve() in links(site / "matches" / f"{match_slug(mid)}.html")
