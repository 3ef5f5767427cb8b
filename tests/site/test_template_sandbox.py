"""Templates are content, not code: hostile templates given as ``site --templates`` are refused, each with one
line naming the template and its line, exit 2, and the output folder unchanged (``site/sandbox.py``).

One database and one earlier site are shared by every case; each case copies the site (a few small files) and
builds over it with one hostile ``player.html``. The package's own templates are drawn in the same sandbox: the
rest of tests/site holds that they still draw every page.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.site import sandbox

from ..conftest import SAMPLES

runner = CliRunner()

#: (case, the body of a player page's template, what the refusal says): each the well-known way out of a
#: template (Python's insides through attribute chains, the globals Jinja2 gives, a file outside the folder)
#: or a way to make a page cost without bound.
HOSTILE = [
    ("subclasses", "{{ ''.__class__.__mro__[1].__subclasses__() }}", "unsafe|__class__|undefined"),
    ("mro-by-attr", "{{ ''|attr('__class__')|attr('__mro__') }}", "unsafe|__class__|undefined"),
    ("self-globals", "{{ self.__init__.__globals__ }}", "unsafe|__init__|undefined"),
    ("cycler-globals", "{{ cycler.__init__.__globals__.os }}", "unsafe|__init__|undefined"),
    ("joiner-globals", "{{ joiner.__init__.__globals__ }}", "unsafe|__init__|undefined"),
    ("namespace-globals", "{{ namespace.__init__.__globals__ }}", "unsafe|__init__|undefined"),
    ("lipsum-globals", "{{ lipsum.__globals__ }}", "unsafe|__globals__|undefined"),
    ("range-globals", "{{ range.__self__ }}", "unsafe|__self__|undefined"),
    ("func-code", "{{ player_slug.__code__ }}", "unsafe|__code__|undefined"),
    ("method-func", "{{ t.__func__.__globals__ }}", "unsafe|__func__|undefined"),
    ("getitem-class", "{{ ''['__class__'] }}", "unsafe|__class__|undefined"),
    ("format-attr", "{{ '{0.__class__}'.format('') }}", "unsafe|__class__|access"),
    ("mutate-list", "{{ by_seat.append(1) }}", "unsafe|append|modif"),
    ("mutate-dict", "{{ cards.update({}) }}", "unsafe|update|modif"),
    ("mutate-pop", "{{ cards.pop('red') }}", "unsafe|pop|modif"),
    ("include-outside", "{% include '../outside.html' %}", "no template ../outside.html"),
    ("include-absolute", "{% include '/etc/passwd' %}", "no template /etc/passwd"),
    ("include-link", "{% include 'link.html' %}", "no template link.html"),
    ("extends-outside", "{% extends '../outside.html' %}", "no template ../outside.html"),
    ("huge-range", "{% for i in range(10**9) %}{{ i }}{% endfor %}", "range|bits|too big"),
    ("huge-power", "{{ 10 ** 100000 }}", "bits"),
    ("power-chain", "{{ 9 ** (9 ** 9) }}", "bits"),
    ("repeat-text", "{{ 'x' * 100000000 }}", "more than"),
    ("repeat-list", "{{ ([1] * 100000000)|length }}", "more than"),
    ("doubling", ("{% set ns = namespace(s='xxxxxxxxxx') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
     "{% endfor %}{{ ns.s|length }}"), "more than|in all"),
    ("doubling-plus", ("{% set ns = namespace(s='xxxxxxxxxx') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}"
     "{% endfor %}"), "more than|in all"),
    ("recursion", "{% macro d(s) %}{{ d(s ~ s) }}{% endmacro %}{{ d('xx') }}", "more than|in all|recursion"),
    ("recursion-plain", "{% macro d() %}{{ d() }}{% endmacro %}{{ d() }}", "without end"),
    ("format-width", "{{ '%999999999s'|format('x') }}", "wider"),
    ("format-star", "{{ '%*s'|format(999999999, 'x') }}", "wider"),
    ("modulo-width", "{{ '%999999999d' % 1 }}", "wider"),
    ("brace-width", "{{ '{:>999999999}'.format('x') }}", "wider"),
    ("brace-nested", "{{ '{:{}}'.format('x', 999999999) }}", "wider"),
    ("center", "{{ 'x'|center(999999999) }}", "width"),
    ("indent", "{{ 'x\\ny'|indent(999999999) }}", "width"),
    ("ljust", "{{ 'x'.ljust(999999999) }}", "width"),
    ("zfill", "{{ '1'.zfill(999999999) }}", "width"),
    ("replace-growth", ("{% set ns = namespace(s='xxxxxxxxxx') %}{% for i in range(30) %}"
     "{% set ns.s = ns.s|replace('x', 'xxxxxxxxxx') %}{% endfor %}"), "more than|in all"),
    ("endless", ("{% for i in range(99999) %}{% for j in range(99999) %}{% for k in range(99999) %}"
     "{% endfor %}{% endfor %}{% endfor %}"), "took more than 1 s"),
]


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of one match and a site built from it (the folder each case builds over)."""
    root = tmp_path_factory.mktemp("sandbox")
    db = root / "club.duckdb"
    r = runner.invoke(app, ["ingest", "--db", str(db), str(SAMPLES / "classic-3p-seeded-match.json")])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["site", "--db", str(db), "--out", str(root / "site")])
    assert r.exit_code == 0, r.output
    (root / "outside.html").write_text("a file outside the templates' folder", encoding="utf-8")
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def build_with(start: Path, tmp_path: Path, player_html: str) -> tuple[object, dict[str, bytes], dict[str, bytes]]:
    site = tmp_path / "site"
    shutil.copytree(start / "site", site)
    style = tmp_path / "style"
    style.mkdir()
    whole = player_html.startswith("{% extends")  # a template of its own, else a page's body
    (style / "player.html").write_text(player_html if whole else '{% extends "base.html" %}{% block body %}\n'
                                       + player_html + "\n{% endblock %}", encoding="utf-8")
    (style / "link.html").symlink_to(start / "outside.html")
    shutil.copy(start / "outside.html", tmp_path / "outside.html")  # ../outside.html, beside the folder
    before = snapshot(site)
    r = runner.invoke(app, ["site", "--db", str(start / "club.duckdb"), "--out", str(site), "--templates", str(style)])
    return r, before, snapshot(site)


