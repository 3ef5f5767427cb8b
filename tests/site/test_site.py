"""``coloretto-log site``: the club's folder from the shipped samples and a simulated season, end to end.

What the pages say is checked against the database and ``score``; the folder
against what a club needs of it: it rebuilds only what changed, never
writes onto the database or into a folder of something else, escapes
hostile names, and in headless Chromium at phone and desktop width no page
overflows, every link resolves inside the folder and no request leaves it.
The club's site is written in every language (``--lang en,ja,ko,ru``), and
all of that holds for each.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
import shutil
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from coloretto_log.db.site.analyses import stored_analyses
from coloretto_log.db.store import MatchStore
from coloretto_log.lang import LANGUAGES, NATIVE_NAMES, translator
from coloretto_log.site.build import MANIFEST
from coloretto_log.site.pages import match_slug, months_before, page_file, player_slug

from ..builders.browser import Browser
from ..builders.season import BIDI, HOSTILE, cli, season, two_matches
from ..conftest import SAMPLES

SEASON = 24
#: The languages the club's site is written in: English first (``index.html``), then ``index.ja.html`` ...
LANGS = ",".join(LANGUAGES)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of the samples and a season, with an analysed sample, and its site built."""
    folder = tmp_path_factory.mktemp("club")
    db = folder / "club.duckdb"
    logs = folder / "logs"
    logs.mkdir()
    shutil.copytree(SAMPLES, logs / "samples", ignore=shutil.ignore_patterns("*.txt", "*.md"))
    season(logs, 0, SEASON)
    r = cli("ingest", "--db", str(db), str(logs))
    assert r.exit_code == 0, r.output
    # --max-se 0: 4 samples a decision and no more (the pages show whatever the analysis says; 4 s of CPU, not 13)
    r = cli("analyze", str(logs / "samples" / "classic-2p-recorded-game.json"), "--samples", "4", "--max-se", "0",
            "--db", str(db))
    assert r.exit_code == 0, r.output
    r = cli("site", "--db", str(db), "--out", str(folder / "site"), "--lang", LANGS)
    assert r.exit_code == 0, r.output
    return folder


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_player_and_match_has_a_page(club: Path) -> None:
    site = club / "site"
    with MatchStore.open(club / "club.duckdb", read_only=True) as store:
        ids = [r[0] for r in store.execute("SELECT match_id FROM matches").fetchall()]
        players = [r[0] for r in store.execute("SELECT DISTINCT player FROM match_players").fetchall()]
    assert len(ids) == 8 + SEASON
    for lang in LANGUAGES:
        for mid in ids:
            assert (site / "matches" / page_file(f"{match_slug(mid)}.html", lang, "en")).is_file()
        for p in players:
            assert (site / "players" / page_file(f"{player_slug(p)}.html", lang, "en")).is_file()
    for mid in ids:
        assert (site / "replay" / f"{match_slug(mid)}.html").is_file()  # every log is where it was ingested from
    with MatchStore.open(club / "club.duckdb", read_only=True) as store:
        days = store.scalar("SELECT count(DISTINCT coalesce(date::VARCHAR, '')) FROM matches")
    assert len(pages(site)) == len(LANGUAGES) * (2 + len(ids) + len(players) + days) + len(ids)
    index = (site / "index.html").read_text(encoding="utf-8")
    for p in players:  # the standings name every rated player, with a link to the page
        assert f'players/{player_slug(p)}.html"' in index


