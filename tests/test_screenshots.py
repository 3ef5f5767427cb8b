"""The screenshots in docs/ show what the code draws now (tests/builders/screenshots.py makes them).

Each screenshot's page is drawn again in headless Chromium, as the script
draws it (its inputs made once, side by side, then every page in one
browser), and its visible text compared with the text kept beside the
pictures (docs/screenshots.json) when they were taken: a change of words,
of translation or of layout order on one of those pages fails here until
``python -m tests.builders.screenshots`` is run again and its pictures
committed. Only the text is compared, not the pixels (fonts differ from
one machine to another).
"""

from __future__ import annotations

import json
import re

import pytest

from .builders.screenshots import BY_HAND, DOCS, NAMES, TEXTS, draw


def test_every_screenshot_in_the_docs_has_a_recipe_or_is_listed_as_made_by_hand() -> None:
    pictures = {p.name for p in DOCS.glob("*.png")}
    assert pictures == {f"{name}.png" for name in NAMES} | set(BY_HAND)
    assert set(json.loads(TEXTS.read_text(encoding="utf-8"))) == set(NAMES)


def test_every_screenshot_in_the_docs_is_shown_with_words_for_who_cannot_see_it() -> None:
    """Each picture appears in a page of the docs (or the README) as ``![alt text](NAME.png)``, with alt text."""
    pages = [*DOCS.glob("*.md"), DOCS.parent / "README.md"]
    shown = {
        name: alt
        for page in pages
        for alt, name in re.findall(r"!\[([^\]]*)\]\((?:docs/)?([^)/]+\.png)\)", page.read_text(encoding="utf-8"))
    }
    assert set(shown) >= {p.name for p in DOCS.glob("*.png")}
    assert all(len(alt.split()) >= 3 for alt in shown.values()), shown


@pytest.fixture(scope="module")
def drawn(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every screenshot's visible text as the code draws it now."""
    return draw(NAMES, chromium, tmp_path_factory.mktemp("screenshots"))


@pytest.mark.parametrize("name", NAMES)
def test_the_screenshots_page_still_shows_the_same_words(name: str, drawn: dict[str, str]) -> None:
    kept = json.loads(TEXTS.read_text(encoding="utf-8"))[name]
    assert drawn[name] == kept, f"docs/{name}.png is stale: run python -m tests.builders.screenshots"
