"""The import contract: the layers of docs/architecture.md, held by walking every module's imports.

Arrows point down only: ``cli`` over ``db`` and ``view`` over ``report`` and
``coach`` over ``bots`` over ``log`` over ``core``. Each third-party package lives in the one
layer that owns it, and no module imports itself back through others.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "coloretto_log"

#: What each layer may import from the package (itself included).
ALLOWED: dict[str, set[str]] = {
    "core": {"core"},
    "lang": {"lang"},  # languages: the standard library and Babel only; core stays pure and never imports it
    "log": {"core", "log"},
    "club": {"core", "club"},  # club nights and tournaments: who sits where, Swiss rounds (pure, like core)
    "bots": {"core", "log", "bots"},  # the computer players, their playouts and seeded self-play
    "coach": {"core", "log", "lang", "bots", "coach"},  # the analysis: a match's decisions valued by the bots' playouts
    "record": {"core", "log", "lang", "record"},  # the table-side recorder's session
    "report": {"core", "log", "report"},
    "db": {"core", "log", "report", "club", "db"},
    "view": {"core", "log", "lang", "report", "view"},
    "serve": {"core", "log", "lang", "record", "serve"},  # the web recorder: the session of record behind a page
    "site": {"core", "log", "lang", "report", "db", "view", "club", "site"},  # the club's static site: db's figures drawn as pages
    "cli": {"core", "log", "lang", "bots", "coach", "record", "report", "db", "view", "serve", "site", "club", "cli", ""},
    "": {"core", "log", "lang", "bots", "coach", "record", "report", "db", "view", "serve", "site", "club", "cli", ""},  # the package's __init__ and __main__
}

#: The layers in which each third-party package may be imported.
THIRD_PARTY: dict[str, set[str]] = {
    "pydantic": {"log"},
    "pydantic_core": {"log"},
    "typing_extensions": {"log", "db"},
    "duckdb": {"db"},
    "pyarrow": {"db"},
    "openskill": {"db"},
    "typer": {"cli"},
    "click": {"cli"},
    "rich": {"cli", "view"},
    "matplotlib": {"cli", "view"},
    "starlette": {"serve"},
    "uvicorn": {"serve"},
    "segno": {"serve"},
    "babel": {"lang"},
    "jinja2": {"site"},  # the site's pages are drawn from templates
    "markupsafe": {"site"},  # jinja2's escaping
    "numpy": {"bots"},
    "numba": {"bots"},  # the fast playout path's kernel (bots._kernel), imported when a playout first needs it
}


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else ""


def _in_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(module: str, path: Path) -> Iterator[tuple[str, bool, int]]:
    """(imported module, at run time?, line) for every import in ``path``; relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        runtime = not _in_type_checking(node, parents)
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, runtime, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, runtime, node.lineno
            for alias in node.names:  # ``from . import engine`` imports a module
                sub = f"{target}.{alias.name}"
                if sub.startswith("coloretto_log.") and any(m == sub for m, _ in modules()):
                    yield sub, runtime, node.lineno


def test_every_module_belongs_to_a_layer() -> None:
    layers = {layer_of(m) for m, _ in modules()}
    assert layers <= set(ALLOWED), layers - set(ALLOWED)


def wrong_arrows(module: str, path: Path) -> Iterator[str]:
    """Every import of ``module`` (its source at ``path``) that its layer may not make, as a line naming it."""
    layer = layer_of(module)
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    for target, _, line in imports(module, path):
        top = target.split(".")[0]
        if top == "coloretto_log":
            if layer_of(target) not in ALLOWED[layer]:
                yield f"{where}:{line}: {layer or 'top'} imports {target}"
        elif top in THIRD_PARTY:
            if layer not in THIRD_PARTY[top]:
                yield f"{where}:{line}: {top} imported in {layer or 'top'}"
        elif top not in sys.stdlib_module_names and top != "__future__":
            yield f"{where}:{line}: {top} is not listed in THIRD_PARTY"


