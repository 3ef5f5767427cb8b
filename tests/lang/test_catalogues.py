"""The catalogues: every message translated in every language, placeholders kept, plural forms counted.

The messages are what the code asks for (``lang.extract.messages``, Babel's
extractor over the package); the catalogues are the shipped ``.po`` files.
"""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from coloretto_log.lang import LANGUAGES, po_path, translator
from coloretto_log.lang.extract import POT, messages

from ..conftest import ROOT

OTHERS = LANGUAGES[1:]
#: How many plural forms each language has in gettext (CLDR's integer categories).
PLURALS = {"ja": 1, "ko": 1, "ru": 3}


def _catalogue(lang: str):  # type: ignore[no-untyped-def]
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def _key(message_id: object) -> str | tuple[str, str]:
    return (message_id[0], message_id[1]) if isinstance(message_id, tuple) else str(message_id)


def placeholders(text: str) -> set[str]:
    """``{name}`` fields and ``%(name)s`` / ``%s`` conversions of a message."""
    fields = {f"{{{name}}}" for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    return fields | set(re.findall(r"%(?:\([a-z_]+\))?[sdr]", text))


@pytest.fixture(scope="module")
def wanted() -> dict[str | tuple[str, str], list[tuple[str, int]]]:
    return messages()


def test_the_code_asks_for_messages(wanted: dict[str | tuple[str, str], list[tuple[str, int]]]) -> None:
    """The extractor sees the recorder's words (the check below cannot pass on an empty list)."""
    assert "{who}'s move" in wanted and "red" in wanted
    assert ("The match is {n} game", "The match is {n} games") in wanted


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_translated_and_none_is_unused(lang: str, wanted: dict[str | tuple[str, str], list[tuple[str, int]]]) -> None:
    catalogue = _catalogue(lang)
    have = {_key(m.id): m for m in catalogue if m.id}
    missing = sorted(str(k) for k in wanted if k not in have)
    unused = sorted(str(k) for k in have if k not in wanted)
    untranslated = sorted(str(k) for k, m in have.items() if not m.string or (isinstance(m.string, tuple) and not all(m.string)))
    fuzzy = sorted(str(k) for k, m in have.items() if m.fuzzy)
    assert (missing, unused, untranslated, fuzzy) == ([], [], [], []), f"run python -m coloretto_log.lang.extract, then translate ({lang})"


def test_the_template_lists_exactly_the_messages(wanted: dict[str | tuple[str, str], list[tuple[str, int]]]) -> None:
    with POT.open("rb") as f:
        template = read_po(f)
    assert {_key(m.id) for m in template if m.id} == set(wanted)


@pytest.mark.parametrize("lang", OTHERS)
def test_placeholders_are_the_english_ones(lang: str) -> None:
    wrong = []
    for m in _catalogue(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        english = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            if placeholders(text) != english:
                wrong.append((ids[0], text))
    assert wrong == []


@pytest.mark.parametrize("lang", OTHERS)
def test_plural_entries_have_the_languages_number_of_forms(lang: str) -> None:
    catalogue = _catalogue(lang)
    assert catalogue.num_plurals == PLURALS[lang]
    counted = [m for m in catalogue if isinstance(m.id, tuple)]
    assert counted, "no plural message to check"
    assert [m.id[0] for m in counted if len(m.string) != PLURALS[lang]] == []


def test_russian_counts_cards_in_three_forms() -> None:
    """1 карту, 2 карты, 5 карт; 11 карт, 21 карту, 22 карты: CLDR's one, few and many."""
    ru = translator("ru")
    msg = ("{n} card to turn over before the last-round card ({under} under it)",
           "{n} cards to turn over before the last-round card ({under} under it)")  # fmt: skip
    said = {n: ru.nt(*msg, n, under=15).split(" (")[0].split()[-2:] for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 111)}
    assert said == {1: ["1", "карту"], 2: ["2", "карты"], 4: ["4", "карты"], 5: ["5", "карт"], 11: ["11", "карт"],
                    12: ["12", "карт"], 21: ["21", "карту"], 22: ["22", "карты"], 25: ["25", "карт"],
                    111: ["111", "карт"]}  # fmt: skip


def test_an_invented_placeholder_would_be_caught() -> None:
    """The placeholder check can fail: a translation that renames a field differs from the English."""
    assert placeholders("{who} が取りました") != placeholders("{player} が取りました")
    assert placeholders("%(n)s карт") == {"%(n)s"}


def test_english_needs_no_babel_and_translating_imports_it_only_then() -> None:
    code = ("import sys; from coloretto_log.lang import translator, negotiate; "
            "t = translator('en'); t.t('Row {row}', row=1); negotiate(['ja_JP.UTF-8']); "
            "print('babel' in sys.modules); translator('ja'); print('babel' in sys.modules)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize(
    "args",
    [["validate", str(ROOT / "sample_logs")], ["record", "--help"], ["deal", "--seed", "1", "--player-count", "3"],
     ["record", "k.json", "--players", "Aiko,Boris", "--lang", "en"]],
    ids=["validate", "record --help", "deal", "record in English"],
)
def test_commands_that_do_not_translate_do_not_import_babel(args: list[str], tmp_path: Path) -> None:
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('BABEL' if 'babel' in sys.modules else 'NO-BABEL', file=sys.stderr))\n"
            "from coloretto_log.cli import main\nmain(sys.argv[1:])\n")  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=tmp_path,
                          stdin=subprocess.DEVNULL, check=False, timeout=120)  # fmt: skip
    assert proc.stderr.strip().splitlines()[-1] == "NO-BABEL"


def test_the_package_build_carries_the_catalogues(tmp_path: Path) -> None:
    """setuptools' build_py (what a wheel and ``pip install .`` copy) takes the .po files and the template."""
    proc = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py", "--build-lib", str(tmp_path / "lib"),
         "build", "--build-base", str(tmp_path / "build"), "egg_info", "--egg-base", str(tmp_path)],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    built = {str(p.relative_to(tmp_path / "lib")) for p in (tmp_path / "lib").rglob("*") if p.is_file()}
    assert "coloretto_log/lang/locales/coloretto.pot" in built
    for lang in OTHERS:
        assert f"coloretto_log/lang/locales/{lang}/LC_MESSAGES/coloretto.po" in built
