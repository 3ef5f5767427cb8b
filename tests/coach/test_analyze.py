"""`analyze`: playouts that play as the greedy bot, values known by hand, exact against sampled, honest noise."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from coloretto_log.bots import exact as E
from coloretto_log.bots import players as bots
from coloretto_log.bots.playout import Start, choices
from coloretto_log.bots.simulate import moves_with_states, play_game
from coloretto_log.cli import app
from coloretto_log.coach import analyze as A
from coloretto_log.coach.estimate import ChoiceValue, Evaluation
from coloretto_log.coach.marks import mark_for
from coloretto_log.core import engine
from coloretto_log.core.cards import KINDS, LAST_ROUND
from coloretto_log.core.engine import GameState, Move
from coloretto_log.core.rng import SplitMix64
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

from ..builders.hand import replaced, table_state
from ..builders.positions import last_round_position
from ..conftest import ROOT

SAMPLES = ROOT / "sample_logs"
THREE = SAMPLES / "anniversary-3p-golden-joker-after-last-round-card.json"
runner = CliRunner()


def new_state(seed: int, players: int = 4, edition: str = "classic") -> GameState:
    rules = RuleSet.of(edition=edition)
    s = seeded_setup(rules, players, seed, 0)
    return engine.new_game(rules, players, removed=s.removed, starting=s.starting, first=s.first, deck=s.deck)


def greedy_game(seed: int, players: int = 4, edition: str = "classic") -> list[tuple[Move, GameState]]:
    """Every move of a greedy self-play game with the state it was played in."""
    state = new_state(seed, players, edition)
    bot, rng = bots.make_bot("greedy"), SplitMix64(seed)
    out = []
    while not state.over:
        move = bots.turn(bot, state, rng)
        out.append((move, state))
        state = engine.apply(state, move)
    return out


def task(state: GameState, played: tuple[str, int], card: str | None = None, seed: int = 1) -> A.Task:
    kind = "draw-or-take" if card is None else "row"
    return A.Task(1, 1, state.current, kind, state, card, False, played, seed)


# --------------------------------------------------------------------------- the playouts are the greedy bot


@pytest.mark.parametrize(("players", "edition"), [(2, "classic"), (3, "anniversary"), (4, "classic"), (5, "anniversary")])
def test_playouts_play_exactly_as_the_greedy_bot_through_the_engine(players: int, edition: str) -> None:
    for seed in range(8):
        game = greedy_game(seed, players, edition)
        move, state = game[0]
        assert state.deck is not None
        final = engine.apply(game[-1][1], game[-1][0])
        start = Start(state)
        played = ("take", move.row - 1) if isinstance(move, engine.Take) else ("draw", -1)
        assert start.play(played, list(state.deck)) == list(final.collections)
        # and from a card turned over, half-way through the game
        k = next(k for k in range(len(game) // 2, len(game)) if isinstance(game[k][0], engine.Draw))
        move, state = game[k]
        assert isinstance(move, engine.Draw) and state.deck is not None and move.card is not None
        start = Start(state, move.card, bool(move.last_round))
        rest = list(state.deck[state.turned + 1 + bool(move.last_round):])
        assert start.play(("row", move.row - 1), rest) == list(final.collections)


def test_a_position_never_reads_the_real_order_of_the_deck() -> None:
    game = greedy_game(5)
    move, state = game[30]
    assert state.deck is not None
    shuffled = replaced(state, deck=tuple(reversed(state.deck)))
    hidden = replaced(state, deck=None)
    settings = A.Settings(samples=32, max_se=100.0)
    played: tuple[str, int] = ("draw", -1) if isinstance(move, engine.Draw) else ("take", move.row - 1)
    values = {A.evaluate(task(s, played), settings) for s in (state, shuffled, hidden)}
    assert len(values) == 1


def test_dealt_orders_follow_the_public_composition_and_the_last_round_rule() -> None:
    state = new_state(3)
    start = Start(state)
    assert start.lr_at == state.lr_expected_at - state.turned
    for seed in range(20):
        deck = start.deal(seed, len(start.pool))
        assert deck.index(LAST_ROUND) == start.lr_at
        assert sorted(c for c in deck if c != LAST_ROUND) == sorted(start.pool)


# --------------------------------------------------------------------------- positions known by hand

ALONE = {"done": [True, True, True, False], "taken": [True, True, True, False], "current": 3}
BOARD = [{"orange": 3}, {"blue": 3}, {"brown": 3}, {"red": 4, "green": 3, "grey": 3, "yellow": 1}]


@pytest.mark.parametrize("exact", [True, False])
def test_a_take_that_completes_a_colour_to_six_beats_a_draw_by_the_card_it_would_add(exact: bool) -> None:
    # The last player of the last round; row 4 holds two reds, which make her 4 reds 6 (10 -> 21 points).
    # Every unseen card is yellow, her negative colour: drawing puts one in the row, which she must then
    # take, and her second yellow costs her 3 - 1 = 2 points. The others' scores are settled.
    state = table_state(collections=BOARD, rows=[[], [], [], ["red", "red"]], remaining={"yellow": 8}, **ALONE)
    ev = A.evaluate(task(state, ("draw", -1)), A.Settings(samples=64, exact=exact))
    take, draw = next(c for c in ev.choices if c.choice == "take row 4"), next(c for c in ev.choices if c.choice == "draw")
    assert ev.exact == exact
    assert ev.choices[ev.best].choice == "take row 4"
    assert draw.margin == pytest.approx(take.margin - 2)
    assert ev.loss == pytest.approx(2) and ev.loss_se == 0
    assert take.win_prob == 1.0  # 21 + 6 + 6 - 1 = 32 against 6 each
    d = A._decision(task(state, ("draw", -1)), ev)
    # she wins either way (drawing: 30 against 6 each): 2 points lost, no chance of winning lost, so no mark
    assert draw.win_prob == 1.0 and d.chance_loss == 0
    assert d.mark is None and d.best == "take row 4" and not d.about_equal


def test_the_last_take_of_a_round_is_forced_loss_zero_no_mark() -> None:
    state = table_state(collections=BOARD, rows=[[], [], [], ["red", "red", "plus2"]], remaining={"yellow": 8},
                        last_round=False, **ALONE)
    assert len(engine.legal_actions(state)) == 1
    d = A._decision(task(state, ("take", 3)), A.evaluate(task(state, ("take", 3)), A.Settings()))
    assert d.forced and d.loss == 0 and d.mark is None and d.evaluation.samples == 0


def test_every_decision_with_one_choice_in_a_game_is_forced() -> None:
    game = greedy_game(11)
    tasks = A.tasks_of_game(game, 1, 1, 0)
    forced = [t for t in tasks if t.decision == "draw-or-take" and len(engine.legal_actions(t.state)) == 1]
    assert forced
    for t in forced[:10]:
        ev = A.evaluate(t, A.Settings(samples=8))
        assert ev.forced and ev.loss == 0


def test_rows_that_are_alike_are_one_choice() -> None:
    # the first card of a round: four empty rows are one choice
    state = new_state(2)
    t = A.Task(1, 1, state.current, "row", state, "red", False, ("row", 2), 1)
    ev = A.evaluate(t, A.Settings(samples=8))
    assert ev.forced and ev.choices[0].choice == "row 1"


def test_marks_go_by_the_winning_chance_lost() -> None:
    assert A.mark_for(0.0) is None
    assert A.mark_for(0.049) is None
    assert A.mark_for(0.05) == "inaccuracy"
    assert A.mark_for(0.10) == "mistake"
    assert A.mark_for(0.20) == "blunder"
    assert A.mark_for(0.67) == "blunder"  # 95% -> 28%


def _ev(best: tuple[float, float], played: tuple[float, float], loss: float, loss_se: float, chance: float,
        chance_se: float) -> Evaluation:
    values = (ChoiceValue("draw", best[0], 0.1, best[1], 0.0, ()), ChoiceValue("take row 1", played[0], 0.1, played[1], 0.0, ()))
    return Evaluation(values, 1, 0, loss, loss_se, 2000, False, loss, chance, chance_se)


def test_about_equal_names_no_best_and_gives_no_mark() -> None:
    # 0.3 ± 0.2 points and 6 ± 4% of chance: within two standard errors both, about equal, no mark
    chance, equal, mark = A.judge(_ev((1.3, 0.50), (1.0, 0.44), 0.3, 0.2, 0.06, 0.04))
    assert (chance, equal, mark) == (0.0, True, None)
    # within a tenth of a point and a hundredth of the chance, however precise
    assert A.judge(_ev((1.05, 0.305), (1.0, 0.3), 0.05, 0.001, 0.005, 0.001))[1]
    # 2 ± 0.3 points and 12 ± 2%: a mistake by the chance
    assert A.judge(_ev((3.0, 0.52), (1.0, 0.40), 2.0, 0.3, 0.12, 0.02)) == (0.12, False, "mistake")
    # more points but no chance lost (a lost game either way): not marked
    assert A.judge(_ev((3.0, 0.0), (-5.0, 0.0), 8.0, 0.3, 0.0, 0.0)) == (0.0, False, None)
    # the played choice raised the chance while losing points: not marked
    assert A.judge(_ev((3.0, 0.40), (1.0, 0.45), 2.0, 0.3, -0.05, 0.01)) == (0.0, False, None)


@given(st.lists(st.tuples(st.floats(0, 10), st.floats(0, 2), st.floats(-1, 1), st.floats(0, 0.3)), min_size=2,
                max_size=30))
def test_a_decision_never_gets_a_heavier_mark_than_one_that_lost_more_chance(
        rows: list[tuple[float, float, float, float]]) -> None:
    order = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
    judged = [A.judge(_ev((1.0 + loss, 0.5), (1.0, 0.5 - chance), loss, se, chance, cse))
              for loss, se, chance, cse in rows]
    for c1, _, m1 in judged:
        assert c1 >= 0
        if c1 == 0:
            assert m1 is None  # lost no chance (or raised it): never marked
        for c2, _, m2 in judged:
            if c1 < c2:
                assert order[m1] <= order[m2]


# --------------------------------------------------------------------------- exact against sampled


def greedy_expectation(start: Start, choice: tuple[str, int], seat: int) -> tuple[float, float]:
    """The exact expected margin and win chance of ``choice`` then greedy play: every order of the cards
    a playout can use, weighted by its probability."""
    # classic: no golden joker, so a playout turns over one card for each place left in the rows
    state = start.state
    need = sum(lim - len(r) for lim, r, t in zip(state.limits, state.rows, state.taken) if not t)
    counts = list(state.remaining)
    scores = bots.scores_for(state)
    total = [0.0, 0.0]

    def walk(prefix: list[str], p: float) -> None:
        if len(prefix) == need:
            v = E.final_vector(scores, start.play(choice, list(prefix)))
            total[0] += p * v[seat]
            total[1] += p * v[state.players + seat]
            return
        left = sum(counts)
        for k, n in enumerate(counts):
            if n:
                counts[k] -= 1
                walk([*prefix, KINDS[k]], p * n / left)
                counts[k] += 1

    walk([], 1.0)
    return total[0], total[1]


def test_sampled_values_at_the_switch_agree_with_every_order_enumerated() -> None:
    state = last_round_position()
    start = Start(state)
    assert E.applies(start)  # the analysis would search exactly here
    open_choices = start.choices()
    t = task(state, open_choices[0], seed=7)
    ev = A.evaluate(t, A.Settings(samples=600, max_se=0, exact=False))
    assert ev.samples == 600
    for c, value in zip(open_choices, ev.choices):
        margin, win = greedy_expectation(start, c, state.current)
        assert abs(value.margin - margin) <= 4 * value.margin_se + 1e-9, (c, value, margin)
        assert abs(value.win_prob - win) <= 4 * value.win_prob_se + 0.02


def test_exact_search_is_best_play_for_the_player_alone_in_the_round() -> None:
    # alone in the last round, the search is the player's own best: never below greedy's expectation
    state = table_state(collections=BOARD, rows=[[], [], [], ["red"]],
                        remaining={"yellow": 3, "red": 2, "plus2": 2, "grey": 2}, **ALONE)
    start = Start(state)
    open_choices = choices(state, None)
    exact = E.choice_values(start, open_choices)
    for c, v in zip(open_choices, exact):
        assert v[3] >= greedy_expectation(start, c, 3)[0] - 1e-9
    # and it sums every seat's margin to 0, as margins do
    assert all(abs(sum(v[:4])) < 1e-9 for v in exact)


def test_more_samples_give_tighter_intervals_around_the_same_value() -> None:
    state = last_round_position()
    start = Start(state)
    open_choices = start.choices()
    truth = [greedy_expectation(start, c, state.current)[0] for c in open_choices]
    ses = []
    for n in (100, 400, 1600):
        ev = A.evaluate(task(state, open_choices[-1], seed=3), A.Settings(samples=n, max_se=0, exact=False))
        assert ev.samples == n
        for value, exact in zip(ev.choices, truth):
            assert abs(value.margin - exact) <= 4 * value.margin_se + 1e-9
        ses.append(max(v.margin_se for v in ev.choices))
    assert ses[1] < 0.75 * ses[0] and ses[2] < 0.75 * ses[1]


# --------------------------------------------------------------------------- determinism


def test_seeds_depend_on_the_decision_only() -> None:
    seeds = {A.decision_seed(9, 1, g, m, d) for g in (1, 2) for m in (1, 2, 3) for d in (1, 2)}
    assert len(seeds) == 12
    assert A.decision_seed(9, 1, 2, 3, 1) == A.decision_seed(9, 1, 2, 3, 1)
    assert A.decision_seed(9, 1, 2, 3, 1) != A.decision_seed(10, 1, 2, 3, 1)


def cli_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["analyze", str(THREE), "--json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_same_seed_same_numbers_whatever_jobs() -> None:
    args = ("--player", "Chloe", "--samples", "48", "--max-se", "1.5")
    one = cli_json(*args, "--seed", "5")
    two = cli_json(*args, "--seed", "5", "--jobs", "2")
    other = cli_json(*args, "--seed", "6")
    assert one == two
    assert one["matches"][0]["decisions"] != other["matches"][0]["decisions"]


def test_json_has_the_documented_keys() -> None:
    data = cli_json("--player", "Boris", "--samples", "32", "--max-se", "3")
    assert data["policy"] == "greedy" and data["samples"] == 32 and data["horizon"] == A.HORIZON
    m = data["matches"][0]
    assert m["decisions"]
    keys = {"game", "move", "player", "decision", "played", "best", "loss", "loss_se", "mark", "chance_loss",
            "chance_se", "about_equal", "win_prob_played", "win_prob_best"}
    for d in m["decisions"]:
        assert keys <= d.keys()
        assert d["player"] == "Boris" and d["decision"] in ("draw-or-take", "row")
        assert d["loss"] >= 0 and d["loss_se"] >= 0
        assert d["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert 0 <= d["chance_loss"] <= 1 and d["chance_se"] >= 0 and isinstance(d["about_equal"], bool)
        assert d["mark"] == mark_for(d["chance_loss"])  # the mark follows from the JSON's own chance lost
        if d["about_equal"]:
            assert d["chance_loss"] == 0 and d["mark"] is None
        if d["forced"]:
            assert d["loss"] == 0 and d["mark"] is None
    boris = next(s for s in m["summary"] if s["player"] == "Boris")
    for g in boris["games"]:  # start + luck + skill + others = margin, to rounding
        if g["margin"] is not None:
            assert g["start"] + g["luck"] + g["skill"] + g["others"] == pytest.approx(g["margin"], abs=0.03)
            assert g["skill"] <= 0
    # the start is the evaluator's expected margin before the first move, for every player: they add up to 0
    starts = [g["start"] for s in m["summary"] for g in s["games"] if g["game"] == 1]
    assert len(starts) == 3 and abs(sum(starts)) <= 0.02 and any(x != 0 for x in starts)
    real = [d for d in m["decisions"] if not d["forced"]]
    assert boris["decisions"] == len(real)
    assert boris["mean_loss"] == pytest.approx(sum(d["loss"] for d in real) / len(real), abs=0.01)


# --------------------------------------------------------------------------- strong against random


def test_the_random_bot_loses_more_and_is_marked_more_often_than_the_strong_bot() -> None:
    rules = RuleSet.of()
    setup = seeded_setup(rules, 2, 2026, 0)
    played = play_game(rules, [bots.make_bot("strong"), bots.make_bot("random")], setup,
                       [SplitMix64(1), SplitMix64(2)])
    pairs = moves_with_states(rules, played)
    tasks = A.tasks_of_game(pairs, 1, 1, 0)
    decisions = list(A.analyze(tasks, A.Settings(samples=64, max_se=1.5)))
    strong, rand = A.summarise(decisions, 2)
    assert rand.mean_loss > 2 * strong.mean_loss + 0.5
    # marked more often: per decision, as the two decide a different number of times (strong here 55, random 28)
    assert sum(rand.marks.values()) / rand.decisions > sum(strong.marks.values()) / strong.decisions


# --------------------------------------------------------------------------- the command


def test_table_output_escapes_names_and_shows_the_summary(tmp_path: Path) -> None:
    text = THREE.read_text(encoding="utf-8").replace('"Aiko"', json.dumps("Ai\x1bko[bold]"))
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), "--samples", "16", "--max-se", "5"])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout
    assert "Ai\\x1bko[bold]" in result.stdout
    assert "per player" in result.stdout and "costliest decisions of" in result.stdout
    assert "greedy" in result.stdout


@pytest.mark.parametrize(
    "args",
    [["--game", "0"], ["--game", "9"], ["--match", "2"], ["--samples", "0"], ["--jobs", "0"],
     ["--player", "Nobody"], ["--format", "xml"]],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, ["analyze", str(THREE), *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_an_invalid_log_is_analysed_up_to_its_error_and_exits_1(tmp_path: Path) -> None:
    data = json.loads(THREE.read_text(encoding="utf-8"))
    moves = data["games"][0]["moves"]
    moves[12] = {**moves[12], "player": moves[11]["player"]} if moves[12]["player"] != moves[11]["player"] else moves[12]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["analyze", str(path), "--json", "--samples", "8", "--max-se", "9"])
    assert result.exit_code == 1
    out = json.loads(result.stdout)["matches"][0]
    assert not out["valid"] and out["decisions"]
    assert max(d["move"] for d in out["decisions"]) < 13


def test_progress_goes_to_a_terminal_only() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "coloretto_log", "analyze", str(THREE), "--player", "Aiko", "--samples", "8",
         "--max-se", "9", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0
    assert result.stderr == ""
    assert math.isfinite(json.loads(result.stdout)["matches"][0]["summary"][0]["mean_loss"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), edition=st.sampled_from(["classic", "anniversary"]),
       at=st.floats(0, 1))
def test_any_decision_of_a_random_game_gets_consistent_values(seed: int, players: int, edition: str, at: float) -> None:
    state = new_state(seed, players, edition)
    bot, rng = bots.make_bot("random"), SplitMix64(seed)
    pairs = []
    while not state.over:
        move = bots.turn(bot, state, rng)
        pairs.append((move, state))
        state = engine.apply(state, move)
    tasks = A.tasks_of_game(pairs, 1, 1, seed)
    t = tasks[int(at * (len(tasks) - 1))]
    ev = A.evaluate(t, A.Settings(samples=8, max_se=100.0))
    assert 0 <= ev.played < len(ev.choices) and 0 <= ev.best < len(ev.choices)
    if ev.forced:
        assert ev.loss == 0
    else:
        # the best by the chance of winning, the margin breaking ties within the noise (``marks.pick``): never
        # a best that the played choice beats on that chance; a best ahead of every choice whose chance it ties
        best = ev.choices[ev.best]
        assert ev.loss >= 0 and (ev.best == ev.played or best.chance >= ev.choices[ev.played].chance)
        assert all(c.margin <= best.margin or c.chance < best.chance for c in ev.choices if c.chance == best.chance)
        if ev.exact:
            assert ev.loss == pytest.approx(max(0.0, best.margin - ev.choices[ev.played].margin))
        else:  # cross-fitted, never beyond the widest gap; an honest standard error even when the played looks best
            # (0 only where the samples cannot vary it: the played choice and its strongest rival each worth the
            # same on every sample, as when both end the round and the evaluator alone values the position)
            rival = max((c for k, c in enumerate(ev.choices) if k != ev.played), key=lambda c: c.margin)
            assert ev.loss_se > 0 or len({c.margin for c in ev.choices}) == 1 or (
                ev.choices[ev.played].margin_se == 0 and rival.margin_se == 0)
        assert all(0 <= c.win_prob <= 1 and abs(sum(c.margins)) < 1e-6 for c in ev.choices)


def test_progress_counts_every_decision_and_the_time_left_runs_down_to_zero() -> None:
    tasks = A.tasks_of_game(greedy_game(3), 1, 1, 0)[-12:]
    seen: list[A.Progress] = []
    decisions = list(A.analyze(tasks, A.Settings(samples=16, max_se=5), progress=seen.append))
    assert len(decisions) == len(tasks) == len(seen)
    assert [p.done for p in seen] == list(range(1, len(tasks) + 1))
    assert all(p.total == len(tasks) and p.left is not None and p.left >= 0 for p in seen)
    assert seen[-1].left == 0


def test_match_and_game_pick_what_is_analysed() -> None:
    path = SAMPLES / "5p-seeded-games.jsonl"
    result = runner.invoke(app, ["analyze", str(path), "--match", "2", "--game", "1", "--player", "Emil",
                                 "--samples", "8", "--max-se", "9", "--json"])
    assert result.exit_code == 0, result.output
    (m,) = json.loads(result.stdout)["matches"]
    assert m["match"] == 2 and m["line"] == 2
    assert {d["game"] for d in m["decisions"]} == {1} and {d["player"] for d in m["decisions"]} == {"Emil"}


# --------------------------------------------------------------------------- streaming, explanations, summary


def test_a_jsonl_is_analysed_and_printed_a_match_at_a_time(tmp_path: Path) -> None:
    path = SAMPLES / "5p-seeded-games.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    result = runner.invoke(app, ["analyze", str(path), "--game", "1", "--player", "Emil", "--samples", "4",
                                 "--max-se", "9", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data)[:3] == ["policy", "horizon", "samples"] and list(data)[-1] == "matches"  # the settings come first
    assert [m["line"] for m in data["matches"]] == list(range(1, len(lines) + 1))
    # the library reads one match at a time: analyze_match takes a loaded match, not a list
    assert all(m["summary"] for m in data["matches"])


def test_jobs_are_capped_at_the_cores() -> None:
    with A.worker_pool(500) as pool:
        cores = A.usable_cores()
        if cores == 1:
            assert pool is None
        else:
            assert pool is not None and pool._processes == cores  # type: ignore[attr-defined]
    one = cli_json("--player", "Chloe", "--samples", "16", "--max-se", "3")
    many = cli_json("--player", "Chloe", "--samples", "16", "--max-se", "3", "--jobs", "500")
    assert one == many


def test_marked_decisions_say_why_and_explain_all_says_it_for_every_one() -> None:
    data = cli_json("--player", "Boris", "--samples", "200", "--max-se", "0.5")
    decisions = data["matches"][0]["decisions"]
    marked = [d for d in decisions if d["mark"]]
    assert marked
    for d in decisions:
        if d["forced"]:
            assert d["explanation"] is None
            continue
        assert [c["margin"] for c in d["choices"]] == sorted((c["margin"] for c in d["choices"]), reverse=True)
        assert sum(c["played"] for c in d["choices"]) == 1
        if d["mark"]:
            text = d["explanation"]
            assert "Boris" in text and d["best"].capitalize() in text  # the best choice, by name
            assert f"{d['loss']:.1f}" in text  # and what it cost
            played = d["played"]
            if played.startswith("take row"):
                assert f"took row {played.split()[-1]}" in text
            elif played.startswith("row"):
                assert f"in row {played.split()[-1]}" in text
        else:
            assert d["explanation"] is None
    every = cli_json("--player", "Boris", "--samples", "16", "--max-se", "3", "--explain", "all")
    assert all(d["explanation"] for d in every["matches"][0]["decisions"] if not d["forced"])


def test_the_summary_has_error_rate_accuracy_luck_and_skill_per_game_and_match() -> None:
    data = cli_json("--samples", "16", "--max-se", "3")
    for s in data["matches"][0]["summary"]:
        assert 0 <= s["error_rate"] <= 1 and 0 < s["accuracy"] <= 100
        (g,) = s["games"]
        assert g["game"] == 1 and g["luck"] == s["luck"] and g["skill"] == s["skill"]
        assert s["skill"] <= 0.5  # minus the losses (a cross-fitted loss may come out a little negative)
    assert abs(sum(s["margin"] for s in data["matches"][0]["summary"])) < 1e-6


def test_html_prints_only_a_short_summary_and_the_table_says_draw_or_take(tmp_path: Path) -> None:
    args = ["analyze", str(THREE), "--player", "Aiko", "--samples", "16", "--max-se", "5"]
    full = runner.invoke(app, args)
    assert full.exit_code == 0, full.output
    assert "draw or take" in full.stdout and "draw/take" not in full.stdout
    assert "win %: the chance of winning" in full.stdout
    short = runner.invoke(app, [*args, "--html", str(tmp_path / "a.html")])
    assert short.exit_code == 0, short.output
    assert "per player" in short.stdout and "accuracy" in short.stdout
    assert "loss ± se" not in short.stdout and "costliest" not in short.stdout
    assert len(short.stdout.splitlines()) < len(full.stdout.splitlines()) / 3


def test_best_choice_is_the_analysis_best_for_a_position() -> None:
    state = last_round_position()
    choice, ev = A.best_choice(state, A.Settings())
    assert ev.exact and A.choice_label(choice) == ev.choices[ev.best].choice
    seeded = A.best_choice(state._replace(deck=None), A.Settings())
    assert seeded[0] == choice
    # a row decision, from the state before the card or from a view that has it turned over already
    card = next(k for k, n in zip(KINDS, state.remaining) if n)
    before = A.best_choice(state, A.Settings(samples=64), card=card, seed=3)
    after = A.best_choice(bots.turned_over(state, card, False), A.Settings(samples=64), card=card, seed=3, turned=True)
    assert before[0] == after[0] and before[0][0] == "row"
    assert [c.margin for c in before[1].choices] == [c.margin for c in after[1].choices]


def test_analyze_csv_is_one_row_a_decision_as_the_json_says() -> None:
    """`--format csv`: a header, then one row per decision with the JSON's values (issue 20 item 7)."""
    import csv
    import io
    import json

    from typer.testing import CliRunner

    from coloretto_log.cli import app

    args = ["analyze", str(SAMPLES / "classic-2p-recorded-game.json"), "--samples", "4", "--max-se", "0",
            "--player", "Aiko"]
    runner = CliRunner()
    as_csv = runner.invoke(app, [*args, "--format", "csv"])
    as_json = runner.invoke(app, [*args, "--json"])
    assert as_csv.exit_code == 0 and as_json.exit_code == 0, as_csv.output
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    decisions = [d for m in json.loads(as_json.stdout)["matches"] for d in m["decisions"]]
    assert len(rows) == len(decisions) > 0
    for row, d in zip(rows, decisions):
        assert row["match"] == "1" and (int(row["game"]), int(row["move"])) == (d["game"], d["move"])
        assert (row["player"], row["played"], row["best"]) == (d["player"], d["played"], d["best"])
        assert float(row["loss"]) == d["loss"] and row["mark"] == (d["mark"] or "")
