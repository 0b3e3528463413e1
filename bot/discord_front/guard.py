"""Guards every interaction passes through before it touches a table.

- :func:`scope_refusal`: the server boundary. A custom_id names a guild and a table,
  but a custom_id is only text a client sends: a component acts only on tables of
  the server the interaction comes from (``interaction.guild_id``, which Discord
  sets), and in DMs only a hand control, for the clicking player's own seat. Every
  DynamicItem checks it in ``interaction_check`` (:func:`component_allowed`), before
  its callback runs and so before any storage is opened; the amount form's submit
  (not a DynamicItem) calls it first too, and ``Finder.table_or_reply`` (bot/discord_front/tables/finder.py) again
  with the table's seats. Commands find their table from the interaction's own server
  and channel, so they cannot name another server's table at all. An id from a
  custom_id never creates storage: lookups read with ``reading(guild, create=False)``.
- :class:`Deadline`: Discord drops an interaction not answered within 3 s. A move
  that is still running after :data:`DEFER_AFTER` seconds (a slow disk, a locked
  database) is deferred, and its answer follows as an edit or a follow-up. When the
  process is behind (:func:`behind`: the event loop takes more than
  :data:`BEHIND_AFTER` to come round) or the table is busy with an earlier move, the
  click is deferred at once instead (:func:`defer_now`), so waiting its turn can
  never make it late.
- :func:`answer_failure`: every failure gets a sentence, a storage one included.
- :func:`clip`: echoed input never pushes a message past Discord's limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

from bot.discord_front import edits
from bot.words.i18n import N_, _
from storage.db import StorageError

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
ECHO_LIMIT = 100
DEFER_AFTER = 2.0  # seconds; leaves a second for the defer call itself
#: An interaction this old when it reaches the bot (a gateway RESUME replays events the
#: connection missed, seconds late) may be past Discord's 3 s for its first answer: a
#: move from it is acknowledged before it is played, and not played if Discord no longer
#: takes the acknowledgement (the player saw "This interaction failed").
LATE_AFTER = 2.0
#: Discord's "Unknown interaction" (its 3 s passed) and "already acknowledged".
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
#: The event loop's turn (from scheduling a callback to running it) past which the
#: process counts as behind and a click is deferred before any work is done for it.
BEHIND_AFTER = 0.5
#: After a slow turn, clicks are deferred at once for this long.
BEHIND_FOR = 2.0

_HAND_PREFIXES = ("dh:hand:", "dh:refresh:", "dh:act:", "dh:sel:", "dh:page:", "dh:amt:", "dh:amtm:", "dh:multi:")
GENERIC_FAILURE = N_("Something went wrong on my side; nothing was changed. Please try again.")


def clip(value: object, limit: int = ECHO_LIMIT) -> str:
    """An echoed value, cut to ``limit`` characters (with … when cut)."""
    text = str(value)
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def fit(text: str) -> str:
    """A whole message, cut to Discord's 2,000 characters."""
    return clip(text, MESSAGE_LIMIT)


def _custom_id(interaction: discord.Interaction) -> str:
    data = interaction.data or {}
    value = data.get("custom_id", "") if isinstance(data, dict) else ""
    return value if isinstance(value, str) else ""


def scope_refusal(interaction: discord.Interaction, guild_id: int, players: list[int] | None = None) -> str | None:
    """Why this interaction may not act on a table of ``guild_id`` (None: it may).
    ``players`` (once the table is known) limits DM hand controls to its seats."""
    if interaction.guild_id is not None:
        if interaction.guild_id != guild_id:
            return _("That control belongs to a game in another server, so nothing happened.")
        return None
    if not _custom_id(interaction).startswith(_HAND_PREFIXES):
        return _("Lobby, board and hand controls work only in the server where the game is.")
    if players is not None and interaction.user.id not in players:
        return _("That hand belongs to another player's seat, so nothing happened.")
    return None


async def component_allowed(interaction: discord.Interaction, guild_id: int) -> bool:
    """``interaction_check`` of every component: refuse (with a sentence) a custom_id
    whose guild is not the server the click came from. Nothing is looked up first."""
    refusal = scope_refusal(interaction, guild_id)
    if refusal is None:
        return True
    log.info("Refused a component naming guild %s from guild %s (user %s)", guild_id, interaction.guild_id, interaction.user.id)
    await answer(interaction, refusal)
    return False


