"""The public library API at the package top: its doctests, its promises, and the README's snippet."""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
from typing import Any

import pytest

import coloretto_log

from .conftest import ROOT, SAMPLES

README = ROOT / "README.md"
API_PAGE = ROOT / "docs" / "api.md"


def test_the_docstring_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples name files under sample_logs/, as a user in a clone would
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(coloretto_log) if t.examples]
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0
    documented = {t.name.rpartition(".")[2] for t in tests}
    functions = {name for name in coloretto_log.__all__ if callable(getattr(coloretto_log, name)) and name[0].islower()}
    assert functions <= documented, f"public functions without a doctest: {sorted(functions - documented)}"


def test_every_public_name_resolves() -> None:
    for name in coloretto_log.__all__:
        assert getattr(coloretto_log, name) is not None
    assert coloretto_log.IllegalMove.__name__ == "IllegalMove"
    with pytest.raises(AttributeError):
        coloretto_log.no_such_name  # noqa: B018


def test_no_public_name_is_shadowed_by_a_subpackage() -> None:
    # Importing coloretto_log.play (say) sets the package's attribute "play": a function of that name would vanish.
    subpackages = {p.name for p in (ROOT / "coloretto_log").iterdir() if (p / "__init__.py").is_file()}
    modules = {p.stem for p in (ROOT / "coloretto_log").glob("*.py")}
    assert set(coloretto_log.__all__) & (subpackages | modules) == set()


def test_importing_the_package_loads_nothing_heavy() -> None:
    # `coloretto-log --version` imports the package: the public API must not make it slower.
    code = (
        "import sys, coloretto_log\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('coloretto_log.') "
        "or m.split('.')[0] in ('pydantic', 'duckdb', 'pyarrow', 'rich', 'typer'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_check_match_takes_text_bytes_and_parsed_json_alike() -> None:
    text = (SAMPLES / "classic-3p-seeded-match.json").read_text(encoding="utf-8")
    lines = [
        [f.line("x") for f in coloretto_log.check_match(given).all_findings()]
        for given in (text, text.encode("utf-8"), json.loads(text))
    ]
    assert lines == [[], [], []]
    assert coloretto_log.check_match(text).valid
    broken = coloretto_log.check_match('{"format": "coloretto-log", "format": 1}')
    assert [(f.rule, f.severity) for f in broken.all_findings()] == [("bad-json", "error")]
    bom = coloretto_log.check_match(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert [f.rule for f in bom.all_findings()] == ["bad-encoding"]
    assert not broken.valid and not bom.valid


def test_score_match_of_parsed_json_equals_score_match_of_the_file() -> None:
    path = SAMPLES / "classic-4p-recorded-match-with-claims.json"
    [loaded] = coloretto_log.read_logs(path)
    from_file = coloretto_log.score_match(loaded).as_json()
    from_json = coloretto_log.score_match(json.loads(path.read_text(encoding="utf-8"))).as_json()
    from_file.pop("file"), from_json.pop("file")
    assert from_file == from_json


def test_an_invalid_match_is_not_scored() -> None:
    scored = coloretto_log.score_match({"format": "coloretto-log", "version": 1, "players": ["A"], "games": []})
    assert not scored.valid and scored.games == () and [f.rule for f in scored.findings] == ["player-count"]


def test_best_score_of_a_mapping_equals_the_typed_hand() -> None:
    typed = coloretto_log.best_score("orange=6 blue=3 brown=3 yellow=2 grey=1 joker=1 +2=2")
    mapped = coloretto_log.best_score({"orange": 6, "blue": 3, "brown": 3, "yellow": 2, "grey": 1, "joker": 1, "plus2": 2})
    assert typed.score == mapped.score == 37  # docs/rules-of-play.md §5, second worked example
    assert typed.optimal == mapped.optimal
    with pytest.raises(ValueError, match="joker"):
        coloretto_log.best_score("joker=4")


def test_deal_counts_games_from_1_and_agrees_with_the_published_vectors() -> None:
    vectors = json.loads((ROOT / "tests" / "vectors" / "seeded-setups.json").read_text(encoding="utf-8"))
    for v in vectors:
        setup = coloretto_log.deal(v["players"], v["seed"], game=v["game"] + 1, edition=v["edition"])
        assert sorted(setup.removed) == sorted(v["removed"])  # the order of removed colours means nothing
        assert [list(s) for s in setup.starting] == v["starting_by_seat"]
        assert setup.first == v["first_seat"]
        assert list(setup.deck or ()) == v["deck_top_first"]
    for bad in ({"players": 6, "seed": 1}, {"players": 4, "seed": 1, "game": 0}):
        with pytest.raises(ValueError):
            coloretto_log.deal(**bad)  # type: ignore[arg-type]


def _play(players: list[str], seed: int, game: int, pick: int) -> tuple[Any, list[dict[str, object]]]:
    """Play game ``game`` of ``seed`` through the API, choosing the legal action at a varying index."""
    state = coloretto_log.new_game(len(players), seed, game=game, edition="anniversary", scoring="alternative")
    moves: list[dict[str, object]] = []
    while not state.over:
        actions = coloretto_log.legal_actions(state)
        move = actions[len(moves) * pick % len(actions)]
        state, _ = coloretto_log.play_move(state, move)
        moves.append({"player": players[move.seat], "action": type(move).__name__.lower(), "row": move.row})
    return state, moves


def test_games_played_through_the_api_make_a_valid_seeded_log() -> None:
    players = ["A", "B", "C", "D", "E"]
    played = [_play(players, 11, game, pick) for game, pick in ((1, 3), (2, 7))]
    log = {
        "format": "coloretto-log", "version": 1, "players": players, "seed": 11,
        "rules": {"edition": "anniversary", "scoring": "alternative", "games": 2},
        "games": [{"moves": moves} for _, moves in played],
    }
    report = coloretto_log.check_match(log)
    assert report.all_findings() == [] and report.complete
    for (state, _), record in zip(played, report.games):
        assert record.final is not None and record.final._replace(rules=state.rules) == state  # rules.games differs
        assert coloretto_log.game_scores(record.final) == coloretto_log.game_scores(state)


def test_an_illegal_move_names_its_rule() -> None:
    state = coloretto_log.new_game(4, 42)
    take = [m for m in coloretto_log.legal_actions(state)]
    assert all(type(m).__name__ == "Draw" for m in take)  # nothing to take before the first draw
    with pytest.raises(coloretto_log.IllegalMove) as caught:
        coloretto_log.play_move(state, take[0]._replace(row=9))
    assert caught.value.violation.rule == "unknown-row"


def readme_library_snippet() -> str:
    """The example of docs/api.md (the README links it: "Programs can import the library")."""
    assert "(docs/api.md)" in README.read_text(encoding="utf-8")
    text = API_PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)\n```", text, flags=re.DOTALL)
    assert len(blocks) == 1, "docs/api.md has one Python example"
    return blocks[0]


def test_the_readme_library_snippet_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-c", readme_library_snippet()], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip(), "the snippet prints what it shows"
