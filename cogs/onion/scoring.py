"""Cripple Mr Onion: the 104 cards and the hand evaluator.

Pure: no Discord, asyncio, sqlite or clock imports. The rules text is
``shared/seeds/cripple-mr-onion.txt``; every reading we chose is written down in
``docs/rules/onion.md``.

Cards
-----
A code is a rank then a suit letter, any case::

    ranks  A 2 3 4 5 6 7 8 9 T J Q K      (``10`` is accepted for T)
    French c clubs ♣   s spades ♠   h hearts ♥   d diamonds ♦
    Latin  w swords ⚔  t staves 🪄  u cups 🏆    o coins 🪙

    >>> parse_card("Qs").special
    'the Lady'
    >>> format_card(parse_card("10o")), parse_card("10o").display()
    ('To', '10🪙')

For flushes suits pair as clubs+swords, spades+staves, hearts+cups,
diamonds+coins (:attr:`Card.paired_suit`).

Evaluation
----------
:func:`best_arrangement` finds, for up to ten cards, the arrangement into
disjoint groupings that ranks highest; :func:`compare` compares two
arrangements (including crippling by running flushes)::

    >>> best_arrangement(parse_cards("2c 2h 3s 4d 4w 6t 7u Kc Ko Ah")).explain()
    'six-card onion 2♣ 2♥ 3♠ 4♦ 4⚔ 6🪄 · three-card onion K♣ K🪙 A♥=1 · unused 7🏆'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from bot.rules.cards import CardCodeError, Rank
from bot.words.i18n import N_, _, ngettext

__all__ = [
    "Suit", "PairedSuit", "Card", "CardCodeError", "HandError", "parse_card", "parse_cards",
    "format_card", "format_cards", "display_cards", "onion_deck", "SPECIAL_CARDS", "LADY",
    "FATE", "GREAT_ATUIN", "SENDER_OF_EIGHT", "DEATH", "ARCHCHANCELLOR", "FOOL",
    "ScoringContext", "PLAIN", "Grouping", "RunningFlush", "Arrangement", "best_arrangement",
    "compare", "running_flush", "cripples", "showdown_winners", "grouping_order",
]

# =========================================================================== cards


class Suit(enum.Enum):
    """The eight suits: four French, then four Latin, paired in that order."""

    CLUBS = "c"
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    SWORDS = "w"
    STAVES = "t"
    CUPS = "u"
    COINS = "o"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    def __lt__(self, other: Suit) -> bool:  # so cards sort: rank, then suit in the order above
        return _SUIT_INDEX[self] < _SUIT_INDEX[other]

    def __gt__(self, other: Suit) -> bool:
        return _SUIT_INDEX[self] > _SUIT_INDEX[other]

    def __le__(self, other: Suit) -> bool:
        return _SUIT_INDEX[self] <= _SUIT_INDEX[other]

    def __ge__(self, other: Suit) -> bool:
        return _SUIT_INDEX[self] >= _SUIT_INDEX[other]

    @property
    def paired(self) -> PairedSuit:
        return PairedSuit(_SUIT_INDEX[self] % 4)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[_SUIT_INDEX[self]]

    @property
    def is_latin(self) -> bool:
        return _SUIT_INDEX[self] >= 4

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().replace("\ufe0f", "").lower()
        if key in _SUIT_WORDS:
            return _SUIT_WORDS[key]
        raise CardCodeError(
            _("'{text}' is not a suit: use c s h d (French) or w t u o (swords, staves, cups, coins).", text=text)
        )


class PairedSuit(enum.IntEnum):
    """A French suit with its Latin partner: the unit of flushes and running flushes."""

    CLUBS_SWORDS = 0
    SPADES_STAVES = 1
    HEARTS_CUPS = 2
    DIAMONDS_COINS = 3

    @property
    def label(self) -> str:
        return ("clubs/swords", "spades/staves", "hearts/cups", "diamonds/coins")[self]


_SUIT_INDEX = {s: i for i, s in enumerate(Suit)}
_SUIT_BY_INDEX = tuple(Suit)
_SUIT_SYMBOLS = ("♣", "♠", "♥", "♦", "⚔", "🪄", "🏆", "🪙")
_SUIT_WORDS: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_WORDS[_s.value] = _s
    _SUIT_WORDS[_s.name.lower()] = _s
    _SUIT_WORDS[_s.name.lower().rstrip("s")] = _s
    _SUIT_WORDS[_SUIT_SYMBOLS[_SUIT_INDEX[_s]]] = _s
_SUIT_WORDS.update({"♧": Suit.CLUBS, "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS})


class HandError(CardCodeError):
    """A hand the evaluator refuses (duplicate cards, more than ten cards)."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One of the 104 cards. Every (rank, suit) exists exactly once in the pack."""

    rank: Rank
    suit: Suit
    _k: int = field(init=False, repr=False, compare=False)
    _code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_k", int(self.rank) * 8 + _SUIT_INDEX[self.suit])
        object.__setattr__(self, "_code", self.rank.code + self.suit.value)

    def __hash__(self) -> int:  # cheap: cards are hashed a lot during evaluation
        return self._k

    def __str__(self) -> str:  # kept: a move writes a few dozen cards as codes
        return self._code

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def code(self) -> str:
        return str(self)

    def display(self) -> str:
        """With a suit symbol: '10♣', 'Q🪙'."""
        return self.rank.label + self.suit.symbol

    @property
    def paired_suit(self) -> PairedSuit:
        return self.suit.paired

    @property
    def is_picture(self) -> bool:
        return self.rank >= Rank.JACK

    @property
    def is_ace(self) -> bool:
        return self.rank == Rank.ACE

    @property
    def special(self) -> str | None:
        """The name of the special card this is ('the Lady', 'Death', ...), else None."""
        return _SPECIAL_NAMES.get(self)


@lru_cache(maxsize=1024)
def parse_card(text: str) -> Card:
    """Parse a code: rank then suit, any case ('Qs', 'Tt', '10o', 'kw', 'A♠', 'K🏆').
    Kept (cards are immutable): a game's state is read from its codes at every move."""
    raw = text.strip().replace("\ufe0f", "")
    if len(raw) < 2:
        raise CardCodeError(_("'{text}' is not a card code: write a rank then a suit, like Qs, 10o or Kw.", text=text))
    try:
        return Card(Rank.parse(raw[:-1]), Suit.parse(raw[-1]))
    except CardCodeError as error:
        raise CardCodeError(_("'{text}' is not a card code ({error}) Examples: Qs, 10o, Kw.", text=text, error=error)) from None


