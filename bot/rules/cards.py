"""Standard playing cards: ranks, suits, decks, seeded shuffles, and card codes.

Card codes are short and forgiving on input, canonical on output::

    >>> parse_card("9h"), parse_card("10c"), parse_card("Tc"), parse_card("as")
    (Card(rank=<Rank.NINE: 9>, suit=<Suit.HEARTS: 'h'>), ...)
    >>> str(parse_card("10c"))
    'Tc'
    >>> parse_card("10c").display()
    '10♣'

Pure: no Discord, asyncio, sqlite or clock. Randomness is always explicit (a seed
and a salt), never the module-level ``random``.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.words.i18n import N_, _


class CardCodeError(ValueError):
    """A card code that does not name a card. The message is player-readable."""


class Suit(enum.Enum):
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    def __lt__(self, other: object) -> bool:
        # Cards sort by rank then suit; suits in bridge order: ♣ ♦ ♥ ♠.
        if not isinstance(other, Suit):
            return NotImplemented
        return _SUIT_ORDER[self.value] < _SUIT_ORDER[other.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().lower()
        if key in _SUIT_WORDS:
            return _SUIT_WORDS[key]
        raise CardCodeError(_("'{text}' is not a suit: use c, d, h or s (or ♣ ♦ ♥ ♠).", text=text))


_SUIT_ORDER = {"c": 0, "d": 1, "h": 2, "s": 3}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_WORDS: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_WORDS[_s.value] = _s
    _SUIT_WORDS[_s.name.lower()] = _s
    _SUIT_WORDS[_s.name.lower().rstrip("s")] = _s
    _SUIT_WORDS[_SUIT_SYMBOLS[_s]] = _s
# Text-presentation variants some keyboards produce.
_SUIT_WORDS.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})


class Rank(enum.IntEnum):
    """Ranks with aces low (1). Games that rank aces high map them themselves."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @property
    def label(self) -> str:
        """How a person writes it: 'A', '2'..'10', 'J', 'Q', 'K'."""
        return "10" if self is Rank.TEN else _RANK_CODES[self]

    @property
    def is_picture(self) -> bool:
        return self >= Rank.JACK

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key in _RANK_WORDS:
            return _RANK_WORDS[key]
        raise CardCodeError(_("'{text}' is not a rank: use A, 2-9, T (or 10), J, Q or K.", text=text))


