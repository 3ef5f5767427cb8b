"""sample_logs/: valid logs validate cleanly, invalid ones fail with exactly their finding, and the
generator (tests/make_sample_logs.py) writes exactly the committed files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coloretto_log.core.cards import KIND_INDEX, KINDS
from coloretto_log.log.load import LoadedMatch, load
from coloretto_log.log.replay import check_match

from .. import make_sample_logs
from ..conftest import INVALID, ROOT, SAMPLES

#: Every valid sample (file name -> matches in it). sample_logs/README.md lists the same.
VALID = {
    "classic-4p-recorded-match-with-claims.json": 1,
    "classic-3p-seeded-match.json": 1,
    "classic-2p-recorded-game.json": 1,
    "anniversary-4p-golden-joker.json": 1,
    "anniversary-3p-golden-joker-after-last-round-card.json": 1,
    "alternative-table-4p-deck-seeded-game.json": 1,
    "5p-seeded-games.jsonl": 2,
}

#: Every invalid sample: (file, rule id, game, move). sample_logs/README.md lists the same.
EXPECTED: list[tuple[str, str, int | None, int | None]] = [
    ("bad-action.json", "bad-action", 1, 41),
    ("bad-deck.json", "bad-deck", 1, None),
    ("bad-encoding.json", "bad-encoding", None, None),
    ("bad-first.json", "bad-first", 1, None),
    ("bad-format.json", "bad-format", None, None),
    ("bad-json.json", "bad-json", None, None),
    ("bad-player-name.json", "bad-player-name", None, None),
    ("bad-removed.json", "bad-removed", 1, None),
    ("bad-seed.json", "bad-seed", None, None),
    ("bad-starting.json", "bad-starting", 1, None),
    ("bad-type.json", "bad-type", 1, 27),
    ("bad-value.json", "bad-value", None, None),
    ("bad-version.json", "bad-version", None, None),
    ("card-mismatch.json", "card-mismatch", 1, 12),
    ("deck-empty.json", "deck-empty", 1, 103),
    ("duplicate-player.json", "duplicate-player", None, None),
    ("game-over.json", "game-over", 1, 94),
    ("impossible-card.json", "impossible-card", 1, 74),
    ("incomplete-game.json", "incomplete-game", 1, None),
    ("missing-card.json", "missing-card", 1, 14),
    ("missing-extra.json", "missing-extra", 1, 9),
    ("missing-field.json", "missing-field", 1, None),
    ("must-take.json", "must-take", 1, 13),
    ("not-your-turn.json", "not-your-turn", 1, 1),
    ("not-your-turn-after-taking.json", "not-your-turn", 1, 7),
    ("player-count.json", "player-count", None, None),
    ("row-empty.json", "row-empty", 1, 1),
    ("row-full.json", "row-full", 1, 36),
    ("row-taken.json", "row-taken", 1, 6),
    ("too-many-games.json", "too-many-games", 2, None),
    ("unexpected-extra.json", "unexpected-extra", 1, 5),
    ("unknown-field.json", "unknown-field", 1, 5),
    ("unknown-player.json", "unknown-player", 1, 14),
    ("unknown-row.json", "unknown-row", 1, 1),
]


def _matches(path: Path) -> list[LoadedMatch]:
    items = list(load([str(path)]))
    assert all(isinstance(i, LoadedMatch) for i in items)
    return [i for i in items if isinstance(i, LoadedMatch)]


def _where(game: int | None, move: int | None) -> str:
    if game is None:
        return ""
    return f"game {game}: " if move is None else f"game {game}, move {move}: "


# --------------------------------------------------------------------------- valid samples


def test_the_valid_samples_are_the_listed_ones() -> None:
    on_disk = {p.name for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl")}
    assert on_disk == set(VALID)


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_sample(name: str) -> None:
    matches = _matches(SAMPLES / name)
    assert len(matches) == VALID[name]
    for m in matches:
        assert m.findings() == [], [f.line(m.label) for f in m.findings()]
        report = m.report
        assert report.valid and report.complete  # every planned game is there and finished
        assert report.games and all(g.complete for g in report.games)


def test_the_four_game_match_has_claims_in_every_game_and_they_agree() -> None:
    data = json.loads((SAMPLES / "classic-4p-recorded-match-with-claims.json").read_text(encoding="utf-8"))
    assert data["rules"] == {"edition": "classic", "scoring": "standard", "games": 4} and len(data["players"]) == 4
    assert len(data["games"]) == 4 and all(g.get("claims") for g in data["games"])
    assert "seed" not in data and all("deck" not in g["setup"] for g in data["games"])  # recorded
    assert all("card" in m for g in data["games"] for m in g["moves"] if m["action"] == "draw")
    claimed = [c for g in data["games"] for c in g["claims"].values()]
    assert any("score" in c for c in claimed) and any("jokers" in c for c in claimed)
    assert check_match(data).all_findings() == []


def test_the_seeded_match_holds_only_decisions() -> None:
    data = json.loads((SAMPLES / "classic-3p-seeded-match.json").read_text(encoding="utf-8"))
    assert isinstance(data["seed"], int) and len(data["players"]) == 3
    for game in data["games"]:
        assert "setup" not in game
        assert all(set(m) == {"player", "action", "row"} for m in game["moves"])


def test_two_player_sample_hand_checked() -> None:
    # Worked through by hand from the log (docs/rules-of-play.md §7): round 1 ends with Aiko taking row 1 after
    # Boris took row 3; row 2 (brown, orange) is removed; Aiko starts round 2.
    data = json.loads((SAMPLES / "classic-2p-recorded-game.json").read_text(encoding="utf-8"))
    report = check_match(data)
    states = list(report.games[0].states())
    after_round_1 = states[7]
    assert after_round_1.round == 2 and after_round_1.current == 0
    assert after_round_1.discarded[KIND_INDEX["brown"]] == 1 and after_round_1.discarded[KIND_INDEX["orange"]] == 1
    # The last-round card comes out as card 40 of 55 (54 cards, 15 under it): move 56.
    assert data["games"][0]["moves"][55]["last_round"] is True
    final = report.games[0].final
    assert final is not None and final.over
    held = {name: {k: n for k, n in zip(KINDS, final.collections[seat]) if n} for seat, name in enumerate(data["players"])}
    assert held == {
        "Aiko": {"orange": 1, "blue": 2, "brown": 3, "yellow": 5, "red": 5, "joker": 2, "plus2": 2},
        "Boris": {"orange": 4, "blue": 3, "brown": 2, "yellow": 1, "plus2": 5},
    }
    # Aiko: jokers to yellow and red (6 each: 21 + 21), brown 6; blue -3, orange -1; +4 = 48.
    # Boris: orange 10, blue 6, brown 3; yellow -1; +10 = 28.
    assert data["games"][0]["claims"]["Aiko"] == {"score": 48, "jokers": ["yellow", "red"], "positive": ["brown", "yellow", "red"]}
    assert data["games"][0]["claims"]["Boris"] == {"score": 28}


def test_golden_joker_samples_hand_checked() -> None:
    data = json.loads((SAMPLES / "anniversary-4p-golden-joker.json").read_text(encoding="utf-8"))
    moves = data["games"][0]["moves"]
    # Dae put the golden joker in row 3 at move 4, Chloe a red at move 7; Aiko takes row 3 at move 9.
    assert moves[3] == {"player": "Dae", "action": "draw", "row": 3, "card": "golden_joker"}
    assert moves[8] == {"player": "Aiko", "action": "take", "row": 3, "extra": "orange"}

    data = json.loads((SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json").read_text(encoding="utf-8"))
    moves = data["games"][0]["moves"]
    # 3 players, anniversary: 6 colours x 9 - 3 starting + 2 jokers + golden + 10 "+2" = 64 cards; 16 under
    # the last-round card, so it is card 49, and 48 cards came out before move 68.
    turned = sum(1 for m in moves[:67] if m["action"] == "draw" or "extra" in m)
    assert turned == 48
    assert moves[67] == {"player": "Boris", "action": "take", "row": 3, "extra": "orange", "last_round": True}
    # After it Aiko, the last player in the round, draws and takes; the game ends with that round.
    assert [m["player"] for m in moves[68:]] == ["Aiko", "Aiko"] and moves[-1]["action"] == "take"
    final = check_match(data).games[0].final
    assert final is not None and final.over and final.cards_left == 14


def test_alternative_table_sample_hand_checked() -> None:
    data = json.loads((SAMPLES / "alternative-table-4p-deck-seeded-game.json").read_text(encoding="utf-8"))
    assert data["rules"]["scoring"] == "alternative" and "seed" not in data and "deck" in data["games"][0]["setup"]
    final = check_match(data).games[0].final
    assert final is not None
    held = {k: n for k, n in zip(KINDS, final.collections[0]) if n}
    assert held == {"orange": 1, "yellow": 3, "grey": 3, "green": 5, "red": 3, "joker": 2, "plus2": 2}
    # Alternative table 1 4 8 7 6 5: yellow, grey, red 8 each; green 5 + 2 jokers = 7 -> -5 (not -6);
    # orange -1; +4: 24 - 5 - 1 + 4 = 22.
    assert data["games"][0]["claims"]["Aiko"] == {"score": 22, "jokers": ["green", "green"], "positive": ["yellow", "grey", "red"]}


# --------------------------------------------------------------------------- invalid samples


def test_every_invalid_sample_is_listed() -> None:
    assert {p.name for p in INVALID.iterdir()} == {name for name, *_ in EXPECTED}


@pytest.mark.parametrize(("name", "rule", "game", "move"), EXPECTED, ids=[e[0] for e in EXPECTED])
def test_invalid_sample(name: str, rule: str, game: int | None, move: int | None) -> None:
    (m,) = _matches(INVALID / name)
    assert [(f.severity, f.rule, f.game, f.move) for f in m.findings()] == [("error", rule, game, move)]
    assert not m.report.valid
    assert m.findings()[0].line(m.label).startswith(f"{INVALID / name}: {_where(game, move)}error [{rule}] ")


def test_readme_lists_every_sample_with_its_finding() -> None:
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line for line in readme.splitlines() if line.startswith("| `")}
    for name in VALID:
        assert name in rows
    for name, rule, game, move in EXPECTED:
        assert f"`{_where(game, move)}error [{rule}]`" in rows[f"../tests/data/invalid/{name}"], name
    typed = [name for name in rows if name.endswith(".typed.txt")]  # what a scorekeeper types: not a log
    assert typed == ["classic-2p-recorded-game.typed.txt"]
    assert len(rows) == len(VALID) + len(EXPECTED) + len(typed)


# --------------------------------------------------------------------------- the generator


def test_the_generator_writes_exactly_the_committed_files() -> None:
    generated = make_sample_logs.files()
    on_disk = {
        p.relative_to(ROOT).as_posix(): p.read_bytes()
        for folder in (SAMPLES, INVALID)
        for p in folder.rglob("*")
        if p.is_file() and p.name != "README.md"
    }
    assert sorted(generated) == sorted(on_disk)
    for name, raw in generated.items():
        assert raw == on_disk[name], f"{name} differs from what tests/make_sample_logs.py writes"


# --------------------------------------------------------------------------- the copy shipped in the package


def test_the_package_ships_the_samples_byte_for_byte() -> None:
    """``coloretto-log samples`` writes what a clone has in sample_logs/ (tests/make_sample_logs.py writes both)."""
    from coloretto_log.log.samples import sample_files

    shipped = sample_files()
    on_disk = {p.name: p.read_bytes() for p in sorted(SAMPLES.iterdir()) if p.is_file()}
    assert sorted(shipped) == sorted(on_disk) and "README.md" in shipped
    for name, raw in on_disk.items():
        assert shipped[name] == raw, f"coloretto_log/log/sample_logs/{name} differs from sample_logs/{name}"