def parse_cards(text: str) -> list[Card]:
    """Cards separated by spaces or commas: 'Qs Kw, 8o'."""
    return [parse_card(part) for part in text.replace(",", " ").split()]


def format_card(card: Card) -> str:
    return str(card)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def display_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.display() for c in cards)


def onion_deck() -> list[Card]:
    """All 104 cards in a fixed order (suit, then rank)."""
    return [Card(rank, suit) for suit in Suit for rank in Rank]


LADY = Card(Rank.QUEEN, Suit.SPADES)
FATE = Card(Rank.KING, Suit.CUPS)
GREAT_ATUIN = Card(Rank.QUEEN, Suit.COINS)
SENDER_OF_EIGHT = Card(Rank.JACK, Suit.DIAMONDS)
DEATH = Card(Rank.KING, Suit.SWORDS)
ARCHCHANCELLOR = Card(Rank.JACK, Suit.STAVES)
FOOL = Card(Rank.JACK, Suit.CLUBS)
_SPECIAL_NAMES = {
    LADY: "the Lady", FATE: "Fate", GREAT_ATUIN: "Great A'Tuin",
    SENDER_OF_EIGHT: "the Sender of Eight", DEATH: "Death",
    ARCHCHANCELLOR: "the Archchancellor", FOOL: "the Fool",
}
SPECIAL_CARDS = frozenset(_SPECIAL_NAMES)

# =========================================================================== context


@dataclass(frozen=True)
class ScoringContext:
    """Everything about the round and the player that changes the evaluation.

    The default is the plain game: no modifier in play. The game (a later issue)
    decides who declared what and when, and hands the effects in here.
    """

    #: #1 i: eights may count 0 to trump up an onion (only while eights are not wild).
    null_eights: bool = False
    #: #1 ii: eights are wild (the round after a null eight was played).
    eights_wild: bool = False
    #: #4 ii: another player holds the Lady while eights are wild: one of this player's
    #: cards that could count 11 is held to 1 (chosen against the player), Greater Onions excepted.
    lady_devalues: bool = False
    #: #5 i (the Lady's user after Fate is declared): this player's aces count 0 and join nothing.
    aces_zeroed: bool = False
    #: #8: the Sender of Eight is visible (eights normal: using an eight zeroes the user's
    #: aces) or declared (eights wild: all aces zeroed, wild eights never 1 or 11).
    sender: bool = False
    #: #6: this player declared Great A'Tuin (queen of coins in the hand): shift 8 points.
    atuin: bool = False
    #: #7: this player declared the Elephants with the queen of coins.
    elephants: bool = False
    #: #9: the king of swords is visible at the table.
    death: bool = False
    #: #9: the picture Death took from this player; None means the worst one for the player.
    death_victim: Card | None = None
    #: #10 i in play: whoever plays the jack of staves (in a grouping) may not count an eight as 8.
    archchancellor: bool = False
    #: #10: this player has declared the jack of staves (so no eight counts 8 for them).
    archchancellor_declared: bool = False
    #: #10 ii: nobody held the king of swords, so the jack of staves is wild this round.
    archchancellor_wild: bool = False
    #: #11: the Fool was declared: bagels and Onions change places.
    fool: bool = False
    #: Cards in the hand that may join no grouping (e.g. a declared, replaced Lady or Fate).
    excluded: frozenset[Card] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "excluded", frozenset(self.excluded))


PLAIN = ScoringContext()

# =========================================================================== grouping order

# Descriptors: ("bagel", n) n disjoint bagels; ("onion", k, nulls); ("Onion", m) m
# picture-and-ace pairs; and single names.
_NORMAL_ORDER: list[tuple] = [("bagel", n) for n in range(1, 6)] + [("onion", 2, 0), ("broken flush",)]
for _k, _after in ((3, ("flush",)), (4, ("broken Royal",)), (5, ("Royal",)), (6, ("Wild Royal",)), (7, None)):
    _NORMAL_ORDER += [("onion", _k, z) for z in range(_k - 2, -1, -1)]
    if _after:
        _NORMAL_ORDER.append(_after)
_NORMAL_ORDER += [("Elephants",), ("Onion", 2), ("Onion", 3), ("Onion", 4), ("Octavo",), ("Onion", 5)]


def _fool_order() -> list[tuple]:
    low = [("onion", 2, 0), ("Elephants",), ("Onion", 2), ("Onion", 3), ("Onion", 4), ("Octavo",)]
    middle = [d for d in _NORMAL_ORDER if d not in low and d[0] != "bagel" and d != ("Onion", 5)]
    high = [("bagel", 2), ("bagel", 3), ("bagel", 4), ("bagel", 5), ("Onion", 5)]
    return low + [("bagel", 1)] + middle + high


_FOOL_ORDER = _fool_order()
_ORDERS = (_NORMAL_ORDER, _FOOL_ORDER)
_INDEX = tuple({d: i for i, d in enumerate(order)} for order in _ORDERS)
assert sorted(_NORMAL_ORDER) == sorted(_FOOL_ORDER)


def grouping_order(fool: bool = False) -> list[str]:
    """Names of the grouping classes from lowest to highest (the Fool's order if ``fool``)."""
    return [_name(d) for d in _ORDERS[fool]]


_BAGEL_NAMES = ("", "bagel", "double bagel", "triple bagel", "lesser bagel", "great bagel")
_ONION_NAMES = ("", "", "two-card", "three-card", "four-card", "five-card", "six-card", "seven-card")
_BIG_ONION_NAMES = ("", "", "Double Onion", "Triple Onion", "Lesser Onion", "Greater Onion")


def _name(d: tuple) -> str:
    if d[0] == "bagel":
        return _BAGEL_NAMES[d[1]]
    if d[0] == "onion":
        base = f"{_ONION_NAMES[d[1]]} onion"
        return base if not d[2] else f"{base} ({d[2]} null eight{'s' if d[2] > 1 else ''})"
    if d[0] == "Onion":
        return _BIG_ONION_NAMES[d[1]]
    if d[0] == "Octavo":
        return "the Octavo (Lesser Onion)"
    if d[0] == "Elephants":
        return "Elephants' Double Onion"
    return d[0]


# =========================================================================== explanations
# An explanation is English in the state (the rules compare it); these are the sentences
# it is made of, marked for the catalog and put into the current language where it is
# shown. Grouping and card names (onion, bagel, Double Onion, the Lady...) stay English.

