"""The web app: one recording session behind a few routes, every change saved before it is answered.

Routes (each needs the token, ``?t=TOKEN``, or is refused with 403):

* ``GET /``: the page (``assets/page.html``, self-contained).
* ``GET /api/state``: the table as JSON (``snapshot``).
* ``GET /api/events``: server-sent events, the table as JSON after every change.
* ``POST /api/line``: ``{"line": "d red 2", "version": 12, "epoch": "5f0c9a1e"}``:
  one line of ``record``'s grammar, fed to the session as typed at the
  terminal, with the ``version`` and ``epoch`` of the table the page drew
  (both required: 400 without). The change is saved atomically before the
  answer; a refused line changes nothing (422, with the rule id); a table
  drawn before another change (another ``version``) or before the server
  was restarted (another ``epoch``) is refused (409): look again.

The page's language (docs/serve.md, "Languages"): every request may say
``&lang=ja`` (one of ``lang.LANGUAGES``); without it, ``serve --lang``, else
the request's ``Accept-Language``, else English. The table, the refusals and
the lines of an answer come in that language, so that phones at the same
table can read different languages at once; the log is the same in every
language (the lines typed are the same).

Every request must name this server in ``Host`` (the address it printed,
``localhost``, a loopback address, or the address the connection came in
on), or is refused (400): a page of another site cannot reach it through a
name it controls (DNS rebinding). A request with an ``Origin`` that is not
one of those is refused (403): another site's page cannot post to it; so
is one its browser marks ``Sec-Fetch-Site: cross-site`` or ``same-site``
(a page of another site, or of another port of this host, that sends no
``Origin``), but a person following a link to the page (a top-level
navigation). A move's body is read as a log is (``log.reader.parse_json``):
a key given twice, NaN or a number too long is refused. The page is sent
with a Content-Security-Policy (:func:`page_headers`): nothing loaded from
elsewhere, only its own script and styles (a nonce each response), never in
a frame.
"""

from __future__ import annotations

import asyncio
import copy
import ipaddress
import json
import secrets
from collections.abc import AsyncIterator, Collection
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.cards import CARD_HEX
from ..core.errors import UnreadableFileError, one_line
from ..lang import LANGUAGES, N_, Translator, negotiate, translator
from ..log.logfile import LogFile
from ..log.reader import parse_json
from ..record import Recorder, Refused
from ..record.events import Help, Reply
from ..record.text import event_lines
from .page import page_html
from .snapshot import snapshot

#: A request body larger than this is refused unread.
MAX_BODY = 4096
#: A line longer than this is refused.
MAX_LINE = 200
#: Seconds between keep-alive comments on an event stream.
PING = 10.0
#: What a POST to /api/line looks like.
SHAPE = '{"line": "d red 2", "version": N, "epoch": "..."} (version and epoch as in /api/state)'


class Change:
    """A change of the table (the recorder before it and the line fed), to say it again in another language.

    The session's messages are made in its language as it answers; a phone
    reading another language gets them from the same line fed again, in its
    language, to a copy of the recorder as it was (once a language).
    """

    def __init__(self, before: Recorder, line: str) -> None:
        self.before = before
        self.line = line
        self.texts: dict[str, tuple[list[str], str | None]] = {}  # language: the lines shown, the question asked

    def said(self, tr: Translator, reply: Reply, after: Recorder) -> None:
        """What the change said in ``tr``'s language, as it was made."""
        caution = after.confirming
        self.texts[tr.lang] = (shown_lines(reply, tr), None if caution is None else caution.message)

    def texts_in(self, lang: str) -> tuple[list[str], str | None]:
        if lang not in self.texts:
            again = copy.deepcopy(self.before)
            again.tr = translator(lang)
            self.said(again.tr, again.feed(self.line), again)
        return self.texts[lang]


def shown_lines(reply: Reply, tr: Translator) -> list[str]:
    """The lines of a change every phone sees (what ``record`` prints for it, help aside)."""
    return [line for e in reply.events if not isinstance(e, Help) for line in event_lines(e, tr)]


