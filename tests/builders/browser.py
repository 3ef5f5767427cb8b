"""Headless Chromium over the DevTools protocol, with the standard library only: the client of every
browser test (the replay viewer's, serve's). ``tests/conftest.py`` makes the ``chromium`` and
``browser`` fixtures from it.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, ClassVar


def find_chromium() -> str | None:
    env = os.environ.get("COLORETTO_CHROMIUM")
    if env:
        return env if os.access(env, os.X_OK) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


class CDPError(RuntimeError):
    pass


def _high(fd: int) -> int:
    """A copy of ``fd`` numbered 10 or more (the original is closed)."""
    copy = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return copy


class Browser:
    """Headless Chromium over the DevTools protocol on a pipe (fd 3: commands in, fd 4: replies out)."""

    TIMEOUT = 120.0

    def __init__(self, binary: str, profile: str) -> None:
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Chromium's ends move above 9 so that putting them on 3 and 4 cannot clobber one another.
        to_chrome_r, from_chrome_w = (_high(fd) for fd in (to_chrome_r, from_chrome_w))
        args = [
            binary,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--hide-scrollbars",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        # A small Python trampoline puts the pipe ends on descriptors 3 and 4, where Chromium looks.
        trampoline = "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); os.execv(sys.argv[3], sys.argv[3:])"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", trampoline, str(to_chrome_r), str(from_chrome_w), *args],
            pass_fds=(to_chrome_r, from_chrome_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None
        self.target: str | None = None
        self.size: tuple[int, int, bool] | None = None  # the tab's width, height and whether a phone

    def send(
        self, method: str, params: dict[str, Any] | None = None, *, session: bool = True
    ) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session is not None:
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.TIMEOUT
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply.get("result", {})
                return result
            if "method" in reply:
                self.events.append(reply)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPError("no answer from Chromium in time")
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if ready:
                chunk = os.read(self._from_chrome, 1 << 16)
                if not chunk:
                    raise CDPError("Chromium closed the pipe")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def open(self, url: str, *, width: int, height: int, mobile: bool) -> None:
        """``url`` in a new tab of that size, the tab before it closed: one page at a time, as a person reads
        them (hundreds of tabs left open slowed Chromium down page after page and starved its input)."""
        if self.target is not None:
            try:
                self.send("Target.closeTarget", {"targetId": self.target}, session=False)
            except CDPError:  # already closed (the screenshots close their tabs themselves)
                pass
        self.size = (width, height, mobile)
        target = self.target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}, session=False
        )["sessionId"]
        self.send("Network.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {
                "width": width,
                "height": height,
                "deviceScaleFactor": 2 if mobile else 1,
                "mobile": mobile,
            },
        )
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})
        self.wait_for("document.body && document.body.dataset.ready === 'true'")

    def visit(self, url: str, *, width: int, height: int, mobile: bool) -> None:
        """``url`` as ``open`` shows it, loaded into the tab already open at that size, as following a link
        would load it: many pages read at one size cost half as much as a tab made and closed for each."""
        if self.target is None or self.size != (width, height, mobile):
            self.open(url, width=width, height=height, mobile=mobile)
            return
        self.eval("window.__left = true")  # the document left behind; the next one has no such mark
        self.send("Page.navigate", {"url": url})
        self.wait_for("!window.__left && document.body && document.body.dataset.ready === 'true'")

    def eval(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise CDPError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str) -> None:
        deadline = time.monotonic() + self.TIMEOUT
        while not self.eval(f"!!({expression})"):
            if time.monotonic() > deadline:
                raise CDPError(f"timed out waiting for {expression}")
            time.sleep(0.05)

    KEYS: ClassVar[dict[str, int]] = {
        "ArrowRight": 39,
        "ArrowLeft": 37,
        "Home": 36,
        "End": 35,
        "]": 221,
        "[": 219,
    }

    def press(self, key: str, times: int = 1) -> None:
        code = self.KEYS[key]
        for _ in range(times):
            down: dict[str, Any] = {
                "type": "keyDown",
                "key": key,
                "windowsVirtualKeyCode": code,
                "nativeVirtualKeyCode": code,
            }
            if len(key) == 1:
                down["text"] = key
            else:
                down["code"] = key
            self.send("Input.dispatchKeyEvent", down)
            self.send(
                "Input.dispatchKeyEvent",
                {"type": "keyUp", "key": key, "windowsVirtualKeyCode": code},
            )

    def screenshot(self, path: Path, *, height: int | None = None) -> None:
        """The whole page as a PNG; with ``height``, its top ``height`` CSS pixels only."""
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True}
        if height is not None:
            width = self.eval("document.documentElement.clientWidth")
            params["clip"] = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        png = self.send("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(png))

    def click(self, selector: str) -> None:
        """A mouse click (press and release) at the centre of the first element ``selector`` finds, once it is
        there and enabled (a page answering an earlier tap on a loaded machine may take a moment)."""
        deadline = time.monotonic() + self.TIMEOUT
        while (box := self.eval(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e || e.disabled) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )) is None:
            if time.monotonic() > deadline:
                raise CDPError(f"nothing enabled to click at {selector}")
            time.sleep(0.05)
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def centre(self, selector: str) -> tuple[float, float]:
        """The centre of the first element ``selector`` finds, scrolled into view, in viewport pixels."""
        box = self.eval(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e || e.disabled) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        if box is None:
            raise CDPError(f"nothing enabled to tap at {selector}")
        return float(box[0]), float(box[1])

    def tap(self, selector: str) -> None:
        """A finger's tap (a touch gesture, no mouse and no hover) at the centre of ``selector``."""
        x, y = self.centre(selector)
        self.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        self.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def overflow(self) -> int:
        """How far the page sticks out sideways past the viewport, in CSS pixels (0: it fits)."""
        return int(self.eval("document.documentElement.scrollWidth - window.innerWidth"))

    def events_named(self, method: str) -> list[dict[str, Any]]:
        """The protocol events of that name received so far."""
        return [e for e in self.events if e.get("method") == method]

    def type_text(self, selector: str, text: str) -> None:
        """Focus ``selector`` and type ``text`` as key presses would."""
        self.eval(f"document.querySelector({json.dumps(selector)}).focus()")
        self.send("Input.insertText", {"text": text})

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False)
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self._to_chrome)
        os.close(self._from_chrome)
