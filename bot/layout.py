"""Components V2: a game's embed shown as a ``LayoutView`` (Container of TextDisplays,
an optional MediaGallery for a card picture, an ActionRow of buttons).

The games' render modules keep returning embeds; the platform converts them here, so
a render module need not change shape. Discord's limits for a V2 message are kept:
at most 40 components and 4,000 characters of text in all.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    if embed.footer and embed.footer.text:
        blocks.append("\n".join(f"-# {line}" for line in embed.footer.text.split("\n") if line))
    return blocks


def fit_blocks(blocks: Sequence[str], limit: int = TEXT_LIMIT) -> list[str]:
    """Blocks cut to ``limit`` characters in all: the longest block is shortened first."""
    blocks = [b for b in blocks if b]
    while sum(len(b) for b in blocks) > limit:
        index = max(range(len(blocks)), key=lambda i: len(blocks[i]))
        excess = sum(len(b) for b in blocks) - limit
        blocks[index] = clip(blocks[index], max(1, len(blocks[index]) - excess))
    return blocks


def layout_view(
    embed: discord.Embed, *, content: str | None = None, buttons: Sequence[discord.ui.Item] = (), image: str | None = None,
) -> discord.ui.LayoutView:
    """One Container holding the text (and the picture, ``attachment://name``), then a row of buttons."""
    view = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container(accent_colour=embed.colour)
    for block in fit_blocks(embed_blocks(embed, content)):
        container.add_item(discord.ui.TextDisplay(block))
    if image:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(image)))
    view.add_item(container)
    if buttons:
        row = discord.ui.ActionRow()
        for button in list(buttons)[:5]:
            row.add_item(button)
        view.add_item(row)
    view.stop()  # its items are DynamicItems, dispatched by custom_id: nothing to store
    return view


def count_components(view: discord.ui.LayoutView) -> int:
    return sum(1 for _ in view.walk_children())


def _rows_of(items: Sequence[discord.ui.Item]) -> list[list[discord.ui.Item]]:
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
    embed: discord.Embed, *, content: str | None, items: Sequence[discord.ui.Item], image: str | None = None,
) -> discord.ui.LayoutView:
    """A private hand in Components V2: one Container with the status line, the hand's
    text in one block and the picture of the player's cards, then the hand's controls as
    ActionRows (the same rows as the embed hand, so the same custom_ids). ``items``: the
    controls, each with its row (``views.hand_items``)."""
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container(accent_colour=embed.colour)
    text = "\n\n".join(embed_blocks(embed))
    for block in fit_blocks([content or "", text]):
        container.add_item(discord.ui.TextDisplay(block))
    if image:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(image)))
    layout.add_item(container)
    for line in _rows_of(items):
        row = discord.ui.ActionRow()
        for item in line[:5]:
            row.add_item(item)
        layout.add_item(row)
    layout.stop()  # DynamicItems, dispatched by custom_id: nothing to store
    return layout


def text_layout(text: str) -> discord.ui.LayoutView:
    """A V2 message cut down to one line (an earlier DM hand): V2 cannot go back to content."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(clip(text, TEXT_LIMIT)))
    layout.stop()
    return layout
