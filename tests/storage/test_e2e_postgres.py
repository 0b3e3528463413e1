"""The bot on PostgreSQL (``DATABASE_URL``), end to end through SimCord with the toy
game: a table opens, moves are saved, a restart brings it back from the database and
its old buttons keep working, and the finished game's results are there."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.discord_front.app import DeckhandBot
from bot.config import Settings
from bot.discord_front.tables import until_restored
from storage import repos
from tests.e2e.ui import game_place
from tests.e2e.world import TOY, world


def postgres_bot(data_dir: Path, dsn: str) -> DeckhandBot:
    settings = Settings(token="not-a-real-token", data_dir=data_dir, log_level=logging.INFO, database_url=dsn)
    return DeckhandBot(settings, extensions=TOY)


@pytest.fixture
def simcord_bot(data_dir, postgres_dsn):
    return postgres_bot(data_dir, postgres_dsn)


async def move(env, channel, members):
    """The current player discards a card through their hand's select, opened from the
    newest message in the game's thread (posted by whichever process came before)."""
    (table,) = env.bot.tables.tables()
    (pid,) = table.state.current_players()
    player = next(m for m in members if m.id == pid)
    hand = await player.click(game_place(channel).last_message, label="Show hand")
    code = next(a.code() for a in table.state.legal_actions(pid) if a.kind == "play")
    await player.select(hand.response.message, [code])
    return table


async def test_a_game_on_postgresql_survives_a_restart(simcord_env, data_dir, postgres_dsn):
    env = simcord_env
    guild, channel, members = world(env, 2)
    assert env.bot.storage.dialect == "postgresql"
    assert not (data_dir / "guilds").exists()  # no SQLite file is made

    lobby = (await members[0].slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    table = await move(env, channel, members)
    before_state, before_version = table.state.to_json(), table.record.version
    assert before_version == 1

    old = env.bot
    await env.restart_bot(postgres_bot(data_dir, postgres_dsn))
    await old.tables.close()
    await old.storage.close()
    await until_restored(env.bot)
    (restored,) = env.bot.tables.tables()
    assert restored is not table
    assert restored.state.to_json() == before_state and restored.record.version == before_version

    while env.bot.tables.tables():
        await move(env, channel, members)
    async with env.bot.storage.reading(guild.id) as db:
        (finished,) = [r for r in [await repos.get_table(db, restored.record.id)] if r]
        standings = await repos.leaderboard(db, "toy")
        moves = await repos.actions_for(db, restored.record.id)
    assert finished.status == "finished" and len(moves) == finished.version
    assert sorted(s.user_id for s in standings) == sorted(m.id for m in members)
    assert sum(s.wins for s in standings) == 1
