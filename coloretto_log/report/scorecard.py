"""Score checked matches and single hands: the library behind ``coloretto-log score``.

Two entry points, both pure (no I/O, no printing):

* :func:`score_match` takes a match as ``logs.load`` yields it (read and
  checked exactly as ``validate`` checks it) and returns a
  :class:`MatchScore`: for every game every player's cards, the optimal
  assignment with its breakdown, the score and the game's ranking; the
  match totals and ranking; and a verdict (``claims.verdicts``) for each
  player who wrote a claim. An invalid match is returned unscored, with its
  findings.
* :func:`calculate` is the table-side calculator: it parses a hand typed as
  ``"green=6 yellow=4 red=3 blue=2 joker=1 +2=1"`` (:func:`parse_hand`),
  refuses impossible hands with a one-line :class:`HandError`, and returns
  a :class:`HandScore`.

Rankings (docs/rules-of-play.md §6): the highest score ranks 1 and there is no
tie-break: tied players share a rank and the next rank is skipped
(39, 39, 35 rank 1, 1, 3). A match's totals add up its complete games only;
a match is complete when every planned game is present and finished. The
last game of a log may still be in progress: it is scored as it stands
(provisional, not in the totals) and its claims are not checked.

Every ``as_json`` returns plain values with a fixed key order (the shape in
docs/score.md); colours come in edition order, players in seat order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.cards import (
    ALL_COLOURS,
    CARD_ALIASES,
    CARDS_PER_COLOUR,
    GOLDEN_JOKER,
    JOKER,
    KIND_INDEX,
    N_KINDS,
    PLUS2,
    typed_card,
)
from ..core.editions import edition_choice
from ..core.errors import ColorettoLogError, Finding
from ..core.ruleset import (
    EDITIONS,
    LAYOUTS,
    TABLES,
    Edition,
    RuleSet,
    ScoringTable,
    colours_in_play,
)
from ..core.scoring import Assignment, best_from_counts, ranks

if TYPE_CHECKING:  # the hand calculator loads neither the log layer (pydantic) nor the engine
    from ..core.claims import Verdict
    from ..log.load import LoadedMatch

__all__ = [
    "GameScore",
    "HandError",
    "HandScore",
    "MatchScore",
    "PlayerScore",
    "Standing",
    "assignment_json",
    "calculate",
    "cards_json",
    "parse_hand",
    "parse_removed",
    "ranks",
    "score_hand",
    "score_match",
]


# --------------------------------------------------------------------------- JSON pieces


def card_kinds(edition: Edition, colours: Sequence[str]) -> tuple[str, ...]:
    """The card kinds a collection is listed by: colours in play, jokers, "+2" cards."""
    specials = (JOKER, GOLDEN_JOKER) if edition.golden_jokers else (JOKER,)
    return (*colours, *specials, PLUS2)


def cards_json(counts: Sequence[int], edition: Edition, colours: Sequence[str]) -> dict[str, int]:
    """A collection as ``{kind: count}`` over :func:`card_kinds` (zeros included)."""
    return {kind: counts[KIND_INDEX[kind]] for kind in card_kinds(edition, colours)}


def assignment_json(a: Assignment) -> dict[str, Any]:
    """An optimal assignment: score, joker colours, positive colours, breakdown."""
    return {
        "score": a.score,
        "jokers": list(a.jokers),
        "positive": list(a.positive),
        "breakdown": [
            {
                "colour": row.colour,
                "cards": row.cards,
                "jokers": row.jokers,
                "effective": row.effective,
                "sign": row.sign,
                "points": row.points,
            }
            for row in a.breakdown
        ],
        "plus2_points": a.plus2_points,
    }


# --------------------------------------------------------------------------- matches


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player in one game: cards, optimal assignment, rank, and the verdict on a claim."""

    player: str
    seat: int
    counts: tuple[int, ...]  # indexed like cards.KINDS
    optimal: Assignment
    rank: int
    verdict: Verdict | None  # None: no claim, or the game is not finished

    @property
    def score(self) -> int:
        return self.optimal.score

    @property
    def disputed(self) -> bool:
        """A claim that differs from the optimum, or a declared choice that is not legal."""
        return self.verdict is not None and not self.verdict.agrees


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game of a match, scored."""

    number: int  # from 1
    complete: bool  # False: the log's last game, still in progress (scores provisional)
    removed: tuple[str, ...]
    colours: tuple[str, ...]  # in play, edition order
    players: tuple[PlayerScore, ...]  # seat order
    unchecked_claims: bool  # claims on a game not finished: not checked

    def ranking(self) -> tuple[PlayerScore, ...]:
        """Players by rank, ties in seat order."""
        return tuple(sorted(self.players, key=lambda p: (p.rank, p.seat)))

    def winners(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.players if p.rank == 1)

    def verdicts(self) -> tuple[Verdict, ...]:
        return tuple(p.verdict for p in self.players if p.verdict is not None)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's match total over the complete games, and rank."""

    player: str
    seat: int
    total: int
    rank: int


