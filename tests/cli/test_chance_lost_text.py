"""How ``analyze`` prints a chance lost: never on the other side of a mark's line from the chance itself (a
mistake that lost 0.199 reads "19.9%", not "20%", which is the blunder's line)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from coloretto_log.cli.analyze import lost_text
from coloretto_log.coach.marks import mark_for


def test_whole_per_cent_unless_rounding_crosses_a_line() -> None:
    assert lost_text(0.15) == "15%"
    assert lost_text(0.2) == "20%"  # on the line: a blunder, and it says so
    assert lost_text(0.204) == "20%"
    assert lost_text(0.199) == "19.9%"  # a mistake, 0.1 short of the blunder's 20%
    assert lost_text(0.19999) == "19.9%"  # cut, never rounded up onto the line
    assert lost_text(0.0996) == "9.9%"
    assert lost_text(0.0496) == "4.9%"
    assert lost_text(0.044) == "4%"
    assert lost_text(0.003) == "0%"


@given(st.floats(min_value=0.0, max_value=1.0))
def test_the_printed_figure_earns_the_same_mark_as_the_chance(chance: float) -> None:
    printed = float(lost_text(chance).removesuffix("%")) / 100
    assert mark_for(printed) == mark_for(chance)
    assert abs(printed - chance) < 0.006  # and it is the chance, to the nearest per cent or nearer
