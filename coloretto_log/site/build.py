"""Build the club's site folder from the database: :func:`build_site` (``coloretto-log site``).

The folder holds ``index.html`` (standings, ratings chart, latest evenings,
club figures), ``matches.html``, ``players/NAME-HASH.html``,
``matches/ID-HASH.html``, ``replay/ID-HASH.html`` (the replay viewer of
``replay --html``, with the stored analysis where the viewer takes it) and
``site.css``, and a manifest, ``.coloretto-site.json``, of what it wrote.
With several languages (``langs``), every page but the replays is written
once per language: the first language's as above, another's with the
language before ``.html`` (``index.ja.html``, ``players/NAME-HASH.ru.html``),
each linking to its versions in the others.

Incremental: every page is drawn and compared with the file already there,
and written (atomically) only when its bytes differ. A replay page, the one
costly to draw (it replays the log), is drawn again only when its inputs
changed: the manifest keeps, per replay page, a key of the match's content
hash, its stored analysis and the viewer's own files. Pages of matches no
longer stored are removed (only files the manifest lists, unchanged since,
and never through a link). The replays are drawn from the logs the database
keeps (``db.match_logs``), never from the files. The database is opened
read-only; refused before anything is written (docs/site.md, "What it
touches"): an ``--out`` that is a file, a folder holding the database, a
folder of something else (no manifest, not empty) without ``force``, a file
where the site would write that the manifest does not list (even with
``force``), a folder on the way that is a link out of ``--out``, two names
that would share a file name. The manifest also keeps the title and the
languages, which a rebuild without them keeps.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..core.errors import ColorettoLogError, one_line
from ..db.match_logs import stored_matches
from ..db.site.data import ClubData, MatchRow, club_data
from ..db.store import MatchStore
from ..lang import DEFAULT, LANGUAGES, translator
from ..log.atomic import atomic_write_bytes, sync_folder
from ..log.load import LoadedMatch
from ..report.timeline import from_loaded
from ..view.html import Analysis, page_chunks
from .pages import (
    INACTIVE_AFTER,
    Site,
    evening_file,
    event_slug,
    match_slug,
    page_file,
    player_slug,
    stylesheet,
)

__all__ = ["MANIFEST", "Built", "SiteError", "build_site"]

MANIFEST = ".coloretto-site.json"
#: Bumped when the pages' layout changes, so that every replay page is drawn again.
LAYOUT = "1"


class SiteError(ColorettoLogError):
    """The site cannot be built where asked (one line, for the user)."""


@dataclass(frozen=True, slots=True)
class Built:
    """What :func:`build_site` did: pages written (new or changed), unchanged, removed; replays it could not draw."""

    written: int
    unchanged: int
    removed: int
    pages: int
    no_replay: int
    out: Path

    def as_json(self) -> dict[str, Any]:
        return {"out": str(self.out), "pages": self.pages, "written": self.written, "unchanged": self.unchanged,
                "removed": self.removed, "no_replay": self.no_replay}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _viewer_digest() -> str:
    """What the replay pages are drawn with: the viewer's files and the code that fills them."""
    h = hashlib.sha256(LAYOUT.encode())
    view = files("coloretto_log.view")
    sources = [view.joinpath("html.py"), files("coloretto_log.report").joinpath("timeline.py")]
    sources += sorted((p for p in view.joinpath("assets").iterdir() if p.is_file()), key=lambda p: p.name)
    for source in sources:
        h.update(source.name.encode())
        h.update(source.read_bytes())
    return h.hexdigest()


def check_out(out: Path, db: Path, *, force: bool) -> None:
    """Refuse an ``--out`` that is a file, holds the database, or is a folder of something else (without ``force``)."""
    if out.exists() and not out.is_dir():
        raise SiteError(f"{one_line(str(out))}: --out must be a folder, and this is a file")
    try:
        inside = db.resolve().is_relative_to(out.resolve())
    except OSError:
        inside = False
    if inside:
        raise SiteError(f"{one_line(str(out))}: the database {one_line(str(db))} is inside it (it would be published "
                        "with the site); give another --out")
    if out.is_dir() and not (out / MANIFEST).exists() and any(out.iterdir()) and not force:
        raise SiteError(f"{one_line(str(out))}: a folder that holds other files and no site built by coloretto-log; "
                        "give an empty or new folder, or --force to build into it")
    if not out.exists() and not out.absolute().parent.is_dir():
        raise SiteError(f"{one_line(str(out))}: the folder {one_line(str(out.parent))} does not exist; create it first")


