"""The replay pages' data is written faster, and is the same text: ``view.html._match_json`` against ``embed_json``.

A club site writes a replay page per match, about 0.5 MB of JSON each: most of
it is the players' entries, which the states of a game share while they do not
change (``report.timeline.step_json``). ``_match_json`` writes each shared entry
once and splices its text in; what it gives must be, byte for byte, what
``embed_json`` (``json.dumps``, made safe for a ``<script>``) gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.log.load import LoadedMatch, load
from coloretto_log.report.timeline import from_loaded
from coloretto_log.view.html import _match_json, embed_json

from ..builders.season import BIDI, HOSTILE
from ..conftest import SAMPLES

#: Text that JSON escapes, or that the page must not carry raw inside a <script>: markup, the line separators,
#: control characters, a right-to-left override, quotes, a backslash, text outside the BMP.
AWKWARD = st.text(alphabet=st.sampled_from(list("ab<>&\"\\/\u2028\u2029\x00\x1b\u202eé漢😀 ")), max_size=6)
LEAVES = st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False) | AWKWARD
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(AWKWARD, inner, max_size=3),
                      max_leaves=8)


def test_every_sample_match_is_written_as_embed_json_writes_it() -> None:
    names = sorted(p for p in Path(SAMPLES).iterdir() if p.suffix in (".json", ".jsonl"))
    assert names
    matches = 0
    for path in names:
        for item in load([str(path)]):
            assert isinstance(item, LoadedMatch), item
            data = from_loaded(item).as_json()
            data["analysis"] = {"players": [HOSTILE, BIDI], "note": "</script>\u2028"}
            assert _match_json(data) == embed_json(data), item.label
            matches += 1
    assert matches >= 5


@st.composite
def match_data(draw: st.DrawFn) -> dict[str, Any]:
    """A match's data in the shape the splicing knows (games, their states, the states' players), the other keys
    anywhere around them, the players' entries shared between states as ``step_json`` shares them."""
    pool = draw(st.lists(st.dictionaries(AWKWARD, VALUES, max_size=3), min_size=1, max_size=4))
    entry = st.sampled_from(pool) | st.dictionaries(AWKWARD, VALUES, max_size=2)

    def around(key: str, value: Any) -> dict[str, Any]:
        others = draw(st.dictionaries(AWKWARD.filter(lambda k: k != key), VALUES, max_size=3))
        at = draw(st.integers(0, len(others)))
        items = list(others.items())
        return dict([*items[:at], (key, value), *items[at:]])

    states = [around("players", draw(st.lists(entry, max_size=4))) for _ in range(draw(st.integers(0, 3)))]
    games = [around("states", states[: draw(st.integers(0, len(states)))]) for _ in range(draw(st.integers(0, 2)))]
    return around("games", games)


@settings(max_examples=100, deadline=None)
@given(match_data())
def test_any_data_is_written_as_embed_json_writes_it(data: dict[str, Any]) -> None:
    assert _match_json(data) == embed_json(data)


@given(VALUES)
def test_data_of_another_shape_is_written_as_embed_json_writes_it(value: Any) -> None:
    data = value if isinstance(value, dict) else {"games": value}
    assert _match_json(data) == embed_json(data)
