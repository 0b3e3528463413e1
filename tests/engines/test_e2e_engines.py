"""Engines of Discrimination end to end through SimCord: the real bot, driven only by
slash commands, lobby buttons, the Show hand button, hand selects and hand buttons.

- a whole 2-player game: sides chosen in the lobby, one hand in DMs, Google's IPO,
  Yahoo's tie-breaker (shown, and declined), a turn timer that plays the
  closest card, and the result in the channel and in the database;
- a 4-player game in teams, the whole best of three through the UI: the cut, the
  IPO (once per set), tie-breakers, both refill choices, and a restart mid-set;
- lobby rules: table size, random sides, over-full sides.

In every search, no public message shows a hidden pick before the reveal: every REST
call the bot made (``env.http_requests``) in that window is scanned.
"""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import discord
import pytest
from simcord.results import to_discord_message

import bot.discord_front.tables.lobby
from bot.rules.cards import parse_card
from bot.words.render_util import card_text
from tests.conftest import restart
from tests.e2e.ui import embed_of, head, is_v2
from tests.e2e.world import db_rows, world

TIMER = 120


# ----------------------------------------------------------------------------- world


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    """Start draws its seed from ``secrets``; fix it so each run deals the same game."""
    seeds = iter(range(7001, 7100))
    monkeypatch.setattr(bot.discord_front.tables.lobby, "secrets", SimpleNamespace(randbits=lambda bits: next(seeds)))


def setup_world(env, n):
    return world(env, n, channel="engines", prefix="player")


async def pictures_off(env, guild, channel):
    """A server whose boards are text only: a test that reads the whole table in the
    board's text (with card pictures on, the board over the picture keeps only what the
    picture cannot show)."""
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    await admin.slash(channel, "settings pictures", mode="off")


def place_of(env, channel_id):
    """Where the game is played: the newest thread opened from the channel, else the channel."""
    threads = [c.id for c in env.backend.channels.values() if c.is_thread and c.parent_id == channel_id]
    return threads[-1] if threads else channel_id


def newest(env, channel_id, *, board=False):
    """The newest message everyone can see where the game is played (SimCord's
    ``last_message`` converts the whole history on every call: too slow for a game of
    many searches). ``board=True``: the newest with an embed or a V2 layout (the board, not a ping)."""
    stored = env.backend.messages.get(place_of(env, channel_id), {})
    for message_id in sorted(stored, reverse=True):
        if stored[message_id].visible_to(None):
            message = to_discord_message(env, stored[message_id])
            if not board or message.embeds or is_v2(message):
                return message
    return None


def the_table(env):
    (table,) = env.bot.tables.tables()
    return table


def items(message):
    """Buttons and selects of a message (a discord.Message or a SimCord response)."""
    rows = message.components
    out = []
    for row in rows:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict):
                out.append({"label": child.get("label"), "options": [o["value"] for o in child.get("options", [])], "type": child["type"]})
            else:
                options = [o.value for o in getattr(child, "options", [])]
                out.append({"label": getattr(child, "label", None), "options": options, "type": int(child.type.value)})
    return out


def button_labels(message):
    return [i["label"] for i in items(message) if i["type"] == 2]


def select_values(message):
    return [v for i in items(message) if i["type"] == 3 for v in i["options"]]


def value(code):
    card = parse_card(code)
    return None if card.rank.is_picture else int(card.rank)


def gap(request, code):
    """The test's own reading of "how close": images only match the same image."""
    req, card = parse_card(request), parse_card(code)
    if req.rank.is_picture:
        return 0 if card.rank == req.rank else None
    v = value(code)
    return None if v is None else abs(v - int(req.rank))


def closest(request, hand):
    """The card the turn timer should play: closest, lower value among equals, any card
    (the lowest) when none can answer."""
    def key(code):
        g = gap(request, code)
        card = parse_card(code)
        return (g is None, g or 0, int(card.rank), card.suit.value)
    return min(hand, key=key)


