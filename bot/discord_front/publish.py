"""Publishing a table: the board, the pings, the live hands and the DM hands.

Everything a move shows happens here, after the move is committed (see the order at
the top of ``bot/discord_front/tables/__init__.py``). What the platform has posted for a table is kept in
``record.publish`` (stored with the table, so a restart carries on with the same
board, ping and DM hands):

- ``ping``: only in tables stored before the board carried the turn: that old ping
  message, deleted at the next publish;
- ``dm``: ``{user: [dm channel id, message id]}``, each DM-hand player's latest hand;
  the DM channel is also kept per player in the server's ``dm_channels`` table, so a
  DM is sent straight to it (no user lookup, nothing opened again after a restart);
- ``dm_closed``: ``{user: told}``, players whose DMs refused us (hands go ephemeral);
- ``names``: ``{user: name}``, the players' display names as the table picture draws
  them (see :meth:`Publisher.picture_names`);
- ``lobby_channel``, ``lobby_options``, ``note``: see ``bot/discord_front/tables/lobby.py``.

The live ephemeral hands (interaction tokens) are kept in memory only: a token lives
15 minutes, and after a restart the next players to act are pinged (nobody's hand is
known to be open) and the board's Show hand gives a fresh hand.

Per move, in the thread (issue 9's budget: REST calls per move, everything included,
mean <= 3). The board itself carries the "who must act" line (it is edited anyway), so
there is no separate ping message to post and clean up:

- each newly current player is told first, in the cheapest way that still reaches them:
  a player who has a live hand open (a token younger than ``LOOKING_SECONDS``) sees it
  update itself to "Your move" (one call); a DM-hand player gets the hand as a new DM
  (so Discord notifies them) and the previous DM is deleted (one hand per game in their DMs);
- everyone else who must now act (no open hand, an old or failed token, DMs closed, after
  a restart) is pinged: the board is posted anew with the line mentioning them (a new
  message is what notifies) and the previous board deleted; otherwise the board is
  edited in place, mentioning nobody.

So a move that passes the turn to a player who is looking at their hand costs three
calls (the click's answer, the board edit, their hand edit), one that passes it to a
player who is not costs three too (the click's answer, the new board, the old board's
deletion), and a move that keeps the turn costs two. Measured (``bench/rest_calls.py
--games 3``, players keeping their hand open): mean 2.52-2.57 / 2.88-2.92 / 2.52 calls per move (two runs) for
Blackjack / Idiot / Engines (2 players), max 4; it was 3.62 / 4.68 / 4.01, max 6, with a
separate ping message. Engines with 4 players: mean 2.75, max 6 (the move that ends a
trick edits three other hands). With one DM-hand player (``--dm 1 --deal-seed 1 --games
5``): 2.75 / 3.17 / 2.74, max 5; a DM turn is four calls (the answer, the board edit, the
new DM, the previous DM deleted), with no user lookup (see bench/README.md). The last move
closes each player's newest hand only (a new copy deletes older ones when it is shown),
so it spends no more than players + 2 calls either (issue 37).

The trade-off: a player whose hand is open gets no notification sound, only the hand
changing under their eyes. Discord does not tell a bot that an ephemeral message was
dismissed, so a player who closed their hand within ``LOOKING_SECONDS`` of their last
click is not pinged either: the board still names them, and the turn timer still runs.
Once their last click is ``LOOKING_SECONDS`` old they are pinged again. The thread never
shows a stale "your move": the only such line is on the one board, always current.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.words import i18n
from bot.players import ratings
from bot.discord_front import sessions, views, votes
from bot.discord_front.paused import paused_sentence
from bot.core import computer
from bot.core.games import table_words
from bot.discord_front import edits, guard, pacing
from bot.discord_front.latest import Latest
from bot.discord_front.layout import embed_of
from bot.discord_front.common import now_ts
from bot.words.i18n import N_, _, ngettext
from bot.rules.engine import Event, Game
from bot.words.panel import Panel
from bot.words.render_util import end_embed_lists, ordinal

if TYPE_CHECKING:
    from bot.core.games import GameSpec
    from bot.core.moves import Outcome
    from bot.core.settings import GuildSettings
    from bot.core.table import Table
    from bot.pictures.picture_pool import PictureDrawer
    from storage.db import Storage

log = logging.getLogger(__name__)

#: An interaction token lives 15 minutes; leave a margin for the edit itself.
LIVE_HAND_SECONDS = 14 * 60
#: A player whose last click on their hand is younger than this is taken to be looking
#: at it: their hand updating is their notice. Older (or no) hand: they are pinged.
LOOKING_SECONDS = 5 * 60
#: Re-post the board when this many messages (chat) came after it.
SCROLL_REPOST_MESSAGES = 25
#: A name in a picture's row label is cut to this many characters (then to the width).
PICTURE_NAME_CHARS = 24
NO_PINGS = discord.AllowedMentions.none()


@dataclass
class LiveHand:
    interaction: discord.Interaction
    since: float  # when its token was issued (our clock)


#: Copies of one player's hand kept editable (each its latest token): a player may open
#: Show hand several times. A new copy deletes the older ones (:meth:`Publisher.drop_older_copies`),
#: so the one a player can click is the newest, and the end closes that one.
HAND_COPIES = 8


@dataclass
class _PendingShow:
    """What the next round of :meth:`Publisher.show` shows: requests merged."""

    ping: list[int] = field(default_factory=list)
    final: bool = False
    events: list[Event] = field(default_factory=list)
    actor: int | None = None
    tell: bool = False

    def add(self, ping: Iterable[int], final: bool, events: Sequence[Event], actor: int | None) -> None:
        if actor is not None:
            # The actor's click answered with their hand as it is: no notice for them
            # from earlier requests either.
            self.ping = [p for p in self.ping if p != actor]
        self.ping += [p for p in ping if p not in self.ping and p != actor]
        self.final = self.final or final
        self.events += list(events)
        self.actor = actor


@dataclass
class HandMessage:
    """A player's private hand, ready to send or to edit in: text and controls (an embed
    and a View, or one Components V2 LayoutView) and the picture of their own cards,
    attached in the same call."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | discord.ui.LayoutView
    picture: bytes | None = None
    filename: str = "hand.png"
    alt: str | None = None  # the picture in words, for screen readers

    def _file(self) -> discord.File | None:
        return discord.File(io.BytesIO(self.picture), filename=self.filename, description=self.alt) if self.picture else None

    def _text(self) -> dict[str, Any]:
        if isinstance(self.view, discord.ui.LayoutView):
            return {"view": self.view}  # a V2 message carries no content and no embed
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def send(self) -> dict[str, Any]:
        """Keyword arguments for ``send`` / ``send_message``."""
        file = self._file()
        return {**self._text(), **({"file": file} if file else {})}

    def edit(self) -> dict[str, Any]:
        """Keyword arguments for an edit: the picture replaces the previous one (none: removed)."""
        file = self._file()
        return {**self._text(), "attachments": [file] if file else []}


