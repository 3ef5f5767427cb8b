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

import difflib
import json
import re
from pathlib import Path

from .builders.screenshots import BY_HAND, DOCS, NAMES, TEXTS, draw


def test_every_screenshot_in_the_docs_has_a_recipe_or_is_listed_as_made_by_hand() -> None:
    pictures = {p.name for p in DOCS.glob("*.png")}
    assert pictures == {f"{name}.png" for name in NAMES} | set(BY_HAND)
    assert set(json.loads(TEXTS.read_text(encoding="utf-8"))) == set(NAMES)


def test_every_screenshot_in_the_docs_is_shown_with_words_for_who_cannot_see_it() -> None:
    """Each picture appears in a page of the docs (or the README) as ``![alt text](NAME.png)``, with alt text of
    a few words; and no page shows a picture that is not there."""
    shown: dict[Path, str] = {}
    for page in [*DOCS.glob("*.md"), *DOCS.glob("*/*.md"), DOCS.parent / "README.md"]:
        for alt, target in re.findall(r"!\[([^\]]*)\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            shown[(page.parent / target).resolve()] = alt
    assert all(path.exists() for path in shown), [str(path) for path in shown if not path.exists()]
    assert set(shown) >= {p.resolve() for p in DOCS.glob("*.png")}
    assert all(len(alt.split()) >= 3 for alt in shown.values()), shown


def test_every_screenshots_page_still_shows_the_same_words(chromium: str, tmp_path: Path) -> None:
    """One test for all the pages (under xdist, a fixture shared by many tests would be made once a worker)."""
    kept = json.loads(TEXTS.read_text(encoding="utf-8"))
    drawn = draw(NAMES, chromium, tmp_path)
    stale = {name: _diff(kept[name], drawn[name]) for name in NAMES if drawn[name] != kept[name]}
    assert not stale, (
        f"stale: {', '.join(f'docs/{name}.png' for name in stale)}; run python -m tests.builders.screenshots\n"
        + "\n".join(f"{name}:\n{diff}" for name, diff in stale.items())
    )


def _diff(kept: str, now: str) -> str:
    """The first lines of a unified diff of a page's text, as kept and as drawn now."""
    lines = difflib.unified_diff(kept.splitlines(), now.splitlines(), "kept", "now", lineterm="", n=1)
    return "\n".join(list(lines)[:30])
