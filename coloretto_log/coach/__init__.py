"""The coach: every decision of a played match valued, marked and explained (``analyze``).

Built on the bots' playouts and exact search (``bots``): the sampled estimator
(``estimate``, with ``every_order`` where the cards left are few), the marking
rule and the best choice (``marks``), the chance of winning the match (``match``, its model
``match_model.json``), why in words (``explain``), and error rate, accuracy, luck
and skill (``luck``).

May import: the standard library, ``core``, ``log``, ``lang``, ``bots``.
"""
