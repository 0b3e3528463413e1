"""Checks for text rendered in the pseudo-language (``i18n.PSEUDO``, ``en-XA``).

Every sentence that went through the catalog comes back accented and wrapped in
``⟦…⟧``; what is left outside those brackets did not. ``untranslated_words`` lists the
plain English words (3 letters or more) found there, so a test can assert it is empty
apart from the words a game keeps in English on purpose (Enid's names and rituals,
game titles, card codes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

_INNERMOST = re.compile(re.escape(PSEUDO_OPEN) + "[^" + re.escape(PSEUDO_OPEN + PSEUDO_CLOSE) + "]*" + re.escape(PSEUDO_CLOSE))
#: Not words a player reads as language: mentions, emoji, channels, timestamps, URLs.
_MARKUP = re.compile(r"<[@#:a-zA-Z!&][^<>]*>|https?://\S+")
_WORD = re.compile(r"[A-Za-z]{3,}")


def outside_catalog(text: str) -> str:
    """``text`` with every ``⟦…⟧`` (nested ones included) taken out."""
    previous = None
    while previous != text:
        previous, text = text, _INNERMOST.sub(" ", text)
    return text


def untranslated_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """English words of 3+ letters outside the pseudo-language's brackets, except
    ``allowed`` (compared without case)."""
    keep = {word.lower() for word in allowed}
    rest = _MARKUP.sub(" ", outside_catalog(text))
    return [word for word in _WORD.findall(rest) if word.lower() not in keep]
