"""How results look: cards in colour for the terminal (``terminal``), the self-contained web page (``html``).

May import: the standard library, rich (``terminal`` only), ``core``, ``log``
and ``report``.
"""
