"""Whole games of every kind through the table core's API alone: no Discord, no
SimCord. SQLite in a tmp folder, a fake clock, seeded moves (the rules' own random
legal moves; Enid's rituals typed through ``core.say``), and a restart from storage
mid-game: a new TableCore on the same data folder restores the table and the game
goes on to its end."""

from __future__ import annotations

import random

import pytest

from bot.core.facade import TableCore
from bot.core.moves import Outcome
from bot.core.table import Table, TableError
from cogs import catalog
from storage import open_storage

GUILD, PLACE = 7, 70
HOST, OTHERS = 11, (12, 13)
MAX_MOVES = 3000


class FakeClock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def now(self) -> float:
        return self.t


class Listener:
    def __init__(self) -> None:
        self.moves: list[Outcome] = []
        self.words: list[str] = []
        self.endings: list[str] = []

    async def moved(self, table: Table, outcome: Outcome) -> None:
        self.moves.append(outcome)

    async def said(self, table: Table, seat: int, text: str) -> None:
        self.words.append(text)

    async def closed(self, table: Table, why: str) -> None:
        self.endings.append(why)


CASES = [
    ("blackjack", 3, {}),
    ("idiot", 3, {}),
    ("engines", 2, {}),
    ("onion", 3, {}),
    ("enid", 3, {"mode": "enid"}),
]


async def _core(data_dir, clock) -> tuple[TableCore, Listener, object]:
    storage = open_storage(data_dir)
    listener = Listener()
    return TableCore(storage, catalog.registry(), listener, clock=clock), listener, storage


def _next_move(table: Table, rng: random.Random) -> tuple[int, str, str]:
    """(player, how, what): a seeded legal move; Enid's are the rules' own self-play
    moves with every ritual answered right (typed words go through ``say``)."""
    state = table.state
    assert state is not None
    if table.spec.key == "enid":
        player, action = state.random_move(rng, right=1.0, wrong=0.0)
        if action.kind == "say":
            return player, "say", str(action.arg)
        return player, "play", action.code()
    player = rng.choice(sorted(state.current_players()))
    return player, "play", rng.choice(state.legal_actions(player)).code()


async def _play_until(core: TableCore, table: Table, rng: random.Random, stop: int) -> int:
    """Play seeded moves through the core until ``stop`` moves were made or the game ended."""
    made = 0
    while table.status == "playing" and made < stop:
        player, how, what = _next_move(table, rng)
        version = core.view(table, player).version
        if how == "say":
            outcome = await core.say(table, player, what)
        else:
            outcome = await core.play(table, player, what, version)
        assert outcome.version == version + 1
        made += 1
    return made


@pytest.mark.parametrize("game, seats, options", CASES, ids=[c[0] for c in CASES])
async def test_a_whole_game_through_the_core_with_a_restart_midway(tmp_path, game, seats, options):
    clock = FakeClock()
    core, listener, storage = await _core(tmp_path / "data", clock)
    table = await core.open(GUILD, PLACE, game, HOST, options)
    assert core.table_at(GUILD, PLACE) is table and table.status == "lobby"
    for user in OTHERS[: seats - 1]:
        await core.seat(table, user)
    with pytest.raises(TableError, match="Only the host"):
        await core.begin(table, OTHERS[0])
    first = await core.begin(table, HOST, seed=5)
    assert table.status == "playing" and first.current == table.state.current_players()
    view = core.view(table, HOST)
    assert view.observation and view.status == "playing"

    rng = random.Random(f"{game}-1")
    made = await _play_until(core, table, rng, 15)
    assert made == 15 and table.status == "playing", "the game should still be on at the restart"
    version = table.record.version

    # A refusal changes nothing and says why in a sentence.
    bystander = 99
    with pytest.raises(TableError, match="not playing"):
        await core.play(table, bystander, "pickup")
    assert table.record.version == version

    # Restart: a new core on the same data folder brings the table back.
    await core.close()
    await storage.close()
    core, listener, storage = await _core(tmp_path / "data", clock)
    restored = await core.restore_all()
    assert [t.id for t in restored] == [table.id]
    table = restored[0]
    assert table.record.version == version and table.status == "playing"

    made = await _play_until(core, table, rng, MAX_MOVES)
    assert table.status == "finished", f"{game} did not finish in {MAX_MOVES} more moves"
    assert core.view(table, HOST).over
    assert core.table_at(GUILD, PLACE) is None  # a finished table is forgotten
    async with storage.reading(GUILD) as db:
        rows = await db.execute_fetchall("SELECT COUNT(*) FROM results WHERE table_id = ?", (table.id,))
    assert rows[0][0] >= 2
    await core.close()
    await storage.close()


async def test_computer_seats_play_a_whole_game_and_are_reported_to_the_listener(tmp_path):
    clock = FakeClock()
    core, listener, storage = await _core(tmp_path / "data", clock)
    async with storage.transaction(GUILD) as db:
        from storage import repos

        await repos.set_guild_setting(db, "bot_pause", 0)
    # Blackjack: one player at a time, so a person's move never re-arms the timers
    # while a computer's move is pending (re-arming cancels it).
    table = await core.open(GUILD, PLACE, "blackjack", HOST)
    seat = await core.seat_computer(table, HOST, "easy")
    second = await core.seat_computer(table, HOST, "easy")
    with pytest.raises(TableError, match="Only the host"):
        await core.seat_computer(table, seat, "easy")
    await core.begin(table, HOST, seed=3)
    rng = random.Random(3)
    for _ in range(MAX_MOVES):
        if table.status != "playing":
            break
        state = table.state
        if HOST in state.current_players():
            await core.play(table, HOST, rng.choice(state.legal_actions(HOST)).code())
        else:
            task = table.computer
            assert task is not None, "a computer must act and no task plays it"
            await task
    assert table.status == "finished"
    assert listener.moves and all(isinstance(o, Outcome) for o in listener.moves)
    assert {seat, second} <= set(table.state.players)
    await core.close()
    await storage.close()


async def test_close_awaits_the_tasks_it_cancels(tmp_path):
    core, listener, storage = await _core(tmp_path / "data", FakeClock())
    table = await core.open(GUILD, PLACE, "blackjack", HOST)
    await core.seat(table, OTHERS[0])
    await core.begin(table, HOST, seed=1)
    timer = table.timer
    assert timer is not None and not timer.done()
    await core.close()
    assert timer.done()
    await storage.close()
