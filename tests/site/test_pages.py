"""The site's small parts: file names for any name, names made safe for a page, chart ticks."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from coloretto_log.site import svg
from coloretto_log.site.pages import match_slug, name, player_slug

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@given(st.text(min_size=1, max_size=60), st.text(min_size=1, max_size=60))
def test_every_name_has_its_own_safe_file_name(a: str, b: str) -> None:
    for slug in (player_slug(a), match_slug(a)):
        assert SLUG.fullmatch(slug) and len(slug) <= 51  # letters, digits and dashes: no path, no dot
    assert (player_slug(a) == player_slug(b)) == (a == b)  # the hash tells names apart (whp)


def test_file_names_keep_what_can_be_read() -> None:
    assert player_slug("Zoë Ågren").startswith("zoe-agren-")
    assert player_slug("../../etc/passwd").startswith("etc-passwd-")
    assert player_slug("李").startswith("player-")


@given(st.text(max_size=40))
def test_a_name_is_text_on_the_page(text: str) -> None:
    shown = name(text)
    inner = shown.removeprefix("<bdi>").removesuffix("</bdi>")
    assert "<" not in inner and ">" not in inner and '"' not in inner
    assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in inner)  # control characters as escapes
    chart = svg.escape(text)
    assert chart.startswith("\u2068") and chart.endswith("\u2069") and "<" not in chart


@given(st.floats(-1e6, 1e6), st.floats(0.001, 1e6))
def test_ticks_are_round_values_within_the_range(low: float, span: float) -> None:
    ticks = svg._ticks(low, low + span)
    assert 1 <= len(ticks) <= 12
    assert all(low - 1e-6 * span <= t <= low + span + 1e-6 * span for t in ticks)
    assert ticks == sorted(ticks)
