"""One game at a terminal: you against computer players, on the table core.

The loop waits on one queue of happenings: a line you typed (read by a thread, so a
computer can move while you think), the core telling of a move nobody here asked for
(a computer's, a timer's), Ctrl+C, or the end of input. After each, what changed is
printed; when you have something to do, the board, your cards and your numbered moves.

Storage is the bot's own SQLite storage under ``--data-dir``: every move is committed
before it is shown, so Ctrl+C, ``quit`` or Ctrl+D at any moment leave the game saved,
and the same command restores it (the core's restore, as after a bot restart).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from bot.ai import game_ai, has_ai
from bot.core import computer
from bot.core.facade import TableCore, TableError
from bot.core.sessions import has_sessions, next_label, rate_session
from bot.rules.engine import Action, Event
from bot.terminal import menu
from bot.terminal.options import GAMES, PlayOptions
from bot.terminal.screen import Screen
from cogs import catalog
from storage import open_storage, repos
from storage.db import StorageError

#: Your player id at a terminal table (a Discord id is far larger; computers' are negative).
YOU = 1
#: Each game is a "server" of its own in the data directory (its own SQLite file), so
#: restoring one game never touches another's saved table; its one table sits here.
PLACE = 1

_CHANGED = object()
_INTERRUPTED = object()

COMMANDS_HELP = (
    "Type a move's number to make it, or a button's words (ready, end turn). A move that takes an amount or cards "
    "takes them after its number (4 7). An empty line shows your cards and moves again.",
    "help: this; rules: the game's rules; board: the table, your cards and moves again; quit (or Ctrl+C, Ctrl+D): stop, saved.",
)
WORDS_HELP = (
    "Anything else you type is said at the table, and the rules judge it: a card's name, a middle name, "
    "“Last St. Francis of Assisi”, the Church's shout (name its target: @Deckhand 1), John Buckle's cry, a limerick. "
    "A move's number and words together (3 Tarski of Carp) make the move and then say the words."
)


def guild_of(game: str) -> int:
    return GAMES.index(game) + 1


def resume_sentence(options: PlayOptions) -> str:
    return f"The game is saved: run deckhand play {options.game} to carry on."


class Stop(Exception):
    """Quit, Ctrl+C or Ctrl+D: the game is saved; leave the loop."""


class Unplayable(Exception):
    """The game cannot be opened or dealt; ``str()`` is one sentence."""


class TerminalGame:
    def __init__(self, options: PlayOptions, stdin: TextIO | None, out: TextIO) -> None:
        self.options = options
        self.stdin = stdin
        self.happenings: asyncio.Queue[object] = asyncio.Queue()
        self.unshown: list[Event] = []
        self.names: dict[int, str] = {YOU: options.name}
        self.screen = Screen(out, self.names)
        #: What the last "your move" block showed: it is printed again only when it changes.
        self.shown: tuple[Any, ...] | None = None
        self.listed: list[menu.Entry] = []
        self.listed_at = 0
        self.storage: Any = None
        self.core: Any = None
        self.table: Any = None
        #: The move that ended the game (or the table's closing) has been told here, with
        #: its events: the state is over a moment earlier, when the move is committed.
        self.ended = False
        self.spec: Any = None

    # ------------------------------------------------------------------ the loop

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, self.happenings.put_nowait, _INTERRUPTED)
        threading.Thread(target=self._read_lines, args=(loop,), name="deckhand-keyboard", daemon=True).start()
        try:
            await self._open()
            await self._start_or_resume()
            await self._loop()
        except Stop:
            self.screen.show(["", resume_sentence(self.options)])
        finally:
            loop.remove_signal_handler(signal.SIGINT)
            await self._close()
        return 0

    def _read_lines(self, loop: asyncio.AbstractEventLoop) -> None:
        """The keyboard, a line at a time, in a thread of its own (None: end of input).
        No standard input at all (``sys.stdin`` is None when the process was started with
        it closed) is an end of input at once, as Ctrl+D is: the game is saved and left."""
        while True:
            try:
                line = self.stdin.readline() if self.stdin is not None else ""
            except (OSError, ValueError):
                line = ""
            loop.call_soon_threadsafe(self.happenings.put_nowait, line or None)
            if not line:
                return

    async def _loop(self) -> None:
        while True:
            self._refresh(force=True)
            while not self._over():
                happening = await self.happenings.get()
                if happening is _INTERRUPTED or happening is None:
                    self.screen.show([""])
                    raise Stop
                if isinstance(happening, str):
                    self.screen.typed()
                    await self._typed(happening.strip())
                self._refresh()
            await self._finish()
            if not self._in_rounds() or not await self._next_round():
                return

    def _in_rounds(self) -> bool:
        """A game of rounds (Onion's session): one run plays round after round."""
        return has_sessions(self.spec) and getattr(self.spec.render, "TABLE_UNIT", "game") == "round"

    async def _next_round(self) -> bool:
        """Between two rounds: deal the next (Enter or next), end the session and show its
        standings (end), or stop here, saved (quit, Ctrl+C, Ctrl+D). True: a round is dealt."""
        while True:
            happening = await self.happenings.get()
            if happening is _INTERRUPTED or happening is None:
                self.screen.show([""])
                raise Stop
            if not isinstance(happening, str):
                continue  # nothing moves between rounds
            self.screen.typed()
            word = happening.strip().lower()
            if word in ("", "next", "n"):
                break
            if word == "end":
                await self._end_session()
                return False
            if word in ("quit", "exit", "q"):
                raise Stop
            if word in ("help", "?", "h"):
                self.screen.show([self._between_rounds()])
            elif word == "board":
                self.screen.show(["", *self.screen.board(self.spec.render, self._spectator_view()), "",
                                  self._between_rounds()])
            else:
                self.screen.say(f"Type next (or press Enter) for the {next_label(self.spec).lower()}, end to end the session, or quit.")
            self.screen.prompt()
        self.ended, self.shown = False, None
        finished = self.core.table_at(self.guild, PLACE)
        if finished is not None and finished.status != "playing":
            await self.core.cancel_table(finished, YOU)
        try:
            self.table = await self._deal()
        except TableError as refusal:  # e.g. only one player has chips left for the Stake
            self.screen.say(str(refusal))
            await self._end_session()
            return False
        return True

    def _between_rounds(self) -> str:
        label = next_label(self.spec).lower()
        return (f"Type next (or press Enter) for the {label} of this session, end to end the session and see its "
                f"standings, or quit to stop here (deckhand play {self.options.game} then deals the {label}).")

    async def _end_session(self) -> None:
        """As /<game> session end on Discord: the standings, the session rated, its carry cleared."""
        async with self.storage.transaction(self.guild) as db:
            carry = await repos.get_carryover(db, PLACE, self.spec.key)
            if carry:
                await repos.clear_carryover(db, PLACE, self.spec.key)
                await rate_session(db, self.spec, PLACE, carry, self.core.clock.now())
        if not carry:
            self.screen.say("There is no session to end.")
            return
        summary = self.screen.plain(self.spec.render.session_summary(carry)).splitlines()
        self.screen.show(["", f"{self.spec.title}: the session is over.", *summary, "",
                          f"Run deckhand play {self.options.game} for a new session."])

    def _refresh(self, *, force: bool = False) -> None:
        """Print what happened since last time; then, when you have something to do and
        it is not what was last shown, the board, your cards and your moves (another
        seat's move that leaves your choices as they were gets a fresh prompt only)."""
        printed = bool(self.unshown)
        if self.unshown:
            events, self.unshown = self.unshown, []
            self.screen.events(self.spec.render, events)
        if self._over():
            return
        view = self.core.view(self.table, YOU)
        self.listed = menu.entries(self.spec.render.controls(view.observation, view.legal), self._ballots(), YOU, self.spec.game.parse_action)
        self.listed_at = view.version  # a move typed from this list was chosen at this moment
        owes = YOU in view.owes
        # What you owe is part of what was shown: naming a black Six and then owing its
        # limerick's first line list the same (no) moves, but the screen must say so.
        owed = tuple(sorted(key for key, (player, _due) in self.table.record.obligations.items() if player == YOU))
        signature = (tuple(e.control.action.code() for e in self.listed), owed)
        if not (self.listed or owes):
            self.shown = None
            return
        if force or signature != self.shown:
            self.shown = signature
            self._show_turn(view)
        elif printed:
            self.screen.prompt()

    def _show_turn(self, view: Any) -> None:
        """The board, your cards and your moves (or what you owe), from your seat's view."""
        lines = ["", *self.screen.board(self.spec.render, self._spectator_view()), "", *self.screen.hand(self.spec.render, view.observation)]
        waiting = not self.listed and YOU not in view.owes
        if self.listed:
            lines += ["", *self.screen.moves(self.listed)]
            deadline = self.table.record.deadline
            if self.options.timers and deadline is not None and YOU in view.current:
                lines.append(self.screen.plain(f"Your turn ends <t:{int(deadline)}:R>: then the game makes a move for you."))
        elif waiting:
            lines += ["", "Nothing to do just now: the others are moving."]
        self.screen.show(lines)
        if not waiting:
            self.screen.prompt()

    async def _typed(self, line: str) -> None:
        word = line.lower()
        if word in ("quit", "exit", "q"):
            raise Stop
        if word in ("help", "?", "h"):
            self.screen.show([*COMMANDS_HELP, *((WORDS_HELP,) if self.spec.accepts_chat else ())])
            return self.screen.prompt()
        if word == "rules":
            self.screen.show(self.screen.plain(self.spec.rules_text()).splitlines())
            return self.screen.prompt()
        if word == "board":
            self._show_turn(self.core.view(self.table, YOU))
            return
        if not line:
            return self._remind()
        try:
            choice = menu.read(line, self.listed, self.spec.game.parse_action, hears_words=self.spec.accepts_chat)
        except menu.Refused as refusal:
            self.screen.say(str(refusal))
            return self.screen.prompt()
        if choice.action is not None and not await self._move(choice.action):
            return
        if choice.words:
            await self._say(choice.words)

    def _remind(self) -> None:
        """An empty line: your cards, what is awaited of you and your moves again (not
        the whole board: ``board`` shows that), or that nothing is; then the prompt."""
        view = self.core.view(self.table, YOU)
        if self.listed or YOU in view.owes:
            self.screen.show(["", *self.screen.hand(self.spec.render, view.observation), *(["", *self.screen.moves(self.listed)] if self.listed else [])])
        else:
            self.screen.show(["Nothing to do just now: the others are moving."])
        self.screen.prompt()

    async def _finish(self) -> None:
        if self.unshown:
            events, self.unshown = self.unshown, []
            self.screen.events(self.spec.render, events)
        board = self.screen.board(self.spec.render, self._spectator_view())
        again = f"Run deckhand play {self.options.game}"
        if self._in_rounds():  # Onion: the next round is dealt here, from the session's carry
            self.screen.show(["", *board, "", f"The {self.spec.render.TABLE_UNIT} is over.", self._between_rounds()])
            self.screen.prompt()
            return
        if has_sessions(self.spec):  # Enid's chain of names carries on
            after = f"{again} for the {next_label(self.spec).lower()} of this session, or add --new to start a new session."
        else:
            after = f"{again} for a new one."
        self.screen.show(["", *board, "", f"The game is over. {after}"])

    # ------------------------------------------------------------------ the core

    async def _open(self) -> None:
        self.storage = open_storage(self.options.data_dir)
        self.spec = catalog.spec(self.options.game)
        games = catalog.registry((self.options.game,))
        self.core = TerminalCore(self.storage, games, self, owns=lambda guild: guild == self.guild, timed=self.options.timers)
        await self._store_settings()

    @property
    def guild(self) -> int:
        return guild_of(self.options.game)

    async def _store_settings(self) -> None:
        """The core reads a table's house rules and the computers' pause from its
        server's settings: this game's "server" gets the command line's."""
        async with self.storage.transaction(self.guild) as db:
            await repos.set_guild_setting(db, "bot_pause", self.options.pause)
            for rule in self.spec.house_rules:
                chosen = self.options.rules.get(rule.key, rule.default)
                await repos.set_guild_setting(db, f"house:{self.spec.key}:{rule.key}", chosen)

    async def _start_or_resume(self) -> None:
        await self._warm_up()
        await self.core.restore_all()
        table = self.core.table_at(self.guild, PLACE)
        if self.options.new and has_sessions(self.spec):
            async with self.storage.transaction(self.guild) as db:
                await repos.clear_carryover(db, PLACE, self.spec.key)  # a new session, too
        if table is not None and (self.options.new or table.status != "playing"):
            # --new, or a lobby left by a start that was interrupted: deal afresh.
            await self.core.cancel_table(table, YOU)
            if table.status == "cancelled" and self.options.new:
                self.screen.say(f"The saved game of {self.spec.title} is abandoned; here is a new one.")
            table = None
        if table is None:
            try:
                self.table = await self._deal()
            except TableError as refusal:
                raise Unplayable(str(refusal)) from None
            return
        self.table = table
        self._name_seats()
        differs = [p for p in table.record.players if p != YOU] != self._computers_asked() or not self._same_rules()
        self.screen.say(
            f"Resuming your saved game of {self.spec.title} ({len(table.state.players)} players)."
            + (" It keeps its own players and rules: add --new to deal a fresh game with the ones you asked for." if differs else "")
        )

    async def _deal(self) -> Any:
        options = {k: v for k, v in self.options.rules.items() if self.spec.house_rule(k) is None}
        table = await self.core.open(self.guild, PLACE, self.spec.key, YOU, options)
        for level in self.options.computers:
            await self.core.seat_computer(table, YOU, level)
        self.table = table
        self._name_seats()
        outcome = await self.core.begin(table, YOU, seed=self.options.seed)
        players = ", ".join(self.names[p] for p in table.state.players)
        round_no = getattr(table.state, "round_no", 1)
        if self._in_rounds() and round_no > 1:  # a session's later round: the carry came in
            self.screen.show(["", f"Round {round_no} of this session of {self.spec.title}: {players}."])
            self.unshown += outcome.events
            return table
        timers = ("Timers are on, as on Discord." if self.options.timers
                  else "No timers: take your time (the rules' seconds apply only with --timers).")
        self.screen.show([f"A new game of {self.spec.title}: {players}.", timers, *self._words_note(table),
                          "Type help for how to play here, rules for the rules."])
        self.unshown += outcome.events
        return table

    def _words_note(self, table: Any) -> list[str]:
        """For a game that hears typed words (Enid): what to type, said once at the start."""
        if not self.spec.accepts_chat:
            return []
        if table.record.options.get("mode") == "plain":
            return ["Plain Blackjack: when you lay your last-but-one card, type Last card (or add it after the move's number: 3 Last card)."]
        return ["In Enid you name every card you lay: type its name after the move's number (1 Terry Winograd of Sturgeon) "
                "or on a line of its own; once it is laid, your hand says what it is called. rules lists the names; "
                "--rule beginner_names=yes shows them beside all your cards, =no leaves them to your memory."]

    async def _warm_up(self) -> None:
        """Load what the computer players load before their first move (Enid's pronouncing
        dictionary, a few seconds), saying so, rather than leave a silent table."""
        if not has_ai(self.spec.key) or game_ai(self.spec.key).warm_up is None:
            return
        self.screen.say("Loading what the computer players need (a few seconds)…")
        await asyncio.to_thread(game_ai(self.spec.key).warm_up)

    def _computers_asked(self) -> list[int]:
        seats: list[int] = []
        for level in self.options.computers:
            seats.append(computer.new_seat([YOU, *seats], level))
        return seats

    def _same_rules(self) -> bool:
        saved = self.table.record.options
        return all(saved.get(key) == value for key, value in self.options.rules.items())

    def _name_seats(self) -> None:
        seated = [*self.table.record.players, *(self.table.state.players if self.table.state else ())]
        for player in seated:
            if player != YOU:
                self.names[player] = computer.name(player)

    async def _close(self) -> None:
        if self.core is not None:
            await self.core.close()
        if self.storage is not None:
            await self.storage.close()

    async def _move(self, action: Action) -> bool:
        try:
            outcome = await self.core.play(self.table, YOU, action.code(), self.listed_at)
        except TableError as refusal:
            self.screen.say(str(refusal))
            self.screen.prompt()
            return False
        self._told(outcome)
        return True

    async def _say(self, words: str) -> None:
        try:
            outcome = await self.core.say(self.table, YOU, words)
        except TableError as refusal:
            self.screen.say(str(refusal))
            self.screen.prompt()
            return
        self._told(outcome)

    def _spectator_view(self) -> dict[str, Any]:
        observation = self.core.view(self.table, None).observation
        obligations = self.table.record.obligations
        if self.options.timers and obligations:  # as the Discord board has them: each ritual's deadline
            observation = {**observation, "deadlines": {key: int(due) for key, (_, due) in obligations.items()}}
        return observation

    def _ballots(self) -> list[Any]:
        ballots = getattr(self.spec.render, "ballots", None)
        return list(ballots(self._spectator_view(), self.names)) if callable(ballots) else []

    def _over(self) -> bool:
        return self.ended

    def _told(self, outcome: Any) -> None:
        self.unshown += outcome.events
        self.ended = self.ended or outcome.over

    # ------------------------------------------------------------------ told by the core (TableListener)

    async def moved(self, table: Any, outcome: Any) -> None:
        """A computer moved, or a timer fired."""
        self._told(outcome)
        self.happenings.put_nowait(_CHANGED)

    async def said(self, table: Any, seat: int, text: str) -> None:
        """A computer's words: the rules' "said" event in ``moved`` shows them."""

    async def closed(self, table: Any, why: str) -> None:
        self.screen.say(why)
        self.ended = True
        self.happenings.put_nowait(_CHANGED)


class TerminalCore(TableCore):
    """The table core without timers when ``timed`` is False (``--timers`` is off by
    default: a person at a terminal takes their time): no turn timers and no ritual
    deadlines; computer seats still move whenever the core would arm the timers."""

    def __init__(self, *args: Any, timed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timed = timed

    def _arm(self, table: Any) -> None:
        if self._closing:
            return
        if self.timed:
            super()._arm(table)
            return
        self.timers.cancel(table, computer_too=False)
        if table.record.status == "playing":
            computer.schedule(self, table)


#: The log of a terminal game (the core's warnings, a storage failure's details), kept
#: out of the game's screen.
LOG_FILE = "play.log"


def _log_to_file(data_dir: Path) -> None:
    handler = logging.FileHandler(data_dir / LOG_FILE, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)


def run(options: PlayOptions, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    try:
        options.data_dir.mkdir(parents=True, exist_ok=True)
        _log_to_file(options.data_dir)
    except OSError as error:
        print(f"deckhand play: {options.data_dir} cannot be used ({error.strerror or error}): choose another --data-dir.", file=sys.stderr)
        return 2
    try:
        return asyncio.run(TerminalGame(options, stdin or sys.stdin, out or sys.stdout).run())
    except Unplayable as refusal:  # the game could not be dealt
        print(f"deckhand play: {refusal}", file=sys.stderr)
        return 2
    except StorageError as error:  # the saved games cannot be read or written
        print(f"deckhand play: the saved games under {options.data_dir} cannot be used ({error}); "
              "move that folder aside or choose another --data-dir to start afresh.", file=sys.stderr)
        return 1
