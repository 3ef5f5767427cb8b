"""``coloretto-log serve`` over HTTP: the token, the same log as ``record``, refusals, hostile bodies, kill and resume.

A real server in a subprocess (``serve_server.Server``), spoken to with urllib.
"""

from __future__ import annotations

import json
import signal
import socket
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log.replay import check_match
from coloretto_log.log.writer import dumps_pretty

from ..builders.record import DATE, FOUR, Script, match_script
from ..builders.server import Server

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

ARGS = ("--players", ",".join(FOUR), "--date", DATE)


@pytest.fixture(scope="module")
def script() -> Script:
    return match_script(20261129)



def test_requests_without_the_token_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        before = path.read_bytes()
        for token in (None, "", "x" * 22, server.token[:-1]):
            for method, route, body in [("GET", "/", None), ("GET", "/api/state", None), ("GET", "/api/events", None),
                                        ("POST", "/api/line", b'{"line": "blue"}')]:  # fmt: skip
                status, answer = server.request(method, route, body, token=token if token != "" else "bad")
                assert status == 403, (token, route, answer)
        assert path.read_bytes() == before and server.state()["phase"] == "starting"
        status, page = server.request("GET", "/")
        assert status == 200 and "<title>Coloretto · recording</title>" in page
        for needle in ("http:", "https:", "//cdn", "<link", "@import", "url(", " src="):  # offline: nothing from elsewhere
            assert needle not in page, needle
        server.stop()


def test_a_whole_match_through_the_api_makes_the_same_log_as_record(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        server.feed(script.lines)
        final = server.state()
        assert final["phase"] == "done" and final["complete"]
        err = server.stop()
    assert path.read_text(encoding="utf-8") == dumps_pretty(script.expected)
    assert check_match(json.loads(path.read_text(encoding="utf-8"))).complete
    assert "Terminated: " in err and "is saved (the match is complete (4 games))" in err


def test_an_illegal_move_is_refused_with_its_rule_and_nothing_changes(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        server.feed(script.lines[:10])
        before, state = path.read_bytes(), server.state()
        status, answer = server.line("d red 9", state["version"])
        assert status == 422 and answer["rule"] == "unknown-row"
        assert answer["error"].startswith("refused [unknown-row] row 9 does not exist")
        assert answer["state"] == state and path.read_bytes() == before
        # A phone that saw an older table is refused too: someone else moved first.
        status, answer = server.line(script.lines[10], state["version"] - 1)
        assert status == 409 and "another phone moved" in answer["error"] and path.read_bytes() == before
        server.stop()


HOSTILE = [
    b"", b"{", b"[]", b"null", b'"d red 1"', b'{"line": 3}', b'{"line": null}', b'{"lines": "d red 1"}',
    b'{"line": "d red 1", "version": "1"}', b'{"line": "d red 1", "version": true}', b'{"line": "d red 1", "version": 1.5}',
    b'{"line": "d red 1\\nd red 2"}', b'{"line": "\\u001b]0;pwned\\u0007"}', b'{"line": "\\ud800"}', b"\xff\xfe{}",
    b'{"line": "' + b"x" * 300 + b'"}', b"[" * 4000, b'{"line": "' + b"y" * 10_000 + b'"}',
]  # fmt: skip


def test_hostile_bodies_get_one_line_errors_and_the_log_stays(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        before = path.read_bytes()
        for body in HOSTILE:
            status, answer = server.request("POST", "/api/line", body)
            assert status in (400, 413), (body[:40], status, answer)
            assert isinstance(answer, dict) and answer["ok"] is False
            assert "\n" not in answer["error"] and 0 < len(answer["error"]) < 200
        assert path.read_bytes() == before
        err = server.stop()
    assert "Traceback" not in err and "Error" not in err


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=300), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["line", "version", "epoch", "x"]), inner, max_size=4),
    max_leaves=10)))  # fmt: skip
