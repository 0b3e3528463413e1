"""The Components V2 board keeps Discord's limits whatever the embed holds, and a
hand's planned controls are built into the same layout as its items."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import discord
import pytest

from bot.discord_front import views
from bot.rules.engine import Action, Control
from bot.discord_front.layout import COMPONENT_LIMIT, TEXT_LIMIT, count_components, embed_blocks, embed_of, fit_blocks, hand_layout, layout_view
from bot.words.panel import Panel


def walk(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from walk(component.get("components", ()))


def texts_of(view: discord.ui.LayoutView) -> list[str]:
    return [c["content"] for c in walk(view.to_components()) if c["type"] == 10]


def big_embed() -> Panel:
    embed = Panel(title="Idiot", description="x" * 4096)
    for n in range(25):
        embed.add_field(name=f"Seat {n}", value="y" * 1024)
    embed.footer = "hint\nIdiot #1 · move 3"
    return embed


def test_a_full_embed_fits_one_v2_message():
    view = layout_view(big_embed(), content="🏆 someone won", buttons=[views.RematchButton(1, 2)])
    texts = texts_of(view)
    assert sum(len(t) for t in texts) <= TEXT_LIMIT
    assert texts[0] == "🏆 someone won"  # the outcome is never the part cut
    assert count_components(view) <= COMPONENT_LIMIT
    assert all(len(c.get("custom_id", "")) <= 100 for c in walk(view.to_components()))


def test_blocks_keep_every_part_of_the_embed_in_order():
    embed = Panel(title="Toy", description="table")
    embed.add_field(name="Recent", value="ann played 3♠")
    embed.footer = "hint\nToy #1 · move 1"
    assert embed_blocks(embed, "👉 ann") == ["👉 ann", "### Toy\ntable", "**Recent**\nann played 3♠", "-# hint\n-# Toy #1 · move 1"]


def test_a_panel_becomes_the_embed_with_every_part_of_it():
    panel = Panel(title="Toy", description="table", colour=0x1F8B4C, footer="hint")
    panel.add_field(name="Seats", value="ann, bob").add_field(name="Recent", value="ann played 3♠", inline=False)
    assert embed_of(panel, image="attachment://table-1.png").to_dict() == {
        "type": "rich", "flags": 0, "title": "Toy", "description": "table", "color": 0x1F8B4C, "footer": {"text": "hint"},
        "fields": [{"name": "Seats", "value": "ann, bob", "inline": True}, {"name": "Recent", "value": "ann played 3♠", "inline": False}],
        "image": {"url": "attachment://table-1.png"},
    }
    assert embed_of(Panel(description="x")).to_dict() == {"type": "rich", "flags": 0, "description": "x"}  # no colour, footer, picture
    assert embed_of(Panel(description="x", colour=0, footer="")).to_dict() == {"type": "rich", "flags": 0, "description": "x", "color": 0, "footer": {"text": ""}}


def test_a_panels_colour_is_the_containers_accent_black_included():
    accents = [c.get("accent_color") for view in (layout_view(Panel(title="t", colour=0)), layout_view(Panel(title="t", colour=0x992D22)),
                                                   layout_view(Panel(title="t"))) for c in view.to_components() if c["type"] == 17]
    assert accents == [0, 0x992D22, None]


def hand_controls(pages: int) -> list[Control]:
    cards = [Control(Action("play", arg=str(n)), f"card {n}", place="select", emoji="🂡" if n % 7 == 1 else None,
                     description="the ace" if n % 5 == 2 else "") for n in range(25 * pages - 3)]
    multis = [Control(Action("discard"), "Discard…", place="multi", choices=(("2c", "2♣"), ("3d", "3♦")), max_values=4)]
    buttons = [Control(Action("draw"), "Draw", style="primary", emoji="📈"), Control(Action("fold"), "Fold", style="danger"),
               Control(Action("bet"), "Bet another amount…", place="amount"), Control(Action("ready"), "Ready", style="success", emoji="✅")]
    return [*cards, *multis, *buttons]


EMBEDS = [
    Panel(title="Idiot", description="table", colour=0x2F3136),
    Panel(title="Blackjack", colour=0x1F8B4C),
    Panel(description="no title, colour 0", colour=0),
    big_embed(),
]


@pytest.mark.parametrize("embed", EMBEDS)
@pytest.mark.parametrize("image", [None, "attachment://table-7.png"])
def test_a_planned_hand_is_the_hand_built_from_its_items(embed: Panel, image: str | None) -> None:
    for pages, page, content in ((1, 0, "**Your move.**"), (2, 1, ""), (3, 2, "⚠️ notice\n**Your move.**")):
        built = hand_layout(embed, content=content, items=views.hand_items(1, 2, 9, hand_controls(pages), page), image=image)
        planned = hand_layout(embed, content=content, items=views.hand_plan(1, 2, 9, hand_controls(pages), page), image=image)
        assert json.dumps(planned.to_components()) == json.dumps(built.to_components())
        assert planned.has_components_v2() and isinstance(planned, discord.ui.LayoutView)


async def test_layouts_are_sent_stopped_so_discord_py_keeps_none_in_its_store() -> None:
    board = layout_view(EMBEDS[0], buttons=views.table_buttons(1, 2))
    hand = hand_layout(EMBEDS[0], content="c", items=views.hand_plan(1, 2, 9, hand_controls(1)))
    assert board.is_finished() and hand.is_finished()


def test_a_planned_control_is_refused_as_its_dynamic_item_is() -> None:
    upper = [Control(Action("Bet"), "Bet…", place="amount")]  # AmountButton's template takes [a-z_] kinds only
    with pytest.raises(ValueError):
        views.hand_items(1, 2, 9, upper)
    with pytest.raises(ValueError):
        hand_layout(Panel(title="t"), content="c", items=views.hand_plan(1, 2, 9, upper))


def test_an_empty_multi_select_offers_the_placeholder_option_either_way() -> None:
    controls = [Control(Action("discard"), "Discard…", place="multi", choices=(), max_values=3)]
    built = [item.to_component_dict() for item in views.hand_items(1, 2, 9, controls)]
    assert built[0]["options"] == [{"label": "—", "value": "none", "default": False}]
