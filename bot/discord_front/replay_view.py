"""Replays in Discord (issue 42): the Replay button of a final board, the games to
watch again under ``/profile``, and the message only the clicker sees, with the game at
one moment and ⏮ ◀ ▶ ⏭, Go to move… and Save as picture under it. The core is
``bot/replay/`` (no Discord in it); the design is docs/developers/replays.md.

custom_id shapes (every one carries the guild it was made for, checked against the
server the click came from before anything is looked up, as every control in
``bot/discord_front/views.py``):

- ``dh:replay:<guild>:<table>``              Replay, on a final board: opens the replay
- ``dh:rpg:<guild>:<user>``                  /profile's select of games; a value is a table id
- ``dh:rp:<guild>:<table>:<move>:<f|p|n|l>`` ⏮ ◀ ▶ ⏭: the step showing ``<move>``
- ``dh:rpj:<guild>:<table>``                 Go to move…: opens the form (a Modal)
- ``dh:rpjm:<guild>:<table>``                that form; its submit shows the move typed
- ``dh:rpa:<guild>:<table>``                 Save as picture: the animated PNG, posted in the game's thread

Nothing a click needs is kept in memory: every click opens the replay again from
storage (:class:`~bot.replay.opening.ReplayShelf` usually still holds it), so replay
messages keep working after a restart. A step is answered by editing the ephemeral
message through the interaction (one interaction callback: no request with the bot's
token); only Save as picture posts with the bot's token, paced like every other
request (``bot/discord_front/pacing.py``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

import discord

from bot.pictures import cardart
from bot.discord_front import guard
from bot.words import i18n
from bot.core import computer
from bot.discord_front import languages, pacing
from bot.discord_front.common import field_value
from bot.discord_front.layout import embed_of
from bot.words.i18n import _, pgettext
from bot.discord_front.mentions import NONE
from bot.words.panel import Panel
from bot.words.render_util import end_lists
from bot.replay import animation
from bot.replay.opening import NoReplay, ReplayShelf, open_replay
from bot.replay.steps import Replay, Step
from storage import repos

log = logging.getLogger(__name__)

PICTURE = "replay.png"
JUMP_FIELD = "move"
#: /profile lists this many of a player's newest finished games.
PROFILE_GAMES = 10


class Replays:
    """The bot's replays: the shelf of replays opened lately, and the animated pictures
    being drawn (one per game at a time) or posted by this process."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.shelf = ReplayShelf()
        #: (guild, table) of the animated pictures being drawn now.
        self.drawing: set[tuple[int, int]] = set()
        #: (guild, table) -> the posted animated picture's link, while this process runs.
        self.posted: dict[tuple[int, int], str] = {}

    # ------------------------------------------------------------------ opening

    async def _open(self, interaction: discord.Interaction, table_id: int) -> Replay | None:
        """The replay of game ``table_id`` of the server the click came from, or None
        after answering why there is none (a sentence, only for the clicker)."""
        assert interaction.guild_id is not None  # the guard refused clicks from outside a server
        try:
            replay = await open_replay(self.bot.storage, self.bot.games, interaction.guild_id, table_id, shelf=self.shelf)
        except NoReplay as refusal:
            await guard.answer(interaction, str(refusal))
            return None
        if _hidden_from(interaction, replay.place):
            await guard.answer(interaction, _("That game was played in a channel you cannot see."))
            return None
        return replay

    async def show(self, interaction: discord.Interaction, table_id: int, move: int, *, anew: bool = False) -> None:
        """Answer a click with the step showing ``move``: a new ephemeral message
        (``anew``: Replay, /profile) or the clicked replay message edited in place."""
        deadline = guard.Deadline.start(interaction)
        try:
            if guard.behind():
                await guard.defer_now(interaction)
            replay = await self._open(interaction, table_id)
            if replay is None:
                return
            fields = await self.step_fields(replay, replay.step_at(move))
            if anew or interaction.message is None:
                pictures = {"file": fields["attachments"][0]} if fields["attachments"] else {}
                await guard.answer(interaction, fields["content"], embed=fields["embed"], view=fields["view"], allowed_mentions=NONE, **pictures)
            else:
                await guard.edit_in_place(interaction, **fields, allowed_mentions=NONE)
        finally:
            deadline.stop()

    async def step_fields(self, replay: Replay, step: Step) -> dict[str, Any]:
        """The replay message at ``step``: its words, the board, the picture, the controls."""
        names = replay.names()
        if step is replay.last:
            heading = _("Replay of {title} #{id} · {moment} · the end", title=replay.spec.title, id=replay.table_id, moment=replay.heading(step))
        else:
            heading = _("Replay of {title} #{id} · {moment}", title=replay.spec.title, id=replay.table_id, moment=replay.heading(step))
        lines = replay.lines(step, names)
        if not lines and step.moves:
            # Moves the table's log says nothing of: the game's words for them
            # (Onion's "declares nothing"), else who moved, so the step is never empty.
            lines = replay.quiet_lines(step, names)
        if not lines and step.moves:
            movers = list(dict.fromkeys(names.get(move.player, computer.name(move.player)) for move in step.moves))
            lines = [_("{players} made a move the table was not told about; the board below shows the game after it.", players=i18n.join(movers))]
        rows = replay.rows(step, replay.plain_names())
        png = None
        if rows:
            try:
                png = await self.bot.pictures.draw(rows, title=f"{replay.spec.title} #{replay.table_id} · {replay.heading(step)}")
            except Exception:
                log.exception("Could not draw the replay picture of table %s; showing text only", replay.table_id)
        # Beside the picture the board's words are the live board's lean ones; without it, whole.
        # The last step keeps the whole board: the game's own account of its end (Onion's
        # showdown story) is what a replay is opened for.
        embed = replay.board(step, names, pictures=png is not None and step is not replay.last)
        if embed.description:
            embed.description = end_lists(embed.description)
        lines = _not_on(embed, lines)
        parts = [f"**{heading}**", *lines]
        ending = replay.ending(step)
        if ending:
            parts.append(ending)
        theirs = embed.footer
        ours = _("A replay: the game as everyone saw it then. Only you see this message.")
        embed.footer = (f"{theirs}\n{ours}" if theirs else ours)[:2048]
        files: list[discord.File] = []
        if png is not None:
            files.append(discord.File(io.BytesIO(png), filename=PICTURE, description=cardart.alt_text(rows)[:1024]))
        shown = embed_of(embed, image=f"attachment://{PICTURE}" if png is not None else None)
        return {"content": guard.fit("\n".join(parts)), "embed": shown, "attachments": files, "view": controls(replay, step, pictures=bool(rows))}

    # ------------------------------------------------------------------ going to a move

    async def ask_move(self, interaction: discord.Interaction, table_id: int) -> None:
        """Go to move…: the form asking which move (0 to the game's last)."""
        replay = await self._open(interaction, table_id)
        if replay is None:
            return
        modal = discord.ui.Modal(title=_("Go to a move")[:45], custom_id=f"dh:rpjm:{replay.guild_id}:{table_id}", timeout=None)
        modal.add_item(discord.ui.TextInput(
            label=_("Move number, 0 to {last}", last=replay.moves)[:45], custom_id=JUMP_FIELD, min_length=1, max_length=6,
            placeholder=_("0 is the deal; {last} the last move", last=replay.moves)[:100],
        ))
        await interaction.response.send_modal(modal)
        modal.stop()  # out of discord.py's store: on_jump reads the submit from its custom_id

    async def jump(self, interaction: discord.Interaction, table_id: int, typed: str) -> None:
        """The form's submit: the step showing the move typed; a number that is not a
        move of the game is told so, and the replay message stays as it was."""
        value = typed.strip()
        replay = await self._open(interaction, table_id)
        if replay is None:
            return
        if not (value.isascii() and value.isdigit()) or int(value) > replay.moves:
            await guard.answer(interaction, _("'{value}' is not a move of {title} #{id}: type a whole number from 0 (the deal) to {last}.",
                                              value=guard.clip(value, 20), title=replay.spec.title, id=table_id, last=replay.moves))
            return
        await self.show(interaction, table_id, int(value))

    # ------------------------------------------------------------------ the animated picture

    async def save(self, interaction: discord.Interaction, table_id: int) -> None:
        """Save as picture: the whole game as one animated PNG, drawn off the event loop
        and posted in the game's thread (or channel), once per game at a time."""
        assert interaction.guild_id is not None
        key = (interaction.guild_id, table_id)
        if key in self.drawing:
            await guard.answer(interaction, _("The picture of game #{id} is being drawn already: it appears in the game's thread in a moment.", id=table_id))
            return
        if key in self.posted:
            await guard.answer(interaction, _("The picture of game #{id} is posted already: {link}", id=table_id, link=self.posted[key]))
            return
        self.drawing.add(key)  # from here: a second click is told it is being drawn
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)  # opening and drawing take seconds
            replay = await self._open(interaction, table_id)  # (a refusal is the deferred answer)
            if replay is None:
                return
            everyone = i18n.server_language(interaction.guild_id)  # the picture is posted for everyone
            with i18n.using(everyone):
                title = _("{title} #{id}, move by move", title=replay.spec.title, id=table_id)
                plain = replay.plain_names()
            data = await asyncio.to_thread(_drawn, everyone, replay, plain)
            if data is None:
                await interaction.followup.send(_("This game has no card pictures to animate, or too many moves to fit Discord's 10 MiB."),
                                                ephemeral=True, allowed_mentions=NONE)
                return
            place = self.bot.get_partial_messageable(replay.place, guild_id=interaction.guild_id)
            file = discord.File(io.BytesIO(data), filename=f"replay-{table_id}.png", description=title[:1024])
            with pacing.worth(pacing.NOTICE):  # with the bot's token: paced, after what clicks wait for
                posted = await place.send(content=f"**{title}**", file=file, allowed_mentions=NONE)
            self.posted[key] = posted.jump_url
            await interaction.followup.send(_("Posted in the game's thread: {link}", link=posted.jump_url), ephemeral=True, allowed_mentions=NONE)
        except discord.HTTPException as error:
            log.warning("Could not post the animated replay of table %s: %s", table_id, error)
            await guard.answer(interaction, _("I could not post the picture in the game's thread (Discord refused it); nothing was posted."))
        finally:
            self.drawing.discard(key)

    # ------------------------------------------------------------------ /profile

    def board_buttons(self, guild_id: int, table_id: int) -> list[discord.ui.Item[Any]]:
        """The final board's Replay button (``bot/discord_front/publish.py`` adds it beside Rematch)."""
        return [ReplayButton(guild_id, table_id)]

    async def profile_view(self, guild_id: int, user_id: int) -> discord.ui.View | None:
        """``/profile``'s select of the player's newest finished games (None if none)."""
        async with self.bot.storage.reading(guild_id) as db:
            games = await repos.finished_tables_of_user(db, user_id, PROFILE_GAMES)
        options = []
        for table_id, game, moves, finished in games:
            spec = self.bot.games.get(game)
            title = spec.title if spec is not None else game
            when = datetime.fromtimestamp(finished, timezone.utc).strftime("%Y-%m-%d")
            options.append(discord.SelectOption(label=f"{title} #{table_id}"[:100], value=str(table_id),
                                                description=i18n.ngettext("{n} move · {day}", "{n} moves · {day}", moves, day=when)[:100]))
        if not options:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(ProfileGames(guild_id, user_id, options))
        view.stop()
        return view


