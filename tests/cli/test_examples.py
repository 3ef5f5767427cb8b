"""Every example runs as written: each ``Example:`` of every command's --help, and each ``coloretto-log``
command line in the README and in docs/, run on a copy of the shipped files, exits as its text says (one
that the README and a page of docs/ both show runs once, on the page).

The expected exit code is 0 unless the example's comment or sentence says otherwise ("exits 1",
"exit 3"). Examples of one text run in order in one folder (a copy of ``sample_logs/`` and of
``tests/data/invalid/``), so an example may use what an earlier one of the same text wrote (on several workers, a worker
first runs the earlier examples it was not given).
Installation lines (``pip install``, ``pytest``) are not run.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from coloretto_log.cli import COMMANDS

from ..conftest import INVALID, ROOT, SAMPLES

#: ``coloretto-log`` at the start of a command line, as the texts write it.
_PROGRAM = re.compile(r"^(?:\$\s+)?(?:\.venv/bin/)?coloretto-log(?=\s|$)")
_EXIT = re.compile(r"\bexits?\s+(?:with\s+)?(?:code\s+)?(\d+)")
_FENCE = re.compile(r"^```(\w*)\s*$")
_INLINE = re.compile(r"`((?:\.venv/bin/)?coloretto-log [^`]+)`([^`]{0,60})")

#: Examples that fail today in commands other helpers own (listed in the report for the lead); strict:
#: when one is fixed, its entry must go.
KNOWN_BROKEN: dict[str, str] = {
}


#: Commands whose examples are not run here, and why (they are run by their own tests).
NOT_RUN: dict[str, str] = {
    "serve": "starts a web server that runs until Ctrl-C (and may listen beyond this machine): "
    "tests/serve/test_serve.py starts it, records through it and stops it",
}


@dataclass(frozen=True)
class Example:
    source: str  # "README.md", "docs/x.md", "help: validate"
    line: int
    command: str  # the shell text, with coloretto-log as written
    exit_code: int

    @property
    def id(self) -> str:
        return f"{self.source}:{self.line}: {self.command}"


def _expected(comment: str) -> int:
    m = _EXIT.search(comment)
    return int(m.group(1)) if m else 0


def _split_comment(line: str) -> tuple[str, str]:
    """``command  # comment`` -> (command, comment), a ``#`` inside quotes kept."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


#: Words that make a line a pattern (a synopsis), not an example.
_PLACEHOLDER = re.compile(r"\[--|\.\.\.|\b(?:FILE|PATH|DIR|ID|HAND|COLOURS?|NAMES?|DATE|N|S|E|G|M|K|OUT)\b|\"SQL\"")


def _runnable(command: str) -> bool:
    skipped = ("pip install", "pytest", "venv ")
    return not any(word in command for word in skipped) and not _PLACEHOLDER.search(command)


def examples_in_markdown(path: Path) -> list[Example]:
    source = path.relative_to(ROOT).as_posix()
    found: list[Example] = []
    fence: str | None = None
    paragraph: list[tuple[int, str]] = []

    def prose() -> None:
        """Inline examples of a paragraph of prose (its sentence may say the exit code on the next line)."""
        if not paragraph:
            return
        text = " ".join(line for _, line in paragraph)
        for m in _INLINE.finditer(text):
            command = m.group(1)
            if len(command.split()) >= 3 and _runnable(command):  # a bare `coloretto-log stats` names the command
                found.append(Example(source, paragraph[0][0], command, _expected(m.group(2))))
        paragraph.clear()

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        m = _FENCE.match(raw.strip())
        if m:
            prose()
            fence = None if fence is not None else m.group(1)
            continue
        if fence is not None:
            if fence not in ("", "bash", "sh", "shell", "console"):
                continue
            command, comment = _split_comment(raw.strip())
            if _PROGRAM.match(command) and _runnable(command):
                found.append(Example(source, number, command.removeprefix("$ "), _expected(comment)))
            continue
        if not raw.strip() or raw.startswith(("#", "|")):
            prose()
            continue
        paragraph.append((number, raw.strip()))
    prose()
    return found


def examples_in_help() -> list[Example]:
    from typer.main import get_command

    from coloretto_log.cli import app

    group = get_command(app)
    found: list[Example] = []
    import typer

    ctx = typer.Context(group)  # type: ignore[arg-type]
    for name in dict.fromkeys(COMMANDS):
        command = group.get_command(ctx, name)  # type: ignore[attr-defined]
        for number, line in enumerate((command.help or "").splitlines(), start=1):
            m = re.match(r"^\s*Examples?:\s*(coloretto-log\s.+)$", line)
            if m:
                text, comment = _split_comment(m.group(1))
                found.append(Example(f"help: {name}", number, text, _expected(comment)))
    return found


