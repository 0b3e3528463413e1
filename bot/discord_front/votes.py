"""Votes on a message of their own: any game's open votes as public buttons.

A game opts in with one render hook, ``ballots(observation, names) -> list[Ballot]``,
built from the spectator observation (so nothing hidden can reach the message): each
open vote's id, what is asked, who may vote, who has voted (never how, until it
closes) and its choices as action codes. An optional ``ballot_verdict(events, vote_id,
names) -> str | None`` words the result from the move that closed it.

After every move (``Publisher.publish``) :func:`sync` brings the messages up to date:

- a vote that opened gets a message in the game's place (its thread, or the channel)
  with one button per choice and its deadline as a Discord timestamp (the vote's
  obligation deadline, else the turn timer's);
- a vote whose voters changed is edited (who has voted, who is still to vote);
- a vote that is gone is closed: its message keeps the question, gets the verdict and
  loses its buttons.

What is posted is kept in ``record.publish["votes"]`` ({vote id: message, shown}), so
a restart carries on with the same messages. A click (``Clicks.cast_vote`` in
``bot/discord_front/tables/moves.py``) names its table and vote
(``dh:vote:<guild>:<table>:<vote id>:<action>``); it reaches the rules as an ordinary
action (validate, commit, publish), checked first by :func:`refusal`, and is answered
by editing the vote message in place (:func:`sync`, with the click). A click from another server, for a
vote that has closed, by someone who is not a voter, a second vote, or a code that
is not one of the vote's choices gets a sentence and changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.words import i18n
from bot.discord_front import guard, views
from bot.rules.ballots import Ballot, Choice
from bot.rules.engine import Event
from bot.words.i18n import _

if TYPE_CHECKING:
    from bot.core.table import Table

log = logging.getLogger(__name__)

__all__ = ["Ballot", "Choice", "refusal", "sync"]

NO_PINGS = discord.AllowedMentions.none()
OPEN_COLOUR = discord.Colour.orange()
CLOSED_COLOUR = discord.Colour.dark_grey()
#: How much of a vote's text is kept to re-draw its message once it is closed.
KEPT_TEXT = 1500


def has_votes(table: Table) -> bool:
    return callable(getattr(table.spec.render, "ballots", None))


def open_ballots(table: Table) -> dict[str, Ballot]:
    """The table's open votes by id (none once the game is over)."""
    state = table.state
    if state is None or state.is_over() or not has_votes(table):
        return {}
    found = table.spec.render.ballots(state.observation(None), table.names())  # type: ignore[attr-defined]
    return {b.id: b for b in found}


def deadline_of(table: Table, ballot: Ballot) -> float | None:
    obligation = table.record.obligations.get(ballot.id)
    if obligation is not None:
        return float(obligation[1])
    return table.record.deadline


def _voter_lines(ballot: Ballot) -> str:
    voted = set(ballot.voted)
    return "\n".join(_("✅ voted: {player}", player=f"<@{v}>") if v in voted else _("⏳ to vote: {player}", player=f"<@{v}>") for v in ballot.voters) or "—"


def open_message(table: Table, ballot: Ballot) -> dict[str, Any]:
    """The vote message's fields while it is open."""
    embed = discord.Embed(title=guard.clip(_("🗳️ Vote: {question}", question=ballot.question), 256), description=guard.clip(ballot.body, 4096), colour=OPEN_COLOUR)
    embed.add_field(name=_("Voters ({voted}/{voters} voted)", voted=len(ballot.voted), voters=len(ballot.voters)), value=guard.clip(_voter_lines(ballot), 1024), inline=False)
    deadline = deadline_of(table, ballot)
    closes = _("Closes {when}; votes stay secret until then.", when=f"<t:{int(deadline)}:R>") if deadline else _("Votes stay secret until it closes.")
    embed.add_field(name=_("How to vote"), value=_("One vote each, with the buttons below. {closes}", closes=closes), inline=False)
    embed.set_footer(text=f"{table.spec.title} #{table.id}")
    view = views.vote_view(table.guild_id, table.id, ballot.id, [(c.code, c.label, c.style) for c in ballot.choices])
    return {"content": None, "embed": embed, "view": view}


