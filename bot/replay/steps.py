"""A finished game cut into the steps a spectator saw, from its record and action log.

:func:`build` deals the game again from its seed and options and plays its log through
the rules (as ``bot/core/restore.py`` does after a restart), keeping after each move
only what was public: the spectator observation (``observation(None)``) and each
event's public part (``Event.visible_to(None)``). A move that left the spectator
observation exactly as it was (nothing visible changed) joins the step before it, so
stepping never shows the same picture twice; the deal is a step of its own.

What a step shows is drawn by the game's render module, from those public values
only: :meth:`Replay.lines` (what happened, as the table's log said it),
:meth:`Replay.board` (the board's words, a ``table_embed``), :meth:`Replay.rows` (the
card picture's rows, ``table_cards``) and, on the last step, :meth:`Replay.ending`
(the game's own account of its end, e.g. Cripple Mr Onion's showdown). A step is
found by its index or by a move number (:meth:`Replay.step_at`, the "move N" of the
board's footer), which stays valid whatever the grouping.
"""

from __future__ import annotations

import copy
import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core import computer, leavers
from bot.core.games import GameSpec, card_rows, table_words
from bot.core.moves import logged_events
from bot.rules.engine import Event, Game, RuleError
from bot.words.i18n import _, ngettext
from bot.words.panel import Panel
from storage.repos import FORMER_PLAYERS, TableRecord


class NoReplay(Exception):
    """A game that cannot be replayed; ``str()`` is one sentence a player can read."""


class ReplayBroken(NoReplay):
    """The stored moves no longer replay to the stored end (a move refused, or another
    result): the game was played under other rules. Nothing of it is shown."""


@dataclass(frozen=True, slots=True)
class Move:
    """One logged action as a replay keeps it: its number in the game's log (the
    board's "move N"), who made it, and the public part of its events. ``seat_change``:
    a player left or a computer took their seat (the table's log said so too)."""

    number: int
    player: int
    events: tuple[Event, ...]
    seat_change: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One moment of the game: ``observation`` is the spectator's after ``moves`` (none
    for the deal, step 0). ``index`` counts steps from 0."""

    index: int
    moves: tuple[Move, ...]
    observation: Mapping[str, Any]

    @property
    def first_move(self) -> int:
        """The number of the step's first move (0 for the deal)."""
        return self.moves[0].number if self.moves else 0

    @property
    def last_move(self) -> int:
        """The number of the step's last move (0 for the deal): the moment it shows."""
        return self.moves[-1].number if self.moves else 0


def public(events: Sequence[Event]) -> tuple[Event, ...]:
    """Copies of ``events`` holding only what a spectator was shown of each."""
    return tuple(Event(e.kind, e.player, _snapshot(dict(e.visible_to(None)))) for e in events)


_MENTION = re.compile(r"<@!?(\d+)>")


