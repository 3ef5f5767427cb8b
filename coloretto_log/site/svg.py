"""Charts drawn as inline SVG: lines over dates (or contests), vertical and horizontal bars.

Each chart is drawn in a small coordinate box (``WIDTH`` × ``HEIGHT``) and
scaled by the page to its column, so its text stays legible on a phone (390
px) and is not huge on a desktop (the CSS caps the width). Legends are HTML
beside the chart (they wrap), never inside it. Every text put in is escaped.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import escape as _escape

from ..core.errors import one_line

__all__ = ["PALETTE", "Line", "hbars", "lines", "vbars"]

WIDTH = 360
HEIGHT = 210
LEFT, RIGHT, TOP, BOTTOM = 38, 10, 10, 26
FONT = 11

#: Line colours, told apart by people with the common colour-vision deficiencies (Okabe & Ito), then more.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c564b")


@dataclass(frozen=True, slots=True)
class Line:
    """One line: its label (for the title), colour, points (x, y) and, optionally, a band (x, low, high)."""

    label: str
    colour: str
    points: Sequence[tuple[float, float]]
    band: Sequence[tuple[float, float, float]] = ()


def escape(text: str) -> str:
    """Text for the chart: control characters shown as escapes, markup escaped, its direction isolated."""
    return str(_escape("\u2068" + one_line(text) + "\u2069"))


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values between ``low`` and ``high`` (about ``count`` of them)."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if step * m >= raw:
            step *= m
            break
    first = math.ceil(low / step) * step
    out = []
    v = first
    while v <= high + 1e-9:
        out.append(round(v, 10))
        v += step
    return out


def _frame(title: str, body: list[str], *, label: str) -> str:
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-size="{FONT}" font-family="system-ui, sans-serif">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _date_label(day: _dt.date, span_days: int) -> str:
    return day.strftime("%Y-%m") if span_days > 90 else day.strftime("%m-%d")


def lines(series: Sequence[Line], *, title: str, dates: bool, y_label: str = "", empty: str = "no data yet") -> str:
    """A line chart; with ``dates``, x values are day ordinals and the axis shows dates, else contest numbers.
    ``empty`` is what it says when there is no point."""
    xs = [x for s in series for x, _ in s.points] + [x for s in series for x, _, _ in s.band]
    ys = [y for s in series for _, y in s.points] + [v for s in series for _, lo, hi in s.band for v in (lo, hi)]
    if not xs:
        return _frame(title, [f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" text-anchor="middle">{escape(empty)}</text>'],
                      label=title)
    x0, x1 = min(xs), max(xs)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    y0, y1 = min(ys), max(ys)
    pad = max((y1 - y0) * 0.05, 1.0)
    y0, y1 = y0 - pad, y1 + pad
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return TOP + (y1 - y) / (y1 - y0) * plot_h

    body = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#ccc"/>']
    for t in _ticks(y0, y1, 5):
        body.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py(t):.1f}" y2="{py(t):.1f}" stroke="#eee"/>')
        body.append(f'<text x="{LEFT - 3}" y="{py(t) + 4:.1f}" text-anchor="end" fill="#444">{_fmt(t)}</text>')
    if dates:
        span = int(x1 - x0)
        count = 2 if span < 2 else 4
        days = sorted({round(x0 + (x1 - x0) * k / (count - 1)) for k in range(count)})
        for d in days:
            day = _dt.date.fromordinal(d)
            anchor = "start" if d == days[0] else "end" if d == days[-1] else "middle"
            body.append(f'<text x="{px(d):.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}" fill="#444">'
                        f"{_date_label(day, span)}</text>")
    else:
        for t in _ticks(x0, x1, 4):
            if t == int(t):
                body.append(f'<text x="{px(t):.1f}" y="{HEIGHT - 8}" text-anchor="middle" fill="#444">{int(t)}</text>')
    if y_label:
        body.append(f'<text x="{LEFT + 4}" y="{TOP + FONT + 2}" fill="#666">{escape(y_label)}</text>')
    for s in series:
        if s.band:
            upper = " ".join(f"{px(x):.1f},{py(hi):.1f}" for x, _, hi in s.band)
            lower = " ".join(f"{px(x):.1f},{py(lo):.1f}" for x, lo, _ in reversed(s.band))
            body.append(f'<polygon points="{upper} {lower}" fill="{s.colour}" fill-opacity="0.12" stroke="none"/>')
    for s in series:
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s.points)
        if len(s.points) == 1:
            (x, y), = s.points
            body.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{s.colour}">'
                        f"<title>{escape(s.label)}</title></circle>")
        else:
            body.append(f'<polyline points="{pts}" fill="none" stroke="{s.colour}" stroke-width="1.8" '
                        f'stroke-linejoin="round"><title>{escape(s.label)}</title></polyline>')
    return _frame(title, body, label=title)


def vbars(
    bars: Sequence[tuple[str, float, str]], *, title: str, y_max: float | None = None, reference: float | None = None,
    percent: bool = False, height: int = 150, reference_title: str = "expected with no advantage",
) -> str:
    """Vertical bars (label under each, value over it, colour); a dashed ``reference`` line across, titled
    ``reference_title``."""
    top = y_max if y_max is not None else max((v for _, v, _ in bars), default=1.0) or 1.0
    plot_w, plot_h = WIDTH - 12, height - TOP - BOTTOM
    n = max(len(bars), 1)
    slot = plot_w / n
    body = [f'<line x1="6" x2="{WIDTH - 6}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#999"/>']
    step = max(1, math.ceil(n * 28 / plot_w))  # label every step-th bar when they are narrow
    for i, (label, value, colour) in enumerate(bars):
        h = 0 if top <= 0 else plot_h * min(value, top) / top
        x = 6 + i * slot
        text = f"{100 * value:.0f}%" if percent else _fmt(value)
        body.append(f'<rect x="{x + slot * 0.12:.1f}" y="{TOP + plot_h - h:.1f}" width="{slot * 0.76:.1f}" '
                    f'height="{h:.1f}" fill="{colour}"><title>{escape(label)}: {text}</title></rect>')
        if slot >= 22:
            body.append(f'<text x="{x + slot / 2:.1f}" y="{TOP + plot_h - h - 3:.1f}" text-anchor="middle" '
                        f'fill="#333">{text}</text>')
        if i % step == 0:
            body.append(f'<text x="{x + slot / 2:.1f}" y="{height - 8}" text-anchor="middle" fill="#444">'
                        f"{escape(label)}</text>")
    if reference is not None and top > 0:
        y = TOP + plot_h - plot_h * min(reference, top) / top
        body.append(f'<line x1="6" x2="{WIDTH - 6}" y1="{y:.1f}" y2="{y:.1f}" stroke="#333" stroke-dasharray="4 3">'
                    f"<title>{escape(reference_title)}</title></line>")
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-size="{FONT}" font-family="system-ui, sans-serif">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def hbars(bars: Sequence[tuple[str, float, str, str]], *, title: str, x_max: float = 1.0) -> str:
    """Horizontal bars: (label, value 0..x_max, colour, text shown after the bar)."""
    row = 20
    height = TOP + row * max(len(bars), 1) + 6
    label_w = 78
    plot_w = WIDTH - label_w - 70
    body = []
    for i, (label, value, colour, text) in enumerate(bars):
        y = TOP + i * row
        w = 0 if x_max <= 0 else plot_w * max(0.0, min(value, x_max)) / x_max
        body.append(f'<text x="{label_w - 4}" y="{y + 13}" text-anchor="end" fill="#333">{escape(label)}</text>')
        body.append(f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 6}" fill="{colour}" '
                    f'stroke="#555" stroke-width="0.5"><title>{escape(label)}: {escape(text)}</title></rect>')
        body.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 13}" fill="#333">{escape(text)}</text>')
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg" font-size="{FONT}" font-family="system-ui, sans-serif">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )
