"""Mentions: nothing the bot posts or edits pings anyone it did not name on purpose.

The client's default is :data:`NONE` (set in ``bot/discord_front/app.py``): no @everyone, no roles,
no users. A message that is meant to notify says whom, with
``AllowedMentions(users=[...])`` (the board posted anew to ping the players who must
act, ``bot/discord_front/publish.py``). So words a player typed (a ``/say``, a name, an Enid
ritual's text) can never ping a role or the whole server through the bot.

discord.py puts the client's default on new messages, interaction responses,
follow-ups and webhook edits, but on ``Message.edit`` / ``PartialMessage.edit`` only
when ``content`` is passed. A Components V2 edit has no content (its text is in the
components), so the bot's message edits go through ``bot/discord_front/edits.py``'s
``edit_message``, which passes this default when the edit names none.
"""

from __future__ import annotations

import discord

#: The client's default: ping nobody unless a message says whom.
NONE = discord.AllowedMentions.none()
