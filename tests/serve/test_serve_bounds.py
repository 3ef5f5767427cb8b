"""``coloretto-log serve`` against hostile neighbours and at its end, each against a real server on 127.0.0.1.

What a client that reaches the port can cost without the token (a flood of
connections that never finish their request), which names and pages it
answers (``Host``, ``Origin``), a page drawn before a restart, and what
stopping it says while pages are connected. The server's standard error is
a pipe nobody reads until it has stopped, as when a terminal is gone.
"""

from __future__ import annotations

import json
import resource
import signal
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ..builders.record import DATE, FOUR, Script, match_script
from ..builders.server import Server

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from coloretto_log.serve import run

ARGS = ("--players", ",".join(FOUR), "--date", DATE)
START = "Every move is saved as it is made. Stop with Ctrl-C; run the same command to resume."


@pytest.fixture(scope="module")
def script() -> Script:
    return match_script(20261129)



def port_of(server: Server) -> int:
    return int(server.base.rpartition(":")[2])


def is_open(sock: socket.socket) -> bool:
    """The server has neither answered nor closed this connection (nothing to read, no end of file)."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def answer_of(sock: socket.socket) -> bytes:
    """What the server sent before closing this connection (it must close it within 60 s: generous at load 10)."""
    sock.setblocking(True)
    sock.settimeout(60)
    got = b""
    while chunk := sock.recv(4096):
        got += chunk
    return got


def next_event(page: Any) -> Any:
    """The next table an event stream sends (keep-alive comments skipped)."""
    while True:
        line = page.readline()
        if line.startswith(b"data: "):
            assert page.readline() == b"\n"
            return json.loads(line.decode().removeprefix("data: "))
        assert line in (b": ping\n", b"\n"), line


def trouble_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("serve: ")]


@pytest.mark.parametrize("files, flood", [(1024, 1100), (256, 600)])
def test_a_flood_of_half_open_connections_cannot_take_it_down(
    tmp_path: Path, script: Script, files: int, flood: int
) -> None:
    """1,100 connections that never finish their headers, at a 1,024-descriptor limit (and 600 at 256):
    the page and the API still answer, a connected page still hears every move, the idle ones are
    closed (408 after the deadline, 503 when the cap needs room), and standard error gets a line a kind."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < flood + 200:
        if hard != resource.RLIM_INFINITY and hard < flood + 200:
            pytest.skip(f"this test opens {flood} connections; the descriptor limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (flood + 200, hard))
    path = tmp_path / "kitchen.json"
    half: list[socket.socket] = []
    try:
        with Server(path, *ARGS, files=files) as server:
            port = port_of(server)
            server.feed(script.lines[:6])
            page = urllib.request.urlopen(f"{server.base}/api/events?t={server.token}", timeout=120)
            first = next_event(page)
            began = time.monotonic()
            for _ in range(flood):
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                sock.sendall(
                    b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                )  # never the blank line ending the headers
                half.append(sock)
            print(f"{flood} connections opened in {time.monotonic() - began:.1f} s")
            # A phone that opens the page now is answered, and the page connected before hears the move.
            status, text = server.request("GET", "/")
            assert status == 200 and "<title>" in text
            server.feed(script.lines[6:7])
            second = next_event(page)
            assert second["version"] == first["version"] + 1
            # At most the cap of connections stay open: the server made room by closing those waiting longest.
            cap = min(run.MAX_CONNECTIONS, files - run.SPARE_DESCRIPTORS)
            still = sum(is_open(s) for s in half)
            assert still <= cap, (still, cap)
            # A slow request (headers, or a body, that never finish) and an idle connection: 408 at the deadline.
            slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
            slow[0].sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
            slow[1].sendall(
                f"POST /api/line?t={server.token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 90\r\n\r\n{{".encode()
            )
            time.sleep(run.REQUEST_TIMEOUT + 1.5)
            for sock in slow:
                assert answer_of(sock).startswith(b"HTTP/1.1 408 Request Timeout"), slow.index(sock)
            assert not any(is_open(s) for s in half)
            assert server.state()["version"] == second["version"]
            page.close()
            err = server.stop(signal.SIGINT)
    finally:
        for sock in half:
            sock.close()
    assert server.proc.returncode == 130
    troubles = trouble_lines(err)
    assert len(troubles) == len(set(troubles)) and len(err) < 2000, err[:3000]
    assert "Traceback" not in err and "out of system resource" not in err
    assert any("within 10 s (408)" in line for line in troubles), troubles
    assert any("connections open: closed the one waiting longest" in line for line in troubles), (
        troubles
    )
    assert err.splitlines()[-1].startswith(f"Interrupted: {path} is saved")


@pytest.mark.parametrize(
    "sig, word",
    [(signal.SIGINT, "Interrupted"), (signal.SIGTERM, "Terminated"), (signal.SIGHUP, "Hung up")],
)
def test_stopping_while_pages_are_connected_says_one_line(
    tmp_path: Path, script: Script, sig: int, word: str
) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP) with six pages listening, a request half sent and an idle connection:
    the open pages' streams end cleanly, and the one line says the log is saved."""
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        server.feed(script.lines[:8])
        pages = [
            urllib.request.urlopen(f"{server.base}/api/events?t={server.token}", timeout=120)
            for _ in range(6)
        ]
        for page in pages:
            assert page.readline().startswith(b"data: ")
        half = socket.create_connection(("127.0.0.1", port_of(server)), timeout=10)
        half.sendall(b"GET / HTTP/1.1\r\n")
        idle = socket.create_connection(("127.0.0.1", port_of(server)), timeout=10)
        progress = server.state()["progress"]
        err = server.stop(sig)
        for page in pages:
            assert (
                page.read() == b"\n"
            )  # the rest of the event, then the end of the stream: no error
            page.close()
        half.close()
        idle.close()
    assert server.proc.returncode == 128 + sig
    assert err.splitlines() == [
        START,
        f"{word}: {path} is saved ({progress}); run the same command to resume.",
    ], err


