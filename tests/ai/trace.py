"""A fixed-seed random game's whole story as one digest: every action code and every
event (kind, player, data, private part, public part), plus the final ``to_json``.

The digests in test_behaviour_digest.py were recorded before the engines were sped up
for search; equal digests mean the optimised engines behave identically."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any


def _event_text(event: Any) -> str:
    return json.dumps(
        [event.kind, event.player, dict(event.data), event.private, dict(event.public_data)],
        sort_keys=True,
        default=str,
    )


def game_digest(
    game_cls: type,
    players: list[int],
    options: dict[str, Any],
    seed: int,
    max_steps: int = 5000,
    mover: Callable[[Any, random.Random], tuple[int, Any]] | None = None,
) -> str:
    """Play a seeded random game (a random one of several simultaneous movers each step)
    and hash everything that happened, including the legal action lists.

    ``mover(game, rng)``, when given, picks each step's (player, action) instead, for
    moves ``legal_actions`` cannot list (Enid's typed rituals and their timers); the
    mover's legal list is still digested each step."""
    rng = random.Random(seed)
    game = game_cls.new(players, options, seed=f"digest-{seed}")
    h = hashlib.sha256()
    for event in game.opening_events:
        h.update(_event_text(event).encode())
    for _ in range(max_steps):
        if mover is not None:
            if game.is_over():
                break
            player, action = mover(game, rng)
            h.update(("|".join(a.code() for a in game.legal_actions(player))).encode())
        else:
            current = sorted(game.current_players())
            if not current:
                break
            player = rng.choice(current)
            legal = game.legal_actions(player)
            h.update(("|".join(a.code() for a in legal)).encode())
            action = rng.choice(legal)
        h.update(f"{player}>{action.code()}".encode())
        for event in game.apply(player, action):
            h.update(_event_text(event).encode())
        h.update(json.dumps(game.observation(player), sort_keys=True).encode())
    h.update(game.to_json().encode())
    h.update(json.dumps(game.placements()).encode())
    return h.hexdigest()[:24]
