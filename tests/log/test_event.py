"""The optional ``event`` object of a match (docs/format.md §1): accepted, bounded, and nothing else changes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.log import replay
from coloretto_log.log.models import Match, json_schema
from coloretto_log.log.replay import check_match

from ..conftest import SAMPLES, load_json

runner = CliRunner()
SEEDED = SAMPLES / "classic-3p-seeded-match.json"


def with_event(event: Any) -> dict[str, Any]:
    data = copy.deepcopy(load_json(SEEDED))
    data["event"] = event
    return data


def rules_of(data: dict[str, Any]) -> list[str]:
    return [f.rule for f in check_match(data).all_findings()]


@pytest.mark.parametrize(
    "event",
    [{"name": "Autumn open 2026", "round": 2, "table": 3}, {"name": "Club night"}, {"name": "e" * 100, "round": 1000, "table": 1}],
)
def test_an_event_is_valid_and_the_match_the_same(event: dict[str, Any]) -> None:
    plain = check_match(load_json(SEEDED))
    report = check_match(with_event(event))
    assert report.valid and not report.all_findings()
    assert [g.final for g in report.games] == [g.final for g in plain.games]
    assert report.match is not None and report.match.event is not None
    assert report.match.event.model_dump(exclude_none=True) == event
    # the fast path of validate takes it without the models, and agrees with them
    assert replay._plain_match(with_event(event)) is not None
    assert check_match(with_event(event), fast=False).all_findings() == []


@pytest.mark.parametrize(
    ("event", "rule"),
    [
        ({"name": ""}, "bad-value"),
        ({"name": "e" * 101}, "bad-value"),
        ({"name": "x", "round": 0}, "bad-value"),
        ({"name": "x", "table": 1001}, "bad-value"),
        ({"name": "x", "round": 1.0}, "bad-type"),
        ({"name": "x", "round": True}, "bad-type"),
        ({"name": "x", "round": None}, "bad-type"),
        ({"round": 1}, "missing-field"),
        ({"name": "x", "seat": 1}, "unknown-field"),
        ("Club night", "bad-type"),
    ],
)
def test_a_bad_event_is_one_error_and_the_games_are_still_checked(event: Any, rule: str) -> None:
    data = with_event(event)
    assert replay._plain_match(data) is None  # the models say what is wrong
    report = check_match(data)
    assert rules_of(data) == [rule]
    assert len(report.games) == len(load_json(SEEDED)["games"]) and all(g.complete for g in report.games)
    assert "event" in report.findings[0].message


def test_a_log_without_event_is_as_before() -> None:
    data = load_json(SEEDED)
    assert "event" not in data and check_match(data).valid
    assert Match.model_validate(data).event is None


def test_the_schema_describes_the_event() -> None:
    schema = json_schema()
    event = schema["$defs"]["Event"]
    assert event["required"] == ["name"] and event["additionalProperties"] is False
    assert event["properties"]["name"]["maxLength"] == 100
    assert event["properties"]["round"]["maximum"] == 1000


def test_validate_reports_a_bad_event_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "m.json"
    log.write_text(json.dumps(with_event({"name": "x", "table": 0})), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(log)])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "bad-value" in line]
    assert len(lines) == 1 and "event.table" in lines[0]
