"""The match database: checked, scored matches stored in DuckDB, and the reports over them; a folder a job.

The database itself, at the top: ``schema`` (every table and column),
``store`` (``MatchStore``: open, check, write a batch in one transaction),
``errors`` (every DuckDB error as one line), ``results`` (every result read
whole, none left open on a connection), ``paths`` (where the database is:
free of duckdb, for a fast start), ``match_logs`` (each match's log, kept
and read back) and ``filters`` (which matches ``stats`` and ``ratings``
cover, as SQL conditions). The rooms:

- ``ingest/``: reading logs against the stored matches, rows, batches, files;
- ``ratings/``: the model, the stored ratings, what ``ratings`` shows;
- ``queries/``: ``stats`` reports, the sandboxed ``query``, the exports;
- ``site/``: what the club's site shows, and the stored analyses;
- ``club/``: club nights' history and the tournaments.

May import: the standard library, duckdb, pyarrow, openskill, ``core``,
``log``, ``report`` and ``club``. duckdb and pyarrow are used nowhere else in
the package.
"""
