"""Listening: the socket, the address a phone opens, and uvicorn serving the app until a signal.

What a client that reaches the port can cost is bounded here, token or not
(docs/safety.md, "serve"):

* a connection must send a whole request (its headers and its body) within
  ``REQUEST_TIMEOUT`` seconds of opening, or of the previous answer on it;
  otherwise it is answered 408 and closed;
* a client that stops reading its answers (once they fill the buffers) has
  ``REQUEST_TIMEOUT`` seconds to read again, or is dropped;
* at most ``MAX_CONNECTIONS`` connections are open (fewer when the system
  allows fewer descriptors): one more closes the connection that has been
  waiting longest for its request, or, when every one is busy (event
  streams), is answered 503 and closed;
* every kind of trouble (a slow client, too many connections, a bad request,
  an error) is said once, in one line on standard error, and then no more:
  a flood of bad clients never floods the terminal, nor blocks on a pipe
  nobody reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import os
import re
import resource
import secrets
import signal
import socket
import sys
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..core.errors import one_line
from ..log.atomic import atomic_write_text

_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")

#: Seconds a connection has to send a whole request, from its opening or the previous answer on it.
REQUEST_TIMEOUT = 10.0
#: Open connections at most (a phone's page holds one or two, and one event stream).
MAX_CONNECTIONS = 200
#: Connections accepted in one go (each takes a descriptor at once).
BACKLOG = 64
#: Connections the system holds, its handshake done, until they are accepted (no descriptor yet): a flood
#: fills this queue rather than making a new phone's connection wait for the system's retry.
LISTEN_QUEUE = 1024
#: Descriptors kept for everything but connections (the log, its lock, the listening socket, a burst).
SPARE_DESCRIPTORS = 64 + BACKLOG
#: Seconds an idle connection is kept open after an answer (uvicorn's keep-alive).
KEEP_ALIVE = 5
#: Kinds of trouble said at most (each once).
MAX_TROUBLES = 20


def token_path(log: Path) -> Path:
    """Where the page's token is kept, beside the (real) log: ``.NAME.serve-token``."""
    return log.with_name(f".{log.name}.serve-token")


def saved_token(log: Path) -> str:
    """The token of the page for ``log``: the one kept beside it, or a new one kept there (mode 0600).

    Kept so that a restarted server has the same address: the phones that
    had the page open reconnect by themselves. The file is written by the
    atomic writer, which creates its temporary file with this mode from the
    start.
    """
    path = token_path(log)
    try:
        with open(path, encoding="ascii") as f:
            token = f.read().strip()
        if _TOKEN.fullmatch(token):
            return token
    except (OSError, UnicodeDecodeError):
        pass
    token = secrets.token_urlsafe(16)
    atomic_write_text(path, token + "\n", mode=0o600)
    return token


def forget_token(log: Path) -> None:
    """The match is complete: the next serve of this file gets a new address."""
    try:
        os.unlink(token_path(log))
    except OSError:
        pass


class ListenError(OSError):
    """The address cannot be listened on (a port in use, an address not of this machine)."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=LISTEN_QUEUE)
    except (OSError, UnicodeError) as e:
        raise ListenError(
            f"cannot listen on {host}:{port}: {getattr(e, 'strerror', None) or e}"
        ) from None


@dataclass(frozen=True)
class Address:
    """Where a listening socket is, as the system bound it, and the host a phone types."""

    bound: str  # the address itself: "0.0.0.0", "127.0.0.1", "::", "192.168.1.20"
    port: int
    shown: str  # the host of the printed address: this machine's network address for 0.0.0.0, a name as given

    @property
    def loopback(self) -> bool:
        """Only this machine can connect (127.0.0.0/8, ::1, localhost)."""
        return ipaddress.ip_address(self.bound).is_loopback

    @property
    def everywhere(self) -> bool:
        """Every interface of this machine (0.0.0.0, ::)."""
        return ipaddress.ip_address(self.bound).is_unspecified

    def url(self, token: str) -> str:
        shown = f"[{self.shown}]" if ":" in self.shown else self.shown
        return f"http://{shown}:{self.port}/?t={token}"


def address(sock: socket.socket, requested: str) -> Address:
    """The address of ``sock``, listening on ``requested`` (``--host``, as typed: ``0``, ``127.1``, a name)."""
    bound, port = sock.getsockname()[:2]
    ip = ipaddress.ip_address(bound)
    if ip.is_unspecified:
        shown = reachable_host()
    elif _is_name(requested):
        shown = (
            requested  # "localhost", "kitchen.local": what the user typed is what a phone can type
        )
    else:
        shown = str(ip)  # "127.1" and "0x7f.1" are 127.0.0.1
    return Address(str(ip), port, shown)


def _is_name(host: str) -> bool:
    """``host`` is a host name, not a way of writing an address (``127.1``, ``0``, ``::1``)."""
    if ":" in host:
        return False
    try:
        socket.inet_aton(host)
    except OSError:
        return True
    return False


def reachable_host() -> str:
    """The address other devices use to reach this machine: that of the interface towards the network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        found: str = probe.getsockname()[0]
        return found
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


class Trouble:
    """One line on standard error for each kind of trouble, the first time only, and nothing once stopping."""

    def __init__(self) -> None:
        self.said: set[str] = set()
        self.quiet = False

    def say(self, kind: str, text: str) -> None:
        if self.quiet or kind in self.said or len(self.said) >= MAX_TROUBLES:
            return
        self.said.add(kind)
        try:
            sys.stderr.write(one_line(f"serve: {text} (said once)")[:300] + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's errors (``socket.accept() out of system resource``, ...), each kind once."""
        message = str(context.get("message") or "an error in the event loop")
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):
            text = "cannot accept a connection: too many open files; new connections wait until some close"
        else:
            text = f"{message}: {type(exc).__name__}: {exc}" if exc is not None else message
        self.say(message, text)


class _Once(logging.Handler):
    """uvicorn's and asyncio's log records as :class:`Trouble` lines: one line a kind, no traceback."""

    def __init__(self, trouble: Trouble) -> None:
        super().__init__(logging.WARNING)
        self.trouble = trouble

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, asyncio.CancelledError):
            return
        try:
            text = (record.getMessage().strip().splitlines() or ["?"])[0]
        except (TypeError, ValueError):  # a record whose arguments do not fit its message
            text = str(record.msg)
        if exc is not None:
            text = f"{text}: {type(exc).__name__}: {exc}"
        self.trouble.say(f"{record.name}: {record.msg}", text)


