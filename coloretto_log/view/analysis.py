"""The analysis as one self-contained web page: a chart of every player's expected margin, the marks, every move.

``render_analysis(data)`` takes the JSON shape of ``analyze --json``
(docs/analyze.md) and returns the page: no script, no network, inline SVG
and CSS only, so it opens from disk and on a phone. Every text from the log
is escaped.
"""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["render_analysis"]

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
_MARK_COLOURS = {"inaccuracy": "#e6b800", "mistake": "#ff7f0e", "blunder": "#d62728"}
_W, _H, _PAD = 720, 240, 36

_CSS = """
body{font-family:system-ui,sans-serif;margin:1rem;max-width:60rem;color:#222}
h1{font-size:1.3rem}h2{font-size:1.1rem;margin-top:2rem}h3{font-size:1rem}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0}
td,th{padding:.15rem .5rem;text-align:left;border-bottom:1px solid #eee}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.forced{color:#999}
.inaccuracy{color:#a68500;font-weight:bold}.mistake{color:#d46a00;font-weight:bold}
.blunder{color:#d62728;font-weight:bold}
.legend span{margin-right:1rem}.note{color:#666;font-size:.85rem}
svg{max-width:100%;height:auto;border:1px solid #ddd;background:#fff}
"""


def render_analysis(data: dict[str, Any], *, title: str = "analysis") -> str:
    """The page for ``data`` (the ``analyze --json`` object)."""
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width,initial-scale=1'>",
        f"<title>{escape(title)} · analysis</title><style>{_CSS}</style></head><body>",
        f"<h1>Analysis of {escape(title)}</h1>",
        f"<p class='note'>{escape(_method(data))}</p>",
    ]
    for m in data["matches"]:
        parts.append(_match(m))
    parts.append("</body></html>")
    return "\n".join(parts)


def _method(data: dict[str, Any]) -> str:
    marks = ", ".join(f"{k} ≥ {t:g}" for k, t in sorted(data["thresholds"].items(), key=lambda kv: kv[1]))
    exact = f"; exact in the {data['exact']}" if data.get("exact") else ""
    return (
        f"Values: each player's expected final margin (own score less the mean of the others'), over up to "
        f"{data['samples']} sampled orders of the unseen cards per decision, every seat then playing as the "
        f"{data['policy']} bot{exact}; seed {data['seed']}. Marks when the loss less two standard errors "
        f"reaches: {marks} points."
    )


def _match(m: dict[str, Any]) -> str:
    players: list[str] = m["players"]
    label = m["file"] + (f":{m['line']}" if m.get("line") else "")
    out = [f"<h2>{escape(label)} (match {m['match']})</h2>"]
    games = sorted({d["game"] for d in m["decisions"]})
    for g in games:
        decisions = [d for d in m["decisions"] if d["game"] == g]
        out.append(f"<h3>Game {g}</h3>")
        out.append(_legend(players))
        out.append(_chart(decisions, players, g))
        out.append(_moves(decisions, g))
    out.append(_summary(m["summary"]))
    return "\n".join(out)


def _legend(players: list[str]) -> str:
    items = "".join(
        f"<span><svg width='14' height='4' style='border:0'><rect width='14' height='4' fill='{_COLOURS[i % 5]}'/>"
        f"</svg> {escape(p)}</span>"
        for i, p in enumerate(players)
    )
    marks = "".join(
        f"<span><svg width='10' height='10' style='border:0'><circle cx='5' cy='5' r='4' fill='{c}'/></svg> {k}</span>"
        for k, c in _MARK_COLOURS.items()
    )
    return f"<p class='legend'>{items}{marks}</p>"


