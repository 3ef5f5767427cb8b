"""What every command shares: exit codes, JSON output, one-line errors."""

from __future__ import annotations

import datetime as _dt
import enum
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn, TextIO

import typer

from ..core.errors import Finding, one_line
from ..view.safe_text import TerminalSafe

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from ..lang import Translator
    from ..log.load import LoadedMatch

#: The help of every command that reads logs from paths.
PATHS_HELP = (
    "Log files (.json: one match; .jsonl: one match a line), folders (searched recursively), or - for standard input."
)
#: The PATH... argument of those commands.
LogPaths = Annotated[list[str], typer.Argument(help=PATHS_HELP, show_default=False, metavar="PATH...")]
#: The one PATH argument of the commands that walk through one log (replay, analyze).
LogPath = Annotated[
    str,
    typer.Argument(
        help="A log file (.json: one match; .jsonl: one match a line), a folder, or - for standard input.",
        metavar="PATH",
        show_default=False,
    ),
]


class ExitCode(enum.IntEnum):
    """The exit codes of every command (docs/options.md, "Exit codes")."""

    OK = 0
    INVALID = 1  # a log breaks the format or the rules
    USAGE = 2  # wrong options or arguments
    UNREADABLE = 3  # a file or database that cannot be read or written
    CLAIM_DISAGREES = 4  # score: a claimed score or choice differs from the optimum
    INTERNAL = 70  # a bug: please report it with --debug output


class Format(str, enum.Enum):
    """How a command prints its result: ``table`` for people, ``json`` or ``csv`` for programs."""

    table = "table"
    json = "json"
    csv = "csv"


#: The formats of the commands that print a table: table for people, json or csv for programs.
TABLE_JSON_CSV = ("table", "json", "csv")
#: The formats of the commands whose output is no table (findings, a summary): table for people, json for programs.
TABLE_JSON = ("table", "json")


def format_help(formats: tuple[str, ...]) -> str:
    """The help of ``--format`` for a command that has ``formats``."""
    programs = " or ".join(f for f in formats if f != "table")
    return f"Output: table for people (default); {programs} for programs."


#: ``--format table|json|csv`` (``-f``), for the commands that print a table; declared once, here.
FormatOption = Annotated[
    Literal["table", "json", "csv"] | None,
    typer.Option(
        "--format", "-f", metavar="|".join(TABLE_JSON_CSV), show_default=False, help=format_help(TABLE_JSON_CSV)
    ),
]
#: ``--format table|json`` (``-f``), for the commands that print no table (csv would have nothing to give).
TableJsonOption = Annotated[
    Literal["table", "json"] | None,
    typer.Option("--format", "-f", metavar="|".join(TABLE_JSON), show_default=False, help=format_help(TABLE_JSON)),
]
#: ``--json``: the short form of ``--format json``, in every command that has ``--format``.
JsonOption = Annotated[bool, typer.Option("--json", help="Short for --format json.")]
#: ``--lang`` of the commands that write a viewer page (``replay --html``, ``analyze --html``); declared once,
#: here, and read with ``page_languages``.
PageLangOption = Annotated[
    str,
    typer.Option("--lang", metavar="LANG", help="With --html: the page's languages, separated by commas, from "
                 "en, ja, ko, ru; it opens in the first and switches among them (default: en).", show_default=False),
]


#: ``--lang`` of a command that prints for people (``score``): the one language of what it prints; JSON, CSV and
#: rule ids stay English. Read with ``terminal_translator``.
LangOption = Annotated[
    str | None,
    typer.Option("--lang", metavar="LANG", help="The language of the text printed for people: en, ja, ko or ru "
                 "(default: the locale, LC_ALL/LC_MESSAGES/LANG; else en). JSON, CSV and rule ids stay English.",
                 show_default=False),
]


def terminal_translator(lang: str | None, option: str = "--lang") -> Translator:
    """The translator of a ``LangOption``: the language given (checked: a usage error names the choices), else
    the environment's locale, else English (as ``record`` chooses)."""
    from ..lang import LANGUAGES, from_environment, translator

    if lang is None:
        return translator(from_environment(os.environ))
    if lang.strip().lower() not in LANGUAGES:
        from ..lang import N_
        from .app import _word

        raise _word(typer.BadParameter("", param_hint=option), N_("{given}: one of {choices}"), given=one_line(lang),
                    choices=", ".join(LANGUAGES))  # fmt: skip
    return translator(lang.strip().lower())


