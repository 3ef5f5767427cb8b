"""What the tests read out of the docs: the worked example of docs/format.md §6 (a one-round game, short to
analyse)."""

from __future__ import annotations

import re

from ..conftest import ROOT

FORMAT = ROOT / "docs" / "format.md"


def worked_example() -> str:
    """The JSON text of docs/format.md's worked example (after its ``<!-- worked-example`` marker)."""
    text = FORMAT.read_text(encoding="utf-8")
    marker = text.index("<!-- worked-example")
    block = re.search(r"```json\n(.*?)\n```", text[marker:], flags=re.DOTALL)
    assert block is not None, "the worked example's JSON block follows its marker"
    return block.group(1)
