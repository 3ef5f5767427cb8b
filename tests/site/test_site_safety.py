"""``site`` never harms anything but the pages it wrote itself (docs/site.md, "What it touches").

``--force`` builds beside other files but never over the user's own
``index.html`` or ``site.css``; nothing is written or removed through a link
that leads out of ``--out``; a page the user changed is not removed; two pages
never share a file name; the replay viewer isolates every name (a U+202E in
one reorders nothing around it) and no title carries a control, bidi or
isolating character; a rebuild keeps the title and languages the folder was
built with.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import shutil
import unicodedata
from pathlib import Path

import pytest

from coloretto_log.db.store import MatchStore
from coloretto_log.site.build import MANIFEST
from coloretto_log.site.pages import match_slug, player_slug

from ..builders.browser import Browser
from ..builders.club import club_matches
from ..builders.season import BIDI, cli, tree, two_matches, write_jsonl

#: Two names whose file names share their 10 hex digits of SHA-256 (found once by a birthday search over
#: "Ann" and three CJK characters: the readable part of both is "ann").
TWINS = ("Ann\u4e00\u4e56\u52d8", "Ann\u4e00\u4fa0\u5549")


@pytest.mark.parametrize("own", ["index.html", "site.css", "matches.html"])
def test_force_never_replaces_the_users_own_files(tmp_path: Path, own: str) -> None:
    db, _ = two_matches(tmp_path)
    out = tmp_path / "www"
    out.mkdir()
    (out / own).write_text("mine\n")
    (out / "photo.jpg").write_bytes(b"\xff\xd8")
    r = cli("site", "--db", str(db), "--out", str(out), "--force")
    assert r.exit_code == 2, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and own in r.stderr and "did not write" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([own, "photo.jpg"])  # nothing written, no manifest
    assert (out / own).read_text() == "mine\n"
    (out / own).unlink()  # without it, --force builds beside the photo and leaves it alone
    assert cli("site", "--db", str(db), "--out", str(out), "--force").exit_code == 0
    assert (out / "photo.jpg").read_bytes() == b"\xff\xd8" and (out / own).read_text() != "mine\n"


def test_a_file_planted_where_a_built_site_would_write_is_refused(tmp_path: Path) -> None:
    db, _ = two_matches(tmp_path)
    out = tmp_path / "site"
    assert cli("site", "--db", str(db), "--out", str(out)).exit_code == 0
    assert cli("site", "--db", str(db), "--out", str(out), "--lang", "en,ja").exit_code == 0
    before = tree(out)
    (out / "index.ja.html").unlink()
    (out / "index.ja.html").write_text("the user's own Japanese page\n")
    # the manifest lists index.ja.html: a file the site wrote, replaced again (the user's edit is lost, as docs say)
    assert cli("site", "--db", str(db), "--out", str(out)).exit_code == 0
    assert tree(out) == before
    shutil.rmtree(out / "players")
    mine = out / "players"
    mine.mkdir()
    with MatchStore.open(db, read_only=True) as store:
        player = store.scalar("SELECT min(player) FROM match_players")
    (mine / f"{player_slug(player)}.html").write_text("not the site's\n")
    data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    del data["pages"][f"players/{player_slug(player)}.html"]
    (out / MANIFEST).write_text(json.dumps(data), encoding="utf-8")
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 2 and "did not write" in r.stderr
    assert (mine / f"{player_slug(player)}.html").read_text() == "not the site's\n"


def test_a_rebuild_that_drops_matches_removes_nothing_through_a_link(tmp_path: Path) -> None:
    db, logs = two_matches(tmp_path)
    out = tmp_path / "site"
    assert cli("site", "--db", str(db), "--out", str(out)).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "replay", elsewhere)  # the replays now live outside, --out/replay a link to them
    (out / "replay").symlink_to(elsewhere, target_is_directory=True)
    outside = tree(elsewhere)
    (logs / "classic-3p-seeded-match.json").unlink()
    assert cli("ingest", "--db", str(db), "--rebuild", str(logs)).exit_code == 0
    inside = tree(out)
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 2 and "leads out of" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert tree(elsewhere) == outside and len(outside) == 2  # nothing removed out there
    assert tree(out) == inside  # nor anything in the folder: refused before the first write


def test_a_page_the_user_changed_is_not_removed(tmp_path: Path) -> None:
    db, logs = two_matches(tmp_path)
    out = tmp_path / "site"
    assert cli("site", "--db", str(db), "--out", str(out)).exit_code == 0
    with MatchStore.open(db, read_only=True) as store:
        gone = store.scalar("SELECT match_id FROM matches WHERE source_file LIKE '%3p-seeded%'")
    page, replay = out / "matches" / f"{match_slug(gone)}.html", out / "replay" / f"{match_slug(gone)}.html"
    page.write_text("my notes on that evening\n")
    (logs / "classic-3p-seeded-match.json").unlink()
    assert cli("ingest", "--db", str(db), "--rebuild", str(logs)).exit_code == 0
    r = cli("site", "--db", str(db), "--out", str(out))
    assert r.exit_code == 0 and "removed" in r.stderr, r.output
    assert page.read_text() == "my notes on that evening\n" and not replay.exists()


def test_two_names_that_would_share_a_file_are_refused(tmp_path: Path) -> None:
    assert player_slug(TWINS[0]) == player_slug(TWINS[1]) and TWINS[0] != TWINS[1]
    log = write_jsonl(tmp_path / "twins.jsonl", club_matches(
        2, roster={TWINS[0]: "greedy", TWINS[1]: "greedy", "Dae": "random"}, seed=3, sizes=(3,),
        start=_dt.date(2026, 3, 1), days=2))
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(log)).exit_code == 0
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "site"))
    assert r.exit_code == 2 and "would share the page" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "site").exists()


def test_the_title_and_languages_are_remembered(tmp_path: Path) -> None:
    db, _ = two_matches(tmp_path)
    out = tmp_path / "site"
    assert cli("site", "--db", str(db), "--out", str(out), "--title", "Tuesday players", "--lang", "ru,en").exit_code == 0
    before = tree(out)
    assert "Tuesday players" in (out / "index.html").read_text(encoding="utf-8") and "index.en.html" in before
    r = cli("site", "--db", str(db), "--out", str(out))  # neither given: the folder's own
    assert r.exit_code == 0 and " 0 written" in r.stderr, r.output
    assert tree(out) == before
    r = cli("site", "--db", str(db), "--out", str(out), "--title", "Wednesday players")
    assert r.exit_code == 0 and "Wednesday players" in (out / "index.en.html").read_text(encoding="utf-8")


#: Characters no title may hold: controls, format characters (bidi controls, isolates), line separators.
def _unfit(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]


def _hostile_site(tmp_path: Path) -> Path:
    """A season whose players include a name with U+202E and one with a bell and an escape."""
    roster = {BIDI: "greedy", "Bel\x07\x1b[31m": "greedy", "Chloe": "random", "Dae": "random"}
    log = write_jsonl(tmp_path / "season.jsonl", club_matches(
        3, roster=roster, seed=7, sizes=(4,), start=_dt.date(2026, 3, 1), days=3))
    db = tmp_path / "club.duckdb"
    assert cli("ingest", "--db", str(db), str(log)).exit_code == 0
    r = cli("site", "--db", str(db), "--out", str(tmp_path / "site"), "--lang", "en,ja")
    assert r.exit_code == 0, r.output
    return tmp_path / "site"


def test_no_title_carries_a_control_bidi_or_isolating_character(tmp_path: Path) -> None:
    site = _hostile_site(tmp_path)
    titles = 0
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        (title,) = re.findall(r"<title>(.*?)</title>", text.split("</head>", 1)[0], re.DOTALL)
        assert not _unfit(title), (page, title)
        titles += 1
        if page.parent.name == "replay":
            assert "\\u202e" in title or "\\x07" in title  # shown as escapes, as the site's pages show them
    assert titles > 6


def test_the_replay_viewer_isolates_every_name(tmp_path: Path, browser: Browser) -> None:
    site = _hostile_site(tmp_path)
    (replay,) = [p for p in sorted((site / "replay").glob("*.html"))
                 if BIDI in p.read_text(encoding="utf-8").replace("\\u202e", "\u202e")][:1]
    browser.open(replay.as_uri() + "?lang=ja", width=390, height=844, mobile=True)
    browser.press("End")
    # every text holding U+202E is inside a <bdi>, or inside an isolate (U+2068 ... U+2069) of its own text
    loose = browser.eval("""(() => {
      const out = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const text = n.nodeValue;
        if (text.indexOf('\\u202e') < 0 || n.parentElement.closest('bdi, script')) continue;
        let depth = 0, bad = false;
        for (const c of text) {
          if (c === '\\u2068') depth++;
          else if (c === '\\u2069') depth--;
          else if (c === '\\u202e' && depth < 1) bad = true;
        }
        if (bad) out.push(text);
      }
      return out;
    })()""")
    assert loose == []
    assert browser.eval("document.body.innerText.indexOf('\\u202e') >= 0")  # the name is shown, as it is
    assert not _unfit(browser.eval("document.title"))
    # the heading: the date and the players, a link to the match's page; above it a link to the standings, both
    # in the language shown
    heading = browser.eval("document.getElementById('title').innerText")
    assert heading.startswith("2026-03-0") and "Chloe" in heading and "Dae" in heading
    links = browser.eval("[...document.querySelectorAll('a[data-link]')].map(a => [a.dataset.link, a.href])")
    found = {kind: Path(href.removeprefix("file://")) for kind, href in links}
    assert found["index"] == site / "index.ja.html" and found["match"].parent == site / "matches"
    assert found["match"].name.endswith(".ja.html") and found["match"].is_file()


def test_a_build_interrupted_midway_is_finished_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from coloretto_log.site import build, pages

    db, _ = two_matches(tmp_path)
    out = tmp_path / "site"

    drafted = pages.Site._match
    calls = []

    def broken(self: pages.Site, *args: object) -> pages.Draft:
        calls.append(args)
        if len(calls) > 1:  # the first match page written, then Ctrl-C
            raise KeyboardInterrupt
        return drafted(self, *args)  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(pages.Site, "_match", broken)  # every replay and some pages written, then Ctrl-C
        with pytest.raises(KeyboardInterrupt):
            build.build_site(db, out)
    assert len(list((out / "replay").iterdir())) == 2
    r = cli("site", "--db", str(db), "--out", str(out))  # no --force needed: the files are the site's own
    assert r.exit_code == 0, r.output
    fresh = tmp_path / "fresh"
    assert cli("site", "--db", str(db), "--out", str(fresh)).exit_code == 0
    assert tree(out) == tree(fresh)
