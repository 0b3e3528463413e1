"""The table as the core holds it in memory, and the one-sentence refusal every
part of the core (and every front end) shares."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.core import seats
from bot.core.errors import TableError
from bot.core.games import GameSpec
from bot.rules.engine import Game
from bot.words.i18n import _
from storage.repos import TableRecord

__all__ = ["RECENT_LINES", "REPOST_AFTER_SECONDS", "Table", "TableError"]

REPOST_AFTER_SECONDS = 50 * 60  # edits of messages older than 1 h have a tighter rate limit
RECENT_LINES = 6


@dataclass
class Table:
    guild_id: int
    record: TableRecord
    spec: GameSpec
    state: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The turn timer and the obligation timers (``bot.core.timers.Alarm``).
    timer: Any = None
    obligation_timers: dict[str, Any] = field(default_factory=dict)
    publish_retry: asyncio.Task[None] | None = None
    needs_publish: bool = False
    #: user -> the table version just after their latest move (in memory only: after
    #: a restart an old click can at worst be applied once, if it is still legal).
    last_moved: dict[int, int] = field(default_factory=dict)
    #: user -> the version of the hand their latest clicked move was chosen on, when
    #: Discord lost that click's answer: a later click from that same hand (which still
    #: shows) is told the first was played, not that nothing was (in memory only).
    clicked_from: dict[int, int] = field(default_factory=dict)
    #: The task playing the computer seats' next move (bot/core/computer.py), if any.
    computer: asyncio.Task[None] | None = None
    #: Showing the table (bot/discord_front/publish.py, ``Publisher.show``) happens outside ``lock``, one
    #: round at a time under ``showing``; requests made meanwhile wait, merged, in
    #: ``pending_show`` for the next round, which shows the latest state.
    showing: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending_show: Any = None
    show_task: asyncio.Task[None] | None = None
    #: After a board Discord refused: the players it still has to ping (the others
    #: were told through their hands), for the publish retry.
    unpinged: list[int] | None = None
    #: The nonce of a board post not yet known to have gone through: its retries carry it,
    #: so Discord (enforce_nonce) hands back a board made while its answer was lost.
    board_nonce: int | None = None
    #: Since when (our clock) the board has been waiting to show the table (a publish
    #: under way or refused; None once Discord took it): players are told when it lags.
    behind_since: float | None = None
    #: Discord's refusal of the latest board publish, if it failed (bot/discord_front/tables/threads.py).
    board_error: Exception | None = None
    #: When the bot last reopened this table's archived or locked thread (our clock).
    reopened_at: float | None = None
    #: Clicks taking or waiting for the lock now: one arriving while others are
    #: (even before they reach the lock) waits its turn, so it is deferred first.
    clicks_in_line: int = 0
    #: How the finished game moved each person's rating (bot/players/ratings.py), for the final board.
    rating_moves: dict[int, int] = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def key(self) -> tuple[int, int]:
        return (self.guild_id, self.record.id)

    @property
    def status(self) -> str:
        return self.record.status

    def names(self) -> dict[int, str]:
        # The game's own players too: a computer that took a leaver's seat.
        seated = self.state.players if self.state is not None else ()
        name = seats.name
        return {p: name(p) for p in dict.fromkeys((*self.record.players, *seated))}

    def describe(self) -> str:
        if self.status == "lobby":
            return _("a {title} lobby hosted by {host}", title=self.spec.title, host=f"<@{self.record.host_id}>")
        return _("a {title} game hosted by {host}, in play", title=self.spec.title, host=f"<@{self.record.host_id}>")

