"""A game's open votes as plain values (Enid's "does this name stand?"): what a
render module's ``ballots(observation, names)`` hook returns. How they are shown and
clicked is the front end's (bot/discord_front/votes.py for Discord)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    code: str  # the action code a click plays for the voter
    label: str
    style: str = "secondary"  # primary, secondary, success, danger


@dataclass(frozen=True)
class Ballot:
    """One open vote, as a game's render describes it."""

    id: str  # the vote's id; when it is also an obligation id, its deadline is the vote's
    question: str  # the message's title
    body: str  # what is voted on, and what the result does
    voters: tuple[int, ...]
    voted: tuple[int, ...]
    choices: tuple[Choice, ...]
