"""The ``coloretto-log`` Typer application and its global options; commands register on ``app``.

Commands are imported only when they run (``coloretto-log score --hand`` never
loads DuckDB): ``cli/__init__.py`` maps each command name to its module, and
``LazyGroup`` imports that module the first time the command is asked for.
The list of commands in ``coloretto-log --help`` is read from the modules'
docstrings without importing them. Ordinary option values are converted here
(``_quicken``), not by typer's pydantic check, so that no command loads
pydantic to read its options.
"""

from __future__ import annotations

import importlib
import os
import re
import stat
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

import typer
from typer._click import exceptions as _click  # typer's own copy of click: its errors are these
from typer.core import TyperCommand, TyperGroup

from .. import __version__

#: Command name -> module of this package that defines it; filled by ``cli/__init__.py``.
COMMANDS: dict[str, str] = {}


def _registry() -> dict[str, str]:
    return COMMANDS


class LazyGroup(TyperGroup):
    """A group whose commands are imported when first used, and listed from their source."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        for param in self.get_params(ctx):
            _quicken(param)
        return list(super().parse_args(ctx, args))

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(_registry())
        return names + [name for name in self.commands if name not in names]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The command ``args`` name; for a mistyped one, the closest names ("did you mean validate?"), as git says."""
        try:
            return super().resolve_command(ctx, args)
        except _click.UsageError:
            name = args[0] if args else ""
            if self.get_command(ctx, name) is not None or name.startswith("-"):
                raise
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else "; the commands are listed by coloretto-log -h"
            raise _click.UsageError(f"no such command '{name}'{hint}", ctx) from None

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
        if found is None:
            return None
        for param in found.get_params(ctx):  # with its --help
            _quicken(param)
        return _suggesting(_with_words(found))

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


# Typer checks every option's value with a pydantic TypeAdapter that it builds when the command runs, even
# for an option left at its default: importing pydantic and building the adapters was about 70 ms of every
# command's start (most of `simulate -n 1`'s). `_quicken` gives each parameter of a plain type (int, float,
# str, Path, bool, a choice, a list of str) a `process_value` (click's own step for one parameter's value)
# that converts the ordinary values itself, exactly as typer would, and hands every other value (a typo,
# a number out of range, a path that is a directory where a file is asked for) to typer's own
# `process_value`, which then gives typer's own message. tests/cli/test_options.py compares the two.
_INT = re.compile(r"-?[0-9]{1,18}")
_FLOAT = re.compile(r"-?[0-9]{1,15}(\.[0-9]{1,15})?")
_NOT_QUICK = object()


def _quicken(param: Any) -> None:
    """Give ``param`` the quick conversion of ordinary values, if its type has one (see above)."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None or getattr(param, "_quick", False):
        return
    param._quick = True
    multi = bool(param.multiple or param.nargs == -1)
    convert = _quick_converter(desc.annotation, desc.parameter_info, multi)
    typer_s = param.process_value

    def slow(ctx: Any, value: Any) -> Any:
        """Typer's own conversion, its refusal said in this program's words (``_own_words``)."""
        try:
            return typer_s(ctx, value)
        except typer.BadParameter as exc:
            exc.message = _own_words(desc.annotation, desc.parameter_info, value, exc.message)
            raise

    if convert is None:  # typer converts every value; only its refusals are worded here
        param.process_value = slow
        return
    param._converts_quickly = True

    def process_value(ctx: Any, value: Any) -> Any:
        if value is None:
            got: Any = () if multi else None
        elif multi:
            items = [convert(v, ctx) for v in value] if isinstance(value, (list, tuple)) else [_NOT_QUICK]
            got = _NOT_QUICK if any(v is _NOT_QUICK for v in items) else items
        else:
            got = convert(value, ctx)
        if got is _NOT_QUICK or (param.required and param.value_is_missing(got)):
            return slow(ctx, value)
        if param.callback is not None:
            got = param.callback(ctx, param, got)
        return got

    param.process_value = process_value


#: What the validation library says (pydantic through typer), which a user never reads (issue 30).
_LIBRARY_WORDS = re.compile(r"Input should|Value error|unable to parse|valid (integer|number)|pydantic", re.IGNORECASE)


def _own_words(annotation: Any, info: Any, value: Any, message: str) -> str:
    """``message`` (a refused option value), in this program's words where the validation library wrote it."""
    if not _LIBRARY_WORDS.search(message):
        return message
    kind = _plain_type(annotation)
    given = value if isinstance(value, str) else " ".join(map(str, value)) if isinstance(value, (list, tuple)) \
        else str(value)
    shown = repr(given) if given.strip() == given and given else f"'{given}' (empty or with spaces)"
    if kind is int or kind is float:
        what = "a whole number" if kind is int else "a number"
        if info.min is not None and info.max is not None:
            what += f" from {info.min:g} to {info.max:g}"
        elif info.min is not None:
            what += f" of at least {info.min:g}"
        elif info.max is not None:
            what += f" of at most {info.max:g}"
        return f"{shown} is not {what}"
    if getattr(kind, "__name__", "") in ("datetime", "date"):
        return f"{shown} is not a day of the calendar; give it as YYYY-MM-DD, for example 2026-01-31"
    choices = _choices(kind)
    if choices:
        import difflib

        close = difflib.get_close_matches(given.strip().lower(), choices, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]}?" if close else ""
        return f"{shown} is not one of {', '.join(choices)}{hint}"
    return f"{shown} is not a value this option takes"


