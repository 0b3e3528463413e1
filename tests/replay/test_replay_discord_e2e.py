"""Replays in Discord (issue 42), end to end through SimCord: the final board's Replay,
/profile's games, ⏮ ◀ ▶ ⏭ and Go to move… on the message only the clicker sees, after a
restart, forged ids, a purged game, a forgotten player, and Save as picture. Every
step is one interaction callback and no request with the bot's token."""

from __future__ import annotations

import io
import re

import discord
import pytest
from PIL import Image

from bot.players import privacy
from bot.replay import animation
from bot.replay.opening import open_replay as core_replay
from storage import repos
from tests.conftest import restart
from tests.e2e.locales import client_locales
from tests.e2e.ui import board, button_ids, game_place, labels, text
from tests.e2e.world import TOY, world
from tests.hardening.forge import forge_component, forge_modal, text_of
from tests.hardening.test_boundary import two_servers
from tests.hardening.test_forged_ids import finished_game
from tests.platform.test_table_e2e import now
from tests.replay.games import play_game

GAMES = ("bot.discord_front.commands", "bot.discord_front.profile_commands", "cogs.idiot.cog", "cogs.onion.cog")
#: Drawing a whole game's animation (Save as picture) and loading Enid's dictionary are
#: seconds of work in a thread; on a busy machine more than SimCord's default 5 s to settle.
SLOW_WORK = pytest.mark.simcord(settle_timeout=60)
CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback")


async def stored_game(env, guild, channel, members, key: str = "idiot", seed: int = 5, options: dict | None = None) -> int:
    """A finished game of ``key`` by ``members``, played through the table core into the
    bot's own storage in ``channel`` (as the bot stores one), with the names its
    pictures drew."""
    played = await play_game(env.bot.storage, key, seats=len(members), seed=seed, people=tuple(m.id for m in members),
                             guild=guild.id, place=channel.id, options=options)
    async with env.bot.storage.transaction(guild.id) as db:
        record = await repos.get_table(db, played.table_id)
        names = {str(m.id): m.user.name.title() for m in members}
        await repos.update_table(db, played.table_id, now=record.updated_at, publish={**record.publish, "names": names})
    return played.table_id


async def open_replay(env, member, channel, guild, table_id):
    """The Replay button of game ``table_id`` pressed (as the final board shows it)."""
    own = await member.send(channel, "how did I lose that?")
    return await forge_component(member, own, f"dh:replay:{guild.id}:{table_id}")


async def replay_open(env, seats: int, by: int = 0):
    """A server, a finished Idiot game of ``seats`` members, and its replay opened by
    member ``by``: (guild, channel, members, table id, the replay message)."""
    guild, channel, members = world(env, seats)
    table_id = await stored_game(env, guild, channel, members)
    opened = await open_replay(env, members[by], channel, guild, table_id)
    assert opened.ephemeral
    return guild, channel, members, table_id, opened.response.message


def control(message, prefix: str) -> str:
    return next(cid for cid in button_ids(message) if cid.startswith(prefix))


def step_id(message, which: str) -> str:
    return next(cid for cid in button_ids(message) if cid.startswith("dh:rp:") and cid.endswith(":" + which))


def disabled(message) -> set[str]:
    found = set()
    for row in message.components:
        for item in (row if isinstance(row, dict) else row.to_dict()).get("components", ()):
            if item.get("disabled"):
                found.add(item.get("custom_id", ""))
    return found


def since(env, start: int) -> list:
    return list(env.http_requests[start:])


def one_callback(env, start: int) -> None:
    """The requests since ``start`` are exactly one interaction callback: no request
    with the bot's token (the global limit), no follow-up."""
    sent = since(env, start)
    assert [(r.method, bool(CALLBACK.fullmatch(r.path))) for r in sent] == [("POST", True)], [(r.method, r.path) for r in sent]


async def step(env, member, message, custom_id):
    start = len(env.http_requests)
    result = await member.click(message, custom_id=custom_id)
    one_callback(env, start)
    assert not result.followups
    return now(env, message)


# ------------------------------------------------------------------ the final board


