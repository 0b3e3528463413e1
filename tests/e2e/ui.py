"""Helpers for driving the real bot through SimCord's UI: find the control for an
action in a hand message (paging the select when needed) and use it."""

from __future__ import annotations

from typing import Any

SELECT = 3
BUTTON = 2


def _items(message: Any) -> list[dict[str, Any]]:
    """Interactive components (buttons, selects) as dicts, from a SimCord response
    (dicts) or a discord.Message, in action rows at the top or nested in a Components
    V2 layout (a Container holding rows)."""
    items: list[dict[str, Any]] = []

    def walk(component: dict[str, Any]) -> None:
        if component.get("type") in (BUTTON, SELECT) or "custom_id" in component:
            items.append(component)
        for child in component.get("components", ()):
            walk(child)
        if isinstance(component.get("accessory"), dict):
            walk(component["accessory"])

    for top in message.components:
        walk(top if isinstance(top, dict) else top.to_dict())
    return items


def select_options(message: Any) -> list[str]:
    return [o["value"] for item in _items(message) if item["type"] == SELECT for o in item.get("options", [])]


def button_ids(message: Any) -> list[str]:
    return [item.get("custom_id", "") for item in _items(message) if item["type"] == BUTTON]


def has_control_for(message: Any, code: str) -> bool:
    return code in select_options(message) or any(cid.endswith(":" + code) and cid.startswith("dh:act:") for cid in button_ids(message))


def _multi_select_for(message: Any, code: str) -> str | None:
    """The custom_id of the multi-card select that plays ``code`` (``<kind>:<c1>.<c2>``,
    several cards chosen at once, e.g. Onion's discard), if the message has one
    offering every card in it."""
    kind, _, cards = code.partition(":")
    if not cards:
        return None
    for item in _items(message):
        custom_id = item.get("custom_id", "")
        if item["type"] == SELECT and custom_id.startswith("dh:multi:") and custom_id.endswith(":" + kind):
            offered = {o["value"] for o in item.get("options", [])}
            if set(cards.split(".")) <= offered:
                return custom_id
    return None


async def use_control(actor: Any, message: Any, code: str, *, max_pages: int = 4) -> Any:
    """Play ``code`` from a hand message the way a person would: pick it in the
    select (turning pages if needed) or click its button. Returns the result."""
    for _ in range(max_pages):
        if code in select_options(message):
            return await actor.select(message, [code])
        for custom_id in button_ids(message):
            if custom_id.startswith("dh:act:") and custom_id.endswith(":" + code):
                return await actor.click(message, custom_id=custom_id)
        multi = _multi_select_for(message, code)
        if multi is not None:
            return await actor.select(message, code.split(":", 1)[1].split("."), custom_id=multi)
        pager = next((cid for cid in button_ids(message) if cid.startswith("dh:page:")), None)
        if pager is None:
            break
        result = await actor.click(message, custom_id=pager)
        message = result.response.message
    raise AssertionError(f"No control for {code!r}; options {select_options(message)}, buttons {button_ids(message)}")


def game_place(channel: Any) -> Any:
    """Where a started game is played: its thread (the newest one opened from this
    channel), else the channel itself (threads off, or no permission to open one)."""
    threads = channel.threads
    return threads[-1] if threads else channel


def board(channel: Any) -> Any:
    """The game's board: the newest message with an embed (or a Components V2 layout)
    where the game is played."""
    return next(m for m in reversed(game_place(channel).history()) if m.embeds or m.flags.components_v2)


# ------------------------------------------------------------------ reading a message
# The same reader for both layouts: a classic message (content + embed) and a
# Components V2 one (TextDisplays in a Container, no content, no embed).

TEXT_DISPLAY = 10


def _tree(message: Any) -> list[dict[str, Any]]:
    return [top if isinstance(top, dict) else top.to_dict() for top in message.components]


def texts(message: Any) -> list[str]:
    """A Components V2 message's TextDisplays, in order (empty for a classic message)."""
    found: list[str] = []

    def walk(component: dict[str, Any]) -> None:
        if component.get("type") == TEXT_DISPLAY:
            found.append(component.get("content", ""))
        for child in component.get("components", ()):
            walk(child)

    for top in _tree(message):
        walk(top)
    return found


def is_v2(message: Any) -> bool:
    return bool(message.flags.components_v2)


def head(message: Any) -> str:
    """What a player reads first: the content of a classic message, the first
    TextDisplay of a V2 one (where the platform puts the same line)."""
    if is_v2(message):
        shown = texts(message)
        return shown[0] if shown else ""
    return message.content or ""


def text(message: Any) -> str:
    """All the words of a message: content, embeds (title, description, fields,
    footer) and TextDisplays."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "" if embed.footer else "")
    parts += texts(message)
    return "\n".join(p for p in parts if p)


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, in order (top-level rows or inside a layout)."""
    return [item.get("label") or "" for item in _items(message) if item["type"] == BUTTON]


def image_urls(message: Any) -> list[str]:
    """The pictures a message shows: an embed's image, or a V2 MediaGallery's items."""
    urls = [e.image.url for e in message.embeds if e.image and e.image.url]

    def walk(component: dict[str, Any]) -> None:
        if component.get("type") == 12:  # MediaGallery
            urls.extend(item.get("media", {}).get("url", "") for item in component.get("items", ()))
        for child in component.get("components", ()):
            walk(child)

    for top in _tree(message):
        walk(top)
    return urls


def embed_of(message: Any) -> Any:
    """A board's game text as an embed, in either layout: a classic message's embed, or
    the embed a V2 board was made from, read back from its TextDisplays (see
    ``bot.discord_front.layout.embed_blocks``: "### title\\ndescription", "**name**\\nvalue", "-# footer")."""
    import discord

    if not is_v2(message):
        return message.embeds[0]
    embed = discord.Embed()
    footer = []
    blocks = texts(message)
    headed = any(block.startswith("### ") for block in blocks)
    for index, block in enumerate(blocks):
        if block.startswith("### ") and embed.title is None:
            title, _, description = block[4:].partition("\n")
            embed.title, embed.description = title, description or None
        elif index == 1 and not headed and not block.startswith("-# "):
            # A finished board has no heading (its result line names the game): the
            # block after that line is the game's own text.
            embed.description = block
        elif block.startswith("**") and "**\n" in block:
            name, _, value = block[2:].partition("**\n")
            embed.add_field(name=name, value=value, inline=False)
        elif block.startswith("-# "):
            footer += [line[3:] for line in block.split("\n")]

    if footer:
        embed.set_footer(text="\n".join(footer))
    return embed
