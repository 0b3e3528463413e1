"""Cripple Mr Onion end to end through SimCord: the real bot, /onion commands, hand
buttons, the multi-card discard select and the any-amount form. Moves go through the
controls a hand message offers; the rules state is only read, to know who acts.

Round 1 is dealt from a stacked pack (``OnionGame.new`` is given a ``deal`` instead of
the platform's seed), so the fold, the auction and the Fool are certain."""

from __future__ import annotations

import json
import sqlite3

import pytest

from cogs.onion.rules import OnionGame
from tests.conftest import restart
from tests.e2e.ui import board, button_ids, embed_of, game_place, text, use_control
from tests.e2e.world import world
from tests.onion.onion_round_helpers import codes, stack

SEED = 987654321


@pytest.fixture
def stacked(monkeypatch):
    """A queue of stacked deals: while it holds one, Start deals it instead of a seed."""
    queue: list[tuple] = []  # (dealer index, first five, exchange[, second five]) by seat index
    original = OnionGame.new.__func__

    def new(cls, players, options=None, *, seed=None, deal=None):
        if queue and deal is None:
            dealer_index, first, exchange, *more = queue.pop(0)
            dealer = players[dealer_index]
            hands = {players[i]: cards for i, cards in first.items()}
            swaps = {players[i]: cards for i, cards in exchange.items()}
            second = {players[i]: cards for i, cards in (more[0] if more else {}).items()}
            deck = stack(list(players), dealer, hands, swaps, second)
            return original(cls, players, options, deal={"deck": deck, "dealer": dealer})
        return original(cls, players, options, seed=seed, deal=deal)

    monkeypatch.setattr(OnionGame, "new", classmethod(new))
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
    return queue


def carry_row(data_dir, guild_id, channel_id):
    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as con:
        return con.execute("SELECT data FROM carryover WHERE channel_id = ? AND game = 'onion'", (channel_id,)).fetchall()


async def hand_of(member, channel):
    shown = await member.slash(game_place(channel), "hand")
    assert shown.ephemeral
    return shown.response.message


def component(message, prefix):
    return next(cid for cid in button_ids(message) + select_ids(message) if cid.startswith(prefix))


def select_ids(message):
    return [item.get("custom_id", "") for row in message.components for item in
            (row.get("components", []) if isinstance(row, dict) else [c.to_dict() for c in row.children]) if item["type"] == 3]


async def play(member, channel, code):
    """Play ``code`` from a fresh hand message, as a person would."""
    table = member._env.bot.tables.tables()[0]
    version = table.record.version
    result = await use_control(member, await hand_of(member, channel), code)
    assert table.record.version == version + 1, result.response.content
    return result


PREFERRED = ("match", "discard", "bet::0", "extra::0", "buy::0", "decline", "done", "show", "concede")


def choice(state, player, wanted=()):
    legal = [a.code() for a in state.legal_actions(player)]
    for code in (*wanted, *PREFERRED):
        if code in legal:
            return code
    return legal[0]


async def play_out(env, channel, members, wanted=None, limit=200):
    """Each player to act plays ``wanted[player]`` codes when legal, else a calm default."""
    by_id = {m.id: m for m in members}
    for _ in range(limit):
        tables = env.bot.tables.tables()
        if not tables or tables[0].status != "playing":
            return
        table = tables[0]
        player = min(table.state.current_players(), key=table.state.players.index)
        await play(by_id[player], channel, choice(table.state, player, (wanted or {}).get(player, ())))
    pytest.fail("the round did not end")


