"""A player who leaves a running game (or is removed for timing out): taken out, or
replaced by a computer seat under the platform's house rule (``bot/core/seats.py``,
``REPLACE_LEAVERS``). The caller holds the table's lock and commits."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.core.seats import OFFERED, REPLACE_LEAVERS, humans, name, new_seat, offers_replacement, seated
from bot.core.table import Table
from bot.rules.engine import Action, Event, RuleError
from bot.words.i18n import _

log = logging.getLogger(__name__)


def stand_in_for(table: Table, leaver: int) -> int | None:
    """The computer seat that takes ``leaver``'s place under the house rule, or None
    (the leaver is taken out, as without it): the rule is off for this table, the game
    cannot hand a seat over, or no other person would be left playing (computers do
    not finish a game among themselves)."""
    state = table.state
    level = table.record.options.get(REPLACE_LEAVERS.key, REPLACE_LEAVERS.default)
    if state is None or level not in OFFERED or not offers_replacement(table.spec.key, type(state)):
        return None
    gone = {leaver, *getattr(state, "left", ())}
    if not humans(p for p in seated(state) if p not in gone):
        return None
    return new_seat([*table.record.players, *state.players], level)


def leave_seat(table: Table, leaver: int) -> tuple[list[Event], Action]:
    """Take ``leaver`` out of the running game (caller holds the lock and commits):
    a computer takes their seat when the house rule says so, else they are removed.
    Returns the events and the action to log (``replace::<seat>`` or ``leave``, both
    replayed by the restore path)."""
    state = table.state
    assert state is not None
    seat = stand_in_for(table, leaver)
    if seat is not None:
        try:
            events = state.replace_player(leaver, seat)  # refuses with the state untouched
        except RuleError:
            log.exception("Table %s could not hand %s's seat to a computer; removing them instead", table.id, leaver)
            seat = None
    if seat is None:
        return state.remove_player(leaver), Action("leave")
    record = table.record
    # What the platform keeps per seat follows the seat: owed rituals' timers, strikes.
    record.obligations = {oid: [seat if who == leaver else who, due] for oid, (who, due) in record.obligations.items()}
    record.strikes.pop(leaver, None)
    return events, Action("replace", arg=str(seat))


def seat_lines(events: Iterable[Event]) -> list[str]:
    """The board's line for each seat a computer took: "🤖 Deckhand 2 (easy) took @alice's seat."."""
    return [_("{player} took {old}'s seat.", player=name(e.player), old=name(e.data["old"])) for e in events if e.kind == "player_replaced" and e.player is not None]
