"""The pure core: the rules of Coloretto as values and functions.

Owns the cards and editions (``cards``, ``ruleset``), the seeded shuffle
(``rng``, ``setup``), the game state and its one mutator (``engine``), the
optimal scoring (``scoring``), claims against the optimum (``claims``), the
Wilson interval (``confidence``) and the error types (``errors``).

May import: the standard library and ``core`` only. No I/O, no printing, no
global state; a test imports it in a fresh interpreter and checks that no
third-party package was loaded.
"""