def _chain(error: BaseException) -> list[BaseException]:
    """The error and its causes (``original`` is where app-command errors keep theirs)."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or getattr(current, "original", None)
    return chain


def failure_sentence(error: BaseException) -> str:
    storage = next((e for e in _chain(error) if isinstance(e, StorageError)), None)
    return storage.sentence if storage is not None else _(GENERIC_FAILURE)


# ------------------------------------------------------------------ the deadline


class Deadline:
    """Defers ``interaction`` if it is still unanswered after ``after`` seconds.

    Before answering, the handler calls :meth:`claim` (``answer`` does): a pending
    deferral is then called off, or, if it is already under way, awaited, so the
    two never both answer. After a deferral the answer goes out as an edit of the
    original message or a follow-up (``interaction.response.is_done()`` says so).
    """

    KEY = "deckhand_deadline"

    def __init__(self, interaction: discord.Interaction, after: float = DEFER_AFTER) -> None:
        self.interaction = interaction
        self.after = after
        self.state = "pending"
        #: The timer, and the deferral it starts when it fires: most clicks are answered
        #: well before, so no task is made for them (a timer is a tenth of a task's cost).
        self.timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None

    @classmethod
    def start(cls, interaction: discord.Interaction, after: float = DEFER_AFTER) -> Deadline:
        deadline = cls(interaction, after)
        interaction.extras[cls.KEY] = deadline
        deadline.timer = asyncio.get_running_loop().call_later(after, deadline._fire)
        return deadline

    def _fire(self) -> None:
        self.timer = None
        if self.state == "pending":
            self.task = asyncio.create_task(self._defer(), name="deckhand-deadline")

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    async def now(self) -> None:
        """Defer at once (the process is behind, or the move must wait its turn), in the
        caller's task: nothing the loop has queued before it can make it late."""
        if self.state == "pending":
            self._cancel_timer()
        await self._defer()

    async def _defer(self) -> None:
        if self.state != "pending" or self.interaction.response.is_done():
            return
        self.state = "deferring"
        try:
            if self.interaction.type == discord.InteractionType.component:
                await self.interaction.response.defer()  # "the message will be updated"
            else:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as error:
            log.warning("Could not defer a slow interaction: %s", error)
        finally:
            self.state = "deferred"

    async def claim(self) -> None:
        if self.state == "pending":
            self.state = "answering"
            self._cancel_timer()
        elif self.state == "deferring" and self.task is not None:
            await asyncio.shield(self.task)

    def stop(self) -> None:
        self._cancel_timer()
        if self.task is not None and not self.task.done():
            self.task.cancel()


async def arrive(interaction: discord.Interaction, *, busy: bool = False) -> Deadline | None:
    """A click's arrival: its :class:`Deadline` started, and deferred at once when the
    click came late (a gateway RESUME's replay), the process is behind, or ``busy``
    (every move slot taken): the loop's backlog never makes its answer late. None (the
    deadline stopped) when it came too late to be acknowledged at all: the player saw
    "This interaction failed", so nothing may be played for it."""
    deadline = Deadline.start(interaction)  # deferred if still running near 3 s
    late = age(interaction) > LATE_AFTER
    if late or behind() or busy:
        await deadline.now()
    if late and not interaction.response.is_done():
        deadline.stop()
        return None
    return deadline


@contextlib.asynccontextmanager
async def in_time(interaction: discord.Interaction) -> AsyncIterator[Deadline]:
    """A :class:`Deadline` for the handler inside (the one the interaction has already,
    if an outer handler started it): whatever the handler waits for (the table's lock,
    a bot-token request), the interaction is deferred within Discord's 3 s."""
    existing = interaction.extras.get(Deadline.KEY)
    if isinstance(existing, Deadline):
        yield existing
        return
    deadline = Deadline.start(interaction)
    try:
        yield deadline
    finally:
        deadline.stop()


async def defer_now(interaction: discord.Interaction) -> bool:
    """Defer a click that has a :class:`Deadline` now; True if it is deferred (its answer
    then goes as an edit), False if it has none or was already answered."""
    deadline = interaction.extras.get(Deadline.KEY)
    if not isinstance(deadline, Deadline):
        return False
    if deadline.state == "pending":
        await deadline.now()
    elif deadline.state == "deferring" and deadline.task is not None:
        await asyncio.shield(deadline.task)
    return deadline.state == "deferred"


