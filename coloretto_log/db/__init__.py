"""The match database: checked, scored matches stored in DuckDB, and the reports over them.

Owns the store, ingest, the query sandbox and the exports (``store``) and the
statistics reports (``stats``).

May import: the standard library, duckdb, pyarrow, ``core``, ``log`` and
``report``. duckdb and pyarrow are used nowhere else in the package.
"""