@dataclass(frozen=True, slots=True)
class MatchScore:
    """One match from one file (or one line of a ``.jsonl`` file), scored.

    An invalid match (``valid`` False) is not scored: ``games`` and
    ``standings`` are empty and ``findings`` says why, line for line as
    ``validate`` does.
    """

    label: str
    file: str
    line: int | None
    match_id: str | None
    valid: bool
    rules: RuleSet | None
    players: tuple[str, ...]
    games: tuple[GameScore, ...]
    standings: tuple[Standing, ...]  # seat order
    complete: bool
    findings: tuple[Finding, ...]  # every finding of the check, errors and warnings

    @property
    def games_counted(self) -> int:
        """Complete games, the ones the totals add up."""
        return sum(1 for g in self.games if g.complete)

    def verdicts(self) -> tuple[Verdict, ...]:
        return tuple(v for g in self.games for v in g.verdicts())

    @property
    def disputes(self) -> int:
        """Claims that do not agree with the optimum."""
        return sum(1 for v in self.verdicts() if not v.agrees)

    @property
    def agrees(self) -> bool:
        """Every claim agrees (true when there are none)."""
        return self.disputes == 0

    def winners(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.standings if s.rank == 1)

    def as_json(self) -> dict[str, Any]:
        rules = self.rules
        return {
            "file": self.file,
            "line": self.line,
            "match_id": self.match_id,
            "valid": self.valid,
            "complete": self.complete,
            "rules": None
            if rules is None
            else {"edition": rules.edition.name, "scoring": rules.table.name, "games": rules.games},
            "players": list(self.players),
            "games": [_game_json(g, rules) for g in self.games],
            "totals": [
                {"player": s.player, "total": s.total, "rank": s.rank} for s in self.standings
            ],
            "winners": list(self.winners()),
            "games_counted": self.games_counted,
            "claims": len(self.verdicts()),
            "disputes": self.disputes,
            "findings": [f.as_json() for f in self.findings],
        }


def _game_json(g: GameScore, rules: RuleSet | None) -> dict[str, Any]:
    assert rules is not None
    return {
        "game": g.number,
        "complete": g.complete,
        "removed": list(g.removed),
        "colours": list(g.colours),
        "players": [
            {
                "player": p.player,
                "seat": p.seat,
                "rank": p.rank,
                "cards": cards_json(p.counts, rules.edition, g.colours),
                **assignment_json(p.optimal),
                "verdict": None if p.verdict is None else p.verdict.as_json(),
            }
            for p in g.players
        ],
        "winners": list(g.winners()),
        "claims_checked": not g.unchecked_claims,
    }


def score_match(item: LoadedMatch) -> MatchScore:
    """Score one loaded (read and checked) match; an invalid one comes back unscored."""
    from ..core.claims import optimal_for

    report = item.report
    findings = tuple(item.findings())
    if not report.valid or report.rules is None:
        return MatchScore(
            item.label, item.file, item.line, report.match_id, False, report.rules,
            report.players, (), (), False, findings,
        )
    players = report.players
    games: list[GameScore] = []
    for record in report.games:
        state = record.final
        assert state is not None  # a valid game always has a state
        complete = record.complete
        if complete:
            judged = record.verdicts()
            optimal = [v.optimal for v in judged]
            kept: list[Verdict | None] = [v if v.claim is not None else None for v in judged]
        else:
            optimal = [optimal_for(state, seat) for seat in range(len(players))]
            kept = [None] * len(players)
        game_ranks = ranks([a.score for a in optimal])
        games.append(GameScore(
            number=record.number,
            complete=complete,
            removed=_in_edition_order(state.rules.edition, state.removed),
            colours=state.colours,
            players=tuple(
                PlayerScore(name, seat, state.collections[seat], optimal[seat], game_ranks[seat], kept[seat])
                for seat, name in enumerate(players)
            ),
            unchecked_claims=not complete and bool(record.claims),
        ))
    totals = [sum(g.players[seat].score for g in games if g.complete) for seat in range(len(players))]
    total_ranks = ranks(totals)
    standings = tuple(
        Standing(name, seat, totals[seat], total_ranks[seat]) for seat, name in enumerate(players)
    )
    return MatchScore(
        item.label, item.file, item.line, report.match_id, True, report.rules,
        players, tuple(games), standings, report.complete, findings,
    )