@pytest.mark.extensions(*TOY)
async def test_the_final_board_offers_replay_which_opens_at_the_deal_for_the_clicker_only(simcord_env):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    table = await finished_game(env, a, ca, host, mate)
    final = board(ca)
    assert f"dh:replay:{a.id}:{table.id}" in button_ids(final) and "Replay" in labels(final)
    opened = await mate.click(final, label="Replay")
    assert opened.ephemeral
    shown = opened.response.message
    assert text(shown).startswith(f"**Replay of Toy #{table.id} · The deal**\nThe game begins.")
    first, back = step_id(shown, "f"), step_id(shown, "p")
    assert {first, back} <= disabled(shown)  # nothing before the deal
    forward = await step(env, mate, shown, step_id(shown, "n"))
    assert f"Move 1 of {table.record.version}" in forward.content
    assert forward.id == shown.id  # the same message, edited through the click


# ------------------------------------------------------------------ stepping a pictured game


@pytest.mark.extensions(*GAMES)
async def test_step_jump_and_restart_with_pictures_one_callback_each(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env, 3)
    table_id = await stored_game(env, guild, channel, members)
    async with env.bot.storage.reading(guild.id) as db:
        moves = (await repos.get_table(db, table_id)).version
    opened = await open_replay(env, members[1], channel, guild, table_id)
    assert opened.ephemeral
    message = opened.response.message
    shown = now(env, message)
    assert shown.content.startswith(f"**Replay of Idiot #{table_id} · The deal**")
    assert [a.filename for a in shown.attachments] == ["replay.png"] and shown.embeds[0].image.url.endswith("replay.png")

    forward = await step(env, members[1], message, step_id(shown, "n"))
    assert f"of {moves}**" in forward.content and "The deal" not in forward.content
    assert [a.filename for a in forward.attachments] == ["replay.png"]
    last = await step(env, members[1], message, step_id(forward, "l"))
    assert f"{moves} of {moves} · the end**" in last.content
    assert {step_id(last, "n"), step_id(last, "l")} <= disabled(last)
    back = await step(env, members[1], message, step_id(last, "p"))
    assert "the end" not in back.content

    # Go to move…: a form; a word and a number past the end are refused, the message unchanged.
    async def form():
        shown = await members[1].click(now(env, message), custom_id=control(now(env, message), "dh:rpj:"))
        assert shown.modal is not None
        return shown

    before = now(env, message).content
    for bad in ("five", str(moves + 1), "-3"):
        refused = await members[1].submit_modal(await form(), {"move": bad})
        assert refused.ephemeral and f"is not a move of Idiot #{table_id}: type a whole number from 0 (the deal) to {moves}" in text_of(refused)
        assert now(env, message).content == before
    asked = await form()
    start = len(env.http_requests)
    await members[1].submit_modal(asked, {"move": "5"})
    one_callback(env, start)
    jumped = now(env, message)
    heading = jumped.content.split("\n")[0]
    numbers = [int(n) for n in re.findall(r"\d+", heading.split("·")[1])]
    assert numbers[0] <= 5 <= numbers[-2] if len(numbers) == 3 else numbers[0] == 5, heading

    # After a restart (a new bot on the same storage), the old message's buttons still work.
    await restart(env, data_dir)
    again = await step(env, members[1], message, step_id(now(env, message), "f"))
    assert again.content.startswith(f"**Replay of Idiot #{table_id} · The deal**")


