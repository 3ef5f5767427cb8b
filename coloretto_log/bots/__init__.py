"""The computer players: the bots, their playouts and seeded self-play.

Owns the bots and their registry (``players``, with ``expert``: ``expert`` and
``expert-mc``), seeded matches between them (``simulate``), sampled playouts
from a decision (``playout``), the exact search at the end of a game
(``exact``), the evaluator of a position (``evaluate``: numpy, loaded only
when asked for) and the search one decision deep on it (``search``).

May import: the standard library, ``core``, ``log``; numpy in ``evaluate`` only.
"""
