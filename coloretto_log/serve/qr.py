"""The page's address as a QR code a phone's camera reads off the terminal (segno)."""

from __future__ import annotations

import io

import segno


def qr_lines(url: str) -> list[str]:
    """The QR code of ``url`` in Unicode half blocks, two modules per character row."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n").split("\n")