async def test_a_session_of_rounds(simcord_env, data_dir, stacked):
    env = simcord_env
    guild, channel, members = world(env, 5, channel="onion", prefix="player")
    m0, m1, m2, m3, m4 = members

    refused = await m0.slash(channel, "onion new", stake=0)
    assert refused.ephemeral and "The Stake is a whole number of chips from 1" in refused.response.content
    assert not env.bot.tables.tables()

    # Round 1: m0 deals; m1 folds in the exchange; m3 holds the Fool.
    stacked.append((0, {0: codes("2c 3d 4h 5s 6c"), 1: codes("7d 8h 9s Tc 2d"), 2: codes("3h 4s 5c 6d 7h"),
                        3: codes("Jc 9h Th Ts 9d")}, {2: codes("8s 9c")}))
    opened = await m0.slash(channel, "onion new", stake=1, raise_cap=10, chips=100)
    lobby = opened.response.message
    # The lobby says the table's options in words, and counts the fifteen house rules at
    # their usual setting rather than cutting their sentences off at the field's limit.
    options = next(f.value for f in embed_of(lobby).fields if f.name == "Game options").split("\n")
    assert options == ["Gambling: everyone starts with 100 chips; the Stake is 1 chip and a raise is at most 10 chips.",
                       "15 house rules are at their usual setting: `/settings show game:onion` lists them."]
    for member in (m1, m2, m3):
        await member.click(lobby, label="Join")
    await m0.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    state = table.state
    assert state.dealer == m0.id and state.phase == "exchange"

    await play(m1, channel, "fold")
    hand = await hand_of(m2, channel)
    multi = component(hand, "dh:multi:")
    await m2.select(hand, ["3h", "4s"], custom_id=multi)  # two cards at once, from the multi-card select
    assert sorted(map(str, state.down[m2.id])) == sorted(codes("5c 6d 7h 8s 9c"))
    assert "exchanged 2 cards" in "\n".join(table.record.recent)
    await play(m3, channel, "discard")
    await play(m0, channel, "discard")

    # The Dealer names an amount in the form: a word is refused, then 3 is bet.
    assert state.phase == "bet" and state.current_players() == {m0.id}
    hand = await hand_of(m0, channel)
    form_id = component(hand, "dh:amt:")
    assert form_id.endswith(":bet")
    shown = await m0.click(hand, custom_id=form_id)
    assert shown.modal is not None
    version = table.record.version
    bad = await m0.submit_modal(shown, {"amount": "three"})
    assert "'three' is not a whole number of chips" in bad.response.content and table.record.version == version
    shown = await m0.click(await hand_of(m0, channel), custom_id=form_id.replace(f":{version}:", f":{table.record.version}:"))
    too_much = await m0.submit_modal(shown, {"amount": "500"})
    assert table.record.version == version and too_much.response.content  # above the cap: a sentence
    hand = await hand_of(m0, channel)
    shown = await m0.click(hand, custom_id=component(hand, "dh:amt:"))
    await m0.submit_modal(shown, {"amount": "3"})
    assert table.record.version == version + 1 and state.chips[m0.id] == 99 - 3

    # A collective raise the Dealer refuses: the dealership goes to auction.
    await play(m2, channel, "raise::2")
    await play(m3, channel, "match")
    await play(m0, channel, "fold")
    assert state.phase == "auction"
    bid = choice(state, m2.id, [a.code() for a in state.legal_actions(m2.id) if a.kind == "bid"][:1])
    await play(m2, channel, bid)
    await play(m3, channel, "decline")
    assert state.dealer == m2.id

    # Restart mid-round, with the new Dealer's amount form open: the round continues from
    # storage, and the form submitted after the restart still plays (read from its custom_id).
    assert state.current_players() == {m2.id}
    hand = await hand_of(m2, channel)
    form = await m2.click(hand, custom_id=component(hand, "dh:amt:"))
    before = table.state.to_json()
    await restart(env, data_dir)
    (table,) = env.bot.tables.tables()
    assert table.state.to_json() == before
    version = table.record.version
    await m2.submit_modal(form, {"amount": "1"})
    assert table.record.version == version + 1 and table.state.amount == 1

    # m3 buys three cards face down; m3 declares the Fool before the showdown.
    await play_out(env, channel, members, {m3.id: ("buy::3", "declare:Jc:fool")})
    assert table.status == "finished"
    with sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3") as con:
        moves = con.execute("SELECT user_id, code FROM actions WHERE table_id = ?", (table.id,)).fetchall()
    assert (m3.id, "buy::3") in moves and (m3.id, "declare:Jc:fool") in moves and (m0.id, "bet::3") in moves
    assert table.state.fool and any(d["card"] == "Jc" and d["player"] == m3.id for d in table.state.declared)
    final = board(channel)
    assert "won the Cripple Mr Onion round" in text(final)  # a table is a round of the session
    assert any(cid.startswith("dh:rematch:") for cid in button_ids(final))
    assert "Next round" in str(final.components)
    (carry_json,) = carry_row(data_dir, guild.id, channel.id)
    bankrolls_after_1 = dict(table.state.chips)
    assert sum(bankrolls_after_1.values()) + table.state.pot == 400

    # Round 2: Next round opens a lobby with the same players; m1 leaves, m4 joins.
    nxt = await m3.click(final, label="Next round")
    lobby2 = nxt.response.message
    await m1.click(lobby2, label="Leave")
    await m4.click(lobby2, label="Join")
    await m3.click(lobby2, label="Start")
    (table2,) = env.bot.tables.tables()
    assert table2.state.round_no == 2
    for player in (m0, m2, m3):
        assert table2.state.chips[player.id] == bankrolls_after_1[player.id] - 1  # the ante, from the session
    assert table2.state.chips[m4.id] == 99

    # Ending the session mid-round is refused; so is ending it as someone else.
    early = await m3.slash(channel, "onion session end")
    assert "still in play" in early.response.content
    await play_out(env, channel, members)
    assert table2.status == "finished"

    # Round 3: the same four from the finished board; the session's chips are all still there.
    nxt = await m3.click(board(channel), label="Next round")
    await m3.click(nxt.response.message, label="Start")
    (table3,) = env.bot.tables.tables()
    assert table3.state.round_no == 3 and sorted(table3.state.players) == sorted(p.id for p in (m0, m2, m3, m4))
    await play_out(env, channel, members)
    assert table3.status == "finished"
    (carry_json,) = carry_row(data_dir, guild.id, channel.id)
    carry = json.loads(carry_json[0])
    assert sum(carry["bankrolls"].values()) + carry["pot"] == 500  # m1's bankroll waits in the session

    other = await m0.slash(channel, "onion session end")
    assert "Only the host of the last round" in other.response.content and carry_row(data_dir, guild.id, channel.id)
    ended = await m3.slash(channel, "onion session end")
    assert not ended.ephemeral and "the session is over" in ended.response.content
    assert "3 rounds played" in ended.response.content and m1.mention in ended.response.content
    assert f"{m1.mention}: {bankrolls_after_1[m1.id]} chips" in ended.response.content
    assert not carry_row(data_dir, guild.id, channel.id)
    again = await m3.slash(channel, "onion session end")
    assert "no Cripple Mr Onion session" in again.response.content


