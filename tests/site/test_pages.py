"""The site's small parts: file names for any name, names made safe for a page, chart ticks."""

from __future__ import annotations

import re

from hypothesis import given, settings
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


@settings(deadline=None)  # the first name drawn compiles the templates
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


def test_axes_are_labelled_at_month_starts() -> None:
    import datetime as dt

    assert svg.month_starts(dt.date(2026, 3, 5), dt.date(2026, 5, 31)) == [dt.date(2026, 4, 1), dt.date(2026, 5, 1)]
    assert svg.month_starts(dt.date(2026, 3, 1), dt.date(2026, 3, 31)) == [dt.date(2026, 3, 1)]
    # ten months: too many labels for a phone, so every second month (counted from January)
    assert svg.month_starts(dt.date(2025, 6, 3), dt.date(2026, 3, 30)) == [
        dt.date(2025, 7, 1), dt.date(2025, 9, 1), dt.date(2025, 11, 1), dt.date(2026, 1, 1), dt.date(2026, 3, 1)]
    chart = svg.lines([svg.Line("a", "#000", [(dt.date(2026, 1, 20).toordinal(), 1.0),
                                              (dt.date(2026, 4, 2).toordinal(), 2.0)])], title="t", dates=True)
    assert re.findall(r">(\d{4}-\d\d)</text>", chart) == ["2026-02", "2026-03", "2026-04"]


@given(st.dates(), st.integers(0, 400))
def test_months_before_is_the_same_day_or_the_months_last(day: object, months: int) -> None:
    import datetime as dt

    from coloretto_log.site.pages import months_before

    assert isinstance(day, dt.date)
    if day.year * 12 + day.month - 1 - months < 12:
        return
    back = months_before(day, months)
    assert (back.year * 12 + back.month) == (day.year * 12 + day.month) - months
    assert back.day == day.day or (back.day < day.day and (back + dt.timedelta(days=1)).day == 1)


def test_form_squares_say_each_place() -> None:
    picture = svg.form([(1, 4), (3, 3)], title="Form <x>", labels=["1 of 4", "3 of 3"])
    assert re.findall(r">(\d)</text>", picture) == ["1", "3"] and "#23883a" in picture
    assert "Form &lt;x&gt;" in picture and "<x>" not in picture