_RANK_CODES = {r: str(r.value) for r in Rank if 2 <= r.value <= 9}
_RANK_CODES.update({Rank.ACE: "A", Rank.TEN: "T", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"})
_RANK_WORDS = {code: rank for rank, code in _RANK_CODES.items()}
_RANK_WORDS.update({"10": Rank.TEN, "1": Rank.ACE})
_RANK_WORDS.update({r.name: r for r in Rank})


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. Two decks hold equal cards: identity is rank and suit only."""

    rank: Rank
    suit: Suit
    # Enum members hash through a Python-level method; cards are hashed constantly
    # (sets, Counters, legal-action lookups), so each card carries its own small key.
    _key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_key", self.rank.value * 4 + _SUIT_ORDER[self.suit.value])

    def __hash__(self) -> int:
        return self._key

    def __str__(self) -> str:
        # By key: the enum properties cost more than the rest (~100 calls per move).
        return CODE_BY_KEY[self._key]

    @property
    def code(self) -> str:
        return str(self)

    def display(self) -> str:
        """Human form with a suit symbol, e.g. '10♣', 'A♠'."""
        return DISPLAY_BY_KEY[self._key]

    @property
    def is_red(self) -> bool:
        return self.suit.is_red

    def __repr__(self) -> str:
        return f"Card({self})"


# --------------------------------------------------------------------------- names in text
# Card names as sentences use them, in the current language (bot/words/i18n.py). Card codes
# and the symbols of Card.display() are the same in every language.

_SUIT_NAMES = {
    # Translators: suit names inside a sentence ("hearts named", "Your spades").
    Suit.CLUBS: (N_("club"), N_("clubs"), N_("Clubs")),
    Suit.DIAMONDS: (N_("diamond"), N_("diamonds"), N_("Diamonds")),
    Suit.HEARTS: (N_("heart"), N_("hearts"), N_("Hearts")),
    Suit.SPADES: (N_("spade"), N_("spades"), N_("Spades")),
}


def suit_name(suit: Suit, *, plural: bool = True, capital: bool = False) -> str:
    """The suit as a word: 'hearts' (the default), 'heart' (``plural=False``), 'Hearts'
    (``capital=True``, for a button)."""
    singular, many, title = _SUIT_NAMES[suit]
    return _(title if capital else (many if plural else singular))


_RANK_NAMES = {
    Rank.ACE: (N_("Ace"), N_("Aces"), N_("an Ace")),
    Rank.JACK: (N_("Jack"), N_("Jacks"), N_("a Jack")),
    Rank.QUEEN: (N_("Queen"), N_("Queens"), N_("a Queen")),
    Rank.KING: (N_("King"), N_("Kings"), N_("a King")),
}


def rank_name(rank: Rank, plural: bool = False) -> str:
    """The rank as a word: 'Ace', '7'; plural 'Aces', '7s'."""
    names = _RANK_NAMES.get(rank)
    if names is not None:
        return _(names[1] if plural else names[0])
    if plural:
        # Translators: the plural of a number card's rank ("Add more 7s").
        return _("{rank}s", rank=rank.label)
    return rank.label


def rank_with_article(rank: Rank) -> str:
    """The rank after an indefinite article: 'an Ace', 'a 7', 'an 8'."""
    names = _RANK_NAMES.get(rank)
    if names is not None:
        return _(names[2])
    if rank is Rank.EIGHT:
        return _("an {rank}", rank=rank.label)
    return _("a {rank}", rank=rank.label)


def card_name(card: Card) -> str:
    """A card as said aloud: '10 of Hearts', 'Queen of Spades' ('Reina de picas')."""
    # Translators: {suit} is capitalised ("Hearts"), {suits} is not ("hearts"): use either.
    return _("{rank} of {suit}", rank=rank_name(card.rank), suit=suit_name(card.suit, capital=True), suits=suit_name(card.suit))


def parse_card(text: str) -> Card:
    """Parse a card code: rank then suit, any case: '9h', 'Tc', '10c', 'As', 'Q♠'."""
    card = _BY_CODE.get(text)
    if card is not None:  # a canonical code, as saved games and action codes hold them
        return card
    raw = text.strip()
    if len(raw) < 2:
        raise CardCodeError(_("'{text}' is not a card code: write a rank then a suit, like 9h, 10c or As.", text=text))
    try:
        return Card(Rank.parse(raw[:-1]), Suit.parse(raw[-1]))
    except CardCodeError as error:
        raise CardCodeError(_("'{text}' is not a card code ({error}) Examples: 9h, 10c, As.", text=text, error=error)) from None


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas: '9h 9c, 4c'."""
    return [parse_card(part) for part in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def display_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.display() for c in cards)


#: One deck's cards, made once: a Card is immutable, so every deck shares them (two
#: decks in one list always shared their objects; equal cards are told apart by
#: place, never by identity). Building 52 frozen dataclasses per deal cost more than
#: shuffling them.
_ONE_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)

#: The card of each canonical code ('9h', 'Tc'): parse_card's fast path.
_BY_CODE: dict[str, Card] = {card.rank.code + card.suit.value: card for card in _ONE_DECK}


#: ``str(card)`` by ``card._key`` (every card is in one deck): ``Card.__str__`` reads it,
#: and per-move paths read it directly (:func:`card_codes`), a method call less.
CODE_BY_KEY: list[str] = [""] * 64
#: ``card.display()`` by ``card._key``.
DISPLAY_BY_KEY: list[str] = [""] * 64
#: A card's place in suit-then-rank order (clubs, diamonds, hearts, spades; Ace low) by
#: ``card._key`` (which is rank-then-suit): sorting these ints sorts the cards that way.
SUIT_RANK_INDEX: list[int] = [0] * 64
for _card in _ONE_DECK:
    CODE_BY_KEY[_card._key] = _card.rank.code + _card.suit.value
    DISPLAY_BY_KEY[_card._key] = _card.rank.label + _card.suit.symbol
    SUIT_RANK_INDEX[_card._key] = _SUIT_ORDER[_card.suit.value] * 16 + _card.rank.value

#: ``parse_card(code).display()`` of each canonical code ('Tc' -> '10♣'), as boards show cards.
DISPLAY_BY_CODE: dict[str, str] = {code: card.display() for code, card in _BY_CODE.items()}


def card_codes(cards: Iterable[Card]) -> list[str]:
    """``[str(c) for c in cards]`` without a ``__str__`` call per card."""
    code_by_key = CODE_BY_KEY
    return [code_by_key[c._key] for c in cards]


def standard_deck(decks: int = 1) -> list[Card]:
    """Every card of ``decks`` 52-card decks in a fixed order (suit, then rank)."""
    return list(_ONE_DECK) * decks


def seeded_rng(seed: int | str, salt: str | int = "") -> random.Random:
    """A reproducible generator for one purpose of one game.

    String seeds hash with SHA-512 inside ``random``, so this is stable across runs
    and Python processes (unlike ``hash()``). ``salt`` separates purposes
    ("deal", "reshuffle-3"), so replaying a game never depends on call order.
    """
    return random.Random(f"{seed}/{salt}")


def shuffled(cards: Sequence[Card], seed: int | str, salt: str | int = "") -> list[Card]:
    out = list(cards)
    _shuffle(seeded_rng(seed, salt), out)
    return out


#: n.bit_length() for the sizes a shuffle meets (a few decks); larger ones compute it.
_BIT_LENGTH = [n.bit_length() for n in range(1024)]


def _shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)`` exactly (the same swaps from the same random bits, so
    every seeded deal is unchanged), without a Python method call per card:
    ``Random.shuffle`` calls ``_randbelow`` for each position, and ``_randbelow`` is
    ``getrandbits(n.bit_length())`` retried until below ``n`` (CPython's
    ``Random._randbelow_with_getrandbits``, used whenever ``getrandbits`` is there)."""
    getrandbits = rng.getrandbits
    bit_length = _BIT_LENGTH
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = bit_length[n] if n < 1024 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def remove_one(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)`` (the first equal card: with two decks equal cards differ in
    identity), comparing the key inline rather than through Card's Python-level equality
    (rules engines call this on their per-move paths)."""
    key = card._key
    for i, held in enumerate(cards):
        if held._key == key:
            del cards[i]
            return
    cards.remove(card)  # not held: raises ValueError exactly as list.remove does


def insort_by_key(cards: list[Card], card: Card) -> None:
    """Put ``card`` into ``cards``, kept in ``_key`` order (rank, then suit), after any
    equal cards: ``bisect.insort(cards, card, key=operator.attrgetter("_key"))``, which
    is also what re-sorting ``cards + [card]`` stably would give.

    For a hand of a few cards a scan from the end is cheaper than bisect: its key
    function reads ``_key`` through the generic attribute lookup, a loop here reads the
    slot directly (rules engines call this on their per-move paths)."""
    key = card._key
    i = len(cards)
    while i and cards[i - 1]._key > key:
        i -= 1
    cards.insert(i, card)


def card_counter(groups: Iterable[Iterable[Card]]) -> Counter[Card]:
    """Multiset of all cards in ``groups``: the tool for card-conservation checks."""
    total: Counter[Card] = Counter()
    for group in groups:
        total.update(group)
    return total
