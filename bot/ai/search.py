"""hard: determinized Monte Carlo search with voting (issue 12).

The seat cannot see the hidden cards, so it imagines them: each *round* ``determinize``
deals the unseen cards at random among the unseen places (right counts, consistent with
its observation), then every legal first move is played in a copy (``Game.clone``) of
that imagined deal and the game is played on by every seat with the game's ``playout``
policy (easy's rule of thumb on the imagined state, with ``GameAI.playout_random`` of
random moves mixed in), for ``Budget.playout_moves`` moves and on to a quiet position
(``GameAI.quiet``); then ``evaluate`` scores it if it has not ended. Short playouts
with a good ``evaluate`` buy many more imagined deals within a budget than whole games
do (Idiot plays 8 moves, Engines to the end of the current search). All first moves of
a round share one deal and one playout random seed (common random numbers), so they
are compared on equal luck, and the round's best move gets its vote. A round the clock
cuts short is dropped.

The most-voted move (total score breaks ties) is played only if its mean gain over
easy's own move, round by round, exceeds both the margin (``Budget.margin``, by default
the game's ``GameAI.margin``) and two standard errors: smaller differences are mostly
noise or the evaluation's bias (trials showed such overrides losing to easy), and
easy's move is the better bet. With no complete round at all (the clock ran out first)
the seat plays easy.

This is Perfect Information Monte Carlo, the one-level form of information-set search:
opponents' later choices are not searched (that would let them answer moves they cannot
see in an imagined deal), they follow the playout policy. Rollouts of a base policy with
the best first move chosen are a policy improvement step over that policy (easy).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from bot.rules.engine import Action, Game

if TYPE_CHECKING:
    from bot.ai.contract import Budget, GameAI, PlayerView

#: A playout that has made its moves plays at most this many more to reach a quiet position.
QUIET_EXTRA = 12


def placement_rewards(game: Game) -> dict[int, float]:
    """A finished game's reward per seated player in [0, 1]: the share of the others
    placed below them, ties counting half (2 players: win 1, draw 0.5, loss 0)."""
    groups = game.placements()
    everyone = [p for group in groups for p in group]
    others = max(1, len(everyone) - 1)
    rewards: dict[int, float] = {}
    below = len(everyone)
    for group in groups:
        below -= len(group)
        for p in group:
            rewards[p] = (below + 0.5 * (len(group) - 1)) / others
    return rewards


def _playout_action(game: Game, player: int, ai: GameAI, rng: random.Random) -> Action:
    if ai.playout is not None and rng.random() >= ai.playout_random:
        return ai.playout(game, player)
    return rng.choice(game.legal_actions(player))


def playout(game: Game, me: int, ai: GameAI, rng: random.Random, moves: int) -> float:
    """Play ``game`` on (it is changed) for ``moves`` moves, then on to a quiet
    position (``GameAI.quiet``, at most QUIET_EXTRA more), and score it for ``me``
    in [0, 1]."""
    quiet = ai.quiet
    for made in range(moves + (QUIET_EXTRA if quiet is not None else 0)):
        if made >= moves and quiet(game):  # type: ignore[misc]
            break
        current = game.current_players()
        if not current:
            break
        player = min(current) if len(current) == 1 else rng.choice(sorted(current))
        game._apply(player, _playout_action(game, player, ai, rng))  # a legal action
    if game.is_over():
        return placement_rewards(game).get(me, 0.0)
    return ai.evaluate(game, me)


def hard(view: PlayerView, ai: GameAI, rng: random.Random, budget: Budget) -> Action:
    legal = list(view.legal)
    me = view.player
    count = len(legal)
    moves = budget.playout_moves if budget.playout_moves is not None else ai.playout_moves
    fallback = ai.easy(view, rng)
    easy_index = legal.index(fallback)
    totals = [0.0] * count
    votes = [0] * count
    rounds = 0
    history: list[list[float]] = []  # every complete round's scores, for the test below
    while (
        rounds < budget.determinizations
        and (rounds + 1) * count <= budget.iterations
        and not budget.out_of_time()
    ):
        deal = ai.determinize(view.observation, legal, rng)
        seed = rng.getrandbits(64)
        scores = []
        for action in legal:
            if budget.out_of_time():
                break
            game = deal.clone()
            game._apply(me, action)  # legal in the imagined deal: it matches the view
            scores.append(playout(game, me, ai, random.Random(seed), moves))
        if len(scores) < count:
            break  # cut short by the clock: not a fair comparison, so no vote
        rounds += 1
        history.append(scores)
        for i, score in enumerate(scores):
            totals[i] += score
        # Easy's move wins a tied round: a tie shows no reason to depart from it.
        votes[max(range(count), key=lambda i: (scores[i], i == easy_index))] += 1
    if not rounds:
        return fallback
    voted = max(range(count), key=lambda i: (votes[i], totals[i]))
    margin = budget.margin if budget.margin is not None else ai.margin
    if voted != easy_index and _clearly_better([r[voted] - r[easy_index] for r in history], margin):
        return legal[voted]
    return fallback


def _clearly_better(gains: list[float], margin: float) -> bool:
    """Is the mean of these paired gains (voted move minus easy's move, per round)
    above ``margin`` and above two standard errors? One round proves nothing."""
    n = len(gains)
    if n < 2:
        return False
    mean = sum(gains) / n
    variance = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean > margin and mean > 2.0 * math.sqrt(variance / n)
