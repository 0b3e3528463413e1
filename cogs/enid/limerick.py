"""A hint for the voters on a limerick: do lines 1, 2 and 5 rhyme, do lines 3 and 4,
and how many syllables each line has. A hint, never a verdict: the players vote.

Pronunciations come from the CMU Pronouncing Dictionary through the ``pronouncing``
package (its data ships with it). Words it does not know get a rough syllable count
from their vowel groups, and their rhymes are reported as unknown (None).
Pure: no Discord, no clock.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pronouncing

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_VOWEL_GROUPS = re.compile(r"[aeiouy]+")


def _words(line: str) -> list[str]:
    return _WORD.findall(line.lower().replace("\u2019", "'"))


_LOADING = threading.Lock()
_loaded = False


def load_dictionary() -> None:
    """Read the pronouncing dictionary now (about 0.4-1 s of parsing). The first
    lookup would do it anyway, on whatever thread asks: the bot calls this in a
    worker thread at start-up (``cogs/enid/cog.py``) so that the first limerick
    judged does not hold up the event loop. The lock makes a lookup that comes while
    the worker is still reading wait for it, never see a half-built dictionary
    (``pronouncing.init_cmu`` sets its globals one by one)."""
    global _loaded
    if _loaded:
        return
    with _LOADING:
        if not _loaded:
            pronouncing.init_cmu()
            _loaded = True


@lru_cache(maxsize=4096)
def _phones(word: str) -> str | None:
    load_dictionary()
    found = pronouncing.phones_for_word(word)
    return found[0] if found else None


def syllables(line: str) -> int:
    total = 0
    for word in _words(line):
        phones = _phones(word)
        if phones is not None:
            total += pronouncing.syllable_count(phones)
        else:
            total += max(1, len(_VOWEL_GROUPS.findall(word.rstrip("e") or word)))
    return total


def last_word(line: str) -> str | None:
    found = _words(line)
    return found[-1] if found else None


def rhyme(a: str | None, b: str | None) -> bool | None:
    """Whether two words rhyme (same stressed vowel onwards); None if either is unknown.
    A word does not rhyme with itself."""
    if not a or not b:
        return None
    pa, pb = _phones(a), _phones(b)
    if pa is None or pb is None:
        return None
    if a == b:
        return False
    return pronouncing.rhyming_part(pa) == pronouncing.rhyming_part(pb)


def _all_rhyme(ends: Sequence[str | None]) -> bool | None:
    results = [rhyme(ends[0], other) for other in ends[1:]]
    if any(r is False for r in results):
        return False
    if any(r is None for r in results):
        return None
    return True


def hint(lines: Sequence[str]) -> dict[str, Any]:
    """JSON-safe hint for five lines: ``syllables`` per line, ``ends`` (last words),
    ``rhyme_125`` and ``rhyme_34`` (True, False, or None when a word is unknown).
    A classic limerick has 8-9 syllables in lines 1, 2, 5 and 5-6 in lines 3, 4."""
    lines = list(lines)[:5] + [""] * (5 - len(lines))
    ends = [last_word(line) for line in lines]
    return {
        "syllables": [syllables(line) for line in lines],
        "ends": ends,
        "rhyme_125": _all_rhyme([ends[0], ends[1], ends[4]]),
        "rhyme_34": rhyme(ends[2], ends[3]),
    }
