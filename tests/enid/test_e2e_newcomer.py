"""A newcomer's read: a whole three-member Enid game through SimCord, with every
message each member sees (the thread, the channel, their ephemeral answers) written in
order to a transcript (``ENID_TRANSCRIPT=path`` keeps it; else a temporary file). The
assertions are what a player who has read only the lobby and /help must be told."""

from __future__ import annotations

import os
from pathlib import Path

from tests.e2e.ui import button_ids, game_place, select_options, texts, use_control
from tests.enid.test_e2e_enid import POEM, board, setup_world, vote
from bot.words.render_util import text_cards


def text_of_message(message) -> str:
    parts = []
    content = getattr(message, "content", None)
    if content:
        parts.append(content)
    for embed in getattr(message, "embeds", []) or []:
        if embed.title:
            parts.append(f"[{embed.title}]")
        if embed.description:
            parts.append(embed.description)
        for field in embed.fields:
            parts.append(f"{field.name}: {field.value}")
        if embed.footer and embed.footer.text:
            parts.append(f"({embed.footer.text})")
    parts += texts(message)  # a Components V2 message's TextDisplays
    buttons = [cid for cid in button_ids(message)]
    if buttons:
        parts.append("buttons: " + ", ".join(buttons))
    options = select_options(message)
    if options:
        parts.append("select: " + ", ".join(options))
    return "\n".join(parts)


class Transcript:
    def __init__(self, channel, names):
        self.channel, self.names, self.lines, self.seen = channel, names, [], {}

    def named(self, text: str) -> str:
        for member_id, name in self.names.items():
            text = text.replace(f"<@{member_id}>", f"@{name}")
        return text

    def public(self) -> None:
        places = [self.channel, *self.channel.threads]
        for place in places:
            for message in place.history():
                text = text_of_message(message)
                if self.seen.get(message.id) != text:
                    verb = "edited" if message.id in self.seen else "new"
                    self.seen[message.id] = text
                    where = "thread" if place is not self.channel else "channel"
                    self.lines.append(f"--- {where}, {verb} message by {message.author.name}:\n{self.named(text)}")

    def private(self, who, what, result) -> None:
        self.public()
        response = result.response if result is not None else None
        message = getattr(response, "message", None)
        if response is not None and (result.ephemeral or (message is not None and message.id not in self.seen)):
            self.lines.append(f"--- {who.name} only ({what}):\n{self.named(text_of_message(result.response))}")
        for followup in getattr(result, "followups", []) or []:
            self.lines.append(f"--- {who.name} follow-up ({what}):\n{self.named(text_of_message(followup))}")


async def test_a_newcomers_whole_game(simcord_env, data_dir, deals, tmp_path):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    members = (ada, bob, cyd)
    log = Transcript(channel, {m.id: m.name for m in members})
    deals.append(([["6s", "9s", "5s", "3s"], ["5c", "3c", "4d"], ["Qs", "7s", "7c"]], ["4s"]))

    opened = await ada.slash(channel, "enid new")
    log.private(ada, "/enid new", opened)
    for member in (bob, cyd):
        log.private(member, "Join", await member.click(opened.response.message, label="Join"))
    log.private(ada, "Start", await ada.click(opened.response.message, label="Start"))
    table = env.bot.tables.active_in_channel(guild.id, game_place(channel).id)
    place = game_place(channel)

    async def play(member, code):
        shown = await member.click(board(channel), label="Show hand")
        log.private(member, "Show hand", shown)
        result = await use_control(member, shown.response.message, code)
        log.private(member, f"plays {code}", result)
        return shown

    async def say(member, text, **kwargs):
        await member.send(place, text, **kwargs)
        log.lines.append(f"--- {member.name} types in the thread: {text}")
        log.public()

    await play(ada, "play:6s")
    await say(ada, "Alan Turing of Sturgeon")
    await say(ada, POEM[0])
    await play(bob, "recite")
    await say(bob, "\n".join(POEM[1:]))
    for member in (ada, cyd):
        log.private(member, "votes Yes", await vote(member, channel, "yes"))
    await play(cyd, "play:Qs")
    await env.advance_time(31)  # Cyd forgets to name her Julia Dain
    log.lines.append("--- (31 seconds pass)")
    log.public()
    await play(ada, "play:9s")
    await say(ada, "Enid Zebedee Blyton!")
    while not table.state.is_over():
        state = table.state
        if state.vote is not None:
            voter = next(v for v in state.vote["voters"] if str(v) not in state.vote["votes"])
            member = next(m for m in members if m.id == voter)
            log.private(member, "votes Yes", await vote(member, channel, "yes"))
            continue
        owers = sorted(state.ritual_owers())
        if owers:
            member = next(m for m in members if m.id == owers[0])
            answer = next(a for tag, a in state.ritual_answers(member.id) if tag == "right")
            await say(member, answer.arg)
            continue
        member = next(m for m in members if m.id == state.current)
        legal = [a.code() for a in state.legal_actions(member.id) if a.kind != "challenge"]
        plays = [c for c in legal if c.startswith(("play:", "suit:", "end"))]
        await play(member, plays[0] if plays else legal[0])
    log.public()

    text = "\n".join(log.lines)
    path = Path(os.environ.get("ENID_TRANSCRIPT") or tmp_path / "enid-transcript.txt")
    path.write_text(text, encoding="utf-8")

    # What a newcomer must be told, somewhere they look.
    assert "typing its name in the game's thread" in text  # the lobby: where and how to name a card
    assert "Enid mode: name every card you lay and say the rituals" in text and "Mode: **enid**" not in text  # the lobby's options in words
    # The hand that must name a card says what it is called, in time to type it (issue 37).
    assert text_cards("type its name in the game's thread: your 6♠ is “Alan Turing of Sturgeon”") in text
    assert "vote on the limerick" in text and "a hint, not the verdict" in text  # what the vote is for
    assert text_cards("did not name Q♠ in time: its magic is void") in text and "drew 1 for a wrong or missing name" in text  # why they drew
    assert table.state.is_over()
