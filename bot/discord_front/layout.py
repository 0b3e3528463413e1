"""A game's board or hand as Discord shows it. The games' render modules return a
:class:`bot.words.panel.Panel` (no Discord in it); this module is where the Discord front
end turns one into what it sends: an embed (:func:`embed_of`, the classic layout) or a
Components V2 ``LayoutView`` (Container of TextDisplays, an optional MediaGallery for a
card picture, an ActionRow of buttons). Discord's limits for a V2 message are kept:
at most 40 components and 4,000 characters of text in all.

The layouts are built of discord.py's own Container, TextDisplay, MediaGallery and
ActionRow, and sent stopped: every control is a DynamicItem, dispatched by its
custom_id, so no view is kept in discord.py's store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.words.panel import Panel
from bot.words.render_util import clip, end_lists

TEXT_LIMIT = 4000  # characters of text in one Components V2 message
COMPONENT_LIMIT = 40
# An embed has at most 25 fields, so a board is at most 28 TextDisplays (content, head,
# fields, footer) + Container + MediaGallery + ActionRow + 5 buttons = 36 components.


def embed_of(panel: Panel, *, image: str | None = None) -> discord.Embed:
    """``panel`` as a Discord embed (its colour, title, description, fields and footer),
    showing the picture at ``image`` (``attachment://name``) when there is one."""
    embed = discord.Embed(title=panel.title, description=panel.description, colour=panel.colour)
    for field in panel.fields:
        embed.add_field(name=field.name, value=field.value, inline=field.inline)
    if panel.footer is not None:
        embed.set_footer(text=panel.footer)
    if image:
        embed.set_image(url=image)
    return embed


def _colour(panel: Panel) -> discord.Colour | None:
    """A container's accent colour: the panel's (0 too), or none."""
    return None if panel.colour is None else discord.Colour(panel.colour)


def embed_blocks(panel: Panel, content: str | None = None) -> list[str]:
    """The panel's text as Markdown blocks: content, title, description, fields, footer."""
    blocks = []
    if content:
        blocks.append(end_lists(content))
    head = f"### {panel.title}" if panel.title else ""
    if panel.description:
        head = f"{head}\n{end_lists(panel.description)}" if head else end_lists(panel.description)
    if head:
        blocks.append(head)
    for field in panel.fields:
        blocks.append(f"**{field.name}**\n{end_lists(field.value or '')}")
    if panel.footer:
        blocks.append("\n".join(f"-# {line}" for line in panel.footer.split("\n") if line))
    return blocks


def fit_blocks(blocks: Sequence[str], limit: int = TEXT_LIMIT) -> list[str]:
    """Blocks cut to ``limit`` characters in all: the longest block is shortened first."""
    blocks = [b for b in blocks if b]
    while sum(len(b) for b in blocks) > limit:
        index = max(range(len(blocks)), key=lambda i: len(blocks[i]))
        excess = sum(len(b) for b in blocks) - limit
        blocks[index] = clip(blocks[index], max(1, len(blocks[index]) - excess))
    return blocks


#: A media gallery item's description (its alt text), at most this long (Discord's limit).
ALT_LIMIT = 1024


def _container(colour: discord.Colour | int | None, blocks: Sequence[str], image: str | None, alt: str | None = None) -> discord.ui.Container:
    """A Container of TextDisplays (and a MediaGallery of ``image``, described by ``alt``:
    a V2 message's picture is read out from its gallery item's description, not from
    the attached file's)."""
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(block) for block in blocks]
    if image:
        # The picture right under the text it goes with; the small print (the footer,
        # "-# ...") below it, not between the first line and the picture.
        at = len(blocks) - 1 if blocks and blocks[-1].startswith("-# ") and len(blocks) > 1 else len(blocks)
        children.insert(at, discord.ui.MediaGallery(discord.MediaGalleryItem(image, description=clip(alt, ALT_LIMIT) if alt else None)))
    return discord.ui.Container(*children, accent_colour=colour)


def _action_row(items: Sequence[Any]) -> discord.ui.ActionRow:
    """A row of items: DynamicItems, or controls planned (``views.PlannedControl``), built here."""
    return discord.ui.ActionRow(*(item if isinstance(item, discord.ui.Item) else item.item() for item in items))


def _stopped(*components: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    """A LayoutView of ``components``, stopped: its controls are DynamicItems, dispatched
    by custom_id, so discord.py need not keep the view in its store (nor run its
    timeout). LayoutView refuses more than its 40 components (ValueError)."""
    view = discord.ui.LayoutView(timeout=None)
    for component in components:
        view.add_item(component)
    view.stop()
    return view


def layout_view(
    panel: Panel, *, content: str | None = None, buttons: Sequence[discord.ui.Item] = (), image: str | None = None,
    alt: str | None = None,
) -> discord.ui.LayoutView:
    """One Container holding the text (and the picture, ``attachment://name``, with its
    alt text ``alt``), then a row of buttons."""
    container = _container(_colour(panel), fit_blocks(embed_blocks(panel, content)), image, alt)
    if buttons:
        return _stopped(container, _action_row(list(buttons)[:5]))
    return _stopped(container)


def count_components(view: discord.ui.LayoutView) -> int:
    """Every component of ``view``, the rows' and the container's children too."""
    return view.total_children_count


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
    panel: Panel, *, content: str | None, items: Sequence[Any], image: str | None = None, alt: str | None = None,
) -> discord.ui.LayoutView:
    """A private hand in Components V2: one Container with the status line, the hand's
    text in one block and the picture of the player's cards, then the hand's controls as
    ActionRows (the same rows as the embed hand, so the same custom_ids). ``items``: the
    controls, each with its row: planned (``views.hand_plan``, built here) or built
    (``views.hand_items``)."""
    text = "\n\n".join(embed_blocks(panel))
    container = _container(_colour(panel), fit_blocks([content or "", text]), image, alt)
    return _stopped(container, *(_action_row(line[:5]) for line in _rows_of(items)))


def text_layout(text: str) -> discord.ui.LayoutView:
    """A V2 message cut down to one line (an earlier DM hand): V2 cannot go back to content."""
    return _stopped(discord.ui.TextDisplay(clip(text, TEXT_LIMIT)))