def test_the_standings_are_the_ratings_command(club: Path) -> None:
    """Order, rating ± uncertainty, cautious rating, provisional, games and wins as `ratings --json` gives them;
    the players without a game in the 6 months before the club's latest match listed apart, unranked."""
    rated = json.loads(cli("ratings", "--db", str(club / "club.duckdb"), "--json").stdout)["players"]
    latest = max(r["last_played"] for r in rated if r["last_played"])
    cutoff = months_before(_dt.date.fromisoformat(latest), 6).isoformat()
    active = [r for r in rated if r["last_played"] and r["last_played"] >= cutoff]
    inactive = [r for r in rated if r not in active]
    assert active and inactive  # the season's players stopped in April; the samples are from November
    index = (club / "site" / "index.html").read_text(encoding="utf-8")
    table = index[index.index("<h2 id=standings>"): index.index("<h2 id=chart>")]
    rows = re.findall(r"<tr><td class=n>(\d+|–)</td><td><a href=\"players/([a-z0-9-]+)\.html\">.*?</a>(.*?)</td>"
                      r"<td class=n>(\d+) <span>± (\d+)</span></td><td class=n>(-?\d+)</td><td class=n>(\d+)</td><td class=n>(\d+)</td>",
                      table)
    assert len(rows) == len(rated) > 0
    for i, (row, r) in enumerate(zip(rows, active + inactive)):
        rank, slug, tag, rating, plus, cautious, games, wins = row
        assert rank == (str(i + 1) if i < len(active) else "–")  # ranked among the active players only
        assert (slug, int(games), int(wins)) == (player_slug(r["player"]), r["games"], r["wins"])
        assert (int(rating), int(plus), int(cautious)) == tuple(round(r[k]) for k in ("rating", "uncertainty", "cautious"))
        assert ("provisional" in tag) == r["provisional"]
    assert table.index("<h3 id=inactive>Inactive</h3>") > table.index(player_slug(active[-1]["player"]))
    assert any(r["provisional"] for r in rated) and not all(r["provisional"] for r in rated)


