"""Reading what a process writes to a pseudo-terminal: the terminal a user's command would print to."""

from __future__ import annotations

import os
import select


def drain(leader: int, *, timeout: float = 60) -> bytes:
    """Everything written to the pseudo-terminal ``leader`` until its other end is closed (or ``timeout`` s pass
    without a byte); closes ``leader``."""
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], timeout)
            if not ready:
                break
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    return b"".join(chunks)