NO_GROUPING = N_("no grouping")
UNUSED = N_("unused {cards}")
HOLDS_RUN = N_("holds a {run}")
LADY_NOTE = N_("the Lady holds {card} to 1")
DEATH_NOTE = N_("Death bars {card} from a Double Onion")
DEATH_WILD_NOTE = N_("Death bars {card} from a Double or Triple Onion")
SENDER_NOTE = N_("the Sender of Eight zeroes the aces of a hand using eights")
#: #10 i: "plays" the jack of staves is laying it in a grouping (the note says so, not
#: "played", which a player reads as declared) or declaring it.
ARCHCHANCELLOR_NOTE = N_("J🪄 is laid in a grouping, so by the Archchancellor's rule no eight counts 8")
ARCHCHANCELLOR_DECLARED_NOTE = N_("the Archchancellor was declared, so no eight counts 8")
ATUIN_NOTE = N_("Great A'Tuin shifts 8 from {down} ({down_from}→{down_to}) to {up} ({up_from}→{up_to})")
ELEPHANTS_NOTE = N_("the Elephants take {shift} from {card} (now {left})")
_EXPLANATION_PARTS = (NO_GROUPING, UNUSED, HOLDS_RUN, LADY_NOTE, DEATH_WILD_NOTE, DEATH_NOTE, SENDER_NOTE,
                      ARCHCHANCELLOR_NOTE, ARCHCHANCELLOR_DECLARED_NOTE, ATUIN_NOTE, ELEPHANTS_NOTE)
#: A field of an explanation's part holds no separator of the line (" · ", "; ", parentheses).
_FIELD = "[^;()·]+?"
_FIELD_END = r"(?=$|;|\)| \(| ·)"
_NULL_EIGHTS = re.compile(r"\((\d+) null eights?\)")


def _part_pattern(template: str) -> re.Pattern[str]:
    """A regex finding ``template`` (English) in an explanation, its fields as groups."""
    pieces = re.split(r"\{(\w+)\}", template)
    out = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            out.append(re.escape(piece))
        else:
            out.append(f"(?P<{piece}>{_FIELD})" + (_FIELD_END if i == len(pieces) - 2 and not pieces[-1] else ""))
    return re.compile("".join(out))


_PART_PATTERNS = tuple((template, _part_pattern(template)) for template in _EXPLANATION_PARTS)


#: Every grouping's name (as :func:`_name` writes it, null eights aside) and a running
#: flush's, marked for the catalog: a language names them as its rules page chooses
#: (docs/rules/es/onion.md keeps onion, bagel and Royal, and says the rest in Spanish).
GROUPING_NAMES = {name: name for name in (
    N_("bagel"), N_("double bagel"), N_("triple bagel"), N_("lesser bagel"), N_("great bagel"),
    N_("two-card onion"), N_("three-card onion"), N_("four-card onion"), N_("five-card onion"),
    N_("six-card onion"), N_("seven-card onion"), N_("broken flush"), N_("flush"), N_("broken Royal"),
    N_("Royal"), N_("Wild Royal"), N_("Double Onion"), N_("Triple Onion"), N_("Lesser Onion"),
    N_("Greater Onion"), N_("the Octavo (Lesser Onion)"), N_("Elephants' Double Onion"),
    N_("nine-card running flush"), N_("ten-card running flush"))}
#: A grouping's name where an explanation's part starts (longest first: "double bagel"
#: before "bagel"), or a running flush's anywhere.
_NAME_AT = re.compile(r"(^| · |holds an? )(" + "|".join(
    re.escape(n) for n in sorted(GROUPING_NAMES, key=len, reverse=True)) + r")(?= |$|,|\))")


def _nulls(text: str) -> str:
    return _NULL_EIGHTS.sub(lambda m: ngettext("({n} null eight)", "({n} null eights)", int(m.group(1))), text)


def grouping_text(name: str) -> str:
    """A grouping's name as shown, in the current language ("four-card onion (1 null
    eight)"); English comes back unchanged."""
    base = name if name in GROUPING_NAMES else name.split(" (", 1)[0]
    return _nulls(_(GROUPING_NAMES[base]) + name[len(base):] if base in GROUPING_NAMES else name)


def explanation_text(english: str) -> str:
    """An explanation from :meth:`Arrangement.explain` (English, as the state keeps it)
    in the current language: each of its sentences and grouping names translated, card
    codes kept. English comes back unchanged."""
    text = _nulls(_NAME_AT.sub(lambda m: m.group(1) + _(GROUPING_NAMES[m.group(2)]), english))
    for template, pattern in _PART_PATTERNS:
        text = pattern.sub(lambda m, t=template: _(t, **m.groupdict()), text)
    return text


# =========================================================================== results


@dataclass(frozen=True)
class Grouping:
    """One grouping of an arrangement. ``rank`` orders groupings within one context."""

    kind: tuple
    cards: tuple[Card, ...]
    rank: int
    #: How each card is played, e.g. 'A♥=1', '8♠=0', '8♦=K' (wild), '2♣→10' (A'Tuin).
    shown: tuple[str, ...]
    #: Wild cards in the grouping (for the wild crippling rule, #2).
    wilds: int = 0

    @property
    def name(self) -> str:
        return _name(self.kind)

    @property
    def null_eights(self) -> int:
        return self.kind[2] if self.kind[0] == "onion" else 0

    def describe(self) -> str:
        return f"{self.name} {' '.join(self.shown)}"


@dataclass(frozen=True)
class RunningFlush:
    """Nine or ten cards of consecutive rank in one paired suit (aces low or high, no wrap)."""

    cards: tuple[Card, ...]
    length: int
    paired_suit: PairedSuit
    low: int  # lowest rank of the run: 1 (ace low) .. 6; ace high counts 14
    wilds: int = 0

    def describe(self) -> str:
        return f"{'nine' if self.length == 9 else 'ten'}-card running flush {display_cards(self.cards)}"


@dataclass(frozen=True)
class Arrangement:
    """The best arrangement of a hand under a context."""

    cards: tuple[Card, ...]
    groupings: tuple[Grouping, ...]
    unused: tuple[Card, ...]
    running_flush: RunningFlush | None = None
    notes: tuple[str, ...] = ()
    eights_wild: bool = False
    fool: bool = False
    _packed: int = field(default=0, repr=False, compare=False)

    @property
    def key(self) -> tuple[int, ...]:
        """Grouping ranks, highest first. Compare keys of one context with < and >:
        Python compares tuples exactly as the rules compare hands."""
        return tuple(g.rank for g in self.groupings)

    @property
    def top(self) -> Grouping | None:
        return self.groupings[0] if self.groupings else None

    def explain(self) -> str:
        """One line a player can read, in English: the rules keep it in the state and
        compare it, so it must not depend on who moved; :func:`explanation_text` gives it
        in the current language where it is shown."""
        parts = [g.describe() for g in self.groupings] or [NO_GROUPING]
        if self.unused:
            parts.append(UNUSED.format(cards=display_cards(self.unused)))
        line = " · ".join(parts)
        extra = list(self.notes)
        if self.running_flush:
            extra.append(HOLDS_RUN.format(run=self.running_flush.describe()))
        if extra:
            line += " (" + "; ".join(extra) + ")"
        return line

    def __str__(self) -> str:
        return self.explain()


