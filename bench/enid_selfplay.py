"""Random self-play steps/s of Deckhand Enid next to RLCard's Uno, measured in one run.

    python bench/enid_selfplay.py [--mode enid|plain] [--seconds 5] [--players 3] [--seed 1] [--uno-api env|game|both]

All the measuring is bench/selfplay.py's (see its docstring for what a step is). Enid
differs in one way: rituals. A ritual is answered by typed words (``say``) or by its
timer (``timeout``), which ``legal_actions`` cannot list, and while a card is being
named nobody is "current". So the Deckhand side plays ``EnidGame.random_move``: owed
rituals come first (80%), answered right (80%), wrong (10%) or late (10%, the timer);
turn moves are a uniform pick among the legal actions; votes are random; a middle name
is challenged now and then. ``SelfPlayEnid`` below exposes that one move to
selfplay's runner as the only "legal action" of the one "current player"; the move
itself goes through the real ``apply`` (validation included), so a step costs what it
costs at a table, plus choosing the move. Every say and timeout counts as a step.
"""

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, for selfplay
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the repo root

from selfplay import main  # noqa: E402

from cogs.enid.rules import OVER, EnidGame  # noqa: E402


def self_play_class(mode: str) -> type[EnidGame]:
    apply = EnidGame.apply

    class SelfPlayEnid(EnidGame):
        title = "Enid" if mode == "enid" else "Enid (plain)"

        @classmethod
        def new(cls, players, options=None, *, seed=None, deal=None):
            game = super().new(players, {**(options or {}), "mode": mode}, seed=seed, deal=deal)
            game._rng = random.Random(f"selfplay/{seed}")
            game._planned = None
            return game

        # The runner asks for the current players, then the legal actions, then
        # applies: the move is planned at the first question and kept for the others.
        # (Written out rather than through helper calls and super(): this wrapper's
        # own overhead counts in every step.)
        def current_players(self):
            if self.phase == OVER:
                return frozenset()
            planned = self._planned
            if planned is None:
                planned = self._planned = self.random_move(self._rng)
            return frozenset((planned[0],))

        def legal_actions(self, player):
            planned = self._planned
            if planned is None:
                planned = self._planned = self.random_move(self._rng)
            return [planned[1]]

        def apply(self, player, action):
            self._planned = None
            return apply(self, player, action)

    return SelfPlayEnid


if __name__ == "__main__":
    # Load the pronunciation dictionary before timing (about a second, once per
    # process, as a running bot would): the first limerick vote would pay it otherwise.
    from cogs.enid.limerick import hint

    hint(["a"] * 5)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--mode", choices=("enid", "plain"), default="enid")
    known, rest = pre.parse_known_args()
    main(rest, game_cls=self_play_class(known.mode),
         description="Random self-play steps/s: Deckhand Enid (rituals answered at random) vs RLCard's Uno. --mode enid|plain")
