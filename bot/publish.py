"""Publishing a table: the board, the pings, the live hands and the DM hands.

Everything a move shows happens here, after the move is committed (see the order at
the top of ``bot/tables.py``). What the platform has posted for a table is kept in
``record.publish`` (stored with the table, so a restart carries on with the same
board, ping and DM hands):

- ``ping``: ``{"id": message id, "players": [...]}``, the one live ping message;
- ``dm``: ``{user: [dm channel id, message id]}``, each DM-hand player's latest hand;
- ``dm_closed``: ``{user: told}``, players whose DMs refused us (hands go ephemeral);
- ``lobby_channel``, ``lobby_options``, ``note``: see ``bot/tables.py``.

The live ephemeral hands (interaction tokens) are kept in memory only: a token lives
15 minutes, and after a restart the next ping's Show hand gives a fresh hand.

Per move, in the thread: the board is edited in place (one call); when new players
must act, one short ping naming everyone who must act now is posted and the previous
ping deleted (two calls); each newly current player's open hand is edited through
its token, or their DM hand is sent anew with the previous one cut to a line.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import computer, sessions, views, votes
from bot.engine import Event, Game

if TYPE_CHECKING:
    from bot.tables import Table, TableManager

log = logging.getLogger(__name__)

#: An interaction token lives 15 minutes; leave a margin for the edit itself.
LIVE_HAND_SECONDS = 14 * 60
#: Re-post the board when this many messages (chat, pings) came after it.
SCROLL_REPOST_MESSAGES = 25
NO_PINGS = discord.AllowedMentions.none()
PING_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


@dataclass
class LiveHand:
    interaction: discord.Interaction
    since: float  # when its token was issued (our clock)


def mentions(players: Iterable[int]) -> str:
    people = [computer.name(p) for p in players]
    if len(people) <= 1:
        return "".join(people)
    return ", ".join(people[:-1]) + " and " + people[-1]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def standings(placements: Sequence[Sequence[int]]) -> str:
    return "; ".join(f"{ordinal(i)} {mentions(group)}" for i, group in enumerate(placements, 1) if group)


def game_over_data(state: Game, events: Sequence[Event] = ()) -> dict[str, Any]:
    """The rules' own account of the end: the ``game_over`` event's data, else the
    state's stored result (a retry after a restart has no events)."""
    for event in events:
        if event.kind == "game_over":
            return dict(event.data or {})
    result = getattr(state, "result", None)
    if isinstance(result, Mapping):
        return dict(result)
    return {"reason": "stalemate"} if getattr(state, "stalemate", False) else {}


def final_text(title: str, state: Game, events: Sequence[Event] = ()) -> str:
    """How the end reads: a stalemate is announced as one (with the standings), a
    draw as a draw, and only a real win as a win."""
    placements = state.placements()
    data = game_over_data(state, events)
    if data.get("reason") == "stalemate" or any(e.kind == "stalemate" for e in events):
        text = f"🤝 The {title} game ended in a stalemate: nobody won."
        return text + (f" Standings: {standings(placements)}." if placements else "")
    if not placements:
        return f"The {title} game is over."
    everyone = sum(len(group) for group in placements)
    if len(placements) == 1 and everyone > 1:
        return f"🤝 The {title} game ended in a draw between {mentions(placements[0])}."
    text = f"🏆 {mentions(placements[0])} won the {title} game!"
    if len(placements) > 1:
        text += f" Standings: {standings(placements)}."
    return text


def ping_text(players: Sequence[int], simultaneous: bool, task: str | None = None) -> str:
    """``task``: the game's own word for what is owed (``render.ping_task``), e.g.
    "vote on the limerick"; else the generic move / picks wording."""
    if not players:
        return ""
    if task:
        return f"👉 {mentions(players)}: {task}."
    if len(players) == 1:
        return f"👉 {mentions(players)}: your move."
    return f"👉 {mentions(players)}: " + ("your picks (each of you chooses)." if simultaneous else "your moves.")


