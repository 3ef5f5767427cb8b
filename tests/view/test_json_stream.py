"""view.json_stream: indented JSON a value at a time, byte for byte the standard library's."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from coloretto_log.view.json_stream import JsonList, dumps_indented, escape_surrogates

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=30,
)


@given(VALUES)
def test_one_value_as_json_dumps_indents_it(value: Any) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


@given(st.lists(VALUES, max_size=5))
def test_a_list_written_a_value_at_a_time_is_one_document(values: list[Any]) -> None:
    out = io.StringIO()
    doc = JsonList("matches", out.write)
    for v in values:
        doc.add(v)
    doc.close()
    assert out.getvalue() == json.dumps({"matches": values}, indent=2, ensure_ascii=False) + "\n"


def test_lone_surrogates_are_escaped_and_read_back() -> None:
    name = "bad\udcffname.json"
    text = dumps_indented({"file": name})
    assert text == '{\n  "file": "bad\\udcffname.json"\n}'
    assert json.loads(text) == {"file": name}
    assert escape_surrogates("a\ud800b") == "a\\ud800b"
    text.encode("utf-8")  # printable
