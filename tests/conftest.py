from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Example logs kept with the tests (each validates with no finding).
EXAMPLES = ROOT / "tests" / "data" / "db"
SAMPLES = ROOT / "sample_logs"
#: Logs broken on purpose, one error each (sample_logs/README.md lists them): not among the samples,
#: so that `validate sample_logs/` exits 0 as its help says.
INVALID = ROOT / "tests" / "data" / "invalid"


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