def _in_edition_order(edition: Edition, colours: Sequence[str]) -> tuple[str, ...]:
    return tuple(c for c in edition.colours if c in colours)


# --------------------------------------------------------------------------- the calculator


class HandError(ColorettoLogError, ValueError):
    """A hand, edition, table or removed colour the calculator cannot take (one line)."""


_NAME_HELP = "a colour, joker (j), golden (gj) or +2 (plus2)"
_TOKEN = re.compile(r"(?P<name>[^=:]*)(?:[=:](?P<count>.*))?")
_COUNT = re.compile(r"[0-9]{1,6}")


#: The names a word may be the start of, for "b is ambiguous (blue or brown)".
_FULL_NAMES = (*ALL_COLOURS, "joker", "golden", "plus2")


def _short_names(names: Sequence[str]) -> str:
    """The shortest accepted spelling of each name: ``bl, br``."""
    out = []
    for name in names:
        if name == "plus2":
            out.append("+2")
            continue
        kind = typed_card(name)
        spellings = [a for a, k in CARD_ALIASES.items() if k == kind and name.startswith(a)] or [name]
        out.append(min(spellings, key=len))
    return " or ".join(out)


def _shown(kind: str, n: int) -> str:
    if kind == PLUS2:
        return f'{n} "+2" card{"s" if n != 1 else ""}'
    if kind == JOKER:
        return f"{n} joker{'s' if n != 1 else ''}"
    if kind == GOLDEN_JOKER:
        return f"{n} golden joker{'s' if n != 1 else ''}"
    return f"{n} {kind}"


def parse_removed(names: Sequence[str], *, edition: Edition) -> tuple[str, ...]:
    """Removed colours, given as names (repeated options or commas), in edition order."""
    found: list[str] = []
    for given in names:
        for word in (w for w in re.split(r"[\s,;]+", given) if w):
            colour = typed_card(word)
            if colour is None or colour not in ALL_COLOURS:
                raise HandError(f'--removed: "{word}" is not a colour')
            if colour not in edition.colours:
                raise HandError(
                    f"--removed: {colour} is not a colour of the {edition.name} edition "
                    f"({', '.join(edition.colours)})"
                )
            if colour in found:
                raise HandError(f"--removed: {colour} is given twice")
            found.append(colour)
    most = max(layout.removed for layout in LAYOUTS.values())
    if len(found) > most:
        raise HandError(
            f"--removed: {len(found)} colours; at most {most} are removed (2 players), "
            "one with 3 players, none with 4 or 5"
        )
    return _in_edition_order(edition, found)


