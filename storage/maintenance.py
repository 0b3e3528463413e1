"""The owner's tools for a guild file that cannot be read: set it aside (never
automatic), so the server starts afresh, and keep it for a later rescue.

``python -m bot quarantine <guild_id>`` runs :func:`quarantine` on ``DATA_DIR``.
Stop the bot first, or restart it after: tables restored at start are read once.
"""

from __future__ import annotations

import time
from pathlib import Path


class MaintenanceError(Exception):
    """A sentence for the owner."""


def quarantine(data_dir: Path, guild_id: int, *, now: float | None = None) -> Path:
    """Move ``guilds/<id>.sqlite3`` (and its -wal/-shm) to ``quarantine/`` with a
    timestamp. Returns the new path of the main file."""
    guild_dir = Path(data_dir) / "guilds"
    source = guild_dir / f"{int(guild_id)}.sqlite3"
    if not source.exists():
        raise MaintenanceError(f"There is no database for server {guild_id} at {source}.")
    target_dir = Path(data_dir) / "quarantine"
    target_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
    target = target_dir / f"{int(guild_id)}-{stamp}.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        part = Path(str(source) + suffix)
        if part.exists():
            part.rename(Path(str(target) + suffix))
    return target
