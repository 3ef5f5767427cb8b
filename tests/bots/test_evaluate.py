"""The evaluator (``bots.evaluate``), the search on it (``bots.search``) and the ``expert`` that plays it:
values in their bounds, the same bytes on every run, blind to the deck's order, legal moves only; the features of a
batch the same to the bit as their plain definition, seat by seat."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.bots import expert, search
from coloretto_log.bots import players as bots
from coloretto_log.bots.evaluate import (
    N_FEATURES,
    NAMES,
    Values,
    evaluate,
    evaluate_many,
    features,
    final_values,
)
from coloretto_log.bots.evaluate.features import features_many
from coloretto_log.bots.evaluate.model import load, model_from_json
from coloretto_log.bots.expert import ExpertBot, survivors
from coloretto_log.bots.players import GreedyBot, RandomBot, hidden, play_to_end, turn
from coloretto_log.bots.playout import Choice, Start
from coloretto_log.cli import app
from coloretto_log.core import engine
from coloretto_log.core.cards import (
    ALL_COLOURS,
    GOLDEN_INDEX,
    GOLDEN_JOKER,
    JOKER_INDEX,
    LAST_ROUND,
    PLUS2_INDEX,
)
from coloretto_log.core.engine import GameState, Table, View
from coloretto_log.core.rng import SplitMix64, nth_output
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.log.replay import check_match

from ..builders.positions import reordered

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def new_state(seed: int, players: int = 3, edition: str = "classic", table: str = "standard") -> GameState:
    rules = RuleSet.of(edition=edition, scoring=table, games=1)
    s = seeded_setup(rules, players, seed, 0)
    return engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)


def game(seed: int, players: int = 3, edition: str = "classic", table: str = "standard") -> list[GameState]:
    """Every state of one game of greedy and random seats."""
    state = new_state(seed, players, edition, table)
    seats: list[bots.Bot] = [GreedyBot() if s % 2 == 0 else RandomBot() for s in range(players)]
    rngs = [SplitMix64(seed * 10 + s) for s in range(players)]
    out = [state]
    while not state.over:
        state = engine.apply(state, turn(seats[state.current], state, rngs[state.current]))
        out.append(state)
    return out


# --------------------------------------------------------------------------- values


@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]),
       table=st.sampled_from(["standard", "alternative"]))
@settings(max_examples=12, deadline=None)
def test_win_chances_are_chances_and_margins_add_up_to_zero(seed: int, players: int, edition: str,
                                                             table: str) -> None:
    states = game(seed, players, edition, table)
    for state, values in zip(states, evaluate_many(states)):
        assert len(values.margin) == len(values.win) == players
        assert all(0.0 <= w <= 1.0 for w in values.win)
        assert math.isclose(sum(values.win), 1.0, abs_tol=1e-9)
        assert all(math.isfinite(m) and abs(m) < 200 for m in values.margin)
        assert abs(sum(values.margin)) < 1e-9  # margins (own less the others' mean) always add up to 0
        assert values == evaluate(state)


def test_a_finished_game_is_worth_its_real_margins_and_winners() -> None:
    final = game(4, 4)[-1]
    scores = bots.final_scores(final)
    values = evaluate(final)
    assert values == final_values(scores)
    assert values.margin == tuple(s - (sum(scores) - s) / 3 for s in scores)
    # by hand: a shared win is shared
    assert final_values([30, 30, 12]) == Values((9.0, 9.0, -18.0), (0.5, 0.5, 0.0))


def test_the_leader_late_in_a_game_is_the_favourite() -> None:
    # one seat far ahead with few cards left: its margin and chance are the highest
    for seed in range(3):
        states = game(seed, 4)
        late = states[-12]
        scores = [bots.scores_for(late)[bots.pack(c)] for c in late.collections]
        leader = max(range(4), key=lambda s: scores[s])
        top, second = sorted(scores)[-1:-3:-1]
        if top - second < 10:
            continue
        values = evaluate(late)
        assert max(range(4), key=lambda s: values.win[s]) == leader
        assert max(range(4), key=lambda s: values.margin[s]) == leader


def test_blind_to_the_order_of_the_unseen_cards() -> None:
    for state in game(11, 3)[:-1:5]:
        assert evaluate(state) == evaluate(reordered(state, state.turned))
        assert evaluate(state) == evaluate(hidden(state))
        assert evaluate(state) == evaluate(Table(state))  # a table and its state are the same position


def test_features_are_one_row_of_numbers_per_seat() -> None:
    for state in game(2, 5)[::20]:
        rows = features(state)
        assert len(rows) == 5 and all(len(r) == N_FEATURES and all(math.isfinite(x) for x in r) for r in rows)


def test_a_players_largest_colours_are_never_the_colour_out_of_play_while_others_remain() -> None:
    # At the start of a three-player game each seat holds one colour; its "second" and "third" largest colours
    # are colours it does not hold: the ones with the most cards left, never the colour out of play (0 left).
    names = list(NAMES)
    for seed in range(6):
        state = new_state(seed, 3)
        assert state.removed  # one colour is out of play
        rows = features(state)
        for s in range(3):
            counts = state.collections[s]
            held = [k for k in range(len(ALL_COLOURS)) if counts[k]]
            assert len(held) == 1
            left_of_unheld = sorted((state.remaining[k] for k in range(len(ALL_COLOURS)) if not counts[k]),
                                    reverse=True)
            assert left_of_unheld[-1] == 0  # the colour out of play
            unseen = [rows[s][names.index(f"unseen_{j}")] * 9.0 for j in (1, 2, 3)]
            assert math.isclose(unseen[0], state.remaining[held[0]])
            assert [round(u) for u in unseen[1:]] == left_of_unheld[:2] and min(unseen) > 0


SCRIPT = """
import sys
from coloretto_log.core import engine
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup
from coloretto_log.bots.players import GreedyBot, turn
from coloretto_log.core.rng import SplitMix64, nth_output
from coloretto_log.bots.evaluate import evaluate
rules = RuleSet.of(games=1)
s = seeded_setup(rules, 4, 9, 0)
state = engine.new_game(rules, 4, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)
while not state.over:
    print(repr(evaluate(state)))
    state = engine.apply(state, turn(GreedyBot(), state, SplitMix64(0)))