def test_fuzzed_bodies_never_break_the_server(fuzz_server: Server, body: object) -> None:
    if isinstance(body, dict) and "epoch" in body and body.get("x") is None:
        body["epoch"] = fuzz_server.epoch  # mostly the right epoch, so that the rest reaches the session
    status, answer = fuzz_server.request("POST", "/api/line", body if isinstance(body, bytes) else json.dumps(body).encode())
    assert status in (200, 400, 409, 413, 422), (body, status, answer)
    assert isinstance(answer, dict) and "\n" not in answer.get("error", "")
    data = json.loads(fuzz_server.path.read_text(encoding="utf-8"))
    assert not [f for f in check_match(data).all_findings() if f.severity == "error"]


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> object:
    with Server(tmp_path_factory.mktemp("fuzz") / "kitchen.json", *ARGS) as server:
        yield server
        err = server.stop()
        assert "Traceback" not in err


def test_killed_at_any_moment_it_loses_no_acknowledged_move_and_resumes(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    cut = script.move_ends[40]
    with Server(path, *ARGS) as server:
        server.feed(script.lines[:cut])
        # The lock is shared with record: a terminal recorder is kept out.
        refused = CliRunner().invoke(app, ["record", str(path)], input="q\n")
        assert refused.exit_code == 3 and "is being recorded by another recorder" in refused.stderr
        server.stop(signal.SIGKILL)
    assert sum(len(g["moves"]) for g in json.loads(path.read_text(encoding="utf-8"))["games"]) == 41
    token = tmp_path / ".kitchen.json.serve-token"
    assert token.stat().st_mode & 0o777 == 0o600
    with Server(path) as again:
        assert again.token == server.token  # the same address: the phones reconnect by themselves
        server = again
        assert any(line.startswith(f"Resuming {path}: ") for line in server.printed)
        assert server.state()["phase"] == "move"
        server.feed(script.lines[cut:])
        server.stop()
    assert path.read_text(encoding="utf-8") == dumps_pretty(script.expected)
    assert not token.exists()  # the match is complete: the next serve of this file gets a new address


def test_every_page_hears_each_move_as_a_server_sent_event(tmp_path: Path, script: Script) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, *ARGS) as server:
        server.feed(script.lines[:6])
        with urllib.request.urlopen(f"{server.base}/api/events?t={server.token}", timeout=120) as stream:
            first = json.loads(stream.readline().decode().removeprefix("data: "))
            assert stream.readline() == b"\n"
            status, answer = server.line(script.lines[6], first["version"])
            assert status == 200
            second = json.loads(stream.readline().decode().removeprefix("data: "))
        assert second["version"] == first["version"] + 1 and second == answer["state"]
        server.stop()


def test_listening_beyond_this_machine_needs_host_and_says_so(tmp_path: Path) -> None:
    with Server(tmp_path / "a.json", *ARGS) as server:
        assert "Listening on this machine only" in "\n".join(server.printed) and "127.0.0.1" in server.url
        server.stop()
    with Server(tmp_path / "b.json", *ARGS, "--host", "0.0.0.0") as server:
        assert any(line.startswith("Listening on 0.0.0.0 (--host): any device") for line in server.printed)
        server.stop()


def test_a_port_in_use_and_a_second_server_are_refused_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", str(tmp_path / "a.json"), *ARGS, "--port", str(port)])
    assert result.exit_code == 3 and result.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "a.json").exists()
    with Server(tmp_path / "b.json", *ARGS) as server:
        again = runner.invoke(app, ["serve", str(tmp_path / "b.json"), "--port", "0"])
        assert again.exit_code == 3 and "is being recorded by another recorder" in again.stderr
        server.stop()


def test_the_web_stack_is_loaded_only_by_serve() -> None:
    import subprocess
    import sys

    code = "import sys, coloretto_log.cli; print(','.join(m for m in ('starlette', 'uvicorn', 'segno') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_players_are_asked_on_the_page_when_not_given(tmp_path: Path) -> None:
    path = tmp_path / "kitchen.json"
    with Server(path, "--date", DATE, "--games", "1") as server:
        state = server.state()
        assert state["phase"] == "players" and not path.exists()
        status, answer = server.line("Ann", state["version"])
        assert status == 422 and answer["rule"] == "player-count" and not path.exists()
        status, answer = server.line("Ann, Ben", state["version"])
        assert status == 200 and answer["state"]["phase"] == "removed" and answer["state"]["setup"] == {"removed": 2, "starting": 2}
        server.stop()
    assert json.loads(path.read_text(encoding="utf-8"))["players"] == ["Ann", "Ben"]
