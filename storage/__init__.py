"""Persistence: one SQLite database per guild (see ``storage.db``)."""

from storage.db import Storage, StorageError

__all__ = ["Storage", "StorageError"]
