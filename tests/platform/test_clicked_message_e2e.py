"""A click on a Deckhand control reaches discord.py with its message cut down to the way
to the clicked control (bot/discord_front/clicks.py); the click plays as before, and
anything else is parsed as it came."""

from __future__ import annotations

import copy

import pytest

from bot.discord_front.clicks import prune_clicked_messages, pruned
from tests.e2e.ui import board, game_place
from tests.e2e.world import TOY, world
from tests.platform.test_table_e2e import mover_of, now, play_code, start

pytestmark = pytest.mark.extensions(*TOY)

ROW, BUTTON, SELECT, SECTION, TEXT, CONTAINER = 1, 2, 3, 9, 10, 17


def hand_payload(custom_id: str = "dh:play:1:2:3", component_type: int = SELECT) -> dict:
    """A click on a V2 hand: a container of text, a section with a button, and rows."""
    message = {
        "id": "55", "channel_id": "66", "content": "", "flags": 1 << 15,
        "mentions": [{"id": "7", "username": "ann", "discriminator": "0", "avatar": None}],
        "components": [{"type": CONTAINER, "id": 1, "components": [
            {"type": TEXT, "id": 2, "content": "Your hand"},
            {"type": SECTION, "id": 3, "components": [{"type": TEXT, "id": 4, "content": "Pass?"}],
             "accessory": {"type": BUTTON, "id": 5, "style": 2, "label": "Pass", "custom_id": "dh:act:1:2:3:pass"}},
            {"type": ROW, "id": 6, "components": [
                {"type": SELECT, "id": 7, "custom_id": "dh:play:1:2:3", "options": [{"label": "10 of Hearts", "value": "Th"}]}]},
            {"type": ROW, "id": 8, "components": [
                {"type": BUTTON, "id": 9, "style": 2, "label": "Next", "custom_id": "dh:page:1:2:3:1"}]},
        ]}],
    }
    return {"type": 3, "id": "99", "data": {"custom_id": custom_id, "component_type": component_type}, "message": message}


def test_the_clicked_message_keeps_only_the_way_to_the_clicked_control_and_the_payload_is_not_edited():
    data = hand_payload()
    sent = copy.deepcopy(data)
    light = pruned(data)
    assert data == sent  # the payload as Discord sent it is left alone
    (container,) = light["message"]["components"]
    assert container["id"] == 1 and [c["id"] for c in container["components"]] == [6]
    assert container["components"][0]["components"][0]["custom_id"] == "dh:play:1:2:3"
    assert light["message"]["mentions"] == [] and light["message"]["id"] == "55" and light["message"]["flags"] == 1 << 15
    # A section's accessory: the section is kept whole.
    section = pruned(hand_payload("dh:act:1:2:3:pass", BUTTON))["message"]["components"][0]["components"]
    assert [c["id"] for c in section] == [3] and section[0]["accessory"]["label"] == "Pass"


@pytest.mark.parametrize("change", [
    lambda d: d.update(type=2),  # a slash command
    lambda d: d["data"].update(custom_id="someone-else:1"),  # not a Deckhand control
    lambda d: d["data"].update(custom_id="dh:play:9:9:9"),  # not in the message
    lambda d: d["data"].update(component_type=BUTTON),  # the id, but not of that kind
    lambda d: d["message"].update(components="nonsense"),
    lambda d: d.pop("message"),
    lambda d: d["data"].pop("custom_id"),
])
def test_anything_else_is_parsed_as_it_came(change):
    data = hand_payload()
    change(data)
    assert pruned(data) is data


async def test_a_click_plays_with_the_pruned_message_and_the_parser_is_wrapped_once(simcord_env):
    env = simcord_env
    state = env.bot._connection
    wrapped = state.parsers["INTERACTION_CREATE"]
    assert getattr(wrapped, "prunes_clicked_messages", False)
    prune_clicked_messages(state)  # a second call (a reconnect's setup) does not wrap it again
    assert state.parsers["INTERACTION_CREATE"] is wrapped

    seen = []
    env.bot.interaction_hooks.append(lambda interaction: seen.append(interaction.message))
    guild, channel, members = world(env, 2)
    await start(channel, members)
    mover, table = mover_of(env, members)
    shown = await mover.click(board(channel), label="Show hand")
    hand = now(env, shown.response.message)
    seen.clear()
    await mover.select(hand, [play_code(table, mover)])
    assert table.record.version == 1  # played
    (clicked,) = seen
    assert clicked.id == hand.id and clicked.mentions == []
    assert len(clicked.components) == 1 and len(hand.components) >= 1
    assert game_place(channel) is not None
