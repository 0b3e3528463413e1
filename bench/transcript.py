"""Play whole games through SimCord as newcomers and write down every message each member sees.

    python bench/transcript.py [--game idiot|engines|blackjack|onion|enid] [--players 3] [--computers easy hard ...]
                               [--seed 1] [--out FILE] [--max-moves 300] [--mode enid|plain] [--house-rule KEY=VALUE ...]
                               [--dm bob] [--rounds 2]

Members open a table, join, start, and play random legal moves from their hands the way
bench/rest_calls.py does (Show hand on the board once, then the live hand). After every
step the file gets what changed for whom: the parent channel's messages, the game
thread's messages (content, embed text, picture names, buttons), each player's private
hand (ephemeral) and DMs. It is for reading as a player would, not a measurement: it
prints nothing but the transcript's path and size.

Enid (``--mode`` enid or plain): members also type their rituals in the thread when
they owe one (a card's name, "Last card", a shout, a limerick), the right words 85% of
the time and a wrong name or shout otherwise (the rules' own ``ritual_answers``), and
vote on the vote message's buttons. Nobody is ever late: no time passes.

``--dm bob`` gives that member hands by direct message (``/settings hands where:dm``):
they play from their latest DM hand. ``--rounds 2`` plays a second table with the
board's Next round (Onion) or Rematch. Once per game a player opens a second copy of
their hand, plays from it and then clicks the first copy out of turn; every copy of
every hand is watched to the end.

``--computers`` adds computer seats in the lobby (the host's Add computer buttons, pause
0) to the ``--players`` members; they move by themselves through the platform, and the
transcript shows what their moves look like to the members.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402
from simcord.results import to_discord_message  # noqa: E402

from tests.conftest import make_bot  # noqa: E402
from tests.e2e.ui import button_ids, game_place, has_control_for, labels, use_control  # noqa: E402


def show_hand_id(message: Any) -> str | None:
    """The custom_id of a message's Show hand button (the same in every language)."""
    return next((cid for cid in button_ids(message) if cid.startswith("dh:hand:")), None)


def board(channel: Any) -> Any:
    """The board: the newest message with Show hand (not a vote's message)."""
    return next(m for m in reversed(game_place(channel).history()) if show_hand_id(m))


async def click_lobby(member: Any, lobby: Any, verb: str, label: str) -> Any:
    """Click a lobby button by its verb (``dh:lobby:<g>:<t>:<verb>``, the same in every
    language), or by its label where the verb carries a choice (Engines' sides)."""
    custom_id = next((cid for cid in button_ids(lobby) if cid.startswith("dh:lobby:") and cid.endswith(":" + verb)), None)
    if custom_id is not None:
        return await member.click(lobby, custom_id=custom_id)
    return await member.click(lobby, label=label)


def text_of(message: Any) -> str:
    """A message as words: content, embeds, V2 text, attachments, controls."""
    lines = [message.content] if message.content else []
    for embed in message.embeds:
        lines += [f"[embed] {embed.title or ''}", *(embed.description or "").splitlines()]
        lines += [f"  {f.name}: {f.value}" for f in embed.fields]
        if embed.footer and embed.footer.text:
            lines.append(f"  -- {embed.footer.text}")
        if embed.image and embed.image.url:
            lines.append(f"  [picture {embed.image.url}]")

    def walk(component: Any, depth: int = 0) -> None:
        kind = type(component).__name__
        if hasattr(component, "content") and kind.startswith("TextDisplay"):
            lines.extend(component.content.splitlines())
        elif hasattr(component, "label") and getattr(component, "label", None):
            lines.append(f"  [button {component.label}]")
        elif hasattr(component, "options") and getattr(component, "options", None):
            lines.append(f"  [select: {', '.join(o.label for o in component.options)[:300]}]")
        elif kind.startswith("MediaGallery"):
            lines.append("  [picture]")
        for child in getattr(component, "children", ()) or ():
            walk(child, depth + 1)

    for component in message.components:
        walk(component)
    lines += [f"  [attachment {a.filename}: {a.description or 'no alt text'}]" for a in message.attachments]
    return "\n".join(lines)


