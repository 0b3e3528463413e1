"""The contract every game's rules implement (shaped like OpenSpiel's State).

A rules module (``cogs/<game>/rules.py``) subclasses :class:`Game`. It is pure: no
Discord, asyncio, sqlite or wall clock. The platform (``bot/discord_front/tables/``) only ever
talks to a game through this interface, so a new game drops in without platform work.

- ``Game.new(players, options, seed=...)`` or ``Game.new(players, options, deal=...)``
  (a stacked deal, for tests and worked examples).
- ``current_players()`` is a frozenset: one player in a turn, several in a
  simultaneous phase (hidden picks, swap phases, votes), none once the game is over.
- ``legal_actions(player)`` lists what that player may do now.
- ``apply(player, action)`` validates, then changes the state and returns events. An
  out-of-turn, stale or illegal action raises a :class:`RuleError` whose message a
  player can read, and leaves the state exactly as it was.
- ``observation(player)`` is all that player may see; ``observation(None)`` is the
  spectator's view (what is public). Hands are rendered only from observations.
- ``to_dict()`` / ``from_dict()`` round-trip through JSON.
- Time never enters the rules: a rule with a time limit emits an ``obligation``
  event carrying ``seconds``; the platform arms a timer and, when it fires, applies
  ``Action("timeout", arg=<obligation id>)``. Typed chat arrives as
  ``Action("say", arg=<text>)``.
"""

from __future__ import annotations

import functools
import inspect
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from bot.rules.cards import Card, card_codes, parse_card
from bot.words.i18n import _


# --------------------------------------------------------------------------- errors


class RuleError(ValueError):
    """An action the rules refuse. ``str(error)`` is a sentence for the player."""


class NotYourTurn(RuleError):
    pass


class IllegalAction(RuleError):
    pass


class GameOver(RuleError):
    pass


class UnknownPlayer(RuleError):
    pass


class BadActionCode(RuleError):
    pass


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Action:
    """A small value naming one thing a player does.

    ``kind`` is a verb ("play", "draw", "end", "suit", "pick", "swap", "ready",
    "say", "timeout", ...); ``cards`` the cards it involves, in order; ``arg`` any
    other choice (a suit letter, a position, typed text). Actions have a compact
    code for custom_ids and logs: ``play:9h.9c``, ``suit:h``, ``draw``.
    """

    kind: str
    cards: tuple[Card, ...] = ()
    arg: str = ""

    def code(self) -> str:
        # ``kind``, then the cards' codes joined by ".", then ``arg``, joined by ":"
        # (the cards' part is there, maybe empty, whenever an arg follows). Written
        # out: every control of every hand names its action by code (~15 a hand).
        if not self.cards and not self.arg:
            return self.kind
        cards = ".".join(map(str, self.cards))
        return f"{self.kind}:{cards}:{self.arg}" if self.arg else f"{self.kind}:{cards}"

    __str__ = code

    @classmethod
    def parse(cls, code: str, card_parser: Callable[[str], Any] = parse_card) -> Action:
        """Inverse of :meth:`code`. Raises :class:`BadActionCode` on nonsense.
        ``card_parser`` reads one card code (a game with its own deck passes its own;
        it raises a ``ValueError`` with a player-readable message)."""
        kind, _colon, rest = code.partition(":")
        if not kind or not kind.replace("_", "").replace("-", "").isalnum():
            raise BadActionCode(_("'{code}' is not an action this bot understands.", code=code))
        cards_text, _colon, arg = rest.partition(":")
        try:
            cards = tuple(card_parser(c) for c in cards_text.split(".") if c)
        except ValueError as error:
            raise BadActionCode(str(error)) from None
        return cls(kind, cards, arg)

    @classmethod
    def play(cls, *cards: Card | str, arg: str = "") -> Action:
        return cls("play", tuple(c if isinstance(c, Card) else parse_card(c) for c in cards), arg)


# Not frozen: a frozen dataclass sets each field through object.__setattr__, which made
# building an Event about three times slower, and games build two per move in every
# playout a computer player searches. Events are still never changed after creation.
@dataclass(slots=True)
class Event:
    """Something that happened, for the channel log and for the platform.

    ``data`` is JSON-safe. ``private`` events (a card drawn, a hidden pick) carry
    details only the named player may see; renderers show others ``public_data``.
    Platform-relevant kinds: ``turn`` (turn passed), ``obligation`` (data has
    ``id``, ``seconds``), ``player_removed``, ``game_over``.
    """

    kind: str
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    private: bool = False
    public_data: Mapping[str, Any] = field(default_factory=dict)

    def visible_to(self, viewer: int | None) -> Mapping[str, Any]:
        """The data ``viewer`` may see (None: the channel / a spectator)."""
        if not self.private or (viewer is not None and viewer == self.player):
            return self.data
        return self.public_data