def test_arrows_point_down_the_layers() -> None:
    wrong = [w for module, path in modules() for w in wrong_arrows(module, path)]
    assert not wrong, "\n".join(wrong)


def test_the_rooms_of_a_layer_keep_its_arrows(tmp_path: Path) -> None:
    """db/ is regrouped in rooms (ingest/, ratings/, queries/, site/, club/): a module a folder down is in db's
    layer, and its relative imports resolve to what they name (``..site`` is db's room, ``...site`` the layer)."""
    rooms = sorted({p.relative_to(PACKAGE / "db").parts[0] for p in (PACKAGE / "db").glob("*/*.py")})
    assert rooms == ["club", "ingest", "queries", "ratings", "site"]
    assert {layer_of(m) for m, _ in modules() if m.startswith("coloretto_log.db.")} == {"db"}
    model = tmp_path / "model.py"  # as if it stood at db/ratings/model.py
    model.write_text(
        "from ..site import data\nfrom ...club import split\nfrom ...core import engine\n"  # allowed
        "from ...site import pages\nfrom ...view import html\nfrom ... import cli\nimport jinja2\n",  # not
        encoding="utf-8",
    )
    wrong = list(wrong_arrows("coloretto_log.db.ratings.model", model))
    assert [w.split(": ", 1)[1] for w in wrong] == [
        "db imports coloretto_log.site",
        "db imports coloretto_log.site.pages",
        "db imports coloretto_log.view",
        "db imports coloretto_log.view.html",
        "db imports coloretto_log",
        "db imports coloretto_log.cli",
        "jinja2 imported in db",
    ]


def test_core_imports_only_the_standard_library() -> None:
    for module, path in modules():
        if layer_of(module) != "core":
            continue
        for target, _, line in imports(module, path):
            top = target.split(".")[0]
            assert top in sys.stdlib_module_names or top in ("__future__", "coloretto_log"), f"{path}:{line}: {target}"


def test_no_import_cycle() -> None:
    """No cycle, counting every import: those inside functions and those only for the type checker too."""
    graph: dict[str, set[str]] = {m: set() for m, _ in modules()}
    for module, path in modules():
        for target, _, _ in imports(module, path):
            if target in graph and target != module:
                graph[module].add(target)
    done: set[str] = set()

    def visit(node: str, stack: list[str]) -> None:
        if node in stack:
            cycle = stack[stack.index(node):] + [node]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if node in done:
            return
        for nxt in sorted(graph[node]):
            visit(nxt, [*stack, node])
        done.add(node)

    for module in sorted(graph):
        visit(module, [])


@pytest.mark.parametrize(
    ("modules_", "absent"),
    [
        (["coloretto_log.core"] + [f"coloretto_log.core.{p.stem}" for p in sorted((PACKAGE / "core").glob("[a-z]*.py"))],
         ["pydantic", "duckdb", "pyarrow", "typer", "click", "rich", "numpy", "numba"]),
        (["coloretto_log.bots.players", "coloretto_log.bots.simulate", "coloretto_log.bots.fastplay",
          "coloretto_log.report.scorecard"],
         ["pydantic", "duckdb", "pyarrow", "typer", "click", "rich", "numpy", "numba"]),
        (["coloretto_log.log.load", "coloretto_log.report.timeline", "coloretto_log.view.html"],
         ["duckdb", "pyarrow", "typer", "click", "rich", "numpy"]),
    ],
)
def test_what_a_fresh_interpreter_loads(modules_: list[str], absent: list[str]) -> None:
    code = (
        "import importlib, sys\n"
        f"for m in {modules_!r}: importlib.import_module(m)\n"
        f"print(','.join(m for m in {absent!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_no_test_module_imports_another() -> None:
    """Shared test code lives in tests/builders/ and conftest.py, never in test files."""
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names] if node.level else [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.rpartition(".")[2].startswith("test_"):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {name}")
    assert not wrong, "\n".join(wrong)