class Replay:
    """A finished game's steps, and how to show each one with its game's render module.

    Built by :func:`build` (or ``bot.replay.opening.open_replay`` from storage). It holds
    no hidden card: only spectator observations and public event data."""

    def __init__(
        self, spec: GameSpec, *, guild_id: int, table_id: int, players: Sequence[int], steps: Sequence[Step],
        opening: Sequence[Event] = (), finished_at: float | None = None, place: int | None = None,
        picture_names: Mapping[int, str] | None = None,
    ) -> None:
        if not steps:
            raise ValueError("a replay has at least the deal")
        self.spec = spec
        self.guild_id, self.table_id = guild_id, table_id
        #: Everyone who sat at the table, in seat order (computers who took a seat last).
        self.players = tuple(players)
        self.steps = tuple(steps)
        self.opening = tuple(opening)
        self.finished_at = finished_at
        #: Where the game was played (its thread, else its channel), when known.
        self.place = place
        #: People's names as the game's pictures drew them (plain text, kept by the
        #: front end while it was played; a forgotten person has none), by player.
        self.picture_names = dict(picture_names or {})
        self._move_steps = [step.last_move for step in self.steps]

    # ------------------------------------------------------------------ finding a step

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def moves(self) -> int:
        """How many moves the game had."""
        return self.steps[-1].last_move

    @property
    def last(self) -> Step:
        return self.steps[-1]

    def step(self, index: int) -> Step:
        """Step ``index``, held to the first and the last."""
        return self.steps[max(0, min(int(index), len(self.steps) - 1))]

    def step_at(self, move: int) -> Step:
        """The step that shows move number ``move`` (0 or less: the deal; past the last
        move: the end)."""
        return self.step(bisect_left(self._move_steps, max(0, int(move))))

    # ------------------------------------------------------------------ showing a step

    def names(self, person: Callable[[int], str] = computer.name) -> dict[int, str]:
        """How to name each player in this replay's words: ``person(id)`` for people (a
        Discord mention by default), a computer by its name, and someone who asked to be
        forgotten (``bot/players/privacy.py``) as "a former player", whatever ``person`` says."""
        return {p: person(p) if _is_person(p) else computer.name(p) for p in self.players}

    def plain_names(self) -> dict[int, str]:
        """Names for a picture (plain text): people as the game's pictures drew them
        (:attr:`picture_names`; one with none is left out, their row says "Seat N"),
        computers by name, a forgotten person as "a former player"."""
        from bot.pictures import cardart  # (the picture's font: what it cannot draw is left out)

        shown = {p: cardart.drawable(self.picture_names[p] if _is_person(p) else computer.name(p)).strip()
                 for p in self.players if not _is_person(p) or p in self.picture_names}
        return {p: text for p, text in shown.items() if text}

    def lines(self, step: Step, names: Mapping[int, str]) -> list[str]:
        """What happened in ``step``, one line each, as the table's log said it: the
        same lines, in the same order (``bot/core/moves.py``), from the public events."""
        render = self.spec.render
        if step.index == 0 and not step.moves:
            lines = [_("The game begins."), *render.event_lines(list(self.opening), names)]
        else:
            lines = []
        for move in step.moves:
            if move.seat_change:
                lines += leavers.seat_lines(move.events)
            lines += render.event_lines(logged_events(move.events), names)
        return [_former_mentions(line) for line in lines]

    def quiet_lines(self, step: Step, names: Mapping[int, str]) -> list[str]:
        """Words for the moves of ``step`` the table's log said nothing of (the board
        showed them), from the render module's ``quiet_line(event, observation, names)``
        where the game has one (Onion: "declares nothing"); [] otherwise. Not part of
        :meth:`lines`, which says only what the log said."""
        quiet = getattr(self.spec.render, "quiet_line", None)
        if quiet is None:
            return []
        said = [quiet(event, step.observation, names) for move in step.moves
                if not self.spec.render.event_lines(logged_events(move.events), names) for event in move.events]
        return [_former_mentions(line) for line in said if line]

    def heading(self, step: Step) -> str:
        """Where ``step`` is in the game: "The deal", "Move 12 of 140", "Moves 12-14 of 140"."""
        if not step.moves:
            return _("The deal")
        if step.first_move == step.last_move:
            return _("Move {move} of {total}", move=step.last_move, total=self.moves)
        return _("Moves {first}–{last} of {total}", first=step.first_move, last=step.last_move, total=self.moves)

    def board(self, step: Step, names: Mapping[int, str], recent: Sequence[str] = (), *, pictures: bool = False) -> Panel:
        """The board's words at ``step``: the render module's ``table_embed`` of its
        spectator observation (a :class:`bot.words.panel.Panel`: a text front end reads its
        title, description, fields and footer, as ``bot/terminal/text.py`` does).
        ``pictures``: the step shows the card picture, so the words leave out what it shows,
        as the live board does."""
        return table_words(self.spec.render, step.observation, names, list(recent), pictures=pictures)

    def rows(self, step: Step, names: Mapping[int, str] | None = None) -> list[Any]:
        """The card picture's rows at ``step`` (``bot.pictures.cardart.CardRow``), from its
        spectator observation; [] for a game without pictures. ``names``: plain-text
        names for the row labels (an image cannot show a mention)."""
        return card_rows(self.spec.render, "table_cards", step.observation, names)

    def ending(self, step: Step) -> str | None:
        """On the last step, the game's own account of its end, when its render module
        words one (``final_text``: Cripple Mr Onion's showdown, who beat whom with what)."""
        own = getattr(self.spec.render, "final_text", None)
        if step is not self.last or own is None:
            return None
        text = own(step.observation)
        return _former_mentions(text) if text else None

    def describe(self) -> str:
        """The game in a few words: "Idiot #12, 140 moves"."""
        return ngettext("{title} #{id}, {n} move", "{title} #{id}, {n} moves", self.moves, title=self.spec.title, id=self.table_id)


def _is_person(player: int) -> bool:
    return not computer.is_computer(player) and player not in FORMER_PLAYERS