def _drawn(lang: str, replay: Replay, plain: dict[int, str]) -> bytes | None:
    """The animated picture, in a worker thread (seconds of CPU), its captions in ``lang``."""
    with i18n.using(lang):
        return animation.animate(animation.frames(replay, plain))


def _not_on(board: Panel, lines: list[str]) -> list[str]:
    """The step's lines less those the board below writes out already (Cripple Mr
    Onion's board tells its showdown move by move: the message would say it twice).
    At least the first line stays, under the heading."""
    written = {line for text in (board.description or "", *(f.value for f in board.fields)) for line in str(text).split("\n")}
    kept = [line for line in lines if line not in written]
    return kept or lines[:1]


def _hidden_from(interaction: discord.Interaction, place: int | None) -> bool:
    """Whether the clicker cannot see the channel (or thread) the game was played in,
    read from the client's cache (no request); unknown counts as visible."""
    guild, member = interaction.guild, interaction.user
    if guild is None or place is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(place)
    return channel is not None and not channel.permissions_for(member).view_channel


def controls(replay: Replay, step: Step, *, pictures: bool = True) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ and Go to move… (disabled where they lead nowhere), and Save as picture."""
    g, t = replay.guild_id, replay.table_id
    first, last = step.index == 0, step.index == len(replay) - 1
    view = discord.ui.View(timeout=None)
    view.add_item(StepButton(g, t, 0, "f", disabled=first))
    view.add_item(StepButton(g, t, replay.step(step.index - 1).last_move, "p", disabled=first))
    view.add_item(StepButton(g, t, replay.step(step.index + 1).last_move, "n", disabled=last))
    view.add_item(StepButton(g, t, replay.moves, "l", disabled=last))
    view.add_item(JumpButton(g, t))
    if pictures:
        view.add_item(SaveButton(g, t))
    view.stop()  # dispatched by the DynamicItem classes: nothing kept in discord.py's store
    return view


# ------------------------------------------------------------------ items


def replays_of(interaction: discord.Interaction) -> Replays:
    return interaction.client.replays  # type: ignore[attr-defined]


class _ServerChecked:
    """The server boundary before any lookup (``bot/discord_front/guard.py``), in the clicker's language."""

    guild_id: int

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await languages.enter(interaction)
        return await guard.component_allowed(interaction, self.guild_id)


