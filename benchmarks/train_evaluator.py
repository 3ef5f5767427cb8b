"""Train the evaluator (``coloretto_log.bots.evaluate``) from seeded self-play, and write its weights.

    python benchmarks/train_evaluator.py [--games N] [--seed S] [--bots strong] [--hidden H] [--epochs E]
                                         [--jobs J] [--out PATH]

1. **Data.** Plays N seeded games (default 2,800), one game each of the
   tables in ``CONFIGS`` in turn (mostly three and four players, classic
   edition, standard table; some of two and five players, the anniversary
   edition and the alternative table), every seat played by ``--bots``
   (default ``strong``; ``expert`` on the weights ``--bot-weights`` gives
   one round of policy iteration): game ``i``'s deal is ``setup.seeded_setup`` on the
   (i+1)-th output of ``SplitMix64(S)``, its bots' generators
   ``simulate.bot_seed`` of that seed. Every position a player decided in,
   and the end, is one example: the features of every seat
   (``evaluate.features``) and, as targets, every seat's real final margin
   and the winners (a shared win split). ``--also PATH`` adds the positions
   an earlier run kept (``--data``): games of another bot beside these.
2. **Fit.** The last tenth of the games is held out. A network of ``H``
   hidden units (``evaluate.model``) is fitted by Adam on minibatches (the
   order drawn from ``numpy.random.default_rng(S)``) to the squared error of
   the margins plus the cross-entropy of the winners; it prints the held-out
   errors next to two baselines: the margin now (the scores as they stand)
   and "no knowledge" (margin 0, every seat equally likely to win).
3. **Out.** Writes the weights as JSON (default: the package's
   ``coloretto_log/bots/evaluate/weights.json``) atomically.

The same options give the same bytes (one process or many: games are
played in order and collected in order; numpy's float64 arithmetic on one
machine). Times and figures of the shipped weights: docs/design/evaluator.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coloretto_log.bots import simulate as sim
from coloretto_log.bots.evaluate import N_FEATURES, features, final_values
from coloretto_log.bots.evaluate.model import MARGIN_SCALE, Model, model_from_json
from coloretto_log.bots.expert import ExpertBot
from coloretto_log.bots.players import Bot, make_bot
from coloretto_log.core.rng import SplitMix64, nth_output
from coloretto_log.core.ruleset import RuleSet
from coloretto_log.core.setup import seeded_setup

#: The tables of the games, one game each in turn: (players, edition, scoring table).
CONFIGS: tuple[tuple[int, str, str], ...] = (
    (3, "classic", "standard"), (4, "classic", "standard"), (3, "classic", "standard"), (4, "classic", "standard"),
    (3, "classic", "standard"), (4, "classic", "standard"), (2, "classic", "standard"), (5, "classic", "standard"),
    (3, "anniversary", "standard"), (4, "anniversary", "standard"), (3, "classic", "alternative"),
    (4, "classic", "alternative"), (3, "classic", "standard"), (4, "classic", "standard"),
)  # fmt: skip
WIN_WEIGHT = 1.0  # the cross-entropy's weight beside the margins' squared error (in tenths of points)

Example = tuple[int, list[list[list[float]]], list[tuple[float, ...]], list[tuple[float, ...]]]


def bot_of(name: str, weights: Path | None) -> Bot:
    """The bot of every seat: ``expert`` on the weights in ``weights`` if given, else as registered."""
    if name == "expert" and weights is not None:
        return ExpertBot(model=model_from_json(json.loads(weights.read_text(encoding="utf-8"))))
    return make_bot(name)


def play(seed: int, bot: str, index: int, weights: Path | None = None) -> Example:
    """Game ``index``: its player count, every decided position's features and the targets (margins, wins)."""
    players, edition, table = CONFIGS[index % len(CONFIGS)]
    rules = RuleSet.of(edition=edition, scoring=table, games=1)
    game_seed = nth_output(seed, index + 1)
    setup = seeded_setup(rules, players, game_seed, 0)
    rngs = [SplitMix64(sim.bot_seed(game_seed, 0, s)) for s in range(players)]
    game = sim.play_game(rules, [bot_of(bot, weights) for _ in range(players)], setup, rngs)
    states = [state for _, state in sim.moves_with_states(rules, game)] + [game.final]
    xs = [features(s) for s in states]
    target = final_values(game.scores)
    return players, xs, [target.margin] * len(xs), [target.win] * len(xs)


