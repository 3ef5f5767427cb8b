"""The evaluator's model: a small network, the same for every seat, over ``features``.

Each seat's row of features (scaled by the training set's mean and spread)
goes through one hidden layer (``tanh``) to two numbers, a *value* ``v`` and a
*strength* ``w``. A position's values for every seat then follow:

- expected final margin of seat ``s``: ``10 · (v_s − mean of the others' v)``,
  so the margins add up to 0 over the players, as real margins do;
- chance that seat ``s`` wins the game: ``exp(w_s) / Σ exp(w)`` (a shared win
  counts a share for each winner), so the chances are in [0, 1] and add up
  to 1.

The weights are a JSON file shipped in this package (``weights.json``, read
once through ``importlib.resources`` when first needed), written by
``benchmarks/train_evaluator.py``; docs/design/evaluator.md says how.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["MARGIN_SCALE", "Model", "load", "model_from_json"]

#: Margins are learnt in tenths: ``v`` differences times this are points.
MARGIN_SCALE = 10.0

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Model:
    """The weights: input scaling, the hidden layer and the output layer."""

    mean: Array  # (F,)
    scale: Array  # (F,)
    w1: Array  # (F, H)
    b1: Array  # (H,)
    w2: Array  # (H, 2)
    b2: Array  # (2,)

    def outputs(self, x: Array) -> tuple[Array, Array]:
        """``v`` and ``w`` for feature rows ``x`` of shape (..., F): two arrays of shape (...)."""
        h = np.tanh(((x - self.mean) / self.scale) @ self.w1 + self.b1)
        out = h @ self.w2 + self.b2
        return out[..., 0], out[..., 1]

    def values(self, x: Array) -> tuple[Array, Array]:
        """Margins and win chances for positions ``x`` of shape (P, n, F): two arrays of shape (P, n)."""
        v, w = self.outputs(x)
        n = x.shape[-2]
        margin = MARGIN_SCALE * (v - (v.sum(axis=-1, keepdims=True) - v) / (n - 1))
        e = np.exp(w - w.max(axis=-1, keepdims=True))
        return margin, e / e.sum(axis=-1, keepdims=True)

    def as_json(self) -> dict[str, Any]:
        """The weights as JSON-ready lists (rounded to 7 significant digits: the shipped file's precision)."""
        def r(a: Array) -> Any:
            return np.vectorize(lambda v: float(f"{v:.7g}"), otypes=[float])(a).tolist()

        return {"format": 1, "mean": r(self.mean), "scale": r(self.scale), "w1": r(self.w1), "b1": r(self.b1),
                "w2": r(self.w2), "b2": r(self.b2)}


def model_from_json(data: dict[str, Any]) -> Model:
    """A model from ``Model.as_json``'s form."""
    def a(key: str) -> Array:
        return np.asarray(data[key], dtype=np.float64)

    return Model(a("mean"), a("scale"), a("w1"), a("b1"), a("w2"), a("b2"))


@cache
def load() -> Model:
    """The shipped model (``weights.json`` beside this module), read once."""
    text = resources.files(__package__).joinpath("weights.json").read_text(encoding="utf-8")
    return model_from_json(json.loads(text))