def _snapshot(value: Any) -> Any:
    """A copy of a table's ``publish`` map, every dict and list copied, to tell after a
    publish whether it changed (``==``). Cheaper than writing it as JSON twice a move;
    compared as Python compares: a tuple put for an equal list counts as a change (one
    save more); ``1`` put for ``True`` would not (nothing here stores either for the
    other)."""
    if type(value) is dict:
        return {key: _snapshot(item) for key, item in value.items()}
    if type(value) is list:
        return [_snapshot(item) for item in value]
    return value


@functools.lru_cache(maxsize=4096)
def picture_name(shown: str) -> str:
    """A display name as a picture can draw it: the font's characters only, at most
    ``PICTURE_NAME_CHARS``; "" when nothing readable is left (the row says "Seat N")."""
    from bot.pictures import cardart

    plain = cardart.drawable(shown)[:PICTURE_NAME_CHARS].strip()
    return plain if any(ch.isalnum() for ch in plain) else ""


def keep_name(publish: dict[str, Any], user: int, shown: str) -> None:
    """Note ``user``'s display name in a table's ``publish`` (saved with the table), so a
    restart still names them in its pictures before they click again."""
    plain = picture_name(shown)
    if plain and not computer.is_computer(user):
        publish.setdefault("names", {})[str(user)] = plain


def mentions(players: Iterable[int]) -> str:
    people = [computer.name(p) for p in players]
    if len(people) <= 1:
        return "".join(people)
    # Translators: the end of a list of players: "<@1>, <@2> and <@3>".
    return _("{names} and {last}", names=", ".join(people[:-1]), last=people[-1])


def standings(placements: Sequence[Sequence[int]], moves: Mapping[int, int] | None = None) -> str:
    """"1st <@1>; 2nd <@2> and <@3>", each person followed by how their rating moved
    ("<@1> (+65)") when ``moves`` has them: the one list that names everyone (see
    :func:`standings_sentence`, which says what the numbers are)."""
    def who(player: int) -> str:
        if moves and player in moves:
            return _("{player} ({change})", player=computer.name(player), change=f"{moves[player]:+d}")
        return computer.name(player)

    def group_text(group: Sequence[int]) -> str:
        people = [who(p) for p in group]
        return people[0] if len(people) == 1 else _("{names} and {last}", names=", ".join(people[:-1]), last=people[-1])

    return "; ".join(_("{place} {players}", place=ordinal(i), players=group_text(group)) for i, group in enumerate(placements, 1) if group)


def standings_sentence(placements: Sequence[Sequence[int]], moves: Mapping[int, int] | None = None) -> str:
    """"Standings: 1st <@1>; 2nd <@2>." or, with rating moves in it, "Standings and rating
    moves: 1st <@1> (+65); 2nd <@2> (-12).": a bare "(-8)" read as nothing in particular,
    and "(rating -8)" after every name pushed the line to a third row."""
    said = standings(placements, moves)
    if moves and any(player in moves for group in placements for player in group):
        return _("Standings and rating moves: {standings}.", standings=said)
    return _("Standings: {standings}.", standings=said)


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


#: The winner's mark on a finished board (not 🏆: that is Cripple Mr Onion's cups suit).
WINNER_MARK = "🥇"


def final_text(title: str, state: Game, events: Sequence[Event] = (), unit: str = "game", render: Any = None,
               moves: Mapping[int, int] | None = None) -> str:
    """How the end reads: a stalemate is announced as one (with the standings), a
    draw as a draw, and only a real win as a win. ``unit``: what one table plays, in
    the game's word (see :func:`table_unit`). A game's render module may word an end
    of its own with ``final_text(observation) -> str | None`` (None: the words below).
    ``moves``: how each person's rating moved, said in the standings (the winner is
    named once in words, and once more in the standings, never a third time); with a
    game's own end, on a line of its own."""
    own = getattr(render, "final_text", None)
    if own is not None:
        text = own(state.observation(None))
        if text:
            moved = ratings.moves_text(moves) if moves else ""
            return f"{text}\n{moved}" if moved else text
    unit = _(unit)  # "game", "round": see TABLE_UNITS
    placements = state.placements()
    data = game_over_data(state, events)
    if data.get("reason") == "stalemate" or any(e.kind == "stalemate" for e in events):
        text = _("🤝 The {title} {unit} ended in a stalemate: nobody won.", title=title, unit=unit)
        return text + (" " + standings_sentence(placements, moves) if placements else "")
    if not placements:
        return _("The {title} {unit} is over.", title=title, unit=unit)
    everyone = sum(len(group) for group in placements)
    if len(placements) == 1 and everyone > 1:
        return _("🤝 The {title} {unit} ended in a draw between {players}.", title=title, unit=unit, players=mentions(placements[0]))
    text = WINNER_MARK + " " + ngettext("{players} won the {title} {unit}!", "{players} won the {title} {unit}!", len(placements[0]),
                                        players=mentions(placements[0]), title=title, unit=unit)
    if len(placements) > 1:
        text += " " + standings_sentence(placements, moves)
    elif moves:
        text += " " + ratings.moves_text(moves)
    return text


def recorded_line() -> str:
    """Where a finished game's result is: the one leaderboard command."""
    return _("The result is recorded: see `/leaderboard`.")


def board_link(guild_id: int, record: Any) -> str | None:
    """A link to the board message (where Rematch / Next round is), or to the game's
    place when no board was posted."""
    if record.message_id is None:
        return f"https://discord.com/channels/{guild_id}/{record.place}"
    return f"https://discord.com/channels/{guild_id}/{record.place}/{record.message_id}"


def play_again(spec: GameSpec, guild_id: int, record: Any) -> str:
    """Where a finished game's players go next: the board's Rematch (Next round) button."""
    label = sessions.next_label(spec)
    # A short labelled link: the raw address wrapped mid-number on a narrow hand.
    if label == "Rematch":
        return _("To play again, press **{label}** on [the board]({link}).", label=_(label), link=board_link(guild_id, record))
    return _("For the next {unit}, press **{label}** on [the board]({link}).", unit=_(label.split()[-1].lower()), label=_(label), link=board_link(guild_id, record))  # "Next round": "round"


def table_unit(spec: GameSpec) -> str:
    """What one table plays, in the game's word: ``render.TABLE_UNIT`` ("round" for
    Cripple Mr Onion, whose tables are the rounds of a session), else "game"."""
    return getattr(spec.render, "TABLE_UNIT", "game")


#: What one table plays (``render.TABLE_UNIT``) and the finished board's buttons
#: (``sessions.next_label``), for the catalog: they are translated where they are shown.
TABLE_UNITS = (N_("game"), N_("round"))
NEXT_LABELS = (N_("Rematch"), N_("Next round"), N_("Next game"))