class ReplayButton(_ServerChecked, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:replay:(?P<g>\d+):(?P<t>\d+)"):
    def __init__(self, guild_id: int, table_id: int) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Replay"), emoji="⏪", style=discord.ButtonStyle.secondary, custom_id=f"dh:replay:{guild_id}:{table_id}"))
        self.guild_id, self.table_id = guild_id, table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> ReplayButton:
        return cls(int(match["g"]), int(match["t"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await replays_of(interaction).show(interaction, self.table_id, 0, anew=True)


_ARROWS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


class StepButton(_ServerChecked, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:rp:(?P<g>\d+):(?P<t>\d+):(?P<m>\d{1,7}):(?P<w>[fpnl])"):
    def __init__(self, guild_id: int, table_id: int, move: int, which: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=_ARROWS[which], style=discord.ButtonStyle.primary if which in "pn" else discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"dh:rp:{guild_id}:{table_id}:{move}:{which}"))
        self.guild_id, self.table_id, self.move = guild_id, table_id, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> StepButton:
        return cls(int(match["g"]), int(match["t"]), int(match["m"]), match["w"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await replays_of(interaction).show(interaction, self.table_id, self.move)


class JumpButton(_ServerChecked, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:rpj:(?P<g>\d+):(?P<t>\d+)"):
    def __init__(self, guild_id: int, table_id: int) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Go to move…"), style=discord.ButtonStyle.secondary, custom_id=f"dh:rpj:{guild_id}:{table_id}"))
        self.guild_id, self.table_id = guild_id, table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> JumpButton:
        return cls(int(match["g"]), int(match["t"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await replays_of(interaction).ask_move(interaction, self.table_id)


class SaveButton(_ServerChecked, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:rpa:(?P<g>\d+):(?P<t>\d+)"):
    def __init__(self, guild_id: int, table_id: int) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Save as picture"), emoji="🎞️", style=discord.ButtonStyle.secondary, row=1,
                                           custom_id=f"dh:rpa:{guild_id}:{table_id}"))
        self.guild_id, self.table_id = guild_id, table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> SaveButton:
        return cls(int(match["g"]), int(match["t"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await replays_of(interaction).save(interaction, self.table_id)


class ProfileGames(_ServerChecked, discord.ui.DynamicItem[discord.ui.Select], template=r"dh:rpg:(?P<g>\d+):(?P<u>\d+)"):
    """/profile's "Watch a game again": a select of the player's newest finished games."""

    def __init__(self, guild_id: int, user_id: int, options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(discord.ui.Select(custom_id=f"dh:rpg:{guild_id}:{user_id}", placeholder=_("Watch a game again"),
                                           options=list(options)[:25] or [discord.SelectOption(label="—", value="0")], min_values=1, max_values=1))
        self.guild_id, self.user_id = guild_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]) -> ProfileGames:
        return cls(int(match["g"]), int(match["u"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = self.item.values[0] if self.item.values else ""
        table_id = int(chosen) if chosen.isascii() and chosen.isdigit() and len(chosen) < 19 else 0
        await replays_of(interaction).show(interaction, table_id, 0, anew=True)


REPLAY_ITEMS = (ReplayButton, StepButton, JumpButton, SaveButton, ProfileGames)

_JUMP_FORM = re.compile(r"dh:rpjm:(?P<g>\d+):(?P<t>\d+)")
#: Jump forms being answered (a task keeps no reference to itself).
_forms: set[asyncio.Task[None]] = set()


def start_jump_form(interaction: discord.Interaction) -> None:
    """Interaction hook (``bot.interaction_hooks``): a Go to move… submit is answered by
    :func:`on_jump` in a task of its own; other interactions start nothing."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    if _JUMP_FORM.fullmatch(str((interaction.data or {}).get("custom_id", ""))) is None:
        return
    task = asyncio.get_running_loop().create_task(on_jump(interaction), name="deckhand-replay-jump")
    _forms.add(task)
    task.add_done_callback(_forms.discard)


async def on_jump(interaction: discord.Interaction) -> None:
    data = interaction.data or {}
    match = _JUMP_FORM.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    try:
        await languages.enter(interaction)
        if not await guard.component_allowed(interaction, int(match["g"])):
            return
        await replays_of(interaction).jump(interaction, int(match["t"]), field_value(data.get("components"), JUMP_FIELD) or "")
    except Exception as error:
        await guard.answer_failure(interaction, error)