def test_a_page_drawn_before_a_restart_is_refused(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as first:
        first.feed(script.lines[:6])
        old = first.state()  # what a phone's page shows when the server is stopped
        first.stop()
    with Server(path) as server:
        assert server.state()["epoch"] != old["epoch"] and server.state()["version"] == 0
        # The restarted server counts from 0 again: other phones move until it reaches the old page's version.
        server.feed(script.lines[6 : 6 + old["version"]])
        assert server.state()["version"] == old["version"]
        before = path.read_bytes()
        status, answer = server.line(
            script.lines[6 + old["version"]], old["version"], epoch=old["epoch"]
        )
        assert status == 409 and answer["error"].startswith(
            "the recorder was restarted since this page drew it"
        )
        assert answer["state"]["epoch"] == server.epoch and path.read_bytes() == before
        # A line without the version, or without the epoch, is refused: posted twice, it is applied no time.
        for _ in range(2):
            status, answer = server.line(script.lines[6 + old["version"]])
            assert status == 400 and '"version" must be a whole number' in answer["error"]
            status, answer = server.line(
                script.lines[6 + old["version"]], old["version"], epoch=None
            )
            assert status == 400 and '"epoch" must be the text' in answer["error"]
        assert path.read_bytes() == before and server.state()["version"] == old["version"]
        status, answer = server.line(script.lines[6 + old["version"]], old["version"])
        assert status == 200
        server.stop()


def test_only_this_servers_names_and_its_own_pages_are_answered(
    tmp_path: Path, script: Script
) -> None:
    """The token is not enough: ``Host`` must name this server and an ``Origin`` must be its own page's."""
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        port = port_of(server)
        state = f"/api/state?t={server.token}"
        for host in (
            f"127.0.0.1:{port}",
            f"localhost:{port}",
            f"LocalHost:{port}",
            f"[::1]:{port}",
            f"127.8.9.10:{port}",
        ):
            status, answer = server.send("GET", state, {"Host": host})
            assert status == 200 and answer["phase"] == "starting", host
        for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1.evil.example:{port}", f"127.0.0.1:{port + 1}",
                     "127.0.0.1", f"192.0.2.7:{port}", "", f"me@127.0.0.1:{port}", f"127.0.0.1:{port}/x", f"localhost:{port}x"):  # fmt: skip
            status, answer = server.send("GET", state, {"Host": host})
            assert status == 400 and "(Host)" in answer["error"], host
        status, page = server.send(
            "GET", f"/?t={server.token}", {"Host": f"rebound.example:{port}"}
        )
        assert status == 400 and "<" not in page and page.count("\n") == 1
        # Posts: from the page itself, or with no Origin (a program); never from another site's page.
        version, epoch = server.state()["version"], server.epoch
        before = path.read_bytes()
        for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"https://127.0.0.1:{port}",
                       f"http://127.0.0.1:{port + 1}", f"http://127.0.0.1:{port}/", "127.0.0.1"):  # fmt: skip
            body = json.dumps(
                {"line": script.lines[0], "version": version, "epoch": epoch}
            ).encode()
            headers = {
                "Host": f"127.0.0.1:{port}",
                "Origin": origin,
                "Content-Type": "application/json",
            }
            status, answer = server.send("POST", f"/api/line?t={server.token}", headers, body)
            assert status == 403 and "(Origin)" in answer["error"], origin
            status, answer = server.send("GET", f"/api/events?t={server.token}", headers)
            assert status == 403, origin
        assert path.read_bytes() == before
        for n, page_origin in enumerate((f"http://127.0.0.1:{port}", f"http://localhost:{port}", None)):
            body = json.dumps(
                {"line": script.lines[n], "version": version + n, "epoch": epoch}
            ).encode()
            headers = {"Host": f"localhost:{port}", "Content-Type": "application/json"} | (
                {"Origin": page_origin} if page_origin else {}
            )
            status, answer = server.send("POST", f"/api/line?t={server.token}", headers, body)
            assert status == 200, (page_origin, answer)
        server.stop()