def ping_text(players: Sequence[int], simultaneous: bool, task: str | None = None) -> str:
    """``task``: the game's own word for what is owed (``render.ping_task``), e.g.
    "vote on the limerick"; else the generic move / picks wording."""
    if not players:
        return ""
    if task:
        return _("👉 {players}: {task}.", players=mentions(players), task=task)
    if len(players) == 1:
        return _("👉 {players}: your move.", players=mentions(players))
    return (_("👉 {players}: your picks (each of you chooses).", players=mentions(players)) if simultaneous
            else _("👉 {players}: your moves.", players=mentions(players)))


def ping_task(table: Table, observation: Mapping[str, Any] | None = None, *, board: bool = False) -> str | None:
    """The game's wording for the pending obligation, if its render has ``ping_task(observation)``
    (something owed that is not a move, e.g. a vote: the hand's status says it too).
    ``board``: for the board's first line, where the render's ``turn_task(observation)``
    (what the player to move must do) comes first. ``observation``: the spectator
    observation, when the caller has it already."""
    if table.state is None or table.state.is_over():
        return None
    public = table.state.observation(None) if observation is None else observation
    for name in (("turn_task", "ping_task") if board else ("ping_task",)):
        word = getattr(table.spec.render, name, None)
        said = word(public) if callable(word) else None
        if said:
            return said
    return None


def turn_line(current: Sequence[int], task: str | None = None, owing: Sequence[int] = ()) -> str:
    """The board's first line: the people who must act now (mentions), and any computer
    being waited for (named, never pinged). ``task``: the game's word for what is owed.
    ``owing``: people who owe typed words now (open obligations, e.g. a ritual) besides
    those whose move it is: named on the same line, so it names everyone who must act."""
    people = computer.humans(current)
    machines = [p for p in current if p not in people]
    parts = [ping_text(people, len(current) > 1, task)] if people else []
    typing = [p for p in computer.humans(owing) if p not in current]
    if typing and parts:
        parts.append(_("{players}: type what you owe in the thread.", players=mentions(typing)))
    elif typing:
        parts.append(_("👉 {players}: type what you owe in the thread.", players=mentions(typing)))
    if machines:
        parts.append(_("⏳ Waiting for {players}.", players=mentions(machines)))
    return " ".join(parts)


def owed_words(observation: Mapping[str, Any]) -> list[int]:
    """Players who owe typed words now, from the spectator observation's open
    ``obligations`` (``{"player", "ritual"}``, as Enid shows them): a vote's obligation is
    the voters' (the current players), not its subject's."""
    owed = observation.get("obligations") or ()
    return sorted({int(o["player"]) for o in owed if isinstance(o, Mapping) and o.get("player") is not None and o.get("ritual") != "vote"})


class BoardRefused(Protocol):
    async def __call__(self, table: Table, error: discord.HTTPException, *, final: bool) -> bool:
        """Deal with a board Discord refused for its place (a thread deleted, closed, a
        permission taken): True when handled there (no ordinary retry)."""


