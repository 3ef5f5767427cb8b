"""The release works outside the clone (issue 44): the package built as a wheel, installed apart from the clone,
and every command's main path run from a folder outside it, on the samples that ``coloretto-log samples`` writes;
the templates, translations, evaluator weights and page assets are found in the installed package.

The wheel is installed with ``pip install --no-deps --target`` into a folder of its own, put first on
``PYTHONPATH`` (the test extra's dependencies come from this venv): cheaper than a new venv, and the checks say
that ``coloretto_log`` was imported from that folder, not from the clone. The commands run in one process
(typer's runner), in the order a club would run them; the installed console script runs once. Marked ``wheel``
(``.ci/run`` runs it with the rest; ``-m "not wheel"`` leaves it out).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

pytestmark = [pytest.mark.wheel, pytest.mark.xdist_group("wheel")]

#: Run in the installed package, in a folder outside the clone: each command's main path, with what it must find.
SCRIPT = r'''
import json, os, sys
from pathlib import Path
from typer.testing import CliRunner

import coloretto_log
from coloretto_log.cli import COMMANDS, app

here = Path.cwd()
runner = CliRunner()
people = "Aiko,Boris,Chloe,Dae,Emil,Fay,Gus"
runs = [
    ["samples", "sample_logs"],
    ["validate", "sample_logs/"],
    ["score", "sample_logs/"],
    ["score", "--lang", "ja", "sample_logs/classic-3p-seeded-match.json"],
    ["replay", "sample_logs/classic-3p-seeded-match.json", "--html", "match.html"],
    ["record", "first.json", "--players", "Aiko,Boris", "--games", "1"],
    ["simulate", "-n", "1", "--player-count", "3", "--bots", "expert,greedy,random", "--seed", "1", "--out", "sims.jsonl"],
    ["analyze", "sample_logs/classic-4p-recorded-match-with-claims.json", "--game", "1", "--player", "Aiko",
     "--samples", "4", "--max-se", "9", "--html", "analysis.html"],
    ["deal", "--seed", "42", "--player-count", "4"],
    ["schema"],
    ["ingest", "sample_logs/", "--db", "club.duckdb"],
    ["stats", "--db", "club.duckdb"],
    ["query", "SELECT count(*) AS matches FROM matches", "--db", "club.duckdb", "--timeout", "600"],
    ["export", "--db", "club.duckdb", "--parquet", "season/"],
    ["ratings", "--db", "club.duckdb"],
    ["site", "--db", "club.duckdb", "--out", "site/", "--lang", "en,ko"],
    ["tables", "--db", "club.duckdb", people, "--html", "tonight.html"],
    ["tournament", "new", "Open", "--db", "club.duckdb", "--players", people, "--rounds", "2", "--seed", "1"],
    ["tournament", "pair", "Open", "--db", "club.duckdb"],
]
done = []
for args in runs:
    stdin = (here / "sample_logs" / "classic-2p-recorded-game.typed.txt").read_text() if args[0] == "record" else None
    result = runner.invoke(app, args, input=stdin)
    done.append({"args": args, "code": result.exit_code, "out": result.stdout[-3000:], "err": result.stderr[-2000:]})

# serve: the page a phone opens, read as make_app reads it (the server itself runs in tests/serve/)
from importlib import resources
import coloretto_log.serve.app
page = resources.files("coloretto_log.serve").joinpath("assets/page.html").read_text(encoding="utf-8")

print(json.dumps({
    "package": coloretto_log.__file__, "commands": sorted(COMMANDS), "runs": done, "serve_page": page[:200],
    "files": {name: (here / name).exists() for name in ("match.html", "analysis.html", "site/index.html",
                                                          "tonight.html", "first.json", "sims.jsonl")},
}))
'''


def _offline_build() -> bool:
    """Whether this venv can build the wheel itself (setuptools >= 70.1 or the wheel package): no index needed."""
    try:
        from setuptools.command import bdist_wheel  # noqa: F401
    except ImportError:
        return importlib.util.find_spec("wheel") is not None
    return True


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package built as a wheel from a copy of the clone's sources, installed into a folder of its own."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"  # a copy: the build's own folders (build/, *.egg-info) stay out of the clone
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    shutil.copytree(ROOT / "coloretto_log", source / "coloretto_log",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    isolation = ["--no-build-isolation"] if _offline_build() else []  # else pip fetches setuptools, as -e does
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", *isolation, "-w", str(base / "dist"), str(source)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (base / "dist").glob("coloretto_log-*.whl")
    target = base / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-q", "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return target


def _env(target: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(target), COLUMNS="100", PYTHONNOUSERSITE="1")
    env.pop("COLORETTO_DB", None)
    return env


@pytest.fixture(scope="module")
def outside(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What every command did, run from the installed package in a folder outside the clone."""
    work = tmp_path_factory.mktemp("outside")
    assert not work.resolve().is_relative_to(ROOT)
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=work, env=_env(installed), capture_output=True,
                          text=True, timeout=3600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_the_package_comes_from_the_wheel_not_the_clone(installed: Path, outside: dict[str, Any]) -> None:
    package = Path(outside["package"]).resolve()
    assert package.is_relative_to(installed.resolve()) and not package.is_relative_to(ROOT)


def test_every_command_runs_from_the_installed_package(outside: dict[str, Any]) -> None:
    ran = {run["args"][0] for run in outside["runs"]}
    assert ran | {"serve"} == set(outside["commands"])  # serve: its page below (a server runs in tests/serve/)
    failed = [f"{' '.join(r['args'])}: exit {r['code']}\n{r['err']}{r['out'][-500:]}" for r in outside["runs"]
              if r["code"] != 0]
    assert not failed, "\n".join(failed)


def test_the_installed_package_finds_its_data(outside: dict[str, Any]) -> None:
    runs = {" ".join(r["args"][:2]): r for r in outside["runs"]}
    assert "9 sample files written to sample_logs" in runs["samples sample_logs"]["out"]
    assert "ゲーム" in runs["score --lang"]["out"]  # the Japanese catalogue
    assert all(outside["files"].values()), outside["files"]  # the viewer, the analysis page, the site's templates
    assert "<html" in outside["serve_page"].lower()  # serve's page
    simulated = runs["simulate -n"]["out"] + runs["simulate -n"]["err"]
    assert "expert" in simulated  # the evaluator's weights.json loaded


def test_the_installed_console_script_runs(installed: Path, tmp_path: Path) -> None:
    script = installed / "bin" / "coloretto-log"
    proc = subprocess.run([str(script), "deal", "--seed", "42", "--player-count", "2"], cwd=tmp_path,
                          env=_env(installed), capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "42" in proc.stdout
