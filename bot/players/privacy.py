"""Each player's data in one server: what is kept, a copy of it, and erasing it (issue 25).

The core service behind ``/privacy`` (bot/discord_front/privacy_commands.py is its Discord front end):
no discord imports, one guild connection from :mod:`storage` in, words and JSON out.

**Kinds of personal data.** Every table that holds something about a person registers a
:class:`DataKind` here: a ``describe`` (a sentence for ``/privacy show``, None when it
holds nothing about them), an ``export`` (JSON for ``/privacy export``: only that person's
data, never another person's id) and a ``forget`` (erase or anonymise it). Kinds run in
registration order; ``forget`` of the game records (moves, results) runs before the table
rows are rewritten, since they find the person's seat there. A module that adds a table of
personal data registers its kind (``register``), and one whose data is derived from results
(ratings) adds an ``after_forget`` hook that recomputes it for the games touched.

**A former player.** In a finished game's records the forgotten person becomes "a former
player": a reserved id per seat (:data:`storage.repos.FORMER_PLAYERS`, below any Discord
id, so nothing can mention it), so a game keeps its shape (who moved when, who placed
where) and other players' results and ratings keep their opponents. Enid's chain keeps its
names (they are part of the game) but loses their author. Someone seated at a game in play
(lobby or playing) is refused until it ends.
"""

from __future__ import annotations

import json
import re
from contextvars import ContextVar
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from storage import repos
from storage.repos import FORMER_PLAYERS, Connection, TableRecord

FORMER_NAME = "a former player"
#: Guild settings (bot/discord_front/commands.py /settings, bot/discord_front/privacy_commands.py).
MOVES_KEPT_KEY, DEFAULT_MOVES_KEPT_DAYS, MAX_MOVES_KEPT_DAYS = "moves_kept_days", 90, 3650
LEAVE_GRACE_KEY, DEFAULT_LEAVE_GRACE_DAYS, MAX_LEAVE_GRACE_DAYS = "leave_grace_days", 30, 365
DAY = 86400.0

REFUSED_WHILE_SEATED = (
    "You are seated at a game in play here ({where}): finish or leave your game first, then ask again. "
    "Nothing was erased."
)


def is_former(player: Any) -> bool:
    return isinstance(player, int) and not isinstance(player, bool) and player in FORMER_PLAYERS


def former_id(seat: int) -> int:
    """The former player of seat ``seat`` (0-based) of a game."""
    return FORMER_PLAYERS.start + seat


def is_computer(player: Any) -> bool:
    return isinstance(player, int) and not isinstance(player, bool) and player in repos.COMPUTER_SEATS


