"""Your legal moves as a numbered list, and what you type read back as a move.

The list is the render module's ``controls(observation, legal)`` (the labels a Discord
hand shows on its buttons and select menus) followed by the choices of any open vote
you may cast (the render module's optional ``ballots``). Two kinds of control take
more than their number, typed after it:

- "amount" (Onion's bets and bids of any size): ``5 7`` plays ``<kind>::7``;
- "multi" (Onion's discards): ``1 2 4`` plays the 2nd and 4th of its listed cards.

Anything else after a plain move's number is words said right after that move, in a
game that hears typed words (``3 Tarski of Carp`` lays a card and names it).

A move may also be chosen by its words instead of its number: ``ready`` for "Ready",
``pick up`` for "Pick up the pile (5)", ``no`` for a vote's "No" (the whole label, or its
first words, of exactly one listed move; case, punctuation and emoji aside).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.rules.engine import Action, Control, RuleError


@dataclass(frozen=True)
class Entry:
    number: int
    control: Control
    #: The vote this choice belongs to, for a vote's choices (its question heads them).
    question: str = ""

    @property
    def place(self) -> str:
        return self.control.place


@dataclass(frozen=True)
class Choice:
    """What a line typed at the prompt asks for: a move, words said after it (or alone)."""

    action: Action | None
    words: str = ""


class Refused(RuleError):
    """Input that names no move; ``str()`` is one sentence for the player."""


def entries(controls: Sequence[Control], ballots: Sequence[Any] = (), voter: int | None = None, parse_action: Callable[[str], Action] = Action.parse) -> list[Entry]:
    """Numbered entries: the controls, then each open vote's choices that ``voter`` may cast."""
    listed = [Entry(n, control) for n, control in enumerate(controls, 1)]
    for ballot in ballots:
        if voter not in ballot.voters or voter in ballot.voted:
            continue
        for choice in ballot.choices:
            control = Control(parse_action(choice.code), label=choice.label, style=choice.style)
            listed.append(Entry(len(listed) + 1, control, question=ballot.question))
    return listed


def lines(listed: Sequence[Entry], plain: Callable[[str], str] = str) -> list[str]:
    """The menu as printed, one move a line (a multi-card choice lists its cards under it)."""
    out: list[str] = []
    question = ""
    for entry in listed:
        if entry.question and entry.question != question:
            question = entry.question
            out.append(f"  Vote: {plain(question[:1].upper() + question[1:])}")
        control = entry.control
        label = plain(control.label)
        text = f"{entry.number:>3}. {label}"
        if control.description:
            text += f"  ({plain(control.description)})"
        if control.place == "amount":
            text += f"  (type {entry.number} and the amount, e.g. {entry.number} 5)"
        elif control.place == "multi":
            cards = "  ".join(f"{i}) {plain(label)}" for i, (_, label) in enumerate(control.choices, 1))
            text += f"  (type {entry.number} and the cards' numbers, e.g. {entry.number} 1 3)"
            out.append(text)
            out.append(f"       {cards}")
            continue
        out.append(text)
    return out


def read(line: str, listed: Sequence[Entry], parse_action: Callable[[str], Action], *, hears_words: bool) -> Choice:
    """The move (and words) a typed line asks for; Refused with a sentence when it names
    no move. A line that does not start with a number is words (in a game that hears
    them), or refused."""
    words = line.split()
    if not words:
        raise Refused("Type a move's number, or help.")
    if not words[0].isdigit():
        named = by_words(line, listed)
        if named is not None:
            return Choice(named.control.action)
        if hears_words:
            return Choice(None, line.strip())
        raise Refused(_which(listed))
    number = int(words[0])
    entry = next((e for e in listed if e.number == number), None)
    if entry is None:
        which = _which(listed)
        raise Refused(f"There is no move {number}: {which[:1].lower()}{which[1:]}")
    rest = words[1:]
    control = entry.control
    if control.place == "amount":
        if len(rest) != 1 or not rest[0].isdigit():
            raise Refused(f"Type {number} and one whole number after it, e.g. {number} 5.")
        return Choice(parse_action(f"{control.action.kind}::{int(rest[0])}"))
    if control.place == "multi":
        return Choice(_multi(number, control, rest, parse_action))
    if rest and not hears_words:
        raise Refused(f"Move {number} takes nothing after its number.")
    return Choice(control.action, " ".join(rest))


_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> tuple[str, ...]:
    """A label's or a typed line's words, lower case, without punctuation, emoji and
    card suits (so "✅ Ready" and "ready!" are both ("ready",))."""
    return tuple(word.casefold() for word in _WORD.findall(text))


def by_words(line: str, listed: Sequence[Entry]) -> Entry | None:
    """The one plain move (a button, a vote's choice) whose label ``line`` spells out,
    whole or its first words ("ready", "pick up", "no"), or None: no such move, or
    several (then the number is needed). A card in the menu of cards, and a move that
    takes an amount or cards after its number, is chosen by its number only."""
    typed = _words(line)
    if not typed:
        return None
    plain = [e for e in listed if e.place == "button"]
    whole = [e for e in plain if _words(e.control.label) == typed]
    if len(whole) == 1:
        return whole[0]
    starts = [e for e in plain if _words(e.control.label)[: len(typed)] == typed]
    return starts[0] if len(starts) == 1 else None


def _multi(number: int, control: Control, picks: Sequence[str], parse_action: Callable[[str], Action]) -> Action:
    count = len(control.choices)
    example = f"e.g. {number} 1 3"
    if not picks:
        raise Refused(f"Type {number} and the numbers of 1 to {control.max_values} of its cards, {example}.")
    if not all(p.isdigit() and 1 <= int(p) <= count for p in picks):
        raise Refused(f"Its cards are numbered 1 to {count}: type {number} and their numbers, {example}.")
    chosen = list(dict.fromkeys(int(p) for p in picks))
    if len(chosen) > control.max_values:
        raise Refused(f"Choose at most {control.max_values} of its cards.")
    codes = ".".join(control.choices[i - 1][0] for i in chosen)
    return parse_action(f"{control.action.kind}:{codes}")


def _which(listed: Sequence[Entry]) -> str:
    if not listed:
        return "You have no move to make just now: wait, or type help."
    return f"Type a move's number, 1 to {len(listed)} (or help)."