@pytest.mark.extensions(*GAMES)
async def test_profile_lists_the_players_games_to_watch_again(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    table_id = await stored_game(env, guild, channel, members)
    profile = await members[0].slash(channel, "profile")
    (message,) = [f for f in profile.followups if f.components] or [profile.response]
    chosen = await members[2].select(message, [str(table_id)], custom_id=f"dh:rpg:{guild.id}:{members[0].id}")
    assert chosen.ephemeral
    assert text(chosen.response.message).startswith(f"**Replay of Idiot #{table_id} · The deal**")


@pytest.mark.extensions(*GAMES, "cogs.enid.cog")
@SLOW_WORK
async def test_enid_replays_in_words_with_the_name_chain_as_it_was_said(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    table_id = await stored_game(env, guild, channel, members, key="enid", options={"mode": "enid"})
    replay = await core_replay(env.bot.storage, env.bot.games, guild.id, table_id)
    said = [line for step in replay.steps for line in replay.lines(step, replay.names()) if "💬" in line]
    assert said
    message = (await open_replay(env, members[0], channel, guild, table_id)).response.message
    shown = [now(env, message)]
    while step_id(shown[-1], "n") not in disabled(shown[-1]):
        shown.append(await step(env, members[0], message, step_id(shown[-1], "n")))
    assert len(shown) == len(replay)
    assert all(not m.attachments and not m.embeds[0].image for m in shown)  # Enid has words only
    assert not any(cid.startswith("dh:rpa:") for cid in button_ids(shown[0]))  # nothing to animate
    assert [line for m in shown for line in m.content.split("\n") if "💬" in line] == said


@pytest.mark.extensions(*GAMES)
async def test_every_step_of_an_onion_showdown_says_what_happened(simcord_env):
    """A newcomer steps through a round that ends at the showdown: every step has a line
    under its heading that says what the player did (Bob's "done" with nothing to
    declare has no line in the table's log: the replay says he declares nothing), and
    the last one tells the showdown (once: its board tells it move by move) and who won."""
    env = simcord_env
    guild, channel, members = world(env, 4, names=["ann", "bob", "cy", "dee"])
    table_id = await stored_game(env, guild, channel, members, key="onion", seed=31)
    message = (await open_replay(env, members[0], channel, guild, table_id)).response.message
    shown = [now(env, message)]
    while step_id(shown[-1], "n") not in disabled(shown[-1]):
        shown.append(await step(env, members[0], message, step_id(shown[-1], "n")))
    for m in shown:
        heading, *lines = m.content.split("\n")
        assert heading.startswith(f"**Replay of Cripple Mr Onion #{table_id} · ") and lines, m.content
    said = "\n".join(m.content for m in shown)
    assert f"<@{members[1].id}> declares nothing" in said
    assert "made a move the table was not told about" not in said
    end = shown[-1].content
    assert end.split("\n")[0].endswith(" · the end**")
    assert "The showdown, hand against hand" in end and "won the Cripple Mr Onion round at the showdown" in end
    # The board below tells the showdown move by move: the message says it once.
    assert "has no answer left" in text(shown[-1]) and "has no answer left" not in end
    assert text(shown[-1]).count("is brought in against") == 1


@pytest.mark.extensions(*GAMES)
async def test_the_replay_follows_the_clickers_language(simcord_env, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env, 3)
    client_locales(monkeypatch, {members[1].id: "es-ES"})
    table_id = await stored_game(env, guild, channel, members)
    message = (await open_replay(env, members[1], channel, guild, table_id)).response.message
    shown = now(env, message)
    assert shown.content.startswith(f"**Repetición de Idiot #{table_id} · ") and "Solo tú ves este mensaje." in text(shown)
    assert "Ir a la jugada…" in labels(shown) and "Guardar como imagen" in labels(shown)
    english = (await open_replay(env, members[0], channel, guild, table_id)).response.message
    assert now(env, english).content.startswith(f"**Replay of Idiot #{table_id} · The deal**")


# ------------------------------------------------------------------ refusals


@pytest.mark.extensions(*GAMES)
async def test_forged_replay_ids_are_refused_plainly(simcord_env, data_dir):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    table_id = await stored_game(env, a, ca, [host, mate])
    files = sorted(p.name for p in (data_dir / "guilds").iterdir())
    own = await intruder.send(cb, "hello")
    for forged in (f"dh:replay:{a.id}:{table_id}", f"dh:rp:{a.id}:{table_id}:3:n", f"dh:rpa:{a.id}:{table_id}", f"dh:rpj:{a.id}:{table_id}"):
        refused = await forge_component(intruder, own, forged)
        assert refused.ephemeral and "another server" in text_of(refused), forged
    submitted = await forge_modal(intruder, cb, f"dh:rpjm:{a.id}:{table_id}", {"move": "3"})
    assert "another server" in text_of(submitted)
    # B's own id with A's table number: B has no such game (and gets no database for asking).
    refused = await forge_component(intruder, own, f"dh:replay:{b.id}:{table_id}")
    assert f"There is no game #{table_id} in this server." in text_of(refused)
    assert sorted(p.name for p in (data_dir / "guilds").iterdir()) == files
    # A table that does not exist in A.
    mine = await host.send(ca, "hi")
    missing = await forge_component(host, mine, f"dh:rp:{a.id}:987654:0:n")
    assert "There is no game #987654 in this server." in text_of(missing)


@pytest.mark.extensions(*GAMES)
async def test_a_game_played_in_a_channel_the_clicker_cannot_see_is_refused(simcord_env):
    env = simcord_env
    guild, lobby, members = world(env, 3)
    outsider = members[2]
    secret = guild.create_text_channel("secret", overwrites={outsider: discord.PermissionOverwrite(view_channel=False)})
    table_id = await stored_game(env, guild, secret, members[:2])
    refused = await open_replay(env, outsider, lobby, guild, table_id)
    assert refused.ephemeral and text_of(refused) == "That game was played in a channel you cannot see."
    shown = await open_replay(env, members[0], lobby, guild, table_id)  # a player who sees it
    assert text(shown.response.message).startswith(f"**Replay of Idiot #{table_id} · The deal**")


@pytest.mark.extensions(*GAMES)
async def test_a_game_whose_moves_were_purged_says_so(simcord_env):
    env = simcord_env
    guild, channel, members, table_id, message = await replay_open(env, 2)
    async with env.bot.storage.transaction(guild.id) as db:
        assert await repos.purge_old_actions(db, 4_000_000_000.0) > 0
    before = now(env, message).content
    refused = await members[0].click(now(env, message), custom_id=step_id(now(env, message), "n"))
    assert refused.ephemeral and f"The moves of Idiot #{table_id} are no longer kept" in text_of(refused)
    assert "/settings keep-moves" in text_of(refused) and now(env, message).content == before


@pytest.mark.extensions(*GAMES)
async def test_a_forgotten_player_is_a_former_player_in_the_replay(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    table_id = await stored_game(env, guild, channel, members)
    gone = members[1]
    async with env.bot.storage.transaction(guild.id) as db:
        assert isinstance(await privacy.forget(db, gone.id, 1_900_000_000.0), set)
    opened = await open_replay(env, members[0], channel, guild, table_id)
    message = opened.response.message
    seen = [text(now(env, message))]
    for _ in range(6):
        seen.append(text(await step(env, members[0], message, step_id(now(env, message), "n"))))
    seen.append(text(await step(env, members[0], message, step_id(now(env, message), "l"))))
    everything = "\n".join(seen)
    assert "a former player" in everything
    assert str(gone.id) not in everything and gone.user.name.title() not in everything
    assert f"<@{members[0].id}>" in everything  # the others keep their names


# ------------------------------------------------------------------ Save as picture


@pytest.mark.extensions(*GAMES)
@SLOW_WORK
async def test_save_as_picture_posts_one_animation_in_the_games_channel(simcord_env):
    env = simcord_env
    guild, channel, members, table_id, message = await replay_open(env, 3)
    posts_before = [m for m in channel.history() if m.author.bot]
    start = len(env.http_requests)
    saved = await members[0].click(now(env, message), custom_id=control(now(env, message), "dh:rpa:"))
    posted = [m for m in channel.history() if m.author.bot and m not in posts_before]
    assert len(posted) == 1
    (picture,) = posted[0].attachments
    assert picture.filename == f"replay-{table_id}.png" and picture.size <= animation.MAX_BYTES
    data = env.backend.cdn.get(picture.url)
    assert data is not None and len(data) == picture.size
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.n_frames > 1  # an animated PNG
    bot_posts = [r for r in since(env, start) if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"]
    assert len(bot_posts) == 1  # the one request with the bot's token
    assert "Posted in the game's thread" in text_of(saved)
    again = await members[0].click(now(env, message), custom_id=control(now(env, message), "dh:rpa:"))
    assert "posted already" in text_of(again)
    assert len([m for m in channel.history() if m.author.bot and m not in posts_before]) == 1


@pytest.mark.extensions(*GAMES)
async def test_save_as_picture_while_drawing_is_told_so(simcord_env, monkeypatch):
    env = simcord_env
    guild, channel, members, table_id, message = await replay_open(env, 2, by=1)
    env.bot.replays.drawing.add((guild.id, table_id))  # another player's click is drawing it
    told = await members[1].click(now(env, message), custom_id=control(now(env, message), "dh:rpa:"))
    assert told.ephemeral and "being drawn already" in text_of(told)
    assert not [m for m in channel.history() if m.author.bot and m.attachments]
