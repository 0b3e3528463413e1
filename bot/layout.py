"""Components V2: a game's embed shown as a ``LayoutView`` (Container of TextDisplays,
an optional MediaGallery for a card picture, an ActionRow of buttons).

The games' render modules keep returning embeds; the platform converts them here, so
a render module need not change shape. Discord's limits for a V2 message are kept:
at most 40 components and 4,000 characters of text in all.

The board and the hands are written straight as Discord's component dicts
(:class:`WrittenLayout`), the very dicts discord.py's Container, TextDisplay,
MediaGallery and ActionRow objects would write (tests/platform/test_layout.py compares
them): building those objects every move, only to turn them into these dicts, was most
of a move's payload building (issue 22).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import discord

from bot.render_util import clip

TEXT_LIMIT = 4000  # characters of text in one Components V2 message
COMPONENT_LIMIT = 40
# An embed has at most 25 fields, so a board is at most 28 TextDisplays (content, head,
# fields, footer) + Container + MediaGallery + ActionRow + 5 buttons = 36 components.


def embed_blocks(embed: discord.Embed, content: str | None = None) -> list[str]:
    """The embed's text as Markdown blocks: content, title, description, fields, footer."""
    blocks = []
    if content:
        blocks.append(content)
    head = f"### {embed.title}" if embed.title else ""
    if embed.description:
        head = f"{head}\n{embed.description}" if head else embed.description
    if head:
        blocks.append(head)
    for field in embed.fields:
        blocks.append(f"**{field.name}**\n{field.value}")
    footer = embed.footer  # (a new proxy object at each read)
    if footer and footer.text:
        blocks.append("\n".join(f"-# {line}" for line in footer.text.split("\n") if line))
    return blocks


def fit_blocks(blocks: Sequence[str], limit: int = TEXT_LIMIT) -> list[str]:
    """Blocks cut to ``limit`` characters in all: the longest block is shortened first."""
    blocks = [b for b in blocks if b]
    while sum(len(b) for b in blocks) > limit:
        index = max(range(len(blocks)), key=lambda i: len(blocks[i]))
        excess = sum(len(b) for b in blocks) - limit
        blocks[index] = clip(blocks[index], max(1, len(blocks[index]) - excess))
    return blocks


class WrittenLayout(discord.ui.LayoutView):
    """A LayoutView given as its component dicts. discord.py sends it as any LayoutView
    (``to_components``, the V2 flag); it holds no item objects, so nothing of it is
    dispatched or stored: its controls are DynamicItems, dispatched by custom_id.

    Made without running LayoutView's ``__init__`` each time (its random id, a future to
    stop, a walk of its children: ~20 us, two or three a move): every WrittenLayout
    starts as a copy of the attributes of one made by it, empty and stopped (issue 22)."""

    _stopped_empty: dict[str, Any] | None = None

    def __init__(self, components: list[dict[str, Any]]) -> None:
        empty = WrittenLayout._stopped_empty
        if empty is None:
            super().__init__(timeout=None)
            self.stop()
            empty = WrittenLayout._stopped_empty = dict(vars(self))
        else:
            vars(self).update(empty)
        self._children = []  # (its own list: never shared, though nothing adds to it)
        self.id = os.urandom(16).hex()  # as LayoutView's: nothing stores this view by it
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components

    def has_components_v2(self) -> bool:
        return True


def _container(colour: discord.Colour | int | None, blocks: Sequence[str], image: str | None) -> dict[str, Any]:
    """A Container of TextDisplays (and a MediaGallery of ``image``), as discord.py writes it."""
    children: list[dict[str, Any]] = [{"type": 10, "content": block} for block in blocks]
    if image:
        children.append({"type": 12, "items": [{"media": {"url": image}, "spoiler": False}]})
    accent = (colour if isinstance(colour, int) else colour.value) if colour else None
    return {"type": 17, "accent_color": accent, "spoiler": False, "components": children}


def _action_row(items: Sequence[Any]) -> dict[str, Any]:
    """A row of items: DynamicItems, or controls planned to be written (``views.PlannedControl``)."""
    return {"type": 1, "components": [item.written() if hasattr(item, "written") else item.to_component_dict() for item in items]}


def _written(components: list[dict[str, Any]]) -> WrittenLayout:
    # Every component counts, the rows' and the container's children too.
    if _count(components) > COMPONENT_LIMIT:
        raise ValueError(f"maximum number of children exceeded ({COMPONENT_LIMIT})")  # as LayoutView.add_item
    return WrittenLayout(components)


def layout_view(
    embed: discord.Embed, *, content: str | None = None, buttons: Sequence[discord.ui.Item] = (), image: str | None = None,
) -> discord.ui.LayoutView:
    """One Container holding the text (and the picture, ``attachment://name``), then a row of buttons."""
    components = [_container(embed.colour, fit_blocks(embed_blocks(embed, content)), image)]
    if buttons:
        components.append(_action_row(list(buttons)[:5]))
    return _written(components)


def _count(components: Sequence[dict[str, Any]]) -> int:
    """How many components there are, every container's and row's children counted."""
    count = len(components)
    for component in components:
        inner = component.get("components")
        if inner:
            count += _count(inner)
    return count


def count_components(view: discord.ui.LayoutView) -> int:
    return _count(view.to_components())


def _rows_of(items: Sequence[Any]) -> list[list[Any]]:
    """Items grouped by their row, in order (a select is a row of its own)."""
    rows: dict[int, list[discord.ui.Item]] = {}
    for index, item in enumerate(items):
        row = item.row
        if row is None:  # a DynamicItem keeps its row on the item it wraps
            row = getattr(getattr(item, "item", None), "row", None)
        row = row if row is not None else 5 + index
        rows.setdefault(row, []).append(item)
    return [rows[key] for key in sorted(rows)]


def hand_layout(
    embed: discord.Embed, *, content: str | None, items: Sequence[Any], image: str | None = None,
) -> discord.ui.LayoutView:
    """A private hand in Components V2: one Container with the status line, the hand's
    text in one block and the picture of the player's cards, then the hand's controls as
    ActionRows (the same rows as the embed hand, so the same custom_ids). ``items``: the
    controls, each with its row: planned (``views.hand_plan``, written without building
    their DynamicItems) or built (``views.hand_items``)."""
    text = "\n\n".join(embed_blocks(embed))
    components = [_container(embed.colour, fit_blocks([content or "", text]), image)]
    components += [_action_row(line[:5]) for line in _rows_of(items)]
    return _written(components)


def text_layout(text: str) -> discord.ui.LayoutView:
    """A V2 message cut down to one line (an earlier DM hand): V2 cannot go back to content."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(clip(text, TEXT_LIMIT)))
    layout.stop()
    return layout
