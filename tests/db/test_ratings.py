"""Ratings (openskill): hand-checked updates, the rating order, stored and incremental ratings, bots, backtest, CLI."""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import math
import re
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from coloretto_log.bots.simulate import make_plan, match_log, play_match
from coloretto_log.cli import app
from coloretto_log.core.scoring import ranks as score_ranks
from coloretto_log.db.ratings import report as rating_report
from coloretto_log.db.ratings.model import (
    MODELS,
    PROVISIONAL_GAMES,
    Backtest,
    Calibration,
    Contest,
    Options,
    Rater,
    cautious,
    contests,
    displayed,
    make_model,
    paired,
    predict,
    uncertainty,
    win_chances,
)
from coloretto_log.db.ratings.stored import freshness, refresh, stored_history
from coloretto_log.db.store import MatchStore
from coloretto_log.log.load import load
from coloretto_log.log.writer import dumps_line

from ..builders.club import club_matches
from ..conftest import SAMPLES

runner = CliRunner()
BETA = 25 / 6
TAU = 25 / 300
KAPPA = 1e-4
START = (25.0, 25 / 3)


# --------------------------------------------------------------------------- helpers


def write_jsonl(path: Path, matches: Iterator[dict[str, Any]] | Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(dumps_line(m) + "\n" for m in matches), encoding="utf-8")
    return path


def ingest(db: Path, *paths: Path) -> None:
    with MatchStore.open(db) as store:
        store.ingest(load([str(p) for p in paths]))


def rating_rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """The stored rating tables, rows in a fixed order."""
    with MatchStore.open(db, read_only=True) as store:
        return {
            "players": store.execute("SELECT * FROM rating_players ORDER BY player").fetchall(),
            "history": store.execute("SELECT * FROM rating_history ORDER BY position, player").fetchall(),
            "meta": store.execute("SELECT * FROM rating_meta ORDER BY key").fetchall(),
            "matches": store.execute("SELECT * FROM rating_matches ORDER BY match_id").fetchall(),
        }


def pl_by_hand(players: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Weng & Lin (2011), Algorithm 4 (Plackett–Luce), one player per team, written out from the paper.

    sigma² grows by tau² first; c² = sum (sigma² + beta²); for each i, over
    the q ranked at or ahead of i: omega_i += (1[q = i] − p_iq)/A_q and
    delta_i += p_iq (1 − p_iq)/A_q with p_iq = e^(mu_i/c) / sum over s not
    ahead of q of e^(mu_s/c), A_q the players tied with q; then
    mu_i += sigma_i²/c · omega_i, sigma_i² *= max(1 − gamma_i sigma_i²/c² delta_i, kappa)
    with gamma_i = sigma_i/c. (openskill 6.2 also means to give tied players
    the average of their changes, but its code averages a change it has
    already applied, so nothing changes: neither here.)
    """
    s2 = [s * s + TAU * TAU for _, s in players]
    c = math.sqrt(sum(v + BETA * BETA for v in s2))
    e = [math.exp(mu / c) for mu, _ in players]
    n = len(players)
    sum_q = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                omega += ((1.0 if q == i else 0.0) - p) / a[q]
                delta += p * (1 - p) / a[q]
        gamma = math.sqrt(s2[i]) / c
        mu = players[i][0] + s2[i] / c * omega
        sigma = math.sqrt(s2[i] * max(1 - gamma * s2[i] / c**2 * delta, KAPPA))
        out.append((mu, sigma))
    return out


def rate_one(players: Sequence[tuple[float, float]], scores: Sequence[int]) -> list[tuple[float, float]]:
    """The library's update of one game with these (mu, sigma) and scores, by seat."""
    rater = Rater("plackett-luce")
    names = tuple(f"p{i}" for i in range(len(players)))
    for name, (mu, sigma) in zip(names, players):
        rater.set_state(name, mu, sigma, 0, 0, None)
    rater.rate(Contest(None, "m", 1, names, tuple(scores)))
    return [(rater.players[n].rating.mu, rater.players[n].rating.sigma) for n in names]


def close(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]], tol: float = 1e-9) -> bool:
    return all(abs(x[0] - y[0]) <= tol and abs(x[1] - y[1]) <= tol for x, y in zip(a, b, strict=True))


# --------------------------------------------------------------------------- hand-checked updates


def test_two_newcomers_one_game_by_hand() -> None:
    s2 = (25 / 3) ** 2 + TAU**2
    c = math.sqrt(2 * s2 + 2 * BETA**2)
    # equal means: each is first with chance 1/2
    winner_mu = 25 + s2 / c * 0.5
    loser_mu = 25 - s2 / c * 0.5
    sigma = math.sqrt(s2 * (1 - math.sqrt(s2) / c * s2 / c**2 * 0.25))
    got = rate_one([START, START], [40, 31])
    assert close(got, [(winner_mu, sigma), (loser_mu, sigma)])
    assert close(got, pl_by_hand([START, START], [1, 2]))


