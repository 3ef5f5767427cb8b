"""A real ``coloretto-log serve`` in a subprocess, and plain HTTP to it (urllib), for the serve tests."""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from typing_extensions import Self

#: ``python -c _LIMITED N ARGS``: the command line with at most N open descriptors.
_LIMITED = (
    "import resource, runpy, sys; n = int(sys.argv.pop(1)); resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); "
    "runpy.run_module('coloretto_log', run_name='__main__')"
)


class Server:
    """``coloretto-log serve PATH ARGS --port N`` (0: any free one); ``base`` and ``token`` read from what it prints."""

    def __init__(self, path: Path, *args: str, port: int = 0, files: int | None = None) -> None:
        """``files``: the process's limit of open descriptors (soft and hard), as a small system's."""
        self.path = path
        start = ["-m", "coloretto_log"] if files is None else ["-c", _LIMITED, str(files)]
        self.proc = subprocess.Popen(
            [sys.executable, *start, "serve", str(path), *args, "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.printed: list[str] = []
        self._epoch: str | None = None
        url = None
        while url is None:
            line = self.proc.stdout.readline() if self.proc.stdout else ""
            if not line:
                raise AssertionError(f"serve ended before printing its address: {self.stop()}")
            self.printed.append(line.rstrip("\n"))
            found = re.search(r"http://\S+", line)
            url = found.group(0) if found else None
        self.url = url
        self.base, _, self.token = url.partition("/?t=")

    def request(self, method: str, route: str, body: bytes | None = None, *, token: str | None = "") -> tuple[int, Any]:
        """Status and parsed JSON (or text) of one request; ``token=None`` sends none."""
        use = self.token if token == "" else token
        url = self.base + route + (f"?t={use}" if use is not None else "")
        req = urllib.request.Request(url, data=body, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        text = raw.decode("utf-8", "replace")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def send(self, method: str, route: str, headers: dict[str, str], body: bytes | None = None) -> tuple[int, Any]:
        """Status and parsed JSON (or text) of one request with exactly these ``headers`` (``Host`` included)."""
        host, _, port = self.base.removeprefix("http://").rpartition(":")
        conn = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=120)
        try:
            conn.putrequest(method, route, skip_host=True, skip_accept_encoding=True)
            for name, value in headers.items():
                conn.putheader(name, value)
            conn.putheader("Content-Length", str(len(body or b"")))
            conn.endheaders(body)
            answer = conn.getresponse()
            status, raw = answer.status, answer.read()
        finally:
            conn.close()
        text = raw.decode("utf-8", "replace")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def state(self) -> Any:
        status, answer = self.request("GET", "/api/state")
        assert status == 200, answer
        return answer

    def line(self, line: str, version: int | None = None, *, epoch: str | None = "") -> tuple[int, Any]:
        """POST one line as a page that drew ``version`` of ``epoch`` ("": this server's; None: no epoch sent)."""
        body: dict[str, Any] = {"line": line}
        if version is not None:
            body["version"] = version
        if epoch is not None:
            body["epoch"] = epoch or self.epoch
        return self.request("POST", "/api/line", json.dumps(body).encode())

    def feed(self, lines: list[str]) -> None:
        """Post each line as a phone would (the version and epoch it last saw); every one accepted."""
        version = self.state()["version"]
        for line in lines:
            status, answer = self.line(line, version)
            assert status == 200, (line, answer)
            version = answer["state"]["version"]

    @property
    def epoch(self) -> str:
        """This server's epoch (a random id of each start), as every page reads it."""
        if self._epoch is None:
            self._epoch = str(self.state()["epoch"])
        return self._epoch

    def stop(self, sig: int = signal.SIGTERM) -> str:
        """Stop it with ``sig``; its standard error."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=120)
        return err

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate(timeout=120)
