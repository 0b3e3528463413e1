"""discord.py's gateway parsers, wrapped so that some events are changed or dropped
before discord.py parses them (``echoes.py``: the bot's own messages; ``clicks.py``: a
click's message)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Parser = Callable[[dict[str, Any]], None]


def wrap_parser_once(state: Any, event: str, marker: str, wrap: Callable[[Parser], Parser]) -> None:
    """Replace ``state``'s (a discord.py ConnectionState's) parser of ``event`` with
    ``wrap(parser)``, marked ``marker``: a second call (a reconnect's setup) finds the
    mark and wraps nothing again."""
    parse = state.parsers.get(event)
    if parse is None or getattr(parse, marker, False):
        return
    wrapped = wrap(parse)
    setattr(wrapped, marker, True)
    state.parsers[event] = wrapped
