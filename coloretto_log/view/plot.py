"""``stats --png``: the score histogram and the win rate by seat as one PNG (matplotlib, an optional extra)."""

from __future__ import annotations

import importlib
import io
import os
from pathlib import Path
from typing import Any

from ..log.atomic import atomic_write_bytes, write_problem

__all__ = ["PlotError", "PlotUnavailable", "PlotWriteError", "write_png"]


class PlotError(Exception):
    """The plot cannot be drawn or written; the message says why."""


class PlotWriteError(PlotError):
    """The plot was drawn but its file cannot be written (a full disk, say): exit 3, as every unwritable output."""


class PlotUnavailable(PlotError):
    """matplotlib is not installed (the command line adds how to install it, the way this copy was installed)."""


def write_png(data: dict[str, Any], path: Path) -> None:
    """The score histogram and win rate by seat as one PNG (matplotlib, an optional extra)."""
    try:
        matplotlib = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise PlotUnavailable("--png needs matplotlib, which is not installed") from None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    bins = data["histogram"]["bins"]
    width = data["histogram"]["width"]
    ax1.bar([b["low"] for b in bins], [b["count"] for b in bins], width=width * 0.9, align="edge", color="#3a7ca5")
    ax1.set_title("Scores")
    ax1.set_xlabel("score")
    ax1.set_ylabel("player-games")
    seats = data["seats"]
    labels = [f"{r['players']}p/{r['seat'] + 1}" for r in seats]  # seats from 1, as people count
    rates = [r["win_rate"]["rate"] or 0.0 for r in seats]
    errors = [
        [rate - r["win_rate"]["low"] for rate, r in zip(rates, seats)],
        [r["win_rate"]["high"] - rate for rate, r in zip(rates, seats)],
    ]
    ax2.bar(range(len(seats)), rates, yerr=errors, capsize=3, color="#6a994e")
    ax2.scatter(range(len(seats)), [r["expected"] for r in seats], marker="_", s=300, color="black", label="1/players")
    ax2.set_xticks(range(len(seats)), labels, rotation=45, ha="right")
    ax2.set_title("Win rate by seat (95% interval)")
    ax2.set_xlabel("players / seat")
    ax2.set_ylabel("win rate")
    ax2.legend()
    fig.tight_layout()
    image = io.BytesIO()
    try:
        fig.savefig(image, format="png", dpi=100)
    finally:
        plt.close(fig)
    try:
        atomic_write_bytes(Path(os.path.realpath(path)), image.getvalue())  # written whole, then renamed into place
    except OSError as e:
        raise PlotWriteError(write_problem(path, e)) from None
