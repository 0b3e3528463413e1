"""Computer players: the pure decision door (issue 12).

A computer seat decides exactly like a person: from its own observation, its legal
actions and the public history it has seen, never from the game state. That is
enforced by construction: :func:`decide` takes a :class:`PlayerView` (plain data) and
no :class:`~bot.engine.Game`. Pure like the rules engines: no Discord, asyncio, sqlite
or clock. Time enters only through a ``deadline`` callable the caller passes in.

How the platform uses it
------------------------
For every computer seat that has legal actions after a move (not only those in
``current_players()``: a game may expect something from anyone, like Enid's rituals)::

    view = PlayerView.of(game, seat, history=seen)        # the only line that touches the Game
    # ... off the event loop (a thread or process: all inputs are plain, picklable data):
    action = decide(view, "hard", random.Random(seed), budget=Budget.timed(time.perf_counter, 0.1))
    # ... back on the loop: the same lock -> apply -> commit -> publish path as a person,
    # after the per-server pause. If the state moved on meanwhile (another seat acted),
    # ``apply`` refuses a stale action with a RuleError: build a fresh view and decide again.

- ``history``: public events as this seat saw them, oldest first, each
  ``{"kind", "player", "data"}`` (:func:`seen_event` builds one from an ``Event``:
  private data only for the seat's own events). It may be empty or start late (after
  a restart): the games here decide from the observation alone and read no history;
  a game that remembers (Enid's chain) must cope with a short one.
- ``level``: ``"random"`` (a uniform legal action), ``"easy"`` (the game's heuristic,
  ``cogs/<game>/ai.py: easy``), ``"hard"`` (:func:`bot.ai.search.hard`: determinized
  Monte Carlo search with voting over imagined deals; see that module).
- ``budget``: :class:`Budget`. ``Budget.timed(clock, seconds)`` for play (default
  100 ms, of which the search takes 70% so the answer is back within the budget;
  hard falls back to easy if time runs out before its search has a result). Caps
  alone (``Budget(iterations=..., determinizations=...)``) make decisions
  deterministic for tests and benches: same view + same rng seed -> same action.
- ``decide`` holds no state between calls and shares nothing with the Game, so any
  number may run at once in worker threads or processes.
- For Blackjack, Idiot and Engines the returned action is always one of
  ``view.legal``, and ``decide`` refuses a view with no legal actions.

Enid and Onion (the door stays the same: plain view in, one action out)
-----------------------------------------------------------------------
A game with typed actions (Enid's rituals, a limerick) or many numeric choices (Onion's
bets) may return a ``say``/``bet`` action that ``legal_actions`` does not enumerate
(``apply`` judges it as it judges a person's), and may act with no listed legal action
(a ritual shouted out of turn). Such a game adds what it needs to ``GameAI``. Enid uses
the optional hooks ``owes(observation, player)`` (bot/core/computer.py asks it of every computer
seat after every move, so a seat that is not current still speaks), ``speak(view, level,
rng)`` (asked first by :func:`decide`: the words owed, or None) and ``warm_up()`` (slow
loading, run off the event loop before a table's first decision); what a game remembers
across games must be in the observation (Enid's: what the seat heard said). hard's search
needs only ``determinize``, ``evaluate`` and ``Game.clone`` as here, with ``legal`` holding
its candidate moves. A game whose hard level is not that search gives ``GameAI.hard``
(Onion: hand-strength sampling weighed in chips, see ``cogs/onion/ai.py``; Enid: a sharper
rule of thumb for rituals, votes and an Ace's suit, and the shared search for its card
choice, on imagined plain-mode deals, see ``cogs/enid/ai.py``).

What a game provides (``cogs/<game>/ai.py``, pure)
---------------------------------------------------
``AI = GameAI(game_cls, easy, determinize, evaluate, playout)``:

- ``easy(view, rng) -> Action``: the heuristic.
- ``determinize(observation, legal, rng) -> Game``: a full game consistent with the
  observation, the unseen cards dealt at random among the unseen places with the
  right counts. The searcher plays it out, so it must accept every action in ``legal``.
- ``evaluate(game, player) -> float`` in [0, 1]: how well ``player`` stands, for
  playouts cut short.
- ``playout(game, player) -> Action`` (optional): easy's rule on a full game, fast.
- ``playout_moves``, ``quiet(game)`` (optional), ``margin``, ``playout_random``: how far
  a playout goes before ``evaluate`` (on to a quiet position), how clearly the search
  must beat easy's move, and how often a playout move is random (see ``bot.ai.search``).
Games also implement ``Game.clone()`` cheaply (lists copied, no JSON) for the search.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from typing import Any

from bot.ai.contract import DEFAULT_SECONDS, SEARCH_SHARE, Budget, GameAI, PlayerView, seen_event
from bot.rules.engine import Action

__all__ = ["DEFAULT_LEVEL", "DEFAULT_SECONDS", "LEVELS", "SEARCH_SHARE", "Budget", "GameAI", "PlayerView", "decide", "game_ai",
           "has_ai", "owes", "seen_event"]

LEVELS = ("random", "easy", "hard")
#: What a person sees first in the lobby's level choice.
DEFAULT_LEVEL = "easy"


def game_ai(key: str) -> GameAI:
    """The computer player of game ``key`` (``cogs/<key>/ai.py``'s ``AI``)."""
    return importlib.import_module(f"cogs.{key}.ai").AI


def owes(key: str, observation: Mapping[str, Any], player: int) -> bool:
    """Whether ``player`` must act now although it may not be current (a ritual)."""
    if not has_ai(key):
        return False
    hook = game_ai(key).owes
    return hook is not None and hook(observation, player)


def has_ai(key: str) -> bool:
    try:
        game_ai(key)
    except ModuleNotFoundError:
        return False
    return True


def decide(view: PlayerView, level: str, rng: random.Random, *, budget: Budget | None = None) -> Action:
    """One action for ``view.player``, chosen at ``level``. Raises ValueError for an
    unknown level or a view with nothing to do (the caller asks only seats with legal
    actions, or that the game's ``owes`` says must speak)."""
    if level not in LEVELS:
        raise ValueError(f"'{level}' is not a computer player level: choose {', '.join(LEVELS)}.")
    ai = game_ai(view.game) if has_ai(view.game) else None
    if ai is not None and ai.speak is not None:
        said = ai.speak(view, level, rng)
        if said is not None:
            return said
    if not view.legal:
        raise ValueError("This computer player has nothing to do right now.")
    if level == "random":
        return rng.choice(view.legal)
    if len(view.legal) == 1:
        return view.legal[0]
    if ai is None:
        ai = game_ai(view.game)
    if level == "easy":
        return ai.easy(view, rng)
    if level == "hard":
        if ai.hard is not None:
            return ai.hard(view, rng, budget or Budget())
        from bot.ai.search import hard

        return hard(view, ai, rng, budget or Budget())
    raise ValueError(f"'{level}' is not a computer player level: choose {', '.join(LEVELS)}.")