"""


def test_the_same_bytes_in_every_process() -> None:
    runs = [subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": str(k), "PATH": ""}, cwd=ROOT).stdout for k in (1, 2)]
    assert runs[0] == runs[1] and runs[0].count("\n") > 50


def test_the_shipped_weights_are_small_and_fit_the_features() -> None:
    path = ROOT / "coloretto_log/bots/evaluate/weights.json"
    assert path.stat().st_size < 64_000
    model = load()
    assert model.mean.shape == (N_FEATURES,) and model.w1.shape[0] == N_FEATURES and model.w2.shape[1] == 2
    assert model_from_json(json.loads(path.read_text(encoding="utf-8"))).w1.tolist() == model.w1.tolist()


# --------------------------------------------------------------------------- the search


def test_a_draw_from_one_kind_is_worth_that_card_in_the_best_row() -> None:
    # Every unseen card red: a draw is the red, placed in the player's best row, for sure.
    for state in game(5, 3)[5:40:7]:
        view = hidden(state)
        start = Start(view)
        if ("draw", -1) not in start.choices():
            continue
        n = sum(view.remaining)
        only_red = view._replace(remaining=tuple(n if k == 6 else 0 for k in range(len(view.remaining))))
        start = Start(only_red)
        if start.lr_at == 0:
            continue
        drawn = search.choice_values(start, [("draw", -1)])[0]
        card_in_hand = Start(only_red, "red")
        rows = card_in_hand.choices()
        placed = search.choice_values(card_in_hand, rows)
        seat = view.current
        best = max(placed, key=lambda v: search.objective(v, seat))
        assert drawn == best


def test_a_take_is_worth_the_position_after_it() -> None:
    for state in game(6, 4)[3:60:9]:
        view = hidden(state)
        start = Start(view)
        takes = [c for c in start.choices() if c[0] == "take"]
        for c in takes:
            after = engine.apply(view, engine.Take(view.current, c[1] + 1))
            assert search.choice_values(start, [c])[0] == evaluate(after)


def taken(start: Start, choice: Choice, deck: list[str]) -> Table:
    """The table after ``choice``, a take at ``start`` (a golden joker's extra card the order's first)."""
    table = Table(start.state)
    table.take(table.current, choice[1], deck[0] if GOLDEN_JOKER in table.rows[choice[1]] else None, False)
    return table


def test_a_playout_with_replies_plays_the_evaluators_one_ply_choice_then_greedy() -> None:
    # By hand, for a take: the table after it, the next seat's turn as ``one_ply`` picks it (the card it draws
    # placed as ``one_ply`` picks too), then greedy to the round's end on the same order. For a take or a row,
    # no reply is the greedy playout itself; for our own draw the card goes where ``one_ply`` puts it.
    checked = 0
    for state in game(45, 3)[2:40:5]:
        start = Start(hidden(state))
        stop = start.stop_round()
        deck = start.deal(nth_output(8, 1), start.need(stop))
        if LAST_ROUND in deck[:4]:
            continue
        base = start.state.turned
        for choice in start.choices():
            picks: dict[tuple[object, ...], Choice] = {}
            got = search.play_replies(start, choice, deck, stop, 1, picks)
            if choice[0] == "draw":
                turned = Table(start.state)
                turned.turn_over(deck[0], False)
                assert picks[(choice, 1, "row", (deck[0],))] == search.one_ply(turned, deck[0])
                continue
            assert search.play_replies(start, choice, deck, stop, 0, {}).state() == start.play_to(
                choice, deck, stop).state()
            table = taken(start, choice, deck)
            if table.round == stop:
                continue
            seat = table.current
            kind, i = search.one_ply(table, None)
            used = table.turned - base
            if kind == "draw":
                card = deck[used]
                table.turn_over(card, False)
                table.place(seat, search.one_ply(table, card)[1], card)
            else:
                extra = deck[used] if GOLDEN_JOKER in table.rows[i] else None
                table.take(seat, i, extra, False)
            if not table.over and table.round != stop:
                bots.play_out(table, deck, base, [GreedyBot()] * 3, [SplitMix64(0)] * 3, stop)
            assert got.state() == table.state()
            checked += 1
    assert checked >= 5


def test_replies_by_strong_are_strongs_choices() -> None:
    checked = 0
    for state in game(46, 4)[2:40:6]:
        start = Start(hidden(state))
        stop = start.stop_round()
        deck = start.deal(nth_output(9, 1), start.need(stop))
        for choice in [c for c in start.choices() if c[0] == "take"]:
            table = taken(start, choice, deck)
            if table.round == stop:
                continue
            picks: dict[tuple[object, ...], Choice] = {}
            search.play_replies(start, choice, deck, stop, 1, picks, by="strong")
            key = (choice, 1, tuple(deck[:table.turned - start.state.turned]))
            assert picks[key] == search.strong_pick(table, None, 1)
            kind, i = picks[key]
            expected = bots.StrongBot().choose(table, SplitMix64(1))
            assert (kind == "draw") == (expected is None) and (expected is None or expected.row == i + 1)
            checked += 1
    assert checked >= 5


# --------------------------------------------------------------------------- the expert


@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]),
       samples=st.sampled_from([0, 4]))
@settings(max_examples=8, deadline=None)
def test_the_expert_plays_only_legal_moves(seed: int, players: int, edition: str, samples: int) -> None:
    state = new_state(seed, players, edition)
    seats: list[bots.Bot] = [ExpertBot(samples=samples)] + [GreedyBot()] * (players - 1)
    moves: list[engine.Move] = []
    final = play_to_end(state, seats, [SplitMix64(seed + s) for s in range(players)], moves=moves)
    assert final.over  # play_to_end checks every answer (BotError otherwise); replay it through the rules too
    replayed = state
    for m in moves:
        assert engine.check(replayed, m) is None
        replayed = engine.apply(replayed, m)
    assert replayed.collections == final.collections


def test_a_race_drops_a_choice_only_once_it_trails_by_more_than_z_standard_errors() -> None:
    # by hand: choice 1 trails choice 0 by 1 on every order (no spread): dropped; choice 2 trails by 0.5 on
    # average with a standard error of 0.29 (paired): 1.7 standard errors, kept at z = 3, dropped at z = 1.
    values = [[1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0]]
    assert survivors(values, [0, 1, 2], 4, 3.0) == [0, 2]
    assert survivors(values, [0, 1, 2], 4, 1.0) == [0]


def test_an_expert_that_races_plays_legal_reproducible_moves_and_a_race_of_one_batch_is_the_plain_expert() -> None:
    racer, plain = ExpertBot(samples=4, most=12), ExpertBot(samples=4)
    for state in game(43, 3)[:-1:6]:
        a = racer.choose(state, SplitMix64(9))
        assert a == racer.choose(reordered(state, 7), SplitMix64(9)) == ExpertBot(samples=4, most=12).choose(
            state, SplitMix64(9))
        assert a is None or engine.check(state, a) is None
        assert ExpertBot(samples=4, most=4).choose(state, SplitMix64(9)) == plain.choose(state, SplitMix64(9))


def test_a_blended_rollout_is_the_evaluators_value_at_the_round_end_mixed_with_the_games_end() -> None:
    # blend 1: the real values after greedy play to the end of the game on the same order (what expert-mc's
    # playouts reach); blend 0: the evaluator where the round ends; blend b: (1 - b) of the one, b of the other.
    for state in game(44, 3)[2:30:9]:
        start = Start(hidden(state))
        assert start.stop_round()  # mid-game: the plain rollout stops at the round's end
        choices = start.choices()
        orders = range(3)
        plain = search.rollout_samples(start, choices, 5, orders)
        ends = search.rollout_samples(start, choices, 5, orders, blend=1.0)
        half = search.rollout_samples(start, choices, 5, orders, blend=0.5)
        deck_seed = [nth_output(5, k + 1) for k in orders]
        for c, choice in enumerate(choices):
            for k, seed in enumerate(deck_seed):
                final = start.play_to(choice, start.deal(seed, start.need(0)), 0)
                assert final.over
                assert ends[c][k] == evaluate(final)
                for a, b, m in zip(plain[c][k].margin, ends[c][k].margin, half[c][k].margin):
                    assert math.isclose(m, (a + b) / 2, abs_tol=1e-12)
                assert math.isclose(sum(half[c][k].win), 1.0) and math.isclose(sum(half[c][k].margin), 0.0,
                                                                             abs_tol=1e-9)


def test_the_expert_plays_the_best_mean_of_playouts_whose_next_turn_is_strongs() -> None:
    # The default expert, by hand: 32 orders from the decision's number, the next turn by strong, the best
    # mean objective (ties to the first choice).
    assert (expert.REPLIES, expert.REPLY_POLICY) == (1, "strong")
    checked = 0
    for state in game(47, 3)[1:30:4]:
        start = Start(hidden(state))
        choices = expert.distinct(start)
        if len(choices) < 2 or expert.searched_exactly(start):
            continue
        seed = SplitMix64(3).next()
        samples = search.rollout_samples(start, choices, seed, range(expert.ROLLOUTS), replies=1, by="strong")
        seat = state.current
        means = [sum(search.objective(v, seat) for v in vs) for vs in samples]
        kind, i = choices[max(range(len(choices)), key=lambda k: (means[k], -k))]
        got = ExpertBot().choose(state, SplitMix64(3))
        assert got == (None if kind == "draw" else engine.Take(seat, i + 1))
        checked += 1
    assert checked >= 3


def test_the_expert_is_reproducible_and_blind_to_the_deck() -> None:
    bot = ExpertBot()
    for state in game(41, 3)[:-1:4]:
        a = bot.choose(state, SplitMix64(3))
        assert a == bot.choose(reordered(state, 7), SplitMix64(3)) == ExpertBot().choose(state, SplitMix64(3))


def test_simulate_plays_expert_expert_mc_and_strong_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "e.jsonl"
    args = ["simulate", "-n", "1", "--player-count", "3", "--games", "1", "--bots", "expert,expert-mc,strong",
            "--seed", "3", "--out", str(out), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    assert [b["bot"] for b in sorted(summary["bots"], key=lambda b: b["bot"])] == ["expert", "expert-mc", "strong"]
    (line,) = out.read_text(encoding="utf-8").splitlines()
    assert check_match(json.loads(line)).valid


# --------------------------------------------------------------------------- the training


def test_the_training_script_gives_the_same_bytes_twice(tmp_path: Path) -> None:
    outs = []
    for k in (1, 2):
        out = tmp_path / f"w{k}.json"
        subprocess.run([sys.executable, str(ROOT / "benchmarks/train_evaluator.py"), "--games", "4", "--epochs", "2",
                        "--hidden", "4", "--seed", "5", "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    model = model_from_json(json.loads(outs[0]))
    assert model.w1.shape == (N_FEATURES, 4) and model.w2.shape == (4, 2)


# The features (``bots.evaluate.features``): the batch reading, for all positions at once, gives the same numbers to
# the bit as the definition read one seat at a time (below, in plain Python), on every position of games of every
# player count, edition and scoring table.


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 5), st.sampled_from([("classic", "standard"), ("anniversary", "alternative"),
                                           ("classic", "alternative")]), st.integers(0, 10 ** 6))
def test_the_batch_reading_is_the_plain_one_to_the_bit(players: int, rules: tuple[str, str], seed: int) -> None:
    views = [bots.hidden(s) for s in game(seed, players, *rules)]
    plain = np.asarray([plain_features(v) for v in views], dtype=np.float64)
    assert features_many(views).tobytes() == plain.tobytes()
    assert features(views[len(views) // 2]) == plain_features(views[len(views) // 2])


def plain_features(view: View) -> list[list[float]]:
    """The features as the module's docstring defines them, one seat at a time, in plain Python."""
    n = view.players
    memo = bots.scores_for(view).memo
    packed = [bots.pack(c) for c in view.collections]
    scores = [memo[p] for p in packed]
    limits, rows, taken, done = view.limits, view.rows, view.taken, view.done
    remaining = view.remaining
    space = sum(limits)
    total = view.total
    free = sum(lim - len(r) for lim, r, t in zip(limits, rows, taken) if not t)
    open_rows = [i for i in range(len(rows)) if not taken[i]]
    takeable = [bots.pack_cards(rows[i]) for i in open_rows if rows[i]]
    lr_pending = view.lr_pending
    ahead = max(0, total - 1 - view.rules.under - view.turned) if lr_pending else 0
    last = 1.0 if view.last_round or not lr_pending else 0.0
    game = [
        1.0 if n == 2 else 0.0, 1.0 if n == 3 else 0.0, 1.0 if n == 4 else 0.0, 1.0 if n == 5 else 0.0,
        view.turned / total, ahead / space / 5.0, last, free / space, float(remaining[GOLDEN_INDEX]),
        0.0 if view.rules.table.name == "standard" else 1.0,
    ]  # fmt: skip
    in_round = [s for s in range(n) if not done[s]]
    current = view.current
    # the rows' gains for every seat still in the round (a seat that has taken gains nothing this round)
    gains: list[list[int]] = [
        sorted((memo[packed[s] + r] - scores[s] for r in takeable), reverse=True) if not done[s] else []
        for s in range(n)
    ]
    out: list[list[float]] = []
    for s in range(n):
        me = scores[s]
        others = [scores[o] for o in range(n) if o != s]
        best_other = max(others)
        counts = view.collections[s]
        # most first; among equal counts, the colour with the most cards left (never the colour out of play by index)
        colour_counts = [(-c, k) for c, _, k in sorted((-counts[k], -remaining[k], k) for k in range(len(ALL_COLOURS)))]
        p = packed[s]
        top3 = colour_counts[:3]
        marginal = [(memo[p + bots.UNITS[k]] - me) / 10.0 for _, k in top3]
        unseen = [remaining[k] / 9.0 for _, k in top3]
        g = gains[s]
        turns_until = _turns_until(current, s, in_round, n)
        rivals = [gains[o][0] for o in range(n) if o != s and gains[o]]
        row = game + [
            1.0 if done[s] else 0.0, 1.0 if current == s and not view.over else 0.0, len(in_round) / n, turns_until / n,
            me / 20.0, sum(others) / len(others) / 20.0, best_other / 20.0, (me - best_other) / 20.0,
            *(c / 6.0 for c, _ in colour_counts[:5]),
            float(counts[JOKER_INDEX] + counts[GOLDEN_INDEX]), counts[PLUS2_INDEX] / 3.0,
            sum(1 for c, _ in colour_counts if c) / 5.0,
            *marginal, *unseen,
            g[0] / 10.0 if g else 0.0, g[1] / 10.0 if len(g) > 1 else 0.0, g[-1] / 10.0 if g else 0.0,
            len(open_rows) / n, (1.0 - free / max(1, sum(limits[i] for i in open_rows))) if open_rows else 0.0,
            max(rivals) / 10.0 if rivals else 0.0,
        ]  # fmt: skip
        out.append(row)
    return out


def _turns_until(current: int, seat: int, in_round: Sequence[int], n: int) -> int:
    """How many turns of others come before ``seat``'s next turn in this round (0: it is to move; n: it has taken)."""
    if seat not in in_round:
        return n
    k = 0
    s = current
    for _ in range(n):
        if s == seat:
            return k
        if s in in_round:
            k += 1
        s = (s + 1) % n
    return k