class Publisher:
    """Shows tables: the presenter (what each person must now see) and its requests to
    Discord. One per :class:`bot.discord_front.tables.TableManager`, handed what it
    uses: the bot (its channels), the storage (the board's ids, DM channels), the
    picture drawer, the server settings (pictures, DM hands), and the four things it
    does not do itself, each a function: ``board_refused`` (the threads' answer to a
    refused board), ``retry_later`` (the publish retry), ``tell_others`` (the bus,
    after a move is shown) and ``finished`` (the lobby message's last edit)."""

    def __init__(
        self, bot: discord.Client, storage: Storage, pictures: PictureDrawer, settings: GuildSettings, *,
        board_refused: BoardRefused, retry_later: Callable[[Table], None],
        tell_others: Callable[[Table], Awaitable[None]], finished: Callable[[Table], Awaitable[None]],
    ) -> None:
        self.bot, self.storage, self.pictures, self.settings = bot, storage, pictures, settings
        self.board_refused, self.retry_later, self.tell_others, self.finished = board_refused, retry_later, tell_others, finished
        self.live: dict[tuple[int, int, int], LiveHand] = {}
        #: (guild, table, user) -> {hand message id: its latest token}: every ephemeral
        #: copy of the hand, so the end (or a cancel) closes all of them, not only the newest.
        self.copies: dict[tuple[int, int, int], dict[int, LiveHand]] = {}
        #: (guild, user) -> display name, noted from every interaction: the bot has no
        #: member list (no privileged intent) and a picture may not cost a REST call.
        self.display_names: dict[tuple[int, int], str] = {}
        #: Paces the requests to Discord (bot/discord_front/pacing.py); told when a
        #: showing is merged, so a board still waiting for the budget gives way to it.
        self.pacer: pacing.Pacer | None = getattr(bot, "pacer", None)
        #: The messages kept up to date by edits (a lobby, a DM hand): one edit in
        #: flight and one waiting each, the newest (bot/discord_front/latest.py).
        self.latest = Latest()
        hooks = getattr(bot, "interaction_hooks", None)
        if hooks is not None:
            hooks.append(self.note_display_name)

    def note_display_name(self, interaction: discord.Interaction) -> None:
        """Interaction hook (``bot.interaction_hooks``): the clicker's name as the server shows it."""
        if interaction.guild_id is not None and interaction.user is not None:
            self.display_names[(interaction.guild_id, interaction.user.id)] = interaction.user.display_name

    def place(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.record.place, guild_id=table.guild_id)

    # ------------------------------------------------------------------ live hands

    def remember_hand(self, table: Table, interaction: discord.Interaction, message_id: int | None = None) -> None:
        """The player's newest hand message in the channel (its token edits it later).
        ``message_id``: the hand message the interaction's token edits (its original
        response), when it was sent as a new message (Show hand); else the clicked message."""
        if interaction.guild_id is None:
            return  # a DM hand is edited as a message, not through a token
        from bot.discord_front.common import now_ts

        key = (table.guild_id, table.id, interaction.user.id)
        live = LiveHand(interaction, now_ts())
        self.live[key] = live
        if message_id is None:
            message_id = interaction.message.id if interaction.message is not None else interaction.id
        # Its token is all a live hand needs later: the clicked message, which discord.py
        # parsed with every component of the hand, would otherwise stay in memory with it
        # for the token's 15 minutes (most of the parsed messages a busy process holds).
        # The click was answered already, so nothing reads it any more.
        interaction.message = None
        copies = self.copies.setdefault(key, {})
        copies.pop(message_id, None)
        copies[message_id] = live  # newest last
        while len(copies) > HAND_COPIES:
            del copies[next(iter(copies))]

    def forget_table(self, table: Table) -> None:
        for key in [k for k in self.live if k[:2] == (table.guild_id, table.id)]:
            del self.live[key]
        for key in [k for k in self.copies if k[:2] == (table.guild_id, table.id)]:
            del self.copies[key]

    def _editable_copies(self, table: Table) -> list[tuple[int, int, LiveHand]]:
        """(user, message id, token) of every hand copy whose token still lives."""
        from bot.discord_front.common import now_ts

        return [(key[2], message_id, live) for key, copies in self.copies.items() if key[:2] == (table.guild_id, table.id)
                for message_id, live in copies.items() if now_ts() - live.since <= LIVE_HAND_SECONDS]

    def _newest_copies(self, table: Table) -> list[tuple[int, int, LiveHand]]:
        """(user, message id, token) of each player's newest hand copy whose token lives:
        what they can still click (older copies are deleted when a newer one is shown)."""
        newest: dict[int, tuple[int, int, LiveHand]] = {}
        for user, message_id, live in self._editable_copies(table):
            newest[user] = (user, message_id, live)  # copies are kept oldest first
        return list(newest.values())

    async def drop_older_copies(self, table: Table, user: int) -> None:
        """A new copy of ``user``'s hand was shown (Show hand): their older copies whose
        tokens live are deleted (one call each, on the interaction's own token), so one
        hand stays clickable and a player's channel does not fill with old hands."""
        key = (table.guild_id, table.id, user)
        copies = self.copies.get(key)
        if not copies or len(copies) < 2:
            return
        newest = next(reversed(copies))
        alive = {message_id for owner, message_id, _live in self._editable_copies(table) if owner == user}
        for message_id in [m for m in copies if m != newest]:
            live = copies.pop(message_id)
            if message_id in alive:
                with contextlib.suppress(discord.HTTPException):
                    await live.interaction.delete_original_response()


    @i18n.for_reader
    async def update_live_hand(self, table: Table, user: int) -> bool:
        """Edit the player's open hand through its token. True when that is their notice
        (edited, and they clicked it within ``LOOKING_SECONDS``); False when they must be
        pinged (no hand, an expiring token, a failed edit, or a hand left long ago)."""
        from bot.discord_front.common import now_ts

        key = (table.guild_id, table.id, user)
        live = self.live.get(key)
        if live is None:
            return False
        age = now_ts() - live.since
        if age > LIVE_HAND_SECONDS:
            del self.live[key]  # its token is about to expire: the ping's Show hand gives a fresh one
            return False
        hand = await self.hand_message(table, user)
        try:
            await edits.edit_original(live.interaction, **hand.edit())
        except discord.HTTPException as error:
            log.info("Live hand of %s at table %s could not be updated: %s", user, table.id, error)
            self.live.pop(key, None)
            return False
        return age <= LOOKING_SECONDS

    async def pictures_for(self, table: Table, user: int) -> bool:
        """Card pictures in this player's hand: unless the server turned them off for the
        game, or the player asked for text only (``/settings pictures-mine off``)."""
        if table.record.publish.get("pictures") == "off":
            return False
        return await self.settings.pictures_mine(table.guild_id, user)

    @i18n.for_reader
    async def hand_picture(self, table: Table, user: int, observation: Mapping[str, Any] | None = None) -> tuple[bytes, str] | None:
        """The player's own cards and their alt text, drawn off the event loop from rows
        built from that player's observation only (no other player's hidden card is an
        input). ``observation``: that observation, when the caller took it already."""
        from bot.pictures import cardart
        from bot.core.games import card_rows

        state = table.state
        if state is None or not await self.pictures_for(table, user):
            return None
        rows = card_rows(table.spec.render, "hand_cards", state.observation(user) if observation is None else observation)
        if state.is_over():
            # An ended hand draws what is left, never an empty box for cards all gone.
            rows = [row for row in rows if row.cards or row.face_down]
        if not rows:
            return None
        try:
            return await self.pictures.draw(rows), cardart.alt_text(rows)
        except Exception:
            log.exception("Could not draw the hand picture at table %s; showing text only", table.id)
            return None

    @i18n.for_reader
    def hand_payload(self, table: Table, user: int, *, notice: str = "", page: int = 0, status: bool = True,
                     observation: Mapping[str, Any] | None = None) -> tuple[str, Panel, list[views.PlannedControl]]:
        """:func:`hand_payload` in the reader's language."""
        return hand_payload(table, user, notice=notice, page=page, status=status, observation=observation)

    @i18n.for_reader
    async def hand_message(self, table: Table, user: int, *, notice: str = "", page: int = 0, dm: bool = False, status: bool = True) -> HandMessage:
        """The hand as sent or edited everywhere (Show hand, a move's answer, the live
        hand, the DM): the text of :func:`hand_payload`, the picture of the player's own
        cards, and, when the table's layout is V2, one LayoutView holding all of it.
        ``dm``: a hand in DMs, which always starts by naming the game with a link to its
        thread (every DM hand, whether sent, refreshed or answering a click, the same way).
        ``status``: False when the notice already says whose turn it is."""
        # The hand's text and its picture from one observation of the player's, taken
        # with no await between them: both show the same moment of the table.
        observation = table.state.observation(user) if table.state is not None else None
        content, embed, items = hand_payload(table, user, notice=notice, page=page, status=status, observation=observation)
        end_embed_lists(embed)
        if dm:
            content = f"{self._dm_prefix(table)}{content}"
        drawn = await self.hand_picture(table, user, observation)
        picture, alt = drawn if drawn else (None, None)
        filename = f"hand-{table.id}.png"
        image = f"attachment://{filename}" if picture else None
        if table.record.publish.get("layout") == "v2":
            from bot.discord_front.layout import hand_layout

            return HandMessage(None, None, hand_layout(embed, content=content, items=items, image=image, alt=alt), picture, filename, alt)
        return HandMessage(content, embed_of(embed, image=image), views.view_of(items), picture, filename, alt)

    async def answer_click(self, interaction: discord.Interaction, table: Table, user: int, answer: str | HandMessage, *, moved: bool, version: int) -> None:
        """The answer to a click on a hand's control, sent after the table's lock is let
        go: a refusal's sentence, or the player's hand as it now is, edited in place.
        A played move's click brings a fresh token (the live hand); a lost answer
        (10062, 40060) leaves the clicked hand as it was, so a next click from it is told
        this one was played (``table.clicked_from``)."""
        if isinstance(answer, str):
            await guard.answer(interaction, answer)
            return
        delivered = await guard.edit_in_place(interaction, **answer.edit())
        if moved:
            if delivered:
                table.clicked_from.pop(user, None)
            else:
                table.clicked_from[user] = version
        if moved and table.status == "playing":  # (a finished table's hands are forgotten)
            self.remember_hand(table, interaction)

    # ------------------------------------------------------------------ DM hands

    @i18n.for_reader
    async def send_dm_hand(self, table: Table, user: int, *, notice: str = "") -> discord.Message | None:
        """A new DM with the hand (so Discord notifies), the previous one deleted.
        None when the DM could not be sent (then ``dm_closed`` says so)."""
        record = table.record
        hand = await self.hand_message(table, user, notice=notice, dm=True)
        try:
            message = await self._send_dm(table, user, hand)
        except discord.HTTPException as error:
            log.info("Could not DM user %s at table %s: %s", user, table.id, error)
            record.publish.setdefault("dm_closed", {}).setdefault(str(user), False)
            return None
        previous = record.publish.setdefault("dm", {}).get(str(user))
        record.publish["dm"][str(user)] = [message.channel.id, message.id]
        if previous:
            # The new DM is what notifies; the previous hand goes (one call, as cutting it
            # to a line did), so a DM player's channel holds one hand per game.
            with contextlib.suppress(discord.HTTPException):
                await self._dm(previous[0]).get_partial_message(previous[1]).delete()
        return message

    def _dm(self, channel_id: int) -> discord.PartialMessageable:
        """A DM channel by id alone: sending to it costs only the send (no user lookup,
        no channel to open; the bot has no members intent, so no user is ever cached)."""
        return self.bot.get_partial_messageable(int(channel_id), type=discord.ChannelType.private)

    async def _send_dm(self, table: Table, user: int, hand: HandMessage) -> discord.Message:
        """Send the hand to the user's DM channel: the one this table or the server's
        storage already knows, else opened now (one call, then kept). A kept channel
        Discord no longer knows (404) is opened again, once. Raises HTTPException (403:
        their DMs are closed)."""
        channel_id = await self._dm_channel(table, user)
        try:
            return await self._dm(channel_id).send(**hand.send())
        except discord.NotFound:
            channel_id = await self._dm_channel(table, user, fresh=True)
            return await self._dm(channel_id).send(**hand.send())

    async def _dm_channel(self, table: Table, user: int, *, fresh: bool = False) -> int:
        from storage import repos
        from storage.db import StorageError

        storage = self.storage
        if not fresh:
            shown = table.record.publish.get("dm", {}).get(str(user))
            if shown:
                return int(shown[0])
            try:
                async with storage.reading(table.guild_id) as db:
                    kept = await repos.get_dm_channel(db, user)
            except StorageError:
                kept = None  # open it again: one call
            if kept is not None:
                return kept
        channel = await self.bot.create_dm(discord.Object(user))  # a 403 here too when DMs are closed
        try:
            async with storage.transaction(table.guild_id) as db:
                await repos.set_dm_channel(db, user, channel.id)
        except StorageError:
            log.warning("Could not keep the DM channel of user %s; it is opened again next time", user)
        return channel.id

    def _dm_prefix(self, table: Table) -> str:
        """A DM hand's first words: the game, linked to its thread (or channel). Not the
        thread's mention: a thread is named after its game, so that read twice."""
        return f"[{table.spec.title} #{table.id}](https://discord.com/channels/{table.guild_id}/{table.record.place}): "

    @i18n.for_reader
    async def refresh_dm_hand(self, table: Table, user: int) -> discord.PartialMessage | None:
        """Edit the player's latest DM hand in place (Show hand in the channel)."""
        previous = table.record.publish.get("dm", {}).get(str(user))
        if not previous:
            return None
        message = self._dm(previous[0]).get_partial_message(previous[1])

        async def edit() -> discord.PartialMessage | None:
            hand = await self.hand_message(table, user, dm=True)  # drawn when it goes: the newest state
            try:
                await edits.edit_message(message, **hand.edit())
            except discord.HTTPException:
                return None
            return message

        # One edit in flight and one waiting, the newest (bot/discord_front/latest.py).
        return await self.latest.edit(("dm", message.id), edit)

    def dms_closed(self, table: Table, user: int) -> bool:
        return str(user) in table.record.publish.get("dm_closed", {})

    # ------------------------------------------------------------------ the board

    @i18n.for_everyone
    def board_payload(self, table: Table, *, final: bool = False, events: Sequence[Event] = (), note: str = "", pinging: Sequence[int] = (),
                      observation: Mapping[str, Any] | None = None, pictures: bool = False) -> tuple[str | None, Panel, list[discord.ui.Item | views.PlannedControl]]:
        """The board's first lines, its words (a panel) and its buttons (Show hand, planned:
        ``views.table_plan``; Rematch or Next round once finished). ``observation``: the spectator observation, when the
        caller took it already (the publish, for the picture's rows too). ``pictures``: the
        board carries the card picture (the game's text then leaves out what it shows)."""
        state = table.state
        assert state is not None
        record = table.record
        if observation is None:
            observation = state.observation(None)
        public = observation  # (the render's ping_task reads it without the deadlines)
        if record.obligations:
            # Open obligations' deadlines (only the platform knows the clock): the
            # render shows them as Discord timestamps next to who owes what.
            observation = {**observation, "deadlines": {key: int(deadline) for key, (_, deadline) in record.obligations.items()}}
        # first_line: the board's first line (below) names who must act and what they do,
        # so the game's text need not name them again (the terminal's board, without it, does).
        embed = table_words(table.spec.render, observation, table.names(), record.recent, pictures=pictures, first_line=not final)
        end_embed_lists(embed)
        ours = _("{title} #{id} · move {version}", title=table.spec.title, id=table.id, version=record.version) + ("" if final else " · " + _("{seconds} s turn timer", seconds=record.timer_seconds))
        # The game's own footer (a hint, a rules pointer) stays; ours goes after it.
        theirs = embed.footer
        embed.footer = (f"{theirs}\n{ours}" if theirs else ours)[:2048]
        if final:
            # The result names the game: no heading with its title under it.
            embed.title = None
            content = final_text(table.spec.title, state, events, table_unit(table.spec), table.spec.render, table.rating_moves) + "\n" + recorded_line()
            label = sessions.next_label(table.spec)
            buttons = views.rematch_buttons(table.guild_id, table.id, label=label)
            replays = getattr(self.bot, "replays", None)  # Replay (bot/discord_front/replay_view.py)
            buttons += replays.board_buttons(table.guild_id, table.id) if replays is not None else []
        else:
            # The board's first line names everyone who must act now (all of them in a
            # phase where several act at once), on every board, posted anew or edited: an
            # edit mentions nobody (no ping), a board posted anew pings ``pinging``.
            current = [] if state.is_over() else sorted(state.current_players())
            owing = owed_words(public)
            content = "\n".join(line for line in (turn_line(current, ping_task(table, public, board=True), owing), note) if line) or None
            buttons = views.table_plan(table.guild_id, table.id)
        return content, embed, buttons

    @i18n.for_everyone
    def board_message(self, table: Table, *, final: bool = False, events: Sequence[Event] = (), note: str = "", image: str | None = None, pinging: Sequence[int] = (),
                      observation: Mapping[str, Any] | None = None, alt: str | None = None) -> dict[str, Any]:
        """Keyword arguments for sending or editing the board: an embed, or (the
        server's layout setting, fixed at Start) a Components V2 layout of the same text.
        ``image`` is the card picture's ``attachment://`` address, if there is one;
        ``observation`` as :meth:`board_payload` takes it."""
        content, embed, buttons = self.board_payload(table, final=final, events=events, note=note, pinging=pinging, observation=observation,
                                                      pictures=image is not None)
        if table.record.publish.get("layout") != "v2":
            return {"content": content, "embed": embed_of(embed, image=image), "view": views.view_of(buttons)}
        from bot.discord_front.layout import layout_view

        return {"view": layout_view(embed, content=content, buttons=buttons, image=image, alt=alt)}

    @i18n.for_everyone
    def table_picture_rows(self, table: Table, observation: Mapping[str, Any]) -> list[Any]:
        """The rows of the public card picture, built from ``observation``, the spectator
        observation, only (so no hidden card can be an input of it); [] when the server
        turned pictures off or the game draws none."""
        from bot.core.games import card_rows

        if table.record.publish.get("pictures") == "off":
            return []
        # Row labels name the players ("Seat 2 · Ann"), as the board's mentions read.
        return card_rows(table.spec.render, "table_cards", observation, self.picture_names(table))

    @i18n.for_everyone
    def table_alt(self, table: Table, rows: Sequence[Any]) -> str:
        """The public card picture's alt text, in the board's language."""
        from bot.pictures import cardart

        return cardart.alt_text(rows)

    @i18n.for_everyone
    async def table_picture(self, table: Table, rows: Sequence[Any], alt: str | None = None) -> tuple[bytes, str] | None:
        """The public card picture of ``rows`` (:meth:`table_picture_rows`) and its alt
        text (``alt`` when the caller made it already), drawn off the event loop. None
        when drawing failed."""
        from bot.pictures import cardart

        try:
            return await self.pictures.draw(rows, title=f"{table.spec.title} #{table.id}"), alt if alt is not None else cardart.alt_text(rows)
        except Exception:
            log.exception("Could not draw the card picture of table %s; showing text only", table.id)
            return None

    def picture_names(self, table: Table) -> dict[int, str]:
        """Each seated player's public name as plain text for a picture (an image cannot
        resolve a mention): their display name in the server, as the board's mention
        shows it, from the client's cache (drawing never costs a REST call). Only the
        characters the picture's font can draw are kept, at most ``PICTURE_NAME_CHARS``;
        a player with no such name (not cached, or a name of emoji only) is left out and
        their row says "Seat N"."""
        guild = self.bot.get_guild(table.guild_id)
        seated = table.state.players if table.state is not None else table.record.players
        # Kept with the table, so a restart still names everyone before they click again.
        stored: dict[str, str] = table.record.publish.setdefault("names", {})
        names = {}
        for player in seated:
            if computer.is_computer(player):
                shown = computer.name(player)
            else:
                member = guild.get_member(player) if guild is not None else None
                shown = member.display_name if member is not None else self.display_names.get((table.guild_id, player), "")
            plain = picture_name(shown)
            if plain:
                if not computer.is_computer(player) and stored.get(str(player)) != plain:
                    stored[str(player)] = plain
                names[player] = plain
            elif str(player) in stored:
                names[player] = stored[str(player)]
        return names

    def show(self, table: Table, *, ping: Iterable[int] = (), final: bool = False, events: Sequence[Event] = (), actor: int | None = None, tell: bool = False) -> asyncio.Task[None]:
        """Ask for the table to be shown as it is now (after a move): the board, the
        newly current players' hands, at the end the result. Returns at once, so a
        caller holding the table's lock never holds it through Discord's answers (a
        rate limit makes discord.py sleep and retry inside the call, for seconds or
        more). One task per table shows it, a round at a time: requests made while a
        round is under way are merged (pings added up, events kept in order) into the
        next round, which renders the latest state; so a delayed edit is followed by
        the table as it is, never overtaken by an older one, and no board is posted
        twice. ``tell``: a move was made; other processes are told after it is shown.
        Await the task to wait for it (never while holding the lock)."""
        pending: _PendingShow | None = table.pending_show
        merged = pending is not None
        if pending is None:
            pending = table.pending_show = _PendingShow()
        pending.add(ping, final, events, actor)
        pending.tell = pending.tell or tell
        if table.show_task is None or table.show_task.done():
            table.show_task = asyncio.create_task(self._show_rounds(table), name=f"deckhand-show-{table.guild_id}-{table.id}")
        elif self.pacer is not None:
            self.pacer.newer((table.guild_id, table.id), merged=merged)  # a board waiting for Discord's budget gives way to this round
        return table.show_task

    @i18n.for_everyone
    async def _show_rounds(self, table: Table) -> None:
        pacing.mark_task(pacing.NOTICE)  # a showing's DMs and clean-ups go after clicks' requests, before boards
        while table.pending_show is not None:
            async with table.showing:
                pending: _PendingShow | None = table.pending_show
                table.pending_show = None
                if pending is None:
                    break
                shown = table.status == "playing" or (table.status == "finished" and pending.final)
                if shown:  # else cancelled meanwhile (its board says so), or the end is shown already
                    try:
                        await self._show_once(table, ping=pending.ping, final=pending.final, events=pending.events, actor=pending.actor)
                    except Exception:
                        log.exception("Showing table %s in guild %s failed", table.id, table.guild_id)
            if pending.tell:
                await self.tell_others(table)  # after showing: the owner reloads the new message ids too

    def show_move(self, table: Table, outcome: Outcome, *, actor: int | None = None) -> None:
        """A committed move to show (``actor``'s, or a computer's, a timer's): the show
        task's next round, which then tells the other processes. Sends nothing itself,
        so it may be called with the table's lock held."""
        self.show(table, ping=outcome.newly_current, final=outcome.over, events=outcome.events, actor=actor, tell=True)

    async def after_click(self, table: Table, user: int, outcome: Outcome, *, dm: bool) -> HandMessage:
        """A clicked move was committed (the table's lock is held): the player's hand as it
        now is, for the click's answer (:meth:`answer_click`), and the move queued on the
        table's show task (:meth:`show_move`), which sends nothing before the lock is let go."""
        hand = await self.hand_message(table, user, dm=dm)
        self.show_move(table, outcome, actor=user)
        return hand

    async def _show_once(self, table: Table, *, ping: Iterable[int] = (), final: bool = False, events: Sequence[Event] = (), actor: int | None = None) -> None:
        """One round of the show task: the board, the ping, the newly current players'
        hands; at the end, the result on the lobby message too (``finished``)."""
        if table.state is None:
            return
        await self.publish(table, ping=ping, final=final, events=events, actor=actor)
        if final:
            await self.finished(table)

    @i18n.for_everyone
    async def publish(self, table: Table, *, ping: Iterable[int] = (), final: bool = False, events: Sequence[Event] = (), actor: int | None = None, note: str = "") -> None:
        """Tell each newly current player (live hand edit or DM), then edit the board, or
        post it anew mentioning those who could not be told another way (see the top of
        this module for the budget this shape meets)."""
        from bot.core.table import REPOST_AFTER_SECONDS
        from bot.discord_front.common import now_ts
        from storage import repos

        state = table.state
        if state is None:
            return
        record = table.record
        if record.publish.get("paused") and not final:
            table.needs_publish = True  # its thread is closed: shown when it reopens (bot/discord_front/tables/threads.py)
            return
        if table.behind_since is None:
            table.behind_since = now_ts()  # until Discord takes this board (hands say so past BOARD_BEHIND_SECONDS)
        before = (record.message_id, _snapshot(record.publish), list(record.turn_players))
        current = [] if final or state.is_over() else sorted(state.current_players())
        # Computers are named on the board but never pinged, and have no hands to show.
        people = computer.humans(current)
        record.turn_players = list(people)  # what a publish retry pings
        newly = sorted(set(ping) & set(people))
        # The actor's own hand was already updated by the answer to their click.
        to_ping = [user for user in newly if user != actor and not await self._notify_hand(table, user)]
        # Votes on messages of their own, posted before the board so that a board
        # posted anew to ping the voters sits below its vote.
        await votes.sync(self.place(table), table, events)
        # The picture's rows and the board's text from one spectator observation, taken
        # with no await between them: both show the same moment of the table.
        public = table.state.observation(None) if table.state is not None else None
        rows = self.table_picture_rows(table, public) if public is not None else []
        name = f"table-{table.id}.png"
        text = {"final": final, "events": events, "note": note, "pinging": to_ping, "observation": public}
        alt = self.table_alt(table, rows) if rows else None
        board = self.board_message(table, **text, image=f"attachment://{name}" if rows else None, alt=alt)
        drawn = await self.table_picture(table, rows, alt) if rows else None
        picture = drawn[0] if drawn else None
        if rows and picture is None:  # drawing failed: the board in text only
            board = self.board_message(table, **text)
        # The picture rides on the edit (or post) that happens anyway: no extra call.
        file = (lambda: discord.File(io.BytesIO(picture), filename=name, description=alt)) if picture else None
        place = self.place(table)
        too_old = record.message_posted_at is not None and now_ts() - record.message_posted_at > REPOST_AFTER_SECONDS
        scrolled = record.publish.get("after_board", 0) >= SCROLL_REPOST_MESSAGES
        # The board waits for Discord's budget behind everything else, and gives way to a
        # newer showing of the table asked for meanwhile (never the final board).
        board_worth = pacing.board((table.guild_id, table.id), None if final else lambda: table.pending_show is not None)
        try:
            # A new message is what notifies: the board is posted anew to ping.
            repost = record.message_id is None or too_old or scrolled or bool(to_ping)
            if not repost:
                try:
                    files = {"attachments": [file()] if file else []}
                    with board_worth:
                        await edits.edit_message(place.get_partial_message(record.message_id), **board, **files, allowed_mentions=NO_PINGS)
                except discord.NotFound as error:
                    if error.code == 10003:
                        raise  # Unknown Channel: the thread itself is gone
                    repost = True  # someone deleted the board
            if repost:
                files = {"file": file()} if file else {}
                allowed = discord.AllowedMentions(users=[discord.Object(u) for u in to_ping], roles=False, everyone=False) if to_ping else NO_PINGS
                if table.board_nonce is None:
                    table.board_nonce = secrets.randbits(63)
                with board_worth:
                    # Discord's enforce_nonce (discord.py sets it with the nonce): a post whose
                    # answer was lost, tried again (discord.py's own retries, or the publish
                    # retry, with this same nonce), returns the board made the first time.
                    message = await place.send(**board, **files, allowed_mentions=allowed, nonce=table.board_nonce)
                table.board_nonce = None
                old, record.message_id, record.message_posted_at = record.message_id, message.id, now_ts()
                record.publish["after_board"] = 0
                if old is not None:
                    # The old board would show a stale table and a stale "your move".
                    with contextlib.suppress(discord.HTTPException):
                        await place.get_partial_message(old).delete()
            table.needs_publish, table.unpinged = False, None
            table.board_error = None
            table.behind_since = None
        except pacing.Superseded:
            # Nothing was sent: a newer showing (asked for meanwhile, or now, to wait out
            # Discord's limit on the board in line) shows the table as it is then, and
            # pings whom this board was to ping.
            if table.pending_show is not None:
                table.pending_show.ping += [user for user in to_ping if user not in table.pending_show.ping]
            else:
                self.show(table, ping=to_ping)
        except discord.HTTPException as error:
            table.board_error = error
            # A thread deleted, archived or locked is a state of the table, not a
            # transient error: dealt with there (moved, reopened or paused), no retries.
            try:
                handled = await self.board_refused(table, error, final=final)
            except Exception:
                log.exception("Could not deal with the closed thread of table %s in guild %s", table.id, table.guild_id)
                handled = False
            if not handled:
                log.warning("Could not update the board of table %s in guild %s: %s", table.id, table.guild_id, error)
                table.needs_publish = True
                # A retry pings these on the board; the others were told through their hands.
                table.unpinged = sorted(set(table.unpinged or ()) | set(to_ping))
                if not final:
                    self.retry_later(table)
        await self._drop_old_ping(table)
        if final:
            await self._close_live_hands(table, actor)
            self.forget_table(table)
        if (record.message_id, record.publish, list(record.turn_players)) != before:
            # One trip to the database's thread (storage.write), as a move's own save.
            await self.storage.write(table.guild_id, [repos.table_update(
                table.id, now=now_ts(), message_id=record.message_id, message_posted_at=record.message_posted_at,
                publish=record.publish, turn_players=list(people))])

    async def _close_live_hands(self, table: Table, actor: int | None) -> None:
        """At the end, what each player can still click is shown once more, without
        controls and saying how the game ended and where Rematch is: their newest
        ephemeral hand whose token lives (older copies were deleted when it was shown;
        the actor's clicked one was answered already) and each DM player's DM hand (the
        actor's, clicked in their DMs, was answered already): at most one call per
        player, so the last move spends no more than any move (players + 2)."""
        answered = self.live.get((table.guild_id, table.id, actor)) if actor is not None else None
        answered_in_dm = actor is not None and answered is None and not self.dms_closed(table, actor) and await self.settings.hands_in_dm(table.guild_id, actor)
        ended: dict[tuple[int, bool], HandMessage] = {}

        async def hand_of(user: int, dm: bool) -> HandMessage:
            if (user, dm) not in ended:
                ended[(user, dm)] = await self.hand_message(table, user, dm=dm)
            return ended[(user, dm)]

        for user, _message_id, live in self._newest_copies(table):
            if live is answered or user == actor:
                continue
            hand = await hand_of(user, False)
            with contextlib.suppress(discord.HTTPException):
                await edits.edit_original(live.interaction, **hand.edit())
        for user, (channel_id, message_id) in list(table.record.publish.get("dm", {}).items()):
            if answered_in_dm and int(user) == actor:
                continue
            hand = await hand_of(int(user), True)
            with contextlib.suppress(discord.HTTPException):
                await edits.edit_message(self.bot.get_partial_messageable(channel_id).get_partial_message(message_id), **hand.edit())

    @i18n.for_everyone
    def cancelled_board(self, table: Table, embed: Panel, note: str) -> dict[str, Any]:
        """Keyword arguments for the board's last edit when a game is cancelled: the turn
        line replaced by the note, no buttons, no picture (in the table's layout)."""
        content = _("This game was cancelled. {note}", note=note).strip()
        if table.record.publish.get("layout") == "v2":
            from bot.discord_front.layout import layout_view

            return {"view": layout_view(embed, content=content), "attachments": []}
        return {"content": content, "embed": embed_of(embed), "view": None, "attachments": []}

    async def close_hands(self, table: Table, line: str) -> None:
        """A cancelled game: every open hand copy is cut to one line (no controls, no
        picture), and forgotten."""
        if table.record.publish.get("layout") == "v2":
            from bot.discord_front.layout import text_layout

            cut: dict[str, Any] = {"view": text_layout(line), "attachments": []}
        else:
            cut = {"content": line, "embed": None, "view": None, "attachments": []}
        for _user, _message_id, live in self._newest_copies(table):
            with contextlib.suppress(discord.HTTPException):
                await edits.edit_original(live.interaction, **cut)
        self.forget_table(table)

    async def _drop_old_ping(self, table: Table) -> None:
        """Tables stored before the board carried the turn had a separate ping message:
        delete it once (after a restart onto this version)."""
        old = table.record.publish.pop("ping", None)
        if old:
            with contextlib.suppress(discord.HTTPException):
                await self.place(table).get_partial_message(old["id"]).delete()

    @i18n.for_reader
    async def _notify_hand(self, table: Table, user: int) -> bool:
        """Tell a newly current player through their hand. True when that reached them
        (a live hand they are looking at, or a new DM); False: they must be pinged."""
        if not await self.settings.hands_in_dm(table.guild_id, user):
            return await self.update_live_hand(table, user)
        if self.dms_closed(table, user):
            return await self.update_live_hand(table, user)  # hands fall back to ephemeral
        return await self.send_dm_hand(table, user) is not None  # its status line says "Your move."

    @i18n.for_everyone
    def final_line(self, table: Table) -> str:
        """The parent message at the end: the result, where it was played, where it went."""
        assert table.state is not None
        where = " " + _("Played in {thread}.", thread=f"<#{table.record.thread_id}>") if table.record.thread_id else ""
        return final_text(table.spec.title, table.state, unit=table_unit(table.spec), render=table.spec.render) + where + " " + recorded_line()

    def note_chat(self, table: Table) -> None:
        """A message in the table's place scrolls the board up."""
        table.record.publish["after_board"] = table.record.publish.get("after_board", 0) + 1

    async def save_publish(self, table: Table) -> None:
        """Store what was posted for the table (``record.publish``) now."""
        from bot.discord_front.common import now_ts
        from storage import repos

        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), publish=table.record.publish)


