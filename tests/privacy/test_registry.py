"""The registry of personal-data kinds (bot/players/privacy.py): another module's table (ratings,
issue 25) registers its part, and its recompute runs after a forget for the games touched."""

from __future__ import annotations

import pytest

from bot.players import privacy
from storage import open_storage

from tests.privacy.test_purge_storage import A, B, fill


@pytest.fixture
def registered():
    kinds, hooks = dict(privacy.KINDS), list(privacy.AFTER_FORGET)
    yield
    privacy.KINDS.clear()
    privacy.KINDS.update(kinds)
    privacy.AFTER_FORGET[:] = hooks


async def test_a_registered_kind_is_shown_exported_and_forgotten(tmp_path, registered):
    storage = open_storage(tmp_path / "data")
    await fill(storage, 10)
    async with storage.transaction(10) as db:
        # A stand-in table (the real ratings tables register themselves, bot/players/ratings.py).
        await db.execute("CREATE TABLE toy_ratings (user_id INTEGER, game TEXT, mu REAL)")
        await db.execute("INSERT INTO toy_ratings VALUES (?, 'toy', 27.5), (?, 'toy', 22.5)", (A, B))
    recomputed = []

    async def recompute(db, games):
        recomputed.append(sorted(games))

    privacy.register(privacy.rows_kind("toy_ratings", "ratings", "Your ratings", "Recomputed from the results."))
    privacy.after_forget(recompute)
    async with storage.reading(10) as db:
        assert "Your ratings" in dict(await privacy.show(db, A))
        assert (await privacy.export(db, A, 10, 5.0))["ratings"] == [{"game": "toy", "mu": 27.5}]
    async with storage.transaction(10) as db:
        await privacy.forget(db, A, 6.0)
    assert recomputed == [["enid", "toy"]]
    async with storage.reading(10) as db:
        assert (await privacy.export(db, A, 10, 7.0))["ratings"] == []
        assert (await privacy.export(db, B, 10, 7.0))["ratings"] == [{"game": "toy", "mu": 22.5}]
    await storage.close()


def test_replace_person_reaches_every_place_an_id_hides():
    record = {
        "players": [A, B], "seat_choices": {A: "north", B: "south"}, "strikes": {str(A): 1},
        "obligations": {f"last-{A}-46": [A, 9.5]}, "recent": [f"<@{A}> played 3h", f"<@!{A}> said hi to <@{B}>"],
        "chain": [{"words": ["jam"], "author": A}], "count": A + 1, "flag": True,
    }
    new = privacy.former_id(0)
    assert privacy.replace_person(record, A, new) == {
        "players": [new, B], "seat_choices": {new: "north", B: "south"}, "strikes": {str(new): 1},
        "obligations": {f"last-{new}-46": [new, 9.5]}, "recent": ["a former player played 3h", f"a former player said hi to <@{B}>"],
        "chain": [{"words": ["jam"], "author": None}], "count": A + 1, "flag": True,
    }


def test_enid_session_summary_names_no_former_player():
    from cogs.enid.render import session_summary

    former = privacy.former_id(1)
    text = session_summary({
        "chain": [{"words": ["jam"], "author": None}, {"words": ["tea"], "author": B}],
        "results": [{"winner": former, "placements": [[former], [B]]}],
    })
    assert "Jam — by a former player" in text and f"Tea — by <@{B}>" in text
    assert "Game 1: a former player won (a former player, then <@" in text
    assert "<@None>" not in text and f"<@{former}>" not in text
