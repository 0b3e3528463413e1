"""Moves: a click from a hand, typed words, a leave or a removal, applied in the
fixed order the package docstring (``bot/discord_front/tables/__init__.py``) sets out: the
table's lock, the rules, the commit, and only then what players see."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.discord_front import guard, votes
from bot.core import computer
from bot.core.moves import Checkpoint as _Checkpoint
from bot.core.moves import Outcome as _Outcome
from bot.core.moves import SaveFailed as _SaveFailed
from bot.core.moves import Stale as _Stale
from bot.core.moves import Moves
from bot.core.moves import is_stale as _is_stale
from bot.core.moves import seated as _seated
from bot.core.table import Table
from bot.core.settings import GuildSettings
from bot.core.sync import Sync
from bot.rules.engine import Action, RuleError
from bot.words.i18n import N_, _
from bot.discord_front.publish import HandMessage, Publisher, mentions, owers
from bot.discord_front.common import _reply

if TYPE_CHECKING:
    from bot.discord_front.tables.finder import Finder
    from bot.discord_front.tables.timers import TableTimers

__all__ = ["Clicks", "_Checkpoint", "_Outcome", "_SaveFailed", "_Stale", "out_of_turn_notice"]

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module

STALE_CLICK = N_("⚠️ That button was from an earlier moment in the game, so nothing was played. Here is your hand now.")
#: A click from a hand whose earlier click was played (its answer lost: "This interaction failed").
PLAYED_CLICK = N_("✅ Your move was played (from this hand, before): this click played nothing more. Here is your hand now.")
MAX_WAIT_FOR_LOCK = 1.0  # with the database's own bounded wait, a move is answered (or deferred) within 3 s
#: A click that waits behind other moves is deferred first, so it may wait its turn this long.
MAX_WAIT_IN_QUEUE = 60.0
#: Moves played at once in the process (each at its own table). More clicks wait,
#: deferred, for a slot: the event loop's backlog stays a few moves long, so a new
#: click's deferral is never stuck behind seconds of other moves' work.
MOVES_AT_ONCE = 8


class Clicks:
    """A move from a click (a hand's control, a vote), typed words, a leave: the entry
    (the click's deadline, the server check, the table's lock), the core's move (rules,
    commit), then what players see, handed to the publisher. Handed the finder
    (lookups), the core's :class:`bot.core.moves.Moves` and :class:`bot.core.sync.Sync`,
    the publisher, the server settings (hands in DMs), the timers, the core lobby's
    ``close(table, status)`` and ``closed(table, why)`` (``LobbyMessages.closed``: the
    board and the lobby message say why a game closed)."""

    def __init__(
        self, *, finder: Finder, moves: Moves, sync: Sync, publisher: Publisher, settings: GuildSettings, timers: TableTimers,
        close: Callable[[Table, str], Awaitable[None]], closed: Callable[[Table, str], Awaitable[None]],
    ) -> None:
        self.finder, self.moves, self.sync, self.publisher, self.settings, self.timers = finder, moves, sync, publisher, settings, timers
        self._close, self._closed = close, closed
        self._move_slots: asyncio.Semaphore | None = None

    @property
    def move_slots(self) -> asyncio.Semaphore:
        """At most :data:`MOVES_AT_ONCE` clicked moves played at a time (created on first use, in the loop)."""
        if self._move_slots is None:
            self._move_slots = asyncio.Semaphore(MOVES_AT_ONCE)
        return self._move_slots

    async def act(self, interaction: discord.Interaction, guild_id: int, table_id: int, version: int, code: str) -> None:
        """A move from a hand message (ephemeral or DM)."""
        deadline = await guard.arrive(interaction, busy=self.move_slots.locked())
        if deadline is None:
            # Delivered late (a gateway RESUME's replay) and Discord no longer takes its
            # acknowledgement: the move is not played (no ghost move); their hand still offers it.
            log.info("A click on table %s in guild %s reached me %.1f s after it was made and can no longer be answered: not played",
                     table_id, guild_id, guard.age(interaction))
            return
        try:
            await self._act(interaction, guild_id, table_id, version, code)
        finally:
            deadline.stop()

    async def lock_or_busy(self, interaction: discord.Interaction, table: Table) -> bool:
        """Take the table's lock for a click (the caller releases it), or answer that the
        table is busy: a click must be answered within Discord's 3 s."""
        wait = MAX_WAIT_FOR_LOCK
        # Moves at a table queue behind the one in progress, in arrival order (an
        # asyncio.Lock is first come, first served); deferred first, a click can
        # wait its turn without its answer ever being late.
        ahead = table.lock.locked() or table.clicks_in_line > 0
        table.clicks_in_line += 1
        try:
            if ahead and await guard.defer_now(interaction):
                wait = MAX_WAIT_IN_QUEUE
            if not ahead and not guard.behind():
                # Nobody ahead: taken at once, bounded all the same (a waiter being woken
                # may still hold its turn). asyncio.timeout adds a timer, not a task.
                async with asyncio.timeout(wait):
                    await table.lock.acquire()
            else:
                # Behind, the bounded wait's turn of the loop is kept: other clicks'
                # deferrals go out before this move's work.
                await asyncio.wait_for(table.lock.acquire(), wait)
        except TimeoutError:
            await _reply(interaction, _("The game is busy with another move; try again in a moment."))
            return False
        finally:
            table.clicks_in_line -= 1
        return True

    async def _table_locked(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> Table | None:
        """The table a click names, with its lock taken (the caller releases it); None
        when the click was answered instead (no such game here, or the table is busy)."""
        table = await self.finder.table_or_reply(interaction, guild_id, table_id)
        if table is None or not await self.lock_or_busy(interaction, table):
            return None
        return table

    async def _act(self, interaction: discord.Interaction, guild_id: int, table_id: int, version: int, code: str) -> None:
        table = await self._table_locked(interaction, guild_id, table_id)
        if table is None:
            return
        user = interaction.user.id
        slots = self.move_slots
        if slots.locked():
            await guard.defer_now(interaction)  # waits for a slot: deferred first
        try:
            await slots.acquire()
        except BaseException:
            table.lock.release()
            raise
        try:
            guard.measure()  # the turn that includes this move's own work
            answer, moved = await self._act_locked(table, user, version, code, dm=interaction.guild_id is None)
        finally:
            slots.release()
            table.lock.release()
        # The click is answered outside the lock: a slow answer (discord.py sleeping
        # through a rate limit) holds up no other move and no timer.
        await self.publisher.answer_click(interaction, table, user, answer, moved=moved, version=version)

    async def _act_locked(self, table: Table, user: int, version: int, code: str, *, dm: bool) -> tuple[str | HandMessage, bool]:
        """The move itself, under the table's lock: what to answer (a refusal, or the
        player's hand as it now is) and whether it was played. Nothing is sent from here."""
        await self.sync.sync(table)
        if table.status != "playing" or table.state is None:
            return _("This game is not in play any more."), False
        if user not in table.state.players:
            return _("You are not playing in this game."), False
        try:
            action = table.spec.game.parse_action(code)
        except RuleError as error:
            return str(error), False
        if version != table.record.version and _is_stale(table, user, version, action):
            return await self._stale_hand(table, user, action, dm=dm, version=version), False
        try:
            outcome = await self._apply(table, user, action, source="player", synced=True)
        except _Stale:
            # Another process committed a move first: this one never happened.
            if table.status != "playing" or table.state is None:
                return _("This game is not in play any more."), False
            return await self._stale_hand(table, user, action, dm=dm), False
        except RuleError as error:
            return str(error), False
        except _SaveFailed:
            return _("I could not save that move, so nothing changed. Please try again."), False
        guard.measure()
        # The presenter: the player's hand as it now is (the click's answer), and the move
        # queued on the table's show task (sent once the lock is let go). Then the timers.
        hand = await self.publisher.after_click(table, user, outcome, dm=dm)
        if not outcome.over:
            self.timers.arm(table)
        return hand, True

    async def _stale_hand(self, table: Table, user: int, action: Action | None, *, dm: bool, version: int | None = None) -> HandMessage:
        if version is not None and table.clicked_from.get(user) == version:
            # The player's earlier click from this very hand was played; its answer was
            # lost (10062, 40060), so the hand still shows the moment before it.
            return await self.publisher.hand_message(table, user, notice=_(PLAYED_CLICK), dm=dm)
        notice = out_of_turn_notice(table, user, action)
        # The hand's own status line stays when it has more to say ("You may act now": a
        # Challenge, a vote); "Waiting for @bob" would only repeat the notice.
        status = notice is None or bool(table.state is not None and table.state.legal_actions(user))
        return await self.publisher.hand_message(table, user, notice=notice or _(STALE_CLICK), status=status, dm=dm)

    async def play_as(self, table: Table, user: int, action: Action, *, source: str) -> _Outcome:
        """A move without an interaction (typed chat, tests). Caller holds no lock."""
        typed = action.kind == "say"  # words typed in the channel (bot/discord_front/tables/chat.py)
        async with table.lock:
            outcome = await self._apply(table, user, action, source=source, away=typed)
            await self.after_move(table, outcome)
            if typed:
                await self.redraw_own_hand(table, user, outcome)
            return outcome

    async def _apply(self, table: Table, user: int, action: Action, *, source: str, synced: bool = False, away: bool = False) -> _Outcome:
        """Apply and commit one action through the core (caller holds the lock); see
        :meth:`bot.core.moves.Moves.apply`."""
        return await self.moves.apply(table, user, action, source=source, synced=synced, away=away)

    async def redraw_own_hand(self, table: Table, user: int, outcome: _Outcome) -> None:
        """After a move the player made away from their hand (typed words, a vote):
        their open hand still shows the moment before it ("Now type “Last card”",
        "Your move: vote"), so it is drawn again now. Not when the publish just did
        (they became current, or the game ended)."""
        if outcome.over or user in outcome.newly_current or table.state is None:
            return
        publisher = self.publisher
        if await self.settings.hands_in_dm(table.guild_id, user) and not publisher.dms_closed(table, user):
            await publisher.refresh_dm_hand(table, user)  # an edit: no notification
        else:
            await publisher.update_live_hand(table, user)  # the ephemeral hand, through its token

    async def after_move(self, table: Table, outcome: _Outcome, *, actor: int | None = None) -> None:
        """Arm the timers and ask for the move to be shown. Sends nothing itself, so it
        may be called with the lock held: the table's show task does the showing
        (``Publisher.show``), then tells the other processes."""
        if not outcome.over:
            self.timers.arm(table)
        self.publisher.show_move(table, outcome, actor=actor)

    async def leave_game(self, interaction: discord.Interaction, table: Table, target: int | None = None) -> None:
        """A player leaves a running game, or is removed by the host / a manager."""
        user = target if target is not None else interaction.user.id
        async with guard.in_time(interaction):
            if not await self.lock_or_busy(interaction, table):
                return
            try:
                outcome, closed = await self._leave_locked(interaction, table, user, target)
            finally:
                table.lock.release()
        if outcome is None:
            return
        who = _("You left the {title} game.", title=table.spec.title) if target is None else _("{player} was removed from the {title} game.", player=f"<@{user}>", title=table.spec.title)
        await _reply(interaction, who, ephemeral=target is None)
        await self._after_leaving(table, outcome, closed)

    async def _leave_locked(self, interaction: discord.Interaction, table: Table, user: int, target: int | None) -> tuple[_Outcome | None, bool]:
        """The leave itself (caller holds the lock); (None, False) when refused (answered)."""
        if table.state is None or table.status != "playing" or user not in table.state.players or user not in _seated(table.state):
            await _reply(interaction, _("That player is not in this game.") if target else _("You are not in this game."))
            return None, False
        try:
            outcome = await self._remove(table, user, source="removal")
        except _SaveFailed:
            await _reply(interaction, _("The game moved on just then, so nothing changed. Please try again."))
            return None, False
        return outcome, await self._close_if_only_computers(table, outcome)

    async def _close_if_only_computers(self, table: Table, outcome: _Outcome) -> bool:
        """After a seat emptied (caller holds the lock): computers do not finish a game
        among themselves, so a game with no person left playing is closed (cancelled,
        no results). True if it was."""
        if outcome.over or table.state is None or not computer.only_computers_left(table.state):
            return False
        await self._close(table, "cancelled")
        return True

    async def _after_leaving(self, table: Table, outcome: _Outcome, closed: bool) -> None:
        if not closed:
            await self.after_move(table, outcome)
            return
        await self._closed(table, N_("Nobody but computer players was left, so the game was closed."))

    async def _remove(self, table: Table, user: int, *, source: str) -> _Outcome:
        return await self.moves.remove(table, user, source=source)

    async def cast_vote(self, interaction: discord.Interaction, guild_id: int, table_id: int, vote_id: str, code: str) -> None:
        """A click on a vote message's button (bot/discord_front/votes.py)."""
        deadline = guard.Deadline.start(interaction)
        try:
            await self._cast(interaction, guild_id, table_id, vote_id, code)
        finally:
            deadline.stop()

    async def _cast(self, interaction: discord.Interaction, guild_id: int, table_id: int, vote_id: str, code: str) -> None:
        table = await self._table_locked(interaction, guild_id, table_id)
        if table is None:
            return
        user = interaction.user.id
        try:
            refused: str | None = None
            outcome = None
            if table.status != "playing" or table.state is None:
                refused = _("This game is not in play any more, so that vote is closed.")
            else:
                refused = votes.refusal(votes.open_ballots(table), vote_id, user, code)
            if refused is None:
                try:
                    action = table.spec.game.parse_action(code)
                    # Away from the voter's hand: it does not make their open hand stale.
                    outcome = await self._apply(table, user, action, source="player", away=True)
                except RuleError as error:
                    refused = str(error)
                except _SaveFailed:
                    refused = _("I could not save your vote, so nothing changed. Please try again.")
        finally:
            table.lock.release()
        # Answered outside the lock (a rate limit's retry holds up no move), in turn with
        # the table's show task, which shows votes too.
        if outcome is None:
            await guard.answer(interaction, refused or _("Nothing changed."))
            return
        async with table.showing:
            before = json.dumps(table.record.publish.get("votes"), sort_keys=True)
            answered = await votes.sync(self.publisher.place(table), table, outcome.events, interaction=interaction)
            if not answered:
                await guard.answer(interaction, _("Your vote is counted."))
            if json.dumps(table.record.publish.get("votes"), sort_keys=True) != before:
                await self.publisher.save_publish(table)  # the publish below sees no change to save
        # The click was on the vote message, not the voter's hand: the publish tells them
        # as anyone else if the vote made them current, and their open hand, which still
        # says "Vote on the limerick", is drawn again.
        await self.after_move(table, outcome)
        await self.redraw_own_hand(table, user, outcome)


def out_of_turn_notice(table: Table, user: int, action: Action | None = None) -> str | None:
    """The answer to a click from an older hand when it is not the player's turn
    (someone else must act now, and ``action`` is of no kind the player may do now):
    say so, rather than that the button is stale. None: the click was stale for
    another reason (it is their turn, or nobody's, or the player may still do that
    kind of thing, e.g. an Enid Challenge from a hand their own draw made stale)."""
    state = table.state
    assert state is not None
    current = sorted(state.current_players())
    if not current:
        owing = [p for p in owers(table) if p != user]
        if not owing or user in owers(table):
            return None
        return _("⚠️ Nothing was played: the game waits for {players} to type what they owe. "
                 "You will be told when it is your move.", players=mentions(owing))
    if user in current:
        return None
    if action is not None and action.kind in {a.kind for a in state.legal_actions(user)}:
        return None
    if len(current) > 1:  # a phase where several choose at once (Engines' picks, Idiot's swaps)
        return _("⚠️ Nothing was played: {players} still have to move, not you. You will be told when it is your move.", players=mentions(current))
    return _("⚠️ It is {players}'s turn, not yours, so nothing was played. You will be told when it is your move.", players=mentions(current))