def test_a_draw_pulls_the_means_together_and_shrinks_both_uncertainties() -> None:
    players = [(30.0, 4.0), (22.0, 6.0)]
    got = rate_one(players, [35, 35])
    assert close(got, pl_by_hand(players, [1, 1]))
    # by hand: p = 1/(1 + e^(-8/c)) for the favourite, omega = ±(1 - 2p)/2, mean change sigma²/c · omega
    s2 = [16 + TAU**2, 36 + TAU**2]
    c = math.sqrt(sum(s2) + 2 * BETA**2)
    p = 1 / (1 + math.exp(-8 / c))
    assert got[0][0] == pytest.approx(30 + s2[0] / c * (1 - 2 * p) / 2)
    assert got[1][0] == pytest.approx(22 - s2[1] / c * (1 - 2 * p) / 2)
    assert got[0][0] < 30 and got[1][0] > 22
    assert all(new < math.sqrt(old * old + TAU * TAU) for (_, new), (_, old) in zip(got, players))
    # equal players: nothing moves but the uncertainty
    same = rate_one([START, START], [20, 20])
    assert [mu for mu, _ in same] == pytest.approx([25.0, 25.0], abs=1e-12)


def test_a_three_way_tie_and_a_shared_first_place() -> None:
    players = [(28.0, 5.0), (25.0, 25 / 3), (20.0, 3.0)]
    got = rate_one(players, [30, 30, 30])
    assert close(got, pl_by_hand(players, [1, 1, 1]))
    # a three-way tie: omega_i = (1 - 3 p_i)/3, the favourite loses, the underdog gains
    assert got[0][0] < 28.0 and got[2][0] > 20.0
    # two share first place, one is last: both gain on the last one
    got = rate_one(players, [39, 39, 35])
    assert close(got, pl_by_hand(players, [1, 1, 3]))
    assert got[2][0] < 20.0 and got[1][0] > 25.0


def test_tied_scores_share_a_rank_as_score_ranks_them() -> None:
    c = Contest(None, "m", 1, ("a", "b", "c", "d"), (39, 35, 39, 12))
    assert c.ranks == score_ranks(c.scores) == (1, 3, 1, 4)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 50), st.floats(0.5, 9), st.integers(0, 6)), min_size=2, max_size=5
    )
)
def test_every_update_matches_the_paper_and_ignores_seat_order(rows: list[tuple[float, float, int]]) -> None:
    players = [(mu, sigma) for mu, sigma, _ in rows]
    scores = [s for _, _, s in rows]
    got = rate_one(players, scores)
    assert close(got, pl_by_hand(players, score_ranks(scores)), tol=1e-7)
    flipped = rate_one(players[::-1], scores[::-1])[::-1]
    assert close(got, flipped, tol=1e-9)


def test_the_displayed_rating_is_the_skill_and_the_cautious_one_is_openskills_ordinal_shifted() -> None:
    r = PlackettLuce().rating(mu=31.5, sigma=2.25)
    assert displayed(r.mu) == pytest.approx(1000 + 40 * 6.5)
    assert displayed(START[0]) == pytest.approx(1000)
    # the cautious rating is openskill's ordinal(z=3) on the same scale as the rating: 1000 below it
    assert cautious(r.mu, r.sigma) == pytest.approx(r.ordinal(z=3, alpha=40, target=1000) - 1000)
    assert cautious(*START) == pytest.approx(0)
    assert uncertainty(2.0) == pytest.approx(160)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 50), st.floats(0.5, 9)), min_size=2, max_size=5))
def test_the_higher_rating_is_always_the_favourite(ratings: list[tuple[float, float]]) -> None:
    """The number people read and the chances agree: ordering by rating orders the chances."""
    model = PlackettLuce()
    table = [(f"p{i}", model.rating(mu=mu, sigma=s), True) for i, (mu, s) in enumerate(ratings)]
    for a, b in itertools.combinations(predict(model, table), 2):
        if a.rating > b.rating + 1e-9:
            assert a.win > b.win
        if a.rating > b.rating + 1e-9:
            assert a.expected_rank < b.expected_rank


def test_a_newcomer_is_not_the_favourite_against_a_strong_regular() -> None:
    """The issue's case: Zed (no game) against Aiko (many games, well above the start): Aiko is favoured
    and shows the higher rating; under the old cautious number a below-average regular looked stronger."""
    rater = Rater()
    rater.set_state("Aiko", 31.0, 1.8, 120, 60, None)
    rater.set_state("Weak", 12.0, 1.8, 120, 5, None)
    model = rater.model
    [aiko, zed] = predict(model, [("Aiko", rater.state("Aiko").rating, True), ("Zed", rater.state("Zed").rating, False)])
    assert aiko.rating > zed.rating and aiko.win > zed.win
    [weak, zed] = predict(model, [("Weak", rater.state("Weak").rating, True), ("Zed", rater.state("Zed").rating, False)])
    assert cautious(weak.mu, weak.sigma) > cautious(zed.mu, zed.sigma)  # the cautious number favours the regular
    assert zed.rating > weak.rating and zed.win > weak.win  # the rating and the chance agree


# --------------------------------------------------------------------------- predictions


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-10, 60), st.floats(0.5, 9)), min_size=2, max_size=5), st.sampled_from(sorted(MODELS)))
def test_predictions_sum_to_one_and_expected_ranks_to_the_rank_total(ratings: list[tuple[float, float]], name: str) -> None:
    model = make_model(name)
    table = [(f"p{i}", model.rating(mu=mu, sigma=s), True) for i, (mu, s) in enumerate(ratings)]
    got = predict(model, table)
    n = len(table)
    assert sum(p.win for p in got) == pytest.approx(1.0)
    assert sum(p.expected_rank for p in got) == pytest.approx(n * (n + 1) / 2)
    assert all(1 <= p.expected_rank <= n for p in got)
    # a higher mean never gets a lower chance
    by_mu = sorted(got, key=lambda p: p.mu)
    assert all(a.win <= b.win + 1e-12 for a, b in itertools.pairwise(by_mu))