class _Writer:
    """Writes pages whose bytes changed, counts, and remembers what it wrote for the manifest."""

    def __init__(self, out: Path, old: dict[str, dict[str, str]]) -> None:
        self.out = out
        self.root = out.resolve()
        self.old = old
        self.pages: dict[str, dict[str, str]] = {}
        self.written = 0
        self.unchanged = 0
        self.folders: set[Path] = set()  # where pages were written: flushed once, at the end (sync)
        self.kept_in: dict[Path, bool] = {}  # folders of pages kept: inside the site's folder
        self.made: set[Path] = set()  # folders of pages written: made, and inside the site's folder

    def inside(self, rel: str) -> bool:
        """``rel``'s folder is in the site's folder once every link on the way is followed (a name that is not
        there yet counts as inside)."""
        try:
            return (self.out / rel).parent.resolve().is_relative_to(self.root)
        except (OSError, RuntimeError):
            return False

    def _path(self, rel: str) -> Path:
        """``rel`` in the folder, its folder made; refused when a folder on the way leads out (a link). Each
        folder is made and checked once a build (two resolves of every page's path, a few ``lstat`` calls each,
        were 2 % of a first build's CPU: a thousand replays share one folder)."""
        path = self.out / rel
        folder = path.parent
        if folder not in self.made:
            self._stays_inside(rel, folder)  # before a folder is made through a link
            folder.mkdir(parents=True, exist_ok=True)
            self._stays_inside(rel, folder)  # and once made
            self.made.add(folder)
        return path

    def _stays_inside(self, rel: str, folder: Path) -> None:
        """Refuse ``rel`` whose ``folder`` leads out of the site's folder (a link on the way)."""
        if not self.inside(rel):
            raise SiteError(f"{one_line(str(folder))}: leads out of {one_line(str(self.out))} (a link); "
                            "remove it, or give another --out")

    def put(self, rel: str, data: bytes, key: str = "") -> None:
        """Write page ``rel`` (atomically) unless the file there holds ``data`` already. Its folder is flushed to
        disk once, by :meth:`sync`, after every page is written."""
        path = self._path(rel)
        digest = _sha(data)
        same = False
        if path.is_file():
            try:
                same = path.stat().st_size == len(data) and _sha(path.read_bytes()) == digest
            except OSError:
                same = False
        if same:
            self.unchanged += 1
        else:
            atomic_write_bytes(path, data, sync_folder=False)
            self.folders.add(path.parent)
            self.written += 1
        self.pages[rel] = {"sha256": digest, **({"key": key} if key else {})}

    def keep(self, rel: str, *, verify: bool = False) -> bool:
        """Count ``rel`` unchanged (and keep it in the manifest) when it is there as the manifest says (with
        ``verify``, its bytes too: their SHA-256 is the manifest's)."""
        entry = self.old.get(rel)
        if entry is None:
            return False
        path = self.out / rel
        inside = self.kept_in.get(path.parent)  # each folder resolved once (a page kept is neither written nor
        if inside is None:  # removed: nothing goes through the folder)
            inside = self.kept_in[path.parent] = self.inside(rel)
        if not inside:
            return False
        try:
            if path.is_symlink() or not path.is_file():
                return False
            if verify and _sha(path.read_bytes()) != entry.get("sha256"):
                return False
        except OSError:
            return False
        self.pages[rel] = entry
        self.unchanged += 1
        return True

    def sync(self) -> None:
        """Flush each folder a page was written in (its new names) to disk, once (as ``log.atomic`` does after
        each file when not told otherwise)."""
        for folder in sorted(self.folders):
            sync_folder(folder)


@dataclass(frozen=True, slots=True)
class Manifest:
    """What the folder's manifest says: every file the site wrote (its SHA-256, a replay's key), and the
    settings it was built with (a rebuild without ``--title`` or ``--lang`` keeps them)."""

    pages: dict[str, dict[str, str]]
    title: str | None = None
    langs: tuple[str, ...] | None = None


