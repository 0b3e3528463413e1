"""hard: information-set Monte Carlo search by determinization and voting.

The seat cannot see the hidden cards, so it imagines them: ``determinize`` deals the
unseen cards at random among the unseen places (right counts, consistent with its
observation). Each of ``Budget.determinizations`` imagined deals gets its own UCT tree
(UCB1 selection, one node expanded per simulation, then random moves for at most
``Budget.playout_moves`` moves, then ``evaluate`` if the game has not ended). The
simulations go round-robin over the trees, so a time budget is shared fairly. Every
tree votes for its most-visited first move; most votes wins (total visits break ties).

A determinized game is deterministic (reshuffles are seeded from the game's seed), so
a tree's child ``i`` always means the ``i``-th action of that node's legal list. In a
simultaneous phase the tree lets the lowest seat among those to move go first: picks
are hidden, so nobody learns anything from that order. (Opponents in an imagined deal
play as if they could see it: the usual price of determinization.)

If time runs out before every first move has been tried in at least one tree, the
search has no opinion worth the name and the seat plays ``easy`` instead.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from bot.engine import Action, Game

if TYPE_CHECKING:
    from bot.ai import Budget, GameAI, PlayerView

#: UCB1 exploration constant for rewards in [0, 1].
EXPLORATION = 0.7


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


class Node:
    __slots__ = ("mover", "legal", "counts", "wins", "children", "untried", "total", "hidden")

    def __init__(
        self, game: Game, rng: random.Random, mover: int | None = None, legal: list[Action] | None = None, hidden: bool = False
    ) -> None:
        self.hidden = hidden
        if mover is None:
            mover = min(game.current_players())
        self.mover = mover
        self.legal = legal if legal is not None else game.legal_actions(mover)
        n = len(self.legal)
        self.counts = [0] * n
        self.wins = [0.0] * n
        self.children: list[Node | None] = [None] * n
        self.untried = list(range(n))
        rng.shuffle(self.untried)
        self.total = 0

    def select(self) -> int:
        log_total = math.log(self.total)
        best, best_score = 0, -1.0
        counts, wins = self.counts, self.wins
        for i in range(len(counts)):
            score = wins[i] / counts[i] + EXPLORATION * math.sqrt(log_total / counts[i])
            if score > best_score:
                best, best_score = i, score
        return best


#: Share of playout moves that are uniformly random even when the game has a policy.
PLAYOUT_RANDOM = 0.2


def _playout_action(game: Game, player: int, ai: GameAI, rng: random.Random) -> Action:
    if ai.playout is not None and rng.random() >= PLAYOUT_RANDOM:
        return ai.playout(game, player)
    return rng.choice(game.legal_actions(player))


def _rewards(game: Game, movers: set[int], ai: GameAI) -> dict[int, float]:
    if game.is_over():
        return placement_rewards(game)
    return {p: ai.evaluate(game, p) for p in movers}


def _simulate(root_game: Game, root: Node, ai: GameAI, rng: random.Random, playout_moves: int) -> None:
    me = root.mover
    game = root_game.clone()
    node = root
    path: list[tuple[Node, int]] = []
    while True:
        if node.untried:
            index = node.untried.pop()
            game._apply(node.mover, node.legal[index])  # from the node's own legal list
            path.append((node, index))
            if not game.is_over():
                node.children[index] = Node(game, rng, hidden=ai.hidden_pick(game, me) if ai.hidden_pick else False)
            break
        if node.hidden:
            # Another seat's secret pick after the searcher's own: choosing it by UCB
            # would answer a pick it cannot see, so it comes from the playout policy.
            index = node.legal.index(_playout_action(game, node.mover, ai, rng))
        else:
            index = node.select()
        game._apply(node.mover, node.legal[index])
        path.append((node, index))
        child = node.children[index]
        if child is None:  # the game ended here
            break
        node = child
    choice = rng.choice
    for _ in range(playout_moves):
        current = game.current_players()
        if not current:
            break
        player = min(current) if len(current) == 1 else choice(sorted(current))
        game._apply(player, _playout_action(game, player, ai, rng))
    rewards = _rewards(game, {n.mover for n, _ in path}, ai)
    for visited, index in path:
        visited.counts[index] += 1
        visited.wins[index] += rewards.get(visited.mover, 0.0)
        visited.total += 1


def hard(view: PlayerView, ai: GameAI, rng: random.Random, budget: Budget) -> Action:
    legal = list(view.legal)
    trees: list[tuple[Game, Node]] = []
    simulations = 0
    while simulations < budget.iterations and not budget.out_of_time():
        slot = simulations % budget.determinizations
        if slot == len(trees):
            game = ai.determinize(view.observation, legal, rng)
            trees.append((game, Node(game, rng, mover=view.player, legal=legal)))
        game, root = trees[slot]
        _simulate(game, root, ai, rng, budget.playout_moves)
        simulations += 1
    votes = [0] * len(legal)
    visits = [0] * len(legal)
    explored = False
    for _, root in trees:
        if root.untried:
            continue
        explored = True
        votes[max(range(len(legal)), key=root.counts.__getitem__)] += 1
        for i, n in enumerate(root.counts):
            visits[i] += n
    fallback = ai.easy(view, rng)
    if not explored:
        return fallback
    voted = max(range(len(legal)), key=lambda i: (votes[i], visits[i]))
    # The search overrules easy only when it finds the voted move clearly better than
    # easy's own choice: with a small budget most differences are noise.
    wins = [0.0] * len(legal)
    for _, root in trees:
        for i, w in enumerate(root.wins):
            wins[i] += w
    mean = [wins[i] / visits[i] if visits[i] else 0.0 for i in range(len(legal))]
    easy_index = legal.index(fallback)
    if mean[voted] - mean[easy_index] > budget.margin:
        return legal[voted]
    return fallback
