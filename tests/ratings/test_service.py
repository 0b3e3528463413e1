"""The rating service over storage, on both backends: incremental updates equal a
replay of the stored results, computers never get a rating, sessions rate once."""

from __future__ import annotations

import random

import pytest

from bot.players import ratings
from storage import repos

GUILD = 7
EASY, HARD = -201, -301


async def finish(db, game: str, placements, now: float, channel: int = 1) -> tuple[int, dict[int, int]]:
    """What bot/discord_front/tables/moves.py does when a game ends: a finished table, its results, its rating."""
    table_id = await repos.insert_table(db, game=game, channel_id=channel, host_id=1, options={}, timer_seconds=60, now=now)
    await repos.update_table(db, table_id, now=now, status="finished")
    await repos.record_results(db, table_id, game, placements, now)
    return table_id, await ratings.record_game(db, game, table_id, placements, now)


async def snapshot(db, game: str):
    async with db.execute(
        "SELECT user_id, mu, sigma, shown, played, won, updated_at FROM ratings WHERE game = ? ORDER BY user_id", (game,)
    ) as cursor:
        rows = [tuple(r) for r in await cursor.fetchall()]
    async with db.execute(
        "SELECT table_id, user_id, mu, sigma, shown, delta, finished_at FROM rating_history WHERE game = ? ORDER BY table_id, user_id", (game,)
    ) as cursor:
        history = [tuple(r) for r in await cursor.fetchall()]
    return rows, history


def random_game(rng: random.Random, people: list[int]) -> list[list[int]]:
    seated = rng.sample(people + [EASY, HARD], rng.randint(2, 5))
    if rng.random() < 0.1:
        return [seated]  # a stalemate: everyone shares the place
    groups, i = [], 0
    while i < len(seated):
        size = 2 if rng.random() < 0.2 and i + 1 < len(seated) else 1
        groups.append(seated[i:i + size])
        i += size
    return groups


@pytest.mark.parametrize("game", ["idiot", "engines"])
async def test_a_replay_of_stored_results_equals_the_incremental_updates(storage_backend, game):
    rng = random.Random(25)
    people = [101, 102, 103, 104, 105]
    async with storage_backend.transaction(GUILD) as db:
        for n in range(40):
            if game == "engines":
                seated = rng.sample(people + [EASY], 4)
                placements = [seated[:2], seated[2:]] if rng.random() < 0.9 else [seated]
            else:
                placements = random_game(rng, people)
            await finish(db, game, placements, 1000.0 + n)
        incremental = await snapshot(db, game)
        assert incremental[0], "games were rated"
        assert await ratings.recompute(db, game) == len({row[0] for row in incremental[1]})
        assert await snapshot(db, game) == incremental
    async with storage_backend.reading(GUILD) as db:
        # Computers never get a rating row; a replay from a fresh read agrees too.
        assert all(user > 0 for user, *_ in (await snapshot(db, game))[0])
        feed = await repos.rating_feed(db, game, "results")
    final, _, history = ratings.replay(game, feed)
    assert {u: (r.mu, r.sigma) for u, r in final.items()} == {row[0]: (row[1], row[2]) for row in incremental[0]}


async def test_only_games_with_two_people_rate_and_computers_stay_fixed(storage_backend):
    async with storage_backend.transaction(GUILD) as db:
        _, moves = await finish(db, "idiot", [[101], [EASY], [HARD]], 1.0)
        assert moves == {}
        _, moves = await finish(db, "idiot", [[EASY], [HARD]], 2.0)
        assert moves == {}
        _, moves = await finish(db, "idiot", [[101], [HARD], [102]], 3.0)
        assert set(moves) == {101, 102} and moves[101] > 0
        before = ratings.computer_mu("idiot", "hard")
        for n in range(10):
            await finish(db, "idiot", [[101], [HARD], [102]], 4.0 + n)
        assert ratings.computer_mu("idiot", "hard") == before
        rows = await repos.ratings_of(db, "idiot", [101, 102, EASY, HARD])
    assert set(rows) == {101, 102}
    assert rows[101].played == 11 and rows[101].won == 11 and rows[102].won == 0


