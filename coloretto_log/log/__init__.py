"""The match log format, version 1: reading, checking and writing logs.

Owns the pydantic models and the JSON Schema (``models``), safe reading of
files, folders and standard input (``reader``), validation by replay
(``replay``), paths to checked matches (``load``), engine values to log JSON
(``writer``), atomic file writes (``atomic``) and the locked log a recorder
saves after every move (``logfile``).

May import: the standard library, pydantic, and ``core``. pydantic is used
nowhere else in the package.
"""
