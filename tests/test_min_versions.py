"""The oldest versions we claim: ``.ci/min-versions.txt`` pins exactly the floors ``pyproject.toml`` allows.

``.ci/min-versions`` installs that file's versions and runs the tests of the layers
that use them; this test holds that it tries every runtime dependency (the
``dependencies`` and the ``serve`` and ``plot`` extras), each at the floor that
pyproject.toml writes, so that raising a floor in one place and not the other fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from .conftest import ROOT

tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later

#: The extras a user installs to run a command (``serve``, ``stats --png``); ``test`` is the suite's tools.
RUNTIME_EXTRAS = ("serve", "plot")


def _project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        project: dict[str, object] = tomllib.load(f)["project"]
    return project


def floor(requirement: str) -> Version:
    """The version after ``>=`` in a requirement (there must be exactly one)."""
    floors = [Version(s.version) for s in Requirement(requirement).specifier if s.operator == ">="]
    assert len(floors) == 1, f"{requirement}: no single >= floor"
    return floors[0]


def runtime_floors() -> dict[str, Version]:
    """Each runtime dependency of pyproject.toml (canonical name) and its floor."""
    project = _project()
    extras = project["optional-dependencies"]
    assert isinstance(extras, dict)
    requirements = [*project["dependencies"], *(r for extra in RUNTIME_EXTRAS for r in extras[extra])]  # type: ignore[misc]
    found: dict[str, Version] = {}
    for requirement in requirements:
        name = canonicalize_name(Requirement(requirement).name)
        assert found.setdefault(name, floor(requirement)) == floor(requirement), f"{name}: two floors in pyproject.toml"
    return found


def pinned(path: Path = ROOT / ".ci" / "min-versions.txt") -> dict[str, Version]:
    """``name==version`` lines of the constraints file (comments and blank lines skipped)."""
    pins: dict[str, Version] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        assert m, f"min-versions.txt: not name==version: {line!r}"
        name = canonicalize_name(m.group(1))
        assert name not in pins, f"min-versions.txt: {name} twice"
        pins[name] = Version(m.group(2))
    return pins


def test_the_floor_reader_takes_the_version_after_greater_or_equal() -> None:
    assert floor("pydantic>=2.6,<3") == Version("2.6.0")
    assert floor("typer>=0.19.2") == Version("0.19.2")
    with pytest.raises(AssertionError):
        floor("ruff==0.17.6")


def test_every_runtime_dependency_is_tried_at_its_floor() -> None:
    floors, pins = runtime_floors(), pinned()
    assert {"duckdb", "pydantic", "typer", "rich", "pyarrow", "openskill", "babel", "jinja2", "numpy", "numba",
            "starlette", "uvicorn"} <= set(floors)
    assert sorted(pins) == sorted(floors), "min-versions.txt and pyproject.toml name different packages"
    differ = {name: (str(floors[name]), str(pins[name])) for name in floors if pins[name] != floors[name]}
    assert not differ, f"pyproject.toml's floor and min-versions.txt's version differ: {differ}"


def test_the_test_extra_asks_no_other_floor_of_a_runtime_dependency() -> None:
    """``starlette``, ``uvicorn``, ``segno`` and ``matplotlib`` are in the test extra too: with the same floor."""
    floors = runtime_floors()
    extras = _project()["optional-dependencies"]
    assert isinstance(extras, dict)
    for requirement in extras["test"]:
        name = canonicalize_name(Requirement(requirement).name)
        if name in floors:
            assert floor(requirement) == floors[name], requirement
