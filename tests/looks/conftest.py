"""The browser and the games the looks tests share: one Chromium per test session, and one
fixed-seed game per kind, played the first time a test asks for it (tools/see.py's plans,
without screenshots).

Without Chromium (or Playwright) the looks tests are skipped with the reason; under CI
(``CI`` set) or with ``DECKHAND_LOOKS_REQUIRED`` set (``.ci/run`` sets it) they fail."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Callable, Iterator

import pytest

from tools import see

# The moments each game is checked at (Enid's vote too, where its game has one).
MOMENTS = ("lobby", "mid", "hand", "final", "vote", "vote-board", "dm-hand")


class Looks:
    """One event loop holding one browser; games played on demand and remembered."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.eyes = see.Eyes()
        self.games: dict[str, list[see.Shot]] = {}

    def run(self, coroutine):
        return self.loop.run_until_complete(coroutine)

    def shots(self, game: str) -> list[see.Shot]:
        if game not in self.games:
            # One table is enough here (Onion's plan plays more rounds to reach its auction).
            plan = dataclasses.replace(next(p for p in see.PLANS if p.game == game and p.language is None), rounds=1)
            if game == "engines":
                # Four players play Engines' best of three sets, some 900 moves (most of this
                # directory's time); two play one set. tools/see.py shoots the four.
                plan = dataclasses.replace(plan, players=2, mid_move=20)
            self.games[game] = self.run(see.shoot_plan(plan, self.eyes, None, light=False, moments=MOMENTS))
        return self.games[game]

    def close(self) -> None:
        try:
            self.run(self.eyes.__aexit__(None, None, None))
        finally:
            self.loop.close()


def _no_browser(reason: str) -> None:
    message = f"The looks tests need a browser: {reason}."
    if os.environ.get("CI") or os.environ.get("DECKHAND_LOOKS_REQUIRED"):
        pytest.fail(message + " CI must render the boards.", pytrace=False)
    pytest.skip(message + " Without it they are skipped.")


@pytest.fixture(scope="session")
def looks() -> Iterator[Looks]:
    shared = Looks()
    try:
        shared.run(shared.eyes.__aenter__())
    except see.NoBrowser as error:
        shared.loop.close()
        _no_browser(str(error))
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture
def shots_of(looks: Looks) -> Callable[[str], list[see.Shot]]:
    """The shots of one game, played once per session."""
    return looks.shots
