"""The page's token file: never readable by others, not even while it is being written (issue 19, item 3).

Every file opened while ``saved_token`` writes is watched through Python's
audit hooks (``open``, ``os.chmod``, ``os.rename``...): at each step, every
file it created is looked at. The token must go into a file created
exclusively (``O_EXCL``: never an existing file, nor one through a planted
link), under a name nobody can guess, with mode 0600 from its creation.
"""

from __future__ import annotations

import inspect
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from coloretto_log.log import atomic
from coloretto_log.serve import run

#: What the hook records while a test watches: the files created (name, flags), the modes seen at each step.
_WATCH: dict[str, Any] = {"on": False, "created": [], "modes": []}


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _WATCH["on"]:
        return
    _WATCH["on"] = False  # nothing the hook itself does is watched
    try:
        path, flags = (args[0], args[2]) if event == "open" else (None, 0)
        if isinstance(path, str | bytes | os.PathLike) and isinstance(flags, int) and flags & os.O_CREAT:
            _WATCH["created"].append((os.fsdecode(path), flags))
        for name, _ in _WATCH["created"]:
            try:
                _WATCH["modes"].append((event, name, stat.S_IMODE(os.lstat(name).st_mode)))
            except OSError:
                pass
    finally:
        _WATCH["on"] = True


sys.addaudithook(_hook)


def written(log: Path) -> tuple[str, list[tuple[str, int]], list[tuple[str, str, int]]]:
    """The token ``saved_token`` keeps for ``log``, the files it created and the modes they had at each step."""
    _WATCH.update(on=False, created=[], modes=[])
    old = os.umask(0)  # the laxest umask: only the mode the writer gives counts
    _WATCH["on"] = True
    try:
        token = run.saved_token(log)
    finally:
        _WATCH["on"] = False
        os.umask(old)
    return token, list(_WATCH["created"]), list(_WATCH["modes"])


#: The atomic writer before issue 19 item 3 (another branch mends it): its temporary file is ``.NAME.tmp-PID``.
OLD_WRITER = ".tmp-{os.getpid()}" in inspect.getsource(atomic)


@pytest.mark.xfail(OLD_WRITER, reason="the atomic writer still names its temporary file .NAME.tmp-PID", strict=True)
def test_the_token_is_in_a_file_of_mode_0600_from_its_creation_under_an_unguessable_name(tmp_path: Path) -> None:
    log = tmp_path / "kitchen.json"
    names = []
    for _ in range(2):
        token, created, modes = written(log)
        assert run.token_path(log).read_text(encoding="ascii") == token + "\n"
        assert stat.S_IMODE(run.token_path(log).stat().st_mode) == 0o600
        assert len(created) == 1, created
        name, flags = created[0]
        assert flags & os.O_EXCL and flags & os.O_CREAT, "the temporary file must be created exclusively"
        assert modes and all(mode == 0o600 for _, _, mode in modes), modes
        assert Path(name).parent == tmp_path and Path(name).name not in (".kitchen.json.serve-token.tmp", f".kitchen.json.serve-token.tmp-{os.getpid()}")
        names.append(name)
        run.forget_token(log)
    assert names[0] != names[1]  # not a name a neighbour could plant a link at in advance
    assert sorted(p.name for p in tmp_path.iterdir()) == []
