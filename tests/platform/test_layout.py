"""The Components V2 board keeps Discord's limits whatever the embed holds, and the
layouts written as dicts are exactly what discord.py's own objects write."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import discord
import pytest

from bot import views
from bot.engine import Action, Control
from bot.layout import COMPONENT_LIMIT, TEXT_LIMIT, _rows_of, count_components, embed_blocks, fit_blocks, hand_layout, layout_view


def walk(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from walk(component.get("components", ()))


def texts_of(view: discord.ui.LayoutView) -> list[str]:
    return [c["content"] for c in walk(view.to_components()) if c["type"] == 10]


def big_embed() -> discord.Embed:
    embed = discord.Embed(title="Idiot", description="x" * 4096)
    for n in range(25):
        embed.add_field(name=f"Seat {n}", value="y" * 1024)
    embed.set_footer(text="hint\nIdiot #1 · move 3")
    return embed


def test_a_full_embed_fits_one_v2_message():
    view = layout_view(big_embed(), content="🏆 someone won", buttons=[views.RematchButton(1, 2)])
    texts = texts_of(view)
    assert sum(len(t) for t in texts) <= TEXT_LIMIT
    assert texts[0] == "🏆 someone won"  # the outcome is never the part cut
    assert count_components(view) <= COMPONENT_LIMIT
    assert all(len(c.get("custom_id", "")) <= 100 for c in walk(view.to_components()))


def test_blocks_keep_every_part_of_the_embed_in_order():
    embed = discord.Embed(title="Toy", description="table")
    embed.add_field(name="Recent", value="ann played 3♠")
    embed.set_footer(text="hint\nToy #1 · move 1")
    assert embed_blocks(embed, "👉 ann") == ["👉 ann", "### Toy\ntable", "**Recent**\nann played 3♠", "-# hint\n-# Toy #1 · move 1"]


# ---------------------------------------------------------------- the dicts as discord.py writes them
# The layouts as they were built before they were written as dicts (discord.py's
# objects), to compare with: what a player is sent must not change by a byte.


def objects_board(embed: discord.Embed, content: str | None, buttons: Sequence[discord.ui.Item], image: str | None) -> discord.ui.LayoutView:
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
    return view


def objects_hand(embed: discord.Embed, content: str | None, items: Sequence[discord.ui.Item], image: str | None) -> discord.ui.LayoutView:
    layout = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container(accent_colour=embed.colour)
    for block in fit_blocks([content or "", "\n\n".join(embed_blocks(embed))]):
        container.add_item(discord.ui.TextDisplay(block))
    if image:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(image)))
    layout.add_item(container)
    for line in _rows_of(items):
        row = discord.ui.ActionRow()
        for item in line[:5]:
            row.add_item(item)
        layout.add_item(row)
    return layout


def hand_controls(pages: int) -> list[Control]:
    cards = [Control(Action("play", arg=str(n)), f"card {n}", place="select", emoji="🂡" if n % 7 == 1 else None,
                     description="the ace" if n % 5 == 2 else "") for n in range(25 * pages - 3)]
    multis = [Control(Action("discard"), "Discard…", place="multi", choices=(("2c", "2♣"), ("3d", "3♦")), max_values=4)]
    buttons = [Control(Action("draw"), "Draw", style="primary", emoji="📈"), Control(Action("fold"), "Fold", style="danger"),
               Control(Action("bet"), "Bet another amount…", place="amount"), Control(Action("ready"), "Ready", style="success", emoji="✅")]
    return [*cards, *multis, *buttons]


EMBEDS = [
    discord.Embed(title="Idiot", description="table", colour=0x2F3136),
    discord.Embed(title="Blackjack", colour=discord.Colour.dark_green()),
    discord.Embed(description="no title, colour 0", colour=0),
    big_embed(),
]


@pytest.mark.parametrize("embed", EMBEDS)
@pytest.mark.parametrize("image", [None, "attachment://table-7.png"])
def test_written_layouts_are_what_discord_py_objects_write(embed: discord.Embed, image: str | None) -> None:
    for content, buttons in ((None, views.table_buttons(1, 2)), ("👉 <@5>: your move.", views.rematch_buttons(1, 2, label="Next round")), ("x", [])):
        written = layout_view(embed, content=content, buttons=buttons, image=image)
        assert json.dumps(written.to_components()) == json.dumps(objects_board(embed, content, buttons, image).to_components())
        assert written.has_components_v2() and not written.is_dispatchable() and isinstance(written, discord.ui.LayoutView)
    for pages, page, content in ((1, 0, "**Your move.**"), (2, 1, ""), (3, 2, "⚠️ notice\n**Your move.**")):
        items = views.hand_items(1, 2, 9, hand_controls(pages), page)
        expected = json.dumps(objects_hand(embed, content, items, image).to_components())
        assert json.dumps(hand_layout(embed, content=content, items=items, image=image).to_components()) == expected
        # As a move writes it: the controls planned, never built as DynamicItems.
        planned = views.hand_plan(1, 2, 9, hand_controls(pages), page)
        assert json.dumps(hand_layout(embed, content=content, items=planned, image=image).to_components()) == expected
    assert json.dumps(hand_layout(embed, content="over", items=[]).to_components()) == json.dumps(objects_hand(embed, "over", [], None).to_components())


def test_component_count_is_discord_pys() -> None:
    items = views.hand_items(1, 2, 9, hand_controls(3), 1)
    written = hand_layout(big_embed(), content="c", items=items, image="attachment://hand-2.png")
    assert count_components(written) == len(list(objects_hand(big_embed(), "c", items, "attachment://hand-2.png").walk_children()))


def test_a_planned_control_is_refused_as_its_dynamic_item_is() -> None:
    upper = [Control(Action("Bet"), "Bet…", place="amount")]  # AmountButton's template takes [a-z_] kinds only
    with pytest.raises(ValueError):
        views.hand_items(1, 2, 9, upper)
    with pytest.raises(ValueError):
        hand_layout(discord.Embed(title="t"), content="c", items=views.hand_plan(1, 2, 9, upper))


def test_an_empty_multi_select_offers_the_placeholder_option_either_way() -> None:
    controls = [Control(Action("discard"), "Discard…", place="multi", choices=(), max_values=3)]
    built = [item.to_component_dict() for item in views.hand_items(1, 2, 9, controls)]
    assert [planned.written() for planned in views.hand_plan(1, 2, 9, controls)] == built
    assert built[0]["options"] == [{"label": "—", "value": "none", "default": False}]
