"""Computer players at the table (issue 12): seats, names, and their moves.

A computer seat is a player id that no Discord user can have: a small negative
number that also says its level, ``-(100 * (LEVELS.index(level) + 1) + n)`` for
its n-th seat (easy seat 1 is -201, hard seat 2 is -302). So the rules engines,
the snapshot, the action log and the results table hold it like any id, and its
level survives a restart with no extra column.

A computer moves through the same path as a person (lock -> apply -> commit ->
publish), from its own :class:`bot.ai.PlayerView` only. :func:`schedule` is called
whenever the table's timers are (re-)armed, i.e. at Start, after every committed
move and after a restore: if a computer seat must act, one task waits the server's
pause, thinks in a worker thread (never holding the table lock), then applies. If
the game moved on meanwhile the move is re-decided from a fresh view.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from bot.ai import DEFAULT_LEVEL, DEFAULT_SECONDS, LEVELS, Budget, PlayerView, decide, game_ai, has_ai
from bot.core.errors import SaveFailed
from bot.engine import Action, Event, Game, HouseRule, RuleError
from bot.i18n import N_, _, join
from storage import repos

if TYPE_CHECKING:
    from bot.core.moves import Moves, Outcome
    from bot.core.table import Table
    from storage import StorageBackend

log = logging.getLogger(__name__)

#: Levels a host can choose in the lobby ("random" is for benches).
OFFERED = ("easy", "hard")
DEFAULT_PAUSE = 1.5
MAX_PAUSE = 10.0
#: Re-decisions when the game moved on while a computer was thinking.
ATTEMPTS = 5
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
    if player in repos.FORMER_PLAYERS:  # someone who asked to be forgotten (bot/privacy.py): never a mention
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


class Seats(Protocol):
    """What a computer seat needs from the table core (bot/core/facade.py): its
    storage (the server's pause), whether this process holds the guild's shard, the
    core's moves, and where to report a move and its words (the core re-arms the
    timers and tells its front end's listener: ``moved``, ``said``)."""

    storage: StorageBackend
    moves: Moves

    def owns(self, guild_id: int | None) -> bool: ...

    async def _after_move(self, table: Table, outcome: Outcome) -> None: ...

    async def computer_said(self, table: Table, seat: int, text: str) -> None: ...


async def pause_seconds(manager: Seats, guild_id: int) -> float:
    async with manager.storage.reading(guild_id) as db:
        value = await repos.get_guild_setting(db, "bot_pause", DEFAULT_PAUSE)
    return float(value) if isinstance(value, int | float) and 0 <= value <= MAX_PAUSE else DEFAULT_PAUSE


def _movers(table: Table) -> list[int]:
    state = table.state
    if state is None or table.status != "playing" or state.is_over():
        return []
    current = state.current_players()
    movers = [p for p in sorted(current, reverse=True) if is_computer(p)]
    # Seats that are not current may still owe something (Enid's rituals): they speak first.
    owing = [p for p in sorted(state.players, reverse=True) if is_computer(p) and p not in current and _owes(state, p)]
    return owing + movers


def _owes(state: Game, seat: int) -> bool:
    """Whether a computer seat must act although it may not be current (a ritual)."""
    hook = game_ai(state.key).owes if has_ai(state.key) else None
    return hook is not None and hook(state.observation(seat), seat)


def schedule(manager: Seats, table: Table) -> None:
    """Start (or leave running) the task that plays this table's computer seats.
    Only in the process that owns the guild's shard, like the turn timers."""
    if not manager.owns(table.guild_id) or not _movers(table):
        return
    task = table.computer
    if task is not None and not task.done() and task is not asyncio.current_task():
        return
    table.computer = asyncio.create_task(_play(manager, table), name=f"deckhand-computer-{table.guild_id}-{table.id}")


#: Games whose computer player's ``warm_up`` already ran in this process.
_WARM: set[str] = set()


async def _warm_up(key: str) -> None:
    hook = game_ai(key).warm_up
    if key not in _WARM and hook is not None:
        await asyncio.to_thread(hook)  # off the event loop, before the first decision's clock starts
    _WARM.add(key)


async def _play(manager: Seats, table: Table) -> None:
    if table.state is not None:
        await _warm_up(table.state.key)
    await asyncio.sleep(await pause_seconds(manager, table.guild_id))
    only: int | None = None
    failures = 0  # refused or unsaved moves; a position that moved on is no failure
    while failures < ATTEMPTS:
        # Think once the last move is shown (the table's show task, bot/publish.py): the
        # picture drawn meanwhile in a worker thread would eat into the decision's time.
        shown = table.show_task
        if shown is not None and not shown.done():
            await asyncio.wait({shown})
        movers = _movers(table)
        if only is not None and table.state is not None:
            movers = [p for p in movers if p == only and _owes(table.state, p)]
        if not movers:
            return
        seat, version = movers[0], table.record.version
        assert table.state is not None
        view = PlayerView.of(table.state, seat)
        if not view.legal and not _owes(table.state, seat):
            return
        level = level_of(seat) if level_of(seat) in LEVELS else DEFAULT_LEVEL
        # Seeded by table, version and seat: a replayed position gets the same decision.
        rng = random.Random(f"{table.guild_id}:{table.id}:{version}:{seat}")
        action = await asyncio.to_thread(decide, view, level, rng, budget=Budget.timed(time.perf_counter, DEFAULT_SECONDS))
        async with table.lock:
            if table.status != "playing" or table.state is None or table.record.version != version:
                continue  # someone moved meanwhile: think again from the new position
            try:
                outcome = await manager.moves.apply(table, seat, action, source="computer")
            except RuleError:
                log.warning("Computer %s at table %s chose a refused move %s", seat, table.id, action.code())
                failures += 1
                continue
            except SaveFailed:
                failures += 1
                await asyncio.sleep(1.0)
                continue
            table.computer = None  # so the next move's schedule starts a fresh task
            if action.kind == "say":
                await manager.computer_said(table, seat, str(action.arg))
            await manager._after_move(table, outcome)
        if action.kind != "say" and table.status == "playing" and table.state is not None and _owes(table.state, seat):
            # A person says "Last card" as they lay: words owed for its own move follow
            # at once, not after the pause (the next player could move first).
            only = seat
            continue
        return


# ------------------------------------------------------------------ replacing a leaver


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


def seated(state: Game) -> set[int]:
    """Players still taking part (a rules engine may keep removed ids for history)."""
    found = getattr(state, "active_players", None)
    return set(found() if callable(found) else state.players)


def only_computers_left(state: Game) -> bool:
    """A running game where nobody playing is a person any more (Onion keeps its
    leavers seated for the round's record, in ``left``)."""
    gone = set(getattr(state, "left", ()))
    return not state.is_over() and not humans(p for p in seated(state) if p not in gone)

