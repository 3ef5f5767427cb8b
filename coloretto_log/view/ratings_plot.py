"""The ratings over time as a PNG: one line per player with its uncertainty band (matplotlib, an optional extra)."""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import one_line

__all__ = ["PlotUnavailable", "Series", "ratings_png"]


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


def ratings_png(series: Sequence[Series], *, title: str, xlabel: str) -> bytes:
    """The PNG's bytes: each player's rating as a line from their first game, ± its uncertainty as a light band.

    Drawn to be read on a phone as well as a screen: 8 × 6 inches at 150 dpi
    (1200 × 900 pixels), large type, the legend under the plot, each line
    ending in a dot and the band faint enough that six of them overlap
    without hiding the lines.
    """
    try:
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise PlotUnavailable(
            "--png needs matplotlib, which is not installed: pip install 'coloretto-log[plot]' (or pip install matplotlib)"
        ) from None
    with plt.rc_context({"font.size": 13}):
        fig, ax = plt.subplots(figsize=(8, 6))
        try:
            colours = plt.get_cmap("tab10")
            for i, s in enumerate(series):
                colour = colours(i % 10)
                ax.fill_between(s.x, s.low, s.high, color=colour, alpha=0.06, linewidth=0, step="post")
                label = one_line(s.name).replace("$", r"\$")  # a name is text, never mathtext
                ax.step(s.x, s.mean, where="post", color=colour, linewidth=2.0, label=label)
                ax.plot([s.x[-1]], [s.mean[-1]], "o", color=colour, markersize=5)
            ax.set_title(one_line(title).replace("$", r"\$"), fontsize=13)
            dated = bool(series and series[0].x and not isinstance(series[0].x[0], (int, float)))
            if not dated:  # days need no label, and the legend sits where it would be
                ax.set_xlabel(xlabel)
            ax.set_ylabel("rating (band: ± 2σ)")
            ax.grid(alpha=0.3)
            if series:
                ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16 if dated else -0.12), ncol=3, frameon=False)
            if dated:
                fig.autofmt_xdate()
            fig.tight_layout()
            out = io.BytesIO()
            fig.savefig(out, format="png", dpi=150)
            return out.getvalue()
        finally:
            plt.close(fig)
