"""On Discord too, the limerick a black Turing may force can be declined (issue 37,
item 9): after the name, the layer's open hand says a first line is awaited and offers
No limerick; pressing it ends the turn at once, nobody waits out the ritual timer."""

from __future__ import annotations

from tests.e2e.ui import button_ids, game_place, text
from tests.enid.test_e2e_enid import board, open_and_start, setup_world, type_


async def test_no_limerick_on_the_hand_declines_at_once(simcord_env, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["6s", "9s", "5s", "3s"], ["5c", "3c", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    shown = await ada.click(board(channel), label="Show hand")
    await ada.select(shown.response.message, ["play:6s"])
    await type_(ada, channel, "Alan Turing of Sturgeon")
    assert [o["kind"] for o in table.state.obligations] == ["first_line"]
    hand = (await ada.slash(game_place(channel), "hand")).response.message
    words = text(hand)
    assert "first line of a limerick" in words and "or press No limerick to set none" in words, words
    (decline,) = [cid for cid in button_ids(hand) if cid.endswith(":no_limerick")]
    await ada.click(hand, custom_id=decline)
    assert table.state.obligations == [] and table.state.current == bob.id and table.state.limerick is None
    assert "📜 <@%d> set no limerick" % ada.id in text(board(channel))