def output_format(fmt: str | Format | None, json_out: bool, *, csv: bool = True) -> Format:
    """The format asked for by ``--format``/``--json``; a usage error (exit 2) when they disagree.

    Which formats a command has is declared by its option (``FormatOption`` or
    ``TableJsonOption``), so ``--format csv`` where there is no csv is refused
    while parsing; ``csv=False`` is kept for callers that still say so.
    """
    given = None if fmt is None else Format(fmt)
    if json_out and given is not None and given is not Format.json:
        raise typer.BadParameter(f"--json asks for json, --format for {given.value}: give one", param_hint="--format")
    chosen = Format.json if json_out else (given or Format.table)
    if chosen is Format.csv and not csv:
        raise typer.BadParameter("this command prints no table to give as csv: use table or json", param_hint="--format")
    return chosen


def json_write(file: TextIO | None = None) -> Callable[[str], object]:
    """``write`` for JSON text on ``file`` (standard output, as it is at each write, by default): escaped on a
    terminal (``view.safe_text``), elsewhere exactly ``json.dumps``'s bytes."""
    return TerminalSafe(file).write


#: Each short option and the one long option it stands for, in every command that has it (docs/options.md, "Short options").
SHORT_OPTIONS = {
    "-h": "--help",
    "-f": "--format",
    "-g": "--game",
    "-j": "--jobs",
    "-m": "--move",
    "-n": "--matches",
    "-o": "--out",
    "-p": "--player",
    "-q": "--quiet",
}
#: Old spellings that still work, hidden from help: (command, short option) -> the long option it means there.
#: New scripts should use the long option; no visible short option has two meanings.
OLD_SHORT_OPTIONS = {
    ("deal", "-n"): "--player-count",
    ("analyze", "-n"): "--samples",
}


def old_short(letter: str, meaning: str, metavar: str = "N") -> Any:
    """A hidden option for ``letter``, the old short spelling of ``meaning`` in one command (``OLD_SHORT_OPTIONS``)."""
    return typer.Option(letter, metavar=metavar, hidden=True, show_default=False, help=f"The old spelling of {meaning}.")


def with_old_short(value: Any, old: Any, meaning: str, letter: str, *, default: Any = None) -> Any:
    """``value`` of the long option, or what its old short spelling gave; a usage error when both disagree.

    ``default``: the long option's default (a value equal to it counts as not given).
    """
    if old is None:
        return value
    if value is not None and value != default and value != old:
        raise typer.BadParameter(f"{letter} (the old spelling of {meaning}) and {meaning} disagree", param_hint=meaning)
    others = sorted({long for short, long in SHORT_OPTIONS.items() if short == letter})
    elsewhere = f" ({letter} is {others[0]} in other commands)" if others else ""
    typer.secho(f"Note: {letter} {old} is the old spelling of {meaning} {old}{elsewhere}; write {meaning} {old}",
                err=True, fg=typer.colors.YELLOW)
    return old


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def day_option(value: str | None, option: str, tr: Translator | None = None) -> _dt.date | None:
    """A day given as ``YYYY-MM-DD`` (``--since``, ``--date``), or a usage error in plain words (in ``tr``'s
    language when given)."""
    if value is None:
        return None
    try:
        if _DAY.fullmatch(value):
            return _dt.date.fromisoformat(value)
    except ValueError:
        pass
    if tr is not None:
        from ..lang import N_

        fail(tr.t(N_("{option} {given}: not a day of the calendar; give it as YYYY-MM-DD, for example 2026-01-31"),
                  option=option, given=one_line(value)), ExitCode.USAGE, tr=tr)  # fmt: skip
    fail(
        f"{option} {one_line(value)}: not a day of the calendar; give it as YYYY-MM-DD, for example 2026-01-31",
        ExitCode.USAGE,
    )


def usable_cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def processes(jobs: int) -> int:
    """The processes ``--jobs N`` asks for: 0 means one per core, and more than the cores is capped at the cores."""
    cores = usable_cores()
    return cores if jobs == 0 else min(jobs, cores)


def _dumps(value: Any, level: int = 0) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + "  " * level) if level else text


