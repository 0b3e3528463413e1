"""The clicked message of a click on a Deckhand control, parsed down to what is read.

A component interaction carries the whole message the click came from (a hand or a
board: author, mentions, every component of its V2 layout), and discord.py parses it
into ``Interaction.message`` before anything else runs. For a click on one of the
bot's own controls (custom_id ``dh:...``, dispatched by ``bot/views.py``) the bot reads
only two things of that message: its id (live hands, the lobby, votes) and the clicked
component (``_call_dynamic_item``). So the message is handed to discord.py with its
components cut down to the way to the clicked one (its container and row, or its
section) and without its mentions; everything else in it is kept as sent.

Anything unexpected (another kind of interaction, another custom_id, a component not
found, a payload of another shape) is parsed as it came. The payload is never edited
in place: the pruned message is a new dict.
"""

from __future__ import annotations

from typing import Any

from bot.discord_front.parsers import Parser, wrap_parser_once

INTERACTION_EVENT = "INTERACTION_CREATE"
COMPONENT_INTERACTION = 3
OUR_CONTROLS = "dh:"


def prune_clicked_messages(state: Any) -> None:
    """Wrap ``state``'s (a discord.py ConnectionState's) interaction parser once."""
    wrap_parser_once(state, INTERACTION_EVENT, "prunes_clicked_messages", _pruning)


def _pruning(parse: Parser) -> Parser:
    def parser(data: dict[str, Any]) -> None:
        parse(pruned(data))

    return parser


def pruned(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its message cut down to the way to the clicked control, or
    ``data`` itself when it is not a click on one of the bot's controls found there."""
    try:
        if data.get("type") != COMPONENT_INTERACTION:
            return data
        inner = data["data"]
        custom_id, component_type = inner["custom_id"], inner["component_type"]
        if not isinstance(custom_id, str) or not custom_id.startswith(OUR_CONTROLS):
            return data
        message = data["message"]
        way = _way_to(message["components"], component_type, custom_id)
    except (KeyError, TypeError, AttributeError):
        return data
    if way is None:
        return data
    return {**data, "message": {**message, "components": [way], "mentions": [], "mention_roles": []}}


def _way_to(components: Any, component_type: Any, custom_id: str) -> dict[str, Any] | None:
    """The top component holding the clicked one, with only the way to it inside
    (a section whose accessory was clicked is kept whole); None if it is not there."""
    if not isinstance(components, list):
        return None
    for component in components:
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and component.get("type") == component_type:
            return component
        accessory = component.get("accessory")
        if isinstance(accessory, dict) and accessory.get("custom_id") == custom_id and accessory.get("type") == component_type:
            return component
        found = _way_to(component.get("components"), component_type, custom_id)
        if found is not None:
            return {**component, "components": [found]}
    return None