_new_object = object.__new__


def new_event(
    kind: str,
    player: int | None = None,
    data: Mapping[str, Any] | None = None,
    private: bool = False,
    public_data: Mapping[str, Any] | None = None,
) -> Event:
    """``Event(kind, player, data, private, public_data)``, an equal Event built faster,
    for the per-move paths of rules engines (a playout builds several per move).

    Calling the class goes through type.__call__ and the dataclass ``__init__`` (its
    default factories included); setting the slots on a bare instance skips both.
    ``data``/``public_data`` left out are fresh empty dicts, as the field defaults are.
    """
    event = _new_object(Event)
    event.kind = kind
    event.player = player
    event.data = {} if data is None else data
    event.private = private
    event.public_data = {} if public_data is None else public_data
    return event


def changes_state(method: Callable[..., list[Event]]) -> Callable[..., list[Event]]:
    """Mark a :class:`Game` method that changes the state (``_apply``,
    ``remove_player``): the game's ``_legal_cache`` is dropped when it starts and
    again when it ends, even by an exception, so whatever was listed before or in the
    middle of the move is never served for the new state."""

    # The usual shapes, (self, player, action) and (self, player), get wrappers with
    # those exact parameters: forwarding ``*args`` is a slower kind of call in
    # CPython (the tuple is packed and unpacked, and the call is not inlined), and
    # ``_apply`` runs once per move of every playout a search tries.
    code = getattr(method, "__code__", None)
    plain = (
        code is not None
        and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
        and not code.co_kwonlyargcount
        and not getattr(method, "__defaults__", None)
    )
    if plain and code.co_argcount == 3:

        def changing(self: Any, first: Any, second: Any) -> list[Event]:
            self._legal_cache = None
            try:
                return method(self, first, second)
            finally:
                self._legal_cache = None

    elif plain and code.co_argcount == 2:

        def changing(self: Any, first: Any) -> list[Event]:  # type: ignore[misc]
            self._legal_cache = None
            try:
                return method(self, first)
            finally:
                self._legal_cache = None

    else:

        def changing(self: Any, *args: Any) -> list[Event]:  # type: ignore[misc]
            self._legal_cache = None
            try:
                return method(self, *args)
            finally:
                self._legal_cache = None

    return functools.wraps(method)(changing)


# --------------------------------------------------------------------------- games


