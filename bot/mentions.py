"""Mentions: nothing the bot posts or edits pings anyone it did not name on purpose.

The client's default is :data:`NONE` (set in ``bot/app.py``): no @everyone, no roles,
no users. A message that is meant to notify says whom, with
``AllowedMentions(users=[...])`` (the board posted anew to ping the players who must
act, ``bot/publish.py``). So words a player typed (a ``/say``, a name, an Enid
ritual's text) can never ping a role or the whole server through the bot.

discord.py puts the client's default on new messages, interaction responses,
follow-ups and webhook edits, but on ``Message.edit`` / ``PartialMessage.edit`` only
when ``content`` is passed. A Components V2 edit has no content (its text is in the
components), so it went out with no ``allowed_mentions`` and Discord applied its own
default, which parses @everyone, roles and users. :func:`default_on_every_edit`
closes that gap at the one place both edits go through, the HTTP client's
``edit_message``.
"""

from __future__ import annotations

import json
from typing import Any

import discord

#: The client's default: ping nobody unless a message says whom.
NONE = discord.AllowedMentions.none()


def default_on_every_edit(client: discord.Client) -> None:
    """Make every message edit of ``client`` carry ``allowed_mentions`` (the client's
    default when the edit names none). Call it once the client's HTTP client is the
    one it will use (``setup_hook``: a test harness swaps it in before login)."""
    http = client.http
    if getattr(http.edit_message, "_deckhand_mentions", False):
        return
    edit_message = http.edit_message

    def edit_with_mentions(channel_id: Any, message_id: Any, *, params: Any) -> Any:
        fallback = (client.allowed_mentions or NONE).to_dict()
        if params.payload is not None:
            params.payload.setdefault("allowed_mentions", fallback)
        for part in params.multipart or ():
            if part.get("name") == "payload_json":  # with files: the body is already JSON text
                payload = json.loads(part["value"])
                if "allowed_mentions" not in payload:
                    payload["allowed_mentions"] = fallback
                    part["value"] = discord.utils._to_json(payload)
        return edit_message(channel_id, message_id, params=params)

    edit_with_mentions._deckhand_mentions = True  # type: ignore[attr-defined]
    http.edit_message = edit_with_mentions  # type: ignore[method-assign]