# ------------------------------------------------------------------- the leak scanner


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def public_lines(entry, channel_ids):
    """The text lines of a REST call that everyone in the channel can see, or None when
    the call is private (a DM, an ephemeral message, the update of a hand message)."""
    path, payload = entry.path, entry.json
    if payload is None or entry.method not in ("POST", "PATCH"):
        return None
    if path.startswith("/channels/"):
        if not any(path.startswith(f"/channels/{c}/messages") for c in channel_ids):
            return None  # a DM channel: private to its player
        data = payload
    elif path.startswith("/interactions/"):
        data = payload.get("data") or {}
        if payload.get("type") == 7 and is_hand(data):
            return None  # a hand message updated in place: ephemeral or DM
    elif path.startswith("/webhooks/"):
        data = payload
        if entry.method == "PATCH" and is_hand(data):
            return None  # a live hand updated through its token: ephemeral
    else:
        return None
    if int(data.get("flags") or 0) & 64:
        return None  # ephemeral
    # A classic board's words are in its content and embed; a V2 board's in its TextDisplays.
    return [line for text in [*_strings({k: v for k, v in data.items() if k != "components"}), *v2_texts(data)] for line in text.split("\n")]


def is_hand(data):
    """A hand message's payload: an embed titled "Your hand…", or a V2 layout whose text
    carries that title as its heading."""
    return any((e.get("title") or "").startswith("Your hand") for e in data.get("embeds") or []) or any(t.startswith("### Your hand") or "\n### Your hand" in t for t in v2_texts(data))


def v2_texts(data):
    """The TextDisplays (type 10) of a Components V2 payload."""
    found = []

    def walk(component):
        if component.get("type") == 10:
            found.append(component.get("content") or "")
        for child in component.get("components") or ():
            walk(child)

    for top in data.get("components") or ():
        walk(top)
    return found


class LeakWatch:
    """Per search: lines that are new in public messages between the first pick and the
    reveal must name no picked card (neither its face nor its code)."""

    def __init__(self, env, channel):
        self.env, self.channel = env, channel
        self.searches_checked = 0

    def public_ids(self):
        """The channel and the game's thread: everything else the bot writes is a DM."""
        return {self.channel.id, *(t.id for t in self.channel.threads)}

    def mark(self):
        return len(self.env.http_requests)

    def _public(self, start, stop):
        out = []
        for entry in self.env.http_requests[start:stop]:
            lines = public_lines(entry, self.public_ids())
            if lines is not None:
                out.append((entry, lines))
        return out

    def check(self, first_pick_at, reveal_at, picks, names):
        # The baseline is the newest public message before the first pick: the table
        # message that turned this Search Request (or an edit of it).
        # With the ping posted after the board, read back to the newest board payload.
        baseline = set()
        for entry in reversed(self.env.http_requests[:first_pick_at]):
            lines = public_lines(entry, self.public_ids())
            if lines is not None:
                baseline.update(lines)
                data = entry.json.get("data") or entry.json
                if data.get("embeds") or v2_texts(data):
                    break
        assert baseline, "a table message was posted before the picks"
        window = self._public(first_pick_at, reveal_at)
        for _, lines in window:
            for line in lines:
                if line in baseline:
                    continue
                for code in picks.values():
                    for face in (parse_card(code).display(), card_text(code)):  # (the text prints card_text)
                        assert face not in line, f"pick {face} visible before the reveal: {line!r}"
                    assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])", line), line
        # Positive control: the first public message after the reveal shows every pick.
        after = self._public(reveal_at, None)
        assert after, "the reveal was published"
        shown = "\n".join(after[0][1])
        for player, code in picks.items():
            assert f"{names[player]} {card_text(code)}" in shown
        self.searches_checked += 1


# --------------------------------------------------------------------------- hands


