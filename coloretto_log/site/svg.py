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

__all__ = ["PALETTE", "Line", "form", "hbars", "lines", "month_starts", "vbars"]

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


def _frame(title: str, body: list[str], *, label: str, width: int = WIDTH, height: int = HEIGHT, css: str = "chart",
           fixed: bool = False) -> str:
    """The ``<svg>`` around ``body``; ``fixed``: drawn at its own size in pixels (its text sized by the body)."""
    sized = f' width="{width}" height="{height}"' if fixed else ""
    font = "" if fixed else f' font-size="{FONT}"'
    return (
        f'<svg class="{css}" viewBox="0 0 {width} {height}"{sized} role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg"{font} font-family="system-ui, sans-serif">'
        f"<title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _date_label(day: _dt.date, span_days: int) -> str:
    return day.strftime("%Y-%m") if span_days > 90 else day.strftime("%m-%d")


#: The most month labels an axis shows (each "2026-03" is about 40 of the chart's 360 units wide).
MONTH_LABELS = 6


def month_starts(first: _dt.date, last: _dt.date) -> list[_dt.date]:
    """The first days of the months from ``first`` to ``last`` (inclusive) that an axis labels: every month,
    or every 2nd, 3rd, 6th or 12th (counted from January) when there are more than :data:`MONTH_LABELS`."""
    starts = []
    year, month = first.year, first.month
    if first.day != 1:  # the next month's first day
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    while (day := _dt.date(year, month, 1)) <= last:
        starts.append(day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    for step in (1, 2, 3, 6, 12, 24, 60):
        kept = [d for d in starts if (d.year * 12 + d.month - 1) % step == 0]
        if len(kept) <= MONTH_LABELS:
            return kept
    return kept


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
    starts = month_starts(_dt.date.fromordinal(math.ceil(x0)), _dt.date.fromordinal(int(x1))) if dates else []
    if len(starts) >= 2:  # labelled at month starts, a tick on each
        for day in starts:
            x = px(day.toordinal())
            centre = min(max(x, LEFT + 20), WIDTH - RIGHT - 20)  # a label (about 40 wide) stays inside the chart
            body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 4}" stroke="#999"/>')
            body.append(f'<text x="{centre:.1f}" y="{HEIGHT - 8}" text-anchor="middle" fill="#444">'
                        f'{day.strftime("%Y-%m")}</text>')
    elif dates:  # less than two month starts: the first and last days
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
    marks: Sequence[float] = (),
) -> str:
    """Vertical bars (label under each, value over it, colour); a dashed ``reference`` line across, titled
    ``reference_title``; or, with ``marks``, a dashed mark over each bar at its own reference value."""
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
    for i, mark in enumerate(marks):
        if top > 0:
            x, y = 6 + i * slot, TOP + plot_h - plot_h * min(mark, top) / top
            body.append(f'<line x1="{x + slot * 0.04:.1f}" x2="{x + slot * 0.96:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                        f'stroke="#333" stroke-width="1.5" stroke-dasharray="3 2"><title>{escape(reference_title)}'
                        "</title></line>")
    if reference is not None and top > 0:
        y = TOP + plot_h - plot_h * min(reference, top) / top
        body.append(f'<line x1="6" x2="{WIDTH - 6}" y1="{y:.1f}" y2="{y:.1f}" stroke="#333" stroke-dasharray="4 3">'
                    f"<title>{escape(reference_title)}</title></line>")
    return _frame(title, body, label=title, height=height)


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
    return _frame(title, body, label=title, height=height)


def form(places: Sequence[tuple[int, int]], *, title: str, labels: Sequence[str], size: int = 30) -> str:
    """A row of squares, oldest first: each game's place (of its table's size), a win in green, the lower
    places lighter; ``labels`` is each square's title."""
    gap = max(2, size // 8)
    width = max(len(places), 1) * (size + gap)
    body = []
    for i, ((place, n), label) in enumerate(zip(places, labels)):
        x = i * (size + gap)
        shade = "#23883a" if place == 1 else ("#8a96a3", "#aeb8c2", "#cfd6dd", "#e3e8ec")[min(place - 2, 3)]
        ink = "#fff" if place <= 2 else "#1d1d1f"
        body.append(f'<rect x="{x}" y="0" width="{size}" height="{size}" rx="4" fill="{shade}">'
                    f"<title>{escape(label)}</title></rect>")
        body.append(f'<text x="{x + size / 2}" y="{size / 2 + size / 6:.1f}" text-anchor="middle" font-size="{size // 2}" '
                    f'font-weight="600" fill="{ink}">{place}</text>')
    return _frame(title, body, label=title, width=width, height=size, css="form", fixed=True)
