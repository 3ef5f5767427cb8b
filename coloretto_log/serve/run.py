"""Listening: the socket, the address a phone opens, and uvicorn serving the app until a signal."""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
import socket
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from ..log.atomic import atomic_write_text

_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")


def token_path(log: Path) -> Path:
    """Where the page's token is kept, beside the (real) log: ``.NAME.serve-token``."""
    return log.with_name(f".{log.name}.serve-token")


def saved_token(log: Path) -> str:
    """The token of the page for ``log``: the one kept beside it, or a new one kept there (mode 0600).

    Kept so that a restarted server has the same address: the phones that
    had the page open reconnect by themselves.
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


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as e:
        raise ListenError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def reachable_host(host: str) -> str:
    """The address other devices use: the machine's own when listening on every interface."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        found: str = probe.getsockname()[0]
        return found
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()


def url_for(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?t={token}"


def run(app: Starlette, sock: socket.socket) -> None:
    """Serve until Ctrl-C or SIGTERM (uvicorn's handlers); open event streams get a second to close."""
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=1)
    uvicorn.Server(config).run(sockets=[sock])
