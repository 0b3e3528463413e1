"""How a game plugs into the platform: a :class:`GameSpec` per game.

Each game cog builds one ``GameSpec`` from its pure rules class and its render
module and registers it with the table manager. Everything else (lobbies, hands,
timers, storage, restore) is shared platform code in ``bot/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
import functools
import inspect
import sys
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, Protocol

from bot.core import seats
from bot.rules.engine import Action, Control, Event, Game, HouseRule
from bot.words.i18n import _
from bot.words.panel import Panel

#: A game's rules text for players (what ``/rules`` shows): this file in the game's
#: package, beside its rules module (``cogs/<game>/rules.md``, in the checkout a link to
#: ``docs/rules/<game>.md``, where the texts are edited). It is package data,
#: read with importlib.resources, so a plain ``pip install .`` or a wheel carries it.
RULES_FILE = "rules.md"


class GameRender(Protocol):
    """What ``cogs/<game>/render.py`` provides. Inputs are observations (never the
    full state), so nothing hidden can leak into a message by construction.

    ``names`` maps player id to how to show them (the Discord front end passes mentions,
    which Discord shows as names without pinging anyone).
    """

    def table_embed(
        self, observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *, pictures: bool = False,
        first_line: bool = False,
    ) -> Panel:
        """The public table, from the spectator observation. While obligations are
        open the platform adds ``observation["deadlines"]``: {obligation id: unix time}.
        ``pictures``: the board carries the card picture, so the text leaves out what the
        picture shows (docs/developers/boards.md). ``first_line`` (optional keyword): the
        platform's first line ("👉 @Ann: <turn_task>.") is printed above the board, so the
        text need not name who must act (the terminal's board, without it, does)."""

    def hand_embed(self, observation: Mapping[str, Any], names: Mapping[int, str]) -> Panel:
        """One player's private view, from that player's observation."""

    def controls(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> list[Control]:
        """The controls for ``legal`` actions, labelled for a person."""

    def event_lines(self, events: Sequence[Event], names: Mapping[int, str]) -> list[str]:
        """Public one-line descriptions of ``events`` for the table's recent log."""

    # Optional (the platform shows text only for a render module without them):
    #   table_cards(observation) -> list[bot.cardart.CardRow]   public rows, from the
    #       spectator observation only, so no hidden card can reach a public picture;
    #   hand_cards(observation) -> list[bot.cardart.CardRow]    the player's own rows.
    # Use :func:`card_rows` to call them.
    # Also optional: table_option_lines(options) -> list[str], the table's own options
    #   (not house rules) as lobby sentences; without it the lobby shows them as 'Key: value'.
    # Also optional: house_rule_line(key, value, options) -> str | None, a house rule's lobby
    #   sentence at a table with these own options: None for the rule's usual sentence, ""
    #   to leave out a rule the table has no use for.


def card_rows(render: GameRender, name: str, observation: Mapping[str, Any], names: Mapping[int, str] | None = None) -> list[Any]:
    """``render.table_cards`` / ``render.hand_cards`` of an observation, or [] when the
    game's render module has no pictures. ``names``: plain-text names for the rows'
    labels, passed to a ``table_cards`` that takes them."""
    if name not in ("table_cards", "hand_cards"):
        raise ValueError(name)
    function = getattr(render, name, None)
    if not callable(function):
        return []
    if names is not None and _takes(function, "names"):
        return list(function(observation, names))
    return list(function(observation))


def table_words(render: GameRender, observation: Mapping[str, Any], names: Mapping[int, str], recent: Sequence[str], *,
                pictures: bool, first_line: bool = False) -> Panel:
    """``render.table_embed``: the board's words. ``pictures``: the board carries the card
    picture, so the words leave out what it shows. ``first_line``: a line above them names
    who must act and what they do, so the words need not. Each is passed to a render that
    takes it (every game's does; one written before them is shown with its whole text)."""
    function = render.table_embed
    extra = {key: value for key, value in (("pictures", pictures), ("first_line", first_line)) if _takes(function, key)}
    return function(observation, names, recent, **extra)


@functools.lru_cache(maxsize=128)
def _takes(function: Callable[..., Any], keyword: str) -> bool:
    """Whether a render's function takes ``keyword`` (kept per function: it is asked for
    every board, and ``inspect.signature`` costs ~70 us)."""
    try:
        return keyword in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


@dataclass(frozen=True)
class GameSpec:
    game: type[Game]
    render: GameRender
    house_rules: tuple[HouseRule, ...] = ()
    #: Typed chat in the table's channel reaches the rules as Action("say", arg=text).
    accepts_chat: bool = False
    #: Sides or teams chosen in the lobby, as (choice key, label): one Join button each.
    seat_choices: tuple[tuple[str, str], ...] = ()
    #: Turns the lobby (seat order, seat choices, options, seed) into ``Game.new``
    #: options at Start, e.g. teams from side choices. May raise RuleError.
    prepare_options: Callable[[list[int], dict[int, str], dict[str, Any], str], dict[str, Any]] | None = None

    @property
    def key(self) -> str:
        return self.game.key

    @property
    def title(self) -> str:
        return self.game.title

    def house_rule(self, key: str) -> HouseRule | None:
        return next((r for r in self.house_rules if r.key == key), None)

    @property
    def rules_package(self) -> str:
        """The package that holds the game's rules module, and so its rules text."""
        module = sys.modules.get(self.game.__module__)
        return getattr(module, "__package__", None) or ""

    @property
    def rules_location(self) -> str:
        """Where the rules text is, for people: ``cogs/enid/rules.md``."""
        package = self.rules_package
        return f"{package.replace('.', '/')}/{RULES_FILE}" if package else RULES_FILE

    def rules_text(self, lang: str = "en") -> str:
        """The rules text in ``lang`` when it is translated (``rules.<lang>.md`` beside
        ``rules.md``), else in English."""
        try:
            if not self.rules_package:
                raise FileNotFoundError(RULES_FILE)
            folder = resources.files(self.rules_package)
            translated = folder.joinpath(RULES_FILE.replace(".md", f".{lang}.md"))
            if lang != "en" and translated.is_file():
                return translated.read_text(encoding="utf-8")
            return folder.joinpath(RULES_FILE).read_text(encoding="utf-8")
        except (OSError, ImportError, TypeError, ValueError):
            return _("The rules text for {title} is missing from this installation ({where}).", title=self.title, where=self.rules_location)


class GameRegistry:
    """The games this bot runs, by key."""

    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] = {}

    def add(self, spec: GameSpec) -> GameSpec:
        """Register a game; returns its spec as registered (with the platform's house rules)."""
        rule = seats.REPLACE_LEAVERS  # the platform's own house rule, for games that can take it
        if seats.offers_replacement(spec.key, spec.game) and spec.house_rule(rule.key) is None:
            spec = replace(spec, house_rules=(*spec.house_rules, rule))
        self._specs[spec.key] = spec
        return spec

    def get(self, key: str) -> GameSpec | None:
        return self._specs.get(key)

    def __iter__(self):
        return iter(self._specs.values())

    def __contains__(self, key: str) -> bool:
        return key in self._specs
