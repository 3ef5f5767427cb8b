"""The web app: one recording session behind a few routes, every change saved before it is answered.

Routes (each needs the token, ``?t=TOKEN``, or is refused with 403):

* ``GET /``: the page (``assets/page.html``, self-contained).
* ``GET /api/state``: the table as JSON (``snapshot``).
* ``GET /api/events``: server-sent events, the table as JSON after every change.
* ``POST /api/line``: ``{"line": "d red 2", "version": 12}``: one line of
  ``record``'s grammar, fed to the session as typed at the terminal. The
  change is saved atomically before the answer; a refused line changes
  nothing (422, with the rule id); a ``version`` older than the table's is
  refused (409): someone else moved first.
"""

from __future__ import annotations

import asyncio
import copy
import json
import secrets
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from ..core.cards import CARD_HEX
from ..core.errors import UnreadableFileError, one_line
from ..log.logfile import LogFile
from ..play.record import Recorder, Refused
from ..play.record.events import Help
from ..play.record.text import event_lines
from .snapshot import snapshot

#: A request body larger than this is refused unread.
MAX_BODY = 4096
#: A line longer than this is refused.
MAX_LINE = 200
#: Seconds between keep-alive comments on an event stream.
PING = 10.0


class Table:
    """The session, its file, and the version every page compares with. One change at a time."""

    def __init__(self, rec: Recorder, log: LogFile) -> None:
        self.rec = rec
        self.log = log
        self.version = 0
        self.epoch = secrets.token_hex(4)  # this server's run: a restarted one counts versions from 0 again
        self.shown: list[str] = []
        self._lock = asyncio.Lock()
        self._changed: asyncio.Condition | None = None

    def view(self) -> dict[str, Any]:
        return snapshot(self.rec, self.version, self.shown, self.epoch)

    def changed(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    async def feed(self, line: str, version: int | None) -> tuple[int, dict[str, Any]]:
        """Feed one line; the HTTP status and the answer."""
        async with self._lock:
            if version is not None and version != self.version:
                return 409, {
                    "ok": False,
                    "error": "the table changed since this page drew it (another phone moved): look again",
                    "state": self.view(),
                }
            before = copy.deepcopy(self.rec)
            reply = self.rec.feed(line)
            refused = [e for e in reply.events if isinstance(e, Refused)]
            if refused:
                return 422, {"ok": False, "error": one_line(refused[0].line()), "rule": refused[0].rule,
                             "state": self.view()}  # fmt: skip
            if reply.changed and self.rec.data is not None:
                try:
                    self.log.save(self.rec.data)
                except UnreadableFileError as e:
                    self.rec = before
                    return 507, {"ok": False, "error": one_line(f"{e}: the last tap is not recorded"),
                                 "state": self.view()}  # fmt: skip
            lines = [line for e in reply.events for line in event_lines(e)]
            if not reply.events or any(not isinstance(e, Help) for e in reply.events):
                self.version += 1  # a move, an undo, or a question answered: every page draws again
                shown = [line for e in reply.events if not isinstance(e, Help) for line in event_lines(e)]
                if shown:
                    self.shown = shown
        changed = self.changed()
        async with changed:
            changed.notify_all()
        return 200, {"ok": True, "lines": lines, "state": self.view()}


def card_css() -> str:
    """The page's card colours, one rule a card kind, from the one table of cards (core.editions)."""
    return "\n".join(f".k-{name}{{background:{bg};color:{ink}}}" for name, (bg, ink) in CARD_HEX.items())


def make_app(table: Table, token: str) -> Starlette:
    """The Starlette app over ``table``; ``token`` guards every route."""
    page = resources.files(__package__).joinpath("assets/page.html").read_text(encoding="utf-8")
    page = page.replace("/*CARD-CSS*/", card_css())

    def allowed(request: Request) -> bool:
        return secrets.compare_digest(request.query_params.get("t", "").encode(), token.encode())

    def forbidden() -> Response:
        return JSONResponse({"ok": False, "error": "no valid token: open the address serve printed, with its ?t="},
                            status_code=403)  # fmt: skip

    async def index(request: Request) -> Response:
        if not allowed(request):
            return PlainTextResponse("Open the address that coloretto-log serve printed (with its ?t=...).\n", 403)
        return HTMLResponse(page, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def state(request: Request) -> Response:
        if not allowed(request):
            return forbidden()
        return JSONResponse(table.view(), headers={"Cache-Control": "no-store"})

    async def line(request: Request) -> Response:
        if not allowed(request):
            return forbidden()
        body = await _read_body(request)
        if body is None:
            return _bad(f"the body is larger than {MAX_BODY} bytes", 413)
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return _bad('the body is not JSON: send {"line": "d red 2", "version": N}')
        if not isinstance(data, dict) or not isinstance(data.get("line"), str):
            return _bad('the body must be a JSON object with a "line" text: {"line": "d red 2"}')
        text: str = data["line"]
        version = data.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            return _bad('"version" must be a whole number (the table\'s, as last seen)')
        if len(text) > MAX_LINE:
            return _bad(f"the line is longer than {MAX_LINE} characters")
        if any(ord(c) < 32 or ord(c) == 127 or "\ud800" <= c <= "\udfff" for c in text):
            return _bad("the line must be one line of text, without control characters")
        status, answer = await table.feed(text, version)
        return JSONResponse(answer, status_code=status)

    async def events(request: Request) -> Response:
        if not allowed(request):
            return forbidden()
        return StreamingResponse(
            _stream(table, request), media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )  # fmt: skip

    return Starlette(
        routes=[
            Route("/", index),
            Route("/api/state", state),
            Route("/api/line", line, methods=["POST"]),
            Route("/api/events", events),
        ]
    )


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


async def _stream(table: Table, request: Request) -> AsyncIterator[str]:
    seen = -1
    changed = table.changed()
    while True:
        if table.version != seen:
            seen = table.version
            yield f"data: {json.dumps(table.view())}\n\n"
            continue
        async with changed:
            if table.version == seen:
                try:
                    await asyncio.wait_for(changed.wait(), PING)
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": ping\n\n"
