"""Enid's card names and the forgiving matcher that judges what a player typed.

Pure: no Discord, no clock. The names come from the seed's table and the paragraph
after it; every alias is listed in ``docs/rules/enid.md``.

Matching is *forgiving of case, spacing and punctuation, strict about the words*::

    >>> words("Ha! Alonzo  Church, of CARP!!")
    ('ha', 'alonzo', 'church', 'of', 'carp')
    >>> words("Julia Hors d'Ouvre / Water-buffalo")
    ('julia', 'hors', 'douvre', 'water', 'buffalo')

Apostrophes join (``can't`` -> ``cant``); every other non-letter, non-digit splits.
A card is said as "<rank name> of <suit>" ("Alonzo Church of Carp"); the Enid Blyton
needs no suit (there is only one). A message may say other things around the name:
the name only has to appear in it as a run of consecutive words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.rules.cards import Card, Rank, Suit
from bot.words.i18n import N_

# --------------------------------------------------------------------------- words

_APOSTROPHES = re.compile(r"['\u2018\u2019`\u00b4]")
_NON_WORD = re.compile(r"[^0-9a-z]+")
#: A Discord mention; a computer seat's id is negative (``<@-201>``, see bot/core/computer.py).
_MENTION = re.compile(r"<@!?(-?\d+)>")


@lru_cache(maxsize=2048)
def words(text: str) -> tuple[str, ...]:
    """Lower-case words of ``text``; mentions (``<@123>``) are dropped. (Cached: a
    message is read once to accept it and once to judge it.)"""
    text = _MENTION.sub(" ", text).lower()
    text = _APOSTROPHES.sub("", text)
    return tuple(w for w in _NON_WORD.split(text) if w)


def mentions(text: str) -> list[int]:
    """Player ids mentioned in ``text`` (Discord's ``<@id>`` / ``<@!id>`` form)."""
    return [int(m) for m in _MENTION.findall(text)]


def name_key(name_words: Sequence[str]) -> str:
    """How a middle name is compared: its words run together, so "Water-buffalo",
    "water buffalo" and "Waterbuffalo" are one name."""
    return "".join(name_words)


# --------------------------------------------------------------------------- the names

#: Suits as the seed orders them: clubs, spades, hearts, diamonds. The seed spells
#: the last one "Dalmations"; the dog's own spelling is accepted too.
SUIT_NAMES: dict[Suit, tuple[str, ...]] = {
    Suit.CLUBS: ("Carp",),
    Suit.SPADES: ("Sturgeon",),
    Suit.HEARTS: ("Halibut",),
    Suit.DIAMONDS: ("Dalmations", "Dalmatians"),
}

MIDDLE = "*"  # one or more words: a made-up middle name

#: Built-in names by slot. A slot is a rank, with colour where the seed splits it.
BUILTIN: dict[str, tuple[str, ...]] = {
    "black_ace": ("Rob McMahon",),
    "red_ace": ("Jeff Smith", "Jeffy-pheasant without /cs/res", "Jeffy-pheasant (sic) without /cs/res"),
    "two": ("Marvin Minsky",),
    "three": ("Dennis * Richie", "Dennis * Ritchie"),
    "four": ("Brian * Kernighan",),
    "five": ("Tarski", "The Boring One"),
    "six": ("Alan Turing",),
    "seven": ("Alonzo Church",),
    "eight": ("Aho/Sethi/Hopcroft/Ullman",),
    "nine": ("Terry Wogan",),
    "ten": ("Terry Winograd", "Terry who Mage can't pronounce", "The bloke who wrote SHRDLU"),
    "black_jack": ("Mark Rafter",),
    "red_jack": ("John Buckle",),
    "queen": (
        "Julia Dain",
        "Julia Ordain",
        "Julia Hors d'Ouvre",
        "Julia Hors d'Ouvre which must be obeyed as all times",
        "Julia Hors d'Ouvre which must be obeyed at all times",
    ),
    "king": ("Ken Thompson", "Kendall Mint Thompson"),
}

#: The slots a server may rename after local people (the seed: "the Aces, Jacks and Queen").
RENAMEABLE = ("black_ace", "red_ace", "black_jack", "red_jack", "queen")

#: How the beginner's house rule and the bot's own examples say each slot.
CANONICAL = {slot: names[0] for slot, names in BUILTIN.items()}
CANONICAL["three"] = "Dennis M. Richie"
CANONICAL["four"] = "Brian W. Kernighan"

ENID_FIRST, ENID_LAST = "enid", "blyton"
WATER_BUFFALO = "waterbuffalo"
MIDDLE_INITIAL = {Rank.THREE: "m", Rank.FOUR: "w"}

_SLOT_OF_RANK = {
    Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four", Rank.FIVE: "five", Rank.SIX: "six",
    Rank.SEVEN: "seven", Rank.EIGHT: "eight", Rank.NINE: "nine", Rank.TEN: "ten", Rank.QUEEN: "queen",
    Rank.KING: "king",
}


def slot(card: Card) -> str:
    if card.rank is Rank.ACE:
        return "red_ace" if card.is_red else "black_ace"
    if card.rank is Rank.JACK:
        return "red_jack" if card.is_red else "black_jack"
    return _SLOT_OF_RANK[card.rank]


# Words that say nothing about which card is meant: a message made only of these
# (and words of other rituals) is not an attempt at naming a card.
_STOP = frozenset(
    "of the who without which must be obeyed as at all times sic cs res cant pronounce wrote mint one a".split()
)


@dataclass(frozen=True)
class Names:
    """The names in force at one table: built-ins, server renames, and the switch
    that drops the built-in names of renamed slots.

    ``renames`` maps a slot of :data:`RENAMEABLE` to one name or a list of names.
    """

    renames: Mapping[str, tuple[str, ...]]
    keep_builtin: bool = True
    #: display() by ``Card._key``, filled in as cards are said (self-play says them
    #: on every naming; Card and Suit hash in Python code). Not part of the value.
    _said: dict[int, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_options(cls, renames: Mapping[str, object] | None, keep_builtin: bool = True) -> Names:
        clean: dict[str, tuple[str, ...]] = {}
        for key, value in (renames or {}).items():
            if key not in RENAMEABLE:
                continue
            names = (value,) if isinstance(value, str) else tuple(str(v) for v in value)  # type: ignore[union-attr]
            names = tuple(n.strip() for n in names if words(n))
            if names:
                clean[key] = names
        return cls(clean, keep_builtin)

    @classmethod
    def of_observation(cls, observation: Mapping[str, Any]) -> Names:
        """The names in force at the table an observation is of (its renames and the
        ``builtin_names`` house rule), for those who read observations: the hand's words
        and the computer players."""
        rules = observation.get("rules") or {}
        return cls.from_options(observation.get("renames") or {}, rules.get("builtin_names", "keep") == "keep")

    def slot_names(self, key: str) -> tuple[str, ...]:
        """Every accepted name of one slot. A slot is never left nameless: dropping the
        built-ins only removes them where the server gave a name of its own."""
        own = self.renames.get(key, ())
        if own and not self.keep_builtin:
            return own
        return own + BUILTIN[key]

    def display(self, card: Card, enid: Card | None = None) -> str:
        """One way to say ``card`` (the beginner's house rule shows this)."""
        if enid is not None and card == enid:
            return "the Enid Blyton"
        said = self._said.get(card._key)
        if said is None:
            key = slot(card)
            own = self.renames.get(key)
            first = own[0] if own else CANONICAL[key]
            said = self._said[card._key] = f"{first} of {SUIT_NAMES[card.suit][0]}"
        return said

    def keywords(self) -> frozenset[str]:
        found = {ENID_FIRST, ENID_LAST}
        for key in BUILTIN:
            for name in self.slot_names(key):
                found.update(words(name))
        for names in SUIT_NAMES.values():
            for name in names:
                found.update(words(name))
        return frozenset(found - _STOP - {MIDDLE})


# --------------------------------------------------------------------------- matching


def find(pattern: Sequence[str], said: Sequence[str]) -> tuple[int, int, list[str]] | None:
    """First place where ``pattern`` (words; :data:`MIDDLE` = one or more words) runs
    in ``said``: (start, end, middle words), preferring the shortest middle name."""
    # A start whose word is not the pattern's first word cannot match: skip it here
    # rather than in a call (messages are matched on every ritual said).
    first = pattern[0] if pattern and pattern[0] != MIDDLE else None
    for start in range(len(said)):
        if first is not None and said[start] != first:
            continue
        found = _match_at(pattern, said, start)
        if found is not None:
            return start, found[0], found[1]
    return None


def _match_at(pattern: Sequence[str], said: Sequence[str], start: int) -> tuple[int, list[str]] | None:
    i = start
    for index, token in enumerate(pattern):
        if token == MIDDLE:
            rest = pattern[index + 1 :]
            for end in range(i + 1, len(said) + 1):
                tail = _match_at(rest, said, end)
                if tail is not None:
                    return tail[0], list(said[i:end])
            return None
        if i >= len(said) or said[i] != token:
            return None
        i += 1
    return i, []


@dataclass(frozen=True)
class Heard:
    """What a message said about one card: ``right`` if an accepted name of the
    card is in it; ``middle`` holds the made-up middle name's words, if any."""

    right: bool
    middle: tuple[str, ...] = ()


def card_patterns(card: Card, names: Names) -> list[list[str]]:
    """Word patterns of every accepted name of ``card`` (not the Enid), suit included."""
    out = []
    for name in names.slot_names(slot(card)):
        base = [MIDDLE if w == MIDDLE else w for w in _pattern_words(name)]
        for suit_name in SUIT_NAMES[card.suit]:
            out.append([*base, "of", *words(suit_name)])
    return out


def _pattern_words(name: str) -> list[str]:
    parts = name.split(MIDDLE)
    out: list[str] = []
    for i, part in enumerate(parts):
        if i:
            out.append(MIDDLE)
        out.extend(words(part))
    return out


def hear_card(said: Sequence[str], card: Card, names: Names, cache: dict[Card, list[list[str]]] | None = None) -> Heard:
    """``cache`` (optional) keeps ``card_patterns`` by card for one ``names``."""
    if cache is None:
        patterns = card_patterns(card, names)
    else:
        patterns = cache.get(card) or cache.setdefault(card, card_patterns(card, names))
    for pattern in patterns:
        found = find(pattern, said)
        if found is not None:
            return Heard(True, tuple(found[2]))
    return Heard(False)


def enid_pattern(chain: Iterable[Sequence[str]]) -> list[str]:
    out = [ENID_FIRST]
    for name in chain:
        out.extend(name)
    return [*out, MIDDLE, ENID_LAST]


def hear_enid(said: Sequence[str], chain: Sequence[Sequence[str]]) -> Heard:
    """The Enid is "Enid", every chain name in order, one new name, "Blyton"."""
    found = find(enid_pattern(chain), said)
    if found is None:
        return Heard(False)
    return Heard(True, tuple(found[2]))


#: Which part of a card's name was wrong (a misnamed event's ``why``; the middle-name
#: problems below and "time ran out" are the others). "wrong name" is also the Enid's
#: when no "Enid … Blyton" was said: the words never say what the right name is.
WRONG_NAME = "wrong name"
WRONG_SUIT = "wrong suit"
NO_SUIT = "no suit"
NO_MIDDLE = "no middle name"
WRONG_CHAIN = "wrong chain"


def misnamed_part(said: Sequence[str], card: Card, names: Names, *, enid: bool = False) -> str:
    """Which part of a wrong name (``hear_card`` / ``hear_enid`` said no) was wrong: the
    name, the suit (wrong or missing), a Richie's or Kernighan's missing middle name, or
    for the Enid its chain ("Enid … Blyton" said, but not the chain in order and one new
    name: nothing about the chain itself is told)."""
    if enid:
        if ENID_FIRST in said and ENID_LAST in said[said.index(ENID_FIRST) + 1 :]:
            return WRONG_CHAIN
        return WRONG_NAME
    for name in names.slot_names(slot(card)):
        base = _pattern_words(name)
        found = find(base, said)
        if found is not None:
            end = found[1]
            if end < len(said) and said[end] == "of":
                after = said[end + 1 :]
                for suit_names in SUIT_NAMES.values():
                    for suit_name in suit_names:
                        suit_words = words(suit_name)
                        if after[: len(suit_words)] == suit_words:
                            return WRONG_SUIT
            return NO_SUIT
        if MIDDLE in base and find([w for w in base if w != MIDDLE], said) is not None:
            return NO_MIDDLE
    return WRONG_NAME


def middle_name_problem(rank: Rank, middle: Sequence[str], used: Iterable[str]) -> str | None:
    """Why a Richie/Kernighan middle name is refused, or None when it is fine.
    (Water-buffalo is judged by the caller: it is a fine name that costs seven.)"""
    key = name_key(middle)
    initial = MIDDLE_INITIAL[rank]
    if not key or key[0] != initial:
        return MUST_BEGIN_WITH[initial]
    if len(key) < 2:
        return BARE_INITIAL
    if key in set(used):
        return USED_BEFORE
    return None


#: Why a middle name is refused. They travel in the misnamed event's ``why`` in English
#: (the record never changes with the language); the board translates them when shown.
MUST_BEGIN_WITH = {
    "m": N_("a middle name for this card must begin with M"),
    "w": N_("a middle name for this card must begin with W"),
}
BARE_INITIAL = N_("a bare initial is not a made-up middle name")
USED_BEFORE = N_("that middle name was already used this session")
MIDDLE_NAME_PROBLEMS = frozenset({*MUST_BEGIN_WITH.values(), BARE_INITIAL, USED_BEFORE})


# --------------------------------------------------------------------------- the other rituals

#: The rituals' words as the seed has them. Players type them, so they are never
#: translated: a translated sentence takes them through a ``{field}``.
LAST_CARD_CALL = "Last card"
LAST_ENID_CALL = "Last St. Francis of Assisi"
CHURCH_SHOUT = "Haaargh! Be Alonzo Churched! (a bit)"
BUCKLE_CRY = "My John Buckle casts your Mark Rafter to type void!"

LAST_ENID = ("last", "st", "francis", "of", "assisi")
LAST_PLAIN = ("last", "card")
CRY = tuple(words(BUCKLE_CRY))
_SHOUT_REST = tuple(words("be alonzo churched a bit"))
_HAARGH = re.compile(r"^h+a+r+g+h+$")


def said_last(said: Sequence[str], enid_mode: bool) -> tuple[int, int] | None:
    if enid_mode:
        normal = ["st" if w == "saint" else w for w in said]
        found = find(LAST_ENID, normal)
    else:
        found = find(LAST_PLAIN, said)
    return (found[0], found[1]) if found else None


def said_cry(said: Sequence[str]) -> tuple[int, int] | None:
    found = find(CRY, said)
    return (found[0], found[1]) if found else None


def said_shout(said: Sequence[str]) -> tuple[int, int] | None:
    """"Haaargh! Be Alonzo Churched! (a bit)": any number of a's, r's, g's and h's in
    the Haaargh; the rest word for word."""
    for i, word in enumerate(said):
        if _HAARGH.match(word) and tuple(said[i + 1 : i + 1 + len(_SHOUT_REST)]) == _SHOUT_REST:
            return i, i + 1 + len(_SHOUT_REST)
    return None


def without(said: Sequence[str], spans: Iterable[tuple[int, int] | None]) -> list[str]:
    """``said`` with the words of the given spans taken out."""
    drop: set[int] = set()
    for span in spans:
        if span:
            drop.update(range(*span))
    return [w for i, w in enumerate(said) if i not in drop]
