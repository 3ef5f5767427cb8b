"""The event page of a tournament with a final table: the final after the rounds, its column in the standings,
and each player's path (docs/tournament.md's worked example, entered by hand)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coloretto_log.cli import app
from coloretto_log.site.pages import event_slug

from ..conftest import ROOT

DOC = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8")
runner = CliRunner()


def commands(marker: str) -> list[str]:
    block = re.search(r"```bash\n(.*?)\n```", DOC.split(marker, 1)[1], flags=re.DOTALL)
    assert block is not None
    return block.group(1).splitlines()


def test_the_event_page_shows_the_final_and_every_players_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for cmd in commands("<!-- worked-example:")[:-1] + commands("<!-- worked-final:")[:-1]:
        assert runner.invoke(app, shlex.split(cmd)[1:]).exit_code == 0, cmd
    built = runner.invoke(app, ["site", "--db", "cup.duckdb", "--out", "site"])
    assert built.exit_code == 0, built.output
    page = (tmp_path / "site" / "events" / f"{event_slug('Kitchen cup')}.html").read_text(encoding="utf-8")
    headings = re.findall(r"<h2 id=\"?([\w-]+)\"?>([^<]*)</h2>", page)
    assert [h for _, h in headings][-4:] == ["Round 1", "Round 2", "Final table", "Paths"]
    paths = page.split("<h2 id=paths>", 1)[1]
    rows = {m[0]: re.findall(r"<td>([^<]*)</td>", m[1]) for m in re.findall(r"<bdi>(\w+)</bdi></a></td>(.*?)</tr>", paths)}
    # Boris: round 1 table 1, second and third shared (1.5); round 2 table 1 first (4); the final's table, tied first
    # at a table of three with Chloe: (4 + 1.5) / 2
    assert rows["Boris"] == ["Table 1: 1.5", "Table 1: 4", "Table 1: 2.75"]
    assert rows["Hana"] == ["Table 2: 1", "Table 2: 4", "–"]
    # the standings: the finalists first with their final's totals
    standings = page.split("<h2 id=standings>", 1)[1].split("</table>", 1)[0]
    assert re.findall(r"<bdi>(\w+)</bdi></a></td><td class=n>([\d–]+)</td>", standings)[:4] == [
        ("Boris", "104"), ("Chloe", "104"), ("Emil", "98"), ("Hana", "–")]
