"""Scratch: print boards (not committed)."""
import random, os
from tests.e2e.ui import game_place, head, text, use_control, image_urls, board, _tree
from tests.e2e.world import world as shared_world

def dump(tag, msg):
    print(f"\n===== {tag} (v2={bool(msg.flags.components_v2)} images={image_urls(msg)})")
    print(text(msg))

async def play(env, channel, members, game, rng, moments):
    by = {m.id: m for m in members}
    lobby = (await members[0].slash(channel, f"{game} new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    dump("start", board(channel))
    n = 0
    while table.status == "playing" and n < 900:
        cur = sorted(table.state.current_players())
        mover = by[cur[0]]
        legal = table.state.legal_actions(mover.id)
        if game == "idiot" and table.state.phase == "swap":
            legal = [a for a in legal if a.kind == "ready"]
        code = rng.choice(legal).code()
        opened = await mover.slash(game_place(channel), "hand")
        await use_control(mover, opened.response.message, code)
        n += 1
        if n in moments:
            dump(f"after move {n}", board(channel))
    dump("final", board(channel))
    dump("last message", game_place(channel).last_message)

async def test_idiot(simcord_env, monkeypatch):
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: 20240611)
    g, ch, ms = shared_world(simcord_env, channel="idiot", names=("ada", "bob", "cy"))
    await play(simcord_env, ch, ms, "idiot", random.Random(3), {1, 12})

async def test_blackjack(simcord_env, monkeypatch):
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: 20240611)
    g, ch, ms = shared_world(simcord_env, channel="blackjack", names=("ada", "bob", "cy"))
    await play(simcord_env, ch, ms, "blackjack", random.Random(3), {10})
