"""What a ``deckhand play`` command line asks for, once checked (``bot.terminal.cli``),
and what the terminal table plays (``bot.terminal.table``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: The games, in the order the help lists them; each is ``cogs/<key>/``.
GAMES = ("idiot", "enid", "blackjack", "engines", "onion")
#: The computer players' levels a person can choose (as in a Discord lobby).
LEVELS = ("easy", "hard")
DEFAULT_LEVEL = "easy"
#: Seconds between computer moves, so a person can follow them.
DEFAULT_PAUSE = 1.0
MAX_PAUSE = 10.0


@dataclass(frozen=True)
class PlayOptions:
    """A checked command line."""

    game: str
    #: One level per computer seat, in seat order after yours.
    computers: tuple[str, ...]
    #: House rules and table options (Enid's mode, Onion's variant), as typed and checked.
    rules: Mapping[str, str] = field(default_factory=dict)
    timers: bool = False
    new: bool = False
    name: str = "Player"
    seed: str | None = None
    pause: float = DEFAULT_PAUSE
    data_dir: Path = Path("data/terminal")

    @property
    def players(self) -> int:
        return 1 + len(self.computers)