class JsonReport:
    """``{"matches": [...], "unreadable": [...], "summary": {...}}`` written a match at a time (flat memory).

    The bytes are exactly those of ``emit_json`` on the whole object; a
    million matches never sit in memory together.
    """

    def __init__(self, file: TextIO | None = None, *, head: dict[str, Any] | None = None) -> None:
        self.write = json_write(sys.stdout if file is None else file)
        self.count = 0
        before = "".join(f"\n  {json.dumps(k)}: {_dumps(v, 1)}," for k, v in (head or {}).items())
        self.write("{" + before + '\n  "matches": [')

    def match(self, value: dict[str, Any]) -> None:
        self.write(("," if self.count else "") + "\n    " + _dumps(value, 2))
        self.count += 1

    def close(self, **rest: Any) -> None:
        """The end of the list, then each of ``rest`` (``unreadable=..., summary=...``) as a key of the object."""
        self.write("\n  ]" if self.count else "]")
        for key, value in rest.items():
            self.write(f",\n  {json.dumps(key)}: {_dumps(value, 1)}")
        self.write("\n}\n")


def emit_json(value: Any, *, file: TextIO | None = None) -> None:
    """Stable, indented JSON (on stdout unless ``file``): keys in the order built, no markup; escaped on a terminal."""
    json_write(sys.stdout if file is None else file)(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def print_findings(findings: Iterable[Finding], label: str, *, err: bool = False, tr: Translator | None = None) -> None:
    """Each finding as its one line, errors in red and warnings in yellow, in ``tr``'s language when given
    (``view.findings``: the rule id stays as it is): the file, game, move and rule id on the first line (for grep
    and head), a message wider than the width going on 4 cells in."""
    from ..view.findings import finding_line

    for f in findings:
        colour = typer.colors.RED if f.severity == "error" else typer.colors.YELLOW
        line = f.line(label) if tr is None else finding_line(f, label, tr)
        rule = line.find(f"[{f.rule}] ")
        hang = 0 if rule < 0 else rule + len(f.rule) + 3
        typer.secho(wrapped(line, hang=hang, indent=4, keep=[one_line(label)]), fg=colour, err=err)


def fail(message: str, code: ExitCode = ExitCode.INVALID, *, tr: Translator | None = None) -> NoReturn:
    """One ``Error:`` line on stderr and the exit code (``tr``: the language of ``message``, said by the caller)."""
    typer.secho(f"Error: {message}" if tr is None else tr.t("Error: {message}", message=message), err=True,
                fg=typer.colors.RED)  # fmt: skip
    raise typer.Exit(code=int(code))


def exit_for(*, unreadable: bool, invalid: bool, disputes: bool = False) -> None:
    """End a command that read logs with its worst outcome: unreadable (3), then invalid (1), then a dispute (4)."""
    if unreadable:
        raise typer.Exit(int(ExitCode.UNREADABLE))
    if invalid:
        raise typer.Exit(int(ExitCode.INVALID))
    if disputes:
        raise typer.Exit(int(ExitCode.CLAIM_DISAGREES))


def wrapped(text: str, *, hang: int = 0, indent: int | None = 2, keep: Iterable[str] = ()) -> str:
    """``text`` broken between words at the width (``COLUMNS``, else the terminal's, else 80 piped), so that no
    line is cut mid-word nor leaves a final "." alone on a line; the lines after the first go on ``indent`` cells
    in (None: under ``hang``, the offset where the first line's text starts), never breaking inside ``keep``."""
    from ..view.wrap import wrapped_plain

    return wrapped_plain(text, hang=hang, indent=indent, keep=keep)


def print_wrapped(
    console: Console, text: Text, *, hang: int = 0, indent: int | None = 2, keep: Iterable[str] = ()
) -> None:
    """A rich ``text`` printed in lines at the console's width, as :func:`wrapped` breaks them (styles kept)."""
    from ..view.wrap import wrap

    for line in wrap(text, console.width, hang=hang, indent=indent, keep=keep):
        console.print(line, soft_wrap=True)


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


class ReadProgress:
    """Progress on standard error while logs are read: bytes of all the input, a rate and the time left.

    Shown only when standard error is a terminal and the input is at least
    ``min_bytes`` (standard input: always, without a total); otherwise it
    costs nothing. ``advance(file, end)`` after each match: ``end`` is how
    far into ``file`` reading has come (``LoadedMatch.end``).

        with ReadProgress(paths, "checking") as progress:
            for item in load(paths):
                progress.advance(item.file, item.end)
    """

    def __init__(self, paths: list[str], label: str, *, min_bytes: int = 1 << 20, enabled: bool | None = None) -> None:
        self.label = label
        self.sizes: dict[str, int] = {}
        self.done = 0  # bytes of the files finished
        self.current: str | None = None
        self.bar: Any = None
        self.task: Any = None
        show = sys.stderr.isatty() if enabled is None else enabled
        if not show:
            return
        from ..log.reader import STDIN, expand_paths

        total: int | None = 0
        for item in expand_paths(paths):
            if item == STDIN:
                total = None
                continue
            try:
                size = os.stat(item).st_size
            except OSError:
                continue
            self.sizes[str(item)] = size
            if total is not None:
                total += size
        if total is not None and total < min_bytes:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self.bar = Progress(
            TextColumn(label),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.bar.add_task(label, total=total)

    def __enter__(self) -> ReadProgress:  # noqa: PYI034 - a final class
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()

    def advance(self, file: str, end: int | None) -> None:
        """Reading has come ``end`` bytes into ``file`` (None: the whole file)."""
        if self.bar is None:
            return
        if file != self.current:
            if self.current is not None:
                self.done += self.sizes.get(self.current, 0)
            self.current = file
        here = self.sizes.get(file, 0) if end is None else end
        self.bar.update(self.task, completed=self.done + here)


def install_hint(extra: str, package: str) -> str:
    """How to install ``package`` (the ``extra`` of coloretto-log) the way this copy was installed."""
    prefix = sys.prefix.replace(os.sep, "/")
    if "/pipx/venvs/" in prefix:
        return f"pipx inject coloretto-log {package}"
    if "/uv/tools/" in prefix:
        return f"uv tool install --with {package} coloretto-log"
    source = Path(__file__).resolve().parents[2]
    if (source / "pyproject.toml").is_file() and "site-packages" not in source.parts:
        return f"{sys.executable} -m pip install -e '{source}[{extra}]'"  # installed from a clone
    return f"{sys.executable} -m pip install 'coloretto-log[{extra}]'"


def count_of_players(count: int | None, players: str | None, *, names_allowed: bool = True) -> tuple[int, list[str]]:
    """The player count from ``--player-count N`` and/or ``--players`` (names, or a number as before), and the names.

    ``--players`` means names in every command; a plain number there is still
    read as the count, the old spelling. A usage error (exit 2) when the two
    disagree, when neither is given, or when names are given where a command
    cannot use them.
    """
    names: list[str] = []
    given: int | None = None
    if players is not None:
        text = players.strip()
        if text.isdigit():
            given = int(text)
        else:
            names = [n.strip() for n in text.split(",") if n.strip()]
            if not names_allowed:
                raise typer.BadParameter(
                    "this command names its players itself: give the number of players with --player-count N",
                    param_hint="--players",
                )
            if len(set(names)) != len(names):
                raise typer.BadParameter(f"a name is given twice in {one_line(text)!r}", param_hint="--players")
            given = len(names)
    if count is not None and given is not None and count != given:
        raise typer.BadParameter(f"--player-count {count} but --players gives {given}", param_hint="--players")
    chosen = count if count is not None else given
    if chosen is None:
        raise typer.BadParameter("give --player-count N (or --players with the names)", param_hint="--player-count")
    return chosen, names


def loaded_matches(
    paths: list[str], label: str, unreadable: list[dict[str, str]], *, show_unreadable: bool,
    tr: Translator | None = None,
) -> Iterator[LoadedMatch]:
    """Every checked match of ``paths``, with progress on a terminal (``ReadProgress``).

    A file that cannot be read is added to ``unreadable`` (``file``,
    ``error``) and, with ``show_unreadable``, reported in one line on
    standard error (in ``tr``'s language when given); reading goes on with the next file.
    """
    from ..log.load import Unreadable, load

    with ReadProgress(paths, label) as progress:
        for item in load(paths):
            if isinstance(item, Unreadable):
                unreadable.append({"file": item.file, "error": item.message})
                if show_unreadable:
                    from ..view.findings import unreadable_line

                    line = one_line(item.message) if tr is None else unreadable_line(item.message, tr)
                    typer.secho(line, err=True, fg=typer.colors.RED)
                continue
            progress.advance(item.file, item.end)
            yield item


def page_languages(value: str, option: str = "--lang") -> tuple[str, ...]:
    """A pages' ``--lang``: languages separated by commas, each once, from ``lang.LANGUAGES`` (else a usage
    error, exit 2); the first is the one a page opens in."""
    from ..lang import LANGUAGES

    langs = tuple(dict.fromkeys(part.strip().lower() for part in value.split(",") if part.strip()))
    wrong = [part for part in langs if part not in LANGUAGES]
    if not langs or wrong:
        raise typer.BadParameter(f"{one_line(', '.join(wrong) or value)}: languages are {', '.join(LANGUAGES)}, "
                                 "separated by commas", param_hint=option)
    return langs