class Table:
    """The session, its file, and the version every page compares with. One change at a time.

    ``lang``: the language of every page that does not ask for one (``serve
    --lang``); ``None``: each browser's ``Accept-Language``.
    """

    def __init__(self, rec: Recorder, log: LogFile, lang: str | None = None) -> None:
        self.rec = rec
        self.log = log
        self.lang = lang
        self.version = 0
        self.epoch = secrets.token_hex(4)  # this server's run: a restarted one counts versions from 0 again
        self.shown: Change | None = None  # the last change that had lines for every phone to see
        self.last: Change | None = None  # the last change (its question, when it asked one)
        self.closing = False
        self._lock = asyncio.Lock()
        self._news = asyncio.Event()  # set (and replaced) at every change, and when the server stops

    def view(self, lang: str = "en") -> dict[str, Any]:
        """The table as a page in ``lang`` draws it."""
        shown = self.shown.texts_in(lang)[0] if self.shown is not None else []
        confirm = self.last.texts_in(lang)[1] if self.last is not None and self.rec.confirming is not None else None
        return snapshot(self.rec, self.version, shown, self.epoch, tr=translator(lang), confirm=confirm)

    def news(self) -> asyncio.Event:
        """Set at the next change (or when the server stops)."""
        return self._news

    def close(self) -> None:
        """The server is stopping: every event stream ends now, so that no open page holds it."""
        self.closing = True
        self._news.set()

    async def feed(self, line: str, version: int, epoch: str, lang: str = "en") -> tuple[int, dict[str, Any]]:
        """Feed one line typed on a page in ``lang`` that drew the table at ``version`` of ``epoch``;
        the HTTP status and the answer (in ``lang``)."""
        tr = translator(lang)
        async with self._lock:
            if epoch != self.epoch or version != self.version:
                why = (tr.gettext(N_("the recorder was restarted since this page drew it: look again"))
                       if epoch != self.epoch else
                       tr.gettext(N_("the table changed (another phone moved) since this page drew it: look again")))  # fmt: skip
                return 409, {"ok": False, "error": why, "state": self.view(lang)}
            before = copy.deepcopy(self.rec)
            self.rec.tr = tr
            reply = self.rec.feed(line)
            refused = [e for e in reply.events if isinstance(e, Refused)]
            if refused:
                return 422, {"ok": False, "error": one_line(refused[0].line(tr)), "rule": refused[0].rule,
                             "state": self.view(lang)}  # fmt: skip
            if reply.changed and self.rec.data is not None:
                try:
                    self.log.save(self.rec.data)
                except UnreadableFileError as e:
                    self.rec = before
                    return 507, {"ok": False, "error": one_line(tr.t(N_("{error}: the last tap is not recorded"), error=e)),
                                 "state": self.view(lang)}  # fmt: skip
            lines = [line for e in reply.events for line in event_lines(e, tr)]
            if not reply.events or any(not isinstance(e, Help) for e in reply.events):
                self.version += 1  # a move, an undo, or a question answered: every page draws again
                change = Change(before, line)
                change.said(tr, reply, self.rec)
                self.last = change
                if change.texts[lang][0]:
                    self.shown = change
        news, self._news = self._news, asyncio.Event()
        news.set()
        return 200, {"ok": True, "lines": lines, "state": self.view(lang)}


def card_css() -> str:
    """The page's card colours, one rule a card kind, from the one table of cards (core.editions)."""
    return "\n".join(f".k-{name}{{background:{bg};color:{ink}}}" for name, (bg, ink) in CARD_HEX.items())


