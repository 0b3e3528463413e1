"""What the terminal shows of a table, from one seat's view: the board, your cards,
what just happened and your numbered moves, in the game's own words (its render
module), made plain text (``bot.terminal.text``)."""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from bot.rules.engine import Event
from bot.terminal import menu
from bot.terminal.text import panel_lines, plain, wrap_each

#: The board's log field: the terminal prints each move's lines as it happens.
LOG_FIELDS = ("Recent",)


class Screen:
    """Lines to a text stream, wrapped to the terminal's width."""

    def __init__(self, out: TextIO, names: Mapping[int, str]) -> None:
        self.out = out
        self.names = names
        #: A prompt is showing with nothing typed after it (that this program saw).
        self.at_prompt = False
        self.tty = out.isatty()

    @property
    def width(self) -> int:
        return max(40, min(100, shutil.get_terminal_size((80, 24)).columns - 1))

    def show(self, lines: Sequence[str]) -> None:
        if lines:
            if self.at_prompt:  # others moved while you were at the prompt: print over it
                self.out.write("\r\x1b[K" if self.tty else "\n")
                self.at_prompt = False
            self.out.write("\n".join(wrap_each(lines, self.width)) + "\n")
            self.out.flush()

    def say(self, sentence: str) -> None:
        self.show([plain(sentence, self.names)])

    def prompt(self, text: str = "> ") -> None:
        if self.at_prompt:
            return  # one is showing already (what was shown since printed no line)
        self.out.write(text)
        self.out.flush()
        self.at_prompt = True

    def typed(self) -> None:
        """A line came from the keyboard: the prompt it answered is gone."""
        self.at_prompt = False

    def plain(self, text: str) -> str:
        return plain(text, self.names)

    # ------------------------------------------------------------------ the game's words

    def events(self, render: Any, events: Sequence[Event]) -> None:
        """What just happened, one line each, as the table's log says it."""
        self.show([f"· {self.plain(line)}" for line in render.event_lines(events, self.names)])

    def board(self, render: Any, spectator: Mapping[str, Any]) -> list[str]:
        return panel_lines(render.table_embed(spectator, self.names, []), self.names, skip_fields=LOG_FIELDS)

    def hand(self, render: Any, own: Mapping[str, Any]) -> list[str]:
        return panel_lines(render.hand_embed(own, self.names), self.names)

    def moves(self, listed: Sequence[menu.Entry]) -> list[str]:
        if not listed:
            return []
        return ["Your moves:", *menu.lines(listed, self.plain)]
