"""Players' settings kept in memory per server's SQLite file (see ``storage.repos``'s
``get_user_setting``), in a module of its own so ``storage.db`` can register its
connections without importing the repositories.

Kept: what ``get_user_setting`` read, by (user, key), a missing one as :data:`UNSET`. A
move asks for the mover's and the next player's picture setting, and each query is a
round trip to the connection's thread; a kept one is answered without the connection
(``storage.Storage.known_user_setting``). Only the files ``storage.Storage`` opened (it
registers each new connection, :func:`register`), and keyed by file, not connection: a
file is written by this process alone (``claim_data_dir``), perhaps through several
connections, and ``repos``' writes of players' settings forget what they change.
PostgreSQL may be shared by several processes: it is always asked.
"""

from __future__ import annotations

import weakref
from typing import Any

#: The file each registered connection reads.
FILE_OF: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
#: file -> {(user id, key): value or UNSET}
USER_SETTINGS: dict[str, dict[tuple[int, str], Any]] = {}
UNSET = object()
#: What :func:`known` answers for a setting not kept: it must be read.
UNKNOWN = object()
#: Writes of players' settings so far (a read that a write overtook is not kept).
WRITES = 0


def register(connection: Any, file: str) -> None:
    """Settings read through this new connection to ``file`` are kept; what was kept for
    the file before is dropped (it may have been replaced meanwhile)."""
    FILE_OF[connection] = file
    USER_SETTINGS.pop(file, None)


def known(file: str, user_id: int, key: str) -> Any:
    """What is kept of a player's setting in ``file``: the value, :data:`UNSET`, or
    :data:`UNKNOWN` (``storage.Storage.known_user_setting``: a move's settings, no trip
    to the connection's thread)."""
    cache = USER_SETTINGS.get(file)
    value = cache.get((user_id, key)) if cache else None
    return UNKNOWN if value is None else value


def forget(file: str) -> None:
    """Drop what was kept for ``file`` (closed, deleted or set aside)."""
    global WRITES
    WRITES += 1
    USER_SETTINGS.pop(file, None)


def forget_user(file: str, user_id: int) -> None:
    """Drop what was kept of one player's settings in ``file`` (about to change)."""
    global WRITES
    WRITES += 1
    cache = USER_SETTINGS.get(file)
    if cache:
        for key in [k for k in cache if k[0] == user_id]:
            del cache[key]
