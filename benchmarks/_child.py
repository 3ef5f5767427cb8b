"""The command line as the benchmarks time it: the installed program, the CPU time of a child process, and
its peak memory match by match."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


def program() -> list[str]:
    """The installed console script beside this interpreter, else ``python -m coloretto_log``."""
    script = Path(sys.executable).with_name("coloretto-log")
    return [str(script)] if script.exists() else [sys.executable, "-m", "coloretto_log"]


def child_cpu(args: Sequence[str], repeats: int, env: dict[str, str] | None = None) -> float:
    """The least CPU time (user + system) of ``repeats`` runs of ``args``, output discarded.
    ``env``: the child's environment (default: this process's); given one, ``args`` first runs once untimed
    (with ``bytecode_env``, that run writes the bytecode the timed runs read)."""
    if env is not None:
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def checkout_note() -> str:
    """How this process's environment starts a child: with the package's bytecode or compiling it."""
    import os

    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return "PYTHONDONTWRITEBYTECODE is set here: a child compiles this checkout's modules at every start"
    return "bytecode written and read as usual"


def bytecode_env() -> dict[str, str]:
    """The environment of a child that starts as an installed program does: every module's bytecode
    compiled beforehand (``pip install`` compiles it), where a checkout run under PYTHONDONTWRITEBYTECODE
    compiles each of its modules again at every start. The bytecode goes to a folder of its own
    (PYTHONPYCACHEPREFIX, removed at exit), never into the source tree; ``child_cpu``'s untimed first run
    writes it."""
    import atexit
    import os
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="bench-bytecode-")
    atexit.register(shutil.rmtree, folder, True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = folder
    return env


# The command in a process of its own, counting the matches it reads: at each mark (that many matches dealt
# with: the next one asked for) and at the end, the peak resident memory so far, the entries of the bots'
# score memo (0 when the command does not play), the CPU time so far. The command runs unchanged: only ``log.load.load``, the
# reader every command takes its matches from, is wrapped to count.
_COUNTED = r"""
import json, resource, sys
import coloretto_log.log.load as L

marks, args = {int(m) for m in sys.argv[1].split(",")}, sys.argv[2:]
notes, read, real = [], [0], L.load

def note(n):
    bots = sys.modules.get("coloretto_log.bots.players")
    memo = sum(len(m[0]) for m in bots._MEMOS.values()) if bots is not None else 0
    own = resource.getrusage(resource.RUSAGE_SELF)
    notes.append([n, own.ru_maxrss, memo, own.ru_utime + own.ru_stime])

def counted(*a, **k):
    for item in real(*a, **k):
        if read[0] in marks:
            note(read[0])
        read[0] += 1
        yield item

L.load = counted
from coloretto_log.cli import main
try:
    main(args)
finally:
    note(read[0])
    sys.stderr.write("\n@@" + json.dumps(notes) + "\n")
"""


@dataclass(frozen=True)
class Mark:
    """Where a command was once ``matches`` matches were dealt with: its peak resident memory so far (MB),
    the entries of the bots' score memo, its CPU seconds so far."""

    matches: int
    peak_mb: float
    memo: int
    cpu: float


def peak_by_match(args: Sequence[str], marks: Sequence[int], exits: Sequence[int] = (0, 1)) -> list[Mark]:
    """Run ``coloretto-log ARGS`` in a process of its own (output discarded): its ``Mark`` at each of
    ``marks`` it reaches, then at its end (the whole run's peak, the matches read). ``exits``: the exit codes
    expected (1: a log with an error, read through)."""
    done = subprocess.run([sys.executable, "-c", _COUNTED, ",".join(map(str, marks)), *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode not in exits or "\n@@" not in done.stderr:
        raise RuntimeError(f"coloretto-log {' '.join(args)}: exit {done.returncode}: {done.stderr[-2000:]}")
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, kB elsewhere
    return [Mark(n, kb / scale, memo, s) for n, kb, memo, s in json.loads(done.stderr.rsplit("\n@@", 1)[1])]
