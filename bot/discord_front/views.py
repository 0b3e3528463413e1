"""Shared Discord components. Every interactive item is a ``DynamicItem``: its
custom_id carries the guild, the table and (for moves) the state version, so the
buttons of any message keep working after a restart with no view re-registration,
and a click from an earlier moment of the game is recognised as stale.

custom_id shapes (all under Discord's 100-character limit):

- ``dh:lobby:<guild>:<table>:<verb>[:<choice>]``  join / leave / start / cancel / addbot:<level> / dropbot
- ``dh:hand:<guild>:<table>``                      Show hand (sends a fresh private hand)
- ``dh:refresh:<guild>:<table>``                   ↻ on a hand message (re-renders it in place)
- ``dh:act:<guild>:<table>:<version>:<action>``    a button move
- ``dh:sel:<guild>:<table>:<version>:<page>``      the paged select of card moves
- ``dh:page:<guild>:<table>:<version>:<page>``     page buttons of that select
- ``dh:rematch:<guild>:<table>``                   Rematch on a finished board (same players, options)
- ``dh:amt:<guild>:<table>:<version>:<kind>``      "any amount": opens the amount form (a Modal)
- ``dh:amtm:<guild>:<table>:<version>:<kind>``     that form; its submit plays ``<kind>::<n>``
- ``dh:multi:<guild>:<table>:<version>:<kind>``    a select of several cards, played as ``<kind>:<c1>.<c2>``
- ``dh:vote:<guild>:<table>:<vote id>:<action>``   a choice on a vote message of its own (``bot/discord_front/votes.py``)

A Modal cannot be a DynamicItem, so the amount form is not kept in discord.py's modal
store: :func:`on_modal_submit` (started by an interaction hook, :func:`start_amount_form`)
reads every ``dh:amtm:`` submit from its custom_id, which works the same before and
after a restart.
"""

from __future__ import annotations

import asyncio
import functools
import math
import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.rules.engine import Control
from bot.words.i18n import _, pgettext
from bot.discord_front import guard as _guard
from bot.discord_front.guard import answer as _answer
from bot.discord_front.guard import answer_failure as _answer_failure
from bot.discord_front import languages
from bot.discord_front.common import field_value as _field_value


