"""``coloretto-log validate``: check logs against the format and the rules."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..core.errors import Finding, one_line
from ..lang import DEFAULT, Translator
from ..log.load import LoadedMatch
from .app import app
from .common import (
    Format,
    JsonOption,
    JsonReport,
    LangOption,
    LogPaths,
    TableJsonOption,
    exit_for,
    loaded_matches,
    output_format,
    plural,
    print_findings,
    terminal_translator,
    wrapped,
)


def match_json(m: LoadedMatch, findings: list[Finding]) -> dict[str, Any]:
    """The stable JSON shape of one checked match (``findings``: ``m.findings()``)."""
    r = m.report
    return {
        "file": m.file,
        "line": m.line,
        "match_id": r.match_id,
        "valid": not any(f.severity == "error" for f in findings),
        "complete": r.complete,
        "games": [{"game": g.number, "complete": g.complete} for g in r.games],
        "findings": [f.as_json() for f in findings],
    }


def missing_games(m: LoadedMatch, tr: Translator | None = None) -> str | None:
    """What a match lacks when every game it holds has ended but it has fewer games than ``rules.games``.

    Not a finding (docs/format.md: a log is valid while its match is being
    recorded), but a person checking a finished evening wants to know.
    """
    r = m.report
    if r.rules is None or not r.games or len(r.games) >= r.rules.games or not all(g.complete for g in r.games):
        return None
    missing = r.rules.games - len(r.games)
    if tr is not None and tr.lang != DEFAULT:
        return tr.nt("note: the match is incomplete: {done} of {n} planned game played, {missing} missing",
                     "note: the match is incomplete: {done} of {n} planned games played, {missing} missing",
                     r.rules.games, done=len(r.games), missing=missing)  # fmt: skip
    return (
        f"note: the match is incomplete: {len(r.games)} of {plural(r.rules.games, 'planned game')} played, "
        f"{missing} missing (rules.games is {r.rules.games})"
    )


@app.command()
def validate(
    paths: LogPaths,
    fmt: TableJsonOption = None,
    json_out: JsonOption = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors and the summary (no warnings).")] = False,
    lang: LangOption = None,
) -> None:
    """Check match logs against the log format and the rules of the game.

    Every finding is one line, FILE[:LINE]: game G, move M: error [rule-id] message (wider
    than the terminal, it goes on four columns in), followed by one summary line. A valid match with fewer games than its rules.games
    plans gets a note line (not a warning: a match being recorded is valid) and is
    counted in the summary. After an error in a game, checking goes on with
    the next game and the next file. Rule ids are listed in docs/rules.md.

    At most 20 findings of one rule are shown for one game, then one line says how many
    more there were. On a terminal, a progress bar on standard error follows large inputs.

    The lines are in the language of --lang (else the locale; English by
    default), each with its rule id as it is; --format json stays English.

    Exit codes: 0 no error (warnings allowed), 1 at least one error, 2 usage error,
    3 a file that cannot be read.

    Example: coloretto-log validate sample_logs/
    Example: coloretto-log validate --lang ja sample_logs/
    """
    json_out = output_format(fmt, json_out) is Format.json
    tr = terminal_translator(lang)
    report = JsonReport() if json_out else None
    unreadable: list[dict[str, str]] = []
    files: set[str] = set()
    n_matches = n_invalid = n_errors = n_warnings = n_short = 0
    for item in loaded_matches(paths, "checking", unreadable, show_unreadable=report is None, tr=tr):
        files.add(item.file)
        n_matches += 1
        findings = item.findings()
        errors = sum(1 for f in findings if f.severity == "error")
        n_errors += errors
        n_warnings += len(findings) - errors
        n_invalid += errors > 0
        short = None if errors else missing_games(item, tr)
        n_short += short is not None
        if report is not None:
            report.match(match_json(item, findings))
            continue
        print_findings((f for f in findings if f.severity == "error" or not quiet), item.label, tr=tr)
        if short is not None and not quiet:
            typer.secho(wrapped(tr.t("{source}: {finding}", source=one_line(item.label), finding=short),
                                keep=[one_line(item.label)]), fg=typer.colors.YELLOW)  # fmt: skip
    summary = {
        "files": len(files),
        "matches": n_matches,
        "valid": n_matches - n_invalid,
        "invalid": n_invalid,
        "errors": n_errors,
        "warnings": n_warnings,
        "unreadable": len(unreadable),
        "missing_games": n_short,  # valid matches with fewer games than planned
    }
    if report is not None:
        report.close(unreadable=unreadable, summary=summary)
    else:
        text = summary_text(tr, n_matches, len(files), n_invalid, n_errors, n_warnings, n_short, len(unreadable))
        ok = not n_invalid and not unreadable
        typer.secho(wrapped(text), fg=typer.colors.GREEN if ok else typer.colors.RED, bold=True)
    exit_for(unreadable=bool(unreadable), invalid=bool(n_invalid))


def summary_text(tr: Translator, n_matches: int, n_files: int, n_invalid: int, n_errors: int, n_warnings: int,
                 n_short: int, n_unreadable: int) -> str:
    """The summary line, in ``tr``'s language (English reads as it always did)."""
    text = tr.t("{matches} in {files}: {valid} valid, {invalid} invalid; {errors}, {warnings}",
                matches=tr.nt("{n} match", "{n} matches", n_matches), files=tr.nt("{n} file", "{n} files", n_files),
                valid=n_matches - n_invalid, invalid=n_invalid, errors=tr.nt("{n} error", "{n} errors", n_errors),
                warnings=tr.nt("{n} warning", "{n} warnings", n_warnings))  # fmt: skip
    if n_short:
        text += tr.nt("; {n} match short of planned games", "; {n} matches short of planned games", n_short)
    if n_unreadable:
        text += tr.nt("; {n} file could not be read", "; {n} files could not be read", n_unreadable)
    return text
