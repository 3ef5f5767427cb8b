from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples"
SAMPLES = ROOT / "sample_logs"
#: Logs broken on purpose, one error each (sample_logs/README.md lists them): not among the samples,
#: so that `validate sample_logs/` exits 0 as its help says.
INVALID = ROOT / "tests" / "data" / "invalid"


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def examples_dir() -> Path:
    if not EXAMPLES.is_dir():
        pytest.skip("../shared/examples is not beside the project")
    return EXAMPLES
