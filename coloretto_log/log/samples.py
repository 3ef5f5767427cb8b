"""The sample logs shipped inside the package, for a user who installed a release (no clone, no ``sample_logs/``).

``sample_logs/`` under this module is a copy of the repository's top-level
``sample_logs/``, byte for byte (``tests/log/test_samples.py`` holds it);
``coloretto-log samples DIR`` writes it out.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ..core.errors import ColorettoLogError, one_line
from .atomic import atomic_write_bytes, sync_folder


class SamplesRefused(ColorettoLogError):
    """A sample's name is already taken in the folder: nothing is written (never onto a user's file)."""


def sample_files() -> dict[str, bytes]:
    """File name -> exact bytes of every shipped sample (its README among them), by name."""
    folder = files(__package__ or "coloretto_log.log") / "sample_logs"
    found = {item.name: item.read_bytes() for item in folder.iterdir() if item.is_file()}
    return {name: found[name] for name in sorted(found)}


def write_samples(folder: Path) -> list[Path]:
    """Write every shipped sample into ``folder`` (made if missing) and return the paths written.

    Raises :class:`SamplesRefused` before writing anything when a sample's
    name already exists there; each file is written atomically, and on a
    failed write (``OSError``, raised) the files written so far are removed.
    """
    samples = sample_files()
    if folder.exists() and not folder.is_dir():
        raise SamplesRefused(f"{one_line(str(folder))}: is a file, not a folder; give a folder")
    taken = [name for name in samples if (folder / name).exists() or (folder / name).is_symlink()]
    if taken:
        raise SamplesRefused(
            f"{one_line(str(folder / taken[0]))}: already exists"
            + (f" (and {len(taken) - 1} more of the samples)" if len(taken) > 1 else "")
            + "; samples never replace a file: give another folder"
        )
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    try:
        for name, data in samples.items():
            atomic_write_bytes(folder / name, data, sync_folder=False)
            written.append(folder / name)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    sync_folder(folder)
    return written