def make_app(table: Table, token: str, names: Collection[str] = ()) -> Starlette:
    """The Starlette app over ``table``; ``token`` guards every route, :class:`HostCheck` every request
    (``names``: the host names besides ``localhost`` and addresses it answers to, as the printed address's)."""
    page = resources.files(__package__).joinpath("assets/page.html").read_text(encoding="utf-8")
    page = page.replace("/*CARD-CSS*/", card_css())
    if page.count("<script") != 1 or page.count("<style") != 1:  # the policy lets exactly these two in
        raise AssertionError("the serve page must hold one <script> and one <style>")

    def lang_of(request: Request) -> str:
        """The request's language: ``&lang=``, else ``serve --lang``, else ``Accept-Language``, else English."""
        asked = request.query_params.get("lang", "")
        if asked in LANGUAGES:
            return asked
        return table.lang or negotiate(request.headers.get("accept-language", ""))

    def allowed(request: Request) -> bool:
        return secrets.compare_digest(request.query_params.get("t", "").encode(), token.encode())

    def forbidden() -> Response:
        return JSONResponse({"ok": False, "error": "no valid token: open the address serve printed, with its ?t="},
                            status_code=403)  # fmt: skip

    async def index(request: Request) -> Response:
        if not allowed(request):
            return PlainTextResponse("Open the address that coloretto-log serve printed (with its ?t=...).\n", 403)
        nonce = secrets.token_urlsafe(18)
        html = page_html(page, lang_of(request)).replace("<script>", f'<script nonce="{nonce}">', 1)
        return HTMLResponse(html.replace("<style>", f'<style nonce="{nonce}">', 1), headers=page_headers(nonce))

    async def state(request: Request) -> Response:
        if not allowed(request):
            return forbidden()
        return JSONResponse(table.view(lang_of(request)), headers={"Cache-Control": "no-store"})

    async def line(request: Request) -> Response:
        if not allowed(request):
            return forbidden()
        try:
            body = await _read_body(request)
        except ClientDisconnect:  # gone (or cut off for sending too slowly): nobody hears the answer
            return _bad("the body did not arrive")
        if body is None:
            return _bad(f"the body is larger than {MAX_BODY} bytes", 413)
        try:
            data = parse_json(body.decode("utf-8"))  # as strict as a log: no key twice, no NaN, bounded numbers
        except UnicodeDecodeError:
            return _bad(f"the body is not UTF-8 text: send {SHAPE}")
        except (ValueError, RecursionError) as e:
            return _bad(f"the body is not JSON as a log holds it: {one_line(str(e))[:120]}")
        if not isinstance(data, dict) or not isinstance(data.get("line"), str):
            return _bad(f'the body must be a JSON object with a "line" text: {SHAPE}')
        text: str = data["line"]
        version, epoch = data.get("version"), data.get("epoch")
        if not isinstance(version, int) or isinstance(version, bool):
            return _bad(f'"version" must be a whole number, the table\'s as the page drew it: {SHAPE}')
        if not isinstance(epoch, str):
            return _bad(f'"epoch" must be the text of the table the page drew: {SHAPE}')
        if len(text) > MAX_LINE:
            return _bad(f"the line is longer than {MAX_LINE} characters")
        if any(ord(c) < 32 or ord(c) == 127 or "\ud800" <= c <= "\udfff" for c in text):
            return _bad("the line must be one line of text, without control characters")
        status, answer = await table.feed(text, version, epoch, lang_of(request))
        return JSONResponse(answer, status_code=status)

    async def events(request: Request) -> Response:
        if not allowed(request):
            return forbidden()
        return StreamingResponse(
            _stream(table, lang_of(request)), media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )  # fmt: skip

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/state", state),
            Route("/api/line", line, methods=["POST"]),
            Route("/api/events", events),
        ],
        middleware=[Middleware(HostCheck, names=names)],
    )


