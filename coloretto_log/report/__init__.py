"""What a checked log means: scores, rankings and verdicts; the state after every move.

Owns the score report and the hand calculator (``scorecard``) and the
per-move states of a replay (``timeline``). Plain values, ready for any view.

May import: the standard library, ``core`` and ``log``.
"""
