"""Card pictures: rows of card faces drawn with Pillow, for the table and the hand.

This module is pure (no Discord, no asyncio): the platform calls it off the event loop
(``asyncio.to_thread``) and attaches the PNG to the message edit that happens anyway.

A game's render module describes a picture as :class:`CardRow` values built from an
*observation*: a public picture from the spectator observation only, a hand picture
from that player's own observation. A face-down card is only ever a count, so no
hidden card can be an input of a picture.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CardRow:
    """One labelled row of a card picture.

    ``cards`` are face-up card codes: ``bot.cards`` codes ("9h", "Tc", "As") or, with
    ``deck="onion"``, Cripple Mr Onion's codes (French ``c s h d`` and Latin ``w t u o``
    suits); a trailing ``*`` marks Onion's marked copy of a special card.
    ``face_down`` is how many card backs to draw after them (a count, never identities).
    """

    label: str
    cards: tuple[str, ...] = ()
    face_down: int = 0
    deck: str = "french"