SELECT_PAGE_SIZE = 25  # Discord's limit of options per select
MAX_ACTION_BUTTONS = 15  # three rows of five; row 0 is the select, row 4 paging
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class TableEntry(Protocol):
    """Where the controls' clicks enter the tables (the bot's ``tables``, a
    :class:`bot.discord_front.tables.TableManager`): named here so that this module,
    below the tables, knows only what it calls."""

    async def act(self, interaction: discord.Interaction, guild_id: int, table_id: int, version: int, code: str) -> None: ...

    async def show_hand(self, interaction: discord.Interaction, guild_id: int, table_id: int, *, in_place: bool = False, page: int = 0,
                        version: int | None = None) -> None: ...

    async def lobby_click(self, interaction: discord.Interaction, guild_id: int, table_id: int, verb: str, choice: str | None = None) -> None: ...

    async def rematch(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> None: ...

    async def cast_vote(self, interaction: discord.Interaction, guild_id: int, table_id: int, vote_id: str, code: str) -> None: ...

    async def table_or_reply(self, interaction: discord.Interaction, guild_id: int, table_id: int) -> Any: ...


def manager_of(interaction: discord.Interaction) -> TableEntry:
    return interaction.client.tables  # type: ignore[attr-defined,no-any-return]


# ------------------------------------------------------------------------- items


class _Guarded:
    """Every item below: the server boundary (``bot/discord_front/guard.py``) is checked in
    ``interaction_check``, which discord.py runs before the callback, so a custom_id
    naming another server's (or an unknown server's) table is refused before any
    lookup or storage, whatever the item's callback does."""

    guild_id: int

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await languages.enter(interaction)  # the clicker's language, before any answer
        return await _guard.component_allowed(interaction, self.guild_id)


class LobbyButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:lobby:(?P<g>\d+):(?P<t>\d+):(?P<verb>join|leave|start|cancel|addbot|dropbot)(?::(?P<choice>[a-z0-9_-]{1,20}))?"):
    def __init__(self, guild_id: int, table_id: int, verb: str, choice: str | None = None, *, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        custom_id = f"dh:lobby:{guild_id}:{table_id}:{verb}" + (f":{choice}" if choice else "")
        super().__init__(discord.ui.Button(label=label or verb.title(), style=style, custom_id=custom_id))
        self.guild_id, self.table_id, self.verb, self.choice = guild_id, table_id, verb, choice

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> LobbyButton:
        return cls(int(match["g"]), int(match["t"]), match["verb"], match["choice"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await manager_of(interaction).lobby_click(interaction, self.guild_id, self.table_id, self.verb, self.choice)


class ShowHandButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:(?P<kind>hand|refresh):(?P<g>\d+):(?P<t>\d+)"):
    def __init__(self, guild_id: int, table_id: int, *, refresh: bool = False) -> None:
        super().__init__(discord.ui.Button(**self.fields(guild_id, table_id, refresh=refresh)))
        self.guild_id, self.table_id, self.refresh = guild_id, table_id, refresh

    @staticmethod
    def fields(guild_id: int, table_id: int, *, refresh: bool = False) -> dict[str, Any]:
        kind = "refresh" if refresh else "hand"
        return {
            "label": pgettext("button", "Refresh") if refresh else pgettext("button", "Show hand"),
            "emoji": "🔄" if refresh else "🃏",  # Discord accepts only real emoji on buttons
            "style": discord.ButtonStyle.secondary if refresh else discord.ButtonStyle.primary,
            "custom_id": f"dh:{kind}:{guild_id}:{table_id}",
        }

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> ShowHandButton:
        return cls(int(match["g"]), int(match["t"]), refresh=match["kind"] == "refresh")

    async def callback(self, interaction: discord.Interaction) -> None:
        await manager_of(interaction).show_hand(interaction, self.guild_id, self.table_id, in_place=self.refresh)


class ActButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:act:(?P<g>\d+):(?P<t>\d+):(?P<v>\d+):(?P<code>[^\s]{1,60})"):
    def __init__(self, guild_id: int, table_id: int, version: int, code: str, *, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(**self.fields(guild_id, table_id, version, code, label=label, style=style, emoji=emoji)))
        self.guild_id, self.table_id, self.version, self.code = guild_id, table_id, version, code

    @staticmethod
    def fields(guild_id: int, table_id: int, version: int, code: str, *, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None) -> dict[str, Any]:
        return {"label": label[:80] or code, "style": style, "emoji": emoji, "custom_id": f"dh:act:{guild_id}:{table_id}:{version}:{code}"}

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> ActButton:
        return cls(int(match["g"]), int(match["t"]), int(match["v"]), match["code"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await manager_of(interaction).act(interaction, self.guild_id, self.table_id, self.version, self.code)


class PlaySelect(_Guarded, discord.ui.DynamicItem[discord.ui.Select], template=r"dh:sel:(?P<g>\d+):(?P<t>\d+):(?P<v>\d+):(?P<p>\d+)"):
    def __init__(self, guild_id: int, table_id: int, version: int, page: int, options: Sequence[discord.SelectOption] = (), placeholder: str = "Choose a card to play") -> None:
        super().__init__(discord.ui.Select(**self.fields(guild_id, table_id, version, page, options, placeholder)))
        self.guild_id, self.table_id, self.version, self.page = guild_id, table_id, version, page

    @staticmethod
    def fields(guild_id: int, table_id: int, version: int, page: int, options: Sequence[discord.SelectOption] = (), placeholder: str = "Choose a card to play") -> dict[str, Any]:
        return {
            "custom_id": f"dh:sel:{guild_id}:{table_id}:{version}:{page}",
            "options": list(options) or [discord.SelectOption(label="—", value="none")],
            "placeholder": placeholder,
            "min_values": 1,
            "max_values": 1,
        }

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]) -> PlaySelect:
        return cls(int(match["g"]), int(match["t"]), int(match["v"]), int(match["p"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        code = values[0] if values else ""
        await manager_of(interaction).act(interaction, self.guild_id, self.table_id, self.version, code)


class PageButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:page:(?P<g>\d+):(?P<t>\d+):(?P<v>\d+):(?P<p>\d+)"):
    def __init__(self, guild_id: int, table_id: int, version: int, page: int, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(**self.fields(guild_id, table_id, version, page, label=label, disabled=disabled)))
        self.guild_id, self.table_id, self.version, self.page = guild_id, table_id, version, page

    @staticmethod
    def fields(guild_id: int, table_id: int, version: int, page: int, *, label: str = "", disabled: bool = False) -> dict[str, Any]:
        return {"label": label or _("Page {n}", n=page + 1), "style": discord.ButtonStyle.secondary, "disabled": disabled, "custom_id": f"dh:page:{guild_id}:{table_id}:{version}:{page}"}

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> PageButton:
        return cls(int(match["g"]), int(match["t"]), int(match["v"]), int(match["p"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await manager_of(interaction).show_hand(interaction, self.guild_id, self.table_id, in_place=True, page=self.page, version=self.version)


class RematchButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:rematch:(?P<g>\d+):(?P<t>\d+)"):
    def __init__(self, guild_id: int, table_id: int, *, label: str = "Rematch") -> None:
        super().__init__(discord.ui.Button(label=label, emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"dh:rematch:{guild_id}:{table_id}"))
        self.guild_id, self.table_id = guild_id, table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> RematchButton:
        return cls(int(match["g"]), int(match["t"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await manager_of(interaction).rematch(interaction, self.guild_id, self.table_id)


AMOUNT_FIELD = "amount"
MAX_AMOUNT_DIGITS = 9


class AmountModal(discord.ui.Modal):
    """One number field; submitted through :func:`on_modal_submit`, not ``on_submit``."""

    def __init__(self, guild_id: int, table_id: int, version: int, kind: str, title: str) -> None:
        # The button's "…" says a form opens; the form's own title drops it.
        title = title.rstrip("…").rstrip(".").strip()
        super().__init__(title=title[:45] or _("Any amount"), custom_id=f"dh:amtm:{guild_id}:{table_id}:{version}:{kind}", timeout=None)
        self.add_item(discord.ui.TextInput(label=_("Chips (a whole number)"), custom_id=AMOUNT_FIELD, min_length=1, max_length=MAX_AMOUNT_DIGITS, placeholder=_("e.g. 3")))


class AmountButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:amt:(?P<g>\d+):(?P<t>\d+):(?P<v>\d+):(?P<kind>[a-z_]{1,20})"):
    def __init__(self, guild_id: int, table_id: int, version: int, kind: str, *, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(**self.fields(guild_id, table_id, version, kind, label=label, style=style)))
        self.guild_id, self.table_id, self.version, self.kind = guild_id, table_id, version, kind

    @staticmethod
    def fields(guild_id: int, table_id: int, version: int, kind: str, *, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> dict[str, Any]:
        return {"label": label[:80] or _("Any amount…"), "style": style, "custom_id": f"dh:amt:{guild_id}:{table_id}:{version}:{kind}"}

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> AmountButton:
        return cls(int(match["g"]), int(match["t"]), int(match["v"]), match["kind"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        if await manager_of(interaction).table_or_reply(interaction, self.guild_id, self.table_id) is None:
            return
        modal = AmountModal(self.guild_id, self.table_id, self.version, self.kind, self.item.label or _("Any amount"))
        await interaction.response.send_modal(modal)
        modal.stop()  # out of discord.py's store: on_modal_submit reads the submit from its custom_id


_AMOUNT_FORM = re.compile(r"dh:amtm:(?P<g>\d+):(?P<t>\d+):(?P<v>\d+):(?P<kind>[a-z_]{1,20})")


def amount_refusal(text: str) -> str | None:
    """The sentence refusing a typed amount, or None for a whole number of chips."""
    value = text.strip()
    if not value.isdigit() or not value.isascii():
        return _("'{value}' is not a whole number of chips; type digits only, e.g. 3.", value=value[:20])
    return None


#: Amount forms being played (a task keeps no reference to itself).
_amount_forms: set[asyncio.Task[None]] = set()


def start_amount_form(interaction: discord.Interaction) -> None:
    """Interaction hook (``bot.interaction_hooks``): a modal submit is played by
    :func:`on_modal_submit` in a task of its own; other interactions start nothing."""
    if interaction.type is discord.InteractionType.modal_submit:
        task = asyncio.get_running_loop().create_task(on_modal_submit(interaction), name="deckhand-amount-form")
        _amount_forms.add(task)
        task.add_done_callback(_amount_forms.discard)


async def on_modal_submit(interaction: discord.Interaction) -> None:
    """Plays an amount form's number as ``<kind>::<n>`` (see :func:`start_amount_form`)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data = interaction.data or {}
    match = _AMOUNT_FORM.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return
    try:
        await languages.enter(interaction)
        if not await _guard.component_allowed(interaction, int(match["g"])):
            return  # the server boundary first, as for every component
        text = _field_value(data.get("components"), AMOUNT_FIELD) or ""
        refusal = amount_refusal(text)
        manager = manager_of(interaction)
        if refusal:
            # Checked through the guard like any control before saying anything about the table.
            if await manager.table_or_reply(interaction, int(match["g"]), int(match["t"])) is not None:
                await _answer(interaction, refusal)
            return
        await manager.act(interaction, int(match["g"]), int(match["t"]), int(match["v"]), f"{match['kind']}::{int(text.strip())}")
    except Exception as error:
        await _answer_failure(interaction, error)


class MultiSelect(_Guarded, discord.ui.DynamicItem[discord.ui.Select], template=r"dh:multi:(?P<g>\d+):(?P<t>\d+):(?P<v>\d+):(?P<kind>[a-z_]{1,20})"):
    def __init__(self, guild_id: int, table_id: int, version: int, kind: str, options: Sequence[discord.SelectOption] = (), *, placeholder: str = "Choose cards", max_values: int = 1) -> None:
        super().__init__(discord.ui.Select(**self.fields(guild_id, table_id, version, kind, options, placeholder=placeholder, max_values=max_values)))
        self.guild_id, self.table_id, self.version, self.kind = guild_id, table_id, version, kind

    @staticmethod
    def fields(guild_id: int, table_id: int, version: int, kind: str, options: Sequence[discord.SelectOption] = (), *, placeholder: str = "Choose cards", max_values: int = 1) -> dict[str, Any]:
        options = list(options) or [discord.SelectOption(label="—", value="none")]
        return {
            "custom_id": f"dh:multi:{guild_id}:{table_id}:{version}:{kind}", "options": options, "placeholder": placeholder[:150],
            "min_values": 1, "max_values": max(1, min(max_values, len(options))),
        }

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]) -> MultiSelect:
        return cls(int(match["g"]), int(match["t"]), int(match["v"]), match["kind"], item.options, placeholder=item.placeholder or "", max_values=item.max_values)

    async def callback(self, interaction: discord.Interaction) -> None:
        order = [o.value for o in self.item.options]
        chosen = sorted(self.item.values, key=lambda v: order.index(v) if v in order else len(order))  # the hand's order
        await manager_of(interaction).act(interaction, self.guild_id, self.table_id, self.version, f"{self.kind}:{'.'.join(chosen)}")


class VoteButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"dh:vote:(?P<g>\d+):(?P<t>\d+):(?P<vote>[A-Za-z0-9_-]{1,30}):(?P<code>[^\s]{1,40})"):
    """A choice on a vote message of its own (``bot/discord_front/votes.py``)."""

    def __init__(self, guild_id: int, table_id: int, vote_id: str, code: str, *, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80] or code, style=style, custom_id=f"dh:vote:{guild_id}:{table_id}:{vote_id}:{code}"))
        self.guild_id, self.table_id, self.vote_id, self.code = guild_id, table_id, vote_id, code

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> VoteButton:
        return cls(int(match["g"]), int(match["t"]), match["vote"], match["code"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await manager_of(interaction).cast_vote(interaction, self.guild_id, self.table_id, self.vote_id, self.code)


DYNAMIC_ITEMS = (LobbyButton, ShowHandButton, ActButton, PlaySelect, PageButton, RematchButton, AmountButton, MultiSelect, VoteButton)


# ------------------------------------------------------------------------- views


def _unstored(view: discord.ui.View) -> discord.ui.View:
    """Every item here is a DynamicItem, dispatched from its custom_id by the
    globally registered classes, so discord.py need not keep each sent view in its
    store (with a 15-minute expiry task per ephemeral hand). A stopped view is
    rendered as usual but not stored."""
    view.stop()
    return view


def lobby_view(guild_id: int, table_id: int, seat_choices: Sequence[tuple[str, str]] = (), *, computers: bool = False) -> discord.ui.View:
    """Join (or one Join button per side/team), Leave, Start, Cancel; with
    ``computers``, Add computer (easy) and Remove computer for the host."""
    view = discord.ui.View(timeout=None)
    if seat_choices:
        for choice, label in seat_choices:
            view.add_item(LobbyButton(guild_id, table_id, "join", choice, label=pgettext("button", "Join {side}", side=label), style=discord.ButtonStyle.primary))
    else:
        view.add_item(LobbyButton(guild_id, table_id, "join", label=pgettext("button", "Join"), style=discord.ButtonStyle.primary))
    view.add_item(LobbyButton(guild_id, table_id, "leave", label=pgettext("button", "Leave")))
    view.add_item(LobbyButton(guild_id, table_id, "start", label=pgettext("button", "Start"), style=discord.ButtonStyle.success))
    view.add_item(LobbyButton(guild_id, table_id, "cancel", label=pgettext("button", "Cancel"), style=discord.ButtonStyle.danger))
    if computers:
        view.add_item(LobbyButton(guild_id, table_id, "addbot", "easy", label=pgettext("button", "Add computer (easy)")))
        view.add_item(LobbyButton(guild_id, table_id, "addbot", "hard", label=pgettext("button", "Add computer (hard)")))
        view.add_item(LobbyButton(guild_id, table_id, "dropbot", label=pgettext("button", "Remove computer")))
    return _unstored(view)


def view_of(items: Sequence[discord.ui.Item[Any] | PlannedControl]) -> discord.ui.View:
    """A classic message's View holding ``items`` (rows as the items say), unstored;
    a planned control (:class:`PlannedControl`) is built here. A Components V2 message
    puts the same items in its layout's rows instead (``bot/discord_front/layout.py``): a View is
    built only where one is sent."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item.item() if isinstance(item, PlannedControl) else item)
    return _unstored(view)


def table_buttons(guild_id: int, table_id: int) -> list[discord.ui.Item[Any]]:
    """The board's button in play: Show hand."""
    return [planned.item() for planned in table_plan(guild_id, table_id)]


def table_plan(guild_id: int, table_id: int) -> list[PlannedControl]:
    """:func:`table_buttons` planned: the board's V2 layout writes it without building
    the DynamicItem (a board a move)."""
    return [PlannedControl(ShowHandButton, None, guild_id, table_id)]


def rematch_buttons(guild_id: int, table_id: int, *, label: str = "Rematch") -> list[discord.ui.Item[Any]]:
    """A finished board's button. ``label``: "Next round" for a game played as a session of rounds."""
    return [RematchButton(guild_id, table_id, label=_(label))]  # English in the code: see bot.publish.NEXT_LABELS


def vote_view(guild_id: int, table_id: int, vote_id: str, choices: Sequence[tuple[str, str, str]]) -> discord.ui.View:
    """A vote message's buttons: ``choices`` are (action code, label, style)."""
    view = discord.ui.View(timeout=None)
    for code, label, style in choices[:5]:
        view.add_item(VoteButton(guild_id, table_id, vote_id, code, label=label, style=_STYLES.get(style, discord.ButtonStyle.secondary)))
    return _unstored(view)


def page_count(controls: Sequence[Control]) -> int:
    selectable = sum(1 for c in controls if c.place == "select")
    return max(1, math.ceil(selectable / SELECT_PAGE_SIZE))


class PlannedControl:
    """One control of a hand, planned: its DynamicItem class, the arguments that build
    it and its row. Made into the DynamicItem (:meth:`item`) where a View or a
    Components V2 layout (``bot/discord_front/layout.py``) is built."""

    __slots__ = ("kind", "args", "kwargs", "row")

    def __init__(self, kind: type[discord.ui.DynamicItem[Any]], row: int | None, *args: Any, **kwargs: Any) -> None:
        self.kind, self.row, self.args, self.kwargs = kind, row, args, kwargs

    def item(self) -> discord.ui.DynamicItem[Any]:
        item = self.kind(*self.args, **self.kwargs)
        item.item.row = self.row
        return item


def hand_items(guild_id: int, table_id: int, version: int, controls: Sequence[Control], page: int = 0) -> list[discord.ui.Item[Any]]:
    """The private hand's controls as DynamicItems, each with its row (see :func:`hand_plan`)."""
    return [planned.item() for planned in hand_plan(guild_id, table_id, version, controls, page)]


def hand_plan(guild_id: int, table_id: int, version: int, controls: Sequence[Control], page: int = 0) -> list[PlannedControl]:
    """The private hand's controls, each with its row: a select of card moves (paged by
    25) and buttons."""
    items: list[PlannedControl] = []
    selectable = [c for c in controls if c.place == "select"]
    multis = [c for c in controls if c.place == "multi"]
    buttons = [c for c in controls if c.place not in ("select", "multi")]
    pages = page_count(controls)
    page = min(max(page, 0), pages - 1)
    row = 0
    if selectable:
        chunk = selectable[page * SELECT_PAGE_SIZE:(page + 1) * SELECT_PAGE_SIZE]
        options = [
            discord.SelectOption(label=c.label[:100], value=c.action.code(), description=(c.description or None) and c.description[:100], emoji=c.emoji)
            for c in chunk
        ]
        placeholder = _("Choose a move (page {page} of {pages})", page=page + 1, pages=pages) if pages > 1 else _("Choose a move")
        items.append(PlannedControl(PlaySelect, row, guild_id, table_id, version, page, options, placeholder=placeholder))
        row += 1
    for control in multis[:2]:  # a select takes a whole row; rows 0-3 are shared with buttons
        options = [discord.SelectOption(label=label[:100], value=value) for value, label in control.choices[:SELECT_PAGE_SIZE]]
        items.append(PlannedControl(MultiSelect, row, guild_id, table_id, version, control.action.kind, options, placeholder=control.label, max_values=control.max_values))
        row += 1
    first_button_row = max(row, 1)
    for index, control in enumerate(buttons[:5 * (4 - first_button_row)]):
        style = _STYLES.get(control.style, discord.ButtonStyle.secondary)
        button_row = first_button_row + index // 5
        if control.place == "amount":
            items.append(PlannedControl(AmountButton, button_row, guild_id, table_id, version, control.action.kind, label=control.label, style=style))
        else:
            items.append(PlannedControl(ActButton, button_row, guild_id, table_id, version, control.action.code(), label=control.label, style=style, emoji=control.emoji))
    if pages == 2:
        other = 1 - page
        items.append(PlannedControl(PageButton, 4, guild_id, table_id, version, other, label=_("Next ▶") if other else _("◀ Previous")))
    elif pages > 2:
        # Two distinct targets, so the two custom_ids never collide.
        items.append(PlannedControl(PageButton, 4, guild_id, table_id, version, (page - 1) % pages, label=_("◀ Previous")))
        items.append(PlannedControl(PageButton, 4, guild_id, table_id, version, (page + 1) % pages, label=_("Next ▶")))
    items.append(PlannedControl(ShowHandButton, 4, guild_id, table_id, refresh=True))
    return items