@pytest.mark.parametrize(("case", "body", "said"), HOSTILE, ids=[c for c, _, _ in HOSTILE])
def test_a_hostile_template_is_refused_and_nothing_written(start: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           case: str, body: str, said: str) -> None:
    import re

    if case == "endless":  # its deadline shortened for the test (the pages drawn before it are a few ms each)
        monkeypatch.setattr(sandbox, "DEADLINE", 1.0)
    r, before, after = build_with(start, tmp_path, body)
    assert r.exit_code == 2, f"{case}: exit {r.exit_code}: {r.output}"  # type: ignore[attr-defined]
    err = r.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in r.output and err.count("\n") == 1, f"{case}: {err}"  # type: ignore[attr-defined]
    line = 1 if body.startswith("{% extends") else 2  # the hostile line (a page's body starts on line 2)
    assert re.search(rf"player\.html line {line}: ", err), f"{case}: names not the template and line: {err}"
    assert re.search(said, err, re.IGNORECASE), f"{case}: {err}"
    assert after == before, f"{case}: the site's folder changed"
    assert "a file outside the templates' folder" not in err


def test_a_missing_or_broken_template_leaves_the_folder_as_it_was(start: Path, tmp_path: Path) -> None:
    r, before, after = build_with(start, tmp_path, "{% include 'no-such.html' %}")
    assert r.exit_code == 2 and "no-such.html" in r.stderr and r.stderr.count("\n") == 1  # type: ignore[attr-defined]
    assert after == before
    shutil.rmtree(tmp_path / "site")
    shutil.rmtree(tmp_path / "style")
    r, before, after = build_with(start, tmp_path, "{% for %}")
    assert r.exit_code == 2 and "player.html line 2" in r.stderr  # type: ignore[attr-defined]
    assert after == before


def test_a_template_that_draws_within_the_bounds_is_drawn(start: Path, tmp_path: Path) -> None:
    """What a club's template may do: loops, formats, the values it is given, a file of the folder."""
    body = ("{% for i in range(3) %}{{ '%5.1f'|format(i) }}{{ '{:>4}'.format(i) }}{% endfor %}"
            "{{ (player ~ '!')|center(30) }}{{ 2 ** 10 }}{{ 'ab' * 3 }}{% include 'part.html' %}")
    site = tmp_path / "site"
    shutil.copytree(start / "site", site)
    style = tmp_path / "style"
    style.mkdir()
    (style / "part.html").write_text("<i>{{ 'from the folder' }}</i>", encoding="utf-8")
    (style / "player.html").write_text('{% extends "base.html" %}{% block body %}' + body + "{% endblock %}",
                                       encoding="utf-8")
    r = runner.invoke(app, ["site", "--db", str(start / "club.duckdb"), "--out", str(site), "--templates", str(style)])
    assert r.exit_code == 0, r.output
    page = next((site / "players").glob("*.html")).read_text(encoding="utf-8")
    assert "  0.0   0  1.0   1  2.0   2" in page and "1024" in page and "ababab" in page
    assert "<i>from the folder</i>" in page
