"""Checking rendered text in the pseudo-language (``en-XA``): every sentence that went
through the catalog comes back inside ``⟦…⟧``, so an English word left outside the
brackets is a sentence that did not go through it.

    from tests.i18n.pseudo import english_words

    with i18n.using(i18n.PSEUDO):
        text = render_something()
    assert english_words(text, allowed=GAME_NAMES) == []
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

_INNERMOST = re.compile(f"{re.escape(PSEUDO_OPEN)}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{re.escape(PSEUDO_CLOSE)}")
#: What is not words of a sentence: mentions, custom emoji, `code`, URLs.
_NOT_WORDS = re.compile(r"<[^<>]*>|`[^`]*`|https?://\S+")
#: An English word: three or more plain letters (the pseudo-language accents every letter).
_WORD = re.compile(r"[A-Za-z]{3,}")


def outside_catalog(text: str) -> str:
    """``text`` without its pseudo-translated parts (brackets inside brackets too)."""
    while True:
        stripped = _INNERMOST.sub(" ", text)
        if stripped == text:
            return _NOT_WORDS.sub(" ", stripped)
        text = stripped


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` that did not go through the catalog, once each, in
    order. ``allowed``: phrases that stay English on purpose (names, a game's own terms);
    they are removed first, longest first, as whole words, whatever their case."""
    rest = outside_catalog(text)
    for phrase in sorted(set(allowed), key=len, reverse=True):
        rest = re.sub(rf"(?<![A-Za-z]){re.escape(phrase)}(?![A-Za-z])", " ", rest, flags=re.IGNORECASE)
    return list(dict.fromkeys(_WORD.findall(rest)))