# =========================================================================== card specs
# Internally each usable card becomes a "spec": what it may count as.

_V11 = (1 << 12) - 2  # values 1..11


class _Spec:
    __slots__ = ("card", "vals", "null", "pic", "ace", "death", "suit", "roles", "weight8",
                 "joker", "note", "sig", "minv", "shifts", "row")

    def __init__(self, card, vals, null=False, pic=False, ace=0, death=False, suit=-1,
                 roles=0, weight8=False, joker=False, note=""):
        self.card = card
        self.vals = vals        # bitmask of values it may count in sums
        self.null = null        # may count 0 in an onion (null eight)
        self.pic = pic          # may be the picture of a picture-and-ace pair
        self.ace = ace          # 1: may be the ace of a pair; 2: only in a Greater Onion
        self.death = death      # Death's victim: no Double (or Triple) Onion
        self.suit = suit        # paired suit 0..3, -1 any (wild)
        self.roles = roles      # Royal ranks it may be: 1 six, 2 seven, 4 eight
        self.weight8 = weight8  # a wild eight (Wild Royal, the Octavo)
        self.joker = joker
        self.note = note
        self.finish()

    def finish(self):
        self.shifts = [v for v in range(0, 12) if self.vals >> v & 1]
        if self.null and not self.vals:
            self.shifts = [0]
        self.minv = 0 if self.null else (self.shifts[0] if self.shifts else 99)
        self.sig = (self.vals, self.null, self.pic, self.ace, self.death, self.suit, self.roles,
                    self.weight8, self.joker)
        partner = 0
        for v in self.shifts:
            if 9 <= v <= 11:
                partner |= 1 << (20 - v)
        # What the candidate search reads, in one tuple.
        self.row = (self.minv, self.shifts, 1 if self.null and self.vals else 0,
                    1 if self.null and not self.vals else 0,
                    (1 << (4 * self.suit)) if self.suit >= 0 else 0, 1 if self.suit < 0 else 0,
                    self.roles, 1 if self.weight8 else 0, partner)
        return self

    def copy(self, **changes):
        new = _Spec.__new__(_Spec)
        for name in _Spec.__slots__:
            setattr(new, name, getattr(self, name))
        for name, value in changes.items():
            setattr(new, name, value)
        return new.finish()


class _Flags(NamedTuple):
    wild: bool
    null_ok: bool
    no8: bool
    sender_wild: bool
    jt_wild: bool


_SPEC_CACHE: dict = {}


def _make_spec(card: Card, f: _Flags, lady: bool = False, death: bool = False) -> _Spec | None:
    """The spec of one card, or None when it can join no grouping (specs are never mutated)."""
    key = (card._k, f, lady, death)
    try:
        return _SPEC_CACHE[key]
    except KeyError:
        spec = _SPEC_CACHE[key] = _new_spec(card, f, lady, death)
        return spec


def _new_spec(card: Card, f: _Flags, lady: bool, death: bool) -> _Spec | None:
    r = int(card.rank)
    ps = card.suit.index % 4
    is_eight = r == 8
    if (is_eight and f.wild) or (card == ARCHCHANCELLOR and f.jt_wild):
        vals = _V11
        if is_eight and f.sender_wild:
            vals &= ~((1 << 1) | (1 << 11))
        if is_eight and f.no8:
            vals &= ~(1 << 8)
        roles = 3 if (is_eight and f.no8) else 7
        ace = 1 if vals >> 11 & 1 else 0
        if lady and ace:
            vals &= ~(1 << 11)
            ace = 2
        return _Spec(card, vals, pic=True, ace=ace, suit=-1, roles=roles, weight8=is_eight,
                     joker=True, death=death)
    if r == 1:
        if lady:
            return _Spec(card, 1 << 1, ace=2, suit=ps)
        return _Spec(card, (1 << 1) | (1 << 11), ace=1, suit=ps)
    if is_eight:
        if f.no8:
            return _Spec(card, 0, null=True, suit=ps) if f.null_ok else None
        return _Spec(card, 1 << 8, null=f.null_ok, suit=ps, roles=4)
    if r >= 10:
        return _Spec(card, 1 << 10, pic=r >= 11, suit=ps, death=death and r >= 11)
    return _Spec(card, 1 << r, suit=ps, roles={6: 1, 7: 2}.get(r, 0))


# =========================================================================== the core search

_MAXF = [max(i & 15, i >> 4 & 15, i >> 8 & 15, i >> 12) for i in range(1 << 16)]
_FLUSH_BITS = sum(1 << v for v in range(16, 22))


