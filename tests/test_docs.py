"""The documentation holds: the worked example validates, the golden values are the code's, every link
resolves inside the repository, and nothing points to files a clone does not have."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coloretto_log import check_match, deal
from coloretto_log.core.engine import Draw
from coloretto_log.core.rng import SplitMix64, game_generator
from coloretto_log.core.ruleset import RuleSet

from .builders.docs import worked_example
from .conftest import ROOT

DOCS = ROOT / "docs"
FORMAT = DOCS / "format.md"
RULES_OF_PLAY = DOCS / "rules-of-play.md"


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the worked example (docs/format.md §6)


def test_the_worked_example_is_a_complete_valid_log_with_no_finding() -> None:
    report = check_match(json.loads(worked_example()))
    assert report.all_findings() == []
    assert report.valid and report.complete


def test_the_worked_example_plays_as_the_page_tells_it() -> None:
    [game] = check_match(json.loads(worked_example())).games
    cards = [m.card for m in game.moves if isinstance(m, Draw)]
    assert cards == ["orange", "red", "red", "yellow", "brown", "joker"]  # the page's move table
    assert [m.last_round for m in game.moves if isinstance(m, Draw)] == [True] + [False] * 5
    assert game.final is not None and game.final.round == 1 and game.final.over
    assert [v.optimal.score for v in game.verdicts()] == [3, 3, 2, 4]  # Aiko, Boris, Chloe, Dae
    assert all(v.agrees for v in game.verdicts())


def test_the_worked_example_validates_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "worked-example.json"
    path.write_text(worked_example(), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "coloretto_log", "validate", str(path)], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "error" not in out.stdout.replace("0 errors", "") and "0 warnings" in out.stdout


# --------------------------------------------------------------------------- golden values and section numbers


def test_the_golden_values_on_the_page_are_the_codes() -> None:
    text = read(FORMAT)
    zero = SplitMix64(0)
    for _ in range(3):
        assert f"0x{zero.next():016X}" in text
    assert f"0x{SplitMix64(1).next():016X}" in text
    assert str(SplitMix64(1).shuffle(range(10))) in text
    start = game_generator(42, 0).state
    assert f"0x{start:016X}" in text and str(start) in text
    assert f"0x{game_generator(42, 1).state:016X}" in text
    setup = deal(4, 42)
    assert setup.deck is not None
    assert "`" + " ".join(setup.deck[:10]) + "`" in text
    assert f"element {setup.deck.index('last_round')}" in text
    vectors = json.loads(read(ROOT / "tests" / "vectors" / "seeded-setups.json"))
    assert f"{len(vectors)} entries" in text


def test_the_largest_under_last_round_on_the_page_is_the_codes() -> None:
    from coloretto_log.core.ruleset import EDITIONS, max_under_last_round

    row = next(line for line in read(FORMAT).splitlines() if line.startswith("| cards in the deck"))
    shown = [int(cell) for cell in row.strip("|").split("|")[1:]]
    for edition in EDITIONS.values():
        assert shown == [max_under_last_round(edition, players) for players in (2, 3, 4, 5)]
    assert RuleSet().under == 15 and RuleSet.of(edition="anniversary").under == 16


#: Code comments and help texts cite these sections by number: the numbers keep their topics.
SECTIONS = {
    FORMAT: ["1. The match", "2. A game", "3. What validation reports", "4. Seeded decks"],
    RULES_OF_PLAY: [
        "1. Components", "2. Setup (3 to 5 players)", "3. A turn", "4. Rounds and the end of the game",
        "5. Scoring", "6. The match", "7. Two players", "8. Facts that follow (and make good tests)",
    ],
}


@pytest.mark.parametrize("page", list(SECTIONS), ids=lambda p: p.name)
def test_the_section_numbers_keep_their_topics(page: Path) -> None:
    headings = re.findall(r"^## (\d+\. .*)$", read(page), flags=re.MULTILINE)
    assert headings[: len(SECTIONS[page])] == SECTIONS[page]


def rule_ids_of_table(text: str) -> set[str]:
    ids: set[str] = set()
    for line in text.splitlines():
        cells = line.split("|")
        if line.startswith("| `") and len(cells) > 3:
            ids.update(re.findall(r"`([a-z0-9-]+)`", cells[1]))
    return ids


def test_the_rule_ids_page_lists_the_ids_of_the_format() -> None:
    in_format = {i for i in rule_ids_of_table(read(FORMAT)) if "-" in i}
    listed = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", read(DOCS / "rules.md")))
    assert in_format and listed == in_format


# --------------------------------------------------------------------------- references stay inside the repository

#: Places a clone does not have: the folder beside the project, and the files that lived there.
OUTSIDE = tuple(
    "".join(parts)
    for parts in (("..", "/shared"), ("LOG_FORMAT", ".md"), ("RULES", ".md"), ("STYLE", ".md"),
                  ("shared", "/examples"), ("seeds", "/"))
)
#: Everything a user or a contributor reads: code (help texts, messages, comments), docs, schema, samples, tests.
SCANNED = ("coloretto_log", "docs", "schemas", "sample_logs", "tests", "benchmarks", ".ci", "README.md")


def repository_files() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--", *SCANNED], cwd=ROOT, capture_output=True, check=True
        ).stdout.decode()
        files = [ROOT / name for name in out.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the folders
        files = [p for name in SCANNED for p in ([ROOT / name] if (ROOT / name).is_file() else (ROOT / name).rglob("*"))]
    return [p for p in files if p.is_file() and "__pycache__" not in p.parts]


def test_nothing_points_outside_the_repository() -> None:
    files = repository_files()
    assert len(files) > 50 and ROOT / "README.md" in files
    found = []
    for path in files:
        for number, line in enumerate(path.read_bytes().decode("utf-8", "replace").splitlines(), 1):
            for ref in OUTSIDE:
                if ref in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {ref}")
    assert not found, "references to files a clone does not have:\n" + "\n".join(found)


def markdown_pages() -> list[Path]:
    """Every page a reader follows links in: the README, the samples' list and everything under docs/."""
    return [ROOT / "README.md", ROOT / "sample_logs" / "README.md", *sorted(DOCS.rglob("*.md"))]