class Watcher:
    """Remembers what each place last showed, and writes only what changed."""

    def __init__(self, env: Any, out: Any) -> None:
        self.env, self.out, self.seen = env, out, {}

    async def moment(self, kind: str, **where: Any) -> None:
        """A step of the game (``lobby``, ``started``, ``turn``: a player about to play
        from their hand, ``moved``, ``ended``), with where it happened: the transcript
        needs nothing more, tools/see.py takes its screenshots here."""

    def show(self, who: str, message: Any) -> None:
        stored = self.env.backend.messages.get(message.channel.id, {}).get(message.id)
        if stored is None:  # a hand's older copy, closed when the player opened a new one
            if self.seen.pop((who, message.id), None) is not None:
                self.out.write(f"--- {who}: message {message.id} was deleted\n")
            return
        current = to_discord_message(self.env, stored)
        text = text_of(current)
        if self.seen.get((who, current.id)) != text:
            self.seen[(who, current.id)] = text
            self.out.write(f"--- {who} sees message {current.id}:\n{text}\n")

    def place(self, who: str, channel: Any) -> None:
        ids = {m.id for m in channel.history()}
        for key in [k for k in self.seen if k[0] == who and k[1] not in ids]:
            self.out.write(f"--- {who}: message {key[1]} was deleted\n")
            del self.seen[key]
        for message in channel.history():
            self.show(who, message)


async def enid_words(table: Any, members: list[Any], thread: Any, rng: random.Random, out: Any) -> bool:
    """Enid: a member who owes words types them (right 85%, else wrong where words can
    be wrong). False when nobody owes any."""
    owers = sorted(table.state.ritual_owers() & {m.id for m in members})
    owers = [p for p in owers if any(tag != "late" for tag, _ in table.state.ritual_answers(p))]
    if not owers:
        return False
    pid = rng.choice(owers)
    answers = table.state.ritual_answers(pid)
    wrong = [a for tag, a in answers if tag == "wrong"]
    right = [a for tag, a in answers if tag == "right"]
    text = (rng.choice(wrong) if wrong and (not right or rng.random() < 0.15) else right[0]).arg
    if text in {a.arg for a in wrong} and " of " in right[0].arg and rng.random() < 0.5:
        # A newcomer's other slip: the right name with another card's fish.
        name, _, fish = right[0].arg.rpartition(" of ")
        text = f"{name} of {rng.choice([f for f in ('Carp', 'Sturgeon', 'Halibut', 'Dalmations') if f != fish])}"
    member = next(m for m in members if m.id == pid)
    text = text.replace(f"<@{pid}>", member.mention)
    out.write(f">>> {member.user.name} types in the thread: {text}\n")
    await member.send(thread, text)
    return True


async def click_vote(member: Any, thread: Any, code: str, out: Any) -> bool:
    """A vote is cast on its own message's buttons (bot/discord_front/votes.py), not from the hand."""
    from tests.e2e.ui import button_ids

    for message in reversed(thread.history()):
        for custom_id in button_ids(message):
            if custom_id.startswith("dh:vote:") and custom_id.endswith(":" + code):
                out.write(f">>> {member.user.name} clicks {code.split(':')[-1]} on the vote message\n")
                await member.click(message, custom_id=custom_id)
                return True
    return False