async def test_a_plain_variant_round(simcord_env, data_dir, stacked):
    env = simcord_env
    guild, channel, members = world(env, 3, channel="onion-plain", prefix="plain")
    refused = await members[0].slash(channel, "onion new", chips=0)
    assert "Starting chips must be at least one Stake (1)" in refused.response.content
    opened = await members[0].slash(channel, "onion new", variant="plain")
    for member in members[1:]:
        await member.click(opened.response.message, label="Join")
    await members[0].click(opened.response.message, label="Start")
    (table,) = env.bot.tables.tables()
    assert not table.state.gambling
    hand = await hand_of(members[1], channel)
    assert not any(cid.startswith("dh:amt:") for cid in button_ids(hand))  # no chips, no amounts
    await play_out(env, channel, members)
    assert table.status == "finished" and table.state.winner in {m.id for m in members}
    # The plain session's summary has no chips to lead with: it lists rounds won.
    ended = await members[0].slash(channel, "onion session end")
    summary = ended.response.content
    assert "1 round played" in summary and "chip" not in summary
    winner = next(m for m in members if m.id == table.state.winner)
    lines = summary.splitlines()
    first = lines.index("1 round played.") + 1
    assert lines[first] == f"{winner.mention}: 1 round won", summary  # the winner leads
    assert all(line.endswith(": 0 rounds won") for line in lines[first + 1:first + 3])


def test_option_refusals_name_the_allowed_values():
    from cogs.onion.cog import option_refusal

    assert option_refusal(1, 10, 100, "gambling") is None and option_refusal(5, 1, 5, "plain") is None
    assert "from 1 to 100" in option_refusal(1, 0, 100, "gambling")
    assert option_refusal(1, 10, 100, "poker") == "The variant is `gambling` or `plain`, not `poker`."
