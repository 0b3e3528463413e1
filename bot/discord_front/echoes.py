"""The gateway's echo of the bot's own messages, dropped before discord.py parses it.

Discord sends MESSAGE_CREATE and MESSAGE_UPDATE for every message in the servers'
channels, the bot's own included: each move edits its table's board, and the edit comes
back as a MESSAGE_UPDATE that discord.py turns into a whole ``Message`` (author,
mentions, every component of the V2 board) before dispatching events nobody here
listens to. Typed chat (``TableManager.on_chat``) ignores messages by bots, and no
listener reads message edits, so a message whose author is a bot is dropped unparsed.

One exception keeps discord.py's own bookkeeping right: an update to a message that
carries a view discord.py tracks by message id (a plain ``discord.ui.View``, not the
custom_id-routed ``DynamicItem``\\ s the tables use) still goes to its parser.
"""

from __future__ import annotations

from typing import Any

from bot.discord_front.parsers import Parser, wrap_parser_once

ECHOED_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE")


def by_a_bot(data: dict[str, Any]) -> bool:
    author = data.get("author")
    return isinstance(author, dict) and bool(author.get("bot"))


def ignore_bot_messages(state: Any) -> None:
    """Wrap ``state``'s (a discord.py ConnectionState's) message parsers once."""
    for event in ECHOED_EVENTS:
        wrap_parser_once(state, event, "drops_bot_messages", lambda parse: _dropping_bot_messages(state, parse))


def _dropping_bot_messages(state: Any, parse: Parser) -> Parser:
    def parser(data: dict[str, Any]) -> None:
        if not by_a_bot(data) or _tracked_view(state, data):
            parse(data)

    return parser


def _tracked_view(state: Any, data: dict[str, Any]) -> bool:
    if "components" not in data:
        return False
    try:
        entity = int((data.get("interaction") or {}).get("id") or data["id"])
    except (KeyError, TypeError, ValueError):
        return False
    return state._view_store.is_message_tracked(entity)
