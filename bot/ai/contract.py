"""What a computer player receives and what a game's computer player provides (the
decision door's contract; see :mod:`bot.ai`): :class:`PlayerView`, :class:`Budget`,
:class:`GameAI`. Both :mod:`bot.ai` (the door) and :mod:`bot.ai.search` (hard's search)
build on it."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.rules.engine import Action, Event, Game

#: hard's default thinking time per move, in seconds.
DEFAULT_SECONDS = 0.1
#: Share of a timed budget spent searching.
SEARCH_SHARE = 0.7


@dataclass(frozen=True)
class PlayerView:
    """Everything a computer seat may know: plain, JSON-like data."""

    game: str
    player: int
    observation: Mapping[str, Any]
    legal: tuple[Action, ...]
    history: tuple[Mapping[str, Any], ...] = ()

    @classmethod
    def of(cls, game: Game, player: int, history: Sequence[Mapping[str, Any]] = ()) -> PlayerView:
        return cls(game.key, player, game.observation(player), tuple(game.legal_actions(player)), tuple(history))


def seen_event(event: Event, viewer: int) -> dict[str, Any]:
    """One history entry: ``event`` as ``viewer`` saw it."""
    return {"kind": event.kind, "player": event.player, "data": dict(event.visible_to(viewer))}


@dataclass(frozen=True)
class Budget:
    """How much hard may think. ``out_of_time()`` is True once ``deadline`` says so;
    ``iterations`` caps playouts and ``determinizations`` caps rounds (imagined deals)
    per decision whatever the clock says: with those alone a decision is deterministic."""

    iterations: int = 2000
    determinizations: int = 1_000_000
    #: Playouts stop after this many moves and ``evaluate`` scores the position
    #: (None: the game's own ``GameAI.playout_moves``).
    playout_moves: int | None = None
    #: The search's move replaces easy's only when its mean score is this much better
    #: (None: the game's own ``GameAI.margin``).
    margin: float | None = None
    deadline: Callable[[], bool] | None = field(default=None, compare=False)

    @classmethod
    def timed(cls, clock: Callable[[], float], seconds: float = DEFAULT_SECONDS, **caps: int) -> Budget:
        """A budget of ``seconds`` from now by ``clock`` (e.g. ``time.perf_counter``)."""
        # The search stops at SEARCH_SHARE of the time: the vote, easy's own choice
        # and the last simulation under way must fit in the rest.
        end = clock() + seconds * SEARCH_SHARE
        return cls(deadline=lambda: clock() >= end, **{"iterations": 1_000_000, **caps})

    def out_of_time(self) -> bool:
        return self.deadline is not None and self.deadline()


@dataclass(frozen=True)
class GameAI:
    game_cls: type[Game]
    easy: Callable[[PlayerView, random.Random], Action]
    determinize: Callable[[Mapping[str, Any], Sequence[Action], random.Random], Game]
    evaluate: Callable[[Game, int], float]
    #: ``playout(game, player) -> Action``: a cheap legal move for playouts (easy's
    #: rule of thumb on an imagined game; mixed with a few uniformly random ones);
    #: None plays playouts uniformly at random.
    playout: Callable[[Game, int], Action] | None = None
    #: Default playout length in moves (see Budget.playout_moves).
    playout_moves: int = 30
    #: ``owes(observation, player) -> bool``: whether a seat that is not current must
    #: still act now (Enid's rituals); the platform asks it for every computer seat.
    owes: Callable[[Mapping[str, Any], int], bool] | None = None
    #: ``speak(view, level, rng) -> Action | None``: the words (or other unlisted
    #: action) the seat owes now, before any listed move; None when it owes nothing.
    speak: Callable[[PlayerView, str, random.Random], Action | None] | None = None
    #: ``hard(view, rng, budget) -> Action``: a game's own hard level in place of the
    #: shared search (Onion estimates hand strength by sampling; chips, not placements,
    #: are what its bets weigh). None: :func:`bot.ai.search.hard`.
    hard: Callable[[PlayerView, random.Random, Budget], Action] | None = None
    #: ``quiet(game) -> bool``: may ``evaluate`` score this position? A playout that
    #: has made its moves plays on (a few more at most) until it is, so a position is
    #: not scored in the middle of something (Engines: half the picks of a search made).
    #: None: every position is.
    quiet: Callable[[Game], bool] | None = None
    #: Default Budget.margin: how much better (in score, 0-1) the search's move must
    #: look than easy's before it is played instead.
    margin: float = 0.05
    #: Share of playout moves that are uniformly random rather than the playout policy.
    playout_random: float = 0.1
    #: ``warm_up()``: slow one-off loading (a dictionary) the platform runs off the
    #: event loop before a table's first computer decision, so no decision pays for it.
    warm_up: Callable[[], None] | None = None
