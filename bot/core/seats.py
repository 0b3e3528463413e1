"""Who sits at a table: computer seats' ids, levels and names, how a seat is shown,
and the platform's house rule that hands a leaver's seat to a computer (issue 12).

A computer seat is a player id that no Discord user can have: a small negative
number that also says its level, ``-(100 * (LEVELS.index(level) + 1) + n)`` for
its n-th seat (easy seat 1 is -201, hard seat 2 is -302). So the rules engines,
the snapshot, the action log and the results table hold it like any id, and its
level survives a restart with no extra column. How computer seats play is
``bot/core/computer.py``; a leaver's seat taken or emptied, ``bot/core/leavers.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.ai import LEVELS, has_ai
from bot.rules.engine import Game, HouseRule
from bot.words.i18n import N_, _, join
from storage import repos

#: Levels a host can choose in the lobby ("random" is for benches).
OFFERED = ("easy", "hard")
_SEATS = 99


#: The platform's house rule (issue 12), offered per game for every game that has
#: computer players and can hand a seat over (``Game.replace_player``): off by default.
REPLACE_LEAVERS = HouseRule(
    key="replace_leavers",
    description=N_("A computer takes the seat of a player who leaves or is removed for timing out"),
    choices=("off", "easy", "hard"),
    default="off",
    choice_descriptions=(
        N_("A player who leaves mid-game (or is removed for timing out) is taken out of the game."),
        N_("A player who leaves mid-game (or is removed for timing out) is replaced by an easy computer player, with their cards and seat."),
        N_("A player who leaves mid-game (or is removed for timing out) is replaced by a hard computer player, with their cards and seat."),
    ),
)


def offers_replacement(key: str, game: type[Game]) -> bool:
    """Whether a game gets the replace-leavers house rule: it has computer players
    and its rules can hand a seat over."""
    return game.can_replace() and has_ai(key)


def computer_id(level: str, n: int) -> int:
    return -(100 * (LEVELS.index(level) + 1) + n)


#: Below every computer seat's id (the last level's seat 99 is above it).
_BELOW_COMPUTERS = -100 * (len(LEVELS) + 1)


def is_computer(player: int) -> bool:
    return _BELOW_COMPUTERS < player < 0


def level_of(player: int) -> str:
    return LEVELS[(-player) // 100 - 1]


def name(player: int) -> str:
    """How a seat is shown: a computer by its name, a person as a mention."""
    if player > 0 and player not in repos.FORMER_PLAYERS:  # a person: the usual case (~20 a move)
        return f"<@{player}>"
    if is_computer(player):
        return f"🤖 Deckhand {(-player) % 100} ({level_of(player)})"
    if player in repos.FORMER_PLAYERS:  # someone who asked to be forgotten (bot/players/privacy.py): never a mention
        return _("a former player")
    return f"<@{player}>"


_MENTION = re.compile(r"<@!?(-?\d+)>")
_ADDRESS = re.compile(r"@?\bdeckhand\s*#?(\d{1,2})\b", re.IGNORECASE)


def addressed(text: str, players: Iterable[int]) -> str:
    """Typed words with "@Deckhand 2" (a computer seat at this table, which Discord
    cannot @mention) turned into that seat's mention form ``<@-302>``, so rules that
    want a mention (Enid's Church) hear it. Other text is unchanged."""
    seats = {(-p) % 100: p for p in players if is_computer(p)}
    if not seats:
        return text
    return _ADDRESS.sub(lambda m: f"<@{seats[int(m.group(1))]}>" if int(m.group(1)) in seats else m.group(0), text)


def spoken(text: str) -> str:
    """A computer's typed words for people: the seats it mentions by their names."""
    return _MENTION.sub(lambda m: name(int(m.group(1))), text)


def humans(players: Iterable[int]) -> list[int]:
    return [p for p in players if not is_computer(p)]


def add_refusal(key: str, players: list[int], max_players: int, level: str) -> str | None:
    """Why a computer cannot be added to this lobby now, or None."""
    if not has_ai(key):
        return _("This game has no computer players yet.")
    if level not in OFFERED:
        return _("There is no level called '{level}'; choose {levels}.", level=level[:20], levels=join(OFFERED, style="or"))
    if len(players) >= max_players:
        return _("This lobby is full ({n} players).", n=max_players)
    return None


def new_seat(players: list[int], level: str) -> int:
    """A fresh computer id for this table: the lowest seat number not taken."""
    taken = {(-p) % 100 for p in players if is_computer(p)}
    n = next(i for i in range(1, _SEATS + 1) if i not in taken)
    return computer_id(level, n)


def seated(state: Game) -> set[int]:
    """Players still taking part (a rules engine may keep removed ids for history)."""
    found = getattr(state, "active_players", None)
    return set(found() if callable(found) else state.players)


def only_computers_left(state: Game) -> bool:
    """A running game where nobody playing is a person any more (Onion keeps its
    leavers seated for the round's record, in ``left``)."""
    gone = set(getattr(state, "left", ()))
    return not state.is_over() and not humans(p for p in seated(state) if p not in gone)