class _Guarded(H11Protocol):
    """uvicorn's HTTP/1.1 connection with a deadline for each request and a cap on open connections.

    ``trouble``, ``cap`` and ``timeout`` are set on the subclass :func:`run` makes.
    """

    trouble: Trouble
    cap: int
    timeout: float

    _timer: asyncio.TimerHandle | None = None
    _stalled: asyncio.TimerHandle | None = None
    _waiting_since: float | None = None
    _answered: object = None  # the request already answered when the deadline was set

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.cap and not self._close_longest_waiting():
            self.trouble.say(
                "full", f"{self.cap} connections open, every one busy: refused one more (503)"
            )
            self._answer_and_close(
                503, "Service Unavailable", "too many connections: try again in a moment"
            )
            return
        self._set_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_deadline()
        if self._stalled is not None:
            self._stalled.cancel()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The client reads less than it is sent: it has ``timeout`` seconds to read again."""
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self.loop.call_later(self.timeout, self._not_reading)

    def resume_writing(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
        super().resume_writing()

    def _not_reading(self) -> None:
        self._stalled = None
        self.trouble.say("unread", f"dropped a connection that read nothing of its answers for {self.timeout:g} s")
        self.transport.abort()

    def handle_events(self) -> None:
        super().handle_events()
        if (
            self._timer is not None
            and self.cycle is not None
            and self.cycle is not self._answered
            and not self.cycle.more_body
        ):
            self._clear_deadline()  # the request is here whole: the app answers it in its own time

    def on_response_complete(self) -> None:
        self._set_deadline()  # before uvicorn looks at a pipelined request, which clears it again
        super().on_response_complete()
        if self.transport.is_closing():
            self._clear_deadline()

    def _set_deadline(self) -> None:
        self._clear_deadline()
        self._answered = self.cycle
        self._waiting_since = self.loop.time()
        self._timer = self.loop.call_later(self.timeout, self._too_slow)

    def _clear_deadline(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._waiting_since = None

    def _too_slow(self) -> None:
        self._timer = None
        self._waiting_since = None
        if self.transport.is_closing():
            return
        self.trouble.say(
            "slow",
            f"closed a connection that sent no whole request within {self.timeout:g} s (408)",
        )
        self._answer_and_close(
            408, "Request Timeout", f"the request did not arrive whole within {self.timeout:g} s"
        )

    def _close_longest_waiting(self) -> bool:
        """Close the connection that has waited longest for a request (not this one); False when none waits."""
        waiting = [
            c
            for c in self.connections
            if isinstance(c, _Guarded) and c._waiting_since is not None and c is not self
        ]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c._waiting_since or 0.0)
        self.trouble.say(
            "many", f"{self.cap} connections open: closed the one waiting longest for its request"
        )
        oldest._clear_deadline()
        oldest._answer_and_close(
            503, "Service Unavailable", "too many connections: this idle one was closed"
        )
        return True

    def _answer_and_close(self, status: int, reason: str, text: str) -> None:
        """A last plain answer when no answer has started on this connection, then close it.

        A client that does not read what it is sent would keep a closing
        connection open for ever: what it has not read is dropped instead.
        """
        if self.cycle is None or self.cycle is self._answered or not self.cycle.response_started:
            body = (text + "\n").encode()
            head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    f"connection: close\r\ncontent-length: {len(body)}\r\n\r\n")  # fmt: skip
            self.transport.write(head.encode() + body)
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()


def descriptors(wanted: int) -> int:
    """The descriptors this process may open: raised towards ``wanted`` when the system's hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return wanted if soft == resource.RLIM_INFINITY else soft


class _Server(uvicorn.Server):
    """uvicorn's server that says nothing as it stops, ends the event streams first, and keeps the signal."""

    def __init__(
        self,
        config: uvicorn.Config,
        trouble: Trouble,
        on_stop: Callable[[], None],
        signals: Collection[int],
    ) -> None:
        super().__init__(config)
        self.trouble = trouble
        self.on_stop = on_stop
        self.signals = tuple(signals)
        self.stopped_by: int | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self.trouble.loop_error)
        await super().startup(sockets=sockets)
        for sock in sockets or ():
            sock.listen(LISTEN_QUEUE)  # after uvicorn's listen(BACKLOG): the system's queue only

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.trouble.quiet = True  # what is cut short now is no one's trouble: every move is saved
        self.on_stop()
        await super().shutdown(sockets=sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        old = {sig: signal.signal(sig, self.handle_exit) for sig in self.signals}
        try:
            yield
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.stopped_by is None:
            self.stopped_by = sig
        super().handle_exit(sig, frame)


def run(
    app: Starlette, sock: socket.socket, *, on_stop: Callable[[], None], signals: Collection[int]
) -> int | None:
    """Serve until one of ``signals``; the signal that stopped it.

    ``on_stop`` is called first thing when stopping (it ends the event
    streams, so that the open pages let go at once); a second Ctrl-C stops
    without waiting for anything.
    """
    trouble = Trouble()
    handler = _Once(trouble)
    for name in ("uvicorn", "asyncio"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
    cap = max(
        8,
        min(MAX_CONNECTIONS, descriptors(MAX_CONNECTIONS + SPARE_DESCRIPTORS) - SPARE_DESCRIPTORS),
    )
    protocol = type(
        "Guarded", (_Guarded,), {"trouble": trouble, "cap": cap, "timeout": REQUEST_TIMEOUT}
    )
    config = uvicorn.Config(
        app, http=protocol, log_config=None, log_level="warning", access_log=False, lifespan="off",
        timeout_keep_alive=KEEP_ALIVE, timeout_graceful_shutdown=1, backlog=BACKLOG,
    )  # fmt: skip
    server = _Server(config, trouble, on_stop, signals)
    server.run(sockets=[sock])
    return server.stopped_by