async def test_a_game_stored_out_of_order_replays_everything(storage_backend):
    async with storage_backend.transaction(GUILD) as db:
        await finish(db, "idiot", [[101], [102]], 10.0)
        await finish(db, "idiot", [[102], [103]], 20.0)
        # Another process's clock was behind: this game finished "before" the last one.
        _, moves = await finish(db, "idiot", [[103], [101]], 15.0)
        assert set(moves) == {101, 103}
        incremental = await snapshot(db, "idiot")
        await ratings.recompute(db, "idiot")
        assert await snapshot(db, "idiot") == incremental
        assert [row[6] for row in incremental[1]] == [10.0, 10.0, 20.0, 20.0, 15.0, 15.0]


async def test_a_session_is_one_rated_game_and_its_rounds_do_not_rate(storage_backend):
    async with storage_backend.transaction(GUILD) as db:
        last = None
        for n in range(3):
            last, moves = await finish(db, "onion", [[101], [102, EASY]], 1.0 + n, channel=5)
            assert moves == {}  # a round of a session
        assert await repos.last_finished_table(db, 5, "onion") == last
        moves = await ratings.record_session(db, "onion", last, [[102], [101], [EASY]], 10.0)
        assert moves[102] > moves[101]
        rows = await repos.ratings_of(db, "onion", [101, 102])
        assert rows[101].played == rows[102].played == 1 and rows[102].won == 1
        incremental = await snapshot(db, "onion")
        await ratings.recompute(db, "onion")
        assert await snapshot(db, "onion") == incremental
        # /stats still counts the rounds.
        assert {s.user_id: s.played for s in await repos.leaderboard(db, "onion", with_computers=True)} == {101: 3, 102: 3}


async def test_leaderboard_place_and_rivals(storage_backend):
    async with storage_backend.transaction(GUILD) as db:
        for n in range(6):
            await finish(db, "idiot", [[101], [102], [103]], 1.0 + n)
        await finish(db, "idiot", [[103], [104]], 10.0)
        top = await repos.top_ratings(db, "idiot", ratings.MIN_GAMES, 10)
        assert [r.user_id for r in top] == [101, 102, 103]  # 104 has one game: not listed
        assert await repos.rating_place(db, "idiot", top[2], ratings.MIN_GAMES) == (3, 3)
        rivals = {r.user_id: r for r in await repos.rivals(db, "idiot", 102, "results")}
        assert (rivals[101].ahead, rivals[101].behind, rivals[103].ahead, rivals[103].met) == (0, 6, 6, 6)
        history = await repos.rating_history_of(db, "idiot", 101)
        assert len(history) == 6 and history[-1][1] == top[0].shown


async def test_results_from_before_ratings_and_a_changed_model_are_replayed(storage_backend, monkeypatch):
    async with storage_backend.transaction(GUILD) as db:
        # A server that played before ratings existed: results, no ratings.
        for n in range(3):
            table_id = await repos.insert_table(db, game="idiot", channel_id=1, host_id=1, options={}, timer_seconds=60, now=float(n))
            await repos.update_table(db, table_id, now=float(n), status="finished")
            await repos.record_results(db, table_id, "idiot", [[101], [102]], float(n))
        assert not await ratings.is_current(db, "idiot")
        _, moves = await finish(db, "idiot", [[102], [101]], 10.0)
        assert set(moves) == {101, 102}
        rows = await repos.ratings_of(db, "idiot", [101, 102])
        assert rows[101].played == 4 and rows[101].won == 3 and await ratings.is_current(db, "idiot")
        before = await snapshot(db, "idiot")
        # A fix to the model (here: the shown scale) makes the stored ratings stale: the next
        # finished game replays everything with it.
        monkeypatch.setattr(ratings, "SHOWN_SCALE", 30)
        assert not await ratings.is_current(db, "idiot")
        await finish(db, "idiot", [[101], [102]], 11.0)
        after = await snapshot(db, "idiot")
        assert [row[:3] for row in after[1][:8]] == [row[:3] for row in before[1]]  # the same games, same mu's
        assert after[0][0][3] == ratings.shown(after[0][0][1], after[0][0][2])


