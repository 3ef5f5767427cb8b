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
    mean: Sequence[float]  # BASE + SCALE * mu
    low: Sequence[float]  # BASE + SCALE * (mu - 3 sigma): the displayed rating
    high: Sequence[float]  # BASE + SCALE * (mu + 3 sigma)


def ratings_png(series: Sequence[Series], *, title: str, xlabel: str) -> bytes:
    """The PNG's bytes: each player's mean as a line, mu ± 3 sigma as a band (its lower edge is the rating shown)."""
    try:
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise PlotUnavailable(
            "--png needs matplotlib, which is not installed: pip install 'coloretto-log[plot]' (or pip install matplotlib)"
        ) from None
    fig, ax = plt.subplots(figsize=(12, 5.5))
    try:
        colours = plt.get_cmap("tab10")
        for i, s in enumerate(series):
            colour = colours(i % 10)
            ax.fill_between(s.x, s.low, s.high, color=colour, alpha=0.07, linewidth=0, step="post")
            label = one_line(s.name).replace("$", r"\$")  # a name is text, never mathtext
            ax.step(s.x, s.mean, where="post", color=colour, linewidth=1.4, label=label)
        ax.set_title(one_line(title).replace("$", r"\$"))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("rating scale: 1000 + 40 × skill")
        ax.grid(alpha=0.3)
        if series:
            ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
        ax.text(
            1.01, 0.0, "line: mean (1000 + 40μ)\nband: ±3σ; its lower\nedge is the rating shown\nin the table",
            transform=ax.transAxes, fontsize="small", va="bottom",
        )
        if series and series[0].x and not isinstance(series[0].x[0], (int, float)):
            fig.autofmt_xdate()
        fig.tight_layout()
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=100)
        return out.getvalue()
    finally:
        plt.close(fig)
