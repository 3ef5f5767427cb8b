"""Numbers too long to be numbers: one ``bad-value`` finding in the format's words, in every reader.

Python refuses to convert a whole number of more than 4,300 digits and says
so in its own words ("use sys.set_int_max_str_digits()..."); no value of the
log format has more than 20 digits (the seed, below 2^64).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import coloretto_log
from coloretto_log.cli import app
from coloretto_log.log.reader import FORMAT_DIGITS, NumberTooLong, parse_json

from ..conftest import SAMPLES

runner = CliRunner(env={"COLUMNS": "1000"})  # whole lines: piped output wraps at 80
SAMPLE = json.loads((SAMPLES / "classic-3p-seeded-match.json").read_text(encoding="utf-8"))
PLACES = {  # where a number goes in a log, as the text of the sample after json.dumps
    "seed": ('"seed": 3003', '"seed": {n}'),
    "rules.games": ('"games": 4', '"games": {n}'),
    "version": ('"version": 1', '"version": {n}'),
    "a move's row": ('"row": 3}', '"row": {n}}}'),
}


def with_number(place: str, number: str) -> str:
    old, new = PLACES[place]
    text = json.dumps(SAMPLE)
    assert old in text
    return text.replace(old, new.format(n=number), 1)


def expected_column(text: str, number: str) -> int:
    return text.index(number) + 1


def test_the_format_bound_is_the_seeds() -> None:
    assert FORMAT_DIGITS == 20 == len(str(2**64 - 1))


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("sign", ["", "-"])
def test_validate_a_5000_digit_number_is_one_bad_value_line(tmp_path: Path, place: str, sign: str) -> None:
    number = sign + "7" * 5000
    text = with_number(place, number)
    src = tmp_path / "long.json"
    src.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(src)])
    assert result.exit_code == 1
    column = expected_column(text, number)
    assert result.stdout.splitlines()[0] == (
        f"{src}: error [bad-value] a number of 5000 digits at line 1, column {column} is out of range: "
        f"no value of the log format has more than 20 digits"
    )
    assert "set_int_max_str_digits" not in result.output and "Traceback" not in result.output


def test_every_reader_says_the_same(tmp_path: Path) -> None:
    number = "9" * 5000
    text = with_number("seed", number)
    column = expected_column(text, number)
    words = f"a number of 5000 digits at line 1, column {column} is out of range"
    lines = tmp_path / "long.jsonl"
    lines.write_text(json.dumps(SAMPLE) + "\n" + text + "\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(lines), "--json"])
    findings = [f for m in json.loads(result.stdout)["matches"] for f in m["findings"]]
    assert [(f["rule"], f["message"].split(" is out")[0]) for f in findings] == [
        ("bad-value", f"a number of 5000 digits at column {column}")
    ]
    piped = runner.invoke(app, ["validate", "-"], input=text)
    assert f"<stdin>: error [bad-value] {words}" in piped.stdout
    report = coloretto_log.check_match(text)  # the library's reader
    assert [(f.rule, f.message.startswith(words)) for f in report.findings] == [("bad-value", True)]
    for command in (["score"], ["replay"], ["ingest", "--db", str(tmp_path / "c.duckdb")]):
        out = runner.invoke(app, [*command, str(lines)])
        assert "[bad-value] a number of 5000 digits" in out.output, (command, out.output)
        assert "set_int_max_str_digits" not in out.output


@settings(max_examples=25, deadline=None)
@given(digits=st.integers(4301, 9000), before=st.sampled_from(["[", ": ", ",", ":"]), sign=st.sampled_from(["", "-"]))
def test_any_number_python_will_not_convert_is_named_with_its_size(digits: int, before: str, sign: str) -> None:
    lead = {"[": '{"a": [1, ', ": ": '{"a": ', ",": '{"a": [1,', ":": '{"a":'}[before]
    tail = {"[": "]}", ": ": "}", ",": "]}", ":": "}"}[before]
    text = lead + sign + "1" + "0" * (digits - 1) + tail
    with pytest.raises(NumberTooLong) as caught:
        parse_json(text)
    assert re.fullmatch(
        rf"a number of {digits} digits at line 1, column {len(lead) + 1} is out of range: "
        rf"no value of the log format has more than 20 digits",
        str(caught.value),
    )


def test_a_long_number_in_a_string_is_text() -> None:
    assert parse_json('{"notes": "' + "5" * 6000 + '"}') == {"notes": "5" * 6000}