async def open_hand(env, member, channel, dm_players=()):
    """Show hand on the table message: (who clicks in the hand, a getter of the hand
    message as it is now: the platform edits it in place after each move)."""
    if member in dm_players:
        # A Show hand with hands in DMs costs a bot-token request, counted in the member's
        # share (20 a minute): a player clicks it every few seconds at most, not on every
        # move of a game where no time passes.
        await env.advance_time(3.1)
    opened = await member.click(newest(env, channel.id), label="Show hand")
    assert opened.ephemeral
    if member in dm_players:
        assert head(opened.response).startswith("Your hand") and "in your DMs" in head(opened.response)  # sent, or refreshed in place
        return member.user, lambda: newest(env, member.user.dm_channel.id)
    return member, lambda: opened.response.message


async def pick(env, member, hand, code):
    """Choose ``code`` in the hand's select, after checking it offers exactly the hand."""
    actor, message = hand
    table = the_table(env)
    held = sorted(set(table.state.observation(member.id)["hand"]), key=lambda c: (int(parse_card(c).rank), parse_card(c).suit.value))
    assert select_values(message()) == [f"play:{c}" for c in held]
    before = table.record.version
    await actor.select(message(), [f"play:{code}"])
    assert table.record.version == before + 1


def choose_card(rng, request, hand):
    return closest(request, hand) if rng.random() < 0.7 else rng.choice(hand)


# --------------------------------------------------------------------------- 2 players


