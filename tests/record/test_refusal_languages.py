"""A refused line in Japanese, Korean and Russian says its rule id and what it is about: which row, which card.

The engine's sentence is English (core is pure); ``record.refusals`` says
the same refusal again in the table's language from the rule id, the state and
the move. English keeps the engine's sentence. Hand-worked tables first, then
a walk through games where every line the engine refuses is refused in every
language for the same rule, with its particulars (never the rule's bare
sentence).
"""

from __future__ import annotations

import random

import pytest

from coloretto_log.core import engine
from coloretto_log.core.cards import KIND_INDEX
from coloretto_log.core.engine import Draw, Take
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.lang import translator
from coloretto_log.record import Recorder, Refused
from coloretto_log.record.events import RULE_WORDS
from coloretto_log.record.text import event_lines

LANGS = ("en", "ja", "ko", "ru")
PLAYERS = ("Aiko", "Boris", "Chen")


def recorders(edition: str = "classic", players: tuple[str, ...] = PLAYERS) -> dict[str, Recorder]:
    rules = RuleSet.of(edition=edition, scoring="standard", games=1)
    return {lang: Recorder(rules=rules, players=players, tr=translator(lang), confirm_last_round=False)
            for lang in LANGS}  # fmt: skip


def feed(recs: dict[str, Recorder], *lines: str) -> dict[str, list[str]]:
    """Each line to every recorder; what the last one said, in each language."""
    said: dict[str, list[str]] = {}
    for line in lines:
        for lang, rec in recs.items():
            reply = rec.feed(line)
            said[lang] = [text for e in reply.events for text in event_lines(e, rec.tr)]
    return said


SETUP = ("r", "g", "bl", "y", "1")  # red removed; Aiko green, Boris blue, Chen yellow; Aiko starts


def test_a_full_row_says_which_and_how_many_cards_in_the_languages_plural() -> None:
    recs = recorders()
    feed(recs, *SETUP, "d o 1", "d o 1", "d o 1")  # row 1 holds three orange
    said = feed(recs, "d br 1")
    assert said == {
        "en": ["refused [row-full] row 1 already holds 3 cards"],
        "ja": ["記録しません [row-full] 1列目は満杯です：すでに3枚あります"],
        "ko": ["기록하지 않아요 [row-full] 1번 열은 가득 찼어요: 이미 카드가 3장 있어요"],
        "ru": ["не записано [row-full] ряд 1 заполнен: в нём уже 3 карты"],
    }
    ru = translator("ru")
    forms = [ru.nt("row {row} is full: it already holds {n} card", "row {row} is full: it already holds {n} cards", n,
                   row=2) for n in (1, 2, 5)]  # fmt: skip
    assert forms == ["ряд 2 заполнен: в нём уже 1 карта", "ряд 2 заполнен: в нём уже 2 карты",
                     "ряд 2 заполнен: в нём уже 5 карт"]  # fmt: skip


def test_every_row_full_names_who_must_take() -> None:
    recs = recorders()
    feed(recs, *SETUP, *["d o 1"] * 3, *["d br 2"] * 3, *["d gy 3"] * 3)
    said = feed(recs, "d pu 2")  # Aiko again, every row full
    assert said["en"] == ["refused [must-take] every remaining row is full: the player must take one"]
    assert said["ja"] == ["記録しません [must-take] 残りの列はすべて満杯です。Aikoは列を取らなければなりません"]
    assert said["ko"] == ["기록하지 않아요 [must-take] 남은 열이 모두 가득 찼어요. Aiko 님은 열을 가져와야 해요"]
    assert said["ru"] == ["не записано [must-take] все оставшиеся ряды заполнены: игроку Aiko нужно взять ряд"]


def test_a_card_removed_or_all_out_is_named() -> None:
    recs = recorders("anniversary")
    feed(recs, *SETUP, "d gj 1", "t 1 o")  # the one golden joker is out; Boris took it, with orange from the deck
    removed, gone = feed(recs, "d r 2"), feed(recs, "d gj 2")
    assert removed["ja"] == ["記録しません [impossible-card] 赤はこのゲームの準備で取り除かれています"]
    assert removed["ru"] == ["не записано [impossible-card] «красный» убран из этой игры при подготовке"]
    assert gone["en"] == [("refused [impossible-card] one golden_joker too many: every golden_joker of the deck is "
                          "already out")]  # fmt: skip
    assert gone["ja"] == ["記録しません [impossible-card] 山札のゴールデンジョーカーはすべて出ています"]
    assert gone["ko"] == ["기록하지 않아요 [impossible-card] 더미의 황금 조커 카드는 이미 모두 나왔어요"]
    assert gone["ru"] == ["не записано [impossible-card] все карты «золотой джокер» из колоды уже вышли"]