def test_listening_everywhere_answers_to_the_printed_network_address(tmp_path: Path) -> None:
    """``--host 0`` is 0.0.0.0: the printed address is this machine's on the network, and it is answered."""
    with Server(tmp_path / "a.json", *ARGS, "--host", "0") as server:
        assert any(
            line.startswith("Listening on 0.0.0.0 (--host): any device") for line in server.printed
        )
        assert not server.url.startswith(("http://0:", "http://0.0.0.0:")), server.url
        shown, port = server.base.removeprefix("http://").rpartition(":")[::2]
        assert server.state()["phase"] == "starting"  # through the printed address, as a phone
        status, _ = server.send("GET", f"/api/state?t={server.token}", {"Host": f"{shown}:{port}"})
        assert status == 200
        status, _ = server.send(
            "GET", f"/api/state?t={server.token}", {"Host": f"phone.example:{port}"}
        )
        assert status == 400
        server.stop()


def test_a_loopback_address_however_spelled_is_this_machine_only(tmp_path: Path) -> None:
    with Server(tmp_path / "a.json", *ARGS, "--host", "127.1") as server:
        assert "Listening on this machine only" in "\n".join(server.printed)
        assert server.url.startswith("http://127.0.0.1:") and server.state()["phase"] == "starting"
        server.stop()


@pytest.mark.parametrize("host, bound, shown, loopback", [
    ("127.1", "127.0.0.1", "127.0.0.1", True), ("127.0.0.1", "127.0.0.1", "127.0.0.1", True),
    ("localhost", "127.0.0.1", "localhost", True), ("0", "0.0.0.0", None, False), ("0.0.0.0", "0.0.0.0", None, False),
])  # fmt: skip
def test_the_address_is_the_one_the_system_bound(
    host: str, bound: str, shown: str | None, loopback: bool
) -> None:
    with run.listen(host, 0) as sock:
        where = run.address(sock, host)
    assert (where.bound, where.loopback, where.everywhere) == (bound, loopback, bound == "0.0.0.0")
    assert where.shown == (shown or run.reachable_host()) and where.shown not in ("0", "0.0.0.0")
    assert where.url("T").startswith(f"http://{where.shown}:{where.port}/?t=T")


def test_garbage_and_oversized_headers_get_400_and_one_line_each(tmp_path: Path) -> None:
    """Bytes that are not HTTP (a TLS hello, a binary blob), sent 50 times, and headers unfinished at 16 KB:
    400 and closed, the server goes on, and standard error says each kind once."""
    with Server(tmp_path / "a.json", *ARGS) as server:
        port = port_of(server)
        for n in range(50):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" if n % 2 else b"\x00\xff" * 40 + b"\r\n\r\n")
                assert answer_of(sock).startswith(b"HTTP/1.1 400 ")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Big: {'a' * 17_000}".encode())  # and on
            assert answer_of(sock).startswith(b"HTTP/1.1 400 ")
        assert server.state()["phase"] == "starting"
        err = server.stop()
    troubles = trouble_lines(err)
    assert troubles == ["serve: Invalid HTTP request received. (said once)"], err
    assert "Traceback" not in err and len(err.splitlines()) == 3


def test_a_client_that_never_reads_its_answers_is_let_go_at_the_deadline(tmp_path: Path) -> None:
    """A thousand requests for the page in one go, none of the answers read: once the answers no longer
    fit in the buffers, the client has the deadline to read again, and is dropped."""
    with Server(tmp_path / "a.json", *ARGS) as server:
        port = port_of(server)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        ask = f"GET /?t={server.token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        sock.sendall(ask * 1000)
        time.sleep(run.REQUEST_TIMEOUT + 2)
        sock.settimeout(60)  # dropped by now; at load 10 on 2 cores the server may come to it a little late
        try:  # what the system had already taken may still come, then the end (or a reset)
            while sock.recv(1 << 20):
                pass
        except ConnectionResetError:
            pass
        sock.close()
        status, _ = server.request("GET", "/")
        assert status == 200
        err = server.stop()
    assert trouble_lines(err) == ["serve: dropped a connection that read nothing of its answers for 10 s (said once)"]


def test_out_of_descriptors_it_says_so_once_and_goes_on(tmp_path: Path) -> None:
    """At a 64-descriptor limit, 300 half-open connections run it out of descriptors while accepting:
    one line instead of a traceback a connection, and the page still answers."""
    half: list[socket.socket] = []
    try:
        with Server(tmp_path / "a.json", *ARGS, files=64) as server:
            port = port_of(server)
            assert server.state()["phase"] == "starting"  # serving
            server.proc.send_signal(signal.SIGSTOP)  # they all wait in the system's queue: one burst of accepts
            for _ in range(300):
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                half.append(sock)
            server.proc.send_signal(signal.SIGCONT)
            status, _ = server.request("GET", "/")
            assert status == 200
            err = server.stop()
    finally:
        for sock in half:
            sock.close()
    troubles = trouble_lines(err)
    assert "serve: cannot accept a connection: too many open files; new connections wait until some close (said once)" in troubles
    assert len(troubles) == len(set(troubles)) <= 3 and "Traceback" not in err and "out of system resource" not in err
