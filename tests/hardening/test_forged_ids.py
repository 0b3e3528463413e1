"""Issue 27 item 1: every component kind, forged with another server's ids or an
unknown server's, is refused by the server boundary before any storage is opened:
no lobby, no move, no database file. A forged Rematch (also labelled Next game /
Next round: the same custom_id) used to open a lobby in the clicker's server seeded
with the other server's players, and an unknown server id created a database."""

from __future__ import annotations

import pytest

from tests.e2e.ui import board, game_place
from tests.e2e.world import TOY
from tests.hardening.forge import forge_component, forge_modal, text_of
from tests.hardening.test_boundary import two_servers

UNKNOWN = 123456789012345678


pytestmark = pytest.mark.extensions(*TOY)


def files(data_dir):
    guilds = data_dir / "guilds"
    return sorted(p.name for p in guilds.iterdir()) if guilds.is_dir() else []


async def finished_game(env, a, ca, host, mate):
    """A Toy game in server A played to its end; its table id."""
    lobby = (await host.slash(ca, "toy new")).response.message
    await mate.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    thread = game_place(ca)
    players = {host.id: host, mate.id: mate}
    while env.bot.tables.tables():
        (pid,) = table.state.current_players()
        mover = players[pid]
        hand = await mover.click(thread.last_message, label="Show hand")
        code = next(x.code() for x in table.state.legal_actions(pid) if x.kind == "play")
        await mover.select(hand.response.message, [code])
    return table


# Every DynamicItem's custom_id shape (bot/discord_front/views.py DYNAMIC_ITEMS), and whether it is a select.
KINDS = [
    ("dh:lobby:{g}:{t}:join", None),
    ("dh:lobby:{g}:{t}:addbot:easy", None),
    ("dh:hand:{g}:{t}", None),
    ("dh:refresh:{g}:{t}", None),
    ("dh:act:{g}:{t}:0:play:2C", None),
    ("dh:sel:{g}:{t}:0:0", ["play:2C"]),
    ("dh:page:{g}:{t}:0:1", None),
    ("dh:rematch:{g}:{t}", None),
    ("dh:amt:{g}:{t}:0:bet", None),
    ("dh:multi:{g}:{t}:0:play", ["2C"]),
    ("dh:vote:{g}:{t}:v1:yes", None),
    # Replays (bot/discord_front/replay_view.py REPLAY_ITEMS); dh:rpg's second number is a user.
    ("dh:replay:{g}:{t}", None),
    ("dh:rp:{g}:{t}:0:n", None),
    ("dh:rpj:{g}:{t}", None),
    ("dh:rpa:{g}:{t}", None),
    ("dh:rpg:{g}:{t}", ["1"]),
]


async def test_forged_rematch_from_another_server_opens_nothing(simcord_env, data_dir):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    table = await finished_game(env, a, ca, host, mate)
    # One of A's players is also a member of B: they forge A's Rematch (or Next game) in B.
    mate_in_b = b.add_member(mate.user)
    own = await mate_in_b.send(cb, "hello")
    before = files(data_dir)
    for clicker in (mate_in_b, intruder):
        result = await forge_component(clicker, own, f"dh:rematch:{a.id}:{table.id}")
        assert env.bot.tables.tables() == []  # no lobby in B seeded with A's players
        assert files(data_dir) == before  # B has no database, and none was made for it
        assert result.ephemeral and "another server" in text_of(result)
    # A Rematch naming a server the bot has never seen creates nothing either.
    result = await forge_component(intruder, own, f"dh:rematch:{UNKNOWN}:1")
    assert files(data_dir) == before
    assert "another server" in text_of(result)
    # The real Rematch still works for A's players.
    again = await mate.click(board(ca), label="Rematch")
    assert not again.ephemeral
    (lobby,) = env.bot.tables.tables()
    assert lobby.guild_id == a.id and lobby.record.players == [mate.id, host.id]


async def test_forged_rematch_for_a_missing_table_of_ones_own_server_creates_no_file(simcord_env, data_dir):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    own = await intruder.send(cb, "hello")
    # Server B itself, but no table was ever opened there: the id comes from the custom_id.
    result = await forge_component(intruder, own, f"dh:rematch:{b.id}:7")
    assert files(data_dir) == []
    assert result.ephemeral and "another server" not in text_of(result) and "no longer exists" in text_of(result)


@pytest.mark.parametrize("shape,values", KINDS, ids=[k.split(":")[1] + ("-" + k.split(":")[-1] if k.startswith("dh:lobby") else "") for k, _ in KINDS])
async def test_every_component_kind_forged_from_another_server(simcord_env, data_dir, shape, values):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    lobby = (await host.slash(ca, "toy new")).response.message
    await mate.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    own = await intruder.send(cb, "hello")
    before, version = files(data_dir), table.record.version
    for guild_id in (a.id, UNKNOWN):
        result = await forge_component(intruder, own, shape.format(g=guild_id, t=table.id), values=values)
        assert files(data_dir) == before
        assert result.ephemeral and "another server" in text_of(result), shape
    assert [t.guild_id for t in env.bot.tables.tables()] == [a.id] and table.record.version == version


async def test_forged_amount_form_from_another_server(simcord_env, data_dir):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    lobby = (await host.slash(ca, "toy new")).response.message
    await mate.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    before = files(data_dir)
    for guild_id in (a.id, UNKNOWN):
        for amount in ("3", "x"):
            result = await forge_modal(intruder, cb, f"dh:amtm:{guild_id}:{table.id}:0:bet", {"amount": amount})
            assert "another server" in text_of(result)
    assert files(data_dir) == before and table.record.version == 0


def test_every_dynamic_item_is_guarded_and_forged_above():
    """A new component kind must come with the boundary check and a forged-id case here."""
    import re

    from bot.discord_front import views

    from bot.discord_front import replay_view

    for cls in views.DYNAMIC_ITEMS + replay_view.REPLAY_ITEMS:
        guarded = views._Guarded if cls in views.DYNAMIC_ITEMS else replay_view._ServerChecked
        assert cls.interaction_check is guarded.interaction_check, cls.__name__
        pattern = re.compile(cls.__discord_ui_compiled_template__)
        assert any(pattern.fullmatch(shape.format(g=1, t=1)) for shape, _ in KINDS), cls.__name__


async def test_reading_without_create_never_makes_a_file(tmp_path):
    from storage.db import GuildDataMissing, Storage

    storage = Storage(tmp_path / "data")
    with pytest.raises(GuildDataMissing):
        async with storage.reading(42, create=False):
            pass
    assert not storage.has_database(42) and not (tmp_path / "data" / "guilds").exists()
    async with storage.reading(42):  # the ordinary read of a server with no data reads nothing, creating nothing
        pass
    assert not storage.has_database(42)
    async with storage.transaction(42):  # its first write creates it
        pass
    async with storage.reading(42, create=False):
        pass
    await storage.close()


async def test_forged_hand_controls_in_dms_for_an_unknown_server_create_nothing(simcord_env, data_dir):
    """In DMs hand controls pass the boundary (a DM has no server); the lookup that
    follows still never creates a database for the id a custom_id named."""
    env = simcord_env
    stranger = env.create_user("stranger")
    dm = await stranger.send_dm("hi")
    for shape, values in KINDS:
        result = await forge_component(stranger, dm, shape.format(g=UNKNOWN, t=1), values=values)
        assert result.ephemeral and text_of(result)
    assert files(data_dir) == []
