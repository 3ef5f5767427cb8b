"""The table-side recorder behind ``coloretto-log record`` (and ``serve``).

Three rooms: the typed-line grammar (``commands``), the session as a state
machine whose phases are a type (``phase``, ``session``; undo lives in one
method) and the values it answers with (``events``). The locked, atomically
saved log file is ``log.logfile``. No I/O here.
"""

from __future__ import annotations

from .commands import InputError, parse_card, parse_colours, parse_command, parse_players
from .events import (
    Caution,
    ClaimVerdicts,
    Event,
    GameOver,
    GameStart,
    Help,
    MatchOver,
    Note,
    Prompt,
    Refused,
    Reply,
    Standing,
    describe,
    standings,
)
from .phase import Phase
from .session import MOVE_HINT, Recorder, ResumeError

__all__ = [
    "MOVE_HINT", "Caution", "ClaimVerdicts", "Event", "GameOver", "GameStart", "Help", "InputError", "MatchOver", "Note",
    "Phase", "Prompt", "Recorder", "Refused", "Reply", "ResumeError", "Standing", "describe", "parse_card",
    "parse_colours", "parse_command", "parse_players", "standings",
]  # fmt: skip
