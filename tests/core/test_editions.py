"""Editions are one table (core/editions.py): a made-up edition added there is accepted everywhere.

The edition is added in a fresh interpreter (the package builds its tables
once, at import), so nothing leaks into the other tests. The interpreter
runs every surface a person or a program touches and reports what it saw as
JSON; the assertions are here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from coloretto_log.core import editions
from coloretto_log.core.cards import CARD_HEX, CARD_KINDS, KINDS, SHORT_LABELS
from coloretto_log.core.ruleset import EDITIONS

from ..conftest import ROOT

#: The one place the made-up edition is added: a new colour with its label, aliases and colours,
#: fewer "+2" cards and a different number under the last-round card.
ADD_TRAVEL = """
from coloretto_log.core.editions import CardKind, Edition, add_edition

add_edition(
    Edition("travel", ("orange", "blue", "yellow", "green", "red", "purple", "pink"),
            jokers=2, golden_jokers=1, plus2=6, under_last_round=14),
    (CardKind("pink", "pk", "pi", ("pk", "pi", "rose"), "#f06fb4", "#000"),),
)
"""

SURFACES = r'''
import json, sys
from pathlib import Path
from typer.testing import CliRunner

import coloretto_log
from coloretto_log.cli import app
from coloretto_log.log import models
from coloretto_log.view.terminal import card_text

work = Path(sys.argv[1])
out = {}
runner = CliRunner()


def run(name, *args, input=None):
    r = runner.invoke(app, list(args), input=input)
    out[name] = {"code": r.exit_code, "output": r.output}
    return r


def record_lines(log):
    lines = []
    for game in log["games"]:
        setup = game["setup"]
        if setup.get("removed"):
            lines.append(" ".join(setup["removed"]))
        for name in log["players"]:
            lines.append(", ".join(setup["starting"][name]))
        lines.append(setup["first"])
        for move in game["moves"]:
            last = " l" if move.get("last_round") else ""
            if move["action"] == "draw":
                lines.append(f"d{last} {move['card']} {move['row']}")
            elif "extra" in move:
                lines.append(f"t {move['row']}{last} {move['extra']}")
            else:
                lines.append(f"t {move['row']}")
        lines.extend("" for _ in log["players"])
    return lines


# the models and the schema
models.Rules.model_validate({"edition": "travel"})
schema = json.dumps(models.json_schema())
out["schema"] = {"travel": '"travel"' in schema, "pink": '"pink"' in schema}

# deal, simulate (seeded and recorded), the library's check_match
run("deal", "deal", "--seed", "7", "--player-count", "3", "--edition", "travel", "--format", "json")
run("simulate", "simulate", "-n", "3", "--seed", "5", "--edition", "travel", "--games", "2",
    "--out", str(work / "seeded.jsonl"))
run("simulate-recorded", "simulate", "-n", "2", "--seed", "6", "--edition", "travel", "--games", "1",
    "--recorded", "--out", str(work / "recorded.jsonl"))
seeded = [json.loads(line) for line in (work / "seeded.jsonl").read_text().splitlines()]
out["check_match"] = [
    {"edition": m["rules"]["edition"], "errors": [f.line("m") for f in coloretto_log.check_match(m).all_findings()]}
    for m in seeded
]

# validate, score (files and a hand), replay (the card's label)
run("validate", "validate", str(work / "seeded.jsonl"))
run("score", "score", str(work / "seeded.jsonl"), "--format", "json")
run("hand", "score", "--hand", "rose=5 gold=1 +2=2", "--edition", "travel", "--format", "json")
run("hand-bad", "score", "--hand", "grey=1", "--edition", "travel")
run("replay", "replay", str(work / "recorded.jsonl"), "--game", "1", "--move", "40")

# the recorder: every card typed as a person types it
recorded = json.loads((work / "recorded.jsonl").read_text().splitlines()[0])
run("record", "record", str(work / "kitchen.json"), "--players", ",".join(recorded["players"]),
    "--edition", "travel", "--games", "1", "--date", "2026-01-02",
    input="".join(f"{line}\n" for line in record_lines(recorded)))
kitchen = json.loads((work / "kitchen.json").read_text()) if (work / "kitchen.json").exists() else None
out["kitchen"] = None if kitchen is None else {
    "edition": kitchen["rules"]["edition"],
    "same_moves": kitchen["games"][0]["moves"] == recorded["games"][0]["moves"],
    "errors": [f.line("k") for f in coloretto_log.check_match(kitchen).all_findings()],
}

# the terminal's card
text = card_text("pink")
out["card"] = {"text": text.plain, "style": str(text.style)}

# the database: ingest, stats and ratings filtered by the edition
db = str(work / "club.duckdb")
run("ingest", "ingest", str(work / "seeded.jsonl"), str(work / "recorded.jsonl"), "--db", db)
run("stats", "stats", "--db", db, "--edition", "travel", "--format", "json")
run("ratings", "ratings", "--db", db, "--edition", "travel", "--format", "json")
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def travel(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("travel")
    script = textwrap.dedent(ADD_TRAVEL) + SURFACES
    done = subprocess.run(
        [sys.executable, "-c", script, str(work)], capture_output=True, text=True, cwd=ROOT, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _ok(result: dict[str, Any], name: str) -> dict[str, Any]:
    entry: dict[str, Any] = result[name]
    assert entry["code"] == 0, f"{name}: {entry['output'][-2000:]}"
    return entry


def test_the_models_and_the_schema_accept_it(travel: dict[str, Any]) -> None:
    assert travel["schema"] == {"travel": True, "pink": True}


def test_deal_deals_its_cards(travel: dict[str, Any]) -> None:
    dealt = json.loads(_ok(travel, "deal")["output"])
    assert dealt["edition"] == "travel" and len(dealt["removed"]) == 1
    cards = dealt["deck_top_first"] + [c for seat in dealt["starting_by_seat"] for c in seat]
    assert cards.count("plus2") == 6 and cards.count("golden_joker") == 1 and cards.count("joker") == 2
    assert cards.count("pink") == (0 if dealt["removed"] == ["pink"] else 9)
    assert "grey" not in cards and "brown" not in cards
    # 3 players: one of the 7 colours removed, 6 colours of 9 cards, 9 special cards, the last-round card
    assert len(cards) == 6 * 9 + 9 + 1
    assert cards.index("last_round") == len(dealt["deck_top_first"]) - 14 - 1


def test_seeded_logs_of_it_are_valid(travel: dict[str, Any]) -> None:
    _ok(travel, "simulate")
    assert travel["check_match"] and all(
        m == {"edition": "travel", "errors": []} for m in travel["check_match"]
    ), travel["check_match"]
    _ok(travel, "validate")
    scored = _ok(travel, "score")["output"]
    assert '"travel"' in scored


def test_the_hand_calculator_knows_its_colours(travel: dict[str, Any]) -> None:
    hand = json.loads(_ok(travel, "hand")["output"])
    assert hand["edition"] == "travel" and hand["cards"]["pink"] == 5
    assert travel["hand-bad"]["code"] == 2 and "travel" in travel["hand-bad"]["output"]


def test_the_recorder_takes_it_as_typed(travel: dict[str, Any]) -> None:
    _ok(travel, "simulate-recorded")
    _ok(travel, "record")
    assert travel["kitchen"] == {"edition": "travel", "same_moves": True, "errors": []}


def test_its_cards_show_with_label_and_colour(travel: dict[str, Any]) -> None:
    assert travel["card"] == {"text": " pk ", "style": "bold #000000 on #f06fb4"}
    assert "pink ×" in _ok(travel, "replay")["output"]


def test_the_database_filters_by_it(travel: dict[str, Any]) -> None:
    _ok(travel, "ingest")
    stats = json.loads(_ok(travel, "stats")["output"])
    assert stats["summary"]["matches"] == 5, stats["summary"]
    _ok(travel, "ratings")


def test_today_s_editions_come_from_the_table() -> None:
    assert tuple(EDITIONS) == editions.edition_names() == ("classic", "anniversary")
    assert editions.edition_choice() == "classic or anniversary"
    for kind in editions.CARD_TABLE:
        assert CARD_KINDS[kind.name] is kind and SHORT_LABELS[kind.name] == kind.label
        assert CARD_HEX[kind.name] == (kind.hex, kind.ink)
    assert KINDS[-3:] == ("joker", "golden_joker", "plus2")



def test_the_viewer_s_colours_are_the_table_s() -> None:
    from coloretto_log.view import html

    assert html.CARD_COLOURS == {k: v for k, v in CARD_HEX.items() if k != "last_round"}
    assert list(html.CARD_COLOURS) == [k for k in CARD_HEX if k != "last_round"]


def test_an_edition_comes_before_the_tables_are_built() -> None:
    with pytest.raises(RuntimeError, match="before importing"):
        editions.add_edition(editions.Edition("late", ("red",), 1, 0, 1, 15))
    assert "late" not in EDITIONS


def test_help_and_messages_name_every_edition() -> None:
    script = textwrap.dedent(ADD_TRAVEL) + textwrap.dedent(
        """
        from typer.testing import CliRunner
        from coloretto_log.cli import app
        r = CliRunner()
        for args in (["deal", "--help"], ["deal", "--seed", "1", "--player-count", "3", "--edition", "cruise"], ["stats", "--help"]):
            print(r.invoke(app, args).output)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    assert "classic, anniversary or travel" in flat
    assert "must be classic, anniversary or travel" in flat
    assert flat.count("classic, anniversary or travel") >= 3  # deal's help, its message and stats' help
