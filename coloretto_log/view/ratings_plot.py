"""The ratings over time as a PNG: one line per player with its uncertainty band (matplotlib, an optional extra)."""

from __future__ import annotations

import datetime
import importlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import one_line

__all__ = ["BAND_ALPHA", "PlotUnavailable", "Series", "ratings_figure", "ratings_png"]


class PlotUnavailable(Exception):
    """matplotlib is not installed."""


@dataclass(frozen=True, slots=True)
class Series:
    """One player's line: x (a day, or a game's place in the rating order), mean and band on the rating scale."""

    name: str
    x: Sequence[object]
    mean: Sequence[float]  # the rating: BASE + SCALE * (mu - MU0)
    low: Sequence[float]  # the rating less its uncertainty (2 sigma on the rating scale)
    high: Sequence[float]  # the rating plus it


#: How strongly a player's ± 2σ band is coloured: visible on a phone, yet six of them overlap without hiding
#: the lines (0.06 before issue 30 was too pale to read); each band's edges are drawn thin as well.
BAND_ALPHA = 0.16


def ratings_png(series: Sequence[Series], *, title: str, xlabel: str, undated: Sequence[Series] = ()) -> bytes:
    """The PNG's bytes: each player's rating as a line from their first game, ± its uncertainty as a band.

    Drawn to be read on a phone as well as a screen: 8 × 6 inches at 150 dpi
    (1200 × 900 pixels), large type, the legend under the plot, each line
    ending in a dot. ``undated``: the same players' contests of undated
    matches (rated first), drawn in a panel of their own at the left by
    their place in the rating order, so that the dated season on the right
    keeps the whole width of its days (a long undated run of simulated
    matches no longer squeezes the club's evenings into a corner).
    """
    plt = _pyplot()
    with plt.rc_context({"font.size": 13}):
        fig = ratings_figure(plt, series, title=title, xlabel=xlabel, undated=undated)
        try:
            out = io.BytesIO()
            fig.savefig(out, format="png", dpi=150)
            return out.getvalue()
        finally:
            plt.close(fig)


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        return importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise PlotUnavailable(
            "--png needs matplotlib, which is not installed: pip install 'coloretto-log[plot]' (or pip install matplotlib)"
        ) from None


def ratings_figure(plt: Any, series: Sequence[Series], *, title: str, xlabel: str,
                   undated: Sequence[Series] = ()) -> Any:
    """The figure of ``ratings_png`` (one panel, or two: undated contests, then dated days)."""
    dated = bool(series and series[0].x and not isinstance(series[0].x[0], (int, float)))
    split = dated and any(s.x for s in undated)
    if split:
        fig, (left, ax) = plt.subplots(1, 2, figsize=(8, 6), sharey=True, gridspec_kw={"width_ratios": [1, 2]})
    else:
        fig, ax = plt.subplots(figsize=(8, 6))
    try:
        colours = plt.get_cmap("tab10")
        names = list(dict.fromkeys(s.name for s in (*series, *undated)))  # a player keeps one colour in both
        shown = {s.name for s in series}
        for s in series:
            _line(ax, s, colours(names.index(s.name) % 10), label=True)
        if split:
            for s in undated:
                if s.x:
                    _line(left, s, colours(names.index(s.name) % 10), label=s.name not in shown)
            left.set_title("undated matches", fontsize=11)
            left.set_xlabel("contest, in rating order", fontsize=11)
            left.grid(alpha=0.3)
            left.set_ylabel("rating (band: ± 2σ)")
            ax.set_title("dated matches", fontsize=11)
            fig.suptitle(one_line(title).replace("$", r"\$"), fontsize=13)
        else:
            ax.set_title(one_line(title).replace("$", r"\$"), fontsize=13)
            ax.set_ylabel("rating (band: ± 2σ)")
        if not dated:  # days need no label, and the legend sits where it would be
            ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)
        if series:
            handles, labels = ax.get_legend_handles_labels()
            if split:
                more = left.get_legend_handles_labels()
                handles, labels = handles + more[0], labels + more[1]
            ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5 if not split else 0.25, -0.16 if dated else -0.12),
                      ncol=3, frameon=False)
        if dated:  # the axis spans the season's days, a day either side of a season of one day
            days = [x for s in series for x in s.x]
            first, last = min(days), max(days)  # type: ignore[type-var]
            pad = datetime.timedelta(days=1 if first == last else 0)
            ax.set_xlim(first - pad, last + pad)  # type: ignore[operator]
            fig.autofmt_xdate()
        fig.tight_layout()
    except BaseException:
        plt.close(fig)
        raise
    return fig


def _line(ax: Any, s: Series, colour: Any, *, label: bool) -> None:
    """One player's rating as steps, its band and the band's edges, and a dot at its end."""
    ax.fill_between(s.x, s.low, s.high, color=colour, alpha=BAND_ALPHA, linewidth=0, step="post")
    for edge in (s.low, s.high):
        ax.step(s.x, edge, where="post", color=colour, linewidth=0.6, alpha=0.55)
    name = one_line(s.name).replace("$", r"\$")  # a name is text, never mathtext
    ax.step(s.x, s.mean, where="post", color=colour, linewidth=2.0, label=name if label else None)
    ax.plot([s.x[-1]], [s.mean[-1]], "o", color=colour, markersize=5)