def _chart(decisions: list[dict[str, Any]], players: list[str], game: int) -> str:
    points = [d for d in decisions if d["margins"]]
    if not points:
        return "<p class='note'>No decision with a choice to chart.</p>"
    last_move = max(d["move"] for d in decisions) or 1
    top = max(1.0, *(abs(v) for d in points for v in d["margins"].values()))
    top = float(int(top + 4.999) // 5 * 5)

    def x(move: float) -> float:
        return _PAD + (_W - 2 * _PAD) * move / last_move

    def y(v: float) -> float:
        return _H / 2 - (_H / 2 - 12) * v / top

    svg = [
        f"<svg viewBox='0 0 {_W} {_H}' role='img' aria-label='expected margin of every player over game {game}'>",
        f"<line x1='{_PAD}' x2='{_W - _PAD}' y1='{y(0):.1f}' y2='{y(0):.1f}' stroke='#999'/>",
    ]
    for v in (top, top / 2, -top / 2, -top):
        svg.append(
            f"<line x1='{_PAD}' x2='{_W - _PAD}' y1='{y(v):.1f}' y2='{y(v):.1f}' stroke='#eee'/>"
            f"<text x='2' y='{y(v) + 4:.1f}' font-size='10' fill='#666'>{v:+g}</text>"
        )
    svg.append(f"<text x='{_W - _PAD}' y='{_H - 2}' font-size='10' fill='#666' text-anchor='end'>move</text>")
    for i, p in enumerate(players):
        coords = " ".join(f"{x(d['move']):.1f},{y(d['margins'][p]):.1f}" for d in points if p in d["margins"])
        svg.append(f"<polyline fill='none' stroke='{_COLOURS[i % 5]}' stroke-width='1.5' points='{coords}'>"
                   f"<title>{escape(p)}</title></polyline>")
    for d in points:
        if not d["mark"]:
            continue
        p = d["player"]
        tip = f"move {d['move']}, {p}: {d['mark']}, played {d['played']}, best {d['best']}, loss {d['loss']:.1f}"
        svg.append(
            f"<a href='#g{game}-m{d['move']}-{_slug(d['decision'])}'><circle cx='{x(d['move']):.1f}' "
            f"cy='{y(d['margins'][p]):.1f}' r='4.5' fill='{_MARK_COLOURS[d['mark']]}' stroke='#fff'>"
            f"<title>{escape(tip)}</title></circle></a>"
        )
    svg.append("</svg>")
    return "".join(svg)


def _slug(decision: str) -> str:
    return "dt" if decision == "draw-or-take" else "row"


def _moves(decisions: list[dict[str, Any]], game: int) -> str:
    rows = [("<table><tr><th>move</th><th>player</th><th>decision</th><th>played</th><th>best</th>"
            "<th>loss</th><th>± se</th><th>margin</th><th>win played/best</th><th>mark</th></tr>")]
    for d in decisions:
        anchor = f"g{game}-m{d['move']}-{_slug(d['decision'])}"
        what = d["decision"] if d["card"] is None else f"row for {d['card']}"
        if d["forced"]:
            rows.append(
                f"<tr id='{anchor}' class='forced'><td class='n'>{d['move']}</td><td>{escape(d['player'])}</td>"
                f"<td>{escape(what)}</td><td>{escape(d['played'])}</td><td></td><td class='n'>0</td>"
                "<td></td><td></td><td></td><td>forced</td></tr>"
            )
            continue
        se = "exact" if d["exact"] else f"{d['loss_se']:.1f}"
        mark = d["mark"] or ""
        best = "" if d["best"] == d["played"] else d["best"]
        rows.append(
            f"<tr id='{anchor}'><td class='n'>{d['move']}</td><td>{escape(d['player'])}</td><td>{escape(what)}</td>"
            f"<td>{escape(d['played'])}</td><td>{escape(best)}</td><td class='n'>{d['loss']:.1f}</td>"
            f"<td class='n'>{se}</td><td class='n'>{d['margin_played']:+.1f}</td>"
            f"<td class='n'>{_pct(d['win_prob_played'])} / {_pct(d['win_prob_best'])}</td>"
            f"<td class='{mark}'>{mark}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.0f}%"


def _summary(summary: list[dict[str, Any]]) -> str:
    rows = [("<h3>Per player</h3><table><tr><th>player</th><th>decisions</th><th>forced</th><th>mean loss</th>"
            "<th>inaccuracies</th><th>mistakes</th><th>blunders</th><th>costliest</th></tr>")]
    for s in summary:
        if not s["decisions"] and not s["forced"]:
            continue
        costly = "; ".join(
            f"game {c['game']} move {c['move']}: {c['played']} for {c['best']} (−{c['loss']:.1f})"
            for c in s["costliest"]
        )
        rows.append(
            f"<tr><td>{escape(s['player'])}</td><td class='n'>{s['decisions']}</td><td class='n'>{s['forced']}</td>"
            f"<td class='n'>{s['mean_loss']:.2f}</td><td class='n'>{s['marks']['inaccuracy']}</td>"
            f"<td class='n'>{s['marks']['mistake']}</td><td class='n'>{s['marks']['blunder']}</td>"
            f"<td>{escape(costly)}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)