async def test_a_long_stale_history_is_not_replayed_inside_a_move(storage_backend, monkeypatch):
    monkeypatch.setattr(ratings, "INLINE_REPLAY_ROWS", 3)
    async with storage_backend.transaction(GUILD) as db:
        await finish(db, "idiot", [[101], [102]], 1.0)  # 2 rows: replayed, now current
        monkeypatch.setattr(ratings, "SHOWN_SCALE", 30)  # stale again
        _, moves = await finish(db, "idiot", [[101], [102]], 2.0)  # 4 rows: too many to replay here
        assert moves == {} and not await ratings.is_current(db, "idiot")
        assert await ratings.recompute(db, "idiot") == 2  # what /leaderboard does, after deferring
        assert await ratings.is_current(db, "idiot")
        assert (await repos.ratings_of(db, "idiot", [101]))[101].played == 2


async def test_recompute_guild_replays_outside_the_write_and_notices_changes(storage_backend, monkeypatch):
    async with storage_backend.transaction(GUILD) as db:
        for n in range(4):
            await finish(db, "idiot", [[101], [EASY], [102]], float(n))
        incremental = await snapshot(db, "idiot")
        feed = await repos.rating_feed(db, "idiot", "results")
        assert await repos.results_mark(db, "idiot", "results") == ratings._mark(feed)
    assert await ratings.recompute_guild(storage_backend, GUILD, "idiot") == 4
    async with storage_backend.reading(GUILD) as db:
        assert await snapshot(db, "idiot") == incremental
    # A game that ends between the read and the write is not lost: the write sees the
    # results changed and replays them itself.
    async with storage_backend.transaction(GUILD) as db:
        await finish(db, "idiot", [[102], [101]], 10.0)
        incremental = await snapshot(db, "idiot")
    real_feed = repos.rating_feed
    calls = []

    async def feed_read_before_the_last_game(db, game, source):
        rows = await real_feed(db, game, source)
        calls.append(len(rows))
        return [row for row in rows if row[1] < 10.0] if len(calls) == 1 else rows

    monkeypatch.setattr(repos, "rating_feed", feed_read_before_the_last_game)
    assert await ratings.recompute_guild(storage_backend, GUILD, "idiot") == 5
    assert len(calls) == 2
    async with storage_backend.reading(GUILD) as db:
        assert await snapshot(db, "idiot") == incremental


async def test_privacy_shows_exports_and_forgets_ratings_and_replays_the_others(storage_backend):
    from bot.players import privacy

    async with storage_backend.transaction(GUILD) as db:
        for n in range(3):
            await finish(db, "idiot", [[101], [102], [103]], float(n))
        last, _ = await finish(db, "onion", [[101], [102]], 5.0, channel=9)
        await ratings.record_session(db, "onion", last, [[101], [102]], 6.0)
        before = await repos.ratings_of(db, "idiot", [102, 103])
        titles = [title for title, _ in await privacy.show(db, 101)]
        data = await privacy.export(db, 101, GUILD, 10.0)
    assert {"Your ratings", "Your rating after each rated game", "Your session standings"} <= set(titles)
    assert {r["game"] for r in data["ratings"]} == {"idiot", "onion"} and len(data["rating_history"]) == 4
    assert data["session_results"][0]["place"] == 1 and "101" not in str(data["ratings"])
    async with storage_backend.transaction(GUILD) as db:
        assert await privacy.forget(db, 101, 20.0)
        assert await repos.ratings_of(db, "idiot", [101]) == {} and await repos.ratings_of(db, "onion", [101]) == {}
        assert await repos.session_results_of_user(db, 101) == []
        after = await repos.ratings_of(db, "idiot", [102, 103])
        # Others were replayed against an unknown former player: 102 no longer lost to a
        # player who had become strong, so the numbers changed, and they equal a replay.
        assert after[102].mu != before[102].mu
        incremental = await snapshot(db, "idiot")
        await ratings.recompute(db, "idiot")
        assert await snapshot(db, "idiot") == incremental
        assert (await repos.ratings_of(db, "onion", [102]))[102].played == 1
        assert [title for title, _ in await privacy.show(db, 101)] == []
