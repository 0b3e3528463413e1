"""The core's failures: one refusal a player reads, and a save that did not happen."""

from __future__ import annotations


class TableError(Exception):
    """A refusal for the user, phrased as one sentence (``str(error)``). The core's
    one refusal type: front ends show the sentence as it is."""


class SaveFailed(Exception):
    """The move could not be saved: the table is as it was before it."""


class Stale(SaveFailed):
    """Another process changed the table first; this process's copy was reloaded."""