async def test_two_player_game_to_the_end(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (alice, bob) = setup_world(env, 2)
    await pictures_off(env, guild, channel)
    await bob.slash(channel, "settings hands", where="dm")  # Bob's hands arrive by DM
    opened = await alice.slash(channel, "engines new", players=2)
    lobby = opened.response.message
    assert not opened.ephemeral
    assert "Join Google" in button_labels(lobby) and "Join Yahoo" in button_labels(lobby)
    assert "2 players." in embed_of(lobby).description and "2 to 4" not in embed_of(lobby).description
    await bob.click(lobby, label="Join Yahoo")
    await alice.click(lobby, label="Join Google")
    assert the_table(env).record.seat_choices == {alice.id: "google", bob.id: "yahoo"}
    assert f"<@{bob.id}> — Yahoo" in embed_of(newest(env, channel.id, board=True)).fields[0].value  # the lobby, updated
    await alice.click(lobby, label="Start")

    table = the_table(env)
    state = table.state
    assert state.teams == {"google": [alice.id], "yahoo": [bob.id]}
    members = {alice.id: alice, bob.id: bob}
    names = {p: f"<@{p}>" for p in members}
    ping = newest(env, channel.id)  # both must pick: one ping names both
    assert set(re.findall(r"<@(\d+)>", head(ping))) == {str(alice.id), str(bob.id)}
    embed = embed_of(newest(env, channel.id, board=True))
    assert f"Search Request **{card_text(str(state.request))}**" in embed.description
    assert "IPOs left: 1" in embed.fields[0].value and "Player deck: 47" in embed.fields[0].value
    assert "Player deck: 48" in embed.fields[1].value and "51 cards left" in embed.fields[2].value
    assert f"{names[bob.id]} goes first" in embed.fields[3].value  # "Yahoo goes first"

    rng = random.Random(11)
    watch = LeakWatch(env, channel)
    done = {"ipo": False, "shown": 0, "declined": 0, "timer": False}
    searches = 0
    while env.bot.tables.tables():
        searches += 1
        assert searches < 80
        state = table.state
        assert state.phase == "choose"
        request, number = str(state.request), state.search_count
        hands = {p: [str(c) for c in state.hands[p]] for p in members}
        first_pick_at = watch.mark()
        # Google's IPO: offered on Google's own turn only.
        alice_hand = await open_hand(env, alice, channel)
        ipo_offered = "Declare IPO (+4 cards)" in button_labels(alice_hand[1]())
        assert ipo_offered == (state.turn == alice.id and not done["ipo"])
        if ipo_offered and searches >= 4:
            deck = state.decks["google"][:]
            await alice.click(alice_hand[1](), label="Declare IPO (+4 cards)")
            done["ipo"] = True
            assert sorted(state.hands[alice.id]) == sorted([*map(parse_card, hands[alice.id]), *deck[:4]])
            assert "IPOs left: 0" in embed_of(newest(env, channel.id, board=True)).fields[0].value
            hands[alice.id] = [str(c) for c in state.hands[alice.id]]

        plan = engineer_tie(request, hands[alice.id], hands[bob.id]) if state.last_winner == "google" and done["shown"] + done["declined"] < 2 else None
        if plan:
            picks = {alice.id: plan[0], bob.id: plan[1]}
        else:
            picks = {p: choose_card(rng, request, hands[p]) for p in members}
        timeout = searches == 6
        if timeout:
            # Alice lets her timer run out: the bot plays her closest card.
            picks[alice.id] = closest(request, hands[alice.id])
        else:
            await pick(env, alice, alice_hand, picks[alice.id])
            # Alice has picked: the table shows that she has, never what.
            said = embed_of(newest(env, channel.id, board=True)).description
            assert names[alice.id] in said.split("✅ Picked: ")[1].split("\n")[0], said
        bob_hand = await open_hand(env, bob, channel, (bob,))
        assert "Declare IPO (+4 cards)" not in button_labels(bob_hand[1]())  # never for Yahoo
        if timeout:
            await pick(env, bob, bob_hand, picks[bob.id])
            reveal_at = watch.mark()
            await env.advance_time(TIMER + 1)
            done["timer"] = True
        else:
            reveal_at = watch.mark()
            await pick(env, bob, bob_hand, picks[bob.id])
        assert state.reveal["search"] == number
        assert {play["player"]: play["card"] for play in state.reveal["plays"]} == picks
        watch.check(first_pick_at, reveal_at, picks, names)
        if timeout:
            assert f"⏰ {names[alice.id]} ran out of time." in embed_of(newest(env, channel.id, board=True)).fields[-1].value

        if plan:
            assert state.phase == "tiebreak"  # tied, Google ahead, Yahoo holds one point further
        if state.phase == "tiebreak":
            # (The board's first line names who must act and what they do.)
            assert f"👉 {names[bob.id]}: show a tie-breaker for Yahoo, or decline" in head(newest(env, channel.id, board=True))
            assert "tie! Yahoo may show a tie-breaker" in embed_of(newest(env, channel.id, board=True)).description
            # Bob made the last pick: the hand he picked from now offers the tie-breaker...
            assert any(label.startswith("Show ") for label in button_labels(bob_hand[1]()))
            # ...and so does a fresh Show hand.
            bob_dm, get_hand = await open_hand(env, bob, channel, (bob,))
            hand = get_hand()
            labels = button_labels(hand)
            show = [label for label in labels if label.startswith("Show ")]
            assert show and "Don't show a tie-breaker" in labels
            assert not select_values(hand)
            scores = dict(state._scores())
            if done["shown"] <= done["declined"]:
                await bob_dm.click(hand, label=show[0])
                done["shown"] += 1
                assert state._scores()["yahoo"] == scores["yahoo"] + 1 and state.last_winner == "yahoo"
                assert "tie, won by Yahoo's tie-breaker" in embed_of(newest(env, channel.id, board=True)).description
            else:
                await bob_dm.click(hand, label="Don't show a tie-breaker")
                done["declined"] += 1
                assert state._scores()["google"] == scores["google"] + 1
                assert "won by the side that won the last search" in embed_of(newest(env, channel.id, board=True)).description

    assert done["ipo"] and done["timer"] and done["shown"] >= 1 and done["declined"] >= 1
    assert watch.searches_checked == searches
    result = table.state.result
    scores = result["scores"]
    assert result["reason"] == "deck_used_up"
    final = newest(env, channel.id)
    assert button_labels(final) == ["Rematch", "Replay"]  # no Show hand on a finished game: Rematch and Replay
    assert f"Google {scores['google']} – Yahoo {scores['yahoo']}" in embed_of(final).description
    winner = alice.id if scores["google"] > scores["yahoo"] else bob.id
    assert scores["google"] != scores["yahoo"]
    assert head(final).startswith(f"🥇 <@{winner}> won the Engines of Discrimination game!") and "`/leaderboard`" in head(final)
    rows = db_rows(data_dir, guild.id, "SELECT user_id, place FROM results ORDER BY place")
    assert rows == [(winner, 1), (bob.id if winner == alice.id else alice.id, 2)]
    assert db_rows(data_dir, guild.id, "SELECT status FROM game_tables") == [("finished",)]


def engineer_tie(request, google, yahoo):
    """Picks that tie a number request while Yahoo holds a card one point further."""
    if parse_card(request).rank.is_picture:
        return None
    for g in google:
        for y in yahoo:
            d = gap(request, g)
            if d is None or gap(request, y) != d:
                continue
            further = [c for c in yahoo if c != y and gap(request, c) == d + 1]
            if further:
                return g, y
    return None


# --------------------------------------------------------------------------- 4 players


async def play_search_4p(env, channel, members, names, rng, watch, seen, *, dm_players=()):
    """One search through the UI: every player with cards picks from their own hand;
    then the tie-breaker and the refill choices, when offered, are answered by clicks."""
    table = the_table(env)
    state = table.state
    assert state.phase == "choose"
    request, number = str(state.request), state.search_count
    order = [p for p in state.play_order() if p in state.current_players()]
    picks = {}
    first_pick_at = watch.mark()
    reveal_at = None
    for index, player in enumerate(order):
        member = members[player]
        hand = await open_hand(env, member, channel, dm_players)
        labels = button_labels(hand[1]())
        ipo_allowed = player == state.turn and state.side_of[player] == "google" and state.ipos_this_set == 0 and bool(state.decks["google"])
        assert ("Declare IPO (+4 cards)" in labels) == ipo_allowed
        if ipo_allowed and not seen["ipo"] and number >= 3:
            await hand[0].click(hand[1](), label="Declare IPO (+4 cards)")
            seen["ipo"] = True
            assert len(state.hands[player]) > 5
        cards = [str(c) for c in state.hands[player]]
        picks[player] = choose_card(rng, request, cards)
        if index == len(order) - 1:
            reveal_at = watch.mark()
        await pick(env, member, hand, picks[player])
        if index < len(order) - 1:
            # (Who has picked, under the first line that names who is still to pick.)
            said = embed_of(newest(env, channel.id, board=True)).description
            assert names[player] in said.split("✅ Picked: ")[1].split("\n")[0], said
    assert state.reveal["search"] == number
    assert {play["player"]: play["card"] for play in state.reveal["plays"]} == picks
    watch.check(first_pick_at, reveal_at, picks, names)
    # Every card matching the request exactly is put aside (the four-player rule).
    outcome = state.reveal["outcome"]
    matches = sorted(p for p, code in picks.items() if gap(request, code) == 0)
    if matches and outcome["kind"] == "won":
        assert sorted(w["player"] for w in outcome["winners"]) == matches
    while state.phase == "tiebreak":
        player = sorted(state.current_players())[0]
        hand = await open_hand(env, members[player], channel, dm_players)
        labels = button_labels(hand[1]())
        shows = [label for label in labels if label.startswith("Show ")]
        assert shows and "Don't show a tie-breaker" in labels
        await hand[0].click(hand[1](), label=shows[0])
        seen["tiebreak"] += 1
        assert state.reveal["outcome"]["reason"] == "yahoo_special"
        assert "tie, won by Yahoo's tie-breaker" in embed_of(newest(env, channel.id, board=True)).description
    refills = []
    while state.phase == "refill":
        player = sorted(state.current_players())[0]
        assert "Search Request" not in embed_of(newest(env, channel.id, board=True)).description.split("\n")[0]
        # (The board's first line names who must refill, and how.)
        waiting = head(newest(env, channel.id, board=True))
        assert f"👉 {names[player]}" in waiting and "team deck or your partner's hand" in waiting, waiting
        hand = await open_hand(env, members[player], channel, dm_players)
        labels = button_labels(hand[1]())
        assert labels[:2] == ["Refill from the team deck", "Take blindly from your partner"]
        partner = state.partner(player)
        choice = "partner" if seen["partner"] <= seen["deck"] else "deck"
        missing = (5 if state.side_of[player] == "google" else 4) - len(state.hands[player])
        taken = min(missing, len(state.hands[partner]))
        await hand[0].click(hand[1](), label=labels[0] if choice == "deck" else labels[1])
        seen[choice] += 1
        if choice == "partner":
            refills.append(f"{names[player]} takes {taken} card{'s' if taken != 1 else ''} blindly from {names[partner]}")
    for line in refills:
        assert line in "\n".join(table.record.recent)


async def test_four_players_in_teams(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (ann, ben, cat, dan) = setup_world(env, 4)
    await pictures_off(env, guild, channel)
    # Ben, Cat and Dan read their hands in DMs; Ann's are ephemeral.
    dm_players = (ben, cat, dan)
    for member in dm_players:
        await member.slash(channel, "settings hands", where="dm")
    opened = await ann.slash(channel, "engines new", players=4)
    lobby = opened.response.message
    await ben.click(lobby, label="Join Yahoo")
    early = await ann.click(lobby, label="Start")
    assert early.ephemeral
    assert head(early.response).startswith("This table was opened for 4 players and 2 have joined: wait for 2 more players to join")
    await cat.click(lobby, label="Join Google")
    await dan.click(lobby, label="Join either side")
    await ann.click(lobby, label="Start")

    table = the_table(env)
    state = table.state
    members = {m.id: m for m in (ann, ben, cat, dan)}
    names = {p: f"<@{p}>" for p in members}
    # Ben chose Yahoo and Cat Google; Ann and Dan (either side) were split between them.
    assert ben.id in state.teams["yahoo"] and cat.id in state.teams["google"]
    assert {ann.id, dan.id} == {state.teams["google"][0] if state.teams["google"][0] != cat.id else state.teams["google"][1],
                                state.teams["yahoo"][0] if state.teams["yahoo"][0] != ben.id else state.teams["yahoo"][1]}
    # Partners sit across: Google, Yahoo, Google, Yahoo.
    assert [state.side_of[p] for p in state.seats] == ["google", "yahoo", "google", "yahoo"]
    # The lobby card now says where everyone sits, "either side" included.
    card = embed_of(to_discord_message(env, env.backend.messages[channel.id][lobby.id]))
    listing = card.fields[0].value
    assert "either side" not in listing
    for p in members:
        assert f"<@{p}> — {state.side_of[p].title()}" in listing
    # The Yahoo players cut for low card; the lower one turns the first request.
    first = embed_of(newest(env, channel.id, board=True))
    cut = {entry["player"]: parse_card(entry["card"]) for entry in state.cut}
    assert set(cut) == set(state.teams["yahoo"])
    assert state.turn == min(cut, key=lambda p: int(cut[p].rank))
    assert "✂️ Yahoo cut for low card" in first.description
    assert first.title == "Engines of Discrimination — set 1 (best of three)"
    assert "sets won: 0" in first.fields[0].name

    rng = random.Random(5)
    watch = LeakWatch(env, channel)
    seen = {"ipo": False, "tiebreak": 0, "deck": 0, "partner": 0}
    searches = 0
    while state.set_number == 1:
        searches += 1
        assert searches < 200
        await play_search_4p(env, channel, members, names, rng, watch, seen, dm_players=dm_players)
    assert watch.searches_checked == searches
    assert seen["ipo"] and seen["deck"] >= 1 and seen["partner"] >= 1
    (set_one,) = state.set_results
    winner = set_one["winner"]
    assert state.set_wins == {winner: 1, "yahoo" if winner == "google" else "google": 0}
    assert f"Set 1 goes to {winner.title()}" in "\n".join(table.record.recent)
    table_now = embed_of(newest(env, channel.id, board=True))
    assert table_now.title == "Engines of Discrimination — set 2 (best of three)"
    assert state.ipos_this_set == 0 and "IPOs left: 1" in table_now.fields[0].value

    # A restart in the middle of set 2: the table, its buttons and the game come back.
    snapshot = state.to_json()
    await restart(env, data_dir)
    table = the_table(env)
    assert table.state.to_json() == snapshot
    searches += 1
    await play_search_4p(env, channel, members, names, rng, watch, seen, dm_players=dm_players)
    state = table.state

    # Sets 2 (and 3 if needed) through the UI to the end of the best of three.
    while not state.is_over():
        searches += 1
        assert searches < 600
        await play_search_4p(env, channel, members, names, rng, watch, seen, dm_players=dm_players)
    assert watch.searches_checked == searches
    assert seen["tiebreak"] >= 1
    result = state.result
    assert result["reason"] == "sets"
    winners, losers = result["placements"]
    winning_side = state.side_of[winners[0]]
    assert result["set_wins"][winning_side] == 2 and sorted(winners) == sorted(state.teams[winning_side])
    final = newest(env, channel.id)
    assert "won the Engines of Discrimination game!" in head(final)
    assert all(f"<@{p}>" in head(final) for p in winners)
    assert f"Game over: {winning_side.title()} wins!" in embed_of(final).description
    rows = db_rows(data_dir, guild.id, "SELECT user_id, place FROM results ORDER BY place, user_id")
    assert rows == [(p, 1) for p in sorted(winners)] + [(p, 2) for p in sorted(losers)]
    assert db_rows(data_dir, guild.id, "SELECT status FROM game_tables") == [("finished",)]


# --------------------------------------------------------------------------- the lobby


async def test_lobby_table_size_and_sides(simcord_env):
    env = simcord_env
    guild, channel, (ann, ben, cat, dan) = setup_world(env, 4)
    lobby = (await ann.slash(channel, "engines new")).response.message  # 2 players by default
    assert "2 players." in embed_of(lobby).description and "2 to 4" not in embed_of(lobby).description
    await ben.click(lobby, label="Join either side")
    await cat.slash(channel, "join")  # /join: no side chosen either
    listing = embed_of(newest(env, channel.id, board=True)).fields[0].value
    assert f"<@{cat.id}> — either side" in listing and f"<@{ann.id}> — either side (host)" in listing
    three = await ann.click(lobby, label="Start")
    assert three.ephemeral and "opened for 2 players and 3 have joined: 1 player should press Leave" in head(three.response)
    await dan.click(lobby, label="Join Yahoo")
    four = await ann.click(lobby, label="Start")
    assert head(four.response) == (
        "This table was opened for 2 players and 4 have joined: 2 players should press Leave, "
        "or cancel it and open a 4-player table with `/engines new players:4`."
    )
    await cat.click(lobby, label="Leave")
    await dan.click(lobby, label="Leave")
    # Two players on one side: Start says who should move.
    await ben.click(lobby, label="Join Google")
    await ann.click(lobby, label="Join Google")
    crowded = await ann.click(lobby, label="Start")
    assert head(crowded.response) == "Google has 2 players but this table needs 1 a side: someone should switch to Yahoo."
    assert env.bot.tables.tables()[0].status == "lobby"
    await ann.click(lobby, label="Join either side")  # Ann lets the bot place her
    await ann.click(lobby, label="Start")
    assert the_table(env).state.teams == {"google": [ben.id], "yahoo": [ann.id]}


async def test_sides_are_random_when_nobody_chooses(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    ann, ben = (guild.add_member(env.create_user(name)) for name in ("ann", "ben"))
    google = []
    for n in range(6):
        channel = guild.create_text_channel(f"table-{n}")
        lobby = (await ann.slash(channel, "engines new", players=2)).response.message
        await ben.click(lobby, label="Join either side")
        await ann.click(lobby, label="Start")
        table = env.bot.tables.active_in_channel(guild.id, place_of(env, channel.id))
        teams = table.state.teams
        assert sorted(teams["google"] + teams["yahoo"]) == sorted([ann.id, ben.id])
        google.append(teams["google"][0])
    # Over six tables (six seeds) each player has been Google at least once.
    assert set(google) == {ann.id, ben.id}
