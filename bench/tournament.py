"""Computer player tournament: random vs easy vs hard, 2 players, per game (issue 12).

    python bench/tournament.py [--games 1000] [--hard-games N] [--hard-ms 100] [--hard-iterations 1000000]
                               [--game blackjack|idiot|engines|onion ...] [--pairings random-easy random-hard easy-hard] [--jobs 1]
                               [--onion-session-rounds 0]

Games of a pairing come in pairs on one fixed seed (``tournament-<game>-<i // 2>``) with
the two levels in swapped seats (for Engines: swap sides, Google/Yahoo), so neither gets the
first move or the better side more often. Each seat decides through ``bot.ai.decide``
from a ``PlayerView`` only, with its own seeded ``random.Random``. hard thinks for
``--hard-ms`` by ``time.perf_counter`` (and at most ``--hard-iterations`` simulations).

Printed per pairing: the second level's score (win 1, draw 0.5, loss 0) with a 95%
confidence interval (normal approximation on the per-game scores), wins/draws/losses,
moves per second per level (decisions / time spent deciding), and for hard its median,
p99 and max decision time next to its budget. Numbers only: nothing is asserted.

Cripple Mr Onion (``--game onion``): a "game" is one round of a fresh 2-player session
(100 chips each, Stake 1, raise cap 10, the gambling variant; the first Dealer drawn from
the seed, so one deal's two games give each level the Dealer's seat once). Its score is
the share of rounds won (the winner takes the Pot, so in 2-player play winning the round is
ending it ahead in chips; a round everybody folds scores 0.5 for both). Since a chip game
can win many small Pots and lose the big ones, Onion's line also prints what decides it:
the challenger's chips won per round (its chips after the round minus 100, ante included),
mean with a 95% confidence interval over the deal pairs (each pair's mean is one
observation: the two games of a deal share the cards, so the pair is the independent unit).
Onion's hard is its own sampler (``cogs/onion/ai.py``), not the shared search, so
``--hard-iterations`` caps its hand evaluations.

``--onion-session-rounds R`` (default 0: one round a game, as above): with R > 0 an Onion
"game" is a whole 2-player session of up to R rounds. Round 1 is the fresh round above
(same seed, so a deal pair still starts with the same cards and each level as Dealer
once); each further round is ``OnionGame.new`` with ``options["carry"]`` set to the
previous round's ``carry_out()`` (bankrolls, the Dealer, which is the previous round's
winner or the same Dealer after an all-fold, a Pot left by an all-fold as the next ante,
wild eights, the round number) on the seed ``tournament-onion-<i // 2>-round-<r>``. So
only round 1 is exactly mirrored within a pair: later rounds share the cards but not
necessarily who deals. The session stops after R rounds, or earlier when a player has
fewer chips than the Stake and the ``rebuy`` house rule is off (the default; ``new`` would
refuse the round, so the chips are checked before calling it), unless the last round left a
Pot (everybody folded): that Pot is the next round's ante, so the session goes on. The score is the session's:
1 if the challenger ends it with more chips than the other player (net of rebuys, none with
the default options), 0.5 if equal, 0 if fewer; a Pot stranded by a last round everybody
folded belongs to neither. The chips line then reports the challenger's chips won per
session (its final chips minus rebuys minus the 100 it started with), again with a 95%
confidence interval over deal pairs, and a line gives the rounds played per session and
how many sessions ended early. Moves and decision times count every round's decisions.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

from bot.ai import Budget, PlayerView, decide, game_ai  # noqa: E402

GAMES = ("blackjack", "idiot", "engines", "onion")
#: Extra Budget fields for hard from the command line (--playout-moves).
HARD_CAPS: dict[str, float] = {}
#: A game still running after this many moves is stopped and scored as a draw.
MAX_MOVES = 5000


@dataclass
class Result:
    scores: list[float] = field(default_factory=list)  # the challenger's score per game
    moves: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    hard_times: list[float] = field(default_factory=list)
    fallbacks: int = 0
    cut: int = 0
    #: Onion: (game index, the challenger's chips won in that round, or session).
    chips: list[tuple[int, int]] = field(default_factory=list)
    #: Onion with --onion-session-rounds: rounds played per session (sessions not cut).
    session_rounds: list[int] = field(default_factory=list)

    def decide(self, view: PlayerView, level: str, rng: random.Random, hard_seconds: float, hard_iterations: int) -> Any:
        """One seat's decision through ``bot.ai.decide`` (hard within its budget),
        timed and counted here: moves and seconds per level, and hard's time where it
        had a choice to make."""
        clock = time.perf_counter
        budget = Budget.timed(clock, hard_seconds, iterations=hard_iterations, **HARD_CAPS) if level == "hard" else None
        start = clock()
        action = decide(view, level, rng, budget=budget)
        spent = clock() - start
        self.moves[level] = self.moves.get(level, 0) + 1
        self.seconds[level] = self.seconds.get(level, 0.0) + spent
        if level == "hard" and len(view.legal) > 1:
            self.hard_times.append(spent)
        return action

    def merge(self, other: Result) -> None:
        self.scores += other.scores
        for level, n in other.moves.items():
            self.moves[level] = self.moves.get(level, 0) + n
        for level, s in other.seconds.items():
            self.seconds[level] = self.seconds.get(level, 0.0) + s
        self.hard_times += other.hard_times
        self.cut += other.cut
        self.chips += other.chips
        self.session_rounds += other.session_rounds


def play_out(game: Any, level_of: dict[int, str], rngs: dict[int, random.Random], hard_seconds: float,
             hard_iterations: int, result: Result) -> bool:
    """Play ``game`` to its end (at most MAX_MOVES moves); whether it ended."""
    moves = 0
    while not game.is_over() and moves < MAX_MOVES:
        current = sorted(game.current_players())
        player = current[moves % len(current)]
        level = level_of[player]
        action = result.decide(PlayerView.of(game, player), level, rngs[player], hard_seconds, hard_iterations)
        game.apply(player, action)
        moves += 1
    return game.is_over()


def play_onion_session(levels: tuple[str, str], index: int, rounds: int, hard_seconds: float, hard_iterations: int,
                       result: Result) -> None:
    """Onion game ``index`` as a 2-player session of up to ``rounds`` rounds (see the
    module docstring): seats, seeds of round 1 and scoring as in :func:`play_one`."""
    ai = game_ai("onion")
    players = [1, 2]
    level_of = {1: levels[index % 2], 2: levels[1 - index % 2]}
    challenger = 1 if index % 2 else 2
    other = 2 if challenger == 1 else 1
    options: dict[str, Any] = {}
    seed = f"tournament-onion-{index // 2}"
    rngs = {p: random.Random(f"onion-{index}-{p}") for p in players}
    game = ai.game_cls.new(players, options, seed=seed)
    played = 1
    while True:
        if not play_out(game, level_of, rngs, hard_seconds, hard_iterations, result):
            result.cut += 1
            result.scores.append(0.5)
            return
        if played >= rounds:
            break
        # OnionGame.new raises RuleError when fewer than two players can pay the Stake as
        # ante (with rebuy on, it buys them back in first; a Pot carried from an all-fold
        # round is the ante, so then nobody needs the Stake): stop the session there instead.
        stake = game.options["stake"]
        carried = game.carry_out()["pot"]
        if (game.gambling and game.options["rebuy"] != "on" and not carried
                and sum(game.chips[p] >= stake for p in players) < 2):
            break
        played += 1
        game = ai.game_cls.new(players, {**options, "carry": game.carry_out()}, seed=f"{seed}-round-{played}")
    net = {p: game.chips[p] - game.rebuys.get(p, 0) for p in players}
    result.chips.append((index, net[challenger] - game.options["chips"]))
    result.session_rounds.append(played)
    if net[challenger] == net[other]:
        result.scores.append(0.5)
    else:
        result.scores.append(1.0 if net[challenger] > net[other] else 0.0)


def play_one(key: str, levels: tuple[str, str], index: int, hard_seconds: float, hard_iterations: int, result: Result,
             onion_session_rounds: int = 0) -> None:
    """Game ``index``: ``levels[0]`` is the incumbent, ``levels[1]`` the challenger.
    Onion with ``onion_session_rounds`` > 0: a session of that many rounds."""
    if key == "onion" and onion_session_rounds > 0:
        play_onion_session(levels, index, onion_session_rounds, hard_seconds, hard_iterations, result)
        return
    ai = game_ai(key)
    players = [1, 2]
    # Seats swap every game: player 1 is the challenger on odd games.
    level_of = {1: levels[index % 2], 2: levels[1 - index % 2]}
    challenger = 1 if index % 2 else 2
    options = {"teams": {"google": [1], "yahoo": [2]}} if key == "engines" else {}
    # Games come in pairs on one deal (index // 2) with the seats swapped, so the luck
    # of the deal and of the seat cancels out within a pair.
    game = ai.game_cls.new(players, options, seed=f"tournament-{key}-{index // 2}")
    rngs = {p: random.Random(f"{key}-{index}-{p}") for p in players}
    if not play_out(game, level_of, rngs, hard_seconds, hard_iterations, result):
        result.cut += 1
        result.scores.append(0.5)
        return
    if key == "onion":
        result.chips.append((index, game.chips[challenger] - game.options["chips"]))
    groups = game.placements()
    if len(groups[0]) > 1:
        result.scores.append(0.5)
    else:
        result.scores.append(1.0 if challenger in groups[0] else 0.0)


def run_chunk(key: str, levels: tuple[str, str], indices: range, hard_seconds: float, hard_iterations: int,
              onion_session_rounds: int = 0) -> Result:
    result = Result()
    for index in indices:
        play_one(key, levels, index, hard_seconds, hard_iterations, result, onion_session_rounds)
    return result


def run_pairing(key: str, levels: tuple[str, str], games: int, args: argparse.Namespace) -> Result:
    hard_seconds = args.hard_ms / 1000
    rounds = args.onion_session_rounds
    if args.jobs <= 1:
        return run_chunk(key, levels, range(games), hard_seconds, args.hard_iterations, rounds)
    step = math.ceil(games / args.jobs)
    chunks = [range(i, min(games, i + step)) for i in range(0, games, step)]
    total = Result()
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(run_chunk, *zip(*[(key, levels, c, hard_seconds, args.hard_iterations, rounds) for c in chunks])):
            total.merge(part)
    return total


def interval(scores: list[float]) -> tuple[float, float]:
    """Mean score and the half-width of its 95% confidence interval."""
    n = len(scores)
    mean = statistics.fmean(scores)
    return mean, (1.96 * statistics.stdev(scores) / math.sqrt(n) if n > 1 else float("nan"))


def chips_interval(chips: list[tuple[int, int]]) -> tuple[float, float]:
    """Onion: mean chips won per round (or session) and the half-width of its 95% CI, over deal pairs."""
    pairs: dict[int, list[int]] = {}
    for index, won in chips:
        pairs.setdefault(index // 2, []).append(won)
    return interval([statistics.fmean(v) for v in pairs.values()])


def onion_unit(args: argparse.Namespace) -> str:
    """What one Onion game is: "round", or "session" with --onion-session-rounds (other
    scripts reuse report/summary with their own arguments, hence getattr)."""
    return "session" if getattr(args, "onion_session_rounds", 0) > 0 else "round"


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def summary(rows: list[tuple[str, tuple[str, str], Result]], args: argparse.Namespace) -> None:
    """All pairings in one table: the challenger's score with its 95% CI, moves/s per
    level, and hard's decision times."""
    print()
    print(f"{'game':<9} {'pairing':<14} {'games':>5}  {'challenger scores [95% CI]':<27} {'moves/s (incumbent, challenger)':<32} hard p50/p99/max ms")
    for key, levels, result in rows:
        mean, half = interval(result.scores)
        rates = ", ".join(
            f"{level} {result.moves[level] / result.seconds[level]:,.0f}" if result.seconds.get(level) else f"{level} -"
            for level in levels
        )
        times = ""
        if result.hard_times:
            ordered = sorted(result.hard_times)
            times = f"{statistics.median(ordered) * 1000:.1f} / {p99(ordered) * 1000:.1f} / {ordered[-1] * 1000:.1f}"
        pairing = f"{levels[1]} vs {levels[0]}"
        print(f"{key:<9} {pairing:<14} {len(result.scores):>5}  {mean:6.1%} [{mean - half:6.1%}, {mean + half:6.1%}]   {rates:<32} {times}")
    budget = f"{args.hard_ms:g} ms a move"
    if args.hard_iterations < 1_000_000:
        budget += f" or {args.hard_iterations} simulations, whichever comes first"
    rounds = getattr(args, "onion_session_rounds", 0)
    onion = (f"onion: a game is a session of {rounds} rounds, ended with more chips 1, equal 0.5" if rounds > 0
             else "onion: a round won 1, everybody folded 0.5")
    print(f"(hard's budget: {budget}; scores: win 1, draw 0.5, loss 0; {onion})")
    for key, levels, result in rows:
        if result.chips:
            mean, half = chips_interval(result.chips)
            print(f"{key:<9} {levels[1] + ' vs ' + levels[0]:<14} {levels[1]} chips won per {onion_unit(args)} "
                  f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] (95% CI over deal pairs)")


