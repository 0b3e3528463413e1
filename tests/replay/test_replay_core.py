"""The replay core (bot/replay/) on games played through the table core into SQLite:
each step shows the spectator observation of its moment and the table's own log lines,
a replay is refused in one sentence when there is nothing to replay, and the shelf
never serves a replay its storage no longer backs."""

from __future__ import annotations

import pytest

from bot.core import computer
from bot.replay.opening import NoReplay, ReplayShelf, open_replay
from bot.replay.steps import Replay
from cogs import catalog
from storage import repos
from tests.replay.games import GUILD, PEOPLE, Played, play_game

CASES = [
    ("blackjack", 3, {}),
    ("idiot", 4, {}),
    ("engines", 2, {"players": 2}),
    ("engines", 4, {"players": 4}),
    ("onion", 3, {}),
    ("enid", 3, {"mode": "enid"}),
    ("enid", 2, {"mode": "plain"}),
]


def cumulative_lines(replay: Replay, upto: int) -> list[str]:
    names = replay.names()
    return [line for step in replay.steps[: upto + 1] for line in replay.lines(step, names)]


def check_against_the_live_table(replay: Replay, played: Played) -> None:
    """Every step shows the spectator observation the live table had after the step's
    last move, and the log lines up to it end as the table's log did then."""
    assert replay.moves == len(played.seen) - 1
    assert [m.number for s in replay.steps for m in s.moves] == list(range(1, replay.moves + 1))
    for step in replay.steps:
        assert step.observation == played.seen[step.last_move], step.index
        recent = played.recent[step.last_move]
        assert cumulative_lines(replay, step.index)[-len(recent):] == recent, step.index
        for move in step.moves[1:]:  # grouped: nothing a spectator sees changed
            assert played.seen[move.number] == played.seen[move.number - 1]
        assert replay.step_at(step.last_move) is step and replay.step_at(step.first_move) is step
    assert replay.step(0).moves == () and replay.step(-5) is replay.step(0) and replay.step(10**6) is replay.last
    assert replay.last.observation == played.seen[-1]


@pytest.mark.parametrize("key, seats, options", CASES, ids=[f"{c[0]}-{c[1]}-{c[2].get('mode', '')}" for c in CASES])
async def test_each_step_is_the_moment_the_live_table_showed(tmp_path, key, seats, options):
    from storage import open_storage

    storage = open_storage(tmp_path / "data")
    try:
        played = await play_game(storage, key, seats=seats, options=options, seed=7)
        replay = await open_replay(storage, catalog.registry(), GUILD, played.table_id)
        check_against_the_live_table(replay, played)
        assert replay.heading(replay.step(0)) == "The deal"
        assert replay.heading(replay.last).endswith(f"of {replay.moves}")
        if key != "enid":
            assert replay.rows(replay.last), "a game with pictures has a picture at every step"
    finally:
        await storage.close()


async def test_a_player_who_left_and_the_computer_who_took_their_seat(tmp_path):
    from storage import open_storage

    storage = open_storage(tmp_path / "data")
    try:
        async with storage.transaction(GUILD) as db:
            await repos.set_guild_setting(db, f"house:idiot:{computer.REPLACE_LEAVERS.key}", "easy")
        played = await play_game(storage, "idiot", seats=3, seed=3, leave_at=10)
        replay = await open_replay(storage, catalog.registry(), GUILD, played.table_id)
        check_against_the_live_table(replay, played)
        (seat_change,) = [m for s in replay.steps for m in s.moves if m.seat_change]
        step = replay.step_at(seat_change.number)
        assert any("took" in line and "seat" in line for line in replay.lines(step, replay.names()))
        assert any(computer.is_computer(p) for p in replay.players)
    finally:
        await storage.close()