def collect(seed: int, bot: str, games: int, jobs: int, weights: Path | None = None) -> list[Example]:
    out: list[Example] = []
    work = _Work(seed, bot, weights)
    if jobs <= 1:
        for i in range(games):
            out.append(work(i))
            _progress(i + 1, games)
        return out
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(jobs) as pool:
        for i, example in enumerate(pool.imap(work, range(games), chunksize=4)):
            out.append(example)
            _progress(i + 1, games)
    return out


class _Work:
    def __init__(self, seed: int, bot: str, weights: Path | None) -> None:
        self.seed, self.bot, self.weights = seed, bot, weights

    def __call__(self, index: int) -> Example:
        return play(self.seed, self.bot, index, self.weights)


def _progress(k: int, n: int) -> None:
    if k % 200 == 0 or k == n:
        print(f"  {k}/{n} games played", file=sys.stderr, flush=True)


Arrays = dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]


def arrays(examples: list[Example]) -> Arrays:
    """Per player count: features (P, n, F), margins (P, n), win targets (P, n)."""
    by: dict[int, tuple[list[Any], list[Any], list[Any]]] = {}
    for n, xs, ms, ws in examples:
        x, m, w = by.setdefault(n, ([], [], []))
        x.extend(xs)
        m.extend(ms)
        w.extend(ws)
    return {n: (np.asarray(x, dtype=np.float64), np.asarray(m, dtype=np.float64), np.asarray(w, dtype=np.float64))
            for n, (x, m, w) in sorted(by.items())}


def save_data(path: Path, train: Arrays, held: Arrays) -> None:
    """The positions as one .npz: ``{part}_{n}_{x|m|w}`` arrays."""
    parts = {f"{name}_{n}_{k}": a for name, d in (("train", train), ("held", held))
             for n, arrs in d.items() for k, a in zip("xmw", arrs)}
    np.savez(path, **parts)  # type: ignore[arg-type]


def load_data(path: Path) -> tuple[Arrays, Arrays]:
    with np.load(path) as z:
        out: dict[str, Arrays] = {"train": {}, "held": {}}
        for key in sorted(z.files):
            name, n, k = key.split("_")
            if k == "x":
                out[name][int(n)] = (z[key], z[f"{name}_{n}_m"], z[f"{name}_{n}_w"])
    return out["train"], out["held"]


def merge(a: Arrays, b: Arrays) -> Arrays:
    """The positions of ``a`` and then ``b``, per player count."""
    out = dict(a)
    for n, arrs in b.items():
        out[n] = tuple(np.concatenate([x, y]) for x, y in zip(out[n], arrs)) if n in out else arrs  # type: ignore[assignment]
    return dict(sorted(out.items()))


