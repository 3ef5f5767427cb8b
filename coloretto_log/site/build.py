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
longer stored are removed (only files the manifest lists). The database is
opened read-only; an ``--out`` that is a file, a folder holding the database,
or a folder of something else (no manifest, not empty) is refused.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..core.errors import ColorettoLogError, one_line
from ..db.site_data import ClubData, MatchRow, club_data
from ..db.store import MatchStore
from ..lang import DEFAULT, translator
from ..log.atomic import atomic_write_bytes, atomic_write_lines
from ..log.load import LoadedMatch, load
from ..report.timeline import from_loaded
from ..view.html import Analysis, page_chunks
from .pages import INACTIVE_AFTER, Site, match_slug, page_file, stylesheet

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

    def _path(self, rel: str) -> Path:
        """``rel`` in the folder, its folder made; refused when a folder on the way leads out (a link)."""
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.parent.resolve().is_relative_to(self.root):
            raise SiteError(f"{one_line(str(path.parent))}: leads out of {one_line(str(self.out))} (a link); "
                            "remove it, or give another --out")
        return path

    def put(self, rel: str, data: bytes, key: str = "") -> None:
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
            atomic_write_bytes(path, data)
            self.written += 1
        self.pages[rel] = {"sha256": digest, **({"key": key} if key else {})}

    def stream(self, rel: str, chunks: Iterator[str], key: str) -> None:
        """A large page (a replay): written as it is drawn when new; else drawn whole and compared."""
        path = self._path(rel)
        if path.exists():
            self.put(rel, "".join(chunks).encode("utf-8", "surrogatepass"), key)
            return
        atomic_write_lines(path, chunks, newline=False)
        self.written += 1
        self.pages[rel] = {"key": key}

    def keep(self, rel: str) -> bool:
        """Count ``rel`` unchanged (and keep it in the manifest) when it is there as the manifest says."""
        entry = self.old.get(rel)
        if entry is None:
            return False
        try:
            if not (self.out / rel).is_file():
                return False
        except OSError:
            return False
        self.pages[rel] = entry
        self.unchanged += 1
        return True


def _read_manifest(out: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        pages = data.get("pages", {})
        return {k: v for k, v in pages.items() if isinstance(k, str) and isinstance(v, dict)}
    except (OSError, ValueError, AttributeError):
        return {}


def _loaded(wanted: list[MatchRow]) -> Iterator[tuple[MatchRow, LoadedMatch]]:
    """Each wanted match read again from its log file, when the file still holds that content."""
    by_file: dict[str, dict[str, MatchRow]] = defaultdict(dict)
    for m in wanted:
        if m.source_file != "<stdin>":
            by_file[m.source_file][m.content_hash] = m
    for file, by_hash in by_file.items():
        if not Path(file).is_file():
            continue
        for item in load([file]):
            if not isinstance(item, LoadedMatch):
                continue
            digest = item.report.content_hash
            found = by_hash.get(digest) if digest is not None else None
            if found is not None:
                yield found, item


def build_site(
    db: Path, out: Path, *, force: bool = False, title: str | None = None,
    progress: Callable[[str], None] | None = None, langs: tuple[str, ...] = (DEFAULT,),
    templates: Path | None = None, inactive_after: int = INACTIVE_AFTER,
) -> Built:
    """Build (or bring up to date) the site in ``out`` from the database ``db``, in each of ``langs`` (the
    first one's pages without a language in their names); see the module's docstring. Without ``title``, each
    language's own words for "Our Coloretto club". ``templates``: a folder whose files replace the package's
    templates (``site/templates``) of the same name; ``inactive_after``: months without a game after which a
    player is listed apart (0: never)."""
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
    db: Path, out: Path, *, title: str | None, progress: Callable[[str], None] | None, langs: tuple[str, ...],
    templates: Path | None = None, inactive_after: int = INACTIVE_AFTER,
) -> Built:
    with MatchStore.open(db, read_only=True) as store:
        data = club_data(store)
    Site(data, replays=set(), title=title, tr=translator(langs[0]), langs=langs, templates=templates,
         inactive_after=inactive_after).check()
    out.mkdir(parents=True, exist_ok=True)
    old = _read_manifest(out)
    writer = _Writer(out, old)
    replays = _replays(data, writer, progress, langs)

    def html(text: str) -> bytes:
        return text.encode("utf-8", "surrogatepass")

    writer.put("site.css", stylesheet(templates).lstrip().encode())
    for lang in langs:
        site = Site(data, replays=replays, title=title, tr=translator(lang), langs=langs, templates=templates,
                    inactive_after=inactive_after)
        for rel, text in site.pages():
            writer.put(page_file(rel, lang, langs[0]), html(text))
    removed = 0
    for rel in sorted(set(old) - set(writer.pages)):
        path = out / rel
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            continue  # a manifest edited by hand names nothing outside the folder
        try:
            path.unlink()
            removed += 1
        except FileNotFoundError:
            pass
    manifest = {"app": "coloretto-log", "layout": LAYOUT, "pages": writer.pages}
    atomic_write_bytes(out / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True).encode())
    missing = len(data.matches) - len(replays)
    return Built(writer.written, writer.unchanged, removed, len(writer.pages), missing, out)


def _analysis_of(stored: dict[str, Any] | None) -> tuple[Analysis | None, dict[str, Any] | None]:
    """The viewer's ``analysis`` (the page's one match) and ``method`` from a stored analysis."""
    if stored is None:
        return None, None
    settings = stored.get("settings")
    return {1: {k: v for k, v in stored.items() if k != "settings"}}, settings if isinstance(settings, dict) else None


def _replays(
    data: ClubData, writer: _Writer, progress: Callable[[str], None] | None, langs: tuple[str, ...] = (DEFAULT,)
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
    for done, (m, item) in enumerate(_loaded(wanted), 1):
        entry = data.analyses.get(m.match_id)
        shown, method = _analysis_of(None if entry is None else entry[1])
        chunks = page_chunks([from_loaded(item)], title=f"{m.date or 'undated'} · {', '.join(m.players)}",
                             analysis=shown, method=method, langs=langs)
        writer.stream(f"replay/{match_slug(m.match_id)}.html", chunks, keys[m.match_id])
        have.add(m.match_id)
        if progress is not None and (done % 20 == 0 or done == len(wanted)):
            progress(f"site: {done} of {len(wanted)} replay pages drawn")
    return have
