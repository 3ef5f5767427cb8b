"""The command line as the benchmarks time it: the installed program, and the CPU time of a child process."""

from __future__ import annotations

import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def program() -> list[str]:
    """The installed console script beside this interpreter, else ``python -m coloretto_log``."""
    script = Path(sys.executable).with_name("coloretto-log")
    return [str(script)] if script.exists() else [sys.executable, "-m", "coloretto_log"]


def child_cpu(args: Sequence[str], repeats: int) -> float:
    """The least CPU time (user + system) of ``repeats`` runs of ``args``, output discarded."""
    best = float("inf")
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best
