"""Fit Idiot's evaluation (``cogs/idiot/ai.py``: FEATURES, WEIGHTS) to easy-vs-easy games.

    python bench/fit_idiot_eval.py [--games 3000]

Two easy players (one move in ten uniformly random, so the positions vary) play
``--games`` games from fixed seeds; three in ten play-phase positions are kept, seen by
both players, labelled with whether that player won (drawn and stalemated games are left
out). A logistic regression (Newton steps, a tiny ridge) on the features prints the
weights to paste into WEIGHTS, with the fit's log-likelihood and accuracy. Needs numpy
(the ``bench`` extra); the bot itself does not.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

from cogs.idiot import ai  # noqa: E402
from cogs.idiot.rules import PHASE_PLAY, IdiotGame  # noqa: E402


def samples(games: int) -> tuple[np.ndarray, np.ndarray]:
    rng = random.Random(1)
    xs: list[list[float]] = []
    ys: list[float] = []
    for index in range(games):
        game = IdiotGame.new([1, 2], {}, seed=f"fit-{index}")
        kept = []
        moves = 0
        while not game.is_over() and moves < 3000:
            player = sorted(game.current_players())[0]
            legal = game.legal_actions(player)
            if game.phase == PHASE_PLAY and rng.random() < 0.3:
                kept.append((ai.features(game, 1, 2), ai.features(game, 2, 1)))
            action = ai.choose(game.phase, legal, len(game.pile)) if rng.random() > 0.1 else rng.choice(legal)
            game._apply(player, action)
            moves += 1
        if not game.is_over() or len(game.placements()[0]) > 1:
            continue
        winner = game.placements()[0][0]
        for one, two in kept:
            xs += [one, two]
            ys += [float(winner == 1), float(winner == 2)]
    return np.array(xs), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + 1e-3 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args(argv)
    x, y = samples(args.games)
    w = fit(x, y)
    p = 1 / (1 + np.exp(-(x @ w)))
    loglik = float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    print(f"{len(y)} positions from {args.games} games; mean log-likelihood {loglik:.4f} "
          f"(a coin: -0.6931), accuracy {float(np.mean((p > 0.5) == y)):.1%}")
    for name, weight in zip(ai.FEATURES, w):
        print(f"  {name:<28} {weight:+.4f}")
    print("WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")


if __name__ == "__main__":
    main()