# ---------------------------------------------------------------------- a hand's text

def hand_payload(table: Table, user: int, *, notice: str = "", page: int = 0, status: bool = True,
                 observation: Mapping[str, Any] | None = None) -> tuple[str, Panel, list[views.PlannedControl]]:
    """The hand's status line (after ``notice``), its words (a panel) and its controls (each
    with its row, planned: ``views.hand_plan``; none once the game is over), in the
    current language (:meth:`Publisher.hand_payload`: in the reader's). ``observation``:
    the player's, when the caller took it already."""
    state = table.state
    assert state is not None
    if table.record.publish.get("paused") and not notice:
        notice = "⏸️ " + paused_sentence(table)
    elif (behind := board_behind(table)) is not None:
        notice = "\n".join(part for part in (notice, behind) if part)
    if observation is None:
        observation = state.observation(user)
    current = state.current_players()
    # Not only current players: Enid's Challenge and vote buttons belong to players
    # whose turn it is not (other games list nothing for a non-current player).
    legal = state.legal_actions(user) if not state.is_over() else []
    controls = table.spec.render.controls(observation, legal)
    embed = table.spec.render.hand_embed(observation, table.names())
    embed.footer = _("{title} #{id} · move {version}", title=table.spec.title, id=table.id, version=table.record.version)
    if state.is_over():
        # No controls at all (not even ↻): the game is over; the line says how, and
        # where the next one starts.
        items: list[views.PlannedControl] = []
        line = f"{final_text(table.spec.title, state, unit=table_unit(table.spec), render=table.spec.render)} {play_again(table.spec, table.guild_id, table.record)}"
    else:
        items = views.hand_plan(table.guild_id, table.id, table.record.version, controls, page)
        if user in current:
            # A vote is not a move: the game's own word for what is owed, when it has one.
            task = ping_task(table)
            line = (_("**Now {task}.**", task=task) if task else _("**Your move.**")) + (" " + _("Timer: {when}.", when=f"<t:{int(table.record.deadline)}:R>") if table.record.deadline else "")
        elif user in owers(table):
            # Words owed come first: "Waiting for Ann." (or "You may act now", over a lone
            # No limerick button) above "Now shout ..." told the player the opposite.
            line = _("**It is up to you:** type what is asked below in the game's thread.")
        elif legal:
            line = _("**You may act now** (the buttons below).")
        else:
            line = waiting_line(table, current)
    content = "\n".join(part for part in (notice, line if status or not notice else "") if part)
    return content, embed, items


