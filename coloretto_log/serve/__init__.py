"""The recorder as a web page for the phones at the table: ``coloretto-log serve``.

Owns the small web app (``app``: Starlette routes over one recording
session), the JSON view of the table a page draws (``snapshot``), the QR code
of the address (``qr``), the printable page of tonight's tables with a QR
code a table (``table_cards``, for ``coloretto-log tables --html``) and the page itself (``assets/page.html``: HTML, CSS
and JavaScript in one file, nothing loaded from elsewhere). The session is
``record``'s and the log file ``log.logfile``'s, as for ``record``.

May import: the standard library, starlette, uvicorn, segno, ``core``,
``log`` and ``play``.
"""