def when(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


# ------------------------------------------------------------------ scrubbing ids


def _mention(user_id: int) -> re.Pattern[str]:
    return re.compile(rf"<@!?{int(user_id)}>")


def replace_person(value: Any, user_id: int, new: int | None, *, label: str = FORMER_NAME) -> Any:
    """``value`` (decoded JSON, any depth) with ``user_id`` replaced by ``new``: as a
    number, as a key or string of digits (JSON keys are strings), an "author" becomes None,
    and a mention in text becomes ``label``. Discord ids have 17 to 20 digits, so no
    other number in a game's record can be mistaken for one."""
    text, mention = str(int(user_id)), _mention(user_id)
    digits = re.compile(rf"(?<!\d){text}(?!\d)")
    instead = str(new) if new is not None else "former"

    def words(item: str) -> str:
        """Mentions become the label; the id inside other text (an obligation's
        "last-<id>-46") becomes the former player's."""
        if text not in item:
            return item
        return digits.sub(instead, mention.sub(label, item))

    def rekey(key: Any) -> Any:
        if isinstance(key, str):
            return words(key)
        if isinstance(key, int) and not isinstance(key, bool) and key == user_id:
            return new if new is not None else instead  # decoded records key seats by int
        return key

    def walk(item: Any, key: str | None = None) -> Any:
        if isinstance(item, bool):
            return item
        if isinstance(item, int):
            if item != user_id:
                return item
            return None if key == "author" else new
        if isinstance(item, str):
            if item == text:
                return None if key == "author" or new is None else str(new)
            return words(item)
        if isinstance(item, list):
            return [walk(v, key) for v in item]
        if isinstance(item, dict):
            return {rekey(k): walk(v, k if isinstance(k, str) else None) for k, v in item.items()}
        return item

    return walk(value)


_LONG_NUMBER = re.compile(r"(?<!\d)\d{15,20}(?!\d)")


def seat_label(players: list[int], player: int, you: int) -> str:
    """How an export names a player of one game: you, a seat, a computer, a former player."""
    if player == you:
        return "you"
    if is_computer(player):
        return "a computer player"
    if player in players:  # a person, or a former one: by seat, so a forget elsewhere changes no export
        return f"seat {players.index(player) + 1}"
    return FORMER_NAME if is_former(player) else "another player"


def hide_others(text: str, players: list[int], you: int) -> str:
    """Text (a move's code, a log line) with every other person's id or mention replaced
    by their seat: an export names nobody else."""
    def sub(match: re.Match[str]) -> str:
        number = int(match.group(0))
        return str(you) if number == you else seat_label(players, number, you)

    return _LONG_NUMBER.sub(sub, text)


# ------------------------------------------------------------------ the registry


@dataclass(frozen=True)
class Policy:
    """The server's retention settings, for the sentences."""

    moves_kept_days: int = DEFAULT_MOVES_KEPT_DAYS
    leave_grace_days: int = DEFAULT_LEAVE_GRACE_DAYS


Describe = Callable[[Connection, int, Policy], Awaitable[str | None]]
Export = Callable[[Connection, int], Awaitable[Any]]
Forget = Callable[[Connection, int, "ForgetContext"], Awaitable[None]]


@dataclass(frozen=True)
class DataKind:
    key: str  # the export's key
    title: str  # a heading in /privacy show
    describe: Describe
    export: Export
    forget: Forget


@dataclass
class ForgetContext:
    """Shared by the kinds of one forget: the games touched (for ``after_forget`` hooks)."""

    now: float
    games: set[str]
    #: table id -> the former player id the person becomes there (see _former_of)
    seats: dict[int, int] = field(default_factory=dict)


KINDS: dict[str, DataKind] = {}
#: Called after every kind forgot, in the same transaction: ``hook(db, games)`` recomputes
#: derived data (ratings) of the games the forgotten person played.
AFTER_FORGET: list[Callable[[Connection, set[str]], Awaitable[None]]] = []


def register(kind: DataKind) -> DataKind:
    """Add (or replace, by key) a kind of personal data; kinds run in registration order."""
    KINDS[kind.key] = kind
    return kind


def after_forget(hook: Callable[[Connection, set[str]], Awaitable[None]]) -> Callable[[Connection, set[str]], Awaitable[None]]:
    if hook not in AFTER_FORGET:
        AFTER_FORGET.append(hook)
    return hook


async def policy(db: Connection) -> Policy:
    moves = await repos.get_guild_setting(db, MOVES_KEPT_KEY, DEFAULT_MOVES_KEPT_DAYS)
    grace = await repos.get_guild_setting(db, LEAVE_GRACE_KEY, DEFAULT_LEAVE_GRACE_DAYS)
    return Policy(
        moves if _whole(moves, 1, MAX_MOVES_KEPT_DAYS) else DEFAULT_MOVES_KEPT_DAYS,
        grace if _whole(grace, 0, MAX_LEAVE_GRACE_DAYS) else DEFAULT_LEAVE_GRACE_DAYS,
    )


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


async def show(db: Connection, user_id: int) -> list[tuple[str, str]]:
    """(title, sentence) for each kind that holds something about ``user_id``."""
    rules = await policy(db)
    shown = []
    token = _READ.set({})
    try:
        for kind in KINDS.values():
            sentence = await kind.describe(db, user_id, rules)
            if sentence:
                shown.append((kind.title, sentence))
    finally:
        _READ.reset(token)
    return shown


async def export(db: Connection, user_id: int, guild_id: int, now: float) -> dict[str, Any]:
    """Everything kept about ``user_id`` in this server, as JSON-ready data. A kind with
    nothing about them is an empty list or object, so the file's shape is always the same."""
    data: dict[str, Any] = {
        "about": f"What Deckhand keeps about you on server {guild_id}.",
        "you": str(user_id),
        "server": str(guild_id),
        "exported_at": when(now),
        "other_people": (
            "Nobody else's id is in this file: the other people at your games are named by their seat "
            "at that game ('seat 2'), computer players as 'a computer player'."
        ),
    }
    token = _READ.set({})
    try:
        for kind in KINDS.values():
            data[kind.key] = await kind.export(db, user_id)
    finally:
        _READ.reset(token)
    return data


async def seated_in_play(db: Connection, user_id: int) -> list[TableRecord]:
    """The games in play (lobby or playing) ``user_id`` sits at."""
    seated = []
    for row in await repos.active_rows(db):
        try:
            record = TableRecord.from_row(row)
        except repos.BadRecord:
            continue
        if user_id in record.players or record.host_id == user_id:
            seated.append(record)
    return seated


async def forget(db: Connection, user_id: int, now: float) -> list[TableRecord] | set[str]:
    """Erase ``user_id`` from this server's data (inside the caller's transaction). Returns
    the games in play they sit at (a list: nothing was done), else the set of game keys
    whose records changed (after the ``after_forget`` hooks ran)."""
    seated = await seated_in_play(db, user_id)
    if seated:
        return seated
    context = ForgetContext(now=now, games=set())
    token = _READ.set({})
    try:
        for kind in KINDS.values():
            await kind.forget(db, user_id, context)
    finally:
        _READ.reset(token)
    for hook in AFTER_FORGET:
        await hook(db, set(context.games))
    return context.games


# ------------------------------------------------------------------ the built-in kinds


#: What one show/export/forget has read (kinds share the person's tables, moves and results:
#: each is read once). A forget's kinds all want the records as they were before it began.
_READ: ContextVar[dict[Any, Any] | None] = ContextVar("deckhand_privacy_read", default=None)


async def _once(key: Any, read: Callable[[], Awaitable[Any]]) -> Any:
    cache = _READ.get()
    if cache is None:
        return await read()
    if key not in cache:
        cache[key] = await read()
    return cache[key]


async def _actions(db: Connection, user_id: int) -> list[Any]:
    return await _once(("actions", user_id), lambda: repos.actions_of_user(db, user_id))


async def _results(db: Connection, user_id: int) -> list[Any]:
    return await _once(("results", user_id), lambda: repos.results_of_user(db, user_id))


async def _tables(db: Connection, user_id: int) -> list[TableRecord]:
    return await _once(("tables", user_id), lambda: _read_tables(db, user_id))


async def _read_tables(db: Connection, user_id: int) -> list[TableRecord]:
    """Every table the person sat at, hosted, moved at or placed at (someone who left a
    game may no longer be in its seats, but their moves and place are)."""
    tables: dict[int, TableRecord] = {}
    for row in await repos.tables_of_user(db, user_id):
        try:
            record = TableRecord.from_row(row)
        except repos.BadRecord:
            continue
        if user_id in record.players or record.host_id == user_id:
            tables[record.id] = record
    elsewhere = {m["table_id"] for m in await _actions(db, user_id)}
    elsewhere |= {r["table_id"] for r in await _results(db, user_id)}
    for table_id in sorted(elsewhere - set(tables)):
        try:
            record = await repos.get_table(db, table_id)
        except repos.BadRecord:
            continue
        if record is not None:
            tables[table_id] = record
    return [tables[k] for k in sorted(tables)]


async def _former_of(db: Connection, context: ForgetContext, record: TableRecord, user_id: int) -> int:
    """The former player who takes ``user_id``'s place at a table: their seat's, or (someone
    no longer seated: a host who left their lobby, a player who left) the first one free.
    Chosen once per forget, so the moves, the result and the table row agree."""
    if record.id not in context.seats:
        if user_id in record.players:
            context.seats[record.id] = former_id(record.players.index(user_id))
        else:
            async with db.execute("SELECT user_id FROM results WHERE table_id = ?", (record.id,)) as cursor:
                taken = {row[0] for row in await cursor.fetchall()} | set(record.players)
            context.seats[record.id] = next(i for i in FORMER_PLAYERS[len(record.players):] if i not in taken)
    return context.seats[record.id]


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


async def _describe_games(db: Connection, user_id: int, rules: Policy) -> str | None:
    tables = await _tables(db, user_id)
    if not tables:
        return None
    in_play = sum(t.status in repos.ACTIVE for t in tables)
    games = sorted({t.game for t in tables})
    return (
        f"{_plural(len(tables), 'table')} you sat at or hosted ({', '.join(games)}"
        + (f"; {in_play} in play now" if in_play else "")
        + "): the game, your seat, who hosted, when it was played, and its final position and last public log lines. "
        f"Kept while Deckhand is in this server; deleted {_plural(rules.leave_grace_days, 'day')} after it leaves."
    )


async def _export_games(db: Connection, user_id: int) -> list[dict[str, Any]]:
    out = []
    for t in await _tables(db, user_id):
        out.append({
            "table": t.id,
            "game": t.game,
            "status": t.status,
            "channel": str(t.channel_id),
            "opened_at": when(t.created_at),
            "last_change_at": when(t.updated_at),
            "your_seat": t.players.index(user_id) + 1 if user_id in t.players else None,
            "seats": [seat_label(t.players, p, user_id) for p in t.players],
            "host": seat_label(t.players, t.host_id, user_id),
        })
    return out


async def _forget_games(db: Connection, user_id: int, context: ForgetContext) -> None:
    updates = []
    for t in await _tables(db, user_id):
        new = await _former_of(db, context, t, user_id)
        context.games.add(t.game)
        # The options too: a game's teams, a session's carried bankrolls and chain name
        # the person, and a replay deals the game again from them (bot/replay/).
        columns = {
            name: replace_person(getattr(t, name), user_id, new)
            for name in ("players", "seat_choices", "options", "strikes", "obligations", "recent", "turn_players", "publish")
        }
        # The display name a picture showed them by (bot/discord_front/publish.py keep_name) goes with them.
        (columns["publish"].get("names") or {}).pop(str(new), None)
        if t.host_id == user_id:
            columns["host_id"] = new
        if t.state is not None:
            try:
                columns["state"] = json.dumps(replace_person(json.loads(t.state), user_id, new), separators=(",", ":"))
            except ValueError:
                columns["state"] = None  # unreadable: nothing of it can be kept safely
        updates.append((t.id, columns))
    await repos.rewrite_tables(db, updates)


async def _describe_moves(db: Connection, user_id: int, rules: Policy) -> str | None:
    moves = await _actions(db, user_id)
    if not moves:
        return None
    tables = len({m["table_id"] for m in moves})
    return (
        f"{_plural(len(moves), 'move')} you made in {_plural(tables, 'game')} (the move, and when). "
        f"Deleted {_plural(rules.moves_kept_days, 'day')} after each game ends (a server setting); a game in play keeps its moves."
    )


async def _export_moves(db: Connection, user_id: int) -> list[dict[str, Any]]:
    players = {t.id: t.players for t in await _tables(db, user_id)}
    out = []
    for m in await _actions(db, user_id):
        players.setdefault(m["table_id"], [])
        out.append({
            "table": m["table_id"], "number": m["seq"], "move": hide_others(m["code"], players[m["table_id"]], user_id),
            "how": m["source"], "at": when(m["at"]),
        })
    return out


async def _by_former(db: Connection, user_id: int, context: ForgetContext) -> dict[int, list[int]]:
    """{former player id: the tables where the person becomes them}: one statement per seat."""
    groups: dict[int, list[int]] = {}
    for t in await _tables(db, user_id):
        groups.setdefault(await _former_of(db, context, t, user_id), []).append(t.id)
    return groups


async def _forget_moves(db: Connection, user_id: int, context: ForgetContext) -> None:
    for new, table_ids in (await _by_former(db, user_id, context)).items():
        await repos.reassign_user(db, "actions", user_id, new, table_ids)
        # A move that names them (Enid's Church shout at them, a ritual's id) names their
        # seat instead, as a mention the rules still read when a replay plays it again.
        rewritten = [(table_id, seq, replace_person(code, user_id, new, label=f"<@{new}>"))
                     for table_id, seq, code in await repos.actions_naming(db, table_ids, str(int(user_id)))]
        await repos.set_action_codes(db, rewritten)


async def _describe_results(db: Connection, user_id: int, rules: Policy) -> str | None:
    results = await _results(db, user_id)
    if not results:
        return None
    wins = sum(r["place"] == 1 for r in results)
    return (
        f"{_plural(len(results), 'finished game')} with your place ({_plural(wins, 'win')}), which /stats counts. "
        f"Kept while Deckhand is in this server; deleted {_plural(rules.leave_grace_days, 'day')} after it leaves."
    )


async def _export_results(db: Connection, user_id: int) -> list[dict[str, Any]]:
    return [
        {"table": r["table_id"], "game": r["game"], "place": r["place"], "players": r["players"], "finished_at": when(r["finished_at"])}
        for r in await _results(db, user_id)
    ]


async def _forget_results(db: Connection, user_id: int, context: ForgetContext) -> None:
    context.games |= {r["game"] for r in await _results(db, user_id)}
    for new, table_ids in (await _by_former(db, user_id, context)).items():
        await repos.reassign_user(db, "results", user_id, new, table_ids)


def _enid_names(data: dict[str, Any], user_id: int) -> list[list[str]]:
    names = []
    for entry in list(data.get("chain") or []) + list(data.get("middle_names") or []):
        if isinstance(entry, dict) and entry.get("author") == user_id:
            names.append([str(w) for w in entry.get("words") or []])
    return names


async def _enid_sources(db: Connection, user_id: int) -> list[tuple[str, dict[str, Any]]]:
    """Where Enid's names live: each channel's session (carryover), and the final state of
    each finished Enid game the person played (its chain so far)."""
    sources = [(f"the session in channel {channel}", data) for channel, _game, data, _at in await repos.all_carryover(db, "enid")]
    for t in await _tables(db, user_id):
        if t.game == "enid" and t.state and t.status not in repos.ACTIVE:
            try:
                sources.append((f"table {t.id}", json.loads(t.state)))
            except ValueError:
                continue
    return sources


async def _describe_chain(db: Connection, user_id: int, rules: Policy) -> str | None:
    names = {tuple(n) for _where, data in await _enid_sources(db, user_id) for n in _enid_names(data, user_id)}
    if not names:
        return None
    return (
        f"{_plural(len(names), 'name')} you added to Enid's chain, with you as their author. "
        "Kept with each game's record and in the channel's session until it ends; if you are forgotten the names stay "
        "(they are part of the game) without your name on them."
    )


async def _export_chain(db: Connection, user_id: int) -> list[dict[str, Any]]:
    seen, out = set(), []
    for where, data in await _enid_sources(db, user_id):
        for words in _enid_names(data, user_id):
            if tuple(words) not in seen:
                seen.add(tuple(words))
                out.append({"name": " ".join(words), "first_seen_in": where})
    return out


async def _forget_carryover(db: Connection, user_id: int, context: ForgetContext) -> None:
    """Every session carried between games (Enid's chain and results, Onion's bankrolls):
    the person becomes a former player; chain names lose their author."""
    for channel, game, data, _at in await repos.all_carryover(db):
        text = json.dumps(data)
        if str(int(user_id)) not in text:
            continue
        free = next(i for i in FORMER_PLAYERS if str(i) not in text)
        await repos.replace_carryover_data(db, channel, game, replace_person(data, user_id, free))
        context.games.add(game)


async def _forget_nothing(db: Connection, user_id: int, context: ForgetContext) -> None:
    """Enid's names are rewritten with the game records and sessions they live in."""


def _bankrolls(data: dict[str, Any], user_id: int) -> dict[str, Any] | None:
    key = str(int(user_id))
    banks, wins, rebuys = (data.get(k) or {} for k in ("bankrolls", "wins", "rebuys"))
    if key not in banks and key not in wins:
        return None
    return {"chips": banks.get(key), "rounds_won": wins.get(key, 0), "rebuys": rebuys.get(key, 0), "round": data.get("round")}


async def _describe_bankrolls(db: Connection, user_id: int, rules: Policy) -> str | None:
    found = [b for _c, _g, data, _at in await repos.all_carryover(db, "onion") if (b := _bankrolls(data, user_id))]
    if not found:
        return None
    return (
        f"Your bankroll in {_plural(len(found), 'Cripple Mr Onion session')} (chips, rounds won, rebuys). "
        "Kept until the session ends (/onion session end)."
    )


async def _export_bankrolls(db: Connection, user_id: int) -> list[dict[str, Any]]:
    return [
        {"channel": str(channel), **b}
        for channel, _g, data, at in await repos.all_carryover(db, "onion")
        if (b := _bankrolls(data, user_id))
    ]


async def _describe_settings(db: Connection, user_id: int, rules: Policy) -> str | None:
    mine = await repos.user_settings_of(db, user_id)
    if not mine:
        return None
    return f"Your settings ({', '.join(sorted(mine))}). Kept until you change them or ask to be forgotten."


async def _export_settings(db: Connection, user_id: int) -> dict[str, Any]:
    return await repos.user_settings_of(db, user_id)


async def _forget_settings(db: Connection, user_id: int, context: ForgetContext) -> None:
    await repos.delete_user_settings(db, user_id)
    await repos.set_dm_channel(db, user_id, None)  # the DM channel kept for DM hands (bot/discord_front/publish.py)


# Order matters for forget: moves and results find the seat in the table rows, so the
# table rows are rewritten after them.
register(DataKind("settings", "Your settings", _describe_settings, _export_settings, _forget_settings))
register(DataKind("moves", "Your moves", _describe_moves, _export_moves, _forget_moves))
register(DataKind("results", "Your results", _describe_results, _export_results, _forget_results))
register(DataKind("enid_chain", "Names you added to Enid's chain", _describe_chain, _export_chain, _forget_nothing))
register(DataKind("bankrolls", "Your Onion bankrolls", _describe_bankrolls, _export_bankrolls, _forget_carryover))
register(DataKind("games", "Games you played", _describe_games, _export_games, _forget_games))


def kinds() -> Iterable[DataKind]:
    return KINDS.values()


def rows_kind(table: str, key: str, title: str, retention: str) -> DataKind:
    """A kind for a table of rows keyed by ``user_id`` (ratings, per-player statistics):
    ``/privacy show`` counts them, the export holds them (``user_id`` left out), and forget
    deletes them. Register it, and add an :func:`after_forget` hook if others' rows derive
    from the results (a ratings recompute)."""

    async def rows(db: Connection, user_id: int) -> list[dict[str, Any]]:
        async with db.execute(f"SELECT * FROM {table} WHERE user_id = ?", (user_id,)) as cursor:
            found = await cursor.fetchall()
        return [{k: row[k] for k in row.keys() if k not in ("user_id", "guild_id")} for row in found]

    async def describe(db: Connection, user_id: int, rules: Policy) -> str | None:
        found = await rows(db, user_id)
        return f"{_plural(len(found), 'row')} of {title.lower()}. {retention}" if found else None

    async def forget(db: Connection, user_id: int, context: ForgetContext) -> None:
        await repos.execute_count(db, f"DELETE FROM {table} WHERE user_id = ?", (user_id,))

    return DataKind(key, title, describe, rows, forget)


# ------------------------------------------------------------------ retention


async def moves_to_purge(db: Connection, now: float) -> float | None:
    """The end time before which this server's finished games lose their move logs, if
    any such log is left (None: nothing to delete). A read, so most runs take no lock."""
    before = now - (await policy(db)).moves_kept_days * DAY
    return before if await repos.has_old_actions(db, before) else None


async def purge_moves(db: Connection, before: float) -> int:
    """Delete the move logs of games that ended before ``before``."""
    return await repos.purge_old_actions(db, before)
