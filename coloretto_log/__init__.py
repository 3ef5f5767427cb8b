"""coloretto-log: record, validate, replay and score Coloretto match logs.

The pure core (``cards``, ``ruleset``, ``rng``, ``setup``, ``engine``,
``scoring``) takes values and returns values: no I/O, no printing, no globals.
"""

__version__ = "0.1.0"
