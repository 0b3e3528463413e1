"""Checks for text rendered in the pseudo-language (``bot.i18n.PSEUDO``): every
sentence that went through the catalog comes back wrapped in ``⟦…⟧``, so an English
word left outside the brackets did not go through ``_()``. Also :func:`refusal`, the
games' translation tests' way to read a refusal in the current language."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pytest

from bot.engine import Action, RuleError
from bot.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

#: What may stand outside the brackets without being a missed sentence: mentions,
#: custom emoji, channel links (``<...>``), inline code and URLs.
_NOT_WORDS = re.compile(r"<[^<>]*>|`[^`]*`|https?://\S+")
#: An English word: three or more plain ASCII letters (pseudo text is accented).
_WORD = re.compile(r"[A-Za-z]{3,}")


def outside_brackets(text: str) -> str:
    """``text`` with every ``⟦…⟧`` span removed (spans nest: a translated word put into
    a translated sentence through a field)."""
    out: list[str] = []
    depth = 0
    for char in text:
        if char == PSEUDO_OPEN:
            depth += 1
            out.append(" ")
        elif char == PSEUDO_CLOSE and depth:
            depth -= 1
            out.append(" ")
        elif not depth:
            out.append(char)
    return "".join(out)


def untranslated_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """English words of three or more letters outside ``⟦…⟧`` in ``text``, other than
    the ``allowed`` ones (game titles, side names, words that stay English on purpose)."""
    keep = {word.lower() for word in allowed}
    bare = _NOT_WORDS.sub(" ", outside_brackets(text))
    return [word for word in _WORD.findall(bare) if word.lower() not in keep]


def assert_all_translated(texts: Iterable[str], allowed: Iterable[str] = ()) -> None:
    """Fail naming each text that shows an English word outside the brackets."""
    allowed = list(allowed)
    offenders = {text: words for text in texts if (words := untranslated_words(text, allowed))}
    assert not offenders, f"words that did not go through the catalog: {offenders}"


def refusal(game: Any, player: int, action: Action) -> str:
    """The sentence ``game`` refuses ``action`` with, in the current language; the
    refusal must leave the game exactly as it was."""
    before = game.to_json()
    with pytest.raises(RuleError) as caught:
        game.apply(player, action)
    assert game.to_json() == before
    return str(caught.value)