def parse_hand(text: str, *, edition: Edition, removed: Sequence[str] = ()) -> tuple[int, ...]:
    """Counts by kind (``cards.KINDS``) of a typed hand such as ``"green=6 joker=1 +2=1"``.

    Items are separated by spaces or commas. ``name=count`` (or
    ``name:count``) says how many cards of a kind the hand holds; a bare
    ``name`` is one card, so ``j j j`` is three jokers, as are ``3j``,
    ``j3``, ``3xj``, ``3 j`` and ``3 jokers``; cards given one at a time add
    up. Names are case-insensitive and may be the log format's (``grey``,
    ``joker``, ``golden_joker``, ``plus2``) or what people type (``gray``,
    ``j``, ``golden``/``gold``/``gj``, ``+2``/``p2``, a plural ``jokers``,
    the recorder's short forms: ``cards.CARD_ALIASES``).
    Raises :class:`HandError` with one line for a hand no game can produce:
    an unknown name, a kind given twice in ways that disagree (``green=3
    green=2``, or ``joker=2 j``: the line says both readings), more than 9
    of a colour, a colour not of the edition or removed, more jokers, golden
    jokers or "+2" cards than the edition has.
    """
    if not text.strip():
        raise HandError('the hand is empty; give cards as name=count, e.g. "green=6 yellow=4 joker=1 +2=1"')
    exact: dict[str, list[tuple[int, str]]] = {}  # kind -> (count, item) of each name=count
    added: dict[str, list[tuple[int, str]]] = {}  # kind -> (count, item) of each card given by itself
    normalised = re.sub(r"\s*([=:])\s*", r"\1", text.strip())
    words = [w for w in re.split(r"[\s,;]+", normalised) if w]
    pending: tuple[int, str] | None = None  # a number typed before its card: "3 j"
    for item in words:
        if _COUNT.fullmatch(item):
            if pending is not None:
                raise HandError(f'"{pending[1]} {item}": two counts in a row; give a card after a count, e.g. "3 j"')
            pending = (int(item), item)
            continue
        m = _TOKEN.fullmatch(item)
        assert m is not None  # the pattern matches any text
        word, raw = m.group("name"), m.group("count")
        if not word:
            raise HandError(f'"{item}": a card name is missing before the count')
        if raw is not None:
            if pending is not None:
                raise HandError(f'"{pending[1]} {item}": a count before name=count; give one count')
            kind = _card_of(word)
            if not _COUNT.fullmatch(raw):
                raise HandError(f'"{item}": the count must be a whole number, 0 or more')
            exact.setdefault(kind, []).append((int(raw), item))
            continue
        kind, n = _card_and_count(word)
        shown = item
        if pending is not None:
            n, shown = pending[0] * n, f"{pending[1]} {item}"
            pending = None
        added.setdefault(kind, []).append((n, shown))
    if pending is not None:
        raise HandError(f'"{pending[1]}": a count with no card after it; write e.g. "{pending[1]} j" or "j={pending[1]}"')
    counts = [0] * N_KINDS
    for kind in dict.fromkeys([*exact, *added]):
        counts[KIND_INDEX[kind]] = _one_count(kind, exact.get(kind, []), added.get(kind, []))
    _check_possible(counts, edition, removed)
    return tuple(counts)


#: ``3j``, ``3xj``, ``3*j``, ``2x+2``: a count before a name, written as one word.
_COUNT_FIRST = re.compile(r"(?P<count>[0-9]{1,6})\s*[x*]?(?P<name>\D.*)")
#: ``j3``: a name and its count as one word (``+2`` and ``p2`` are names: the longest name is read first).
_COUNT_LAST = re.compile(r"(?P<name>.*?\D)(?P<count>[0-9]{1,6})")


def _card_and_count(word: str) -> tuple[str, int]:
    """The kind and the number of cards of one word given without ``=``: ``j`` (one), ``3j``, ``j3``."""
    if _known(word) is not None:
        return _card_of(word), 1
    first = _COUNT_FIRST.fullmatch(word)
    if first is not None and _known(first.group("name")) is not None:
        return _card_of(first.group("name")), int(first.group("count"))
    last = _COUNT_LAST.fullmatch(word)
    if last is not None and _known(last.group("name")) is not None:
        return _card_of(last.group("name")), int(last.group("count"))
    return _card_of(word), 1  # the line that says why the word is no card


def _known(word: str) -> str | None:
    """The kind ``word`` names, a plural too (``jokers``, ``reds``), or None."""
    kind = typed_card(word)
    if kind is None and len(word) > 2 and word.lower().endswith("s"):
        kind = typed_card(word[:-1])
    return kind


def _card_of(word: str) -> str:
    """The kind ``word`` names, or the line that says it names none (or several)."""
    kind = _known(word)
    if kind is None:
        meant = sorted({name for name in _FULL_NAMES if name.startswith(word.lower())})
        if len(meant) > 1:
            raise HandError(f'"{word}" is ambiguous ({" or ".join(meant)}): give more letters, e.g. {_short_names(meant)}')
        raise HandError(f'"{word}" is not a card name; use {_NAME_HELP}')
    return kind


def _one_count(kind: str, exact: list[tuple[int, str]], added: list[tuple[int, str]]) -> int:
    """How many cards of ``kind`` the hand holds: its ``name=count`` items agree, or its cards add up."""
    total = sum(n for n, _ in added)
    if not exact:
        return total
    said = {n for n, _ in exact}
    if len(said) > 1:
        first, second = exact[0], next(e for e in exact if e[0] != exact[0][0])
        raise HandError(
            f'{_typed(kind)} is given twice, as "{first[1]}" and as "{second[1]}": give one count, '
            f"e.g. {first[1]} for {_shown(kind, first[0])} or {second[1]} for {_shown(kind, second[0])}"
        )
    if added:
        n, item = exact[0]
        more = n + total
        cards = " ".join(f'"{i}"' for _, i in added)
        raise HandError(
            f'{_typed(kind)} is given as "{item}" and also as {cards}: did you mean {_shown(kind, more)} '
            f"({_typed(kind)}={more}) or {_shown(kind, n)} ({item})? give the {_typed(kind)} cards once"
        )
    return exact[0][0]