def page_headers(nonce: str) -> dict[str, str]:
    """The page's headers: not cached, no referrer, and a Content-Security-Policy that lets in only the
    page's own script and styles (those carrying ``nonce``), its requests to this server, and no frame."""
    policy = "; ".join((
        "default-src 'none'",
        f"script-src 'nonce-{nonce}'",
        f"style-src 'nonce-{nonce}'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ))  # fmt: skip
    return {
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": policy,
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
    }


class HostCheck:
    """Every request must name this server in ``Host``; an ``Origin``, when sent, must be this server's, and
    ``Sec-Fetch-Site``, when sent, must not say another site.

    This server is: ``localhost``, a loopback address, the address the
    connection came in on (the LAN address when listening on every
    interface), or one of ``names`` (the host of the printed address); on
    the port it listens on. Against DNS rebinding (a page of another site
    reaching the server through a name of its own: 400) and cross-site
    posts (403); the token is checked after.
    """

    def __init__(self, app: ASGIApp, names: Collection[str] = ()) -> None:
        self.app = app
        self.names = frozenset(n.lower() for n in names) | {"localhost"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            server = scope.get("server")
            problem = None
            if not self.ours(headers.get("host", ""), server):
                problem = 400, "this server is not at the address the request names (Host): open the address serve printed"
            elif "origin" in headers and not self.ours_origin(headers["origin"], server):
                problem = 403, "a request from another site's page is refused (Origin): open the address serve printed"
            elif self.from_another_site(headers, scope.get("method", "")):
                problem = 403, "a request from another site's page is refused (Sec-Fetch-Site): open the address serve printed"
            if problem is not None:
                status, text = problem
                answer: Response = (JSONResponse({"ok": False, "error": text}, status) if scope["path"].startswith("/api/")
                                    else PlainTextResponse(text + "\n", status))  # fmt: skip
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def from_another_site(headers: Headers, method: str) -> bool:
        """The browser says another site's page made this request (``Sec-Fetch-Site``), and it is not a person
        following a link to the page (a top-level navigation, which gets only the page: the token is in the link)."""
        site = headers.get("sec-fetch-site", "").strip().lower()
        if site not in ("cross-site", "same-site"):
            return False  # same-origin, none (typed, scanned, bookmarked), or a program that sends none
        navigation = headers.get("sec-fetch-mode", "") == "navigate" and headers.get("sec-fetch-dest", "") == "document"
        return not (navigation and method == "GET")

    def ours(self, host: str, server: tuple[str, int | None] | None) -> bool:
        """``host`` (``name:port``, ``[::1]:port``) names this server, as the connection to ``server`` reached it."""
        try:
            parts = urlsplit("//" + host)
            name, port = parts.hostname, parts.port or 80
        except ValueError:
            return False
        if not name or parts.username is not None or parts.path or parts.query or parts.fragment:
            return False
        if server is None or port != server[1]:
            return False
        if name in self.names:
            return True
        try:
            ip = ipaddress.ip_address(name)
            local = ipaddress.ip_address(server[0])
        except ValueError:
            return False
        mapped = local.ipv4_mapped if isinstance(local, ipaddress.IPv6Address) else None
        return ip.is_loopback or ip == local or ip == mapped

    def ours_origin(self, origin: str, server: tuple[str, int | None] | None) -> bool:
        """``origin`` (``http://host:port``) is this server's: a page it served."""
        scheme, sep, rest = origin.partition("://")
        return sep == "://" and scheme.lower() == "http" and "/" not in rest and self.ours(rest, server)


def _bad(message: str, status: int = 400) -> Response:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


async def _read_body(request: Request) -> bytes | None:
    """The body, or ``None`` when it is larger than ``MAX_BODY`` (the rest is not read)."""
    size = request.headers.get("content-length", "")
    if size.isdigit() and int(size) > MAX_BODY:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


async def _stream(table: Table, lang: str) -> AsyncIterator[str]:
    """The table after every change, a comment every ``PING`` seconds; ends when the server stops.

    (A page that goes away ends it too: Starlette stops the response when the client disconnects.)
    """
    seen = -1
    while not table.closing:
        if table.version != seen:
            seen = table.version
            yield f"data: {json.dumps(table.view(lang))}\n\n"
            continue
        try:
            await asyncio.wait_for(table.news().wait(), PING)
        except asyncio.TimeoutError:
            yield ": ping\n\n"
