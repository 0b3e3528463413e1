"""A replay opened from storage by (guild, table id), whatever asks: a Discord button
after a restart, a forged custom_id, ``deckhand replay``.

The guild is the caller's (on Discord, the interaction's server: never a number a
button carries), so a table id can only ever open a game of that server. Everything
that is not a finished game with its moves kept is one sentence (:class:`NoReplay`):
no such game, still in play, cancelled, its moves deleted by the server's retention
setting (``/settings keep-moves``), or moves the rules no longer replay.

Opening reads two small things (the table's row and how many moves are logged) and,
unless :class:`ReplayShelf` still holds the replay, the log, which the rules then play
in a worker thread (a 300-move game is some tens of milliseconds of CPU). The shelf's
key carries the seats and the number of moves logged, so a replay is never served
after ``/privacy forget`` rewrote its players or the purge deleted its moves.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from bot.players import privacy
from bot.core.games import GameRegistry
from bot.words.i18n import _, ngettext
from bot.replay.steps import NoReplay, Replay, ReplayBroken, build
from storage import StorageBackend, repos
from storage.db import GuildDataMissing
from storage.repos import BadRecord, TableRecord

__all__ = ["NoReplay", "ReplayBroken", "ReplayShelf", "open_replay"]


async def open_replay(storage: StorageBackend, games: GameRegistry, guild_id: int, table_id: int, *, shelf: ReplayShelf | None = None) -> Replay:
    """The replay of game ``table_id`` of server ``guild_id``. Raises :class:`NoReplay`
    with a sentence for a person when there is none (and StorageError when the
    server's data cannot be read at all)."""
    if not isinstance(table_id, int) or isinstance(table_id, bool) or not 0 < table_id < 1 << 62:
        raise NoReplay(_("There is no game #{id} in this server.", id=str(table_id)[:20]))
    try:
        async with storage.reading(guild_id, create=False) as db:
            record = await repos.get_table(db, table_id)
            if record is None:
                raise NoReplay(_("There is no game #{id} in this server.", id=table_id))
            logged = await repos.last_action_seq(db, table_id)
            spec = _playable(games, record)
            key = (guild_id, table_id, tuple(record.players), logged, record.version)
            kept = shelf.get(key) if shelf is not None else None
            if kept is not None:
                return kept
            if record.version and not logged:
                days = (await privacy.policy(db)).moves_kept_days
                raise NoReplay(ngettext(
                    "The moves of {title} #{id} are no longer kept: this server keeps a finished game's moves for {n} day "
                    "(/settings keep-moves), so it cannot be replayed. Its result still counts in /stats.",
                    "The moves of {title} #{id} are no longer kept: this server keeps a finished game's moves for {n} days "
                    "(/settings keep-moves), so it cannot be replayed. Its result still counts in /stats.",
                    days, title=spec.title, id=table_id))
            if logged != record.version:
                raise ReplayBroken(_("Some moves of {title} #{id} are missing from its record, so it cannot be replayed.", title=spec.title, id=table_id))
            log = await repos.actions_for(db, table_id)
    except GuildDataMissing:
        raise NoReplay(_("There is no game #{id} in this server.", id=table_id)) from None
    except BadRecord:
        raise NoReplay(_("The stored record of game #{id} is damaged, so it cannot be replayed.", id=table_id)) from None
    replay = await asyncio.to_thread(build, spec, record, log, guild_id=guild_id)
    if shelf is not None:
        shelf.put(key, replay)
    return replay


def _playable(games: GameRegistry, record: TableRecord) -> Any:
    """The game's spec, if the record is a finished game this bot runs."""
    spec = games.get(record.game)
    title = spec.title if spec is not None else record.game
    if record.status in repos.ACTIVE:
        raise NoReplay(_("{title} #{id} is still being played: its replay opens once it ends.", title=title, id=record.id))
    if record.status != "finished":
        raise NoReplay(_("{title} #{id} did not finish (it was cancelled or broke off), so there is nothing to replay.", title=title, id=record.id))
    if spec is None:
        raise NoReplay(_("This bot no longer runs {game}, so game #{id} cannot be replayed.", game=record.game, id=record.id))
    return spec


class ReplayShelf:
    """The replays opened lately, by what they were built from (see the module's
    docstring), least recently used out first. A replay holds its steps' spectator
    observations (a few kB each), so the shelf is bounded in steps, not replays."""

    def __init__(self, max_steps: int = 4000) -> None:
        self.max_steps = max_steps
        self._kept: OrderedDict[tuple[Any, ...], Replay] = OrderedDict()
        self._steps = 0

    def get(self, key: tuple[Any, ...]) -> Replay | None:
        replay = self._kept.get(key)
        if replay is not None:
            self._kept.move_to_end(key)
        return replay

    def put(self, key: tuple[Any, ...], replay: Replay) -> None:
        old = self._kept.pop(key, None)
        if old is not None:
            self._steps -= len(old)
        self._kept[key] = replay
        self._steps += len(replay)
        while self._steps > self.max_steps and len(self._kept) > 1:
            _key, dropped = self._kept.popitem(last=False)
            self._steps -= len(dropped)

    def __len__(self) -> int:
        return len(self._kept)

