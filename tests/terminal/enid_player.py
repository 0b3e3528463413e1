"""A person at an Enid table, for the tests: lays the first card listed and names it
(from the hand's learner names, ``--rule beginner_names=yes``), with a fresh made-up
middle name for a Dennis M. Richie or a Brian W. Kernighan, and says every other
ritual the hand asks for, as the hand's "Now ..." line words it."""

from __future__ import annotations

import itertools
import re

from tests.terminal.driver import Screen

NAMED_CARD = re.compile(r"^(\S+) · (.+)$", re.M)
#: The hand's words while a laid card waits for its name: "your 7♣ is “Alonzo Church of Carp”".
TOLD_NAME = re.compile(r"your (\S+) is “([^”]+)”")
#: The hand's text prints a card with its suit as text, unbroken ("7\u2060♣\ufe0e"); the moves
#: list it as the pack displays it ("7♣"): read the text as the moves name the cards.
AS_MOVES = str.maketrans({"\ufe0e": None, "\u2060": None})


def _text(screen: Screen) -> str:
    return screen.text.translate(AS_MOVES)
MIDDLE = {"M": ("Marmalade", "Mistral", "Meadowlark", "Mandolin", "Muffin", "Marzipan", "Mothball", "Minnow"),
          "W": ("Walrus", "Waffle", "Willow", "Wombat", "Wobble", "Widget", "Wheelbarrow", "Wisteria")}
LIMERICK = ("Who wrote in a language of weeds", "Each line was a tangle", "Of syntax and angle",
            "And nobody followed his leads")
SHOUT = "Haaargh! Be Alonzo Churched! (a bit)"


class EnidPlayer:
    def __init__(self) -> None:
        self.middle = {initial: itertools.cycle(words) for initial, words in MIDDLE.items()}
        self.used: dict[str, int] = {"M": 0, "W": 0}
        self.limerick = iter(())
        self.target = itertools.cycle(("@Deckhand 1", "@Deckhand 2"))
        self.said: list[str] = []

    def name(self, screen: Screen, card: str) -> str:
        names = {**dict(NAMED_CARD.findall(_text(screen))), **dict(TOLD_NAME.findall(_text(screen)))}
        name = names.get(card, "")
        for initial, dotted in (("M", "M."), ("W", "W.")):
            if dotted in name.split():
                self.used[initial] += 1
                fresh = next(self.middle[initial]) + ("" if self.used[initial] <= len(MIDDLE[initial]) else str(self.used[initial]))
                name = name.replace(dotted, fresh)
        return name

    def __call__(self, screen: Screen) -> str:
        moves = screen.moves
        if moves and "Your moves:" in screen.text:
            vote = [n for n, label in moves.items() if label.startswith("Yes, it stands")]
            if vote:
                return str(vote[0])
            number, label = min(moves.items())
            card = label.split()[0]
            words = self.name(screen, card) if card in dict(NAMED_CARD.findall(_text(screen))) else ""
            last = " Last St. Francis of Assisi" if self._cards_left(screen) == 2 and words else ""
            return f"{number} {words}{last}".strip()
        task = _text(screen).rpartition("\nNow ")[2].split("\n\n")[0]  # what the hand says you owe
        told = TOLD_NAME.search(task)
        if told:  # the laid card's name, as the hand gives it (a Richie's middle name made up)
            return self.name(screen, told.group(1))
        return self.ritual(task)

    def ritual(self, task: str) -> str:
        if "rest of the limerick" in task:
            line = next(self.limerick, None)
            if line is None:
                self.limerick = iter(LIMERICK)
                line = next(self.limerick)
            return line
        if "first line of a limerick" in task:
            return "There once was a coder from Leeds"
        if "Last St. Francis" in task or "Last card" in task:
            return "Last St. Francis of Assisi"
        if "Haaargh" in task:
            return f"{SHOUT} {next(self.target)}"
        if "John Buckle" in task:
            return "My John Buckle casts your Mark Rafter to type void!"
        if "Enid Blyton" in task or "Enid name" in task or "middle name" in task:
            return "Enid Blyton"
        return "board"

    @staticmethod
    def _cards_left(screen: Screen) -> int:
        found = re.findall(r"== Your hand: (\d+) cards? ==", screen.text)
        return int(found[-1]) if found else 0