def _candidates(specs: list[_Spec], fool: bool, wild: bool) -> list[tuple[int, int]]:
    """Every single grouping the cards can form: (class index, mask), best first."""
    idx = _INDEX[fool]
    n = len(specs)
    best: dict[int, int] = {}
    onion_cls = [[idx.get(("onion", k, z), -1) for z in range(8)] for k in range(8)]
    c_bagel = idx[("bagel", 1)]
    c_bflush = idx[("broken flush",)]
    c_flush = idx[("flush",)]
    c_broyal = idx[("broken Royal",)]
    c_royal = idx[("Royal",)]
    c_wroyal = idx[("Wild Royal",)]

    order = sorted((i for i in range(n) if specs[i].minv <= 21), key=lambda i: specs[i].minv)
    m = len(order)
    if m:
        o_bit = [1 << i for i in order]
        o_min, o_shifts, o_e, o_f, o_suit, o_jok, o_roles, o_w8, _ = zip(*[specs[i].row for i in order])
    maxf = _MAXF
    fb = _FLUSH_BITS

    def rec(start, mask, k, sums, e, f, minsum, sc, jok, r1, r2, w8):
        nk = k + 1
        for p in range(start, m):
            mn = minsum + o_min[p]
            if mn > 21:
                break
            sh = o_shifts[p]
            if len(sh) == 1:
                ns = sums << sh[0]
            else:
                ns = 0
                for v in sh:
                    ns |= sums << v
            nmask = mask | o_bit[p]
            ne = e + o_e[p]
            nf = f + o_f[p]
            nsc = sc + o_suit[p]
            njok = jok + o_jok[p]
            rp = o_roles[p]
            if nk >= 2:
                cls = -1
                if nk <= 7:
                    if ns >> 21 & 1:
                        if nk - nf >= 2:
                            cls = onion_cls[nk][nf]
                    elif ne:
                        for z in range(1, ne + 1):
                            if ns >> (21 + 8 * z) & 1:
                                if nk - z - nf >= 2:
                                    cls = onion_cls[nk][z + nf]
                                break
                if not nf:
                    if nk == 2:
                        if ns >> 20 & 1 and c_bagel > cls:
                            cls = c_bagel
                    elif ns & fb:
                        mx = maxf[nsc] + njok
                        if mx >= nk:
                            if c_flush > cls:
                                cls = c_flush
                        elif mx == nk - 1 and c_bflush > cls:
                            cls = c_bflush
                if nk == 3:
                    if r1 and r2 and rp:
                        if r1 & r2 & rp & 2 and c_royal > cls:
                            cls = c_royal
                        if c_broyal > cls and _perm678(r1, r2, rp):
                            cls = c_broyal
                    if wild and w8 + o_w8[p] == 3 and c_wroyal > cls:
                        cls = c_wroyal
                if cls >= 0:
                    best[nmask] = cls
            if nk < 10 and p + 1 < m and mn + o_min[p + 1] <= 21:
                if nk == 1:
                    rec(p + 1, nmask, nk, ns, ne, nf, mn, nsc, njok, rp, 0, o_w8[p])
                else:
                    rec(p + 1, nmask, nk, ns, ne, nf, mn, nsc, njok, r1, rp if nk == 2 else r2,
                        w8 + o_w8[p])

    if m:
        rec(0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0)

    # Picture-and-ace pairs: Double .. Greater Onion.
    flex = [i for i in range(n) if specs[i].pic or specs[i].ace]
    if len(flex) >= 4:
        for mm in range(2, min(5, len(flex) // 2) + 1):
            cls = idx[("Onion", mm)]
            barred = mm == 2 or (wild and mm == 3)
            for combo in combinations(flex, 2 * mm):
                if _pairs_ok([specs[i] for i in combo], mm, barred):
                    mask = 0
                    for i in combo:
                        mask |= 1 << i
                    if best.get(mask, -1) < cls:
                        best[mask] = cls
    # Several disjoint bagels.
    pairs = []
    for i in range(n):
        partner = specs[i].row[8]
        if not partner:
            continue
        for j in range(i + 1, n):
            if specs[j].vals & partner:
                pairs.append((1 << i) | (1 << j))
    if len(pairs) >= 2:
        for mask, count in _matchings(pairs).items():
            if count >= 2:
                cls = idx[("bagel", count)]
                if best.get(mask, -1) < cls:
                    best[mask] = cls
    # The Octavo: all eight eights, wild.
    if wild:
        w8 = [i for i in range(n) if specs[i].weight8]
        if len(w8) == 8:
            mask = sum(1 << i for i in w8)
            best[mask] = max(best.get(mask, -1), idx[("Octavo",)])
    return sorted(((c, mk) for mk, c in best.items()), reverse=True)


def _perm678(a: int, b: int, c: int) -> bool:
    return ((a & 1 and ((b & 2 and c & 4) or (b & 4 and c & 2)))
            or (a & 2 and ((b & 1 and c & 4) or (b & 4 and c & 1)))
            or (a & 4 and ((b & 1 and c & 2) or (b & 2 and c & 1))))


def _pairs_ok(group: list[_Spec], m: int, barred: bool) -> bool:
    p_only = a_only = 0
    for s in group:
        if barred and s.death:
            return False
        ace = s.ace == 1 or (s.ace == 2 and m == 5)
        if s.pic and ace:
            continue
        if s.pic:
            p_only += 1
        elif ace:
            a_only += 1
        else:
            return False
    return p_only <= m and a_only <= m


def _matchings(pairs: list[int]) -> dict[int, int]:
    """Masks covered by sets of disjoint pairs, with the number of pairs."""
    out: dict[int, int] = {}

    def rec(start, mask, count):
        for p in range(start, len(pairs)):
            pm = pairs[p]
            if not pm & mask:
                nm = mask | pm
                if nm not in out:
                    out[nm] = count + 1
                    rec(p + 1, nm, count + 1)

    rec(0, 0, 0)
    return out


def _search(cands: list[tuple[int, int]], full: int) -> tuple[int, list[tuple[int, int]]]:
    """Best arrangement of ``full``: (packed key, [(class, mask), ...]).

    The best arrangement's highest grouping is of the highest class any subset
    reaches; given it, the rest must be best for the remaining cards (adding a
    grouping to two hands keeps their order). So we branch only on groupings of
    the top class, memoised on the remaining mask. The packed key is
    sum(16**class): comparing packed keys compares hands exactly.
    """
    memo: dict[int, tuple[int, int, int]] = {}

    def best(mask: int) -> int:
        hit = memo.get(mask)
        if hit is not None:
            return hit[0]
        top = -1
        res = -1
        pick = 0
        for cls, m in cands:
            if cls < top:
                break
            if m & mask == m:
                top = cls
                sub = best(mask ^ m)
                if sub > res:
                    res, pick = sub, m
        if top < 0:
            memo[mask] = (0, -1, 0)
            return 0
        val = res + (1 << (4 * top))
        memo[mask] = (val, top, pick)
        return val

    total = best(full)
    picks = []
    mask = full
    while True:
        _, cls, m = memo[mask]
        if cls < 0:
            break
        picks.append((cls, m))
        mask ^= m
    return total, picks


# =========================================================================== driver


def _validate(cards: Iterable[Card]) -> tuple[Card, ...]:
    hand = tuple(cards)
    for c in hand:
        if not isinstance(c, Card):
            raise HandError(f"{c!r} is not a Cripple Mr Onion card.")
    if len(set(hand)) != len(hand):
        raise HandError("A hand holds each card at most once (the pack has one of each).")
    if len(hand) > 10:
        raise HandError("A hand holds at most ten cards.")
    return hand


@dataclass
class _Result:
    packed: int
    specs: list
    picks: list
    extra: list      # fixed groupings outside the core: (class, cards, shown, wilds, kind)
    notes: list


def _core(specs: list[_Spec], ctx: ScoringContext, extra=(), notes=()) -> _Result:
    cands = _candidates(specs, ctx.fool, ctx.eights_wild)
    packed, picks = _search(cands, (1 << len(specs)) - 1)
    for cls, *_ in extra:
        packed += 1 << (4 * cls)
    return _Result(packed, specs, picks, list(extra), list(notes))


def best_arrangement(cards: Iterable[Card], context: ScoringContext = PLAIN) -> Arrangement:
    """The highest-ranking arrangement of up to ten cards under ``context``.

    >>> best_arrangement(parse_cards("Kc Ah Qd As 9h")).explain()
    'Double Onion K♣ A♥ Q♦ A♠ · unused 9♥'
    """
    hand = _validate(cards)
    ctx = context
    live = [c for c in hand if c not in ctx.excluded]
    wild = ctx.eights_wild
    base = _Flags(wild=wild, null_ok=ctx.null_eights and not wild, no8=False,
                  sender_wild=ctx.sender and wild, jt_wild=ctx.archchancellor_wild)
    if ctx.aces_zeroed or (ctx.sender and wild):
        live_for_groups = [c for c in live if not c.is_ace]
    else:
        live_for_groups = live

    # Choices made against the player: the Lady's victim, Death's victim.
    lady_choices: list[Card | None] = [None]
    if ctx.lady_devalues and wild:
        holds_qo = GREAT_ATUIN in live_for_groups
        lady_choices = _dedupe([c for c in live_for_groups
                                if _can_be_eleven(c, ctx, base, holds_qo)]) or [None]
    death_choices: list[Card | None] = [None]
    if ctx.death:
        pictures = [c for c in live_for_groups if c.is_picture]
        if len(pictures) >= 2:
            if ctx.death_victim is not None and ctx.death_victim in pictures:
                death_choices = [ctx.death_victim]
            elif ctx.death_victim is None:
                death_choices = _dedupe(pictures)
    worst: _Result | None = None
    memo: dict | None = {} if len(lady_choices) * len(death_choices) > 1 else None
    for lv in lady_choices:
        for dv in death_choices:
            # Alpha-beta style: once this choice is no worse for the player than the
            # worst found so far, the adversary would not pick it; stop evaluating it.
            res = _player_best(live_for_groups, ctx, base, lv, dv,
                               None if worst is None else worst.packed, memo)
            if worst is None or res.packed < worst.packed:
                worst = res
    assert worst is not None
    return _build(hand, worst, ctx, base)


def _dedupe(cards: list[Card]) -> list[Card]:
    """One card per class of interchangeable cards (same rank, paired suit, special role)."""
    seen = {}
    for c in cards:
        key = (c.rank, c.paired_suit, c in (GREAT_ATUIN, ARCHCHANCELLOR))
        seen.setdefault(key, c)
    return list(seen.values())


def _can_be_eleven(c: Card, ctx: ScoringContext, f: _Flags, holds_qo: bool) -> bool:
    """Could this card count 11 in some arrangement (so the Lady may devalue it)?"""
    if c.is_ace:
        return True
    if (c.rank == 8 and f.wild and not f.sender_wild) or (c == ARCHCHANCELLOR and f.jt_wild):
        return True
    if holds_qo and ctx.atuin and c.rank == 3:
        return True
    if holds_qo and ctx.elephants and c.rank in (9, 10):
        return True
    return False


def _player_best(live: list[Card], ctx: ScoringContext, base: _Flags, lady: Card | None,
                 death: Card | None, cutoff: int | None = None, memo: dict | None = None) -> _Result:
    """The player's best result given the adversary's choices. With ``cutoff``, may stop
    early and return any result at least that good (the caller only needs to know that)."""
    notes0 = []
    if lady is not None:
        notes0.append(LADY_NOTE.format(card=lady.display()))
    if death is not None:
        notes0.append((DEATH_WILD_NOTE if base.wild else DEATH_NOTE).format(card=death.display()))
    pool = [(live, base, notes0)]
    # #8 i: with eights normal, using an eight zeroes the player's aces.
    if ctx.sender and not base.wild:
        nxt = []
        for cards, f, notes in pool:
            has8 = any(c.rank == 8 for c in cards)
            hasA = any(c.is_ace for c in cards)
            if has8 and hasA:
                nxt.append(([c for c in cards if c.rank != 8], f, notes))
                nxt.append(([c for c in cards if not c.is_ace], f,
                            notes + [SENDER_NOTE]))
            else:
                nxt.append((cards, f, notes))
        pool = nxt
    # #10: playing the jack of staves forbids eights counting 8.
    nxt = []
    for cards, f, notes in pool:
        holds = ARCHCHANCELLOR in cards
        has8 = any(c.rank == 8 for c in cards)
        if holds and (ctx.archchancellor_declared or ctx.archchancellor_wild):
            nxt.append((cards, f._replace(no8=True), notes + ([ARCHCHANCELLOR_DECLARED_NOTE] if has8 else [])))
        elif holds and ctx.archchancellor and has8:
            nxt.append(([c for c in cards if c != ARCHCHANCELLOR], f, notes))
            nxt.append((cards, f._replace(no8=True),
                        notes + [ARCHCHANCELLOR_NOTE]))
        else:
            nxt.append((cards, f, notes))
    pool = nxt

    best: _Result | None = None
    for cards, f, notes in pool:
        specs = []
        for c in cards:
            s = _make_spec(c, f, lady=(c == lady), death=(c == death))
            if s is not None:
                specs.append(s)
        options = [(specs, (), notes)]
        holds_qo = GREAT_ATUIN in cards
        if ctx.atuin and holds_qo:
            options += _atuin_options(specs, notes, lady)
        if ctx.elephants and holds_qo:
            options += _elephant_options(specs, ctx, f, notes, lady)
        for sp, extra, nts in options:
            if memo is None:
                res = _core(sp, ctx, extra, nts)
            else:  # the same exact cards and specs recur across the adversary's choices
                key = (tuple(x.card for x in sp), tuple(x.sig for x in sp),
                       tuple(e[:2] for e in extra))
                hit = memo.get(key)
                if hit is None:
                    res = memo[key] = _core(sp, ctx, extra, nts)
                else:
                    res = _Result(hit.packed, hit.specs, hit.picks, hit.extra, list(nts))
            if best is None or res.packed > best.packed:
                best = res
                if cutoff is not None and best.packed >= cutoff:
                    return best
    assert best is not None
    return best


def _atuin_options(specs: list[_Spec], notes: list[str], lady: Card | None):
    """#6: one card down 8 points, a different card up 8, both staying within 1..11."""
    downs, ups = [], []
    for i, s in enumerate(specs):
        if s.joker:
            continue
        downs += [(i, v) for v in (9, 10, 11) if s.vals >> v & 1]
        # The Lady's victim may not be made an 11.
        ups += [(i, v) for v in (1, 2, 3) if s.vals >> v & 1 and not (v == 3 and s.card == lady)]
    # Shifts between cards of the same specs give the same hand, so one of each is
    # tried. The pair is what repeats, not either end: two interchangeable aces are
    # still two cards, one may go down and the other up.
    seen = set()
    out = []
    for i, dv in downs:
        for j, uv in ups:
            if i == j or (specs[i].sig, dv, specs[j].sig, uv) in seen:
                continue
            seen.add((specs[i].sig, dv, specs[j].sig, uv))
            sp = list(specs)
            d, u = specs[i], specs[j]
            sp[i] = d.copy(vals=1 << (dv - 8), ace=0, pic=False, roles=0, death=False,
                           note=f"→{dv - 8}")
            if uv == 1:
                sp[j] = u.copy(vals=1 << 9, ace=0, note="→9")
            elif uv == 2:
                sp[j] = u.copy(vals=1 << 10, pic=True, note="→10")
            else:
                sp[j] = u.copy(vals=1 << 11, ace=1, note="→11")
            note = ATUIN_NOTE.format(down=d.card.display(), down_from=dv, down_to=dv - 8,
                                     up=u.card.display(), up_from=uv, up_to=uv + 8)
            out.append((sp, (), notes + [note]))
    return out


def _elephant_options(specs: list[_Spec], ctx: ScoringContext, f: _Flags, notes, lady):
    """#7: four nines/tens/wild eights declared with the queen of coins make a Double Onion."""
    qo = next(i for i, s in enumerate(specs) if s.card == GREAT_ATUIN)
    elig = [i for i, s in enumerate(specs)
            if i != qo and (s.card.rank in (9, 10) and not s.joker or (s.joker and s.weight8))
            ]
    out = []
    seen = set()
    cls = _INDEX[ctx.fool][("Elephants",)]
    for four in combinations(elig, 4):
        # Cheapest role assignment: two pictures (nine +1, wild 0) and two aces
        # (ten +1, nine +2, wild 0); the Lady's victim may not become an 11.
        best_roles = None
        for pics in combinations(range(4), 2):
            cost = 0
            for k, i in enumerate(four):
                s = specs[i]
                if k in pics:
                    if s.joker:
                        continue
                    if s.card.rank != 9:
                        cost = None
                        break
                    cost += 1
                else:
                    if s.card == lady:
                        cost = None
                        break
                    cost += 0 if s.joker else (1 if s.card.rank == 10 else 2)
            if cost is not None and (best_roles is None or cost < best_roles[0]):
                best_roles = (cost, pics)
        if best_roles is None:
            continue
        shift, pics = best_roles
        nw = sum(1 for i in four if specs[i].joker)
        sig = (tuple(sorted(specs[i].sig for i in four)), shift)
        if sig in seen:
            continue
        seen.add(sig)
        rest = []
        for i, s in enumerate(specs):
            if i in four:
                continue
            if i == qo:
                rest.append(s.copy(vals=1 << (10 - shift), pic=False, ace=0, death=False,
                                   note=f"→{10 - shift}"))
            elif not s.joker and s.card.rank == 9:
                rest.append(s.copy(vals=s.vals | (1 << 1), note="=1?"))
            elif not s.joker and s.card.rank == 10:
                rest.append(s.copy(vals=s.vals | (1 << 2), note="=2?"))
            else:
                rest.append(s)
        cards4 = tuple(specs[i].card for i in four)
        shown = []
        for k, i in enumerate(four):
            s = specs[i]
            if s.joker:
                shown.append(f"{s.card.display()}={'P' if k in pics else 'A'}")
            else:
                shown.append(f"{s.card.display()}→{10 if k in pics else 11}")
        extra = ((cls, cards4, tuple(shown), nw, ("Elephants",)),)
        note = ELEPHANTS_NOTE.format(shift=shift, card=GREAT_ATUIN.display(), left=10 - shift)
        out.append((rest, extra, notes + [note]))
    return out


# =========================================================================== building results


def _build(hand: tuple[Card, ...], res: _Result, ctx: ScoringContext, base: _Flags) -> Arrangement:
    order = _ORDERS[ctx.fool]
    groups: list[Grouping] = []
    used: set[Card] = set()
    for cls, cards4, shown, wilds, kind in res.extra:
        groups.append(Grouping(kind, cards4, cls, shown, wilds))
        used.update(cards4)
    for cls, mask in res.picks:
        members = [res.specs[i] for i in range(len(res.specs)) if mask >> i & 1]
        kind = order[cls]
        shown = _witness(kind, members)
        wilds = sum(1 for s in members if s.joker)
        groups.append(Grouping(kind, tuple(s.card for s in members), cls, shown, wilds))
        used.update(s.card for s in members)
    groups.sort(key=lambda g: -g.rank)
    unused = tuple(c for c in hand if c not in used)
    live = [c for c in hand if c not in ctx.excluded]
    rf = running_flush(live, ctx)
    return Arrangement(hand, tuple(groups), unused, rf, tuple(res.notes), ctx.eights_wild,
                       ctx.fool, res.packed)


def _label(s: _Spec, v: int | str) -> str:
    d = s.card.display()
    if s.joker:
        return f"{d}={v}"
    if s.note and not s.note.endswith("?"):
        return f"{d}{s.note}"
    if s.card.is_ace or (s.null and v == 0) or (s.note and v != s.card.rank):
        return f"{d}={v}"
    return d


def _witness(kind: tuple, members: list[_Spec]) -> tuple[str, ...]:
    """How each card of a grouping is played, for the explanation."""
    name = kind[0]
    if name == "onion":
        vals = _assign(members, {21}, kind[2])
    elif name in ("flush", "broken flush"):
        vals = _assign(members, set(range(16, 22)), 0)
    elif name == "bagel":
        vals = _bagel_values(members)
    elif name == "Onion":
        m = kind[1]
        need_p = m - sum(1 for s in members if s.pic and not _is_pair_ace(s, m))
        out = []
        for s in members:
            if s.pic and _is_pair_ace(s, m):
                role = "P" if need_p > 0 else "A"
                need_p -= role == "P"
                out.append(f"{s.card.display()}={role}" if s.joker else s.card.display() + s.note)
            else:
                out.append(s.card.display() + s.note)
        return tuple(out)
    elif name in ("Royal", "broken Royal"):
        vals = _royal_roles(members, name == "Royal")
    elif name in ("Wild Royal", "Octavo"):
        return tuple(s.card.display() for s in members)
    else:  # pragma: no cover
        vals = [None] * len(members)
    return tuple(_label(s, v) for s, v in zip(members, vals))


def _is_pair_ace(s: _Spec, m: int) -> bool:
    return s.ace == 1 or (s.ace == 2 and m == 5)


def _assign(members: list[_Spec], targets: set[int], nulls: int) -> list[int]:
    n = len(members)

    def rec(i, total, z):
        if i == n:
            return [] if total in targets and z == nulls else None
        s = members[i]
        opts = list(s.shifts) if s.vals else []
        if s.null and z < nulls:
            opts = [0] + [v for v in opts if v]
        for v in opts:
            if v == 0 and not s.null:
                continue
            if total + v > max(targets):
                continue
            rest = rec(i + 1, total + v, z + (1 if s.null and v == 0 else 0))
            if rest is not None:
                return [v] + rest
        return None

    got = rec(0, 0, 0)
    return got if got is not None else [None] * n


def _bagel_values(members: list[_Spec]) -> list[int]:
    n = len(members)
    out: list = [None] * n

    def rec(left):
        if not left:
            return True
        i = left[0]
        for j in left[1:]:
            for v in members[i].shifts:
                w = 20 - v
                if 0 < w < 12 and members[j].vals >> w & 1 and members[i].vals >> v & 1:
                    out[i], out[j] = v, w
                    if rec([x for x in left if x not in (i, j)]):
                        return True
        return False

    rec(list(range(n)))
    return out


def _royal_roles(members: list[_Spec], royal: bool) -> list[int]:
    if royal:
        return [7, 7, 7]
    from itertools import permutations
    for perm in permutations((6, 7, 8)):
        if all(s.roles & {6: 1, 7: 2, 8: 4}[r] for s, r in zip(members, perm)):
            return list(perm)
    return [None, None, None]  # pragma: no cover


# =========================================================================== running flushes & crippling


def running_flush(cards: Iterable[Card], context: ScoringContext = PLAIN) -> RunningFlush | None:
    """The longest running flush in ``cards`` (fewest wild cards among equals), or None.

    Nine or ten cards of consecutive rank in one paired suit. Aces run low (A-2-3...)
    or high (...Q-K-A) but a run never wraps round (no K-A-2). Wild cards fill gaps.
    """
    cards = list(cards)
    if len(cards) < 9:
        return None
    wild = context.eights_wild
    counts = [0, 0, 0, 0]
    for c in cards:
        counts[_SUIT_INDEX[c.suit] % 4] += 1
    if max(counts) < 9 and not (wild or context.archchancellor_wild):
        return None
    jokers = [c for c in cards if (c.rank == 8 and wild) or (c == ARCHCHANCELLOR and context.archchancellor_wild)]
    real = [c for c in cards if c not in jokers]
    best: RunningFlush | None = None
    for length in (10, 9):
        if len(cards) < length:
            continue
        for ps in PairedSuit:
            by_rank: dict[int, Card] = {}
            for c in real:
                if c.paired_suit == ps:
                    by_rank.setdefault(int(c.rank), c)
                    if c.rank == 1:
                        by_rank.setdefault(14, c)
            for low in range(1, 16 - length):
                window = range(low, low + length)
                missing = [r for r in window if r not in by_rank]
                if len(missing) > len(jokers) or not _jokers_fill(missing, jokers, context):
                    continue
                run = tuple(by_rank[r] for r in window if r in by_rank) + tuple(jokers[: len(missing)])
                cand = RunningFlush(run, length, ps, low, len(missing))
                if best is None or cand.wilds < best.wilds:
                    best = cand
        if best is not None:
            return best
    return None


def _jokers_fill(missing: list[int], jokers: list[Card], ctx: ScoringContext) -> bool:
    # A wild eight may not be an ace under the Sender (#8 ii) nor rank 8 for the Archchancellor's holder.
    eights = sum(1 for j in jokers if j.rank == 8)
    others = len(jokers) - eights
    restricted = 0
    for r in missing:
        if (r in (1, 14) and ctx.sender and ctx.eights_wild) or (
                r == 8 and (ctx.archchancellor_declared or ctx.archchancellor_wild)):
            restricted += 1
    return restricted <= others


def cripples(rf: RunningFlush | None, target: Grouping | None, eights_wild: bool = False,
             fool: bool = False) -> bool:
    """Does running flush ``rf`` cripple grouping ``target`` (modifiers #0, #2, #3, #11)?

    A nine-card run cripples a Greater Onion (and, under the Fool, a great bagel); a
    ten-card run also cripples a Lesser Onion. The Octavo is never crippled. When eights
    are wild the run may hold no more wild cards than the crippled grouping.
    """
    if rf is None or target is None:
        return False
    kind = target.kind
    if kind == ("Onion", 5) or (fool and kind == ("bagel", 5)):
        ok = rf.length >= 9
    elif kind == ("Onion", 4):
        ok = rf.length >= 10
    else:
        ok = False
    if ok and eights_wild:
        ok = rf.wilds <= target.wilds
    return ok


def compare(a: Arrangement, b: Arrangement) -> int:
    """1 if ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 for a complete tie.

    A running flush that cripples the other hand's top grouping wins outright;
    otherwise groupings compare highest first (see :attr:`Arrangement.key`). A
    complete tie is settled by seniority, which is the game's business.
    """
    ac = cripples(a.running_flush, b.top, b.eights_wild, b.fool)
    bc = cripples(b.running_flush, a.top, a.eights_wild, a.fool)
    if ac != bc:
        return 1 if ac else -1
    ka, kb = a.key, b.key
    return (ka > kb) - (ka < kb)


def showdown_winners(arrangements: Sequence[Arrangement]) -> list[int]:
    """Indices of the hands that win a showdown before seniority breaks ties.

    Crippling is not transitive pairwise, so a showdown is decided as a whole: the
    normal winner(s) are found by key; if their top grouping is crippled by someone's
    running flush, the longest such run (then fewest wild cards) wins instead.
    """
    if not arrangements:
        return []
    top_key = max(a.key for a in arrangements)
    winners = [i for i, a in enumerate(arrangements) if a.key == top_key]
    target = arrangements[winners[0]]
    cripplers = [i for i, a in enumerate(arrangements)
                 if i not in winners and cripples(a.running_flush, target.top, target.eights_wild, target.fool)]
    if cripplers:
        best = max((arrangements[i].running_flush.length, -arrangements[i].running_flush.wilds)
                   for i in cripplers)
        return [i for i in cripplers
                if (arrangements[i].running_flush.length, -arrangements[i].running_flush.wilds) == best]
    return winners
