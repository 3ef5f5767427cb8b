"""Hostile names at the club (``club.names``, ``tables``, ``tournament``): two names a reader cannot tell apart
are refused with a line saying why, a name longer than a log allows is refused, and a name with bidirectional
or control characters is shown escaped on the terminal and escaped and isolated (``<bdi>``) on the pages
(tonight's printable cards, the site's event and player pages)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.club.names import NameProblem, check_names, likeness

runner = CliRunner()
BIDI = "Ada\u202eevil\u202c"  # a right-to-left override inside a name
CONTROL = "Bo\x1b[31mred"  # a terminal escape inside a name
OTHERS = ["Chloe", "Dae", "Emil", "Fay"]


@pytest.mark.parametrize(("a", "b", "why"), [
    ("Aiko", "aiko", "only by case"),
    ("AIKO", "aiko", "only by case"),
    ("Zoë", "Zoe\u0308", "Unicode normalization"),  # one code point, or a letter and its accent
    ("ﬁona", "fiona", "Unicode normalization"),  # a ligature
    ("Ｂｏｒｉｓ", "Boris", "Unicode normalization"),  # full-width letters
    ("Boris", "Bo\u200bris", "show nothing"),  # a zero-width space
    ("Boris", "Bo\u202eris", "show nothing"),  # a bidi override
    ("Boris", "Bo\x07ris", "show nothing"),  # a control character
    ("Anna Lee", "Anna  Lee", "show nothing"),  # two spaces
    ("Straße", "STRASSE", "case"),
])  # fmt: skip
def test_names_that_look_alike_are_refused_saying_why(a: str, b: str, why: str) -> None:
    with pytest.raises(NameProblem, match=why) as found:
        check_names([a, "Other", b], max_length=40)
    assert "look alike" in str(found.value) and "\n" not in str(found.value)
    assert "\u202e" not in str(found.value) and "\x07" not in str(found.value)  # shown as escapes


def test_names_that_differ_are_kept() -> None:
    check_names(["Aiko", "Aika", "Åsa", "Asa", "Li", "Lí", BIDI, "Ada evil"], max_length=40)


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12),
       st.sampled_from(["nfd", "invisible", "bidi", "upper"]))  # fmt: skip
def test_a_name_and_a_variant_a_reader_cannot_tell_apart_are_refused(name: str, how: str) -> None:
    if not likeness(name):
        with pytest.raises(NameProblem, match="shows nothing"):
            check_names([name], max_length=40)
        return
    variant = {"nfd": unicodedata.normalize("NFD", name), "invisible": name[:1] + "\u200b" + name[1:],
               "bidi": "\u2067" + name + "\u2069", "upper": name.upper()}[how]  # fmt: skip
    if variant == name:
        return
    if how == "upper" and likeness(variant) != likeness(name):  # a few letters do not fold back (the Turkish İ)
        return
    with pytest.raises(NameProblem, match="look alike"):
        check_names([name, variant], max_length=40)


def test_a_name_longer_than_a_log_allows_is_refused() -> None:
    with pytest.raises(NameProblem, match="100 characters; a player's name in a log has at most 40"):
        check_names(["x" * 100], max_length=40)
    check_names(["x" * 40], max_length=40)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with an empty club database (tables weigh no history)."""
    return tmp_path_factory.mktemp("names")


@pytest.mark.parametrize("people", [
    ["Aiko", "aiko", *OTHERS], ["Aiko", "Ai\u200bko", *OTHERS], ["Zoë", "Zoe\u0308", *OTHERS], ["y" * 100, *OTHERS],
], ids=["case", "invisible", "normalization", "100-characters"])  # fmt: skip
def test_tables_and_tournament_refuse_them_in_one_line(club: Path, people: list[str]) -> None:
    db = club / f"refused-{len(people[0])}-{len(people[1])}.duckdb"
    for args in (["tables", ",".join(people), "--db", str(db), "--seed", "1"],
                 ["tournament", "new", "Open", "--db", str(db), "--players", ",".join(people)]):  # fmt: skip
        r = runner.invoke(app, args)
        assert r.exit_code == 2, r.output
        assert r.stderr.count("\n") == 1 and ("look alike" in r.stderr or "at most 40" in r.stderr), r.stderr
        assert "Traceback" not in r.output and not db.exists()  # nothing written, not even a database


def test_tables_show_a_hostile_name_escaped_and_isolated(club: Path) -> None:
    pytest.importorskip("segno")
    people = [BIDI, CONTROL, *OTHERS]
    page = club / "tonight.html"
    r = runner.invoke(app, ["tables", ",".join(people), "--db", str(club / "t.duckdb"), "--seed", "1",
                            "--html", str(page), "--host", "192.0.2.1"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "\u202e" not in r.stdout and "\x1b" not in r.stdout  # the terminal: escapes
    assert "\\u202e" in r.stdout and "\\x1b" in r.stdout
    html = page.read_text(encoding="utf-8")
    assert "\u202e" not in html and "\x1b" not in html
    assert "<li><bdi>Ada\\u202eevil\\u202c</bdi>" in html and "<bdi>Bo\\x1b[31mred</bdi>" in html
    j = runner.invoke(app, ["tables", ",".join(people), "--db", str(club / "t.duckdb"), "--seed", "1", "--json"])
    assert j.exit_code == 0 and BIDI in {p for t in json.loads(j.stdout)["tables"] for p in t["players"]}  # exact data


def test_a_tournament_shows_a_hostile_name_escaped(club: Path) -> None:
    db = club / "tour.duckdb"
    people = [BIDI, CONTROL, "Aiko", "Boris", "Chloe", "Dae"]
    assert runner.invoke(app, ["tournament", "new", "Cup", "--db", str(db), "--players", ",".join(people),
                               "--rounds", "1", "--sizes", "3"]).exit_code == 0  # fmt: skip
    for action in ("pair", "standings", "show"):
        r = runner.invoke(app, ["tournament", action, "Cup", "--db", str(db)])
        assert r.exit_code == 0, r.output
        assert "\u202e" not in r.stdout and "\x1b" not in r.stdout, action
        assert "Ada\\u202eevil" in r.stdout, action
