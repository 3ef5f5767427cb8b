from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from coloretto_log.lang import from_environment

from .builders.browser import Browser, find_chromium

ROOT = Path(__file__).resolve().parents[1]

# No wall-clock limit on a property's example: hypothesis's default deadline (200 ms an example) is crossed
# at load 10 on 2 cores by work that takes 40 ms alone (issue 30). The number of examples bounds the work.
settings.register_profile("any-load", deadline=None)
settings.load_profile("any-load")

# The suite starts the command line in a process of its own many times over; each compiles what it imports
# of the package again unless Python keeps the bytecode, as it does by default. A machine may turn that off
# (PYTHONDONTWRITEBYTECODE, set on the project's machines): the processes started from here (xdist's workers,
# the commands under test) keep it, as on a user's machine. Measured on tests/cli/test_{replay,validate,score}_cli.py,
# -n 0: 27.6 and 24.0 s of CPU without it, 20.8 and 20.1 s with it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The recorder speaks the locale's language (docs/languages.md); the tests that read its English
# words must not depend on the machine's locale (tests/cli/test_record_languages.py sets its own).
if from_environment(os.environ) != "en":
    os.environ["LC_ALL"] = "C.UTF-8"
#: Example logs kept with the tests (each validates with no finding).
EXAMPLES = ROOT / "tests" / "data" / "db"
SAMPLES = ROOT / "sample_logs"
#: Logs broken on purpose, one error each (sample_logs/README.md lists them): not among the samples,
#: so that `validate sample_logs/` exits 0 as its help says.
INVALID = ROOT / "tests" / "data" / "invalid"
#: ``query``'s time bound for tests that do not test it: the default 10 s is wall-clock time, which a
#: trivial query (a Python child that loads DuckDB) crossed at load 6-9 on 2 cores (issue 30).
GENEROUS = ("--timeout", "600")
#: ``pytest -n auto``'s workers for each core (``pytest_xdist_auto_num_workers`` below).
WORKERS_A_CORE = 2.0


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture(scope="module")
def chromium() -> str:
    """The Chromium binary of the browser tests; skips them without one, unless COLORETTO_REQUIRE_BROWSER is set."""
    binary = find_chromium()
    if binary is None:
        reason = "no Chromium found: install Debian's chromium package (.ci/install-browser) or set COLORETTO_CHROMIUM"
        if os.environ.get("COLORETTO_REQUIRE_BROWSER"):
            pytest.fail(f"COLORETTO_REQUIRE_BROWSER is set, but {reason}")
        pytest.skip(reason)
    return binary


@pytest.fixture
def browser(chromium: str) -> Iterator[Browser]:
    """One headless Chromium with a fresh profile, closed after the test."""
    with tempfile.TemporaryDirectory(prefix="coloretto-chromium-", ignore_cleanup_errors=True) as profile:
        b = Browser(chromium, profile)
        try:
            yield b
        finally:
            b.close()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``pytest -n auto``: WORKERS_A_CORE workers for each core this process may use (PYTEST_XDIST_AUTO_NUM_WORKERS,
    when set, decides instead, as xdist's own hook does).

    Some tests wait on what is not the CPU: a server's deadline, a flood of connections timing out, a process
    starting. With one worker a core, the core stays idle while its worker waits; one worker more fills those waits
    with other tests. Measured with a sampler of the tests' process tree (is any of its processes running or ready
    to run?), -n 0: tests/serve idle 67 s in all (the bounds tests about 10 s each), tests/view (Chromium) 6 s; a
    worker more costs its collection, 13 s of CPU (docs/design/ci-time.md)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, round(cores * WORKERS_A_CORE))


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Iterator[None]:
    """Groups for ``pytest -n`` (``--dist loadgroup``, pyproject.toml): one worker runs a group's tests.

    Before xdist's own hook: the tests of a module that share a fixture of the module's own (``scope="module"``
    or ``"session"``: a season ingested, a site built, a match analysed) become one group, so that the fixture is
    made once, not once a worker (xdist sends the groups with the most tests first; the single tests fill in).
    A test already in a group (the docs' examples, one group a text) keeps it.

    After it: xdist 3.8 puts the group in ``item._nodeid`` ("...@group"), which pytest 9.2 no longer reads
    (``item.nodeid`` comes from ``item._id``): without this, every group was ignored and each worker made the
    module fixtures, and ran a text's earlier examples, again (measured on the 31 examples of docs/site.md,
    tournament.md and ratings.md, ``-n 2``: 87.1 s of CPU with the groups ignored, 48.0 s with them). Without xdist
    (``-n 0``), nothing changes."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        module = item.nodeid.split("::")[0]
        info = getattr(item, "_fixtureinfo", None)
        for name in item.fixturenames if info is not None else ():
            defs = info.name2fixturedefs.get(name)
            if defs and defs[-1].scope in ("module", "session") and defs[-1].baseid == module:
                item.add_marker(pytest.mark.xdist_group(module))
                break
    yield
    if getattr(config.option, "loadgroup", False):
        for item in items:
            grouped = getattr(item, "_nodeid", None)
            if isinstance(grouped, str) and "@" in grouped and hasattr(item, "_id") and item.nodeid != grouped:
                item._id = type(item._id).parse(grouped)