def _typed(kind: str) -> str:
    """How the calculator's lines write ``kind`` for typing: ``+2``, ``joker``, ``golden``, ``green``."""
    return {PLUS2: "+2", GOLDEN_JOKER: "golden"}.get(kind, kind)


def _check_possible(counts: Sequence[int], edition: Edition, removed: Sequence[str]) -> None:
    for colour in ALL_COLOURS:
        n = counts[KIND_INDEX[colour]]
        if not n:
            continue
        if colour not in edition.colours:
            raise HandError(
                f"{colour} is not a colour of the {edition.name} edition ({', '.join(edition.colours)})"
            )
        if colour in removed:
            raise HandError(f"{colour} is removed from this game (--removed), so no hand holds it")
        if n > CARDS_PER_COLOUR:
            raise HandError(f"{n} {colour}: the game has only {CARDS_PER_COLOUR} {colour} cards")
    jokers, golden, plus2 = (counts[KIND_INDEX[k]] for k in (JOKER, GOLDEN_JOKER, PLUS2))
    if jokers > edition.jokers:
        more = (
            f" (and {edition.golden_jokers} golden joker: give it as golden=1)"
            if edition.golden_jokers
            else ""
        )
        raise HandError(f"{_shown(JOKER, jokers)}: the {edition.name} edition has only {edition.jokers}{more}")
    if golden > edition.golden_jokers:
        if not edition.golden_jokers:
            with_golden = " or ".join(e.name for e in EDITIONS.values() if e.golden_jokers)
            raise HandError(f"the {edition.name} edition has no golden joker (use --edition {with_golden})")
        raise HandError(
            f"{_shown(GOLDEN_JOKER, golden)}: the {edition.name} edition has only {edition.golden_jokers}"
        )
    if plus2 > edition.plus2:
        raise HandError(f"{_shown(PLUS2, plus2)}: the game has only {edition.plus2}")


@dataclass(frozen=True, slots=True)
class HandScore:
    """The calculator's answer: the hand, the rules it was scored by, the optimum."""

    counts: tuple[int, ...]  # indexed like cards.KINDS
    edition: Edition
    table: ScoringTable
    removed: tuple[str, ...]
    colours: tuple[str, ...]  # in play, edition order
    optimal: Assignment

    @property
    def score(self) -> int:
        return self.optimal.score

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition.name,
            "table": self.table.name,
            "removed": list(self.removed),
            "colours": list(self.colours),
            "cards": cards_json(self.counts, self.edition, self.colours),
            **assignment_json(self.optimal),
        }


def score_hand(
    counts: Sequence[int], *, edition: Edition, table: ScoringTable, removed: Sequence[str] = ()
) -> HandScore:
    """The optimal assignment of a (checked) hand under the given rules."""
    colours = colours_in_play(edition, tuple(removed))
    optimal = best_from_counts(tuple(counts), colours, table=table)
    return HandScore(tuple(counts), edition, table, _in_edition_order(edition, removed), colours, optimal)


def calculate(
    hand: str,
    *,
    edition: str = "classic",
    table: str = "standard",
    removed: Sequence[str] = (),
) -> HandScore:
    """Parse a typed hand and score it: the table-side calculator in one call.

    ``edition`` (a name of ``ruleset.EDITIONS``), ``table``
    (``standard``/``alternative``) and ``removed`` are names as typed.
    Raises :class:`HandError` (one line) for anything a game cannot produce.
    """
    the_edition = EDITIONS.get(edition.strip().lower())
    if the_edition is None:
        raise HandError(f'--edition: "{edition}" is not an edition; use {edition_choice()}')
    the_table = TABLES.get(table.strip().lower())
    if the_table is None:
        raise HandError(f'--table: "{table}" is not a scoring table; use {" or ".join(TABLES)}')
    gone = parse_removed(removed, edition=the_edition)
    counts = parse_hand(hand, edition=the_edition, removed=gone)
    return score_hand(counts, edition=the_edition, table=the_table, removed=gone)
