"""Random self-play speed of a Deckhand rules engine next to RLCard's Uno, in one run.

    python bench/blackjack_selfplay.py [--seconds 5] [--players 3] [--seed 1] [--uno-api env|game|both]
    python bench/idiot_selfplay.py     (same options)
    python bench/engines_selfplay.py   (same options; --players 2 or 4, default both)
    python bench/selfplay.py --game blackjack|idiot|engines|all (same options)

``--game all`` measures every table (Blackjack 3, Idiot 3, Engines 4 and Engines 2
players) against the same Uno runner(s), all interleaved in one run. Engines is
measured at both table sizes unless ``--players`` picks one: a 4-player table has
four picks and one resolution per search, a 2-player table two picks per
resolution, so their steps cost differently.

A *step* is one state transition: one ``Game.apply`` for Deckhand, one ``env.step`` (or
``game.step`` with ``--uno-api game``) for RLCard. Every step of both sides pays for the
same things: listing the legal actions of the player to move, a uniform random pick
with a seeded ``random.Random``, and applying the move. Dealing a new game (``Game.new``
/ ``env.reset`` / ``game.init_game``) is inside the timed region too; printing is not.

Random play on both sides:

- Deckhand: ``p`` = the player in ``current_players()`` (in a simultaneous phase, a random
  one of them); ``rng.choice(state.legal_actions(p))``; ``state.apply(p, action)``.
- RLCard env API (the default headline): ``rng.choice(list(state['legal_actions']))``
  then ``env.step(action_id)``. ``env.step`` re-lists the legal actions to decode the id
  and builds the next state, including its numpy observation (``_extract_state``).
- RLCard game API (``--uno-api game``): ``rng.choice(state['legal_actions'])`` then
  ``env.game.step(action_str)``; ``game.step`` still builds the next raw state dict with
  its legal actions, but skips the numpy encoding and the id decoding.

RLCard's Uno is always two players (its env ignores ``game_num_players``); ``--players``
only sets the Deckhand table size. Measurement is interleaved: the budget of each engine
is cut into ``--rounds`` slices that alternate between the engines, so machine noise
hits them alike; a game in progress simply carries on in the next slice. Numbers only:
nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

# Measure the checkout this file lives in: the repo root goes first on the path, so an
# editable install of another worktree (or of main) does not shadow its code.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path[:2]:
    sys.path.insert(0, _ROOT)

#: The clock is read once per this many steps, on every side alike.
CLOCK_EVERY = 32
#: A game longer than this is abandoned (and reported) rather than run forever.
MAX_STEPS_PER_GAME = 200_000


@dataclass
class Tally:
    name: str
    steps: int = 0
    games: int = 0
    seconds: float = 0.0
    #: CPU time of this process over the same slices (``time.process_time``): on a
    #: busy machine the wall clock also counts the time other processes had the CPU.
    cpu_seconds: float = 0.0
    abandoned: int = 0
    notes: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.steps / self.cpu_seconds if self.cpu_seconds else 0.0


class Runner:
    """One engine playing random games back to back; ``run_for`` plays a time slice."""

    tally: Tally

    def run_for(self, seconds: float) -> None:
        raise NotImplementedError

    def run_games(self, games: int) -> None:
        raise NotImplementedError


class DeckhandRunner(Runner):
    def __init__(self, game_cls: type, players: int, seed: int, options: dict[str, Any] | None = None) -> None:
        self.game_cls = game_cls
        self.players = list(range(1, players + 1))
        self.options = options or {}
        self.seed = seed
        self.rng = random.Random(seed)
        self.tally = Tally(f"Deckhand {game_cls.title} ({players} players)")
        self.state: Any = None
        self.game_steps = 0

    def _new_game(self) -> None:
        self.state = self.game_cls.new(self.players, self.options, seed=f"{self.seed}-{self.tally.games + self.tally.abandoned}")
        self.game_steps = 0

    def _play(self, deadline: float | None, games_left: int | None) -> None:
        rng_choice = self.rng.choice
        tally = self.tally
        clock = time.perf_counter
        start, cpu_start = clock(), time.process_time()
        steps = 0
        if self.state is None:
            self._new_game()
        state = self.state
        game_steps = self.game_steps
        while True:
            current = state.current_players()
            if not current or game_steps >= MAX_STEPS_PER_GAME:
                if current:
                    tally.abandoned += 1
                else:
                    tally.games += 1
                    if getattr(state, "stalemate", False):
                        tally.notes["stalemates"] = tally.notes.get("stalemates", 0) + 1
                if games_left is not None:
                    games_left -= 1
                    if games_left <= 0:
                        self.state = None
                        break
                self._new_game()
                state = self.state
                game_steps = 0
                continue
            if len(current) == 1:
                (player,) = current
            else:  # a simultaneous phase: any one of those who may act
                player = rng_choice(sorted(current))
            state.apply(player, rng_choice(state.legal_actions(player)))
            steps += 1
            game_steps += 1
            if deadline is not None and steps % CLOCK_EVERY == 0 and clock() >= deadline:
                self.state = state
                break
        self.game_steps = game_steps
        tally.steps += steps
        tally.seconds += clock() - start
        tally.cpu_seconds += time.process_time() - cpu_start

    def run_for(self, seconds: float) -> None:
        self._play(time.perf_counter() + seconds, None)

    def run_games(self, games: int) -> None:
        self._play(None, games)


class UnoEnvRunner(Runner):
    """RLCard's Uno through ``rlcard.make('uno')``: ``env.reset`` / ``env.step``."""

    def __init__(self, seed: int) -> None:
        import rlcard

        self.env = rlcard.make("uno", config={"seed": seed})
        self.rng = random.Random(seed)
        self.tally = Tally("RLCard Uno, env API (2 players)")
        self.state: Any = None
        self.game_steps = 0

    def _play(self, deadline: float | None, games_left: int | None) -> None:
        env = self.env
        rng_choice = self.rng.choice
        tally = self.tally
        clock = time.perf_counter
        start, cpu_start = clock(), time.process_time()
        steps = 0
        if self.state is None:
            self.state, _ = env.reset()
            self.game_steps = 0
        state = self.state
        game_steps = self.game_steps
        while True:
            if env.is_over() or game_steps >= MAX_STEPS_PER_GAME:
                if env.is_over():
                    tally.games += 1
                else:
                    tally.abandoned += 1
                if games_left is not None:
                    games_left -= 1
                    if games_left <= 0:
                        self.state = None
                        break
                state, _ = env.reset()
                game_steps = 0
                continue
            state, _ = env.step(rng_choice(list(state["legal_actions"])))
            steps += 1
            game_steps += 1
            if deadline is not None and steps % CLOCK_EVERY == 0 and clock() >= deadline:
                self.state = state
                break
        self.game_steps = game_steps
        tally.steps += steps
        tally.seconds += clock() - start
        tally.cpu_seconds += time.process_time() - cpu_start

    def run_for(self, seconds: float) -> None:
        self._play(time.perf_counter() + seconds, None)

    def run_games(self, games: int) -> None:
        self._play(None, games)