class Game(ABC):
    """Base class of every rules engine. Subclasses implement the ``_``-less hooks
    marked abstract; :meth:`apply` wraps validation so no game forgets it."""

    #: Short key used in commands and storage: "blackjack".
    key: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    players: list[int]

    #: Events that happened while dealing (a first card turned, a cut for the first
    #: player). ``new()`` may set this on the instance; the platform logs them at
    #: Start. Not persisted: they matter only at the moment the game begins.
    opening_events: Sequence[Event] = ()

    # -- construction ----------------------------------------------------------

    @classmethod
    @abstractmethod
    def new(
        cls,
        players: Sequence[int],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> Self:
        """A fresh game. Exactly one of ``seed`` (shuffled deal) or ``deal``
        (stacked: the game's own documented shape) must be given."""

    @classmethod
    def check_player_count(cls, players: Sequence[int]) -> None:
        if len(set(players)) != len(players):
            raise RuleError(_("A player cannot take two seats in one game."))
        if not cls.min_players <= len(players) <= cls.max_players:
            raise RuleError(
                _(
                    "{title} needs {low} to {high} players; this game has {count}.",
                    title=cls.title, low=cls.min_players, high=cls.max_players, count=len(players),
                )
            )

    # -- queries -----------------------------------------------------------------

    @abstractmethod
    def current_players(self) -> frozenset[int]: ...

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]: ...

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def placements(self) -> list[list[int]]:
        """Finishing order once over: groups of tied players, best first."""

    @abstractmethod
    def observation(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator). JSON-safe."""

    # -- the platform's defaults -----------------------------------------------

    @abstractmethod
    def timeout_action(self, player: int) -> Action:
        """What the platform applies for ``player`` when their turn timer expires."""

    @abstractmethod
    def remove_player(self, player: int) -> list[Event]:
        """Take ``player`` out (left, kicked, or idle too long). The game carries on,
        or ends with a ``game_over`` event when too few players remain. Never raises
        for a seated player."""

    @changes_state
    def replace_player(self, old: int, new: int) -> list[Event]:
        """Seat ``new`` (a computer player) in ``old``'s place, mid-game: the same
        cards, the same position, the same obligations, the same team. Every
        per-player structure is re-keyed, so afterwards ``old`` is gone from the game
        and ``observation(new)`` equals what ``observation(old)`` was, with the id
        changed. Returns a ``player_replaced`` event. Raises :class:`RuleError`
        (nothing changed) when the game is over, ``old`` is not playing, ``new`` is
        already known to the game, or the game cannot hand a seat over."""
        if self.is_over():
            raise GameOver(_("This game is over."))
        seated = getattr(self, "active_players", None)
        if old not in (seated() if callable(seated) else self.players):
            raise UnknownPlayer(_("That player is not playing in this game."))
        if new in self.players or new in getattr(self, "removed", ()):
            raise RuleError(_("That seat's replacement is already in this game."))
        self._replace_player(old, new)
        return [Event("player_replaced", new, {"old": old, "new": new})]

    def _replace_player(self, old: int, new: int) -> None:
        """Re-key ``old``'s seat to ``new`` (already checked by :meth:`replace_player`).
        Pure; games implement it near the end of their ``rules.py``."""
        raise RuleError(_("{title} cannot hand a seat over to another player.", title=self.title))

    @classmethod
    def can_replace(cls) -> bool:
        """Whether this game implements :meth:`replace_player`."""
        return cls._replace_player is not Game._replace_player

    def seat_choice(self, player: int) -> str | None:
        """For games whose lobby offers seat choices (``spec.seat_choices``): the choice
        the game gave ``player`` at Start ("google" for someone who joined "either side"),
        so a lobby card of a running or finished game shows where they sat."""
        return None

    def carry_out(self) -> dict[str, Any]:
        """State that outlives one game in a channel (a session): name chains,
        bankrolls, the dealer. Fed back as ``options["carry"]`` to the next game."""
        return {}

    # -- moves ---------------------------------------------------------------------

    #: Reads one card code of this game's deck (Onion's eight suits override it).
    parse_card: ClassVar[Callable[[str], Any]] = staticmethod(parse_card)

    @classmethod
    def parse_action(cls, code: str) -> Action:
        """An action code (a custom_id's, a log row's) read with this game's cards."""
        return Action.parse(code, cls.parse_card)

    def apply(self, player: int, action: Action) -> list[Event]:
        """Validate then play ``action`` for ``player``; see the module docstring."""
        self.validate(player, action)
        return self._apply(player, action)

    def validate(self, player: int, action: Action) -> None:
        """``legal_actions`` is the authority. A player outside ``current_players``
        may still have legal actions (an obligation to meet, a ritual to type)."""
        if self.is_over():
            raise GameOver(_("This game is over."))
        if player not in self.players:
            raise UnknownPlayer(_("You are not playing in this game."))
        if action in self.legal_actions(player):
            return
        if player not in self.current_players():
            raise NotYourTurn(self.why_not_your_turn(player))
        raise IllegalAction(self.why_illegal(player, action))

    def why_not_your_turn(self, player: int) -> str:
        return _("It is not your turn.")

    def why_illegal(self, player: int, action: Action) -> str:
        """A sentence explaining why ``action`` is refused; games refine this."""
        return _("You cannot do that now ({code}).", code=action.code())

    @abstractmethod
    def _apply(self, player: int, action: Action) -> list[Event]:
        """Apply an action already known to be legal."""

    # -- the legal-actions cache -------------------------------------------------------

    #: What a game remembers about the current state to answer ``legal_actions`` fast
    #: (its shape is the game's own: one list, or a dict per player); None = nothing
    #: yet. Only methods marked :func:`changes_state` (``_apply``, ``remove_player``)
    #: change a game after ``new()``/``from_dict()``, and they drop it on entry and on
    #: exit, so it never outlives the state it describes.
    _legal_cache: Any = None

    # -- persistence ---------------------------------------------------------------

    @abstractmethod
    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self: ...

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Self:
        return cls.from_dict(json.loads(text))

    def clone(self) -> Self:
        """An independent copy, for search (computer players try moves on copies).
        This default is a ``to_dict``/``from_dict`` round trip: correct but slow, so
        games override it with plain container copies."""
        return type(self).from_dict(self.to_dict())


