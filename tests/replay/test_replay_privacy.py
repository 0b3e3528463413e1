"""After ``/privacy forget`` a person is "a former player" in every replay: the game still
replays move for move (its options and moves name their seat, not them), and nothing
a replay shows names them. Enid's chain keeps its names as they were said."""

from __future__ import annotations

import json

import pytest

from bot.players import privacy
from bot.players.privacy import FORMER_NAME
from bot.replay.opening import ReplayShelf, open_replay
from bot.replay.steps import Replay
from cogs import catalog
from storage import open_storage, repos
from tests.replay.games import GUILD, PEOPLE, play_game


def everything_shown(replay: Replay) -> str:
    """All a replay shows, in every step: lines, the board's words, the picture's rows."""
    names = replay.names()
    shown = []
    for step in replay.steps:
        shown += replay.lines(step, names)
        embed = replay.board(step, names, replay.lines(step, names))
        shown += [embed.title or "", embed.description or "", *(f"{f.name} {f.value}" for f in embed.fields)]
        shown += [f"{row.label} {row.spoken}" for row in replay.rows(step, {p: "Ann" for p in replay.players})]
        shown.append(json.dumps(step.observation))
    shown.append(replay.ending(replay.last) or "")
    return "\n".join(shown)


async def forget(storage, person: int) -> None:
    async with storage.transaction(GUILD) as db:
        assert isinstance(await privacy.forget(db, person, 1_900_000_000.0), set)


CASES = [
    # Engines keeps its teams in the table's options; Onion a session's bankrolls and
    # dealer (the second round's); Enid the chain's authors and who heard each name.
    ("engines", 2, {"players": 2}, 1),
    ("onion", 3, {}, 2),
    ("enid", 3, {"mode": "enid"}, 2),
]


@pytest.mark.parametrize("key, seats, options, rounds", CASES, ids=[c[0] for c in CASES])
async def test_a_forgotten_player_is_a_former_player_in_the_replay(tmp_path, key, seats, options, rounds):
    storage = open_storage(tmp_path / "data")
    games, shelf = catalog.registry(), ReplayShelf()
    forgotten = PEOPLE[1]
    try:
        for round_ in range(rounds):  # a session: the later round starts from the earlier one's carry
            played = await play_game(storage, key, seats=seats, options=options, seed=11 + round_)
        before = await open_replay(storage, games, GUILD, played.table_id, shelf=shelf)
        said = [line for step in before.steps for line in before.lines(step, before.names()) if "💬" in line]
        assert str(forgotten) in everything_shown(before)

        await forget(storage, forgotten)
        async with storage.reading(GUILD) as db:
            record = await repos.get_table(db, played.table_id)
            codes = [code for _user, code, _source in await repos.actions_for(db, played.table_id)]
        assert str(forgotten) not in json.dumps(record.options)
        assert not [c for c in codes if str(forgotten) in c]

        after = await open_replay(storage, games, GUILD, played.table_id, shelf=shelf)
        assert after is not before  # the shelf does not serve the replay from before the forget
        former = privacy.former_id(before.players.index(forgotten))
        assert after.players == tuple(former if p == forgotten else p for p in before.players)
        assert after.names()[former] == FORMER_NAME
        shown = everything_shown(after)
        assert str(forgotten) not in shown and f"<@{former}>" not in shown
        assert len(after) == len(before) and after.moves == before.moves
        for old, new in zip(before.steps, after.steps):
            assert [m.number for m in old.moves] == [m.number for m in new.moves]
        if key == "enid":
            # The chain's names read as they were said; only who said them changed.
            assert said
            again = [line for step in after.steps for line in after.lines(step, after.names()) if "💬" in line]
            # (a Church shout at the forgotten player names them as the former player)
            told = [line.split(":", 1)[1].replace(f"<@{forgotten}>", FORMER_NAME) for line in said]
            assert [line.split(":", 1)[1] for line in again] == told
            assert any(line.startswith(f"💬 {FORMER_NAME}") for line in again)
    finally:
        await storage.close()
