"""How much is there to decide in two-player Engines? Policies against easy (issue 12).

    python bench/engines_bounds.py [--games 2000] [--oracle-games 100] [--policies ...]

Each policy plays easy on the tournament's deals (bench/tournament.py: games in pairs on
one seed, sides swapped), and its score (win 1, draw 0.5, loss 0) is printed with a 95%
confidence interval. Numbers only: nothing is asserted.

- ``no-ipo``: easy that never declares Google's IPO (what the IPO is worth as a whole);
- ``ipo-at-once``: easy that declares it at its first chance;
- ``keep-middle``: easy, but of two cards equally far from the request it plays the one
  further from the middle (easy plays the lower);
- ``peek``: CHEATS a little: sees the other hand, so it knows the card easy is about to
  pick (nothing more: not the decks' order). Of its cards that win this search against
  that pick it plays the one that leaves the hand closest to the requests still in the
  search deck (a multiset any player can count); if none wins it plays easy's card. An
  upper bound on what reading the other player could be worth;
- ``oracle``: CHEATS: sees every deck's order and the other hand, and plays whichever of
  its moves wins the game by most if both sides then play easy (full-game play-outs on
  the real engine). Not a fair player: an upper bound on what foresight is worth.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

from bot.ai import PlayerView  # noqa: E402
from bot.rules.cards import parse_card  # noqa: E402
from cogs.engines import ai  # noqa: E402
from cogs.engines.rules import CHOOSE, GOOGLE, OVER, SEARCH, YAHOO, EnginesGame, distance  # noqa: E402


def no_ipo(view, rng, game):
    action = ai.easy(view, rng)
    if action.kind != "ipo":
        return action
    key = ai._closeness(parse_card(view.observation["request"]))
    return min((a for a in view.legal if a.kind == "play"), key=lambda a: key(a.cards[0]))


def ipo_at_once(view, rng, game):
    return next((a for a in view.legal if a.kind == "ipo"), None) or ai.easy(view, rng)


def keep_middle(view, rng, game):
    action = ai.easy(view, rng)
    obs = view.observation
    if obs["phase"] != CHOOSE or action.kind != "play":
        return action
    request = parse_card(obs["request"])
    gap = distance(request, action.cards[0])
    if not gap:
        return action
    same = [a for a in view.legal if a.kind == "play" and distance(request, a.cards[0]) == gap]
    return max(same, key=lambda a: (abs(2 * int(a.cards[0].rank) - 11), -int(a.cards[0].rank)))


def _hand_fit(hand, requests) -> int:
    """How close ``hand`` comes to the ``requests`` left, summed (higher is closer)."""
    total = 0
    for request in requests:
        gaps = [g for g in (distance(request, c) for c in hand) if g is not None]
        total -= min(gaps) if gaps else 13
    return total


def peek(view, rng, game):
    easy_move = ai.easy(view, rng)
    obs = view.observation
    if obs["phase"] != CHOOSE or easy_move.kind != "play":
        return easy_move
    me = view.player
    side = game.side_of[me]
    other = next(p for p in game.side_of if p != me)
    their = game.choices.get(other)
    their_move = None if their is not None else ai.easy(PlayerView.of(game, other), rng)
    best = None
    for action in view.legal:
        if action.kind != "play":
            continue
        copy = game.clone()
        before = len(copy.put_aside[side])
        copy._apply(me, action)
        if their_move is not None:
            copy._apply(other, their_move)
        while copy.phase not in (CHOOSE, OVER) and copy.current_players():  # a tie-breaker to show
            player = min(copy.current_players())
            copy._apply(player, ai.playout(copy, player))
        won = len(copy.put_aside[side]) > before
        kept = list(game.hands[me])
        kept.remove(action.cards[0])
        score = (won, _hand_fit(kept, game.decks[SEARCH]) if won else 0, action == easy_move)
        if best is None or score > best[0]:
            best = (score, action)
    return best[1]


def oracle(view, rng, game):
    me = view.player
    side = game.side_of[me]
    other = YAHOO if side == GOOGLE else GOOGLE
    easy_move = ai.easy(view, rng)
    best = None
    for action in view.legal:
        copy = game.clone()
        copy._apply(me, action)
        while not copy.is_over():
            player = min(copy.current_players())
            copy._apply(player, ai.playout(copy, player))
        scores = copy.result["scores"]
        margin = scores[side] - scores[other]
        score = ((margin > 0) - (margin < 0), margin, action == easy_move)
        if best is None or score > best[0]:
            best = (score, action)
    return best[1]


POLICIES = {"no-ipo": no_ipo, "ipo-at-once": ipo_at_once, "keep-middle": keep_middle, "peek": peek, "oracle": oracle}


def play(policy, games: int) -> list[float]:
    scores = []
    for index in range(games):
        challenger = 1 if index % 2 else 2
        game = EnginesGame.new([1, 2], {"teams": {GOOGLE: [1], YAHOO: [2]}}, seed=f"tournament-engines-{index // 2}")
        rngs = {p: random.Random(f"engines-{index}-{p}") for p in (1, 2)}
        moves = 0
        while not game.is_over():
            current = sorted(game.current_players())
            player = current[moves % len(current)]
            view = PlayerView.of(game, player)
            if len(view.legal) == 1:
                action = view.legal[0]
            elif player == challenger:
                action = policy(view, rngs[player], game)
            else:
                action = ai.easy(view, rngs[player])
            game.apply(player, action)
            moves += 1
        groups = game.placements()
        scores.append(0.5 if len(groups[0]) > 1 else float(challenger in groups[0]))
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per fair policy (default 2000)")
    parser.add_argument("--oracle-games", type=int, default=100, help="games for the oracle (slow; default 100)")
    parser.add_argument("--policies", nargs="*", choices=list(POLICIES), default=list(POLICIES))
    args = parser.parse_args()
    for name in args.policies:
        games = args.oracle_games if name == "oracle" else args.games
        scores = play(POLICIES[name], games)
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
        print(f"{name:<12} vs easy  games {len(scores):>5}  scores {mean:6.1%} [95% CI {mean - half:6.1%} .. {mean + half:6.1%}]"
              f"  draws {scores.count(0.5)}", flush=True)


if __name__ == "__main__":
    main()
