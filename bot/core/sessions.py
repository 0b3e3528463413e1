"""Sessions in the core: state that outlives one game in a channel (Onion's bankrolls
and Dealer, Enid's name chain) lives in the channel's carryover (``Game.carry_out``
-> ``options["carry"]`` at Start). Ending one is a front end's command
(bot/discord_front/sessions.py for Discord); rating it is here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.players import ratings
from storage import repos

if TYPE_CHECKING:
    from bot.core.games import GameSpec


def has_sessions(spec: GameSpec) -> bool:
    """A game opts into sessions by giving its render module ``session_summary``."""
    return callable(getattr(spec.render, "session_summary", None))


def next_label(spec: GameSpec) -> str:
    """The finished board's button: the game's ``NEXT_LABEL`` ("Next game" for Enid),
    else "Next round" for a game of rounds with sessions, else "Rematch"."""
    label = getattr(spec.render, "NEXT_LABEL", None)
    if isinstance(label, str) and label:
        return label
    return "Next round" if has_sessions(spec) else "Rematch"


async def rate_session(db: repos.Connection, spec: GameSpec, channel_id: int, carry: dict, now: float) -> dict[int, int]:
    """A game rated per session (bot/players/ratings.py; its render gives ``session_placements(carry)``):
    the session's final standings are one rated game, keyed by its last round."""
    placements = getattr(spec.render, "session_placements", None)
    if not ratings.GAMES.get(spec.key, ratings.DEFAULT).per_session or placements is None:
        return {}
    last = await repos.last_finished_table(db, channel_id, spec.key)
    if last is None:
        return {}
    return await ratings.record_session(db, spec.key, last, placements(carry), now)
