"""The replay page carries each game's states by difference, and the page rebuilds the very states of ``replay --json``.

A club site writes a replay page per match. Every state of every game written
whole (``report.timeline.step_json``) made 0.5 MB of JSON a match; the page now
carries, per game, the players' distinct entries and, per state, what changed
since the state before (``report.timeline.changes_json``, docs/replay.md), and
its script (``view/assets/states.js``) rebuilds the states. Held here: rebuilt,
in Python as the script does it (``tests/builders/replay_page.py``) and by the
script itself in Chromium, the states are ``step_json``'s, every field but the
English ``narrative`` line (the viewer tells the story), on every sample (games
that break off, a setup that cannot be played, claims), on random games of
every table size and edition (hypothesis), and with hostile names; and the
data stays safe inside its ``<script>`` element.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto_log.log.load import LoadedMatch, load
from coloretto_log.log.replay import check_match
from coloretto_log.report.timeline import (
    ENCODE,
    PHRASES,
    Cards,
    Hands,
    MatchTimeline,
    Phrase,
    _phrase_json,
    build,
    from_loaded,
)
from coloretto_log.view.html import render_html

from ..builders.browser import Browser
from ..builders.replay_page import page_phrase, rebuilt
from ..builders.season import BIDI, HOSTILE
from ..builders.viewer import TWO_PLAYER, random_match
from ..conftest import SAMPLES

#: Names that JSON escapes or that must not end the page's script: markup, a right-to-left override, controls,
#: a line separator, quotes and a backslash.
NASTY = (HOSTILE + "\u2028", BIDI, "\"\\'\x07\x1b", "</script><b>")


def sample_timelines() -> list[MatchTimeline]:
    """Every sample match, and the two-player sample broken off at its fifth move, and with a setup that cannot
    be played."""
    names = sorted(p for p in Path(SAMPLES).iterdir() if p.suffix in (".json", ".jsonl"))
    found = []
    for path in names:
        for item in load([str(path)]):
            assert isinstance(item, LoadedMatch), item
            found.append(from_loaded(item))
    assert len(found) >= 5
    broken = json.loads(json.dumps(TWO_PLAYER))
    broken["games"][0]["moves"][4] = {"player": "Aiko", "action": "draw", "row": 1, "card": "green"}
    no_setup = json.loads(json.dumps(TWO_PLAYER))
    no_setup["games"][0]["setup"]["first"] = "Nobody"
    for k, log in enumerate((broken, no_setup)):
        t = build(check_match(log), label=f"bad{k}.json", file=f"bad{k}.json")
        assert t.games[0].error is not None
        found.append(t)
    assert not found[-1].games[0].steps and 1 < len(found[-2].games[0].steps) < 11
    return found


def random_timeline(seed: int, players: int, edition: str, games: int, names: tuple[str, ...] = ()) -> MatchTimeline:
    """A match played at random; its players renamed ``names`` (in seat order) when given."""
    log = random_match(seed, players, edition, games, random.Random(seed))[0]
    text = json.dumps(log)
    for old, new in zip(("Aiko", "Boris", "Chloe", "Dae", "Emil"), names):
        text = text.replace(json.dumps(old), json.dumps(new))
    return build(check_match(json.loads(text)), label="m.json", file="m.json")


def full_states(t: MatchTimeline) -> list[list[dict[str, Any]]]:
    """Each game's states as ``replay --json`` prints them, without the English narrative line."""
    return [[{k: v for k, v in s.items() if k != "narrative"} for s in g["states"]] for g in t.as_json()["games"]]


def check_same(t: MatchTimeline) -> None:
    full, page = t.as_json(), t.as_json(by_difference=True)
    # everything but the states is what replay --json prints
    assert {k: v for k, v in full.items() if k != "games"} == {k: v for k, v in page.items() if k != "games"}
    for whole, diff in zip(full["games"], page["games"], strict=True):
        assert {k: v for k, v in whole.items() if k != "states"} == {
            k: v for k, v in diff.items() if k not in ("kinds", "entries", "changes")}
    assert [rebuilt(g) for g in page["games"]] == full_states(t), t.label
    # the page's text of the data, its changes mostly written straight from their moves, is the data's JSON
    assert t.page_text() == ENCODE(page), t.label


def test_every_sample_is_rebuilt_as_replay_json_has_it() -> None:
    for t in sample_timelines():
        check_same(t)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]),
       games=st.integers(1, 2))
def test_random_games_are_rebuilt_as_replay_json_has_them(seed: int, players: int, edition: str, games: int) -> None:
    check_same(random_timeline(seed, players, edition, games))


