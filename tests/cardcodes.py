"""Finding card codes in JSON-like values: the leak checks of several games' tests
(no hidden card in an observation or a public message)."""

from __future__ import annotations

import re
from typing import Any

CARD_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[cdhs]$")
#: A card code of any deck: the French suits and Cripple Mr Onion's Latin ones (w t u o),
#: with the * of Onion's marked copy of a special card.
ANY_DECK_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[cdhswtuo]\*?$")


def card_codes_in(value: Any, pattern: re.Pattern[str] = CARD_CODE) -> set[str]:
    """Every string in a JSON-like value that is a card code (by ``pattern``)."""
    found: set[str] = set()
    if isinstance(value, str):
        if pattern.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= card_codes_in(k, pattern) | card_codes_in(v, pattern)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= card_codes_in(v, pattern)
    return found


#: A card as displayed ("7♣", "10♥") inside a text.
_SHOWN_CARD = re.compile(r"(10|[2-9AJQK])([♠♥♦♣])")


def as_text(text: str) -> str:
    """``text`` with each card written as boards' text prints it (``bot.words.render_util.card_text``:
    a white suit sign, joined to its rank; a suit alone as a white sign too), so an
    expected line reads as it did: "played 7♣"."""
    from bot.words.render_util import WORD_JOINER, suit_text

    return suit_text(_SHOWN_CARD.sub(lambda m: m.group(1) + WORD_JOINER + suit_text(m.group(2)), text))
