"""The tables one process holds, and where each lives."""

from __future__ import annotations

from collections.abc import Callable

from bot.core.table import Table


class TableRegistry:
    """Tables by (guild, id), and the table at each place: a place is the table's
    thread if it has one, else its channel (a front end's word for "where it is
    played"; a terminal uses one number). ``forgotten`` is told when a table is
    untracked (its timers are cancelled there)."""

    def __init__(self, forgotten: Callable[[Table], None] = lambda table: None) -> None:
        self.tables: dict[tuple[int, int], Table] = {}
        #: (guild, place) -> table id
        self.by_place: dict[tuple[int, int], int] = {}
        self.forgotten = forgotten

    def get(self, guild_id: int, table_id: int) -> Table | None:
        return self.tables.get((guild_id, table_id))

    def at(self, guild_id: int, place: int) -> Table | None:
        table_id = self.by_place.get((guild_id, place))
        return self.tables.get((guild_id, table_id)) if table_id is not None else None

    def all(self) -> list[Table]:
        return list(self.tables.values())

    def track(self, table: Table) -> None:
        self.tables[table.key] = table
        for key in [k for k, v in self.by_place.items() if k[0] == table.guild_id and v == table.id]:
            del self.by_place[key]  # a table that moved into its thread
        self.by_place[(table.guild_id, table.record.place)] = table.id

    def untrack(self, table: Table) -> None:
        self.tables.pop(table.key, None)
        if self.by_place.get((table.guild_id, table.record.place)) == table.id:
            del self.by_place[(table.guild_id, table.record.place)]
        self.forgotten(table)
