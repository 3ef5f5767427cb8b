"""Players, human and computer: the bots, seeded self-play, and the table-side recorder.

Owns the computer players (``bots``, with ``expert``: ``expert`` and
``expert-mc``), seeded matches between them (``simulate``), the recorder's
session (``record``), decision analysis (``analyze`` and its rooms), the
evaluator of a position (``evaluate``: numpy, loaded only when asked for) and
the search one decision deep on it (``search``).

May import: the standard library, ``core``, ``log``, ``lang``; numpy in ``evaluate`` only.
"""