def readme_and_docs_examples() -> tuple[list[Example], list[Example]]:
    """The README's examples and those of the pages in docs/."""
    pages = [e for path in sorted((ROOT / "docs").glob("*.md")) for e in examples_in_markdown(path)]
    return examples_in_markdown(ROOT / "README.md"), pages


def all_examples() -> list[Example]:
    """Every example to run. The README shows one example a command, each also on the command's page in docs/
    (the README is a landing page, issue 44): an example of the README that a page runs, with the same exit
    code, runs there, once, not twice."""
    readme, pages = readme_and_docs_examples()
    on_pages = {(e.command, e.exit_code) for e in pages}
    return [e for e in readme if (e.command, e.exit_code) not in on_pages] + pages + examples_in_help()


EXAMPLES = all_examples()


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One folder per text (created on first use), holding copies of the shipped files."""
    return {}


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``coloretto-log`` on PATH that runs this checkout with this interpreter."""
    folder = tmp_path_factory.mktemp("bin")
    program = folder / "coloretto-log"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m coloretto_log "$@"\n', encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return folder


#: The examples each text's folder has run in this process (a worker of ``pytest -n`` runs only some).
ran: dict[str, set[Example]] = {}


def _workdir(workdirs: dict[str, Path], source: str, base: Path) -> Path:
    if source not in workdirs:
        work = base / re.sub(r"[^A-Za-z0-9]+", "-", source)
        work.mkdir()
        shutil.copytree(SAMPLES, work / "sample_logs")
        shutil.copytree(INVALID, work / "tests" / "data" / "invalid")
        workdirs[source] = work
    return workdirs[source]


def test_examples_are_found() -> None:
    sources = {e.source for e in EXAMPLES}
    readme, _ = readme_and_docs_examples()
    assert len(readme) >= len(COMMANDS), "the README has an example a command"
    run = {(e.command, e.exit_code) for e in EXAMPLES}
    assert {(e.command, e.exit_code) for e in readme} <= run  # each runs: from the README, or on a page of docs/
    assert {f"help: {name}" for name in ("validate", "score", "deal", "simulate", "schema")} <= sources
    assert all(e.command.split()[0].endswith("coloretto-log") for e in EXAMPLES)


def _run(example: Example, work: Path, shim: Path) -> subprocess.CompletedProcess[str]:
    command = _PROGRAM.sub("coloretto-log", example.command)
    env = dict(os.environ, PATH=f"{shim}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="100", NO_COLOR="1")
    env.pop("COLORETTO_DB", None)
    return subprocess.run(
        ["bash", "-c", command], cwd=work, env=env, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=3600, check=False,  # generous: at load 20 one took 600 s
    )


def _skipped(example: Example) -> bool:
    words = example.command.split()
    return len(words) > 1 and words[1] in NOT_RUN


#: The examples of one text go to one worker (``--dist loadgroup`` in pyproject.toml): a worker given the
#: 40th example of the README would otherwise run the 39 before it again.
@pytest.mark.parametrize(
    "example", [pytest.param(e, id=e.id, marks=pytest.mark.xdist_group(e.source)) for e in EXAMPLES]
)
def test_example_runs_as_written(
    example: Example, workdirs: dict[str, Path], shim: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if _skipped(example):
        pytest.skip(NOT_RUN[example.command.split()[1]])
    base = workdirs.setdefault("_base", tmp_path_factory.mktemp("examples"))
    work = _workdir(workdirs, example.source, base)
    # The examples of one text build on each other (an ingest before a query). Run on several workers
    # (pytest -n), this worker may not have run the earlier ones: it runs them first, as the reader would.
    done = ran.setdefault(example.source, set())
    for earlier in EXAMPLES:
        if earlier is example:
            break
        if earlier.source == example.source and earlier not in done and not _skipped(earlier):
            _run(earlier, work, shim)
            done.add(earlier)
    proc = _run(example, work, shim)
    done.add(example)
    if example.command in KNOWN_BROKEN:
        if proc.returncode == example.exit_code:
            pytest.fail(f"now runs as written: remove it from KNOWN_BROKEN ({KNOWN_BROKEN[example.command]})")
        pytest.xfail(KNOWN_BROKEN[example.command])
    assert proc.returncode == example.exit_code, (
        f"{example.source}:{example.line}: `{example.command}` exits {proc.returncode}, "
        f"the text says {example.exit_code}\n--- stderr\n{proc.stderr[-2000:]}\n--- stdout\n{proc.stdout[-1000:]}"
    )
    assert "Traceback" not in proc.stderr