def _former_mentions(text: str) -> str:
    """A mention of a former player typed in the game (Enid's Church names its target)
    reads "a former player": their id reaches nobody, and a mention would show as an
    unknown user."""
    if "<@" not in text:
        return text
    return _MENTION.sub(lambda m: computer.name(int(m.group(1))) if int(m.group(1)) in FORMER_PLAYERS else m.group(0), text)


# ---------------------------------------------------------------------- building


def build(spec: GameSpec, record: TableRecord, log: Sequence[tuple[int, str, Any]], *, guild_id: int = 0) -> Replay:
    """The steps of a finished game from its record (seed, options, players) and its
    action log (``storage.repos.actions_for``: (user, code, source) in order).

    Raises :class:`ReplayBroken` when the log does not replay to the stored end: a move
    the rules refuse, a game not over after its last move, or other placements than
    the stored final state's (it was played under other rules)."""
    if record.seed is None:
        raise ReplayBroken(_("This game was stored without its deal, so it cannot be replayed."))
    game = spec.game
    try:
        # Game.new may take keys out of its options (a session's carry): it gets a copy.
        state = game.new(list(record.players), copy.deepcopy(record.options), seed=record.seed)
    except (RuleError, ValueError, KeyError, TypeError) as error:
        raise ReplayBroken(_("This game can no longer be dealt again ({why}), so it cannot be replayed.", why=str(error)[:200])) from None
    opening = public(state.opening_events)
    players = list(dict.fromkeys(record.players))
    seen = _snapshot(state.observation(None))
    steps: list[Step] = [Step(0, (), seen)]
    for number, (user, code, _source) in enumerate(log, start=1):
        move = _replayed(state, game, number, user, code)
        for p in state.players:
            if p not in players:
                players.append(p)  # a computer that took a seat
        after = _snapshot(state.observation(None))
        last = steps[-1]
        if after == seen and last.moves:
            steps[-1] = Step(last.index, (*last.moves, move), after)
        else:
            steps.append(Step(len(steps), (move,), after))
        seen = after
    if not state.is_over():
        raise ReplayBroken(_("This game's stored moves end before the game does, so it cannot be replayed."))
    if record.state is not None and not _same_end(game, record.state, state):
        raise ReplayBroken(_("This game's moves no longer lead to its recorded result (it was played under other rules), so it cannot be replayed."))
    kept = record.publish.get("names") if isinstance(record.publish, dict) else None
    drawn = {p: str(kept[str(p)]) for p in players if isinstance(kept, dict) and _is_person(p) and str(p) in kept}
    return Replay(spec, guild_id=guild_id, table_id=record.id, players=players, steps=steps, opening=opening,
                  finished_at=record.updated_at, place=record.place, picture_names=drawn)


def _snapshot(value: Any) -> Any:
    """A copy of a JSON-like observation that later moves cannot change: a rules engine
    may put its own lists and dicts in an observation (Engines' reveal), which the next
    move changes in place. Dicts and lists are copied (their keys kept as they are, not
    turned to strings as a JSON round trip would); other values are immutable."""
    if type(value) is dict:
        return {key: _snapshot(item) for key, item in value.items()}
    if type(value) is list or type(value) is tuple:
        return [_snapshot(item) for item in value] if type(value) is list else tuple(_snapshot(item) for item in value)
    return value


def _replayed(state: Game, game: type[Game], number: int, user: int, code: str) -> Move:
    """Move ``number`` applied to ``state``, as the core applied it: a leave or a seat
    handed to a computer (``bot/core/computer.py`` logs them) or a move of the rules."""
    try:
        action = game.parse_action(code)
        if action.kind == "leave":
            return Move(number, user, public(state.remove_player(user)), seat_change=True)
        if action.kind == "replace":
            return Move(number, user, public(state.replace_player(user, int(action.arg))), seat_change=True)
        return Move(number, user, public(state.apply(user, action)))
    except (RuleError, ValueError, KeyError, TypeError) as error:
        raise ReplayBroken(_("Move {n} of this game is refused by today's rules ({why}), so it cannot be replayed.",
                             n=number, why=str(error)[:200])) from None


def _same_end(game: type[Game], stored: str, replayed: Game) -> bool:
    """Whether the replayed game ends as the stored final state does (the same
    placements). An unreadable stored state cannot say otherwise."""
    try:
        recorded = game.from_json(stored)
    except Exception:  # rewritten or damaged: the log is the record
        return True
    return recorded.placements() == replayed.placements()
