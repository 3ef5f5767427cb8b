"""How results look: cards in colour for the terminal (``terminal``), lines fitted to the width (``wrap``), the
self-contained web page (``html``), a move's story in a reader's language (``narrative``).

May import: the standard library, rich (``terminal`` and ``wrap``), ``core``, ``log``,
``lang`` and ``report``.
"""
