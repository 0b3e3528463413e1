"""The table core as a front end drives it: :class:`TableCore`, in plain values.

It is assembled from collaborators with narrow interfaces (registry, settings,
lobby, moves, timers, sync, restore), each passed what it needs in its
constructor. Timers are armed by moves and restores and fire into moves: that loop
is closed here, through :meth:`TableCore._arm`. What happens without a request (a
computer's move, a timer firing, a restore) is reported to the front end's
:class:`TableListener`; the core never imports a front end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.core import computer
from bot.core.clock import Clock, SystemClock
from bot.core.games import GameRegistry
from bot.core.lobby import Lobby
from bot.core.moves import Moves, Outcome, SaveFailed, Stale, is_stale, seated
from bot.core.registry import TableRegistry
from bot.core.restore import load_state
from bot.core.settings import GuildSettings
from bot.core.sync import Sync
from bot.core.table import Table, TableError
from bot.core.timers import Timers
from bot.rules.engine import Action, Event, RuleError
from bot.words.i18n import N_, _
from storage import StorageBackend, repos
from storage.db import GuildDataMissing, StorageError
from storage.repos import BadRecord, TableRecord

log = logging.getLogger("bot.tables")

#: The sentence for a move chosen from an older moment of the game.
STALE = N_("That move was chosen at an earlier moment in the game, so nothing was played.")


@dataclass(frozen=True)
class SeatView:
    """What one seat (or a spectator, ``player`` None) may see and do now."""

    table_id: int
    version: int
    status: str  # lobby, playing, finished, cancelled
    player: int | None
    observation: dict[str, Any]  # the rules' observation for this seat (spectator's for None)
    legal: tuple[Action, ...]  # what this seat may do now (empty for a spectator)
    current: frozenset[int]  # who must act now
    owes: frozenset[int]  # who owes typed words now (open obligations), whoever's turn it is
    recent: tuple[str, ...]  # the table's last lines, plain words
    over: bool


class TableListener(Protocol):
    """What a front end is told about moves it did not ask for."""

    async def moved(self, table: Table, outcome: Outcome) -> None:
        """A computer seat moved, a timer fired, or an obligation ran out."""

    async def said(self, table: Table, seat: int, text: str) -> None:
        """A computer seat typed ``text`` (its move was a ``say``); ``moved`` follows."""

    async def closed(self, table: Table, why: str) -> None:
        """The table closed without a request (nobody but computers left)."""


class TableCore:
    """Lobbies, seats, moves, timers and restore for one process, over ``storage``.

    ``games``: the games this core runs (a registry of Discord-free specs whose
    ``render`` gives event lines). ``clock``: unix time; timers sleep in real time.
    ``owns(guild_id)``: whether this process runs that guild's timers and computers.
    ``shared``: other processes share the storage (version checks before moves).

    Hooks for a front end that keeps state of its own per table (Discord); each
    defaults to nothing: ``rolled_back(table)``, a move's save failed and the table
    went back (show it again); ``paused(table)``, a sentence when the table takes no
    moves now (a closed Discord thread), else None; ``forgotten(table)``, the table
    is no longer held here (cancel the front end's own tasks for it)."""

    def __init__(
        self, storage: StorageBackend, games: GameRegistry, listener: TableListener, *,
        clock: Clock | None = None, owns: Any = None, shared: bool = False,
        rolled_back: Callable[[Table], Any] | None = None, paused: Callable[[Table], str | None] | None = None,
        forgotten: Callable[[Table], None] | None = None,
    ) -> None:
        self.storage, self.games, self.listener = storage, games, listener
        self.clock = clock if clock is not None else SystemClock()
        self._owns = owns
        self._closing = False
        self._forgotten = forgotten
        self.registry = TableRegistry(forgotten=self._forget)
        self.settings = GuildSettings(storage)
        self.lobby = Lobby(storage=storage, clock=self.clock, registry=self.registry, settings=self.settings)
        self.sync = Sync(storage=storage, shared=shared, registry=self.registry, load_state=self._load_state, arm=self._arm)
        self.moves = Moves(
            storage=storage, clock=self.clock, sync=self.sync, untrack=self.registry.untrack,
            rolled_back=rolled_back or (lambda table: None), paused=paused or (lambda table: None),
        )
        self.timers = Timers(
            moves=self.moves, clock=self.clock, owns=self.owns, closing=lambda: self._closing, seats=self,
            close_if_only_computers=self._close_if_only_computers, after_move=self._after_move, after_leaving=self._after_leaving,
        )

    # ------------------------------------------------------------ lobby

    def owns(self, guild_id: int | None) -> bool:
        return self._owns is None or bool(self._owns(guild_id))

    def tables(self) -> list[Table]:
        return self.registry.all()

    def table_at(self, guild_id: int, place: int) -> Table | None:
        """The lobby or game at a place (a channel, a thread, a terminal's one room)."""
        return self.registry.at(guild_id, place)

    async def open(self, guild_id: int, place: int, game: str, host: int, options: dict[str, Any] | None = None) -> Table:
        """A new lobby of ``game`` (a key: "idiot") at ``place``, its host seated."""
        spec = self.games.get(game)
        if spec is None:
            raise TableError(_("There is no game called {game} here.", game=repr(game[:40])))
        existing = self.registry.at(guild_id, place)
        if existing is not None:
            raise TableError(_("This place already has {table}: finish it or cancel it first.", table=existing.describe()))
        return await self.lobby.open(guild_id, place, spec, host, options)

    async def seat(self, table: Table, user: int, choice: str | None = None) -> None:
        async with table.lock:
            await self.lobby.seat(table, user, choice)

    async def seat_computer(self, table: Table, by: int, level: str = computer.OFFERED[0]) -> int:
        async with table.lock:
            return await self.lobby.seat_computer(table, by, level)

    async def begin(self, table: Table, by: int, seed: str | int | None = None) -> Outcome:
        """Start the game (the host only). ``seed`` None: a random deal."""
        if seed is None:
            import secrets

            seed = secrets.randbits(64)
        async with table.lock:
            current = await self.lobby.begin(table, by, str(seed))
            self._arm(table)
        return Outcome(list(table.state.opening_events) if table.state else [], current, False, current=current, version=table.record.version)

    # ------------------------------------------------------------ moves

    async def play(self, table: Table, user: int, action_code: str, version: int | None = None) -> Outcome:
        """``user`` plays ``action_code`` (an :class:`Action` code from :meth:`view`'s
        ``legal``). With ``version`` (the view's), a move chosen at an older moment
        is refused unless it is still legal and the player has not moved since."""
        async with table.lock:
            self._playing(table, user)
            try:
                action = table.spec.game.parse_action(action_code)
            except RuleError as error:
                raise TableError(str(error)) from None
            if version is not None and version != table.record.version and is_stale(table, user, version, action):
                raise TableError(_(STALE))
            outcome = await self._refusing(self.moves.apply(table, user, action, source="player"))
            self._arm_after(table, outcome)
            return outcome

    async def say(self, table: Table, user: int, text: str) -> Outcome:
        """Typed words as a move (Enid's rituals): refused when the rules do not want them."""
        if not table.spec.accepts_chat:
            raise TableError(_("{title} has nothing to say out loud.", title=table.spec.title))
        async with table.lock:
            self._playing(table, user)
            assert table.state is not None
            text = computer.addressed(text[:1900], table.state.players)  # "@Deckhand 2" addresses a computer seat
            outcome = await self._refusing(self.moves.apply(table, user, Action("say", arg=text), source="player", away=True))
            self._arm_after(table, outcome)
            return outcome

    async def leave_table(self, table: Table, user: int) -> Outcome | None:
        """Leave a lobby (None) or a running game (its Outcome; the game may close)."""
        async with table.lock:
            if table.status == "lobby":
                await self.lobby.unseat(table, user)
                return None
            state = table.state
            if state is None or table.status != "playing" or user not in state.players or user not in seated(state):
                raise TableError(_("You are not in this game."))
            try:
                outcome = await self.moves.remove(table, user, source="removal")
            except SaveFailed:
                raise TableError(_("The game moved on just then, so nothing changed. Please try again.")) from None
            if not await self._close_if_only_computers(table, outcome):
                self._arm_after(table, outcome)
            return outcome

    async def cancel_table(self, table: Table, by: int) -> None:
        if by != table.record.host_id:
            raise TableError(_("Only the host, {host}, can cancel this game.", host=computer.name(table.record.host_id)))
        async with table.lock:
            if table.status not in repos.ACTIVE:
                raise TableError(_("This game is already closed."))
            await self.lobby.close(table, "cancelled")

    def view(self, table: Table, user: int | None) -> SeatView:
        state = table.state
        recent = tuple(table.record.recent)
        owes = frozenset(int(p) for p, _ in table.record.obligations.values() if p is not None)
        if state is None:
            return SeatView(table.id, table.record.version, table.status, user, {}, (), frozenset(), owes, recent, False)
        seen = user if user is not None and user in state.players else None
        legal = tuple(state.legal_actions(seen)) if seen is not None and not state.is_over() else ()
        current = frozenset(state.current_players()) if not state.is_over() else frozenset()
        return SeatView(table.id, table.record.version, table.status, user, dict(state.observation(seen)), legal, current, owes, recent, state.is_over())

    # ------------------------------------------------------------ restore, close

    async def restore_all(self) -> list[Table]:
        """Bring back every unfinished table of the guilds this process owns, and arm
        their timers. A table that cannot be brought back is marked broken."""
        restored: list[Table] = []
        for guild_id in await self.storage.active_guilds():
            if not self.owns(guild_id):
                continue
            try:
                async with self.storage.reading(guild_id, create=False) as db:
                    rows = await repos.active_rows(db)
            except (GuildDataMissing, StorageError):
                continue
            for row in rows:
                try:
                    record = TableRecord.from_row(row)
                except BadRecord:
                    continue
                table = await self._restore(guild_id, record)
                if table is not None:
                    restored.append(table)
        return restored

    async def _restore(self, guild_id: int, record: TableRecord) -> Table | None:
        if self.registry.get(guild_id, record.id) is not None:
            return None
        spec = self.games.get(record.game)
        table = Table(guild_id, record, spec) if spec is not None else None
        if table is not None and record.status == "playing":
            table.state = await self._load_state(guild_id, record, table.spec)
        if table is None or (record.status == "playing" and table.state is None):
            async with self.storage.transaction(guild_id) as db:
                await repos.update_table(db, record.id, now=self.clock.now(), status="broken", deadline=None)
            return None
        self.registry.track(table)
        self._arm(table)
        return table

    async def close(self) -> None:
        """Stop every timer and computer task, and wait for them to end."""
        self._closing = True
        tasks = []
        for table in self.registry.all():
            tasks += [t for t in (table.timer, table.computer, *table.obligation_timers.values()) if t is not None and not t.done()]
            self._cancel(table)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------ the loop between timers and moves

    def _arm(self, table: Table) -> None:
        self.timers.arm(table)

    def _cancel(self, table: Table) -> None:
        self.timers.cancel(table)

    def _forget(self, table: Table) -> None:
        self._cancel(table)
        if self._forgotten is not None:
            self._forgotten(table)

    def _arm_after(self, table: Table, outcome: Outcome) -> None:
        if not outcome.over:
            self._arm(table)

    def _playing(self, table: Table, user: int) -> None:
        if table.status != "playing" or table.state is None:
            raise TableError(_("This game is not in play any more."))
        if user not in table.state.players:
            raise TableError(_("You are not playing in this game."))

    @staticmethod
    async def _refusing(move: Awaitable[Outcome]) -> Outcome:
        """A move asked for by a person: every failure becomes a sentence."""
        try:
            return await move
        except Stale:
            raise TableError(_(STALE)) from None
        except RuleError as error:
            raise TableError(str(error)) from None
        except SaveFailed:
            raise TableError(_("I could not save that move, so nothing changed. Please try again.")) from None

    async def _load_state(self, guild_id: int, record: TableRecord, spec: Any) -> Any:
        return await load_state(self.storage, self.clock, guild_id, record, spec, shared=self.sync.shared)

    async def _close_if_only_computers(self, table: Table, outcome: Outcome) -> bool:
        if outcome.over or table.state is None or not computer.only_computers_left(table.state):
            return False
        await self.lobby.close(table, "cancelled")
        return True

    # What computer seats (bot/core/computer.py) and timers report through: the
    # timers are armed again, then the listener is told.

    async def _after_move(self, table: Table, outcome: Outcome) -> None:
        self._arm_after(table, outcome)
        await self.listener.moved(table, outcome)

    async def _after_leaving(self, table: Table, outcome: Outcome, closed: bool) -> None:
        if closed:
            # The English sentence: the front end writes it in the table's language.
            await self.listener.closed(table, N_("Nobody but computer players was left, so the game was closed."))
            return
        await self._after_move(table, outcome)

    async def computer_said(self, table: Table, seat: int, text: str) -> None:
        await self.listener.said(table, seat, text)


__all__ = ["Event", "Outcome", "SeatView", "TableCore", "TableError", "TableListener"]
