"""Lobbies: open one, seat people and computer players, take them out, begin the
game, close a table. Refusals are :class:`TableError` sentences. The caller holds
the table's lock for everything but :meth:`Lobby.open`; nothing here shows anything."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.words import i18n
from bot.core import computer, sessions
from bot.core.clock import Clock
from bot.core.games import GameSpec
from bot.core.registry import TableRegistry
from bot.core.settings import GuildSettings
from bot.core.table import RECENT_LINES, Table, TableError
from bot.rules.engine import RuleError
from bot.words.i18n import _
from storage import StorageBackend, repos


class Lobby:
    def __init__(self, *, storage: StorageBackend, clock: Clock, registry: TableRegistry, settings: GuildSettings) -> None:
        self.storage, self.clock, self.registry, self.settings = storage, clock, registry, settings

    async def open(
        self, guild_id: int, channel_id: int, spec: GameSpec, host: int, options: dict[str, Any] | None = None, *,
        thread_id: int | None = None, players: Sequence[int] = (), seat_choices: dict[int, str] | None = None,
        house_rules: bool = True, publish: dict[str, Any] | None = None,
    ) -> Table:
        """A new lobby in ``channel_id`` (or in ``thread_id`` of it), its host seated
        (and ``players``, a rematch). ``publish``: a front end's own keys for the row."""
        place = thread_id if thread_id is not None else channel_id
        table_options = dict(options or {})
        if house_rules:
            table_options.update(await self.settings.house_rules(guild_id, spec))
        timer = await self.settings.guild_turn_seconds(guild_id)
        now = self.clock.now()
        async with self.storage.transaction(guild_id) as db:
            if await repos.active_table_at(db, place) is not None:
                raise TableError(_("This channel already has a lobby or game. Finish it or `/cancel` it first."))
            table_id = await repos.insert_table(db, game=spec.key, channel_id=channel_id, thread_id=thread_id, host_id=host,
                                                options=table_options, timer_seconds=timer, now=now)
            record = await repos.get_table(db, table_id)
        assert record is not None
        table = Table(guild_id, record, spec)
        record.publish = {**(publish or {}), "lobby_options": table_options}
        record.players = [host, *[p for p in players if p != host]]
        if sessions.has_sessions(spec):
            # The lobby of a session's next round says what carries over (Onion's bankrolls);
            # Start reads the carryover afresh.
            async with self.storage.reading(guild_id) as db:
                carry = await repos.get_carryover(db, channel_id, spec.key)
            if carry:
                record.publish["carry"] = carry
        if spec.seat_choices:
            # The opener joins the first side; they can switch with the other Join button.
            record.seat_choices = dict(seat_choices or {}) or {host: spec.seat_choices[0][0]}
            record.seat_choices.setdefault(host, spec.seat_choices[0][0])
        async with self.storage.transaction(guild_id) as db:
            await repos.update_table(db, table.id, now=now, seat_choices=record.seat_choices, players=record.players, publish=record.publish)
        self.registry.track(table)
        return table

    async def save(self, table: Table, **columns: Any) -> None:
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=self.clock.now(), **columns)
        for name, value in columns.items():
            setattr(table.record, name, value)

    async def seat(self, table: Table, user: int, choice: str | None = None, *, publish: dict[str, Any] | None = None) -> None:
        """``user`` joins the lobby (or switches side to ``choice``)."""
        record = table.record
        if record.status != "lobby":
            raise TableError(_("This game has already started; you can join the next one."))
        valid_choices = [c for c, _ in table.spec.seat_choices]
        if valid_choices:
            choice = choice if choice in valid_choices else valid_choices[0]
        if user in record.players and (not valid_choices or record.seat_choices.get(user) == choice):
            raise TableError(_("You are already in this lobby."))
        if user not in record.players and len(record.players) >= table.spec.game.max_players:
            raise TableError(_("This lobby is full ({n} players).", n=table.spec.game.max_players))
        players = record.players if user in record.players else [*record.players, user]
        seat_choices = dict(record.seat_choices)
        if choice:
            seat_choices[user] = choice
        if publish is None:
            await self.save(table, players=players, seat_choices=seat_choices)
        else:
            await self.save(table, players=players, seat_choices=seat_choices, publish=publish)

    async def seat_computer(self, table: Table, by: int, level: str) -> int:
        """The host seats a computer player (bot/core/computer.py); returns its seat."""
        record = table.record
        refusal = None if record.status == "lobby" else _("This game has already started; computers join in the lobby.")
        if refusal is None and by != record.host_id:
            refusal = _("Only the host, {host}, can add computer players.", host=f"<@{record.host_id}>")
        refusal = refusal or computer.add_refusal(table.spec.key, record.players, table_size(table)[1], level)
        if refusal is not None:
            raise TableError(refusal)
        seat = computer.new_seat(record.players, level)
        seat_choices = dict(record.seat_choices)
        if table.spec.seat_choices:
            seat_choices[seat] = table.spec.seat_choices[0][0]
        await self.save(table, players=[*record.players, seat], seat_choices=seat_choices)
        return seat

    async def unseat_computer(self, table: Table, by: int) -> int:
        """The host takes the last-seated computer player out of the lobby; returns its seat."""
        record = table.record
        seats = [p for p in record.players if computer.is_computer(p)]
        refusal = None if record.status == "lobby" else _("This game has already started; computers leave in the lobby.")
        if refusal is None and by != record.host_id:
            refusal = _("Only the host, {host}, can remove computer players.", host=f"<@{record.host_id}>")
        if refusal is None and not seats:
            refusal = _("There is no computer player in this lobby.")
        if refusal is not None:
            raise TableError(refusal)
        seat = seats[-1]
        seat_choices = {p: c for p, c in record.seat_choices.items() if p != seat}
        await self.save(table, players=[p for p in record.players if p != seat], seat_choices=seat_choices)
        return seat

    async def unseat(self, table: Table, user: int, *, removed: bool = False) -> bool:
        """``user`` leaves the lobby (``removed``: taken out by someone else). Returns
        True when nobody but computers was left, so the lobby was closed."""
        record = table.record
        if user not in record.players:
            raise TableError(_("That player is not in this lobby.") if removed else _("You are not in this lobby."))
        players = [p for p in record.players if p != user]
        if not computer.humans(players):
            await self.close(table, "cancelled")
            return True
        host = record.host_id if record.host_id != user else computer.humans(players)[0]
        seat_choices = {p: c for p, c in record.seat_choices.items() if p != user}
        await self.save(table, players=players, seat_choices=seat_choices, host_id=host)
        return False

    @i18n.for_everyone
    async def begin(self, table: Table, by: int, seed: str) -> frozenset[int]:
        """The host starts the game from the lobby, dealt from ``seed``. Returns who
        must act first. The row is saved as playing, its first deadline set."""
        record = table.record
        if record.status != "lobby":
            raise TableError(_("This game has already started."))
        if by != record.host_id:
            raise TableError(_("Only the host, {host}, can start this game.", host=f"<@{record.host_id}>"))
        spec = table.spec
        players = list(record.players)
        options = dict(record.options)
        async with self.storage.reading(table.guild_id) as db:
            carry = await repos.get_carryover(db, record.channel_id, spec.key)
        if carry:
            options["carry"] = carry
        try:
            # The game's own lobby check first: it knows the table's size and sides.
            if spec.prepare_options is not None:
                options = spec.prepare_options(players, dict(record.seat_choices), options, seed)
            spec.game.check_player_count(players)
            state = spec.game.new(players, options, seed=seed)
        except RuleError as error:
            raise TableError(str(error)) from None
        now = self.clock.now()
        table.state = state
        current = state.current_players()
        deadline = now + record.timer_seconds if current else None
        opening = spec.render.event_lines(list(state.opening_events), table.names())
        await self.save(
            table, status="playing", seed=seed, options=options, state=state.to_json(), version=0,
            deadline=deadline, recent=[_("The game begins."), *opening][-RECENT_LINES:],
        )
        return frozenset(current)

    async def close(self, table: Table, status: str) -> None:
        """Persist a closed table and forget it (caller holds the lock)."""
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=self.clock.now(), status=status, deadline=None)
        table.record.status = status
        table.record.deadline = None
        self.registry.untrack(table)


def table_size(table: Table) -> tuple[int, int]:
    """Seats a lobby offers: the table's own size option (Engines' 2 or 4) if any."""
    game = table.spec.game
    size = table.record.publish.get("lobby_options", table.record.options).get("players")
    if isinstance(size, int) and game.min_players <= size <= game.max_players:
        return size, size
    return game.min_players, game.max_players
