"""What ``serve`` accepts of a request: a move's body as strict as a log, no other site's page, and the page's
own Content-Security-Policy (``serve/app.py``)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from ..builders.record import DATE, FOUR
from ..builders.server import Server

ARGS = ["--players", ",".join(FOUR), "--date", DATE]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("serve") / "kitchen.json"
    with Server(path, *ARGS) as s:
        yield s
        s.stop()


def host_of(server: Server) -> str:
    return server.base.removeprefix("http://")


def post(server: Server, body: str, **headers: str) -> tuple[int, Any]:
    return server.send(
        "POST", f"/api/line?t={server.token}",
        {"Host": host_of(server), "Content-Type": "application/json", **headers}, body.encode(),
    )  # fmt: skip


def test_a_move_with_a_key_given_twice_is_refused_as_in_a_log(server: Server) -> None:
    v = server.state()["version"]
    body = f'{{"line": "q", "version": {v - 1}, "version": {v}, "epoch": "{server.epoch}"}}'
    status, answer = post(server, body)
    assert status == 400
    assert answer["error"] == 'the body is not JSON as a log holds it: duplicate key "version" in one object'
    assert server.state()["version"] == v
    status, answer = post(server, f'{{"line": "q", "version": NaN, "epoch": "{server.epoch}"}}')
    assert status == 400 and "NaN is not valid JSON" in answer["error"], answer
    status, answer = post(server, json.dumps({"line": "?", "version": v, "epoch": server.epoch}))
    assert status == 200, answer  # the same request, each key once: accepted


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
def test_a_request_the_browser_marks_as_from_another_site_is_refused(server: Server, site: str) -> None:
    v = server.state()["version"]
    status, answer = post(server, json.dumps({"line": "?", "version": v, "epoch": server.epoch}), **{"Sec-Fetch-Site": site})
    assert status == 403 and "(Sec-Fetch-Site)" in answer["error"]
    for route in ("/api/state", "/api/events"):
        status, answer = server.send("GET", f"{route}?t={server.token}", {"Host": host_of(server), "Sec-Fetch-Site": site,
                                                                          "Sec-Fetch-Mode": "cors"})  # fmt: skip
        assert status == 403 and "(Sec-Fetch-Site)" in answer["error"]
    # the page itself, opened from a link on another site's page (a top-level navigation): served
    status, page = server.send("GET", f"/?t={server.token}", {"Host": host_of(server), "Sec-Fetch-Site": site,
                                                            "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"})  # fmt: skip
    assert status == 200 and "<html" in page
    status, _ = server.send("GET", f"/?t={server.token}", {"Host": host_of(server), "Sec-Fetch-Site": site,
                                                         "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"})  # fmt: skip
    assert status == 403  # but not in another site's frame


@pytest.mark.parametrize("site", ["same-origin", "none"])
def test_the_pages_own_requests_and_a_typed_address_are_served(server: Server, site: str) -> None:
    status, answer = server.send("GET", f"/api/state?t={server.token}", {"Host": host_of(server), "Sec-Fetch-Site": site})
    assert status == 200 and "version" in answer


def fetch_page(server: Server) -> tuple[dict[str, str], str]:
    with urllib.request.urlopen(f"{server.base}/?t={server.token}", timeout=30) as answer:
        return {k.lower(): v for k, v in answer.headers.items()}, answer.read().decode("utf-8")


def test_the_page_has_a_content_security_policy_with_its_own_script_only_and_no_frame(server: Server) -> None:
    headers, page = fetch_page(server)
    policy = dict(d.strip().split(" ", 1) for d in headers["content-security-policy"].split(";"))
    nonce = re.fullmatch(r"'nonce-([A-Za-z0-9_-]{20,})'", policy["script-src"])
    assert nonce is not None
    assert policy == {
        "default-src": "'none'",  # nothing from elsewhere, nor anything not named below
        "script-src": f"'nonce-{nonce.group(1)}'",
        "style-src": f"'nonce-{nonce.group(1)}'",
        "connect-src": "'self'",
        "img-src": "'self' data:",
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": "'none'",
    }
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
    tags = re.findall(r"<(script|style)\b([^>]*)>", page)
    assert tags == [("style", f' nonce="{nonce.group(1)}"'), ("script", f' nonce="{nonce.group(1)}"')]
    assert not re.search(r"<[a-z]+[^>]*\s(on[a-z]+|style)=", page)  # no inline handler or style attribute
    assert not re.search(r"(src|href)=\"(https?:)?//", page)  # nothing loaded from elsewhere
    again, _ = fetch_page(server)
    assert again["content-security-policy"] != headers["content-security-policy"]  # a new nonce each time