class UnoGameRunner(UnoEnvRunner):
    """RLCard's Uno through the game object under the env: ``game.init_game`` /
    ``game.step(action_string)``; no numpy state encoding, no action-id decoding."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.game = self.env.game
        self.tally = Tally("RLCard Uno, game API (2 players)")

    def _play(self, deadline: float | None, games_left: int | None) -> None:
        game = self.game
        rng_choice = self.rng.choice
        tally = self.tally
        clock = time.perf_counter
        start, cpu_start = clock(), time.process_time()
        steps = 0
        if self.state is None:
            self.state, _ = game.init_game()
            self.game_steps = 0
        state = self.state
        game_steps = self.game_steps
        while True:
            if game.is_over() or game_steps >= MAX_STEPS_PER_GAME:
                if game.is_over():
                    tally.games += 1
                else:
                    tally.abandoned += 1
                if games_left is not None:
                    games_left -= 1
                    if games_left <= 0:
                        self.state = None
                        break
                state, _ = game.init_game()
                game_steps = 0
                continue
            state, _ = game.step(rng_choice(state["legal_actions"]))
            steps += 1
            game_steps += 1
            if deadline is not None and steps % CLOCK_EVERY == 0 and clock() >= deadline:
                self.state = state
                break
        self.game_steps = game_steps
        tally.steps += steps
        tally.seconds += clock() - start
        tally.cpu_seconds += time.process_time() - cpu_start


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def compare(runners: Sequence[Runner], *, seconds: float | None, games: int | None, rounds: int) -> None:
    """Run all engines interleaved: ``rounds`` alternating slices of ``seconds/rounds``
    each, or ``games`` games each, one game per engine in turn."""
    if games is not None:
        for _ in range(games):
            for runner in runners:
                runner.run_games(1)
        return
    assert seconds is not None
    slice_seconds = seconds / rounds
    for index in range(rounds):
        # Alternate the order too, so neither side always runs first after a switch.
        for runner in runners if index % 2 == 0 else reversed(runners):
            runner.run_for(slice_seconds)


def report(headline: Tally | Sequence[Tally], others: Sequence[Tally], *, target: float | None,
           args: argparse.Namespace) -> None:
    """Print the table and the ratio of each Deckhand table (``headline``: one, or
    several) to each Uno runner in ``others``."""
    headlines = [headline] if isinstance(headline, Tally) else list(headline)
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}, "
          f"rlcard {_version('rlcard')}, numpy {_version('numpy')}")
    budget = f"{args.games} games each" if args.games else f"{args.seconds:g} s each in {args.rounds} interleaved slices"
    print(f"seed {args.seed}; {budget}")
    print()
    width = max(len(t.name) for t in (*headlines, *others))
    print(f"{'engine':<{width}}  {'steps/s':>10}  {'steps/cpu-s':>11}  {'steps':>9}  {'games':>6}  {'steps/game':>10}  {'seconds':>7}")
    for t in (*headlines, *others):
        per_game = f"{t.steps / t.games:.1f}" if t.games else "-"
        extra = []
        if t.abandoned:
            extra.append(f"{t.abandoned} abandoned after {MAX_STEPS_PER_GAME} steps")
        extra += [f"{v} {k}" for k, v in t.notes.items()]
        print(f"{t.name:<{width}}  {t.rate:>10,.0f}  {t.cpu_rate:>11,.0f}  {t.steps:>9,}  {t.games:>6,}  {per_game:>10}  {t.seconds:>7.2f}"
              + (f"  ({'; '.join(extra)})" if extra else ""))
    print()
    for head in headlines:
        for t in others:
            ratio = head.rate / t.rate if t.rate else float("inf")
            cpu_ratio = head.cpu_rate / t.cpu_rate if t.cpu_rate else float("inf")
            line = f"ratio {head.name} / {t.name}: {ratio:.2f}x (CPU time: {cpu_ratio:.2f}x)"
            if target is not None and "env API" in t.name:
                line += f"  (issue target: >= {target:g}x)"
            print(line)
    print("(games counts finished games; a game cut by the time budget still counts its steps)")


def main(argv: Sequence[str] | None = None, *, game_cls: type | None = None, target: float | None = None,
         description: str | None = None) -> None:
    parser = argparse.ArgumentParser(description=description or "Random self-play steps/s: a Deckhand game vs RLCard's Uno.")
    if game_cls is None:
        parser.add_argument("--game", choices=("blackjack", "idiot", "engines", "all"), default="blackjack")
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per engine (default 5)")
    parser.add_argument("--games", type=int, default=None, help="play this many games per engine instead of a time budget")
    parser.add_argument("--players", type=int, default=None,
                        help="Deckhand table size (default 3; Engines both 4 and 2). RLCard's Uno is always 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=10, help="interleaved slices per engine (default 10)")
    parser.add_argument("--uno-api", choices=("env", "game", "both"), default="both",
                        help="RLCard API to drive: env (rlcard.make + env.step, the headline), game "
                             "(env.game.step, no numpy state), or both (default; each gets the full budget)")
    args = parser.parse_args(argv)
    if game_cls is not None:
        classes = [game_cls]
    else:
        from cogs.blackjack.rules import BlackjackGame
        from cogs.engines.rules import EnginesGame
        from cogs.idiot.rules import IdiotGame

        chosen = {"blackjack": [BlackjackGame], "idiot": [IdiotGame], "engines": [EnginesGame]}
        classes = chosen.get(args.game, [BlackjackGame, IdiotGame, EnginesGame])
        if args.game == "blackjack":
            target = 2.0
    deckhands = [
        DeckhandRunner(cls, players, args.seed)
        for cls in classes
        for players in ([args.players] if args.players else table_sizes(cls))
    ]
    uno: list[Runner] = []
    if args.uno_api in ("env", "both"):
        uno.append(UnoEnvRunner(args.seed))
    if args.uno_api in ("game", "both"):
        uno.append(UnoGameRunner(args.seed))
    compare([*deckhands, *uno], seconds=args.seconds, games=args.games, rounds=max(1, args.rounds))
    report([d.tally for d in deckhands], [r.tally for r in uno], target=target, args=args)


def table_sizes(game_cls: type) -> list[int]:
    """The default tables measured: Engines at 4 and at 2 players, other games at 3."""
    return [4, 2] if game_cls.key == "engines" else [3]


def entry_point(game: str) -> Callable[[], None]:
    """``main`` bound to one Deckhand game, for the thin ``bench/<game>_selfplay.py`` scripts."""

    def run() -> None:
        if game == "blackjack":
            from cogs.blackjack.rules import BlackjackGame

            main(game_cls=BlackjackGame, target=2.0, description="Random self-play steps/s: Deckhand Blackjack vs RLCard's Uno.")
        elif game == "engines":
            from cogs.engines.rules import EnginesGame

            main(game_cls=EnginesGame, description="Random self-play steps/s: Deckhand Engines vs RLCard's Uno.")
        else:
            from cogs.idiot.rules import IdiotGame

            main(game_cls=IdiotGame, description="Random self-play steps/s: Deckhand Idiot vs RLCard's Uno.")

    return run


if __name__ == "__main__":
    sys.exit(main())