def test_no_player_is_set_apart_with_inactive_after_0(tmp_path: Path, club: Path) -> None:
    out = tmp_path / "site"
    r = cli("site", "--db", str(club / "club.duckdb"), "--out", str(out), "--inactive-after", "0")
    assert r.exit_code == 0, r.output
    rated = json.loads(cli("ratings", "--db", str(club / "club.duckdb"), "--json").stdout)["players"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "id=inactive" not in index
    ranks = re.findall(r"<tr><td class=n>(\d+)</td><td><a href=\"players/([a-z0-9-]+)\.html", index)
    assert ranks == [(str(r["rank"]), player_slug(r["player"])) for r in rated]


def test_an_evening_page_says_who_won_the_night_and_the_rating_changes(club: Path) -> None:
    """Every day with a match has a page, linked from matches.html; on it each table's results as the database has
    them, the winner of the night (most matches won, then the lower mean place) and each rating before and after."""
    site = club / "site"
    with MatchStore.open(club / "club.duckdb", read_only=True) as store:
        days = [d for (d,) in store.execute("SELECT DISTINCT date FROM matches ORDER BY date").fetchall()]
        seats = store.execute("SELECT m.date, mp.match_id, mp.player, mp.total, mp.rank, mp.win FROM match_players mp "
                              "JOIN matches m USING (match_id)").fetchall()
    listing = (site / "matches.html").read_text(encoding="utf-8")
    for day in days:
        rel = f"evenings/{'undated' if day is None else day.isoformat()}.html"
        assert f'href="{rel}"' in listing
        for lang in LANGUAGES:
            assert (site / page_file(rel, lang, "en")).is_file()
        page = (site / rel).read_text(encoding="utf-8")
        mine = [s for s in seats if s[0] == day]
        for _, _, player, total, rank, _ in mine:
            assert re.search(rf"{re.escape(player_slug(player))}\.html\">.*?</a></td><td class=n>{total}</td>"
                             rf"<td class=n>{rank}</td>", page)
        wins: dict[str, int] = {}
        places: dict[str, list[int]] = {}
        for _, _, player, _, rank, win in mine:
            wins[player] = wins.get(player, 0) + bool(win)
            places.setdefault(player, []).append(rank)
        most = max(wins.values())
        if most:
            best = min(sum(places[p]) / len(places[p]) for p in wins if wins[p] == most)
            winners = sorted(p for p in wins if wins[p] == most and sum(places[p]) / len(places[p]) == best)
            night = page[page.index('<p class="night">'):]
            night = night[: night.index("</p>")]
            assert [m for m in re.findall(r'players/([a-z0-9-]+)\.html', night)] == [player_slug(p) for p in winners]
            assert f"{most} match{'es' if most != 1 else ''} won" in night
    # the latest evening: each player's rating after it is their rating now (nobody played since)
    rated = {r["player"]: r for r in json.loads(cli("ratings", "--db", str(club / "club.duckdb"), "--json").stdout)["players"]}
    last = days[-1] if days[-1] is not None else days[-2]
    page = (site / f"evenings/{last.isoformat()}.html").read_text(encoding="utf-8")
    changes = page[page.index("<h2 id=ratings>"):]
    rows = re.findall(r'players/([a-z0-9-]+)\.html">.*?</td><td class=n>(\d+)</td><td class=n>(\d+)</td>'
                      r"<td class=n>([+-]\d+)</td>", changes)
    assert rows
    by_slug = {player_slug(p): r for p, r in rated.items()}
    for slug, before, after, delta in rows:
        assert int(after) == round(by_slug[slug]["rating"])
        assert abs(int(after) - int(before) - int(delta)) <= 1  # each rounded on its own


def test_a_match_page_shows_what_score_says(club: Path) -> None:
    """Scores and claim verdicts of the claims sample, as `score --json` gives them."""
    sample = SAMPLES / "classic-4p-recorded-match-with-claims.json"
    scored = json.loads(cli("score", str(sample), "--json").stdout)
    mid = json.loads(sample.read_text(encoding="utf-8")).get("id")
    with MatchStore.open(club / "club.duckdb", read_only=True) as store:
        if mid is None:
            mid = store.scalar("SELECT match_id FROM matches WHERE source_file LIKE '%with-claims.json'")
    page = (club / "site" / "matches" / f"{match_slug(mid)}.html").read_text(encoding="utf-8")
    games = scored["matches"][0]["games"] if "matches" in scored else scored["games"]
    verdicts = re.findall(r'<span class="(?:verdict-[a-z]*)?" data-verdict="([a-z-]+)">([a-z-]+)</span>', page)
    assert all(a == b for a, b in verdicts)  # in English, the verdict's word is score's status
    shown = [a for a, _ in verdicts]
    expected = [(p["verdict"] or {}).get("status", "no-claim") for g in games for p in g["players"]]
    assert shown == expected and "agrees" in shown and len(set(shown)) > 1
    # score, rank of each row (each cell named by its column, for the phone's cards)
    cells = re.findall(r'<td class=n data-l="score">(\d+)</td><td class=n data-l="rank">(\d+)</td><td class=line', page)
    assert [int(s) for s, _ in cells] == [p["score"] for g in games for p in g["players"]]


def test_analysis_is_shown_from_the_database(club: Path) -> None:
    with MatchStore.open(club / "club.duckdb", read_only=True) as store:
        analyses = stored_analyses(store)
    assert len(analyses) == 1
    (mid, (_, data)), = analyses.items()
    page = (club / "site" / "matches" / f"{match_slug(mid)}.html").read_text(encoding="utf-8")
    assert "<h2>Analysis</h2>" in page
    for s in data["summary"]:
        assert f'<td class=n data-l="mean loss">{s["mean_loss"]:.2f}</td>' in page
        player_page = (club / "site" / "players" / f"{player_slug(s['player'])}.html").read_text(encoding="utf-8")
        assert "Analysed games" in player_page and f"{s['mean_loss']:.2f}" in player_page


def test_hostile_names_are_escaped_and_isolated(club: Path) -> None:
    for page in pages(club / "site"):
        text = page.read_text(encoding="utf-8")
        assert HOSTILE not in text, page  # the viewer's data escapes < as \u003c, the pages as &lt;
        if page.parent.name == "replay":
            continue
        for m in re.finditer("\u202e", text):  # a right-to-left override stays inside its <bdi> or isolate
            before = text[: m.start()]
            isolated = before.rfind("\u2068") > before.rfind("\u2069")
            assert before.rfind("<bdi>") > before.rfind("</bdi>") or isolated, (page, before[-80:])
    player = club / "site" / "players" / f"{player_slug(HOSTILE)}.html"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in player.read_text(encoding="utf-8")
    assert re.fullmatch(r"[a-z0-9-]+", player_slug(HOSTILE)) and re.fullmatch(r"[a-z0-9-]+", player_slug(BIDI))


def test_a_rerun_after_one_more_evening_rewrites_only_what_changed(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    out = tmp_path / "site"
    assert cli("ingest", "--db", str(db), str(season(tmp_path, 0, SEASON))).exit_code == 0
    first = cli("site", "--db", str(db), "--out", str(out))
    assert first.exit_code == 0, first.output
    before = {p: (p.stat().st_mtime_ns, digest(p)) for p in pages(out)}
    again = cli("site", "--db", str(db), "--out", str(out))
    assert f"{len(before) + 1} files, 0 written, {len(before) + 1} unchanged, 0 removed" in again.stderr
    assert {p: (p.stat().st_mtime_ns, digest(p)) for p in pages(out)} == before

    evening = season(tmp_path, SEASON, 2)  # two more matches, after every other
    assert cli("ingest", "--db", str(db), str(evening)).exit_code == 0
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0, r.output
    now = {p: (p.stat().st_mtime_ns, digest(p)) for p in pages(out)}
    changed = {p for p in now if before.get(p) != now[p]}
    written = int(re.search(r"(\d+) written", r.stderr).group(1))  # type: ignore[union-attr]
    assert written == len(changed) and 0 < written < len(now)
    new_ids = [json.loads(line).get("id") for line in evening.read_text(encoding="utf-8").splitlines()]
    with MatchStore.open(db, read_only=True) as store:
        new_ids = [r[0] for r in store.execute(
            "SELECT match_id FROM matches WHERE source_file = ?", [str(evening)]).fetchall()]
    for mid in new_ids:
        assert out / "matches" / f"{match_slug(mid)}.html" in changed
        assert out / "replay" / f"{match_slug(mid)}.html" in changed
    old_replays = {p for p in before if p.parent.name == "replay"}
    assert not old_replays & changed  # old matches' replays are not drawn again
    assert out / "index.html" in changed


def tree(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (the manifest too) with the SHA-256 of its bytes."""
    return {str(p.relative_to(folder)): digest(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_match_or_evening_page_is_drawn_again_when_what_it_shows_changed(tmp_path: Path) -> None:
    """Match and evening pages are kept by a key of what they are drawn from (the manifest's): a rerun draws one
    again when its match gains an analysis, or its file was edited, and the folder is then, byte for byte (its
    manifest too), the folder a fresh build makes."""
    db, logs = tmp_path / "club.duckdb", tmp_path / "logs"
    logs.mkdir()
    for name in ("classic-2p-recorded-game.json", "classic-3p-seeded-match.json"):
        shutil.copy(SAMPLES / name, logs)
    season(logs, 0, 4)
    assert cli("ingest", "--db", str(db), str(logs)).exit_code == 0
    out = tmp_path / "site"
    assert cli("site", "--db", str(db), "--out", str(out), "--lang", "en,ru").exit_code == 0
    entries = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["pages"]
    keyed = {rel for rel, e in entries.items() if "key" in e and not rel.startswith("replay/")}
    assert any(rel.startswith("matches/") for rel in keyed) and any(rel.startswith("evenings/") for rel in keyed)
    assert "index.html" not in keyed and any(rel.startswith("players/") for rel in keyed)  # players: since issue 45

    def fresh(name: str) -> dict[str, str]:
        assert cli("site", "--db", str(db), "--out", str(tmp_path / name), "--lang", "en,ru").exit_code == 0
        return tree(tmp_path / name)

    with MatchStore.open(db, read_only=True) as store:
        (mid,) = store.execute("SELECT match_id FROM matches WHERE source_file LIKE '%2p-recorded%'").fetchone()
    page = out / "matches" / f"{match_slug(mid)}.html"
    before = page.read_bytes()
    r = cli("analyze", str(logs / "classic-2p-recorded-game.json"), "--samples", "2", "--max-se", "0", "--db", str(db))
    assert r.exit_code == 0, r.output
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert page.read_bytes() != before and "analyze --db" in page.read_text(encoding="utf-8")
    assert tree(out) == fresh("fresh-1")

    other = min((out / "matches").glob("*.ru.html"))
    other.write_bytes(other.read_bytes().replace(b"</main>", b"<p>edited</p></main>"))
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0 and " 1 written," in r.stderr, r.stderr
    assert b"edited" not in other.read_bytes()
    assert tree(out) == fresh("fresh-2")


def test_a_match_gone_from_the_database_loses_its_pages(tmp_path: Path) -> None:
    db, logs = two_matches(tmp_path)
    out = tmp_path / "site"
    assert cli("site", "--db", str(db), "--out", str(out)).exit_code == 0
    assert len(list((out / "matches").iterdir())) == 2
    (logs / "classic-3p-seeded-match.json").unlink()
    assert cli("ingest", "--db", str(db), "--rebuild", str(logs)).exit_code == 0
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0 and "removed" in r.stderr
    assert len(list((out / "matches").iterdir())) == 1 and len(list((out / "replay").iterdir())) == 1


def test_refusals_write_nothing(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(SAMPLES / "classic-2p-recorded-game.json")).exit_code == 0
    kept = digest(db)
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n")
    r = cli("site", "--db", str(db), "--out", str(a_file))
    assert r.exit_code == 2 and a_file.read_text() == "mine\n"
    r = cli("site", "--db", str(db), "--out", str(tmp_path))  # the folder that holds the database
    assert r.exit_code == 2 and "inside it" in r.stderr and not (tmp_path / "index.html").exists()
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_bytes(b"\xff\xd8")
    r = cli("site", "--db", str(db), "--out", str(other))
    assert r.exit_code == 2 and "--force" in r.stderr and not (other / "index.html").exists()
    assert cli("site", "--db", str(db), "--out", str(other), "--force").exit_code == 0
    assert (other / "cat.jpg").read_bytes() == b"\xff\xd8" and (other / "index.html").is_file()
    r = cli("site", "--db", str(tmp_path / "none.duckdb"), "--out", str(tmp_path / "s"))
    assert r.exit_code == 3 and "Traceback" not in r.output
    assert digest(db) == kept  # the database is only read


def test_dated_matches_put_dates_on_the_ratings_axis(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(season(tmp_path, 0, 8))).exit_code == 0
    assert cli("site", "--db", str(db), "--out", str(tmp_path / "site")).exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    chart = index[index.index("<h2 id=chart>"): index.index("<h2 id=evenings>")]
    assert "by date" in chart and re.search(r">03-\d\d<|>2026-0\d<", chart)


# --------------------------------------------------------------------------- in the browser

#: Every table whose box is narrower than the table (it would scroll sideways): the heading before it, widths.
TABLES_SCROLLING = """[...document.querySelectorAll('table')].map(t => [t, t.parentElement])
  .filter(([t, box]) => box.scrollWidth > box.clientWidth + 1 || t.scrollWidth > t.clientWidth + 1)
  .map(([t, box]) => [(box.previousElementSibling || {}).textContent, box.scrollWidth, box.clientWidth])"""

LINKS = """[...document.querySelectorAll('a[href], link[href], img[src], script[src], iframe[src]')]
  .map(e => e.getAttribute('href') || e.getAttribute('src'))"""


def test_every_page_in_chromium(club: Path, browser: Browser) -> None:
    site = (club / "site").resolve()
    every = pages(site)
    problems: list[str] = []
    for width, mobile in ((390, True), (1280, False)):
        for page in every:
            browser.events.clear()
            browser.visit(page.as_uri(), width=width, height=800, mobile=mobile)
            wide = browser.eval("[document.documentElement.scrollWidth, window.innerWidth]")
            if wide[0] > wide[1]:
                problems.append(f"{page.relative_to(site)} at {width}px: {wide[0]} px wide")
            if page.parent.name != "replay":  # no table scrolls inside its box: it fits, or folds into cards (a
                # replay draws its tables as it moves: test_no_table_of_a_replay_scrolls_on_a_phone)
                boxes = browser.eval(TABLES_SCROLLING)
                if boxes:  # measured once more after the page settles (a phone's layout was once caught mid-way)
                    time.sleep(1)
                    boxes = browser.eval(TABLES_SCROLLING)
                for box in boxes:
                    problems.append(f"{page.relative_to(site)} at {width}px: a table scrolls in its box: {box}")
            for href in browser.eval(LINKS):
                url = urlparse(href)
                if url.scheme or url.netloc:
                    problems.append(f"{page.relative_to(site)}: link out of the folder: {href}")
                    continue
                if not url.path:
                    continue
                target = (page.parent / unquote(url.path)).resolve()
                if not target.is_relative_to(site) or not target.is_file():
                    problems.append(f"{page.relative_to(site)}: broken link {href}")
            for e in browser.events_named("Network.requestWillBeSent"):
                url = e["params"]["request"]["url"]
                if not (url.startswith((site.as_uri() + "/", "data:")) or url == "about:blank"):
                    problems.append(f"{page.relative_to(site)}: request {url}")
    assert not problems, "\n".join(problems[:20])
    assert (site / MANIFEST).is_file()


#: Set the replay's game (0-based) and move, as a person would with the menu and the slider.
GO = """(([g, m]) => {{ const game = document.getElementById('game');
  if (game.options.length > g && game.selectedIndex !== g) {{ game.selectedIndex = g; game.dispatchEvent(new Event('change')); }}
  const s = document.getElementById('slider'); s.value = String(m); s.dispatchEvent(new Event('input'));
  return Number(s.max); }})([{game}, {move}])"""


def test_no_table_of_a_replay_scrolls_on_a_phone(club: Path, browser: Browser) -> None:
    """Every replay page at 390 px in each language, at the setup, the first move, the middle and the end of each
    game: no table is wider than its box, the page no wider than the window (the analysed sample's decision
    tables included)."""
    site = (club / "site").resolve()
    replays = sorted((site / "replay").glob("*.html"))
    assert replays
    problems: list[str] = []
    seen = 0
    for page in replays:
        for lang in LANGUAGES:
            browser.visit(page.as_uri() + ("" if lang == "en" else f"?lang={lang}"), width=390, height=800, mobile=True)
            assert browser.eval("document.documentElement.lang") == lang, (page.name, lang)
            games = max(1, int(browser.eval("document.getElementById('game').options.length")))
            for game in range(games):
                last = int(browser.eval(GO.format(game=game, move=0)))
                for move in sorted({0, 1, last // 2, last}):
                    browser.eval(GO.format(game=game, move=move))
                    boxes = browser.eval(TABLES_SCROLLING)
                    wide = browser.eval("[document.documentElement.scrollWidth, window.innerWidth]")
                    seen += browser.eval("document.querySelectorAll('table').length") > 0
                    if boxes or wide[0] > wide[1]:
                        problems.append(f"{page.name} ?lang={lang}, game {game + 1}, move {move}: tables {boxes}, "
                                        f"page {wide[0]} px in {wide[1]}")
    assert seen  # tables were there to measure
    assert not problems, "\n".join(problems[:20])


def test_accuracy_luck_and_skill_over_time_where_the_analysis_gives_them(tmp_path: Path) -> None:
    """Summary entries with accuracy, error rate, luck and skill (analyze's per-player figures) make a column each
    and a chart over the analysed matches' dates."""
    from coloretto_log.db.site.analyses import store_analysis

    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(season(tmp_path, 0, 6))).exit_code == 0
    with MatchStore.open(db) as store:
        rows = store.execute(
            "SELECT match_id, content_hash, players, date FROM matches WHERE list_contains(players, 'Aiko') "
            "ORDER BY date LIMIT 2").fetchall()
        assert len(rows) == 2 and rows[0][3] != rows[1][3]
        for k, (mid, digest, players, _) in enumerate(rows):
            summary = [{"player": p, "decisions": 10, "mean_loss": 0.5 + k, "accuracy": 90.0 - 10 * k,
                        "error_rate": 0.1 + k / 10, "luck": 1.5 - k, "skill": -0.25 + k} for p in players]
            store_analysis(store, mid, digest, {"match": 1, "players": players, "decisions": [], "summary": summary})
    assert cli("site", "--db", str(db), "--out", str(tmp_path / "site")).exit_code == 0
    page = (tmp_path / "site" / "players" / f"{player_slug('Aiko')}.html").read_text(encoding="utf-8")
    section = page[page.index("<h2 id=analysed>Analysed games</h2>"): page.index("<h2 id=matches>Matches</h2>")]
    columns = ("accuracy", "error rate", "luck", "skill")
    for cells in (["90%", "10%", "+1.5", "-0.2"], ["80%", "20%", "+0.5", "+0.8"]):
        assert "".join(f'<td class=n data-l="{k}">{c}</td>' for k, c in zip(columns, cells)) in section
    for label in ("mean loss", "accuracy", "error rate", "luck", "skill"):
        assert f'aria-label="\u2068{label}\u2069"' in section  # a chart of each over the two dates


def test_a_subfolder_linked_out_of_the_site_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(SAMPLES / "classic-2p-recorded-game.json")).exit_code == 0
    out, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    assert cli("site", "--db", str(db), "--out", str(out)).exit_code == 0
    elsewhere.mkdir()
    shutil.rmtree(out / "players")
    (out / "players").symlink_to(elsewhere, target_is_directory=True)
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 2 and "leads out of" in r.stderr and list(elsewhere.iterdir()) == []


# --------------------------------------------------------------------------- in every language

def _page_set(club: Path) -> list[str]:
    """The first-language (English) name of one page of each kind."""
    site = club / "site"
    player = min((site / "players").glob("*.html")).name.split(".")[0]
    match = min((site / "matches").glob("*.html")).name.split(".")[0]
    return ["index.html", "matches.html", f"players/{player}.html", f"matches/{match}.html"]


def test_every_page_carries_its_language_and_links_to_the_others(club: Path) -> None:
    site = club / "site"
    for rel in _page_set(club):
        for lang in LANGUAGES:
            path = site / page_file(rel, lang, "en")
            text = path.read_text(encoding="utf-8")
            assert f'<html lang="{lang}">' in text, path
            switch = text[text.index('<nav class="langs"'): text.index("</nav>")]
            assert f"<strong lang={lang}>{NATIVE_NAMES[lang]}</strong>" in switch
            for other in LANGUAGES:
                if other != lang:
                    href = page_file(rel.rsplit("/", 1)[-1], other, "en")
                    assert f'href="{href}" hreflang={other}' in switch
                    assert (path.parent / href).is_file()
            body = text[text.index("</nav>"):]
            links = [h for h in re.findall(r'href="([^"#]+\.html)', body) if h.split("/")[-2:-1] != ["replay"]]
            assert links, path
            for href in links:  # the site's own links stay in the page's language
                name = href.rsplit("/", 1)[-1]
                assert name.count(".") == (1 if lang == "en" else 2) and (lang == "en" or f".{lang}." in name), (path, href)
            for replay in re.findall(r'href="([^"]*replay/[^"]+)"', body):  # one replay page, opened in this language
                assert replay.endswith(".html" if lang == "en" else f".html?lang={lang}"), (path, replay)
    replay = next((site / "replay").glob("*.html")).read_text(encoding="utf-8")
    assert '"langs":["en","ja","ko","ru"]' in replay  # the viewer switches among the site's languages


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_words_numbers_and_dates_are_the_languages(club: Path, lang: str) -> None:
    tr = translator(lang)
    site = club / "site"
    index = (site / page_file("index.html", lang, "en")).read_text(encoding="utf-8")
    for heading in ("Standings", "Ratings over time", "The latest evenings", "Club figures", "Every match"):
        assert tr.t(heading) != heading and tr.t(heading) in index and f">{heading}<" not in index
    assert tr.t("Our Coloretto club") in index  # the default title is the language's
    # the standings: the same figures as in English, written as the locale writes numbers
    english = (site / "index.html").read_text(encoding="utf-8")

    def figures(page: str) -> list[list[int]]:
        table = page[page.index("<h2 id=standings>"): page.index("<h2 id=chart>")]
        rows = re.findall(r"<tr><td class=n>(?:\d+|–)</td>.*?<td class=n>(.*?) <span>± (.*?)</span></td><td class=n>(.*?)</td>",
                          table)
        return [[int(re.sub(r"[\s\u00a0\u202f,.]", "", x).replace("\u2212", "-")) for x in row] for row in rows]

    assert figures(index) == figures(english) and len(figures(index)) > 3
    # dates are the locale's: the latest evening's day as the translator writes it
    day = max(m for m in re.findall(r"<h3><a href=\"evenings/[0-9-]+\.html\">(\d{4}-\d\d-\d\d)</a></h3>", english))
    assert f">{tr.format_date(_dt.date.fromisoformat(day))}</a></h3>" in index
    # a claim's verdict is shown in the language, and keeps score's status beside it
    sample = SAMPLES / "classic-4p-recorded-match-with-claims.json"
    with MatchStore.open(club / "club.duckdb", read_only=True) as store:
        mid = store.scalar("SELECT match_id FROM matches WHERE source_file LIKE '%with-claims.json'")
    assert sample.is_file()
    page = (site / "matches" / page_file(f"{match_slug(mid)}.html", lang, "en")).read_text(encoding="utf-8")
    assert f'data-verdict="agrees">{tr.t("agrees")}</span>' in page


def _longest_words(lang: str, count: int) -> list[str]:
    """The longest words of the site's messages in ``lang`` (what must wrap, or fit, on a phone)."""
    from coloretto_log.lang.extract import messages

    tr = translator(lang)
    words: set[str] = set()
    for key, where in messages().items():
        if not any("site/" in file for file, _ in where):
            continue
        texts = [tr.ngettext(key[0], key[1], n) for n in (1, 2, 5)] if isinstance(key, tuple) else [tr.gettext(key)]
        for text in texts:
            words |= set(re.findall(r"\w+", re.sub(r"\{\w+\}", "", text)))
    return sorted(words, key=lambda w: (-len(w), w))[:count]


def test_the_longest_russian_words_fit_a_phone(tmp_path: Path, browser: Browser) -> None:
    """A title and a player's name made of the catalogue's longest Russian words, on every page at 390 px."""
    words = _longest_words("ru", 6)
    assert len(words[0]) >= 15, words  # "Проанализированные", "неопределённость"...
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(SAMPLES / "classic-4p-recorded-match-with-claims.json")).exit_code == 0
    out = tmp_path / "site"
    r = cli("site", "--db", str(db), "--out", str(out), "--lang", "ru,en", "--title", " ".join(words))
    assert r.exit_code == 0, r.output
    wide = []
    for page in pages(out):
        if page.parent.name == "replay":
            continue
        browser.visit(page.as_uri(), width=390, height=800, mobile=True)
        width = browser.eval("[document.documentElement.scrollWidth, window.innerWidth]")
        if width[0] > width[1]:
            wide.append(f"{page.name}: {width[0]} px")
    assert not wide and words[0] in (out / "index.html").read_text(encoding="utf-8")


def test_the_default_language_is_english_and_a_wrong_one_is_a_usage_error(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(SAMPLES / "classic-2p-recorded-game.json")).exit_code == 0
    assert cli("site", "--db", str(db), "--out", str(tmp_path / "en")).exit_code == 0
    index = (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in index and '<nav class="langs"' not in index and not list((tmp_path / "en").glob("*.ja.html"))
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "x"), "--lang", "en,fr")
    assert r.exit_code == 2 and "fr" in r.stderr and not (tmp_path / "x").exists()
    assert cli("site", "--db", str(db), "--out", str(tmp_path / "ja"), "--lang", "ja").exit_code == 0
    assert '<html lang="ja">' in (tmp_path / "ja" / "index.html").read_text(encoding="utf-8")