def github_anchor(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {github_anchor(h) for h in re.findall(r"^#+ (.*)$", read(page), flags=re.MULTILINE)}


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", read(page)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path_part, _, anchor = target.partition("#")
        resolved = (page.parent / path_part).resolve() if path_part else page
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(f"{target}: no such file in the repository")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


# --------------------------------------------------------------------------- two points of §3, checked


def _tiny_two_player(moves: int, claims: dict[str, object]) -> dict[str, object]:
    draw = {"action": "draw"}
    played = [
        {"player": "Aiko", **draw, "row": 3, "card": "green", "last_round": True},
        {"player": "Boris", **draw, "row": 3, "card": "joker"},
        {"player": "Aiko", "action": "take", "row": 3},
        {"player": "Boris", **draw, "row": 2, "card": "plus2"},
        {"player": "Boris", "action": "take", "row": 2},
    ]
    return {
        "format": "coloretto-log", "version": 1, "players": ["Aiko", "Boris"],
        "rules": {"games": 1, "under_last_round": 54},
        "games": [{
            "setup": {"removed": ["grey", "red"], "starting": {"Aiko": ["orange", "blue"], "Boris": ["brown", "yellow"]},
                      "first": "Aiko"},
            "moves": played[:moves],
            "claims": claims,
        }],
    }


def test_the_tiny_game_used_below_is_valid() -> None:
    assert check_match(_tiny_two_player(5, {"Aiko": {"score": 5}, "Boris": {"score": 4}})).all_findings() == []


def test_claims_naming_a_stranger_are_reported_on_an_unfinished_game() -> None:
    rules = [f.rule for f in check_match(_tiny_two_player(4, {"Zoe": {"score": 1}})).all_findings()]
    assert "unknown-player" in rules


def test_a_miscounted_score_with_an_optimal_choice_is_claim_score_alone() -> None:
    claim = {"Aiko": {"score": 6, "jokers": ["orange"], "positive": ["orange", "blue", "green"]}}
    rules = [f.rule for f in check_match(_tiny_two_player(5, claim)).all_findings()]
    assert rules == ["claim-score"]


def test_the_examples_of_sections_1_and_2_make_a_log_that_is_valid_so_far() -> None:
    blocks = re.findall(r"```json\n(.*?)\n```", read(FORMAT), flags=re.DOTALL)
    match, game = (json.loads(b) for b in blocks[:2])
    assert set(match) >= {"format", "version", "id", "date", "rules", "players", "games", "notes"}
    report = check_match({**match, "games": [game]})
    assert [(f.severity, f.rule, f.game) for f in report.all_findings()] == [("warning", "incomplete-game", 1)]
