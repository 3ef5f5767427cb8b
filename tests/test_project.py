"""The project's frame: schema in sync, README and CI in agreement, purity of the core, CLI basics."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import COMMANDS, app, main
from coloretto_log.log.models import json_schema_text

from .conftest import ROOT
from .vectors import make_vectors

runner = CliRunner()


def test_checked_in_schema_equals_the_models() -> None:
    assert (ROOT / "schemas" / "coloretto-log.v1.schema.json").read_text(encoding="utf-8") == json_schema_text()


def test_schema_command_prints_the_schema() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    assert result.stdout == json_schema_text()
    assert json.loads(result.stdout)["title"] == "Coloretto match log, version 1"


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, flags=re.DOTALL)
    commands = [b for b in blocks if "pytest" in b]
    assert len(commands) == 1, "the README has one test command"
    return commands[0].strip()


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_test_command() in ci.splitlines()


def test_every_command_is_documented_in_the_readme_and_has_an_example() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = sorted(c.name or c.callback.__name__ for c in app.registered_commands)  # type: ignore[union-attr]
    assert names, "commands are registered"
    for name in names:
        assert f"`{name}`" in readme, f"README does not document `{name}`"
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example:" in result.stdout, f"{name} --help has no example"


def test_the_readme_is_a_landing_page() -> None:
    """At most 10 KB (issue 44): the quick start, a first game recorded, then one line, one example and a page in
    docs/ per command; what moved out is on those pages (tests/cli/test_examples.py runs their examples)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 10 * 1024
    first = readme[readme.index("## Record your first game"):readme.index("## Commands")]
    for move in ("`d red 2`", "`t 3`", "`u`", "`j` joker", "`gj` golden joker", "`+2`"):
        assert move in first, move
    for then in ("record first.json", "validate first.json", "score first.json", "replay first.json"):
        assert f"coloretto-log {then}" in first, then
    assert "pip install 'coloretto-log[serve]'" in readme and "pip install -q -e '.[serve]'" in readme
    commands = readme[readme.index("## Commands"):readme.index("## More")]
    items = re.split(r"\n(?=- `)", commands)[1:]
    names = sorted(COMMANDS)
    assert sorted(re.match(r"- `([a-z]+)`", item).group(1) for item in items) == names  # type: ignore[union-attr]
    for item in items:
        name = re.match(r"- `([a-z]+)`", item).group(1)  # type: ignore[union-attr]
        assert re.search(r"\]\(docs/[a-z-]+\.md(#[a-z0-9-]+)?\)", item), f"{name}: no page in docs/"
        assert f"`coloretto-log {name} " in item or name == "record", f"{name}: no example"


