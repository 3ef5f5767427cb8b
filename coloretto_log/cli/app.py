"""The ``coloretto-log`` Typer application and its global options; commands register on ``app``.

Commands are imported only when they run (``coloretto-log score --hand`` never
loads DuckDB): ``cli/__init__.py`` maps each command name to its module, and
``LazyGroup`` imports that module the first time the command is asked for.
The list of commands in ``coloretto-log --help`` is read from the modules'
docstrings without importing them.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__

#: Command name -> module of this package that defines it; filled by ``cli/__init__.py``.
COMMANDS: dict[str, str] = {}


def _registry() -> dict[str, str]:
    return COMMANDS


class LazyGroup(TyperGroup):
    """A group whose commands are imported when first used, and listed from their source."""

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(_registry())
        return names + [name for name in self.commands if name not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands:
            module = _registry().get(cmd_name)
            if module is None:
                return None
            importlib.import_module(f"{__package__}.{module}")
            for info in app.registered_commands:
                command = typer.main.get_command_from_info(
                    info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
                )
                if command.name and command.name not in self.commands:
                    self.commands[command.name] = command
        found = self.commands.get(cmd_name)
        return None if found is None else _with_words(found)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The command list of ``--help``: each command's first help line, without importing it."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name)
            if command is None:
                command = TyperCommand(name=name, help=_help_from_source(_registry()[name], name))
            if not command.hidden:
                rows.append((name, command.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


#: The word help shows for a value of each type, where the option gives no metavar of its own.
_WORDS = {
    "int": "N", "int range": "N", "float": "N", "float range": "N", "str": "TEXT", "list[str]": "TEXT",
    "list[int]": "N", "file": "FILE", "path": "PATH", "dir": "DIR", "directory": "DIR", "%Y-%m-%d": "DATE",
}  # fmt: skip


def _with_words(command: Any) -> Any:
    """Help that shows words for values (``--seed N``, ``PATH...``), never Python types (``<int>``, ``{paths}``)."""
    if command.help and not getattr(command, "_worded", False):
        command._worded = True
        command.help = _examples_verbatim(command.help)
    for param in command.params:
        if getattr(param, "_worded", False) or not hasattr(param, "display_type_rich"):
            continue
        param._worded = True
        if param.param_type_name == "argument":
            word = param.metavar or param.name.upper()
            many = "..." if param.nargs != 1 and not word.endswith("...") else ""
            shown = word + many
            param.metavar = shown
            param.display_type_rich = _const("")
            param._usage_display_name = _const(shown if param.required else f"[{shown}]")
        elif not (param.is_flag or param.count):
            label = param.metavar or param.display_type_rich(None).strip("<>")
            word = _WORDS.get(label, label)
            param.display_type_rich = _const(word)
    return command


def _examples_verbatim(help_text: str) -> str:
    """Mark each paragraph that starts with ``Example`` so that help prints its lines as written, never rewrapped."""
    paragraphs = help_text.split("\n\n")
    return "\n\n".join(
        "\b\n" + p if p.lstrip().startswith("Example") and not p.startswith("\b") else p for p in paragraphs
    )


def _const(value: str) -> Any:
    """A method replacement that returns ``value`` whatever it is given."""

    def constant(*_: Any, **__: Any) -> str:
        return value

    return constant


@cache
def _help_from_source(module: str, name: str) -> str:
    """The docstring of the function that defines command ``name`` in ``module``, read with ``ast``."""
    import ast  # only for `--help`: a fast start for everything else
    import inspect

    path = Path(__file__).with_name(f"{module}.py")
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return ""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _command_name(node) == name:
            return inspect.cleandoc(ast.get_docstring(node) or "")
    return ""


def _command_name(node: Any) -> str | None:
    """``name`` for a function decorated ``@app.command()`` / ``@app.command("name")``, else None."""
    import ast

    for deco in node.decorator_list:
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "command"):
            continue
        given = [a for a in deco.args[:1]] + [k.value for k in deco.keywords if k.arg == "name"]
        for value in given:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
        return str(node.name).strip("_").replace("_", "-")
    return None


app = typer.Typer(
    name="coloretto-log",
    cls=LazyGroup,
    help=(
        "Record, validate, replay and score Coloretto match logs.\n\n"
        "Exit codes: 0 ok, 1 invalid log, 2 usage error, 3 unreadable file or database, "
        "4 a claim that disagrees with the optimum (score), 70 internal error."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,  # help is plain text: "[rule-id]" and the like are shown as written
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"coloretto-log {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of an internal error.")
    ] = False,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Record, validate, replay and score Coloretto match logs."""