def forward(params: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Hidden layer, v, w, margins (in tenths) for features already scaled."""
    h = np.tanh(x @ params["w1"] + params["b1"])
    out = h @ params["w2"] + params["b2"]
    v, w = out[..., 0], out[..., 1]
    n = x.shape[-2]
    m = v - (v.sum(axis=-1, keepdims=True) - v) / (n - 1)
    return h, v, w, m


def loss_and_grads(params: dict[str, np.ndarray], x: np.ndarray, m_true: np.ndarray,
                   w_true: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
    """The loss on one batch of one player count, and its gradient."""
    p, n, _ = x.shape
    h, _, w, m = forward(params, x)
    err = m - m_true / MARGIN_SCALE
    e = np.exp(w - w.max(axis=-1, keepdims=True))
    q = e / e.sum(axis=-1, keepdims=True)
    loss = float((err**2).mean() - WIN_WEIGHT * (w_true * np.log(q + 1e-12)).sum(axis=-1).mean())
    g_m = 2.0 * err / (p * n)
    g_v = g_m * (n / (n - 1)) - g_m.sum(axis=-1, keepdims=True) / (n - 1)
    g_w = WIN_WEIGHT * (q - w_true) / p
    g_out = np.stack([g_v, g_w], axis=-1)  # (p, n, 2)
    grads = {"w2": np.einsum("pnh,pnk->hk", h, g_out), "b2": g_out.sum(axis=(0, 1))}
    g_h = (g_out @ params["w2"].T) * (1.0 - h**2)
    grads["w1"] = np.einsum("pnf,pnh->fh", x, g_h)
    grads["b1"] = g_h.sum(axis=(0, 1))
    return loss, grads


def fit(train: Arrays, hidden: int, epochs: int, seed: int, batch: int = 128, rate: float = 3e-3) -> Model:
    rng = np.random.default_rng(seed)
    every = np.concatenate([x.reshape(-1, N_FEATURES) for x, _, _ in train.values()])
    mean = every.mean(axis=0)
    scale = every.std(axis=0)
    scale[scale < 1e-6] = 1.0
    scaled = {n: ((x - mean) / scale, m, w) for n, (x, m, w) in train.items()}
    params = {"w1": rng.normal(0.0, 1.0 / np.sqrt(N_FEATURES), (N_FEATURES, hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, 2)), "b2": np.zeros(2)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    for epoch in range(epochs):
        lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))  # cosine decay
        batches = [(n, idx) for n, (x, _, _) in scaled.items()
                   for idx in np.array_split(rng.permutation(len(x)), max(1, len(x) // batch))]
        order = rng.permutation(len(batches))
        total = 0.0
        for j in order:
            n, idx = batches[j]
            x, m, w = scaled[n]
            loss, grads = loss_and_grads(params, x[idx], m[idx], w[idx])
            total += loss * len(idx)
            step += 1
            for k, g in grads.items():
                m1, m2 = moments[k]
                m1 *= b1
                m1 += (1 - b1) * g
                m2 *= b2
                m2 += (1 - b2) * g * g
                params[k] -= lr * (m1 / (1 - b1**step)) / (np.sqrt(m2 / (1 - b2**step)) + eps)
        size = sum(len(x) for x, _, _ in scaled.values())
        print(f"  epoch {epoch + 1}/{epochs}: training loss {total / size:.4f}", file=sys.stderr, flush=True)
    return Model(mean, scale, params["w1"], params["b1"], params["w2"], params["b2"])


def report(model: Model, held: Arrays) -> list[str]:
    """Held-out errors of the model and of the baselines, per player count."""
    lines = []
    score_cols = 14  # "score" in features.NAMES: scaled by 1/20
    for n, (x, m, w) in held.items():
        margin, win = model.values(x)
        s = x[..., score_cols] * 20.0
        now = s - (s.sum(axis=-1, keepdims=True) - s) / (n - 1)
        rmse = np.sqrt(((margin - m) ** 2).mean())
        rmse_now = np.sqrt(((now - m) ** 2).mean())
        rmse_zero = np.sqrt((m**2).mean())
        ll = -(w * np.log(win + 1e-12)).sum(axis=-1).mean()
        ll_flat = np.log(n)
        lines.append(f"{n} players, {len(x)} positions: margin RMSE {rmse:.2f} (margin now {rmse_now:.2f}, 0: "
                     f"{rmse_zero:.2f}); winner log-loss {ll:.3f} (uniform {ll_flat:.3f})")
    return lines


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2800)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--bots", default="strong", help="the bot in every seat of the self-play games")
    parser.add_argument("--bot-weights", type=Path, default=None,
                        help="with --bots expert: the evaluator's weights the expert plays on (default: the shipped)")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", type=Path, default=None,
                        help="keep the played positions in this .npz: read it if it exists (same options), else write it")
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="positions kept by an earlier run's --data (repeatable): added to this run's, training "
                             "to training, held out to held out (e.g. games of expert beside games of strong)")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parents[1] / "coloretto_log/bots/evaluate/weights.json")
    args = parser.parse_args(argv)

    t0 = time.process_time()
    w0 = time.monotonic()
    cut = args.games - max(1, args.games // 10)
    if args.data is not None and args.data.exists():
        train, held = load_data(args.data)
    else:
        examples = collect(args.seed, args.bots, args.games, args.jobs, args.bot_weights)
        train, held = arrays(examples[:cut]), arrays(examples[cut:])
        if args.data is not None:
            save_data(args.data, train, held)
    for path in args.also:
        train, held = merge(train, load_data(path)[0]), merge(held, load_data(path)[1])
    t1, w1 = time.process_time(), time.monotonic()
    model = fit(train, args.hidden, args.epochs, args.seed)
    t2, w2 = time.process_time(), time.monotonic()
    positions = sum(len(x) for x, _, _ in train.values())
    also = "".join(f" + positions of {p.name}" for p in args.also)
    print(f"{args.games} games of {args.bots}{also} ({positions} positions to train), seed {args.seed}, "
          f"{args.hidden} hidden units, {args.epochs} epochs")
    print(f"play {w1 - w0:.0f} s wall ({t1 - t0:.0f} s CPU of this process), fit {w2 - w1:.0f} s wall "
          f"({t2 - t1:.0f} s CPU)")
    for line in report(model, held):
        print("held out: " + line)
    text = json.dumps(model.as_json(), separators=(",", ":")) + "\n"
    write_atomic(args.out, text)
    print(f"wrote {args.out} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
