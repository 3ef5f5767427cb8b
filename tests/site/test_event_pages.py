"""The site's event pages: a simulated club day with a tournament, built into a site.

Eight players (one named ``<script>``, one with a right-to-left override)
play two of three rounds of a tournament whose name is markup too: round 1
and one table of round 2 recorded with ``--event`` and added, one ingested
with a plain ``ingest``, one entered by hand. The event's page shows its
settings, each round's tables in seat order with their results and the
standings in the order ``tournament standings`` gives; the index and the
players' pages link to it; every link resolves; a phone shows it without
sideways scrolling. A database without tournaments has no event page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from coloretto_log import score_match
from coloretto_log.db.club.tournaments import every_tournament, tournament_standings
from coloretto_log.db.store import MatchStore
from coloretto_log.site.build import MANIFEST
from coloretto_log.site.pages import event_slug, match_slug, player_slug

from ..builders.browser import Browser
from ..builders.season import BIDI, HOSTILE, cli
from ..builders.tournament import ROSTER, table_match

NAME = '<img src=x onerror="alert(1)"> Winter & Co open'
PLAYERS = ["Aiko", "Boris", "Chloe", "Dae", "Emil", "Fay", HOSTILE, BIDI]
STRENGTH = {**ROSTER, HOSTILE: "greedy", BIDI: "random"}
PAGE = f"events/{event_slug(NAME)}.html"


def ok_json(*args: str) -> dict[str, object]:
    result = cli(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The club day's database and its site (English and Japanese), in one folder."""
    folder = tmp_path_factory.mktemp("day")
    db = folder / "club.duckdb"
    made = cli("tournament", "new", NAME, "--db", str(db), "--players", ",".join(PLAYERS), "--rounds", "3",
               "--first-round", "random", "--seed", "3")  # fmt: skip
    assert made.exit_code == 0, made.output
    for r in (1, 2):
        paired = ok_json("tournament", "pair", NAME, "--db", str(db))
        tables = [t["players"] for t in paired["tables"]]  # type: ignore[attr-defined]
        for t, table in enumerate(tables, 1):
            data = table_match(table, r * 10 + t, roster=STRENGTH, event={"name": NAME, "round": r, "table": t})
            path = folder / f"r{r}t{t}.json"
            path.write_text(json.dumps(data), encoding="utf-8")
            if (r, t) == (2, 1):  # this table did not record: its totals typed in (the log's, kept aside)
                scores = ",".join(f"{s.player}={s.total}" for s in score_match(data).standings)
                entered = cli("tournament", "result", NAME, "--db", str(db), "--round", "2", "--at-table", "1",
                              "--scores", scores)  # fmt: skip
                assert entered.exit_code == 0, entered.output
            elif (r, t) == (2, 2):  # recorded with --event and ingested like any log
                assert cli("ingest", "--db", str(db), str(path)).exit_code == 0
            else:
                added = cli("tournament", "add", NAME, str(path), "--db", str(db))
                assert added.exit_code == 0, added.output
    built = cli("site", "--db", str(db), "--out", str(folder / "site"), "--lang", "en,ja")
    assert built.exit_code == 0, built.output
    return folder


def html(day: Path, rel: str) -> str:
    return (day / "site" / rel).read_text(encoding="utf-8")


