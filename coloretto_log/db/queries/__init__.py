"""Reading the database back for people and programs: the statistics reports as a registry (``stats``), the
read-only ``query`` in a sandboxed child process (``query``, ``sandbox``), the exports (``export``: Parquet and BG
Stats) and where a database command may write its output (``outputs``)."""
