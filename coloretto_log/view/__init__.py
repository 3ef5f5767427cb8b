"""How results look: cards in colour for the terminal (``terminal``), the self-contained web page (``html``),
a move's story in a reader's language (``narrative``).

May import: the standard library, rich (``terminal`` only), ``core``, ``log``,
``lang`` and ``report``.
"""
