"""What a board says, read as members see it through SimCord (issues 35 and 37): the
first line names everyone who must act, on a board posted anew and on one edited in
place; the final board names the winner once in words (and once more in the
standings); the card picture carries its alt text where Discord reads it."""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e.ui import _tree, board, game_place, head, text, use_control
from tests.e2e.world import world

SEED = 20240611
MENTION = re.compile(r"<@(\d+)>")


@pytest.fixture
def fixed_seed(monkeypatch):
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)


async def start(env, game, n=3):
    guild, channel, members = world(env, n, channel=game, names=("ada", "bob", "cy", "di")[:n])
    lobby = (await members[0].slash(channel, f"{game} new")).response.message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    return channel, members, table


def first_line(message) -> str:
    return head(message).split("\n")[0]


def gallery_descriptions(message) -> list[str | None]:
    found: list[str | None] = []

    def walk(component):
        if component.get("type") == 12:  # MediaGallery
            found.extend(item.get("description") for item in component.get("items", ()))
        for child in component.get("components", ()):
            walk(child)

    for top in _tree(message):
        walk(top)
    return found


async def test_edited_board_names_everyone_still_swapping(simcord_env, fixed_seed):
    """Idiot's swap phase: after one player is ready, the board is edited in place (no
    one newly owes a move, so nobody is pinged) and its first line still names the two
    who are swapping, with what they must do."""
    channel, (ada, bob, cy), table = await start(simcord_env, "idiot")
    posted = board(channel)
    assert all(m.mention in first_line(posted) for m in (ada, bob, cy))
    hand = await ada.slash(game_place(channel), "hand")
    await use_control(ada, hand.response.message, "ready")
    edited = board(channel)
    assert edited.id == posted.id  # edited in place, not posted anew
    line = first_line(edited)
    assert line.startswith("👉") and bob.mention in line and cy.mention in line, line
    assert ada.mention not in line
    assert "Ready" in line  # what they must do


async def test_every_board_of_a_game_starts_with_who_must_act(simcord_env, fixed_seed):
    """Blackjack, a whole game: every board, posted or edited, starts with a 👉 line
    naming exactly the players the rules wait for."""
    channel, members, table = await start(simcord_env, "blackjack")
    by_id = {m.id: m for m in members}
    rng = random.Random(5)
    edits = 0
    for _ in range(400):
        if table.status != "playing":
            break
        shown = board(channel)
        current = sorted(table.state.current_players())
        line = first_line(shown)
        assert line.startswith("👉"), line
        assert sorted(int(u) for u in MENTION.findall(line)) == current, line
        edits += shown.edited_at is not None
        mover = by_id[current[0]]
        code = rng.choice(table.state.legal_actions(mover.id)).code()
        opened = await mover.slash(game_place(channel), "hand")
        await use_control(mover, opened.response.message, code)
    assert table.status == "finished"
    assert edits  # boards edited in place were read too, not only boards posted anew


async def test_final_board_names_the_winner_once(simcord_env, fixed_seed):
    """The finished Idiot board: the winner named once in words and once in the
    standings, nowhere else; the 🥇 mark (🏆 is Onion's cups); the one leaderboard
    command; no heading with the game's title under the result; the picture's alt text
    on its gallery item, as sentences."""
    channel, members, table = await start(simcord_env, "idiot")
    by_id = {m.id: m for m in members}
    rng = random.Random(3)
    for _ in range(900):
        if table.status != "playing":
            break
        mover = by_id[sorted(table.state.current_players())[0]]
        legal = table.state.legal_actions(mover.id)
        if table.state.phase == "swap":
            legal = [a for a in legal if a.kind == "ready"]
        opened = await mover.slash(game_place(channel), "hand")
        await use_control(mover, opened.response.message, rng.choice(legal).code())
    assert table.status == "finished"
    final = board(channel)
    words = text(final)
    (winner,) = table.state.placements()[0]
    assert words.count(f"<@{winner}>") == 2, words  # "won the Idiot game", and the standings
    assert first_line(final).startswith(f"🥇 <@{winner}> won the Idiot game!")
    assert "🏆" not in words and "/leaderboard" in words and "/stats" not in words
    assert "### Idiot" not in words
    (alt,) = gallery_descriptions(final)
    assert alt and alt.startswith("Card picture.") and alt.endswith("."), alt
