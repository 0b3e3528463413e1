"""Message edits (and a hand's first showing) sent without parsing Discord's answer.

discord.py turns Discord's answer to every edit into a ``Message`` (its author,
mentions, components, embeds and attachments parsed into objects), and the hot path
throws it away: a click answered by editing its hand, the board edited in place, a
live hand edited through its token; Show hand reads only the new message's id. That parsing was a fifth of discord.py's CPU per
move (issue 22). These functions send the very same request, built by discord.py's
own builders (``interaction_message_response_params``, ``handle_message_parameters``)
and sent through its own HTTP clients (so the same rate limits, retries and errors:
``NotFound``, ``Forbidden``, ``HTTPException``), and drop the answer unparsed.

Each mirrors the discord.py method named in its docstring (2.7), keyword for keyword.
They reach a few of discord.py's private attributes; where those are missing (another
discord.py), or a view would have to be kept in discord.py's view store (one that is
not stopped: every Deckhand view is, its items being DynamicItems), the discord.py
method itself is called instead, so the result is the same either way.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.utils import MISSING

try:
    from discord.http import handle_message_parameters
    from discord.webhook.async_ import async_context, interaction_message_response_params
except ImportError:  # another discord.py: its own methods are used
    _PRIVATE_OK = False
else:
    _PRIVATE_OK = "_response_type" in getattr(discord.InteractionResponse, "__slots__", ())

_TOKEN_TYPES = (discord.InteractionType.component, discord.InteractionType.modal_submit)


def _kept_in_store(view: Any) -> bool:
    """Whether discord.py would keep ``view`` in its view store after the edit."""
    return bool(view) and not view.is_finished() and view.is_dispatchable()


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
    response = interaction.response
    if not _PRIVATE_OK or _kept_in_store(view):
        await response.edit_message(content=content, embed=embed, attachments=attachments, view=view, allowed_mentions=allowed_mentions)
        return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if interaction.type not in _TOKEN_TYPES:
        return  # discord.py does nothing either
    state = interaction._state
    message_id = interaction.message.id if interaction.message is not None else None
    if view is not MISSING and message_id is not None:
        state.prevent_view_updates_for(message_id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        content=content,
        embed=embed,
        view=view,
        attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions,
        allowed_mentions=allowed_mentions,
    )
    http = state.http
    await async_context.get().create_interaction_response(
        interaction.id, interaction.token, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth, params=params,
    )
    response._response_type = discord.InteractionResponseType.message_update


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
    shown by Show hand). Returns the new message's id, which Discord's answer carries
    (``InteractionCallbackResponse.message_id``), without parsing the message itself."""
    response = interaction.response
    if not _PRIVATE_OK or (view is not MISSING and not view.is_finished()):
        sent = await response.send_message(content=content, embed=embed, file=file, view=view, ephemeral=ephemeral)
        return getattr(sent, "message_id", None)
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    flags = MISSING
    if ephemeral:
        flags = discord.MessageFlags._from_value(0)
        flags.ephemeral = True
        flags.suppress_embeds = False
        flags.suppress_notifications = False
    state = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.channel_message.value,
        content=content,
        embed=embed,
        file=file,
        previous_allowed_mentions=state.allowed_mentions,
        flags=flags,
        view=view,
    )
    http = state.http
    data = await async_context.get().create_interaction_response(
        interaction.id, interaction.token, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth, params=params,
    )
    response._response_type = discord.InteractionResponseType.channel_message
    return discord.utils._get_as_snowflake(data["interaction"], "response_message_id")


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
    if not _PRIVATE_OK or _kept_in_store(view):
        await interaction.edit_original_response(content=content, embed=embed, attachments=attachments, view=view, allowed_mentions=allowed_mentions)
        return
    state = interaction._state
    with handle_message_parameters(
        content=content,
        attachments=attachments,
        embed=embed,
        view=view,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        http = state.http
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files,
        )


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
    a DM hand)."""
    if not _PRIVATE_OK or _kept_in_store(view) or type(message) is not discord.PartialMessage:  # a Message edits itself too
        await message.edit(content=content, embed=embed, attachments=attachments, view=view, allowed_mentions=allowed_mentions)
        return
    state = message._state
    if view is not MISSING:
        state.prevent_view_updates_for(message.id)
    with handle_message_parameters(
        content=content,
        embed=embed,
        attachments=attachments,
        view=view,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions if content is not MISSING else None,
    ) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)