def report(key: str, levels: tuple[str, str], result: Result, seconds: float, args: argparse.Namespace) -> None:
    n = len(result.scores)
    mean, half = interval(result.scores)
    wins = sum(1 for s in result.scores if s == 1.0)
    draws = sum(1 for s in result.scores if s == 0.5)
    verdict = "excludes 50%" if mean - half > 0.5 or mean + half < 0.5 else "does NOT exclude 50%"
    print(f"{key:<9} {levels[1]:>6} vs {levels[0]:<6} games {n:>5}  {levels[1]} scores {mean:6.1%} "
          f"[95% CI {mean - half:6.1%} .. {mean + half:6.1%}, {verdict}]  W/D/L {wins}/{draws}/{n - wins - draws}"
          + (f"  ({result.cut} cut at {MAX_MOVES} moves)" if result.cut else ""))
    rates = "  ".join(
        f"{level} {result.moves[level] / result.seconds[level]:,.0f} moves/s" for level in levels if result.seconds.get(level)
    )
    if result.chips:
        mean, half = chips_interval(result.chips)
        verdict = "excludes 0" if mean - half > 0 or mean + half < 0 else "does NOT exclude 0"
        print(f"{'':<9} {levels[1]} chips won per {onion_unit(args)} {mean:+.2f} [95% CI {mean - half:+.2f} .. {mean + half:+.2f}, "
              f"{verdict}; over {len(result.chips) // 2} deal pairs]")
    if result.session_rounds:
        rounds = args.onion_session_rounds
        early = sum(1 for r in result.session_rounds if r < rounds)
        print(f"{'':<9} a game is a session of {rounds} rounds: {statistics.fmean(result.session_rounds):.2f} rounds "
              f"played on average, {early} of {len(result.session_rounds)} sessions ended early "
              f"(a player could not pay the Stake)")
    print(f"{'':<9} {rates}  ({seconds:.0f} s wall)")
    if result.hard_times:
        times = sorted(result.hard_times)
        print(f"{'':<9} hard decision time (moves with a choice, n={len(times)}): median {statistics.median(times) * 1000:.1f} ms, "
              f"p99 {p99(times) * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms; budget {args.hard_ms:g} ms"
              + (f" or {args.hard_iterations} simulations" if args.hard_iterations < 1_000_000 else ""))
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="*", choices=GAMES, default=list(GAMES))
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--hard-games", type=int, default=None, help="games for pairings with hard (default: --games)")
    parser.add_argument("--hard-ms", type=float, default=100.0, help="hard's time per move in ms (default 100)")
    parser.add_argument("--hard-iterations", type=int, default=1_000_000, help="hard's simulation cap per move")
    parser.add_argument("--pairings", nargs="*", default=["random-easy", "random-hard", "easy-hard"],
                        help="incumbent-challenger pairs (default: random-easy random-hard easy-hard)")
    parser.add_argument("--playout-moves", type=int, default=None, help="hard's playout length (default: Budget's)")
    parser.add_argument("--margin", type=float, default=None, help="hard's margin over easy (default: Budget's)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--onion-session-rounds", type=int, default=0, metavar="R",
                        help="onion: a game is a 2-player session of up to R rounds, scored by chips at its end "
                             "(default 0: a game is one round)")
    args = parser.parse_args(argv)
    if args.onion_session_rounds < 0:
        parser.error("--onion-session-rounds must be 0 or more")
    for name in ("playout_moves", "margin"):
        if getattr(args, name) is not None:
            HARD_CAPS[name] = getattr(args, name)
    if HARD_CAPS:
        print(f"hard's budget fields: {HARD_CAPS}")
    print(f"Tournament: 2 players, games in pairs on one deal with seats swapped, hard budget {args.hard_ms:g} ms/move, "
          f"jobs {args.jobs}"
          + (f"; onion: a game is a session of {args.onion_session_rounds} rounds"
             if args.onion_session_rounds > 0 and "onion" in args.game else ""))
    rows = []
    for key in args.game:
        for pairing in args.pairings:
            levels = tuple(pairing.split("-"))
            assert len(levels) == 2, pairing
            games = args.hard_games if "hard" in levels and args.hard_games else args.games
            start = time.perf_counter()
            result = run_pairing(key, levels, games, args)  # type: ignore[arg-type]
            report(key, levels, result, time.perf_counter() - start, args)  # type: ignore[arg-type]
            rows.append((key, levels, result))
    summary(rows, args)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
