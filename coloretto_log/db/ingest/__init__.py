"""Ingest: logs read with a look at the stored matches (``reading``), each match turned into rows by column
name (``rows``), decided against the stored ones and written in batches of one transaction each (``batches``),
and ingest into a database file with ``--rebuild`` (``files``: what the ``ingest`` command runs)."""
