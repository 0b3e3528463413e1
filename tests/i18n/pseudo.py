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
from typing import Any

import pytest

from bot.rules.engine import Action, RuleError
from bot.words.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

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


def untranslated_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Every English word outside ``⟦…⟧`` (repeats included), other than ``allowed``."""
    keep = {word.lower() for word in allowed}
    return [word for word in _WORD.findall(outside_catalog(text)) if word.lower() not in keep]


def assert_all_translated(texts: Iterable[str], allowed: Iterable[str] = ()) -> None:
    """Fail naming each text that shows an English word outside the brackets."""
    allowed = list(allowed)
    offenders = {text: words for text in texts if (words := english_words(text, allowed))}
    assert not offenders, f"words that did not go through the catalog: {offenders}"


def refusal(game: Any, player: int, action: Action) -> str:
    """The sentence ``game`` refuses ``action`` with, in the current language; the
    refusal must leave the game exactly as it was."""
    before = game.to_json()
    with pytest.raises(RuleError) as caught:
        game.apply(player, action)
    assert game.to_json() == before
    return str(caught.value)
