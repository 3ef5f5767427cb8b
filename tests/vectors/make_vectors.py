"""Regenerate seeded-setups.json, the published test vectors of docs/format.md §4.

Run from the project root: python tests/vectors/make_vectors.py
Another program checks itself by dealing each entry and comparing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from coloretto_log.cli.deal import deal_json
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

SEEDS = (0, 1, 42, 20261129, 2**64 - 1)
PLAYERS = (2, 3, 4, 5)
EDITIONS = ("classic", "anniversary")
GAMES = (0, 1)
PATH = Path(__file__).with_name("seeded-setups.json")


def vectors() -> list[dict[str, object]]:
    out = []
    for seed in SEEDS:
        for edition in EDITIONS:
            for players in PLAYERS:
                for game in GAMES:
                    setup = seeded_setup(RuleSet.of(edition=edition), players, seed, game)
                    out.append(deal_json(setup, seed=seed, players=players, edition=edition, game=game))
    return out


def text() -> str:
    return json.dumps(vectors(), indent=1) + "\n"


if __name__ == "__main__":
    PATH.write_text(text(), encoding="utf-8")
    sys.stdout.write(f"wrote {PATH}\n")