def test_a_card_of_the_other_edition_names_this_one() -> None:
    recs = recorders("classic")
    feed(recs, *SETUP)
    said = feed(recs, "d gj 1")
    assert said["en"] == ["refused [impossible-card] golden_joker is not a card of the classic edition"]
    assert said["ja"] == ["記録しません [impossible-card] ゴールデンジョーカーは原版のカードではありません"]
    assert said["ko"] == ["기록하지 않아요 [impossible-card] 황금 조커 카드는 기본판에 없는 카드예요"]
    assert said["ru"] == ["не записано [impossible-card] «золотой джокер» — не карта этого издания (классическое издание)"]


def test_setup_refusals_name_the_colour_and_the_counts() -> None:
    recs = recorders()
    assert feed(recs, "r g")["ko"] == ["기록하지 않아요 [bad-removed] 3명이면 색깔 1가지를 제거해요 (2가지가 아니에요)"]
    feed(recs, "r")
    assert feed(recs, "r")["ja"] == ["記録しません [bad-starting] 赤は取り除いた色なので、初期カードにできません"]
    feed(recs, "g")
    assert feed(recs, "g")["ru"] == [("не записано [bad-starting] «зелёный» указан начальной картой дважды: все начальные "
                                     "карты разных цветов")]  # fmt: skip
    assert feed(recs, "gj")["ja"] == ["記録しません：「gj」はゴールデンジョーカーで、色ではありません"]


def test_lines_not_understood_are_said_in_the_language() -> None:
    recs = recorders()
    feed(recs, *SETUP)
    said = feed(recs, "d re 1")
    assert said["en"] == ['refused: "re" is not a card (did you mean r for red?); type ? for the card names']
    assert said["ja"] == ["記録しません：「re」はカードではありません（赤の rのことですか？）。「?」でカード名を表示します"]
    assert said["ru"] == [("не записано: «re» — не карта (может быть, r — «красный»?); введите ?, чтобы увидеть "
                          "названия карт")]  # fmt: skip
    said = feed(recs, "d o 1 2")
    assert said["ko"] == ["기록하지 않아요: 열 번호가 두 개예요: 뽑기에는 카드와 열을 적어요: d red 2"]


def probes(state: engine.GameState) -> list[tuple[str, engine.Move]]:
    """Lines a scorekeeper might type at ``state``, with the move each would record."""
    seat = state.current
    out: list[tuple[str, engine.Move]] = []
    for row in range(1, len(state.rows) + 2):
        for card in state.rules.edition.card_names():
            out.append((f"d {card} {row}", Draw(seat, row, card)))
        out.append((f"t {row}", Take(seat, row)))
        out.append((f"t {row} o", Take(seat, row, "orange")))
    return out


@pytest.mark.parametrize(("edition", "players", "seed"), [("anniversary", PLAYERS, 1), ("classic", ("A", "B"), 2),
                                                          ("anniversary", ("A", "B", "C", "D"), 3)])  # fmt: skip
def test_every_refusal_on_the_way_has_its_particulars_in_every_language(
    edition: str, players: tuple[str, ...], seed: int
) -> None:
    r = random.Random(seed)
    recs = recorders(edition, players)
    en = recs["en"]
    setups = {2: ("r g", "bl o", "y br", "gy pu", "1"), 3: SETUP, 4: ("g", "bl", "y", "o", "1")}[len(players)]
    feed(recs, *setups)
    rules_met: set[str] = set()
    for _ in range(45):
        state = en.state
        assert state is not None and not state.over
        for line, move in probes(state):
            violation = engine.check(state, move)
            if violation is None or violation.rule == "missing-extra":
                continue
            for lang, rec in recs.items():
                (event,) = rec.feed(line).events
                assert isinstance(event, Refused) and event.rule == violation.rule, (lang, line)
                if lang == "en":
                    assert event.message == violation.message
                else:
                    assert event.said and event.message != rec.tr.gettext(RULE_WORDS[violation.rule]), (lang, line)
                    assert event.message != violation.message
            rules_met.add(violation.rule)
        legal = [m for m in engine.legal_actions(state) if not (isinstance(m, Draw) and state.turned + 1 >= state.total)]
        move = r.choice(legal)
        if isinstance(move, Draw):
            cards = [c for c in state.rules.edition.card_names() if c not in state.removed
                     and state.remaining[KIND_INDEX[c]] > 0]  # fmt: skip
            feed(recs, f"d {r.choice(cards)} {move.row}")
        else:
            line = f"t {move.row}"
            feed(recs, line)
            if en.extra_row is not None:  # the golden joker's take asks for the card from the deck
                cards = [c for c in state.rules.edition.card_names() if c not in state.removed
                         and state.remaining[KIND_INDEX[c]] > 0]  # fmt: skip
                feed(recs, r.choice(cards))
        assert len({rec.moves_in_game for rec in recs.values()}) == 1  # the same game in every language
    assert {"row-full", "row-empty", "row-taken", "unknown-row", "impossible-card", "unexpected-extra"} <= rules_met