async def play(game: str, players: int, seed: int, out: Any, max_moves: int, computers: list[str], mode: str = "enid",
               house_rules: Sequence[str] = (), dm: str | None = None, rounds: int = 1,
               watcher: Callable[[Any, Any], Watcher] = Watcher, language: str | None = None,
               policy: Callable[[Sequence[Any], random.Random], Any] | None = None) -> None:
    """One game (``rounds`` tables) as the module says; ``watcher`` is told every step
    (:meth:`Watcher.moment`), ``language`` is set with ``/settings language`` first.
    ``policy(legal, rng) -> action``: how a member chooses among their legal moves (by
    default at random, Ready first)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="deckhand-transcript-") as tmp:
        bot = make_bot(Path(tmp))
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild()
                channel = guild.create_text_channel("cards")
                hosts = guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
                members = [guild.add_member(env.create_user(name), roles=[hosts] if i == 0 else [])
                           for i, name in enumerate(("ann", "bob", "cy", "dee")[:players])]
                names = {m.id: m.user.name for m in members}
                watch = watcher(env, out)
                out.write(f"===== {game}, {players} players: {', '.join(names.values())}"
                          + (f"; computers: {', '.join(computers)}" if computers else "")
                          + (f"; {dm} gets hands by DM" if dm else "") + "\n")
                dm_member = next((m for m in members if m.user.name == dm), None)
                if language is not None:
                    await members[0].slash(channel, "settings language", language=language)
                if dm_member is not None:
                    await dm_member.slash(channel, "settings hands", where="dm")
                if computers:
                    await members[0].slash(channel, "settings bot-pause", seconds=0.0)
                for setting in house_rules:  # e.g. showdown=millard, set as the host would
                    rule, _, value = setting.partition("=")
                    await members[0].slash(channel, "settings house-rule", game=game, rule=rule, value=value)
                options: dict[str, Any] = {"players": players + len(computers)} if game == "engines" else {}
                if game == "enid":
                    options["mode"] = mode
                opened = await members[0].slash(channel, f"{game} new", **options)
                lobby = opened.response.message
                watch.place("channel", channel)
                for m in members[1:]:
                    await click_lobby(m, lobby, "join", "Join either side" if game == "engines" else "Join")
                for level in computers:
                    lobby = (await members[0].click(lobby, label=f"Add computer ({level})")).response.message or lobby
                await watch.moment("lobby", place=channel, message=lobby, members=members)
                await click_lobby(members[0], lobby, "start", "Start")
                watch.place("channel", channel)
                thread = channel.threads[-1]
                moves = 0
                for round_number in range(1, rounds + 1):
                    (table,) = env.bot.tables.tables()
                    await watch.moment("started", place=thread, channel=channel, table=table, members=members)
                    moves += await play_one(env, game, table, channel, thread, members, dm_member, watch, out, rng, max_moves,
                                            policy)
                    await watch.moment("ended", place=thread, channel=channel, table=table, members=members)
                    watch.place("thread", thread)
                    watch.place("channel", channel)
                    if dm_member is not None and dm_member.user.dm_channel is not None:
                        watch.place(f"{dm} (DMs)", dm_member.user.dm_channel)
                    out.write(f"===== {'round ' + str(round_number) + ': ' if rounds > 1 else ''}{moves} moves; status {table.status}\n\n")
                    if round_number < rounds and table.status == "finished":
                        # The host presses the finished board's Next round (Rematch), then Start.
                        final = next(m for m in reversed(thread.history()) if {"Next round", "Next game", "Rematch"} & set(labels(m)))
                        label = next(lbl for lbl in ("Next round", "Next game", "Rematch") if lbl in labels(final))
                        out.write(f">>> ann presses {label} on the board\n")
                        lobby = (await members[0].click(final, label=label)).response.message
                        watch.place("thread", thread)
                        await members[0].click(lobby, label="Start")
        finally:
            await bot.storage.close()


async def play_one(env: Any, game: str, table: Any, channel: Any, thread: Any, members: list[Any], dm_member: Any,
                   watch: Watcher, out: Any, rng: random.Random, max_moves: int,
                   policy: Callable[[Sequence[Any], random.Random], Any] | None = None) -> int:
    """One table played to its end; every copy of every hand is watched, the DM player's
    hand in their DMs. Once per game a player opens a second copy of their hand, plays
    from it, then clicks the first copy out of turn (what the reply says is the point)."""
    names = {m.id: m.user.name for m in members}
    by_id = {m.id: m for m in members}
    hands: dict[int, list[Any]] = {}  # every hand message each player opened, newest last
    moves = waits = 0
    stray_done = False

    def dms() -> list[Any]:
        place = dm_member.user.dm_channel if dm_member is not None else None
        return [m for m in place.history() if m.author.bot] if place is not None else []

    def current(message: Any) -> Any:
        return to_discord_message(env, env.backend.messages[message.channel.id][message.id])

    def watch_hands() -> None:
        for other, messages in hands.items():
            for message in messages:
                watch.show(f"{names[other]} (hand)", message)
        if dms():
            watch.show(f"{dm_member.user.name} (DM hand)", dms()[-1])

    while table.status == "playing" and moves < max_moves:
        watch.place("thread", thread)
        waiting = sorted(set(table.state.current_players()) & set(names))
        if game == "enid" and (not waiting or rng.random() < 0.8) and await enid_words(table, members, thread, rng, out):
            moves += 1
            watch_hands()
            await watch.moment("moved", place=thread, channel=channel, table=table, members=members)
            continue
        if not waiting:  # only computers are to move: let them
            waits += 1
            if waits > 200:
                out.write("!!! the computers did not move within 10 s\n")
                break
            await asyncio.sleep(0.05)
            continue
        waits = 0
        pid = rng.choice(waiting)
        who, member = names[pid], by_id[pid]
        legal = table.state.legal_actions(pid)
        ready = [a for a in legal if a.kind == "ready"]
        if policy is not None:
            code = policy(legal, rng).code()
        else:
            code = (ready[0] if ready and rng.random() < 0.7 else rng.choice(legal)).code()
        if code.startswith("vote:") and await click_vote(member, thread, code, out):
            moves += 1
            watch_hands()
            await watch.moment("moved", place=thread, channel=channel, table=table, members=members)
            continue
        on_dm = dm_member is not None and pid == dm_member.id
        actor = member.user if on_dm else member
        if on_dm:
            hand = dms()[-1] if dms() else None
            if hand is not None:
                watch.show(f"{who} (DM hand)", hand)
                hand = current(hand)
            if hand is None or not has_control_for(hand, code):
                out.write(f">>> {who} clicks Show hand on the board (their hand is in DMs)\n")
                shown = board(channel)
                answer = (await member.click(shown, custom_id=show_hand_id(shown))).response
                out.write(f"--- {who} is told: {answer.content}\n")
                hand = current(dms()[-1])
                watch.show(f"{who} (DM hand)", hand)
        else:
            hand = hands[pid][-1] if hands.get(pid) else None
            if hand is not None:
                watch.show(f"{who} (hand)", hand)
                hand = current(hand)
            second_copy = not stray_done and moves >= 3 and hand is not None and has_control_for(hand, code)
            if hand is None or not has_control_for(hand, code) or second_copy:
                out.write(f">>> {who} clicks Show hand on the board" + (" again (a second copy of their hand)" if second_copy else "") + "\n")
                shown = board(channel)
                hand = (await member.click(shown, custom_id=show_hand_id(shown))).response.message
                hands.setdefault(pid, []).append(hand)
                watch.show(f"{who} (hand)", hand)
        await watch.moment("turn", place=dm_member.user.dm_channel if on_dm else thread, channel=channel, table=table, members=members,
                           member=member, hand=hand, on_dm=on_dm, code=code)
        out.write(f">>> {who} plays {code}\n")
        result = await use_control(actor, hand, code)
        if not on_dm:
            hands[pid][-1] = result.response.message
        watch_hands()
        moves += 1
        await watch.moment("moved", place=thread, channel=channel, table=table, members=members)
        if not stray_done and len(hands.get(pid, [])) > 1 and table.status == "playing" and pid not in table.state.current_players():
            stray_done = True
            first = hands[pid][-2]
            kept = env.backend.messages.get(first.channel.id, {}).get(first.id) is not None  # a new copy closes the old
            old = current(first) if kept else None
            stray = next((c for c in (a.code() for a in legal) if has_control_for(old, c)), None) if kept else None
            if stray is not None:
                out.write(f">>> {who} clicks {stray} on their first copy of the hand, out of turn\n")
                refused = await use_control(member, old, stray)
                watch.show(f"{who} (hand)", refused.response.message)
    watch_hands()  # the end: every hand copy as it is left
    return moves


def let_the_bot_read_chat() -> Any:
    """Enid's typed rituals reach the bot only if it may read chat (as tests/enid/conftest.py
    sets). Returns what ``discord.AppInfo.flags`` was, to put back."""
    before = discord.AppInfo.__dict__["flags"]
    allowed = discord.ApplicationFlags(gateway_message_content_limited=True)
    discord.AppInfo.flags = property(lambda self: allowed)  # type: ignore[assignment]
    return before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="idiot")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--computers", nargs="*", default=[], choices=("easy", "hard"), help="computer seats to add")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=300)
    parser.add_argument("--out", default="transcript.txt")
    parser.add_argument("--mode", choices=("enid", "plain"), default="enid", help="Enid's mode")
    parser.add_argument("--house-rule", action="append", default=[], metavar="KEY=VALUE",
                        help="a server house rule for the game (repeatable), e.g. showdown=millard")
    parser.add_argument("--dm", default=None, help="this member (ann, bob, cy, dee) gets hands by DM")
    parser.add_argument("--rounds", type=int, default=1, help="tables played in a row (Rematch / Next round)")
    args = parser.parse_args()
    if args.game == "enid":
        let_the_bot_read_chat()
    with open(args.out, "w", encoding="utf-8") as out:
        asyncio.run(play(args.game, args.players, args.seed, out, args.max_moves, args.computers, args.mode,
                         args.house_rule, args.dm, args.rounds))
    print(f"{args.out}: {Path(args.out).stat().st_size} bytes")


if __name__ == "__main__":
    main()
