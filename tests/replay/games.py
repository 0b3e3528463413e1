"""Finished games for the replay tests, played through the table core into SQLite, as
the bot plays them: seeded legal moves (Enid's rituals typed through ``core.say``, as
tests/core/test_core_games.py plays them). While it plays, a :class:`Played` keeps what
the live table showed after every move: the spectator observation and the table's log
lines, to check a replay against the same moments."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core import computer
from bot.core.facade import TableCore
from bot.core.table import Table
from cogs import catalog
from storage import StorageBackend, open_storage, repos
from tests.core.test_core_games import FakeClock as Clock, Listener

GUILD, PLACE = 7, 70
#: People as Discord ids (17+ digits, as bot/players/privacy.py expects of a person's id).
PEOPLE = (301_234_567_890_123_411, 301_234_567_890_123_412, 301_234_567_890_123_413, 301_234_567_890_123_414)
MAX_MOVES = 3000


@dataclass
class Played:
    """A finished game and what the live table showed after each move (index 0: the
    deal): the spectator observation, and the table's log (its last lines, as
    ``record.recent`` keeps them)."""

    table_id: int
    players: list[int]
    seen: list[dict[str, Any]] = field(default_factory=list)
    recent: list[list[str]] = field(default_factory=list)

    def keep(self, table: Table) -> None:
        self.seen.append(copy.deepcopy(table.state.observation(None)))  # a later move may change the engine's own lists
        self.recent.append(list(table.record.recent))


def _next_move(table: Table, rng: random.Random) -> tuple[int, str, str]:
    state = table.state
    assert state is not None
    if table.spec.key == "enid":
        player, action = state.random_move(rng, right=0.85, wrong=0.15)
        return (player, "say", str(action.arg)) if action.kind == "say" else (player, "play", action.code())
    player = rng.choice(sorted(state.current_players()))
    return player, "play", rng.choice(state.legal_actions(player)).code()


async def play_game(
    storage: StorageBackend, key: str, *, seats: int = 3, seed: Any = 5, options: dict[str, Any] | None = None,
    rng_seed: Any = None, people: tuple[int, ...] = PEOPLE, guild: int = GUILD, place: int = PLACE, leave_at: int | None = None,
) -> Played:
    """A whole game of ``key`` through the core into ``storage``, moves chosen from
    ``rng_seed``. ``leave_at``: after that many moves, the player to move leaves the
    game (a computer takes their seat where the house rule says so)."""
    core = TableCore(storage, catalog.registry(), Listener(), clock=Clock())
    try:
        async with storage.transaction(guild) as db:
            await repos.set_guild_setting(db, "bot_pause", 0)
        table = await core.open(guild, place, key, people[0], options or {})
        for person in people[1:seats]:
            await core.seat(table, person)
        await core.begin(table, people[0], seed=seed)
        played = Played(table.id, list(table.record.players))
        played.keep(table)
        rng = random.Random(f"{key}-{seed}" if rng_seed is None else rng_seed)
        for moves in range(MAX_MOVES):
            if table.status != "playing":
                break
            if any(computer.is_computer(p) for p in table.state.current_players()) and table.computer is not None:
                version = table.record.version
                await table.computer  # a computer that took a leaver's seat moves by itself
                if table.record.version != version:
                    played.keep(table)
                continue
            player, how, what = _next_move(table, rng)
            if moves == leave_at:
                await core.leave_table(table, player)
            elif how == "say":
                await core.say(table, player, what)
            else:
                await core.play(table, player, what, core.view(table, player).version)
            played.keep(table)
        assert table.status == "finished", f"{key} did not finish"
        return played
    finally:
        await core.close()


async def finished(data_dir: Path, key: str, **kwargs: Any) -> tuple[StorageBackend, Played]:
    """A storage on ``data_dir`` holding one finished game of ``key``."""
    storage = open_storage(data_dir)
    played = await play_game(storage, key, **kwargs)
    return storage, played


async def record_and_log(storage: StorageBackend, table_id: int, guild: int = GUILD) -> tuple[Any, list[tuple[int, str, str]]]:
    async with storage.reading(guild) as db:
        return await repos.get_table(db, table_id), await repos.actions_for(db, table_id)