#: A board that has not caught up with the play for this long is said to be behind in
#: what players see next (their hand, the answer to their click).
BOARD_BEHIND_SECONDS = 5.0


def board_behind(table: Table) -> str | None:
    """The sentence saying the board lags, and why, while it does for more than
    :data:`BOARD_BEHIND_SECONDS`; None when it is up to date (or nearly)."""
    since = table.behind_since
    if (since is None or now_ts() - since < BOARD_BEHIND_SECONDS or table.state is None or table.state.is_over()
            or table.record.publish.get("paused")):  # a paused game's hands say why it is paused instead
        return None
    error = table.board_error
    status = getattr(error, "status", 0) or 0
    if status >= 500:
        why = _("Discord is answering with server errors")
    elif status == 429:
        why = _("Discord is limiting how often I may update it")
    elif error is not None:
        why = _("Discord refused the update")
    else:
        why = _("Discord is slow to take the update or asks me to wait")
    return _("⚠️ The board is behind ({why}); it catches up by itself. Your hand here is up to date.", why=why)


def owers(table: Table) -> list[int]:
    """Players who owe typed words now (open obligations), whoever's turn it is."""
    return sorted({int(player) for player, _ in table.record.obligations.values() if player is not None})


def waiting_line(table: Table, current: frozenset[int] | set[int]) -> str:
    """A hand's status when its player may do nothing now and owes no words: whom the
    game waits for. With no turn (a ritual holds the game), those who owe words."""
    if current:
        return _("Waiting for {players}.", players=mentions(sorted(current)))
    owing = owers(table)
    if owing:
        return _("Waiting for {players} to type what they owe in the game's thread.", players=mentions(owing))
    return _("No turn until a ritual is done (see below).")