def ping_task(table: Table) -> str | None:
    """The game's wording for the pending obligation, if its render has ``ping_task(observation)``."""
    word = getattr(table.spec.render, "ping_task", None)
    if not callable(word) or table.state is None or table.state.is_over():
        return None
    return word(table.state.observation(None))


class Publisher:
    """Shows tables. One per :class:`TableManager`."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.live: dict[tuple[int, int, int], LiveHand] = {}

    @property
    def bot(self) -> discord.Client:
        return self.manager.bot

    def place(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.record.place, guild_id=table.guild_id)

    # ------------------------------------------------------------------ live hands

    def remember_hand(self, table: Table, interaction: discord.Interaction) -> None:
        """The player's newest hand message in the channel (its token edits it later)."""
        if interaction.guild_id is None:
            return  # a DM hand is edited as a message, not through a token
        from bot.tables import now_ts

        self.live[(table.guild_id, table.id, interaction.user.id)] = LiveHand(interaction, now_ts())

    def forget_table(self, table: Table) -> None:
        for key in [k for k in self.live if k[:2] == (table.guild_id, table.id)]:
            del self.live[key]

    async def _update_live_hand(self, table: Table, user: int) -> bool:
        from bot.tables import now_ts

        key = (table.guild_id, table.id, user)
        live = self.live.get(key)
        if live is None:
            return False
        if now_ts() - live.since > LIVE_HAND_SECONDS:
            del self.live[key]  # its token is about to expire: the ping's Show hand gives a fresh one
            return False
        content, embed, view = self.manager._hand_payload(table, user)
        try:
            await live.interaction.edit_original_response(content=content, embed=embed, view=view)
        except discord.HTTPException as error:
            log.info("Live hand of %s at table %s could not be updated: %s", user, table.id, error)
            self.live.pop(key, None)
            return False
        return True

    # ------------------------------------------------------------------ DM hands

    async def send_dm_hand(self, table: Table, user: int, *, notice: str = "") -> discord.Message | None:
        """A new DM with the hand (so Discord notifies), the previous one cut to a line.
        None when the DM could not be sent (then ``dm_closed`` says so)."""
        record = table.record
        content, embed, view = self.manager._hand_payload(table, user)
        where = f"<#{record.place}>"
        content = f"{notice}\n{content}" if notice else content
        content = f"{table.spec.title} #{table.id} in {where}: {content}"
        try:
            member = self.bot.get_user(user) or await self.bot.fetch_user(user)
            message = await member.send(content=content, embed=embed, view=view)
        except discord.HTTPException as error:
            log.info("Could not DM user %s at table %s: %s", user, table.id, error)
            record.publish.setdefault("dm_closed", {}).setdefault(str(user), False)
            return None
        previous = record.publish.setdefault("dm", {}).get(str(user))
        record.publish["dm"][str(user)] = [message.channel.id, message.id]
        if previous:
            channel = self.bot.get_partial_messageable(previous[0])
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(previous[1]).edit(
                    content=f"An earlier hand from {table.spec.title} #{table.id}: your current hand is in a newer message below.",
                    embed=None, view=None,
                )
        return message

    async def refresh_dm_hand(self, table: Table, user: int) -> discord.PartialMessage | None:
        """Edit the player's latest DM hand in place (Show hand in the channel)."""
        previous = table.record.publish.get("dm", {}).get(str(user))
        if not previous:
            return None
        content, embed, view = self.manager._hand_payload(table, user)
        message = self.bot.get_partial_messageable(previous[0]).get_partial_message(previous[1])
        content = f"{table.spec.title} #{table.id} in <#{table.record.place}>: {content}"
        try:
            await message.edit(content=content, embed=embed, view=view)
        except discord.HTTPException:
            return None
        return message

    def dms_closed(self, table: Table, user: int) -> bool:
        return str(user) in table.record.publish.get("dm_closed", {})

    # ------------------------------------------------------------------ the board

    def board_payload(self, table: Table, *, final: bool = False, events: Sequence[Event] = (), note: str = "") -> tuple[str | None, discord.Embed, discord.ui.View | None]:
        state = table.state
        assert state is not None
        record = table.record
        observation = state.observation(None)
        if record.obligations:
            # Open obligations' deadlines (only the platform knows the clock): the
            # render shows them as Discord timestamps next to who owes what.
            observation = {**observation, "deadlines": {key: int(deadline) for key, (_, deadline) in record.obligations.items()}}
        embed = table.spec.render.table_embed(observation, table.names(), record.recent)
        ours = f"{table.spec.title} #{table.id} · move {record.version}" + ("" if final else f" · {record.timer_seconds} s turn timer")
        # The game's own footer (a hint, a rules pointer) stays; ours goes after it.
        theirs = embed.footer.text if embed.footer else None
        embed.set_footer(text=(f"{theirs}\n{ours}" if theirs else ours)[:2048])
        if final:
            content = final_text(table.spec.title, state, events) + "\nThe result is recorded: see `/stats`."
            label = sessions.next_label(table.spec)
            view: discord.ui.View | None = views.rematch_view(table.guild_id, table.id, label=label)
        else:
            content = note or None
            view = views.table_view(table.guild_id, table.id)
        return content, embed, view

    def board_message(self, table: Table, *, final: bool = False, events: Sequence[Event] = (), note: str = "", image: str | None = None) -> dict[str, Any]:
        """Keyword arguments for sending or editing the board: an embed, or (the
        server's layout setting, fixed at Start) a Components V2 layout of the same text.
        ``image`` is the card picture's ``attachment://`` address, if there is one."""
        content, embed, view = self.board_payload(table, final=final, events=events, note=note)
        if table.record.publish.get("layout") != "v2":
            if image:
                embed.set_image(url=image)
            return {"content": content, "embed": embed, "view": view}
        from bot.layout import layout_view

        buttons = list(view.children) if view is not None else []
        return {"view": layout_view(embed, content=content, buttons=buttons, image=image)}

    async def table_picture(self, table: Table) -> bytes | None:
        """The public card picture, drawn off the event loop from rows built from the
        spectator observation only (so no hidden card can be an input of it). None when
        the server turned pictures off, the game draws none, or drawing failed."""
        from bot import cardart
        from bot.games import card_rows

        render_rows = getattr(cardart, "render_rows", None)
        if table.state is None or not callable(render_rows) or table.record.publish.get("pictures") == "off":
            return None
        rows = card_rows(table.spec.render, "table_cards", table.state.observation(None))
        if not rows:
            return None
        try:
            return await asyncio.to_thread(render_rows, rows, title=f"{table.spec.title} #{table.id}")
        except Exception:
            log.exception("Could not draw the card picture of table %s; showing text only", table.id)
            return None

    async def publish(self, table: Table, *, ping: Iterable[int] = (), final: bool = False, events: Sequence[Event] = (), actor: int | None = None, note: str = "") -> None:
        """Edit the board (or post it), bring the ping up to date, and hand each newly
        current player their hand (live hand edit or DM)."""
        from bot.tables import REPOST_AFTER_SECONDS, now_ts
        from storage import repos

        state = table.state
        if state is None:
            return
        record = table.record
        before = (record.message_id, json.dumps(record.publish, sort_keys=True))
        picture = await self.table_picture(table)
        name = f"table-{table.id}.png"
        board = self.board_message(table, final=final, events=events, note=note, image=f"attachment://{name}" if picture else None)
        # The picture rides on the edit (or post) that happens anyway: no extra call.
        file = (lambda: discord.File(io.BytesIO(picture), filename=name)) if picture else None
        place = self.place(table)
        too_old = record.message_posted_at is not None and now_ts() - record.message_posted_at > REPOST_AFTER_SECONDS
        scrolled = record.publish.get("after_board", 0) >= SCROLL_REPOST_MESSAGES
        try:
            repost = record.message_id is None or too_old or scrolled
            if not repost:
                try:
                    files = {"attachments": [file()]} if file else {}
                    await place.get_partial_message(record.message_id).edit(**board, **files, allowed_mentions=NO_PINGS)
                except discord.NotFound:
                    repost = True  # someone deleted the board
            if repost:
                files = {"file": file()} if file else {}
                message = await place.send(**board, **files, allowed_mentions=NO_PINGS)
                old, record.message_id, record.message_posted_at = record.message_id, message.id, now_ts()
                record.publish["after_board"] = 0
                if old is not None:
                    # The old board would show a stale table: remove it (rare: hourly or when scrolled).
                    with contextlib.suppress(discord.HTTPException):
                        await place.get_partial_message(old).delete()
            table.needs_publish = False
        except discord.HTTPException as error:
            log.warning("Could not update the board of table %s in guild %s: %s", table.id, table.guild_id, error)
            table.needs_publish = True
            if not final:
                self.manager._schedule_publish_retry(table)
        # Votes on messages of their own, above the ping that names the voters.
        await votes.sync(self, table, events)
        current = [] if final or state.is_over() else sorted(state.current_players())
        # Computers are named on the board but never pinged, and have no hands to show.
        current = computer.humans(current)
        newly = set(ping) & set(current)
        await self._ping(table, current, newly)
        for user in sorted(newly - {actor} if actor is not None else newly):
            await self._notify_hand(table, user)
        if final:
            self.forget_table(table)
        if (record.message_id, json.dumps(record.publish, sort_keys=True)) != before:
            async with self.manager.storage.transaction(table.guild_id) as db:
                await repos.update_table(db, table.id, now=now_ts(), message_id=record.message_id,
                                         message_posted_at=record.message_posted_at, publish=record.publish,
                                         turn_players=list(current))

    async def _ping(self, table: Table, current: list[int], newly: set[int]) -> None:
        """One live ping naming exactly who must act now; the stale one goes."""
        record = table.record
        place = self.place(table)
        existing = record.publish.get("ping")
        simultaneous = len(current) > 1
        named = existing.get("players") if existing else None
        task = ping_task(table)  # the game's word for what is owed; kept so a change of it edits the ping
        # A new ping (a new notification) only when someone new must act; the same
        # player going again (or a retry) keeps the ping that already names them.
        if current and (existing is None or (newly and named != current)):
            try:
                message = await place.send(content=ping_text(current, simultaneous, task), view=views.table_view(table.guild_id, table.id), allowed_mentions=PING_USERS)
            except discord.HTTPException as error:
                log.warning("Could not ping at table %s: %s", table.id, error)
                # The old ping stays for now; the retry posts the new one.
                table.needs_publish = True
                self.manager._schedule_publish_retry(table)
                return
            record.publish["ping"] = {"id": message.id, "players": current, **({"task": task} if task else {})}
            record.publish["after_board"] = record.publish.get("after_board", 0) + 1
        elif current and existing and (existing.get("players") != current or existing.get("task") != task):
            # Fewer players to wait for (a pick in a simultaneous phase), or the same player
            # owing something else (a vote closed, their turn now): no new notice needed.
            with contextlib.suppress(discord.HTTPException):
                await place.get_partial_message(existing["id"]).edit(content=ping_text(current, simultaneous, task), allowed_mentions=NO_PINGS)
                existing["players"] = current
                if task:
                    existing["task"] = task
                else:
                    existing.pop("task", None)
            return
        elif not current:
            record.publish.pop("ping", None)
        else:
            return
        if existing is not None:
            with contextlib.suppress(discord.HTTPException):
                await place.get_partial_message(existing["id"]).delete()

    async def _notify_hand(self, table: Table, user: int) -> None:
        if not await self.manager.hands_in_dm(table.guild_id, user):
            await self._update_live_hand(table, user)
            return
        if self.dms_closed(table, user):
            return
        await self.send_dm_hand(table, user)  # its status line says "Your move."

    def final_line(self, table: Table) -> str:
        """The parent message at the end: the result, where it was played, where it went."""
        assert table.state is not None
        where = f" Played in <#{table.record.thread_id}>." if table.record.thread_id else ""
        return final_text(table.spec.title, table.state) + where + " The result is recorded: see `/stats`."

    def note_chat(self, table: Table) -> None:
        """A message in the table's place scrolls the board up."""
        table.record.publish["after_board"] = table.record.publish.get("after_board", 0) + 1
