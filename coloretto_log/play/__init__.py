"""Players, human and computer: the bots, seeded self-play, and the table-side recorder.

Owns the computer players (``bots``), seeded matches between them
(``simulate``) and the recorder's session (``record``).

May import: the standard library, ``core`` and ``log``.
"""
