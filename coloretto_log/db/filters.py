"""Which matches a report covers, as SQL: the filters ``stats`` and ``ratings`` share.

:func:`match_conditions` turns an edition, a number of players and a range
of days into conditions on the columns of ``matches`` with their query
parameters, in one place, so that ``stats --edition`` and ``ratings
--edition`` (and the rest) select the same matches. Nothing here runs SQL.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

__all__ = ["match_conditions"]


def match_conditions(
    *,
    since: _dt.date | None,
    until: _dt.date | None,
    edition: str | None,
    players: int | None,
    alias: str = "",
) -> tuple[dict[str, str], dict[str, Any]]:
    """The conditions the filters ask for, keyed by their parameter's name, and the parameters.

    ``None`` does not filter. ``since`` / ``until`` are inclusive and leave
    out undated matches (a NULL date passes neither). The columns are those
    of ``matches`` (``date``, ``edition``, ``n_players``), each after
    ``alias`` (``"m."`` for ``matches m``); ``n_players`` is also a column of
    ``games``, ``game_players`` and ``match_players``.
    """
    wanted: tuple[tuple[str, str, Any], ...] = (
        ("since", "date >=", since),
        ("until", "date <=", until),
        ("edition", "edition =", edition),
        ("n_players", "n_players =", players),
    )
    conds = {name: f"{alias}{test} ${name}" for name, test, value in wanted if value is not None}
    params = {name: value for name, _, value in wanted if value is not None}
    return conds, params