def test_core_is_pure() -> None:
    code = (
        "import sys\n"
        "import coloretto_log.core.cards, coloretto_log.core.ruleset, coloretto_log.core.rng, coloretto_log.core.setup\n"
        "import coloretto_log.core.engine, coloretto_log.core.scoring\n"
        "bad = [m for m in ('pydantic', 'duckdb', 'typer', 'rich', 'click') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("hashseed", ["0", "1", "12345"])
def test_validation_is_deterministic_across_processes(hashseed: str) -> None:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    sample = ROOT / "tests" / "vectors" / "seeded-setups.json"
    code = (
        "import json, sys\n"
        "from coloretto_log.cli.deal import deal_json\n"
        "from coloretto_log.core.setup import seeded_setup\n"
        "from coloretto_log.core.ruleset import RuleSet\n"
        "out = [deal_json(seeded_setup(RuleSet.of(edition=e), p, 20261129, 1), seed=20261129, players=p, edition=e, game=1)"
        " for e in ('classic', 'anniversary') for p in (2, 3, 4, 5)]\n"
        "print(json.dumps(out))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    vectors = json.loads(sample.read_text(encoding="utf-8"))
    expected = [v for v in vectors if v["seed"] == 20261129 and v["game"] == 1]
    key = lambda v: (v["edition"], v["players"])
    assert sorted(json.loads(out.stdout), key=key) == sorted(expected, key=key)


def test_deal_json_matches_every_published_vector() -> None:
    for vector in json.loads(make_vectors.PATH.read_text(encoding="utf-8")):
        # the vectors' "game" is an index from 0 (docs/format.md §4); --game counts from 1
        args = ["deal", "--seed", str(vector["seed"]), "--player-count", str(vector["players"]),
                "--edition", vector["edition"], "--game", str(vector["game"] + 1), "--json"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        assert json.loads(result.stdout) == vector


def test_deal_text_lists_the_deck_top_first() -> None:
    result = runner.invoke(app, ["deal", "--seed", "42", "--player-count", "4"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    vector = json.loads(runner.invoke(app, ["deal", "--seed", "42", "--player-count", "4", "--json"]).stdout)
    # seats count from 1 for people; the JSON's first_seat is an index from 0
    assert vector["first_seat"] == 2 and vector["starting_by_seat"][0] == ["green"]
    assert "Seat 1 starts with: green" in lines
    assert "First player: seat 3" in lines
    assert lines[0] == "Seed 42, 4 players, classic edition, game 1 of the match"
    assert lines[lines.index("Deck, top card first (73 cards, last-round card included):") + 1].strip() == "1. orange"
    deck = [line.strip() for line in lines]
    assert "58. last-round card (last_round)" in deck  # people's word, and the log's where they differ
    assert sum(line.endswith(". +2 (plus2)") for line in deck) == vector["deck_top_first"].count("plus2")
    assert "(orange)" not in result.stdout  # a colour has one word


def test_deal_counts_games_from_1_and_takes_names() -> None:
    second = runner.invoke(app, ["deal", "--seed", "7", "--players", "Aiko,Boris,Chloe", "--game", "2", "--json"])
    index_1 = runner.invoke(app, ["deal", "--seed", "7", "--player-count", "3", "--game", "2", "--json"])
    assert second.exit_code == index_1.exit_code == 0
    assert json.loads(second.stdout) == json.loads(index_1.stdout)
    assert json.loads(second.stdout)["game"] == 1  # the format's index: the second game
    text = runner.invoke(app, ["deal", "--seed", "7", "--players", "Aiko,Boris,Chloe", "--game", "2"]).stdout
    first = json.loads(second.stdout)["first_seat"]
    assert f"First player: seat {first + 1} ({['Aiko', 'Boris', 'Chloe'][first]})" in text
    assert "Seat 1 (Aiko) starts with: " in text
    old_spelling = runner.invoke(app, ["deal", "--seed", "7", "--players", "3", "--game", "2", "--json"])
    assert old_spelling.stdout == index_1.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", "-1", "--players", "4"],
        ["deal", "--seed", str(2**64), "--players", "4"],
        ["deal", "--seed", "1", "--players", "6"],
        ["deal", "--seed", "1", "--players", "4", "--edition", "deluxe"],
        ["deal", "--seed", "1", "--players", "2", "--under-last-round", "200"],  # beyond the deck, as validate says
        ["deal", "--seed", "1", "--players", "4", "--edition", "anniversary", "--under-last-round", "15"],
        ["deal", "--players", "4"],
        ["deal", "--seed", "1", "--player-count", "4", "--game", "0"],  # games count from 1
        ["deal", "--seed", "1", "--player-count", "4", "--players", "A,B,C"],  # they disagree
        ["deal", "--seed", "1"],
        ["simulate", "-n", "1", "--first-match", "0"],
        ["simulate", "-n", "1", "--players", "Aiko,Boris"],
        ["score", "--hand", "j j j j"],  # four jokers: the classic edition has three
        ["no-such-command"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_module_entry_point_and_version() -> None:
    out = subprocess.run([sys.executable, "-m", "coloretto_log", "--version"], capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.startswith("coloretto-log ")


def test_internal_error_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import coloretto_log.cli.deal as deal_module

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(deal_module, "seeded_setup", boom)
    with pytest.raises(SystemExit) as exc:
        main(["deal", "--seed", "1", "--players", "4"])
    assert exc.value.code == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: RuntimeError: simulated bug" in err and "--debug" in err
    with pytest.raises(SystemExit):
        main(["--debug", "deal", "--seed", "1", "--players", "4"])
    assert "Traceback" in capsys.readouterr().err


def test_every_help_renders_with_words_for_values() -> None:
    """Help shows words (N, PATH, NAMES), never Python types, and `[rule-id]` survives (no markup)."""
    from coloretto_log.cli import COMMANDS

    for name in ["", *COMMANDS]:
        result = runner.invoke(app, [name, "--help"] if name else ["--help"])
        assert result.exit_code == 0, name
        text = result.stdout
        assert "Usage: " in text
        for python_type in ("<bool>", "<int>", "<str>", "<list[str]>", "<path>", "{paths}", "{path}", "<float"):
            assert python_type not in text, (name, python_type)
    assert "error [rule-id] message" in " ".join(runner.invoke(app, ["validate", "--help"]).stdout.split())
    query = runner.invoke(app, ["query", "--help"]).stdout
    assert any(line.strip().startswith("Example: coloretto-log query") and line.rstrip().endswith('"')
               for line in query.splitlines())  # an example is printed on one line, as written


@pytest.mark.parametrize(
    ("prefix", "hint"),
    [
        ("/home/u/.local/pipx/venvs/coloretto-log", "pipx inject coloretto-log matplotlib"),
        ("/home/u/.local/share/uv/tools/coloretto-log", "uv tool install --with matplotlib coloretto-log"),
        # this checkout is installed from its clone (editable): the hint installs the extra from it
        ("/work/club/.venv", f"-m pip install -e '{ROOT}[plot]'"),
    ],
)
def test_install_hints_fit_how_the_user_installed(prefix: str, hint: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from coloretto_log.cli.common import install_hint

    monkeypatch.setattr(sys, "prefix", prefix)
    shown = install_hint("plot", "matplotlib")
    assert shown.endswith(hint)
    if "pip install" in hint:
        assert shown.startswith(sys.executable)  # this very interpreter's pip, whatever its environment
