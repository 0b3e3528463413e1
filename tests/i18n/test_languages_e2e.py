"""Whose language, end to end in SimCord: on a Spanish server, a player whose Discord is
in Spanish and one whose Discord is in English play a round of Cripple Mr Onion. What
everyone sees (the board) is in the server's language; each hand and /rules page is in
its reader's. /settings language switches the server, and its answer is in the language
of the member who asked."""

from __future__ import annotations

import pytest

from tests.e2e.locales import client_locales, component
from tests.e2e.ui import board, game_place, text, use_control
from tests.e2e.world import ALL_EXTENSIONS, add_admin, add_members, guild_with_channel

pytestmark = pytest.mark.extensions(*ALL_EXTENSIONS)


def server(env, monkeypatch, preferred: str):
    guild, channel = guild_with_channel(env, "cartas", preferred_locale=preferred)
    ana = add_admin(env, guild, "ana")
    (bob,) = add_members(env, guild, ["bob"])
    client_locales(monkeypatch, {ana.id: "es-ES", bob.id: "en-US"})
    return guild, channel, ana, bob


async def open_and_start(channel, ana, bob):
    opened = await ana.slash(channel, "onion new")
    lobby = opened.response.message
    verbs = component(lobby, "dh:lobby:").rsplit(":", 1)[0]
    await bob.click(lobby, custom_id=f"{verbs}:join")
    await ana.click(lobby, custom_id=f"{verbs}:start")


async def hands(channel, ana, bob):
    place = game_place(channel)
    return (await ana.slash(place, "hand")).response.message, (await bob.slash(place, "hand")).response.message


async def test_a_spanish_server_with_an_english_player(simcord_env, monkeypatch):
    env = simcord_env
    _guild, channel, ana, bob = server(env, monkeypatch, "es-ES")
    await open_and_start(channel, ana, bob)

    shown = text(board(channel))
    # (The board over the picture has no Recent heading; its first line says what to do.)
    assert "**Bote:**" in shown and "descarta hasta cuatro cartas" in shown and "**Pot:**" not in shown
    ana_hand, bob_hand = await hands(channel, ana, bob)
    assert "Tus cartas" in text(ana_hand) and "Boca abajo" in text(ana_hand)
    assert "Your cards" in text(bob_hand) and "Face down" in text(bob_hand) and "Tus cartas" not in text(bob_hand)

    # /rules in each reader's language.
    ana_rules = (await ana.slash(channel, "rules", game="onion")).response.content
    bob_rules = (await bob.slash(channel, "rules", game="onion")).response.content
    assert ana_rules != bob_rules
    assert ana_rules.startswith(open("docs/rules/es/onion.md", encoding="utf-8").read()[:40])
    assert bob_rules.startswith(open("docs/rules/onion.md", encoding="utf-8").read()[:40])

    # The server switches to English: Ana is answered in Spanish, the board follows
    # from the next move, and Ana's own hand stays Spanish.
    switched = await ana.slash(channel, "settings language", language="en")
    assert "estarán en inglés" in switched.response.content
    table = env.bot.tables.tables()[0]
    (mover,) = table.state.current_players()
    member = ana if mover == ana.id else bob
    own = (await member.slash(game_place(channel), "hand")).response.message
    await use_control(member, own, table.state.legal_actions(mover)[0].code())
    shown = text(board(channel))
    assert "**Pot:**" in shown and "**Bote:**" not in shown
    ana_hand, bob_hand = await hands(channel, ana, bob)
    assert "Tus cartas" in text(ana_hand) and "Your cards" in text(bob_hand)


async def test_auto_follows_the_servers_preferred_locale(simcord_env, monkeypatch):
    env = simcord_env
    _guild, channel, ana, bob = server(env, monkeypatch, "en-US")
    await open_and_start(channel, ana, bob)
    shown = text(board(channel))
    assert "**Pot:**" in shown and "**Bote:**" not in shown
    ana_hand, _bob_hand = await hands(channel, ana, bob)
    assert "Tus cartas" in text(ana_hand)  # a Spanish client on an English server


async def test_only_managers_choose_and_a_forged_choice_changes_nothing(simcord_env, monkeypatch):
    env = simcord_env
    _guild, channel, ana, bob = server(env, monkeypatch, "es-ES")
    refused = await bob.slash(channel, "settings language", language="en")
    assert refused.response.content.startswith("Only members with Manage Server")  # Bob's client is English
    await open_and_start(channel, ana, bob)
    assert "**Bote:**" in text(board(channel))
