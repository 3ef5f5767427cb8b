"""The match database: checked, scored matches stored in DuckDB, and the reports over them.

One room per job: ``schema`` (every table and column), ``rows`` (a match as
rows, built by column name), ``ingest`` (deciding and batching matches),
``store`` (``MatchStore``: open, check, write a batch in one transaction),
``ingest_files`` (ingest into a file, ``--rebuild``), ``sandbox`` (the
read-only ``query``), ``export`` (Parquet, BG Stats), ``stats`` (the
registry of reports), ``errors`` (every DuckDB error as one line), ``results``
(every result read whole, none left open on a connection) and
``paths`` (where the database is: free of duckdb, for a fast start);
``club_history`` (who met whom, who started: tonight's tables) and
``tournaments`` (the Swiss tournaments kept beside the matches).

May import: the standard library, duckdb, pyarrow, ``core``, ``log``,
``report`` and ``club``. duckdb and pyarrow are used nowhere else in the package.
"""