def cards_to_codes(cards: Sequence[Card]) -> list[str]:
    return card_codes(cards)


def codes_to_cards(codes: Sequence[str]) -> list[Card]:
    return [parse_card(c) for c in codes]


# --------------------------------------------------------------------------- seat swaps
# Helpers for ``Game._replace_player``: ``old``'s id becomes ``new`` in place, order kept.


def swap_id(value: Any, old: int, new: int) -> Any:
    """``new`` if ``value`` is ``old`` (an id, not a flag), else ``value`` unchanged."""
    return new if value == old and not isinstance(value, bool) else value


def swap_ids(values: Sequence[Any], old: int, new: int) -> list[Any]:
    """A list of ids with ``old`` replaced by ``new`` where it stands."""
    return [swap_id(v, old, new) for v in values]


def swap_keys(mapping: Mapping[Any, Any], old: int, new: int) -> dict[Any, Any]:
    """A dict keyed by ids (ints, or their strings in JSON-shaped data) with ``old``'s
    key renamed to ``new``'s, in the same position."""
    out: dict[Any, Any] = {}
    for key, value in mapping.items():
        if key == old and not isinstance(key, bool):
            key = new
        elif isinstance(key, str) and key == str(old):
            key = str(new)
        out[key] = value
    return out


def swap_in_record(record: Any, old: int, new: int, keys: frozenset[str], *, _ids: bool = False) -> Any:
    """A copy of JSON-shaped ``record`` (dicts, lists, scalars) where ``old`` becomes
    ``new`` wherever it is an id: anywhere under one of ``keys`` (an id, a list of ids,
    a dict of ids), and as a dict key. Values under other keys are copied untouched,
    so a count that happens to equal an id is never changed."""
    if isinstance(record, Mapping):
        return {k: swap_in_record(v, old, new, keys, _ids=_ids or k in keys) for k, v in swap_keys(record, old, new).items()}
    if isinstance(record, list):
        return [swap_in_record(v, old, new, keys, _ids=_ids) for v in record]
    return swap_id(record, old, new) if _ids else record


# --------------------------------------------------------------------------- UI hints


@dataclass(frozen=True, slots=True)
class HouseRule:
    """A per-server switch where players genuinely disagree about a rule.

    Declared by the rules module (``HOUSE_RULES``), stored per guild, passed to
    ``Game.new`` inside ``options`` under ``key``.
    """

    key: str
    description: str
    choices: tuple[str, ...]
    default: str
    #: One sentence per choice, in the order of ``choices``, that reads on its own (what
    #: players see in the lobby and in /settings instead of ``key: value``); empty for
    #: an undescribed rule.
    choice_descriptions: tuple[str, ...] = ()

    def _described(self, choice: str) -> bool:
        return choice in self.choices and len(self.choice_descriptions) == len(self.choices)

    def describe(self, choice: str) -> str:
        """The sentence for ``choice`` in the current language, or the choice itself
        (a key) when there is none. Games mark their sentences with ``N_()``."""
        if self._described(choice):
            return _(self.choice_descriptions[self.choices.index(choice)])
        return choice

    def sentence(self, choice: str) -> str:
        """``choice`` as a sentence for a lobby or /settings: its own sentence, or the
        rule's description with the choice in bold when it has none."""
        if self._described(choice):
            return self.describe(choice)
        return _("{description} (**{choice}**)", description=_(self.description), choice=choice)


@dataclass(frozen=True, slots=True)
class Control:
    """One control in a player's hand view, described without Discord.

    ``place`` is "select" (a card-like choice, listed in a paged select menu) or
    "button". ``style`` is one of primary, secondary, success, danger. The shared
    hand view (``bot/discord_front/views.py``) turns these into components.

    Two more places, where the player composes the move:

    - "amount": a button opening a form with one number field; the submitted number
      n is played as ``<action.kind>::<n>`` (any amount, beside quick-amount buttons).
    - "multi": a select of ``choices`` ((card code, label) pairs) taking 1 to
      ``max_values`` of them, played as ``<action.kind>:<c1>.<c2>...`` (a discard).
    """

    action: Action
    label: str
    place: str = "button"
    style: str = "secondary"
    description: str = ""
    emoji: str | None = None
    choices: tuple[tuple[str, str], ...] = ()
    max_values: int = 1
