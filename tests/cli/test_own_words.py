"""Every error in the tool's own words (issue 30, item 4).

No message of the validation library (typer's pydantic check: "Input should be
a valid integer, unable to parse string as an integer", "Value error, 'csv' is
not one of ...") reaches a user: every value-taking option of every command is
given values it cannot take, and each refusal is read. A mistyped command or
option names the closest one, as git does.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from coloretto_log.cli import COMMANDS, app

runner = CliRunner()
LIBRARY = re.compile(r"Input should|Value error|unable to parse|valid integer|valid number|pydantic|Traceback", re.IGNORECASE)
BAD_VALUES = ("abc", "", " 3", "-5", "0", "1e999", "nan", "99999999999999999999999", "3.5", "½")


def _value_options() -> list[tuple[str, Any]]:
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    found = []
    for name in COMMANDS:
        command = group.get_command(ctx, name)
        for param in command.params:
            if param.param_type_name == "option" and not (param.is_flag or param.count) and param.name != "help":
                found.append((name, param))
    return found


def _arguments(command: Any) -> list[str]:
    """A placeholder for each required argument, so that only the option is wrong."""
    return ["x" for p in command.params if p.param_type_name == "argument" and p.required]


def test_every_command_has_options_to_check() -> None:
    names = {name for name, _ in _value_options()}
    assert names >= {"deal", "simulate", "replay", "analyze", "validate", "score", "query", "ratings"}


@pytest.mark.parametrize(("name", "param"), _value_options(), ids=lambda v: v if isinstance(v, str) else v.opts[0])
def test_no_option_value_is_refused_in_the_librarys_words(name: str, param: Any) -> None:
    """Parsing only (the command is not run): each refusal is what the user reads after "Error: "."""
    group = typer.main.get_command(app)
    command = group.get_command(typer.Context(group), name)
    option = next((o for o in param.opts if o.startswith("--")), param.opts[0])
    for bad in BAD_VALUES:
        try:
            command.make_context(name, [option, bad, *_arguments(command)])
        except typer.Exit:
            continue
        except Exception as exc:  # noqa: BLE001 - a click usage error: its message is what is shown
            message = exc.format_message() if hasattr(exc, "format_message") else repr(exc)
            assert hasattr(exc, "format_message"), (name, option, bad, message)
            assert not LIBRARY.search(message), (name, option, bad, message)
            assert option in message or "'" in message, (name, option, bad, message)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["deal", "--seed", "abc"], "Invalid value for '--seed': 'abc' is not a whole number"),
        (["simulate", "--matches", "x"], "'x' is not a whole number"),
        (["validate", "--format", "csv", "x"], "'csv' is not one of table, json"),
        (["validate", "--format", "jsno", "x"], "'jsno' is not one of table, json; did you mean json?"),
        (["analyze", "--max-se", "x", "x"], "'x' is not a number"),
        (["valdate"], "no such command 'valdate'; did you mean validate?"),
        (["ratngs"], "no such command 'ratngs'; did you mean ratings?"),
        (["xyzzy"], "no such command 'xyzzy'; the commands are listed by coloretto-log -h"),
        (["validate", "--fromat", "json", "x"], "no such option --fromat; did you mean --format?"),
        (["simulate", "--matchs", "3"], "no such option --matchs; did you mean --matches?"),
    ],
)
def test_the_user_reads_the_tools_words(args: list[str], words: str) -> None:
    result = runner.invoke(app, args, prog_name="coloretto-log")
    assert result.exit_code == 2, result.output
    assert words in result.output.splitlines()[-1], result.output
    assert result.output.splitlines()[-1].startswith("Error: ")
    assert not LIBRARY.search(result.output)