def closed_message(table: Table, vote_id: str, kept: Mapping[str, Any], verdict: str) -> dict[str, Any]:
    embed = discord.Embed(title=guard.clip(_("🗳️ Closed: {question}", question=kept["question"] if "question" in kept else _("a vote")), 256),
                          description=guard.clip(str(kept.get("body", "")), 4096) or None, colour=CLOSED_COLOUR)
    embed.add_field(name=_("Verdict"), value=guard.clip(verdict, 1024), inline=False)
    embed.set_footer(text=f"{table.spec.title} #{table.id}")
    return {"content": None, "embed": embed, "view": None}


def verdict_of(table: Table, vote_id: str, events: Sequence[Event]) -> str:
    word = getattr(table.spec.render, "ballot_verdict", None)
    verdict = word(events, vote_id, table.names()) if callable(word) else None
    if verdict:
        return str(verdict)
    if table.state is not None and table.state.is_over():
        return _("The game ended before the vote closed, so it decides nothing.")
    return _("The vote is over.")


def _shown(ballot: Ballot, deadline: float | None) -> str:
    """What a vote message shows, in short: an edit only when this changes."""
    text = json.dumps([ballot.voters, ballot.voted, ballot.question, ballot.body, deadline], default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


@i18n.for_everyone
async def sync(place: discord.PartialMessageable, table: Table, events: Sequence[Event] = (), *, interaction: discord.Interaction | None = None) -> bool:
    """Post, edit and close the table's vote messages after a move. With
    ``interaction`` (a click on a vote message), that message is updated by the
    click's own response. Returns whether the interaction was answered. ``place``: the
    game's thread or channel."""
    record = table.record
    stored: dict[str, Any] = record.publish.get("votes") or {}
    ballots = open_ballots(table)
    if not stored and not ballots:
        return False
    record.publish["votes"] = stored
    answered = False

    async def show(message_id: int, fields: dict[str, Any]) -> None:
        nonlocal answered
        if interaction is not None and not answered and interaction.message is not None and interaction.message.id == message_id:
            await guard.edit_in_place(interaction, **fields)
            answered = True
            return
        with contextlib.suppress(discord.HTTPException):
            await place.get_partial_message(message_id).edit(**fields, allowed_mentions=NO_PINGS)

    for vote_id in [v for v in stored if v not in ballots]:
        kept = stored.pop(vote_id)
        await show(int(kept["id"]), closed_message(table, vote_id, kept, verdict_of(table, vote_id, events)))
    for vote_id, ballot in ballots.items():
        shown = _shown(ballot, deadline_of(table, ballot))
        kept = stored.get(vote_id)
        if kept is None:
            try:
                message = await place.send(**open_message(table, ballot), allowed_mentions=NO_PINGS)
            except discord.HTTPException as error:
                log.warning("Could not post vote %s at table %s: %s", vote_id, table.id, error)
                continue  # the next publish tries again; the board still shows the vote
            stored[vote_id] = {"id": message.id, "shown": shown, "question": ballot.question[:200], "body": ballot.body[:KEPT_TEXT]}
            record.publish["after_board"] = record.publish.get("after_board", 0) + 1
        elif kept.get("shown") != shown:
            await show(int(kept["id"]), open_message(table, ballot))
            kept["shown"] = shown
    if not stored:
        record.publish.pop("votes", None)
    return answered


def refusal(ballots: Mapping[str, Ballot], vote_id: str, user: int, code: str) -> str | None:
    """Why a click on a vote does not count (None: it may go to the rules)."""
    ballot = ballots.get(vote_id)
    if ballot is None:
        return _("That vote has closed, so your click changed nothing.")
    if user not in ballot.voters:
        who = ", ".join(f"<@{v}>" for v in ballot.voters)
        return _("Only {players} vote on this, so your click changed nothing.", players=who)
    if user in ballot.voted:
        return _("You have already voted; each voter has one vote, and it cannot be changed.")
    if code not in {c.code for c in ballot.choices}:
        return _("That is not one of this vote's choices, so nothing changed.")
    return None