def _plain_type(annotation: Any) -> Any:
    """``int`` for ``int | None`` and ``list[int]``: the type of one value."""
    while get_origin(annotation) is not None and get_origin(annotation) is not Literal:
        args = [a for a in get_args(annotation) if a is not type(None)]
        if not args:
            break
        annotation = args[0]
    return annotation


def _choices(kind: Any) -> list[str]:
    """The values a choice type takes, as typed (``Literal`` or ``Enum``), else none."""
    if get_origin(kind) is Literal:
        return [str(c) for c in get_args(kind)]
    if isinstance(kind, type) and issubclass(kind, Enum):
        return [str(c.value) for c in kind]
    return []


def _quick_converter(annotation: Any, info: Any, multi: bool) -> Any:
    """The quick conversion of one value of ``annotation``, or None where typer alone converts."""
    if multi:
        if get_origin(annotation) is not list or get_args(annotation) != (str,) or info.parser is not None:
            return None
        annotation = str
    if info.parser is not None or get_origin(annotation) is not None and get_origin(annotation) is not Literal:
        return None
    if annotation is bool:
        return lambda v, ctx: v if type(v) is bool else _NOT_QUICK
    if annotation is str:
        return lambda v, ctx: v if type(v) is str else _NOT_QUICK
    if annotation is int:
        return lambda v, ctx: _quick_number(v, int, _INT, info)
    if annotation is float:
        return lambda v, ctx: _quick_number(v, float, _FLOAT, info)
    if get_origin(annotation) is Literal or isinstance(annotation, type) and issubclass(annotation, Enum):
        choices = tuple(get_args(annotation)) if get_origin(annotation) is Literal else tuple(annotation)
        if not info.case_sensitive:
            return None
        return lambda v, ctx: _quick_choice(v, choices, ctx)
    if isinstance(annotation, type) and issubclass(annotation, Path) and info.path_type in (None, annotation):
        if info.resolve_path or info.exists:
            return None
        return lambda v, ctx: _quick_path(v, annotation, info)
    return None


def _quick_number(value: Any, kind: type, pattern: re.Pattern[str], info: Any) -> Any:
    if type(value) is kind:
        number = value
    elif type(value) is str and pattern.fullmatch(value):
        number = kind(value)
    else:
        return _NOT_QUICK
    if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
        return _NOT_QUICK
    return number


def _quick_choice(value: Any, choices: tuple[Any, ...], ctx: Any) -> Any:
    if isinstance(value, Enum) and any(value is c for c in choices):
        return value
    if type(value) is not str or getattr(ctx, "token_normalize_func", None) is not None:
        return _NOT_QUICK
    for choice in choices:
        if (str(choice.value) if isinstance(choice, Enum) else str(choice)) == value:
            return choice
    return _NOT_QUICK


def _quick_path(value: Any, kind: type[Path], info: Any) -> Any:
    if not (isinstance(value, kind) or (type(value) is str and value)):
        return _NOT_QUICK
    try:
        st = os.stat(value)
    except OSError:
        return kind(value)
    except ValueError:  # a NUL in the name: typer says what it says
        return _NOT_QUICK
    is_file, is_dir = stat.S_ISREG(st.st_mode), stat.S_ISDIR(st.st_mode)
    if (not info.file_okay and is_file) or (not info.dir_okay and is_dir) \
            or (info.readable and not os.access(value, os.R_OK)) or (info.writable and not os.access(value, os.W_OK)):
        return _NOT_QUICK
    return value if isinstance(value, kind) else kind(value)


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


def _suggesting(command: Any) -> Any:
    """``command``, whose mistyped option says the closest ("did you mean --format?"), as git says."""
    if getattr(command, "_suggests", False):
        return command
    command._suggests = True
    parse = command.parse_args

    def parse_args(ctx: Any, args: list[str]) -> Any:
        try:
            return parse(ctx, args)
        except _click.NoSuchOption as exc:
            close = exc.possibilities or []  # the closest first
            hint = f"; did you mean {close[0]}?" if close else f"; the options are listed by {ctx.command_path} -h"
            raise _click.NoSuchOption(exc.option_name, f"no such option {exc.option_name}{hint}", None, ctx) from None

    command.parse_args = parse_args
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
