"""The screenshots in docs/ show what the code draws now (tests/builders/screenshots.py makes them).

Each screenshot's page is drawn again in headless Chromium, as the script
draws it, and its visible text compared with the text kept beside the
pictures (docs/screenshots.json) when they were taken: a change of words,
of translation or of layout order on one of those pages fails here until
``python -m tests.builders.screenshots`` is run again and its pictures
committed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .builders.screenshots import BY_HAND, DOCS, NAMES, TEXTS, take


def test_every_screenshot_in_the_docs_has_a_recipe_or_is_listed_as_made_by_hand() -> None:
    pictures = {p.name for p in DOCS.glob("*.png")}
    assert pictures == {f"{name}.png" for name in NAMES} | set(BY_HAND)
    assert set(json.loads(TEXTS.read_text(encoding="utf-8"))) == set(NAMES)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for every page drawn (the analysis is computed once for its four screenshots)."""
    return tmp_path_factory.mktemp("screenshots")


@pytest.mark.parametrize("name", NAMES)
def test_the_screenshots_page_still_shows_the_same_words(name: str, chromium: str, scratch: Path) -> None:
    kept = json.loads(TEXTS.read_text(encoding="utf-8"))[name]
    now = take(name, chromium, scratch, photograph=False)
    assert now == kept, f"docs/{name}.png is stale: run python -m tests.builders.screenshots {name}"
