"""Computer players at the table (issue 12): how their seats play.

A computer moves through the same path as a person (lock -> apply -> commit ->
publish), from its own :class:`bot.ai.PlayerView` only. :func:`schedule` is called
whenever the table's timers are (re-)armed, i.e. at Start, after every committed
move and after a restore: if a computer seat must act, one task waits the server's
pause, thinks in a worker thread (never holding the table lock), then applies. If
the game moved on meanwhile the move is re-decided from a fresh view.

The seats themselves (their ids, levels and names, the replace-leavers house rule) are
``bot/core/seats.py``; they are named here too (``computer.name``,
``computer.is_computer``...), as the front ends call them.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import TYPE_CHECKING, Protocol

from bot.ai import DEFAULT_LEVEL, DEFAULT_SECONDS, LEVELS, Budget, PlayerView, decide, game_ai, has_ai
from bot.core.errors import SaveFailed
from bot.core.seats import (  # noqa: F401  (the seats as the front ends name them: computer.name...)
    OFFERED, REPLACE_LEAVERS, add_refusal, addressed, computer_id, humans, is_computer, level_of, name, new_seat,
    offers_replacement, only_computers_left, seated, spoken,
)
from bot.rules.engine import Game, RuleError
from storage import repos

if TYPE_CHECKING:
    from bot.core.moves import Moves, Outcome
    from bot.core.table import Table
    from storage import StorageBackend

log = logging.getLogger(__name__)

DEFAULT_PAUSE = 1.5
MAX_PAUSE = 10.0
#: Re-decisions when the game moved on while a computer was thinking.
ATTEMPTS = 5


class Seats(Protocol):
    """What a computer seat needs from the table core (bot/core/facade.py): its
    storage (the server's pause), whether this process holds the guild's shard, the
    core's moves, and where to report a move and its words (the core re-arms the
    timers and tells its front end's listener: ``moved``, ``said``)."""

    storage: StorageBackend
    moves: Moves

    def owns(self, guild_id: int | None) -> bool: ...

    async def _after_move(self, table: Table, outcome: Outcome) -> None: ...

    async def computer_said(self, table: Table, seat: int, text: str) -> None: ...


async def pause_seconds(manager: Seats, guild_id: int) -> float:
    async with manager.storage.reading(guild_id) as db:
        value = await repos.get_guild_setting(db, "bot_pause", DEFAULT_PAUSE)
    return float(value) if isinstance(value, int | float) and 0 <= value <= MAX_PAUSE else DEFAULT_PAUSE


def _movers(table: Table) -> list[int]:
    state = table.state
    if state is None or table.status != "playing" or state.is_over():
        return []
    current = state.current_players()
    movers = [p for p in sorted(current, reverse=True) if is_computer(p)]
    # Seats that are not current may still owe something (Enid's rituals): they speak first.
    owing = [p for p in sorted(state.players, reverse=True) if is_computer(p) and p not in current and _owes(state, p)]
    return owing + movers


def _owes(state: Game, seat: int) -> bool:
    """Whether a computer seat must act although it may not be current (a ritual)."""
    hook = game_ai(state.key).owes if has_ai(state.key) else None
    return hook is not None and hook(state.observation(seat), seat)


def schedule(manager: Seats, table: Table) -> None:
    """Start (or leave running) the task that plays this table's computer seats.
    Only in the process that owns the guild's shard, like the turn timers."""
    if not manager.owns(table.guild_id) or not _movers(table):
        return
    task = table.computer
    if task is not None and not task.done() and task is not asyncio.current_task():
        return
    table.computer = asyncio.create_task(_play(manager, table), name=f"deckhand-computer-{table.guild_id}-{table.id}")


#: Games whose computer player's ``warm_up`` already ran in this process.
_WARM: set[str] = set()


async def _warm_up(key: str) -> None:
    hook = game_ai(key).warm_up
    if key not in _WARM and hook is not None:
        await asyncio.to_thread(hook)  # off the event loop, before the first decision's clock starts
    _WARM.add(key)


async def _play(manager: Seats, table: Table) -> None:
    if table.state is not None:
        await _warm_up(table.state.key)
    await asyncio.sleep(await pause_seconds(manager, table.guild_id))
    only: int | None = None
    failures = 0  # refused or unsaved moves; a position that moved on is no failure
    while failures < ATTEMPTS:
        # Think once the last move is shown (the table's show task, bot/discord_front/publish.py): the
        # picture drawn meanwhile in a worker thread would eat into the decision's time.
        shown = table.show_task
        if shown is not None and not shown.done():
            await asyncio.wait({shown})
        movers = _movers(table)
        if only is not None and table.state is not None:
            movers = [p for p in movers if p == only and _owes(table.state, p)]
        if not movers:
            return
        seat, version = movers[0], table.record.version
        assert table.state is not None
        view = PlayerView.of(table.state, seat)
        if not view.legal and not _owes(table.state, seat):
            return
        level = level_of(seat) if level_of(seat) in LEVELS else DEFAULT_LEVEL
        # Seeded by table, version and seat: a replayed position gets the same decision.
        rng = random.Random(f"{table.guild_id}:{table.id}:{version}:{seat}")
        action = await asyncio.to_thread(decide, view, level, rng, budget=Budget.timed(time.perf_counter, DEFAULT_SECONDS))
        async with table.lock:
            if table.status != "playing" or table.state is None or table.record.version != version:
                continue  # someone moved meanwhile: think again from the new position
            try:
                outcome = await manager.moves.apply(table, seat, action, source="computer")
            except RuleError:
                log.warning("Computer %s at table %s chose a refused move %s", seat, table.id, action.code())
                failures += 1
                continue
            except SaveFailed:
                failures += 1
                await asyncio.sleep(1.0)
                continue
            table.computer = None  # so the next move's schedule starts a fresh task
            if action.kind == "say":
                await manager.computer_said(table, seat, str(action.arg))
            await manager._after_move(table, outcome)
        if action.kind != "say" and table.status == "playing" and table.state is not None and _owes(table.state, seat):
            # A person says "Last card" as they lay: words owed for its own move follow
            # at once, not after the pause (the next player could move first).
            only = seat
            continue
        return