def read_manifest(out: Path) -> Manifest:
    """The manifest of the site in ``out`` (empty when there is none, or it cannot be read)."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        pages = data.get("pages", {})
        pages = {k: v for k, v in pages.items() if isinstance(k, str) and isinstance(v, dict)}
    except (OSError, ValueError, AttributeError):
        return Manifest({})
    title = data.get("title")
    langs = data.get("langs")
    known = isinstance(langs, list) and langs and all(isinstance(x, str) and x in LANGUAGES for x in langs)
    return Manifest(pages, title if isinstance(title, str) else None, tuple(langs) if known else None)


def _loaded(store: MatchStore, wanted: list[MatchRow]) -> Iterator[tuple[MatchRow, LoadedMatch]]:
    """Each wanted match checked again from the log the database keeps (never from the file it was read from)."""
    by_id = {m.match_id: m for m in wanted}
    for item in stored_matches(store, ((m.match_id, m.content_hash, m.source_file, m.source_line) for m in wanted)):
        match_id = item.report.match_id
        found = by_id.get(match_id) if match_id is not None else None
        if found is not None:
            yield found, item


def build_site(
    db: Path, out: Path, *, force: bool = False, title: str | None = None,
    progress: Callable[[str], None] | None = None, langs: tuple[str, ...] | None = None,
    templates: Path | None = None, inactive_after: int = INACTIVE_AFTER,
) -> Built:
    """Build (or bring up to date) the site in ``out`` from the database ``db``, in each of ``langs`` (the
    first one's pages without a language in their names); see the module's docstring. Without ``title`` or
    ``langs``, those the folder's manifest remembers; failing that, English, and each language's own words for
    "Our Coloretto club". ``templates``: a folder whose files replace the package's templates
    (``site/templates``) of the same name; ``inactive_after``: months without a game after which a player is
    listed apart (0: never)."""
    check_out(out, db, force=force)
    collecting = gc.isenabled()
    gc.disable()  # the pages make no reference cycles; the collector's passes over the club's data were a third
    try:  # of the build's time (each replay's JSON is millions of small objects)
        return _build(db, out, title=title, progress=progress, langs=langs, templates=templates,
                      inactive_after=inactive_after)
    finally:
        if collecting:
            gc.enable()


def _build(
    db: Path, out: Path, *, title: str | None, progress: Callable[[str], None] | None, langs: tuple[str, ...] | None,
    templates: Path | None = None, inactive_after: int = INACTIVE_AFTER,
) -> Built:
    manifest = read_manifest(out)
    old = manifest.pages
    title = title if title is not None else manifest.title
    langs = langs or manifest.langs or (DEFAULT,)
    with MatchStore.open(db, read_only=True) as store:
        data = club_data(store)
        if templates is not None:  # a club's own templates, drawn once before anything is written
            Site(data, replays=set(), title=title, tr=translator(langs[0]), langs=langs, templates=templates,
                 inactive_after=inactive_after).check()
        planned = _planned(data, langs)
        _refuse_harm(out, old, planned)
        out.mkdir(parents=True, exist_ok=True)
        # every file it may write listed first: a build interrupted midway leaves them the site's own, for the
        # next build to finish (a file the manifest lists without a hash is replaced or removed as the site's)
        _write_manifest(out, {**{rel: {} for rel in planned}, **old}, title, langs)
        writer = _Writer(out, old)
        replays = _replays(store, data, writer, progress, langs)

    def html(text: str) -> bytes:
        return text.encode("utf-8", "surrogatepass")

    writer.put("site.css", stylesheet(templates).lstrip().encode())
    for lang in langs:
        site = Site(data, replays=replays, title=title, tr=translator(lang), langs=langs, templates=templates,
                    inactive_after=inactive_after)
        for rel, key, draw in site.drafts():
            path = page_file(rel, lang, langs[0])
            if key and old.get(path, {}).get("key") == key and writer.keep(path, verify=True):
                continue  # drawn from the same data, words and templates as the page there
            writer.put(path, html(draw()), key)
    removed = sum(_remove(writer, rel, old[rel]) for rel in sorted(set(old) - set(writer.pages)))
    writer.sync()  # every folder written in, once, before the manifest says what they hold
    _write_manifest(out, writer.pages, title, langs)
    missing = len(data.matches) - len(replays)
    return Built(writer.written, writer.unchanged, removed, len(writer.pages), missing, out)


def _write_manifest(out: Path, pages: dict[str, dict[str, str]], title: str | None, langs: tuple[str, ...]) -> None:
    kept = {"app": "coloretto-log", "layout": LAYOUT, "pages": pages, "title": title, "langs": list(langs)}
    atomic_write_bytes(out / MANIFEST, json.dumps(kept, indent=1, sort_keys=True, ensure_ascii=False).encode())


def _planned(data: ClubData, langs: tuple[str, ...]) -> list[str]:
    """Every file the site may write, in the folder; refused (one line) when two pages would share a name."""
    _unique("player", data.players, player_slug)
    _unique("match", [m.match_id for m in data.matches], match_slug)
    _unique("event", [tour.name for tour, _ in data.events], event_slug)
    pages = Site(data, replays=set(), langs=langs).paths()
    replays = [f"replay/{match_slug(m.match_id)}.html" for m in data.matches]
    return ["site.css", *(page_file(rel, lang, langs[0]) for lang in langs for rel in pages), *replays]


def _unique(kind: str, things: list[str], slug: Callable[[str], str]) -> list[str]:
    """The file names of ``things`` (players, matches or events); refused when two would share one."""
    seen: dict[str, str] = {}
    for thing in things:
        other = seen.setdefault(slug(thing), thing)
        if other != thing:
            raise SiteError(f"the {kind}s {one_line(other)} and {one_line(thing)} would share the page "
                            f"{slug(thing)}.html; rename one of them in its logs and ingest again")
    return list(seen)


def _refuse_harm(out: Path, old: dict[str, dict[str, str]], planned: list[str]) -> None:
    """Refuse, before anything is written, a folder where the site would write onto a file it did not write
    (the user's own ``index.html``, even with ``--force``), or through a folder that leads out of it (a link)."""
    if not out.is_dir():
        return
    root = out.resolve()
    folders = {Path(rel).parent for rel in (*planned, *old)} - {Path(".")}
    for folder in sorted(folders):
        here = out / folder
        if (here.exists() or here.is_symlink()) and not here.resolve().is_relative_to(root):
            raise SiteError(f"{one_line(str(here))}: leads out of {one_line(str(out))} (a link); remove it, or give "
                            "another --out")
    for rel in planned:
        path = out / rel
        if rel not in old and (path.exists() or path.is_symlink()):
            raise SiteError(f"{one_line(str(path))}: a file this site did not write (its manifest {MANIFEST} does "
                            "not list it); move it away, or give another --out")


def _remove(writer: _Writer, rel: str, entry: dict[str, str]) -> int:
    """Remove the page ``rel`` the site wrote and no longer writes (1), unless it leads out of the folder, is a
    link, or is no longer what the site wrote (its bytes changed since): then it stays (0)."""
    path = writer.out / rel
    if ".." in Path(rel).parts or Path(rel).is_absolute() or not writer.inside(rel) or path.is_symlink():
        return 0  # a manifest edited by hand names nothing outside the folder
    digest = entry.get("sha256")
    try:
        if not path.is_file() or (digest is not None and _sha(path.read_bytes()) != digest):
            return 0
        path.unlink()
    except OSError:
        return 0
    writer.folders.add(path.parent)
    return 1


def _analysis_of(stored: dict[str, Any] | None) -> tuple[Analysis | None, dict[str, Any] | None]:
    """The viewer's ``analysis`` (the page's one match) and ``method`` from a stored analysis."""
    if stored is None:
        return None, None
    settings = stored.get("settings")
    return {1: {k: v for k, v in stored.items() if k != "settings"}}, settings if isinstance(settings, dict) else None


def _replays(
    store: MatchStore, data: ClubData, writer: _Writer, progress: Callable[[str], None] | None, langs: tuple[str, ...] = (DEFAULT,)
) -> set[str]:
    """Write the replay pages whose inputs changed (one per match, in every language of the site); the ids of
    the matches that have one."""
    viewer = _viewer_digest() + "/" + ",".join(langs)
    have: set[str] = set()
    wanted: list[MatchRow] = []
    keys: dict[str, str] = {}
    for m in data.matches:
        entry = data.analyses.get(m.match_id)
        analysis = "" if entry is None else _sha(json.dumps(entry[1], sort_keys=True).encode())
        key = _sha(f"{viewer}/{m.content_hash}/{analysis}/{m.match_id}".encode())
        keys[m.match_id] = key
        rel = f"replay/{match_slug(m.match_id)}.html"
        old = writer.old.get(rel)
        if old is not None and old.get("key") == key and writer.keep(rel):
            have.add(m.match_id)
        else:
            wanted.append(m)
    for done, (m, item) in enumerate(_loaded(store, wanted), 1):
        entry = data.analyses.get(m.match_id)
        shown, method = _analysis_of(None if entry is None else entry[1])
        slug = match_slug(m.match_id)
        heading = {"date": None if m.date is None else m.date.isoformat(), "players": list(m.players),
                   "match": f"../matches/{slug}", "index": "../index",
                   "evening": "../" + evening_file(m.date).removesuffix(".html"),
                   "player_pages": [f"../players/{player_slug(p)}" for p in m.players]}
        chunks = page_chunks([from_loaded(item)], title=f"{m.date or 'undated'} · {', '.join(m.players)}",
                             analysis=shown, method=method, langs=langs, heading=heading)
        writer.put(f"replay/{slug}.html", "".join(chunks).encode("utf-8", "surrogatepass"), keys[m.match_id])
        have.add(m.match_id)
        if progress is not None and (done % 20 == 0 or done == len(wanted)):
            progress(f"site: {done} of {len(wanted)} replay pages drawn")
    return have