def hrefs(text: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', text)


def test_the_event_page_shows_the_standings_in_the_databases_order(day: Path) -> None:
    with MatchStore.open(day / "club.duckdb", read_only=True) as store:
        tour, table = tournament_standings(store, NAME)
    page = html(day, PAGE)
    standings = page.split('id=standings>', 1)[1].split("</table>", 1)[0]
    linked = [h for h in hrefs(standings) if h.startswith("../players/")]
    assert linked == [f"../players/{player_slug(s.player)}.html" for s in table]
    rows = re.findall(r"<tr><td class=n>(\d+)</td>", standings)
    assert rows == [str(s.place) for s in table]
    assert tour.paired == 2 and "rounds paired: 2 of 3." in page
    assert all(s.played == 2 for s in table)


def test_the_bulk_reading_is_what_tournament_standings_reads(day: Path) -> None:
    """The site reads every tournament at once; each is the one ``load`` and ``tournament standings`` give."""
    with MatchStore.open(day / "club.duckdb", read_only=True) as store:
        every = every_tournament(store)
        assert every == [tournament_standings(store, NAME)]
    tour = every[0][0]
    assert tour.ignored == [] and sorted(tour.results) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert tour.results[2, 1].source == "by hand" and tour.results[2, 2].source != "by hand"


def test_each_round_lists_its_tables_in_seat_order_with_their_results(day: Path) -> None:
    with MatchStore.open(day / "club.duckdb", read_only=True) as store:
        tour, _ = tournament_standings(store, NAME)
    page = html(day, PAGE)
    for r in (1, 2):
        section = page.split(f'id="round-{r}">', 1)[1].split("</table>", 1)[0]
        seated = [h for h in hrefs(section) if h.startswith("../players/")]
        assert seated == [f"../players/{player_slug(p)}.html" for table in tour.tables[r] for p in table]
        assert section.count(">starts<") == len(tour.tables[r])
        for t in range(1, len(tour.tables[r]) + 1):
            result = tour.results[r, t]
            if result.source == "by hand":
                assert (r, t) == (2, 1) and ">by hand<" in section
            else:
                assert f"../matches/{match_slug(result.source)}.html" in hrefs(section)
            for total in result.totals.values():
                assert f"<td class=n>{total}</td>" in section
    assert 'id="round-3"' not in page  # not paired yet


def test_names_are_escaped_and_isolated(day: Path) -> None:
    for rel in (PAGE, "index.html", f"players/{player_slug(HOSTILE)}.html", PAGE.replace(".html", ".ja.html")):
        page = html(day, rel)
        assert "<script>" not in page and "<img" not in page, rel
    page = html(day, PAGE)
    assert "<bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi>" in page
    assert "<h1><bdi>&lt;img src=x onerror=&#34;alert(1)&#34;&gt; Winter &amp; Co open</bdi></h1>" in page
    assert "\u202e" not in page and "<bdi>Ada\\u202eevil\\u202c</bdi>" in page  # the override shown, not obeyed


def test_the_index_and_each_players_page_link_to_the_event(day: Path) -> None:
    assert PAGE in hrefs(html(day, "index.html"))
    assert PAGE.replace(".html", ".ja.html") in hrefs(html(day, "index.ja.html"))
    for p in PLAYERS:
        assert f"../{PAGE}" in hrefs(html(day, f"players/{player_slug(p)}.html")), p
    manifest = json.loads((day / "site" / MANIFEST).read_text(encoding="utf-8"))
    assert PAGE in manifest["pages"] and PAGE.replace(".html", ".ja.html") in manifest["pages"]


def test_every_link_of_the_event_pages_resolves(day: Path) -> None:
    site = (day / "site").resolve()
    for page in [site / PAGE, site / PAGE.replace(".html", ".ja.html")]:
        for href in hrefs(page.read_text(encoding="utf-8")):
            url = urlparse(href)
            assert not url.scheme and not url.netloc, href
            target = (page.parent / unquote(url.path)).resolve()
            assert target.is_relative_to(site) and target.is_file(), href


def test_the_event_page_and_its_links_fit_a_phone(day: Path, browser: Browser) -> None:
    for rel in (PAGE, PAGE.replace(".html", ".ja.html"), "index.html", f"players/{player_slug(HOSTILE)}.ja.html"):
        browser.open((day / "site" / rel).resolve().as_uri(), width=390, height=800, mobile=True)
        width = browser.eval("[document.documentElement.scrollWidth, window.innerWidth]")
        boxes = browser.eval("[...document.querySelectorAll('.scroll')].map(b => [b.scrollWidth, b.clientWidth])")
        assert width[0] <= width[1], (rel, width)
        if rel.startswith("events/"):  # the event's tables fold to the width: no scrolling inside their boxes either
            assert all(w <= c for w, c in boxes), (rel, boxes)


def test_a_database_without_tournaments_has_no_event_page(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    data = table_match(["Aiko", "Boris", "Chloe"], 1)
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    assert cli("ingest", "--db", str(db), str(tmp_path / "m.json")).exit_code == 0
    assert cli("site", "--db", str(db), "--out", str(tmp_path / "site")).exit_code == 0
    manifest = json.loads((tmp_path / "site" / MANIFEST).read_text(encoding="utf-8"))
    assert not (tmp_path / "site" / "events").exists()
    assert not any(rel.startswith("events/") for rel in manifest["pages"])
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "id=events" not in index and "events/" not in index