def test_the_winning_chance_is_plackett_luces_first_place() -> None:
    model = make_model("plackett-luce")
    rs = [model.rating(mu=30, sigma=2), model.rating(mu=25, sigma=5), model.rating(mu=20, sigma=3)]
    c = math.sqrt(sum(r.sigma**2 + BETA**2 for r in rs))
    e = [math.exp(r.mu / c) for r in rs]
    assert win_chances(model, rs) == pytest.approx([x / sum(e) for x in e])


# --------------------------------------------------------------------------- the order of games


def _match(i: int, date: str | None, seed: int = 7) -> dict[str, Any]:
    plan = make_plan(players=3, bots=["greedy", "random", "greedy"], games=2, seed=seed)
    log = match_log(plan, play_match(plan, i))
    log["id"] = f"m{i:03d}"
    if date is not None:
        log["date"] = date
    return log


@pytest.fixture(scope="module")
def small_logs(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return [_match(i, f"2026-0{1 + i // 10}-{1 + i % 10:02d}" if i % 7 else None) for i in range(40)]


def _table(db: Path, options: Options | None = None) -> list[Any]:
    with MatchStore.open(db, read_only=True) as store:
        return rating_report.ratings_table(store, options or Options()).rows


def test_the_same_games_give_the_same_ratings_whatever_the_ingest_order(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    ingest(a, write_jsonl(tmp_path / "a.jsonl", small_logs))
    ingest(b, write_jsonl(tmp_path / "b1.jsonl", small_logs[::-2]), write_jsonl(tmp_path / "b2.jsonl", small_logs[::2]))
    for db in (a, b):
        with MatchStore.open(db) as store:
            refresh(store)
    assert rating_rows(a) == rating_rows(b)
    assert _table(a) == _table(b)


def test_games_are_rated_by_date_then_match_id_then_game(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    db = tmp_path / "x.duckdb"
    ingest(db, write_jsonl(tmp_path / "x.jsonl", small_logs))
    with MatchStore.open(db, read_only=True) as store:
        seen = [(c.date, c.match_id, c.game) for c in contests(store.con, Options())]
    undated = [k for k in seen if k[0] is None]
    dated = [k for k in seen if k[0] is not None]
    assert seen == undated + dated  # undated matches first
    assert undated == sorted(undated, key=lambda k: (k[1], k[2]))
    assert dated == sorted(dated)


def test_a_later_game_changes_the_ratings_and_so_does_the_order(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    first = tmp_path / "first.duckdb"
    ingest(first, write_jsonl(tmp_path / "f.jsonl", small_logs[:30]))
    more = tmp_path / "more.duckdb"
    ingest(more, write_jsonl(tmp_path / "m.jsonl", small_logs[:31]))
    assert _table(first) != _table(more)
    # the same games with two dates swapped: other numbers
    swapped = [dict(m) for m in small_logs[:30]]
    swapped[1]["date"], swapped[2]["date"] = swapped[2]["date"], swapped[1]["date"]
    other = tmp_path / "swapped.duckdb"
    ingest(other, write_jsonl(tmp_path / "s.jsonl", swapped))
    ta, tb = _table(first), _table(other)
    assert {r.player: r.games for r in ta} == {r.player: r.games for r in tb}
    assert [(r.player, r.mu) for r in ta] != [(r.player, r.mu) for r in tb]


# --------------------------------------------------------------------------- stored ratings


def test_new_games_after_the_rated_ones_update_them_and_equal_a_recompute(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    dated = sorted((m for m in small_logs if "date" in m), key=lambda m: (m["date"], m["id"]))
    inc, full = tmp_path / "inc.duckdb", tmp_path / "full.duckdb"
    ingest(inc, write_jsonl(tmp_path / "1.jsonl", dated[:20]))
    with MatchStore.open(inc) as store:
        assert refresh(store).action == "recomputed"
    ingest(inc, write_jsonl(tmp_path / "2.jsonl", dated[20:]))
    with MatchStore.open(inc, read_only=True) as store:
        assert freshness(store).state == "behind"
    with MatchStore.open(inc) as store:
        done = refresh(store)
        assert (done.action, done.games) == ("updated", 2 * (len(dated) - 20))
        assert refresh(store).action == "unchanged"
    ingest(full, write_jsonl(tmp_path / "all.jsonl", dated))
    with MatchStore.open(full) as store:
        refresh(store)
    assert rating_rows(inc) == rating_rows(full)


def test_an_older_match_recomputes_and_a_stale_store_is_not_used(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    dated = sorted((m for m in small_logs if "date" in m), key=lambda m: (m["date"], m["id"]))
    db, full = tmp_path / "db.duckdb", tmp_path / "full.duckdb"
    ingest(db, write_jsonl(tmp_path / "late.jsonl", dated[5:]))
    with MatchStore.open(db) as store:
        refresh(store)
    ingest(db, write_jsonl(tmp_path / "early.jsonl", dated[:5]))
    with MatchStore.open(db, read_only=True) as store:
        assert freshness(store).state == "outdated"
        computed = rating_report.ratings_table(store, Options())
    assert computed.source.kind == "computed" and "older" in computed.source.note
    with MatchStore.open(db) as store:
        assert refresh(store).action == "recomputed"
    with MatchStore.open(db, read_only=True) as store:
        stored = rating_report.ratings_table(store, Options())
    assert stored.source.kind == "stored"
    assert stored.rows == computed.rows
    ingest(full, write_jsonl(tmp_path / "all.jsonl", dated))
    with MatchStore.open(full) as store:
        refresh(store)
    assert rating_rows(db) == rating_rows(full)


def test_a_replaced_match_recomputes(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    db = tmp_path / "db.duckdb"
    src = write_jsonl(tmp_path / "a.jsonl", small_logs[:10])
    ingest(db, src)
    with MatchStore.open(db) as store:
        refresh(store)
    changed = [dict(m) for m in small_logs[:10]]
    changed[3] = _match(3, changed[3].get("date"), seed=99) | {"id": changed[3]["id"]}
    with MatchStore.open(db) as store:
        store.ingest(load([str(write_jsonl(tmp_path / "b.jsonl", changed))]), replace=True)
        assert freshness(store).state == "outdated"
        assert refresh(store).action == "recomputed"


def test_stored_and_computed_figures_agree(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    db = tmp_path / "db.duckdb"
    ingest(db, write_jsonl(tmp_path / "a.jsonl", small_logs))
    with MatchStore.open(db, read_only=True) as store:
        computed = rating_report.ratings_table(store, Options(days=10))
        player = computed.rows[0].player
        _, computed_history = rating_report.rating_history(store, Options(), player)
    with MatchStore.open(db) as store:
        refresh(store)
    with MatchStore.open(db, read_only=True) as store:
        stored = rating_report.ratings_table(store, Options(days=10))
        assert stored.source.kind == "stored"
        assert stored_history(store, [player]) == computed_history
    assert stored.rows == computed.rows
    assert stored.games == computed.games and stored.last_date == computed.last_date
    assert any(r.change not in (None, 0) for r in stored.rows)


# --------------------------------------------------------------------------- bots and backtest


@pytest.fixture(scope="module")
def bots_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 simulated matches of 4 games between strong, greedy, random and greedy (simulate's players)."""
    folder = tmp_path_factory.mktemp("bots")
    plan = make_plan(players=4, bots=["strong", "greedy", "random", "greedy"], games=4, seed=0)
    src = write_jsonl(folder / "bots.jsonl", [match_log(plan, play_match(plan, i)) for i in range(40)])
    db = folder / "bots.duckdb"
    ingest(db, src)
    return db


def test_the_ratings_order_the_bots_strong_greedy_random(bots_db: Path) -> None:
    for per in ("game", "match"):
        rows = _table(bots_db, Options(per=per))
        order = [r.player for r in rows]
        assert order[0] == "strong-1"
        assert set(order[1:3]) == {"greedy-2", "greedy-4"}
        assert order[3] == "random-3"


#: The club's seed; the log-loss assertions below hold for seeds 0 to 4 (checked when this was written).
CLUB_SEED = 0


@pytest.fixture(scope="module")
def club_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club of ten (five greedy, five random players) at changing tables of 2 to 5: 600 games."""
    folder = tmp_path_factory.mktemp("club")
    roster = {f"greedy-{i}": "greedy" for i in range(5)} | {f"random-{i}": "random" for i in range(5)}
    src = write_jsonl(folder / "club.jsonl", club_matches(600, roster=roster, seed=CLUB_SEED))
    db = folder / "club.duckdb"
    ingest(db, src)
    return db


def test_the_backtest_beats_both_baselines_on_a_simulated_club(club_db: Path) -> None:
    with MatchStore.open(club_db, read_only=True) as store:
        test = rating_report.backtest(store, Options())
    data = test.as_json()
    print(json.dumps(data, indent=1))  # the figures, with -s
    figures = {p["predictor"]: p for p in data["predictors"]}
    assert data["games"] == 600
    for base in ("equal", "win_rate"):
        assert figures["ratings"]["log_loss"] < figures[base]["log_loss"]
    # top-1 accuracy beats the equal baseline; against past win rates it is a toss-up on clubs this
    # small (docs/ratings.md gives the figures), so it is printed above, not asserted
    assert figures["ratings"]["top1_accuracy"] > figures["equal"]["top1_accuracy"]
    # the equal baseline's log-loss is the mean of ln(players) (no shared win changes it)
    with MatchStore.open(club_db, read_only=True) as store:
        expected = sum(math.log(len(c.players)) for c in contests(store.con, Options())) / 600
    assert figures["equal"]["log_loss"] == pytest.approx(expected)
    # the greedy players come first
    rows = _table(club_db)
    assert {r.player for r in rows[:5]} == {f"greedy-{i}" for i in range(5)}


def test_backtest_scores_by_hand() -> None:
    test = Backtest()
    rater = Rater()
    first = Contest(None, "m", 1, ("a", "b"), (30, 20))
    test.add(rater, first)
    rater.rate(first)
    second = Contest(None, "m", 2, ("a", "b", "c"), (10, 25, 25))  # b and c share the win
    test.add(rater, second)
    by = {s.name: s for s in test.scores}
    assert by["equal"].log_loss == pytest.approx((math.log(2) + math.log(3)) / 2)
    assert by["equal"].top1 == pytest.approx((0.5 + 2 / 3) / 2)
    # past win rate: a 2/3, b 1/3, c 1/2 (one win and one loss added) -> b and c have 1/3 / (3/2) and 1/2 / (3/2)
    wr = [2 / 3 / 1.5, 1 / 3 / 1.5, 0.5 / 1.5]
    assert by["win_rate"].log_loss == pytest.approx((math.log(2) - (math.log(wr[1]) + math.log(wr[2])) / 2) / 2)
    assert by["win_rate"].top1 == pytest.approx((0.5 + 0.0) / 2)
    # calibration: 5 predictions; the first game's two 1/2 chances in the 50-60% tenth (a won),
    # the second game's b and c each won half of a shared first place
    cal = test.calibration
    assert cal.total == 5
    fifty = next(b for b in cal.bins() if b["from"] == 0.5)
    assert fifty["predictions"] == 2 and fifty["won"] == pytest.approx(0.5)
    assert sum(b["won"] * b["predictions"] for b in cal.bins()) == pytest.approx(2.0)  # one win a game


def test_calibration_by_hand() -> None:
    cal = Calibration()
    cal.add([0.72, 0.28], [0])
    cal.add([0.75, 0.25], [1])
    cal.add([0.05, 0.05, 0.9], [2])
    bins = {b["from"]: b for b in cal.bins()}
    assert set(bins) == {0.0, 0.2, 0.7, 0.9}
    assert bins[0.7]["predictions"] == 2 and bins[0.7]["predicted"] == pytest.approx(0.735)
    assert bins[0.7]["won"] == pytest.approx(0.5) and bins[0.7]["gap"] == pytest.approx(-0.235)
    assert bins[0.2]["won"] == pytest.approx(0.5)
    assert bins[0.0]["won"] == 0 and bins[0.9]["won"] == 1
    # ECE: weighted mean of |gap|: (2 * 0.235 + 2 * |0.5 - 0.265| + 2 * 0.05 + 1 * 0.1) / 7
    assert cal.error() == pytest.approx((2 * 0.235 + 2 * 0.235 + 2 * 0.05 + 0.1) / 7)
    assert cal.worst(at_least=2) == pytest.approx(0.235) and cal.worst(at_least=3) is None


def test_the_noise_of_the_calibration_by_hand() -> None:
    """60 two-player games at 75% / 25%: the favourite wins 39 (65%), so the 70-80% tenth misses by
    10 points and the 20-30% tenth (21 of 60 won, 35%) by 10 points the other way.

    Were the chances right, a tenth's share won has the standard error sqrt(sum p (1 - p)) / n =
    sqrt(60 x 0.1875) / 60 = 0.0559; 10 points are z = 0.10 / 0.0559 = sqrt(3.2) = 1.789 of them, missed
    either way with chance 2 (1 - Phi(1.789)) = 0.0736 (normal table); some of the two tenths misses by as
    much with chance 1 - (1 - 0.0736)^2 = 0.1419: within the noise. The 5-point target: z = 0.894,
    2 (1 - Phi(0.894)) = 0.3711, 1 - 0.6289^2 = 0.6045. Ten times the games with the same shares: z = 5.66,
    beyond the noise."""
    def club(games: int) -> Calibration:
        cal = Calibration()
        for g in range(games):
            cal.add([0.75, 0.25], [0] if g % 20 < 13 else [1])
        return cal

    cal = club(60)
    bins = {b["from"]: b for b in cal.bins()}
    assert bins[0.7]["gap"] == pytest.approx(-0.10) and bins[0.2]["gap"] == pytest.approx(0.10)
    assert bins[0.7]["se"] == pytest.approx(0.0559, abs=1e-4) == bins[0.2]["se"]
    assert cal.by_chance(0.10) == pytest.approx(0.1419, abs=5e-4)
    assert cal.by_chance(0.05) == pytest.approx(0.6045, abs=5e-4)
    data = cal.as_json()
    assert data["worst_gap"] == pytest.approx(0.10) and data["worst_gap_by_chance"] == pytest.approx(0.1419, abs=5e-4)
    assert data["verdict"] == "within the noise" and data["target_missed_by_chance"] == pytest.approx(0.6045, abs=5e-4)
    big = club(600)
    assert big.worst() == pytest.approx(0.10) and big.by_chance(0.10) < 1e-6
    assert big.verdict() == "beyond the noise"
    small = Calibration()
    small.add([0.75, 0.25], [0])
    assert small.verdict() == "too few predictions" and small.by_chance(0.1) is None
    right = club(20)  # 13 of 20 is 65%, but with 20 per tenth no tenth counts
    assert right.verdict() == "too few predictions"
    near = Calibration()
    for g in range(100):
        near.add([0.75, 0.25], [0] if g % 25 < 18 else [1])  # 72%: 3 points
    assert near.verdict() == "within the target"


def test_a_difference_within_its_noise_is_the_same() -> None:
    """The issue's case: 67.307% against 67.293% top-1 is not "higher"."""
    # 100,000 games; the favourites differ in 3,000: ours won 1,507 of them, theirs 1,493
    same = [1.0] * 65800 + [0.0] * 31200
    ours = same + [1.0] * 1507 + [0.0] * 1493
    theirs = same + [0.0] * 1507 + [1.0] * 1493
    assert sum(ours) / len(ours) == pytest.approx(0.67307) and sum(theirs) / len(theirs) == pytest.approx(0.67293)
    assert paired(ours, theirs).verdict == "the same"
    assert paired([0.2, 0.3, 0.25, 0.2], [0.9, 1.0, 0.95, 1.1]).verdict == "lower"
    assert paired([0.9, 1.0, 0.95, 1.1], [0.2, 0.3, 0.25, 0.2]).verdict == "higher"
    d = paired([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    assert d.mean == pytest.approx(2.0) and d.se == pytest.approx(math.sqrt(1.0 / 3))


# --------------------------------------------------------------------------- the command


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("samples") / "samples.duckdb"
    ingest(db, SAMPLES)
    return db


def run(*args: str) -> Any:
    return runner.invoke(app, ["ratings", *args])


def test_ratings_on_the_samples_table_json_csv(samples_db: Path) -> None:
    r = run("--db", str(samples_db))
    assert r.exit_code == 0, r.output
    assert "Ratings of" in r.stdout and "Aiko" in r.stdout
    assert "no ratings are stored" in r.stderr
    data = json.loads(run("--db", str(samples_db), "--json").stdout)
    assert data["source"] == "computed"
    with MatchStore.open(samples_db, read_only=True) as store:
        games = store.scalar("SELECT count(*) FROM games WHERE complete")
    assert data["contests"] == games
    assert [p["rank"] for p in data["players"]] == list(range(1, len(data["players"]) + 1))
    established = [p for p in data["players"] if not p["provisional"]]
    provisional = [p for p in data["players"] if p["provisional"]]
    assert data["players"] == established + provisional  # the provisional ones come last
    for group in (established, provisional):
        ratings = [p["rating"] for p in group]
        assert ratings == sorted(ratings, reverse=True)
    for p in data["players"]:
        assert p["rating"] == pytest.approx(displayed(p["mu"]))
        assert p["cautious"] == pytest.approx(cautious(p["mu"], p["sigma"]))
        assert p["uncertainty"] == pytest.approx(uncertainty(p["sigma"]))
        assert p["provisional"] == (p["games"] < PROVISIONAL_GAMES)
    lines = run("--db", str(samples_db), "--format", "csv").stdout.splitlines()
    assert lines[0].split(",")[:3] == ["rank", "player", "rating"] and len(lines) == len(data["players"]) + 1
    per_match = json.loads(run("--db", str(samples_db), "--per", "match", "--json").stdout)
    with MatchStore.open(samples_db, read_only=True) as store:
        assert per_match["contests"] == store.scalar("SELECT count(*) FROM matches WHERE complete")
    four = json.loads(run("--db", str(samples_db), "--players", "4", "--model", "thurstone-mosteller-full", "--json").stdout)
    assert four["options"]["players"] == 4 and four["contests"] < data["contests"]
    new = json.loads(run("--db", str(samples_db), "--player-count", "4", "--model", "thurstone-mosteller-full",
                         "--json").stdout)
    assert new == four  # --players N is the old spelling of --player-count N
    assert run("--db", str(samples_db), "--players", "Aiko").exit_code == 2


def test_history_predict_backtest_on_the_samples(samples_db: Path) -> None:
    h = json.loads(run("--db", str(samples_db), "--history", "Aiko", "--json").stdout)
    table = json.loads(run("--db", str(samples_db), "--json").stdout)
    aiko = next(p for p in table["players"] if p["player"] == "Aiko")
    assert len(h["history"]) == aiko["games"]
    assert h["history"][-1]["rating"] == pytest.approx(aiko["rating"])
    r = run("--db", str(samples_db), "--predict", "Aiko, Boris,Chloe,Newcomer", "--json")
    assert r.exit_code == 0, r.output
    chances = json.loads(r.stdout)["table"]
    assert sum(p["win_probability"] for p in chances) == pytest.approx(1.0)
    assert [p["known"] for p in chances] == [True, True, True, False]
    text = run("--db", str(samples_db), "--predict", "Aiko,Boris").stdout
    assert "expected rank" in text and "%" in text
    b = run("--db", str(samples_db), "--backtest")
    assert b.exit_code == 0 and "everyone equal" in b.stdout and "past win rate" in b.stdout
    assert "Calibration" in b.stdout and "Expected calibration error" in b.stdout
    bj = json.loads(run("--db", str(samples_db), "--backtest", "--json").stdout)
    assert sum(b["predictions"] for b in bj["calibration"]["bins"]) == sum(
        len(c.players) for c in _contests(samples_db))
    assert {c["baseline"] for c in bj["comparisons"]} == {"equal", "win_rate"}
    cal = bj["calibration"]
    if cal["worst_gap"] is None:
        assert cal["verdict"] == "too few predictions" and "no tenth holds 50 predictions yet" in b.stdout
    else:
        assert f"{100 * cal['worst_gap']:.1f} points, {cal['verdict']}" in " ".join(b.stdout.split())


def _contests(db: Path) -> list[Contest]:
    with MatchStore.open(db, read_only=True) as store:
        return list(contests(store.con, Options()))


def test_history_fits_80_columns_one_line_a_contest(tmp_path: Path) -> None:
    """Issue 30: piped at 80 columns each contest keeps one line (before, a long id folded every row onto two):
    a long match id is cut with "…" (and without the date it starts with); csv and JSON keep it whole."""
    log = json.loads((SAMPLES / "classic-3p-seeded-match.json").read_text(encoding="utf-8"))
    log["id"] = "2026-11-29-kitchen-table-evening-with-the-neighbours"
    src = tmp_path / "long.json"
    src.write_text(json.dumps(log), encoding="utf-8")
    db = tmp_path / "long.duckdb"
    ingest(db, src)
    player = log["players"][0]
    r = runner.invoke(app, ["ratings", "--db", str(db), "--history", player], env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.output
    table = r.stdout.split("#: ")[0].splitlines()
    assert len(table) > 3 and max(len(line) for line in r.stdout.splitlines()) <= 80
    header = next(line for line in table if " match " in line)
    rows = [line.split() for line in table[table.index(header) + 2:] if line.strip() and line.split()[0].isdigit()]
    assert [int(row[0]) for row in rows] == list(range(1, len(rows) + 1))  # one line each, counted from 1
    shown = {row[2] for row in rows}
    assert len(shown) == 1
    cut = shown.pop()
    assert cut.endswith("…") and log["id"].removeprefix(f"{log.get('date')}-").startswith(cut[:-1]), cut
    assert all(re.fullmatch(r"[+-]\d+|–", row[-1]) for row in rows)  # the Δ column whole
    data = json.loads(runner.invoke(app, ["ratings", "--db", str(db), "--history", player, "--json"]).stdout)
    assert data["history"][0]["match_id"] == log["id"]  # JSON unchanged: the whole id


def test_usage_errors_and_missing_database(samples_db: Path, tmp_path: Path) -> None:
    assert run("--db", str(samples_db), "--history", "Nobody").exit_code == 2
    assert run("--db", str(samples_db), "--predict", "Aiko").exit_code == 2
    assert run("--db", str(samples_db), "--predict", "Aiko,Aiko").exit_code == 2
    assert run("--db", str(samples_db), "--backtest", "--history", "Aiko").exit_code == 2
    assert run("--db", str(samples_db), "--model", "elo").exit_code == 2
    r = run("--db", str(tmp_path / "none.duckdb"))
    assert r.exit_code == 3 and "no such database" in r.stderr
    assert "Traceback" not in r.output


def test_png_is_written_atomically_and_never_over_a_file_without_force(samples_db: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "r.png"
    r = run("--db", str(samples_db), "--png", str(png), "--top", "3")
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    png.write_bytes(b"keep")
    r = run("--db", str(samples_db), "--png", str(png))
    assert r.exit_code == 2 and "--force" in r.stderr and png.read_bytes() == b"keep"
    assert run("--db", str(samples_db), "--png", str(png), "--force").exit_code == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert [p.name for p in tmp_path.iterdir()] == ["r.png"]


def test_the_database_is_only_read(samples_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.duckdb"
    shutil.copy(samples_db, db)
    before = db.read_bytes()
    assert run("--db", str(db)).exit_code == 0
    assert db.read_bytes() == before
    with duckdb.connect(str(db), read_only=True) as con:
        assert not [t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall() if t.startswith("rating")]


def test_player_names_are_escaped_for_people_and_exact_for_programs(tmp_path: Path) -> None:
    log = json.loads((SAMPLES / "classic-3p-seeded-match.json").read_text(encoding="utf-8"))
    odd = {"Aiko": "[bold red]Aiko[/]", "Boris": "Bo\x1b[2Jris", "Chloe": "Chl\noe"}
    text = json.dumps(log)
    for old, new in odd.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    src = tmp_path / "odd.json"
    src.write_text(text, encoding="utf-8")
    db = tmp_path / "odd.duckdb"
    ingest(db, src)
    with MatchStore.open(db, read_only=True) as store:
        names = {r[0] for r in store.execute("SELECT DISTINCT player FROM game_players").fetchall()}
    assert names == set(odd.values()), "the sample's names were not all replaced"
    out = run("--db", str(db)).stdout
    assert "[bold red]Aiko[/]" in out and "Bo\\x1b[2Jris" in out and "Chl\\noe" in out
    assert "\x1b" not in out
    data = json.loads(run("--db", str(db), "--json").stdout)
    assert {p["player"] for p in data["players"]} == set(odd.values())
    hist = run("--db", str(db), "--history", "Bo\x1b[2Jris")
    assert hist.exit_code == 0 and "Bo\\x1b[2Jris" in hist.stdout and "\x1b" not in hist.stdout
    pred = run("--db", str(db), "--predict", "[bold red]Aiko[/],Chl\noe")
    assert "[bold red]Aiko[/]" in pred.stdout and "Chl\\noe" in pred.stdout


def test_filters_select_the_rated_matches(samples_db: Path) -> None:
    with MatchStore.open(samples_db, read_only=True) as store:
        everything = list(contests(store.con, Options()))
        since = list(contests(store.con, Options(since=_dt.date(2026, 1, 1))))
        classic = list(contests(store.con, Options(edition="classic")))
        editions = dict(store.execute("SELECT match_id, edition FROM matches").fetchall())
    assert since == [c for c in everything if c.date is not None]
    assert classic == [c for c in everything if editions[c.match_id] == "classic"]


def test_ingest_keeps_the_stored_ratings_up_to_date(small_logs: list[dict[str, Any]], tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    dated = sorted((m for m in small_logs if "date" in m), key=lambda m: (m["date"], m["id"]))
    first = runner.invoke(app, ["ingest", str(write_jsonl(tmp_path / "a.jsonl", dated[:10])), "--db", str(db)])
    assert first.exit_code == 0, first.output
    with MatchStore.open(db, read_only=True) as store:
        assert freshness(store).state == "fresh"
    runner.invoke(app, ["ingest", str(write_jsonl(tmp_path / "b.jsonl", dated[10:])), "--db", str(db)])
    with MatchStore.open(db, read_only=True) as store:
        assert freshness(store).state == "fresh"
        assert rating_report.ratings_table(store, Options()).source.kind == "stored"


def test_ingest_with_nothing_new_recomputes_ratings_stored_by_another_method(
    small_logs: list[dict[str, Any]], tmp_path: Path
) -> None:
    """After an upgrade changes how ratings are computed, the next ingest brings them up to date
    even when it stores no new match."""
    db = tmp_path / "club.duckdb"
    src = write_jsonl(tmp_path / "a.jsonl", small_logs[:10])
    assert runner.invoke(app, ["ingest", str(src), "--db", str(db)]).exit_code == 0
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE rating_meta SET value = 'old' WHERE key = 'method'")
    with MatchStore.open(db, read_only=True) as store:
        assert freshness(store).state == "outdated"
    again = runner.invoke(app, ["ingest", str(src), "--db", str(db)])
    assert again.exit_code == 0 and "skipped 10 already stored" in again.output
    with MatchStore.open(db, read_only=True) as store:
        assert freshness(store).state == "fresh"


def test_a_failed_refresh_leaves_the_stored_ratings_as_they_were(
    small_logs: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from coloretto_log.db.ratings import stored as rating_store

    dated = sorted((m for m in small_logs if "date" in m), key=lambda m: (m["date"], m["id"]))
    db = tmp_path / "db.duckdb"
    ingest(db, write_jsonl(tmp_path / "a.jsonl", dated[:10]))
    with MatchStore.open(db) as store:
        refresh(store)
    before = rating_rows(db)
    ingest(db, write_jsonl(tmp_path / "b.jsonl", dated[10:]))

    def boom(con: Any, name: str, table: Any) -> None:
        if name == "rating_players":
            raise KeyboardInterrupt
        original(con, name, table)

    original = rating_store._insert
    monkeypatch.setattr(rating_store, "_insert", boom)
    with MatchStore.open(db) as store, pytest.raises(KeyboardInterrupt):
        refresh(store)
    assert rating_rows(db) == before
    monkeypatch.setattr(rating_store, "_insert", original)
    with MatchStore.open(db) as store:
        assert refresh(store).action == "updated"


def test_png_never_replaces_the_database_it_reads(samples_db: Path) -> None:
    before = samples_db.read_bytes()
    r = run("--db", str(samples_db), "--png", str(samples_db), "--force")
    assert r.exit_code == 2 and "is the database this command reads" in r.stderr
    assert samples_db.read_bytes() == before


def test_backtest_says_whether_the_worst_tenth_is_beyond_its_noise(club_db: Path) -> None:
    """End to end: the sentence under the calibration table carries the JSON's figures and verdict."""
    data = json.loads(run("--db", str(club_db), "--backtest", "--json").stdout)["calibration"]
    assert data["worst_gap"] is not None and data["verdict"] != "too few predictions"
    text = " ".join(run("--db", str(club_db), "--backtest").stdout.split())
    assert f"is {100 * data['worst_gap']:.1f} points, {data['verdict']}" in text
    if data["verdict"] != "within the target":
        assert f"would miss by as much {100 * data['worst_gap_by_chance']:.0f}% of the time" in text
        assert f"miss the target {100 * data['target_missed_by_chance']:.0f}% of the time" in text


def test_the_calibration_table_of_a_simulated_club(club_db: Path) -> None:
    """Every player of every game is one prediction, the wins add up to one a game, the expected
    calibration error is small (1 to 4 points on the clubs of docs/ratings.md), and the worst tenth of at
    least 50 predictions is within 5 points of what happened or within its noise: chances exactly right
    would miss by as much at least 5% of the time on these very games (``Calibration.by_chance``); each
    such tenth is within 5 points or three of its standard errors.

    The issue's bare criterion (5 points in every tenth of 50) is not asserted on one seed: on clubs of
    this size a perfectly calibrated predictor of the very same games misses it on 30 to 70% of seeds
    (``benchmarks/bench_ratings.py --calibration`` draws the outcomes from the chances themselves and
    prints that noise floor beside ``by_chance``; docs/ratings.md gives the figures). On this club (seed 0)
    the worst tenth is 8.3 points, which chances exactly right show 13% of the time; on one seed of five
    of this club the miss is beyond the noise (docs/ratings.md), so another seed may fail here."""
    with MatchStore.open(club_db, read_only=True) as store:
        data = rating_report.backtest(store, Options()).as_json()
        players = sum(len(c.players) for c in contests(store.con, Options()))
    cal = data["calibration"]
    print(json.dumps(cal, indent=1))  # the figures, with -s
    assert sum(b["predictions"] for b in cal["bins"]) == players
    assert sum(b["won"] * b["predictions"] for b in cal["bins"]) == pytest.approx(data["games"])
    for b in cal["bins"]:
        assert b["from"] <= b["predicted"] < b["to"] or b["predicted"] == b["to"] == 1.0
    assert cal["expected_calibration_error"] < 0.04
    assert cal["verdict"] in ("within the target", "within the noise"), cal["verdict"]
    assert cal["worst_gap"] <= cal["target"] or cal["worst_gap_by_chance"] >= 0.05
    for b in cal["bins"]:
        if b["predictions"] >= cal["worst_gap_min_predictions"]:
            assert abs(b["gap"]) <= 0.05 or abs(b["gap"]) <= 3 * b["se"], b
