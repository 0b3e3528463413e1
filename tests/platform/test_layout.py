"""The Components V2 board keeps Discord's limits whatever the embed holds."""

from __future__ import annotations

import discord

from bot import views
from bot.layout import COMPONENT_LIMIT, TEXT_LIMIT, count_components, embed_blocks, layout_view


def big_embed() -> discord.Embed:
    embed = discord.Embed(title="Idiot", description="x" * 4096)
    for n in range(25):
        embed.add_field(name=f"Seat {n}", value="y" * 1024)
    embed.set_footer(text="hint\nIdiot #1 · move 3")
    return embed


def test_a_full_embed_fits_one_v2_message():
    view = layout_view(big_embed(), content="🏆 someone won", buttons=[views.RematchButton(1, 2)])
    texts = [item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)]
    assert sum(len(t) for t in texts) <= TEXT_LIMIT
    assert texts[0] == "🏆 someone won"  # the outcome is never the part cut
    assert count_components(view) <= COMPONENT_LIMIT
    assert all(len(getattr(i, "custom_id", "") or "") <= 100 for i in view.walk_children())


def test_blocks_keep_every_part_of_the_embed_in_order():
    embed = discord.Embed(title="Toy", description="table")
    embed.add_field(name="Recent", value="ann played 3♠")
    embed.set_footer(text="hint\nToy #1 · move 1")
    assert embed_blocks(embed, "👉 ann") == ["👉 ann", "### Toy\ntable", "**Recent**\nann played 3♠", "-# hint\n-# Toy #1 · move 1"]