class _Turn:
    """How long the event loop takes to come round: a callback scheduled with
    ``call_soon`` runs after everything already queued, so the time it waited is the
    backlog the next event would wait behind too. Measured at a click's arrival and at
    each step of a move (:func:`measure`; one probe at a time, no timer, no busy loop).
    The process counts as behind for :data:`BEHIND_FOR` after a slow turn."""

    def __init__(self) -> None:
        self.slow_at = float("-inf")  # when a turn last took longer than BEHIND_AFTER
        self.pending = False

    def probe(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.pending:
            return
        self.pending = True
        start = clock()

        def done() -> None:
            self.pending = False
            at = clock()
            if at - start > BEHIND_AFTER:
                self.slow_at = at

        loop.call_soon(done)

    def behind(self, loop: asyncio.AbstractEventLoop) -> bool:
        self.probe(loop)
        return clock() - self.slow_at < BEHIND_FOR


_TURN = _Turn()
#: The wall clock the loop's turn is measured on (a test's simulated loop keeps its own time).
clock = time.perf_counter


def behind() -> bool:
    """Whether the process is behind: the last measured turn of the event loop took
    more than :data:`BEHIND_AFTER` (a burst of clicks, a slow move on the loop)."""
    return _TURN.behind(asyncio.get_running_loop())


def measure() -> None:
    """Measure the loop's turn from here (a move's steps call it, so a busy process is
    measured while it is busy)."""
    _TURN.probe(asyncio.get_running_loop())


async def claim(interaction: discord.Interaction) -> None:
    deadline = interaction.extras.get(Deadline.KEY)
    if isinstance(deadline, Deadline):
        await deadline.claim()


async def answer(interaction: discord.Interaction, text: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer once, within limits: a new message, or a follow-up if already answered."""
    await claim(interaction)
    text = fit(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
        else:
            await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)
    except discord.HTTPException as error:
        log.warning("Could not answer an interaction: %s", error)


async def edit_in_place(interaction: discord.Interaction, **fields: Any) -> bool:
    """Update the message a component is on (after a deferral: edit the original).
    Every click is answered: where the message cannot take ``fields`` (plain content or
    an embed on a Components V2 message, which Discord refuses with 50035: a control
    forged onto a board, say) or Discord refuses the edit, the same answer goes out as
    a new message only the clicker sees. True if the clicker was answered (Discord
    took the edit or the new message)."""
    await claim(interaction)
    if not _fits(interaction.message, fields):
        return await _answer_anew(interaction, fields)
    try:
        if interaction.response.is_done():
            await edits.edit_original(interaction, **fields)
        else:
            await edits.answer_by_editing(interaction, **fields)
    except discord.HTTPException as error:
        log.warning("Could not update the clicked message (%s); answering with a new one", error)
        return await _answer_anew(interaction, fields)
    return True


def _fits(message: discord.Message | None, fields: dict[str, Any]) -> bool:
    """Whether an edit of ``message`` can carry ``fields``: a Components V2 message holds
    its text in its components, never in content or an embed (and keeps its flag)."""
    if message is None or not message.flags.components_v2:
        return True
    return not fields.get("content") and not fields.get("embed") and not isinstance(fields.get("view"), discord.ui.View)


async def _answer_anew(interaction: discord.Interaction, fields: dict[str, Any]) -> bool:
    """``fields`` of an edit sent instead as a new ephemeral message (a follow-up once
    the interaction is answered); a sentence if even that is refused."""
    message: dict[str, Any] = {key: fields[key] for key in ("content", "embed", "view") if fields.get(key) is not None}
    files = [file for file in fields.get("attachments") or () if isinstance(file, discord.File)]
    for file in files:
        file.reset()  # read once by the refused edit
    if files:
        message["files"] = files
    if "content" in message:
        message["content"] = fit(str(message["content"]))
    if not message:
        message["content"] = _(GENERIC_FAILURE)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **message)
        else:
            await interaction.response.send_message(ephemeral=True, **message)
    except discord.HTTPException as error:
        log.warning("Could not answer an interaction with a new message either: %s", error)
        return False
    return True


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord made the interaction (its id's time, on the bot's clock)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


def late_refusal(error: BaseException) -> discord.HTTPException | None:
    """Discord's refusal of an interaction's answer because it can no longer be answered
    (10062: delivered late, past its 3 s; 40060: answered already), if that is the error."""
    return next((e for e in _chain(error) if isinstance(e, discord.HTTPException) and e.code in (UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED)), None)


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """The last word on an unexpected failure: logged, and a sentence for the user."""
    late = late_refusal(error)
    if late is not None:
        # Not a fault of ours: nothing can answer it any more (one line, no traceback).
        log.info("An interaction reached me too late to be answered (%.1f s after it was made): %s", age(interaction), late)
        return
    storage = next((e for e in _chain(error) if isinstance(e, StorageError)), None)
    if storage is not None:
        log.warning("Interaction failed on storage: %s", storage)  # the pool logged the cause once
    else:
        log.error("Interaction failed", exc_info=error)
    await answer(interaction, failure_sentence(error))


def answered(callback: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Wrap a component callback so an exception still gets a sentence."""

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except Exception as error:
            await answer_failure(interaction, error)

    wrapper.__deckhand_answered__ = True  # type: ignore[attr-defined]
    return wrapper


def answer_component_failures(item_classes: tuple[type, ...]) -> None:
    """discord.py only logs an exception from a DynamicItem callback, and the user
    sees "This interaction failed". Every item class gets the wrapper, once."""
    for cls in item_classes:
        callback = cls.__dict__.get("callback")
        if callback is not None and not getattr(callback, "__deckhand_answered__", False):
            cls.callback = answered(callback)


async def answer_command_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Every cog's ``cog_app_command_error``: no failed command goes unanswered."""
    from discord import app_commands

    if isinstance(error, app_commands.TransformerError):
        # Declared choices and ranges are not enforced on receipt; handlers check
        # their own options, and this catches any that could not even be converted.
        log.info("Refused an option value %r for %s", clip(error.value, 60), error.type)
        await answer(interaction, _("'{value}' is not a value I accept for that option; pick one of the offered values.", value=clip(error.value, 60)))
        return
    if isinstance(error, app_commands.NoPrivateMessage):
        await answer(interaction, _("This command works only in a server channel."))
        return
    if isinstance(error, app_commands.CheckFailure):
        await answer(interaction, _("You cannot use that command here."))
        return
    await answer_failure(interaction, error)