def test_a_change_holds_only_what_changed() -> None:
    """A hand-checked game: the two-player sample's first moves, change by change."""
    (t,) = [t for t in sample_timelines() if t.file is not None and t.file.endswith("classic-2p-recorded-game.json")]
    game = t.as_json(by_difference=True)["games"][0]
    first, second = game["changes"][0], game["changes"][1]
    # the setup: every field, the rows and players as whole lists
    assert list(first) == ["action", "story", "round", "last_round", "over", "next", "deck", "rows", "discarded",
                           "players"]
    assert isinstance(first["rows"], list) and first["players"] == [0, 1]
    # a draw: one row gets a card, the other player is next, the deck is one card shorter; no collection changes
    kind, who, row, card, last_round = second["action"]
    assert (kind, who, last_round) == ("draw", first["next"], False)
    assert set(second) == {"action", "story", "next", "deck", "rows"}
    assert second["deck"] == first["deck"] - 1 and second["next"] != first["next"]
    # the row as [limit, cards, taken, taken_by], the story's phrases by their place in PHRASES
    assert second["rows"] == {str(row - 1): [first["rows"][row - 1][0], [card], False, None]}
    assert second["story"] == [[PHRASES.index("round {round}"), 1],
                               [PHRASES.index("{who} draws {card} → row {row}"), who, [card], row]]
    # the entries are distinct: each player's entry is written once however many states share it, its collection
    # counted in the order of the game's kinds
    entries = [json.dumps(e) for e in game["entries"]]
    assert len(entries) == len(set(entries))
    assert game["kinds"] == [*game["colours"], "joker", "plus2"]
    assert all(len(e[1]) == len(game["kinds"]) for e in game["entries"])


def test_a_phrase_the_list_does_not_hold_in_order_is_written_whole() -> None:
    """A phrase is written by its place in PHRASES only when its values come in its placeholders' order; any
    other is written whole, and read back as it is."""
    draw = Phrase("{who} draws {card} → row {row}", (("who", "Aiko"), ("card", Cards(("red",))), ("row", 2)))
    assert _phrase_json(draw) == [PHRASES.index(draw.text), "Aiko", ["red"], 2]
    assert page_phrase(_phrase_json(draw), list(PHRASES)) == draw.as_json()
    hands = Phrase("starting cards: {hands}", (("hands", Hands((("Aiko", ("red",)),))),))
    assert page_phrase(_phrase_json(hands), list(PHRASES)) == hands.as_json()
    for other in (Phrase("{who} draws {card} → row {row}", (("row", 2), ("who", "Aiko"), ("card", Cards(("red",))))),
                  Phrase("{who} juggles", (("who", "Aiko"),)),
                  Phrase("{colours} removed", (("colours", Cards(("red", "blue"), "and")),))):
        written = _phrase_json(other)
        assert page_phrase(written, list(PHRASES)) == other.as_json()
        assert isinstance(written[0], str) or written[1] == {"cards": ["red", "blue"], "join": "and"}


def test_hostile_names_stay_escaped_and_come_back_whole() -> None:
    t = random_timeline(7, 4, "anniversary", 1, NASTY)
    check_same(t)
    page = render_html([t], title="m.json")
    data = page.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and ">" not in data and "\u2028" not in data
    assert json.loads(data)["matches"][0]["players"] == list(NASTY)


def test_the_page_is_much_smaller_than_every_state_written_whole() -> None:
    t = random_timeline(3, 5, "classic", 3)
    whole = len(json.dumps(t.as_json(), ensure_ascii=False))
    by_difference = len(json.dumps(t.as_json(by_difference=True), ensure_ascii=False))
    assert by_difference * 2 < whole


# --------------------------------------------------------------------------- the page's own script, in Chromium

REBUILT = "(d => JSON.stringify(d.matches.map(m => m.games.map(g => ColorettoStates.rebuild(g, d.phrases)))))" \
          "(JSON.parse(document.getElementById('replay-data').textContent))"


def test_the_page_script_rebuilds_the_states_of_replay_json(browser: Browser, tmp_path: Path) -> None:
    rng = random.Random(28)
    timelines = sample_timelines() + [
        random_timeline(rng.randrange(10**6), players, edition, 2, NASTY[:players] if players < 5 else ())
        for players in (2, 3, 4, 5) for edition in ("classic", "anniversary")
    ]
    page = tmp_path / "page.html"
    page.write_text(render_html(timelines, title="m.json"), encoding="utf-8")
    browser.open(page.as_uri(), width=390, height=844, mobile=True)
    shown = json.loads(browser.eval(REBUILT))
    assert len(shown) == len(timelines)
    for t, games in zip(timelines, shown, strict=True):
        assert games == full_states(t), t.label
    # what the viewer draws is one of them: the first game's setup
    assert browser.eval("document.body.dataset.move") == "0"
    assert browser.eval("document.getElementById('narrative').textContent") == timelines[0].games[0].steps[0].narrative
