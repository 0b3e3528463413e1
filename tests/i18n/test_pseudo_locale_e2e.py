"""Nothing left behind: a SimCord game of each of the five kinds, on a server and a client
both in the pseudo-language (``en-XA``: every sentence accented, a third longer, wrapped in
⟦…⟧). Every request the bot sends is read, and an English word outside the brackets is a
sentence that skipped the catalog. The conformance check (tests/discord_conformance.py)
holds every message to Discord's limits at the longer length."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.words import i18n, i18n_tools
from bot.core import computer
from tests.e2e.locales import client_locales, component
from tests.e2e.ui import button_ids, game_place, select_options, use_control
from tests.e2e.world import ALL_EXTENSIONS, add_admin, guild_with_channel
from tests.i18n.pseudo import english_words
from tests.i18n.test_onion_spanish import ONION_TERMS

pytestmark = pytest.mark.extensions(*ALL_EXTENSIONS)

#: Words that stay English on purpose (docs/developers/translations.md): game titles,
#: names, the sides, card and hand names, commands and their options, Enid's phrases.
KEPT = [
    "Cripple Mr Onion", "Engines of Discrimination", "Blackjack", "Idiot", "Enid", "Deckhand",
    "Google", "Yahoo", "easy", "hard", "Last card", "Last St. Francis of Assisi",
]


def strings(value: Any, key: str = "") -> list[str]:
    """Every piece of text a person reads in a request body."""
    if isinstance(value, dict):
        found = []
        for k, v in value.items():
            if k in {"custom_id", "url", "proxy_url", "filename", "id", "type", "style", "value", "emoji", "allowed_mentions", "flags"}:
                continue
            found += strings(v, k)
        return found
    if isinstance(value, list):
        return [s for item in value for s in strings(item, key)]
    return [value] if isinstance(value, str) and value.strip() else []


def codes(message: Any) -> list[str]:
    return select_options(message) + [cid.split(":", 5)[5] for cid in button_ids(message) if cid.startswith("dh:act:")]


GAMES = {
    "blackjack": ("blackjack new", {}),
    "idiot": ("idiot new", {}),
    "engines": ("engines new", {"players": 2}),
    "onion": ("onion new", {"variant": "plain"}),
    "enid": ("enid new", {"mode": "plain"}),
}


@pytest.fixture(scope="module")
def marked() -> frozenset[str]:
    """Every sentence the extractor finds in the code (what the catalogs can translate)."""
    found = set()
    for catalog in i18n_tools.extract().values():
        for message in catalog:
            if message.id:
                found.update([message.id] if isinstance(message.id, str) else message.id)
    return frozenset(found)


def only_marked_sentences(monkeypatch, marked: frozenset[str]) -> None:
    """The pseudo-language brackets a sentence only if the extractor sees it: a text
    passed to ``_()`` but never marked (so no catalog can hold it) stays English here,
    as it would in Spanish, and the test names it."""
    pseudo = i18n._pseudo
    # "and"/"or" are no catalog sentences: a language's list pattern says them (i18n.join),
    # and the pseudo-language's join brackets them itself.
    joined = frozenset({"and", "or"})
    monkeypatch.setattr(i18n, "_pseudo", lambda msgid: pseudo(msgid) if msgid in marked or msgid in joined else msgid)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_in_the_pseudo_language_shows_no_word_outside_the_catalog(simcord_env, monkeypatch, marked, game):
    env = simcord_env
    only_marked_sentences(monkeypatch, marked)
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: 20261128)
    guild, channel = guild_with_channel(env, "cards", preferred_locale=i18n.PSEUDO)
    host = add_admin(env, guild, "host")
    client_locales(monkeypatch, {host.id: i18n.PSEUDO})
    await host.slash(channel, "settings bot-pause", seconds=0.0)
    command, options = GAMES[game]
    opened = await host.slash(channel, command, **options)
    lobby = opened.response.message
    verbs = ":".join(component(lobby, "dh:lobby:").split(":")[:4])  # dh:lobby:<guild>:<table>
    await host.click(lobby, custom_id=f"{verbs}:addbot:easy")
    if game != "engines":
        await host.click(lobby, custom_id=f"{verbs}:addbot:hard")
    await host.click(lobby, custom_id=f"{verbs}:start")
    (table,) = env.bot.tables.tables()
    rng = random.Random(5)
    for _ in range(60):
        if table.status != "playing" or host.id not in table.state.current_players():
            break
        shown = await host.slash(game_place(channel), "hand")
        offered = codes(shown.response.message)
        if not offered:
            break
        code = "ready" if "ready" in offered else rng.choice(offered)
        await use_control(host, shown.response.message, code)

    names = [host.name, "host", *(computer.name(p) for p in table.record.players if computer.is_computer(p))]
    if game == "onion":
        names += ONION_TERMS  # the Discworld hand and card names stay English
    leaks: dict[str, list[str]] = {}
    for request in env.http_requests:
        if request.method == "GET" or request.path.endswith("/commands"):
            continue
        for text in strings(request.json):
            words = english_words(text, [*KEPT, *names])
            if words:
                leaks[text[:300]] = words
    assert not leaks, "\n".join(f"{words}: {text!r}" for text, words in list(leaks.items())[:40])
