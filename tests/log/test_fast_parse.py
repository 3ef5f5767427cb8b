"""The reader's fast parse (plain C decoder and two counts) gives exactly what the strict parse gives.

``reader.parse_json_wide`` first tries ``_parse_fast`` and falls back on the
strict pass (a hook on every object to find repeated keys). Whatever the
text, the outcome (the value and its width, or the one-line error) must be
the strict pass's own.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coloretto_log.log import reader

from ..conftest import SAMPLES


def strict(text: str) -> tuple[str, Any, bool]:
    """The strict pass alone: ("ok", value, wide) or ("error", message, False)."""
    reader._widest[0] = 0
    try:
        value = reader._parse(text, one_line=True)
    except ValueError as e:
        return "error", str(e), False
    return "ok", value, reader._widest[0] > reader.WIDE_OBJECT


def outcome(text: str) -> tuple[str, Any, bool]:
    """What the reader gives, fast path included."""
    try:
        value, wide = reader.parse_json_wide(text, one_line=True)
    except ValueError as e:
        return "error", str(e), False
    return "ok", value, wide


def same(text: str) -> None:
    got, want = outcome(text), strict(text)
    assert got[0] == want[0] and got[2] == want[2]
    if got[0] == "ok":  # NaN never gets here (refused), so == is exact
        assert json.dumps(got[1]) == json.dumps(want[1])
    else:
        assert got[1] == want[1]


# Keys from a small alphabet, so that objects often repeat a key; colons, quotes and backslashes inside strings.
KEYS = st.text(alphabet='ab:"\\ é', max_size=3)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=False),
    st.text(alphabet='xy: "\\\u00e9\ud800', max_size=4),
)


def pairs_tree() -> st.SearchStrategy[Any]:
    """JSON values whose objects are lists of pairs (so a key may be repeated), tagged ("obj", pairs)."""
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(st.tuples(KEYS, inner), max_size=5).map(lambda p: ("obj", p)),
        ),
        max_leaves=25,
    )


def write(value: Any, style: dict[str, Any]) -> str:
    """The text of a pairs tree, in one of several legal spellings."""
    if isinstance(value, tuple) and value and value[0] == "obj":
        items = [
            f"{write_str(k, style)}{style['before']}:{style['after']}{write(v, style)}"
            for k, v in value[1]
        ]
        return "{" + style["comma"].join(items) + "}"
    if isinstance(value, list):
        return "[" + style["comma"].join(write(v, style) for v in value) + "]"
    if isinstance(value, str):
        return write_str(value, style)
    return json.dumps(value)


def write_str(s: str, style: dict[str, Any]) -> str:
    text = json.dumps(s, ensure_ascii=style["ascii"])
    if style["escape_colon"]:
        text = text.replace(":", "\\u003a")
    return text


STYLES = st.fixed_dictionaries(
    {
        "before": st.sampled_from(["", "", " ", "\n", "\t "]),
        "after": st.sampled_from(["", " ", "\r\n"]),
        "comma": st.sampled_from([",", ", ", ",\n  "]),
        "ascii": st.booleans(),
        "escape_colon": st.booleans(),
    }
)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(pairs_tree(), STYLES)
def test_the_fast_parse_agrees_with_the_strict_one_on_random_values(
    value: Any, style: dict[str, Any]
) -> None:
    same(write(("obj", [("m", value)]), style))
    same(write(value, style))


@settings(max_examples=400)
@given(pairs_tree(), STYLES, st.data())
def test_the_fast_parse_agrees_on_mangled_texts(
    value: Any, style: dict[str, Any], data: st.DataObject
) -> None:
    """Cut, insert and repeat pieces of a text: broken JSON, repeated keys, stray colons, trailing data."""
    text = write(value, style)
    at = data.draw(st.integers(0, len(text)))
    piece = data.draw(
        st.sampled_from(
            ['"', ":", '":', '"a":1,', ',"a":1', "\\", "}", "{", "NaN", "1e999", " ", "\\ud800"]
        )
    )
    same(text[:at] + piece + text[at:])
    same(text[:at])
    same(text + text[at:])


def test_a_repeated_key_is_found_wherever_it_hides() -> None:
    cases = [
        '{"a":1,"a":2}',
        '{"moves":[{"row":1},{"row":1,"row":2}]}',  # in a list of flat objects, counted without looking in
        '{"moves":[{"row":1},{"x":{"b":1,"b":2}}]}',  # nested in the second move
        '{"notes":"a:b","a":1,"a":2}',  # a colon in a string makes up for the lost pair
        '{"notes":"x\\u003a","a":1,"a":2}',  # an escaped colon, with a backslash in the text
        '{"a" :1,"a":2}',  # whitespace before a colon
        '{"x":":","a":1,"a":2}',  # a string starting with a colon
        '{"k":"\\":","a":1,"a":2}',  # an escaped quote before a colon
        '{"a\\u0062":1,"ab":2}',  # the same key spelt twice
    ]
    for text in cases:
        assert strict(text)[0] == "error" and "duplicate key" in strict(text)[1]
        same(text)


@pytest.mark.parametrize("width", [64, 65, 200])
def test_a_wide_object_is_seen_by_both(width: int) -> None:
    wide = "{" + ",".join(f'"k{i}":{i}' for i in range(width)) + "}"
    for text in (
        wide,
        '{"moves":[{"a":1},' + wide + "]}",
        '{"games":[{"moves":[' + wide + "]}]}",
        '{"r":' + wide + "}",
    ):
        assert outcome(text)[2] is (width > reader.WIDE_OBJECT)
        same(text)
        same(text.replace('"k1"', '"k0"'))


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_every_sample_takes_the_fast_path_or_gets_the_same(path: Any) -> None:
    same(path.read_text(encoding="utf-8"))


def test_a_simulated_line_takes_the_fast_path() -> None:
    """The common case (compact, no backslash, a colon in the notes) does not fall back."""
    line = (
        '{"format":"coloretto-log","version":1,"players":["A","B"],"notes":"simulated: seed 3",'
        '"games":[{"setup":{},"moves":[{"player":"A","action":"draw","row":1},{"player":"B","action":"take","row":1}]}]}'
    )
    fast = reader._parse_fast(line)
    assert fast is not None and fast[0] == json.loads(line) and fast[1] is False
    same(line)
