"""The edits of the bot's messages (a board, a hand) and a hand's first showing, through
discord.py's public methods.

Each function is the discord.py method named in its docstring, called as it is; they
are kept as one place for the callers (``bot/discord_front/publish.py``, ``bot/discord_front/tables/hands.py``,
``bot/discord_front/guard.py``) until the front end's reshaping (issue 38) hands them their
collaborators. What they add:

- :func:`edit_message` says whom the edit may ping. discord.py puts the client's
  default ``allowed_mentions`` on new messages, interaction answers, follow-ups and
  webhook edits, but on ``Message.edit`` / ``PartialMessage.edit`` only when
  ``content`` is passed. A Components V2 edit has no content (its text is in the
  components), so without it Discord applied its own default, which parses @everyone,
  roles and users. Every other message edit of the bot passes ``allowed_mentions``
  itself (tests/e2e/mentions.py checks every request of every SimCord test).
- :func:`answer_with_message` returns the new message's id, all that is read of it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.utils import MISSING

from bot.discord_front.mentions import NONE


async def answer_by_editing(
    interaction: discord.Interaction,
    *,
    content: Any = MISSING,
    embed: discord.Embed | None = MISSING,
    attachments: Any = MISSING,
    view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
    allowed_mentions: discord.AllowedMentions | None = MISSING,
) -> None:
    """``interaction.response.edit_message(...)``: answer a component's (or a modal's)
    interaction by editing the message it came from."""
    await interaction.response.edit_message(content=content, embed=embed, attachments=attachments, view=view, allowed_mentions=allowed_mentions)


async def answer_with_message(
    interaction: discord.Interaction,
    *,
    content: Any = None,
    embed: discord.Embed | None = MISSING,
    file: discord.File = MISSING,
    view: discord.ui.View | discord.ui.LayoutView = MISSING,
    ephemeral: bool = False,
) -> int | None:
    """``interaction.response.send_message(...)``: answer with a new message (a hand
    shown by Show hand). Returns the new message's id."""
    sent = await interaction.response.send_message(content=content, embed=embed, file=file, view=view, ephemeral=ephemeral)
    return sent.message_id


async def edit_original(
    interaction: discord.Interaction,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    attachments: Any = MISSING,
    view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """``interaction.edit_original_response(...)``: edit the interaction's original
    response (a deferred click's message, a live hand) through its token."""
    await interaction.edit_original_response(content=content, embed=embed, attachments=attachments, view=view, allowed_mentions=allowed_mentions)


async def edit_message(
    message: discord.PartialMessage | discord.Message,
    *,
    content: str | None = MISSING,
    embed: discord.Embed | None = MISSING,
    attachments: Any = MISSING,
    view: discord.ui.View | discord.ui.LayoutView | None = MISSING,
    allowed_mentions: discord.AllowedMentions | None = MISSING,
) -> None:
    """``PartialMessage.edit(...)``: edit a message of the bot's by its id (the board,
    a DM hand), pinging nobody unless ``allowed_mentions`` says whom (see the module)."""
    await message.edit(content=content, embed=embed, attachments=attachments, view=view,
                       allowed_mentions=NONE if allowed_mentions is MISSING else allowed_mentions)