async def test_nothing_to_replay_is_one_sentence(tmp_path):
    from storage import open_storage

    storage = open_storage(tmp_path / "data")
    games = catalog.registry()
    try:
        played = await play_game(storage, "blackjack", seats=2, seed=1)
        with pytest.raises(NoReplay, match="There is no game #999 in this server"):
            await open_replay(storage, games, GUILD, 999)
        with pytest.raises(NoReplay, match="There is no game #1 in this server"):
            await open_replay(storage, games, GUILD + 1, played.table_id)  # another server's id: nothing opens
        for forged in (0, -3, 1 << 70, "1", True):
            with pytest.raises(NoReplay, match="There is no game"):
                await open_replay(storage, games, GUILD, forged)

        from tests.replay.games import Clock, Listener
        from bot.core.facade import TableCore

        core = TableCore(storage, games, Listener(), clock=Clock())
        table = await core.open(GUILD, 71, "idiot", PEOPLE[0])
        await core.seat(table, PEOPLE[1])
        await core.begin(table, PEOPLE[0], seed=2)
        with pytest.raises(NoReplay, match="is still being played: its replay opens once it ends"):
            await open_replay(storage, games, GUILD, table.id)
        await core.cancel_table(table, PEOPLE[0])
        with pytest.raises(NoReplay, match="did not finish"):
            await open_replay(storage, games, GUILD, table.id)
        await core.close()
    finally:
        await storage.close()


async def test_purged_moves_say_so_and_the_shelf_does_not_outlive_them(tmp_path):
    from bot.players import privacy
    from storage import open_storage

    storage = open_storage(tmp_path / "data")
    games, shelf = catalog.registry(), ReplayShelf()
    try:
        played = await play_game(storage, "idiot", seats=3, seed=4)
        first = await open_replay(storage, games, GUILD, played.table_id, shelf=shelf)
        assert await open_replay(storage, games, GUILD, played.table_id, shelf=shelf) is first  # kept
        async with storage.transaction(GUILD) as db:
            await repos.set_guild_setting(db, privacy.MOVES_KEPT_KEY, 14)
            assert await privacy.purge_moves(db, 2_000_000_000.0) == played_moves(played)
        with pytest.raises(NoReplay) as refused:
            await open_replay(storage, games, GUILD, played.table_id, shelf=shelf)
        assert str(refused.value) == (
            f"The moves of Idiot #{played.table_id} are no longer kept: this server keeps a finished game's moves for 14 days "
            "(/settings keep-moves), so it cannot be replayed. Its result still counts in /stats."
        )
    finally:
        await storage.close()


def played_moves(played: Played) -> int:
    return len(played.seen) - 1


async def test_the_shelf_is_bounded_in_steps():
    shelf = ReplayShelf(max_steps=10)

    class Sized:
        def __init__(self, n: int) -> None:
            self.n = n

        def __len__(self) -> int:
            return self.n

    a, b, c = Sized(6), Sized(3), Sized(5)
    shelf.put(("a",), a)
    shelf.put(("b",), b)
    assert shelf.get(("a",)) is a  # a is now the most recent
    shelf.put(("c",), c)  # 14 steps: the least recently used (b) goes, then still 11: a goes
    assert shelf.get(("b",)) is None and shelf.get(("a",)) is None and shelf.get(("c",)) is c and len(shelf) == 1


async def test_a_move_the_log_left_unsaid_gets_the_games_words(tmp_path):
    """Onion's "done" in the declarations has no line in the table's log; the replay
    says what it was: Bob (seed 31) declares nothing. A game without such words
    (Idiot) has none to add."""
    from storage import open_storage

    storage = open_storage(tmp_path / "data")
    try:
        onion = await play_game(storage, "onion", seats=4, seed=31)
        replay = await open_replay(storage, catalog.registry(), GUILD, onion.table_id)
        names = replay.names()
        unsaid = [step for step in replay.steps if step.moves and not replay.lines(step, names)]
        assert [replay.quiet_lines(step, names) for step in unsaid] == [[f"<@{PEOPLE[1]}> declares nothing"]]
        idiot = await play_game(storage, "idiot", seats=3, seed=7)
        other = await open_replay(storage, catalog.registry(), GUILD, idiot.table_id)
        assert all(other.quiet_lines(step, other.names()) == [] for step in other.steps)
    finally:
        await storage.close()


def test_onion_tells_done_after_a_declaration_apart_from_declaring_nothing():
    from bot.rules.engine import Event
    from cogs.onion import render

    ann, bob = 11, 12
    names = {ann: "@ann", bob: "@bob"}
    done = Event("declare_done", bob, {"player": bob})
    declared = {"declared": [{"player": bob, "card": "Jd", "power": "sender", "forced": False}]}
    assert render.quiet_line(done, declared, names) == "@bob has nothing more to declare"
    assert render.quiet_line(done, {"declared": [{"player": ann, "card": "Jd", "power": "sender", "forced": False}]}, names) == "@bob declares nothing"
    assert render.quiet_line(Event("pass", bob, {"player": bob}), declared, names) is None
