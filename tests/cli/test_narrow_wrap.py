"""The one wrapping function every terminal output uses (``view.wrap``): its promises, on any words.

Lines fit the width unless one piece alone is wider; the words are unchanged
(whitespace collapsed); nothing kept whole is broken; the continuation lines
hang under their label; what fits is left alone.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from coloretto_log.view.wrap import fit, line_width, words, wrap, wrapped_plain

WORD = st.text(alphabet="abcxyz0123456789+=×→色橙ジョーカー", min_size=1, max_size=12)
NAME = st.lists(st.text(alphabet="abcKLM", min_size=1, max_size=6), min_size=2, max_size=3).map(" ".join)


@given(st.lists(WORD, min_size=1, max_size=30), st.lists(NAME, max_size=3), st.integers(10, 120), st.integers(0, 6))
def test_wrap_keeps_words_and_names_and_fits(words: list[str], names: list[str], width: int, lead: int) -> None:
    pieces = words[:]
    for k, name in enumerate(names):
        pieces.insert((3 * k) % (len(pieces) + 1), name)
    text = " " * lead + " ".join(pieces)
    lines = [line.plain for line in wrap(text, width, hang=lead, keep=names)]
    joined = "\n".join(lines)
    assert "".join(joined.split()) == "".join(text.split())  # nothing lost, nothing added but breaks and indents
    if not any(ch in text for ch in "色橙ジョーカー"):  # no break between two wide characters: only at spaces
        assert " ".join(joined.split()) == " ".join(text.split())
    for name in names:
        assert name in joined.replace("\n", "\0")  # a name is never broken across lines
    for line in lines:
        if cell_len(line) > width:  # only a piece that alone is wider than the line may overflow
            assert " " not in line.strip() or any(n in line for n in names)
    if cell_len(text) <= width:
        assert lines == [text]


def test_a_line_that_fits_is_left_alone() -> None:
    assert [t.plain for t in wrap("Aiko draws blue → row 3", 80)] == ["Aiko draws blue → row 3"]


def test_hanging_indent_under_the_label_and_long_labels_indent_four() -> None:
    text = "12. Aiko takes row 3: orange, blue and red · end of round 4"
    assert wrapped_plain(text, 30, hang=4) == "12. Aiko takes row 3: orange,\n    blue and red · end of\n    round 4"
    label = "x" * 50 + ": error [rule] "
    out = wrapped_plain(label + "a message of some words that will not fit", 60, hang=len(label))
    assert out.splitlines()[1] == "    message of some words that will not fit"  # 4 in: the label is over half


def test_plus_minus_stays_with_its_number() -> None:
    out = wrapped_plain("the loss was 15.0 ± 4.0 points of margin", 16)
    assert "15.0 ± 4.0" in out.splitlines()


def test_fit_parts_whole_under_the_first_and_styles_kept() -> None:
    parts = [Text("▲ orange  3+1J=4 +10", style="bold"), "▲ blue  3 +6", "▼ red  1 −1", "= 41"]
    lines = fit("     points   ", parts, 40)
    assert [t.plain for t in lines] == ["     points   ▲ orange  3+1J=4 +10", "              ▲ blue  3 +6  ▼ red  1 −1",
                                        "              = 41"]  # fmt: skip
    assert any(span.style == "bold" for span in lines[0].spans)


def test_japanese_breaks_between_characters_not_before_a_closing_mark() -> None:
    text = "ラウンド 7 · Boris：3列目を取る：紫、+2、ゴールデンジョーカー。ゴールデンジョーカーで山札からもう1枚：終了札！"
    lines = wrapped_plain(text, 40, hang=0, indent=4).splitlines()
    assert all(cell_len(line) <= 40 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line.strip()[0] in "、。：！ー" for line in lines[1:])


def test_the_width_is_columns_else_80(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "97")
    assert line_width() == 97
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr("shutil.os.get_terminal_size", lambda *_: (_ for _ in ()).throw(OSError()))
    assert line_width() == 80  # not a terminal (a pipe): 80


@given(st.lists(WORD, min_size=1, max_size=12), st.lists(NAME, max_size=2))
def test_words_splits_only_at_spaces_outside_what_is_kept(parts: list[str], names: list[str]) -> None:
    text = " ".join(parts + names)
    got = words(text, keep=names)
    assert " ".join(got) == text  # joined by one space again: the same text, a Japanese phrase never split
    assert all(any(name in g for g in got) for name in names)  # each kept name within one part, never split


def test_the_calculator_s_japanese_rules_read_without_a_space_after_the_comma() -> None:
    assert words("（原版、通常の得点表）", keep=["原版", "通常の得点表"]) == ["（原版、通常の得点表）"]
    assert words("(classic edition, standard table)", keep=["classic edition", "standard table"]) == [
        "(classic edition,", "standard table)"]
