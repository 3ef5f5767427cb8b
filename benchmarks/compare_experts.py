"""Variants of ``expert`` at one table, head to head: bench_expert's seeded deals and rotated seats.

    python benchmarks/compare_experts.py GAMES SEED BOT [BOT ...]

Each ``BOT`` is a registered bot (``strong``, ``expert-mc``, ...) or a variant
of ``expert`` written ``LABEL=SAMPLES[/most:M][/blend:B][/mw:W][/replies:R][/by:P][@WEIGHTS]``:
``SAMPLES`` orders of the unseen cards a decision (``ExpertBot(samples=...)``),
optionally a race in batches of ``SAMPLES`` up to ``M`` orders (``most``), a
playout on to the end of the game weighing ``B`` beside the evaluator's value
at the end of the round (``blend``), a margin weight ``W`` in the objective
(``margin_weight``), the first ``R`` turns after the choice in each playout
played by ``P`` (``one-ply``, the default: the evaluator one decision deep;
``strong``) instead of ``greedy`` (``replies``, ``by``), on the evaluator's weights in the JSON file ``WEIGHTS``
(default: the shipped ones). Unset settings are ``ExpertBot``'s defaults: since
round 4 of docs/design/evaluator.md one turn by ``strong`` (``replies:1``,
``by:strong``), so the expert of rounds 1 to 3 is ``LABEL=32/replies:0``.
``GAMES`` is a multiple of the seats. Deals, seats and generators are
``bench_expert.py``'s (one process); it prints its report and then every
pair's points difference in the same games (mean and 95% interval). For
example, the race measured in docs/design/evaluator.md::

    python benchmarks/compare_experts.py 60 11 race=32/most:256 e32=32 strong
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_expert as be

from coloretto_log.bots.evaluate.model import model_from_json
from coloretto_log.bots.expert import ExpertBot
from coloretto_log.bots.players import BOTS, Bot, make_bot

VARIANTS: dict[str, dict[str, Any]] = {}
#: The settings a variant may name, and the ``ExpertBot`` argument each sets.
SETTINGS = {"most": "most", "blend": "blend", "mw": "margin_weight", "replies": "replies", "by": "by"}


def bot_of(name: str, samples: int | None) -> Bot:
    return ExpertBot(**VARIANTS[name]) if name in VARIANTS else make_bot(name)


def parse(spec: str) -> str:
    """A bot's label; a variant's settings go to ``VARIANTS``."""
    if "=" not in spec:
        if spec not in BOTS:
            raise SystemExit(f"{spec!r}: not a bot (known: {', '.join(BOTS)}) nor LABEL=SAMPLES[/most:M][/blend:B][/mw:W][/replies:R][/by:P][@WEIGHTS]")
        return spec
    label, rest = spec.split("=", 1)
    settings: dict[str, Any] = {}
    if "@" in rest:
        rest, path = rest.split("@", 1)
        settings["model"] = model_from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    samples, *extra = rest.split("/")
    settings["samples"] = int(samples)
    for item in extra:
        key, _, value = item.partition(":")
        if key not in SETTINGS:
            raise SystemExit(f"{spec!r}: unknown setting {key!r} ({', '.join(SETTINGS)})")
        settings[SETTINGS[key]] = (int(value) if key in ("most", "replies") else value if key == "by"
                                   else float(value))
    VARIANTS[label] = settings
    return label


def main() -> None:
    if len(sys.argv) < 5 or "-h" in sys.argv or "--help" in sys.argv:
        raise SystemExit(__doc__)
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    names = tuple(parse(a) for a in sys.argv[3:])
    be.bot_of = bot_of  # the deals are played in this process (jobs 1), so the variants are seen
    table = be.run(names, games, seed, 1, None)
    be.report(table)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            mean, half = table.difference(a, b)
            print(f"{a}'s points less {b}'s in the same game: {mean:+.2f} ± {half:.2f}")


if __name__ == "__main__":
    main()
