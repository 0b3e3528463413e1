"""Finding card codes in JSON-like values: the leak checks of several games' tests
(no hidden card in an observation or a public message)."""

from __future__ import annotations

import re
from typing import Any

CARD_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[cdhs]$")


def card_codes_in(value: Any) -> set[str]:
    """Every string in a JSON-like value that is a card code."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_CODE.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= card_codes_in(k) | card_codes_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= card_codes_in(v)
    return found
