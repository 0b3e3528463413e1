"""The Components V2 hand keeps Discord's limits with the fullest hand view, and keeps
the embed hand's controls (same custom_ids, same rows)."""

from __future__ import annotations

from bot.discord_front import views
from bot.rules.engine import Action, Control
from bot.discord_front.layout import COMPONENT_LIMIT, TEXT_LIMIT, count_components, hand_layout, text_layout
from bot.words.panel import Panel


def full_controls() -> list[Control]:
    cards = [Control(Action("play", arg=str(n)), f"card {n}", place="select") for n in range(60)]  # three pages
    choices = tuple((f"c{n}", f"card {n}") for n in range(10))
    multis = [Control(Action(kind), kind, place="multi", choices=choices, max_values=5) for kind in ("discard", "keep")]
    buttons = [Control(Action(f"b{n}"), f"button {n}") for n in range(12)]
    return [*cards, *multis, *buttons]


def test_the_fullest_hand_fits_one_v2_message_with_the_same_controls():
    hand = views.hand_items(1, 2, 3, full_controls(), page=1)
    embed = Panel(title="Your hand", description="x" * 4096)
    for n in range(25):
        embed.add_field(name=f"Row {n}", value="y" * 1024)
    ids = [item.custom_id for item in hand]
    layout = hand_layout(embed, content="**Your move.**", items=hand, image="attachment://hand-2.png")
    container, *rows = layout.to_components()
    texts = [c["content"] for c in container["components"] if c["type"] == 10]
    assert texts[0] == "**Your move.**" and sum(len(t) for t in texts) <= TEXT_LIMIT
    assert count_components(layout) <= COMPONENT_LIMIT
    assert all(row["type"] == 1 for row in rows)
    assert [item["custom_id"] for row in rows for item in row["components"]] == ids
    assert all(len(row["components"]) <= 5 for row in rows) and len(rows) <= 5
    assert any(c["type"] == 12 for c in container["components"])  # the picture


def test_an_earlier_v2_dm_hand_is_cut_to_one_line():
    layout = text_layout("An earlier hand from Toy #1: your current hand is in a newer message below.")
    assert [type(item).__name__ for item in layout.walk_children()] == ["TextDisplay"]
