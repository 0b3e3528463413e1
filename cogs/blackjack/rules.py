"""Blackjack: the chaining shedding game of ``seeds/blackjack.md`` (not casino blackjack).

Pure rules: no Discord, asyncio, sqlite or clock. The player-facing summary, with
every interpretation and house rule, is ``docs/rules/blackjack.md``.

How the seed's turn pseudocode maps onto this engine
----------------------------------------------------
Played cards go straight onto ``discard`` (the seed's own "note for playing"), and
the cards of the turn in progress are remembered in ``turn_cards``. The turn's
position is one of these phases:

``start``      steps 1-4 at the start of a turn. With ``pickup`` > 0 only an Ace or a
               matching 2/Jack may be played; ``draw`` then means "take the pickup".
``chain``      step 5 right after a step-4 card: add cards of the same value, or ``end``.
``free``       the player may either ``end`` or play any matching card (step 4).
               Reached after same-value cards ending in a 2/Jack (step 6's "unless"),
               and after a same-value card played while forced back to step 4 (that
               card can count as a new step-4 card, which may end the turn).
``must_play``  step 4 mid-turn: play a matching card (or an Ace), else draw one and the
               turn ends. Reached after a 3, and after step-5 cards (step 6's goto).
``any_card``   step 4 after a Queen: any card may be played, else draw one.
``suit``       an Ace was just played: the same player names a suit.

When the only thing left to do mid-turn is ``end`` (or the forced draw of step 4),
the engine does it at once; it never plays a card or picks a suit for anyone.

Piles are lists from bottom to top: ``deck[-1]`` is the next card drawn and
``discard[-1]`` is the top of the discard pile (also in ``to_dict`` and stacked deals).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.rules.cards import (
    CODE_BY_KEY,
    Card,
    Rank,
    Suit,
    card_codes,
    rank_name,
    rank_with_article,
    remove_one,
    seeded_rng,
    shuffled,
    standard_deck,
    suit_name,
)
from bot.rules.engine import (
    Action,
    Event,
    Game,
    HouseRule,
    NotYourTurn,
    RuleError,
    UnknownPlayer,
    cards_to_codes,
    changes_state,
    codes_to_cards,
)
from bot.words.i18n import N_, _

# --------------------------------------------------------------------------- options

SHORTFALL_CAP = "cap"
SHORTFALL_DEBT = "debt"

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        key="pickup_shortfall",
        description=N_("What happens when a player must pick up more cards than the draw and discard piles hold."),
        choices=(SHORTFALL_CAP, SHORTFALL_DEBT),
        default=SHORTFALL_CAP,
        choice_descriptions=(
            N_("A pickup bigger than the cards left to draw is cut short: the missing cards are forgiven."),
            N_(
                "A pickup bigger than the cards left to draw is owed: the missing cards are drawn at the end "
                "of later turns, as cards become available."
            ),
        ),
    ),
    HouseRule(
        key="voluntary_draw",
        description=N_("Whether a player may draw a card instead of playing one."),
        choices=("no", "yes"),
        default="no",
        choice_descriptions=(
            N_("You draw only when you cannot play (as the original rules say)."),
            N_("You may draw 1 card and end your turn even when you could play."),
        ),
    ),
)

# --------------------------------------------------------------------------- card facts

POWER_RANKS = frozenset({Rank.ACE, Rank.TWO, Rank.THREE, Rank.EIGHT, Rank.JACK, Rank.QUEEN, Rank.KING})
PICKUP_RANKS = frozenset({Rank.TWO, Rank.JACK})
SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}


# Rank members bound once: looking ``Rank.ACE`` up on the enum class costs ~100 ns
# in Python 3.11, which adds up in the per-card loops of every step.
_ACE, _TWO, _THREE, _EIGHT = Rank.ACE, Rank.TWO, Rank.THREE, Rank.EIGHT
_JACK, _QUEEN, _KING = Rank.JACK, Rank.QUEEN, Rank.KING


def is_power(card: Card) -> bool:
    return card.rank in POWER_RANKS


def pickup_value(card: Card) -> int:
    """How much a card adds to ``pickup``: 2 for a Two, 3/5 for a red/black Jack."""
    if card.rank is _TWO:
        return 2
    if card.rank is _JACK:
        return 3 if card.is_red else 5
    return 0


_DISPLAY_KEYS = {card: (SUIT_ORDER[card.suit], int(card.rank)) for card in standard_deck()}


def display_key(card: Card) -> tuple[int, int]:
    """Stable display order: by suit (clubs, diamonds, hearts, spades), then rank.
    (Cards themselves cannot be sorted: ``Suit`` has no order.)"""
    return _DISPLAY_KEYS[card]


def sorted_cards(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=display_key)


# Hot paths number a card by its display position without hashing it (Card and Suit
# hash through Python code): ``_SUIT_BASE[card.suit._value_] + card.rank`` is
# 16 * suit order + rank, so sorting these ints is sorting by ``display_key``.
_SUIT_BASE = {suit.value: SUIT_ORDER[suit] * 16 for suit in Suit}


def _sign(value: int) -> int:
    return 1 if value >= 0 else -1


# --------------------------------------------------------------------------- phases & actions

START = "start"
CHAIN = "chain"
FREE = "free"
MUST_PLAY = "must_play"
ANY_CARD = "any_card"
SUIT = "suit"
OVER = "over"
PHASES = (START, CHAIN, FREE, MUST_PLAY, ANY_CARD, SUIT, OVER)

DRAW = Action("draw")
END = Action("end")
TIMEOUT_DRAW = Action("draw", arg="timeout")
SUIT_ACTIONS = tuple(Action("suit", arg=s.value) for s in sorted(Suit, key=SUIT_ORDER.__getitem__))
# One shared Action per card: legal_actions builds no new objects per step.
PLAY_ACTIONS: dict[Card, Action] = {card: Action("play", (card,)) for card in standard_deck()}
_PLAY_AT = {_SUIT_BASE[card.suit.value] + card.rank: action for card, action in PLAY_ACTIONS.items()}  # by display index
#: The display index (above) of a card, by ``Card._key``.
_DISPLAY_AT = [0] * 64
for _card in standard_deck():
    _DISPLAY_AT[_card._key] = _SUIT_BASE[_card.suit.value] + _card.rank
#: ``Card._key`` is rank * 4 + the suit's place; the place of each suit letter.
_SUIT_PLACE = {card.suit.value: card._key & 3 for card in standard_deck()}
#: _MATCHES[rank * 4 + suit place][card._key]: may the card go on that rank and suit
#: (an Ace, the suit or the rank)? _PICKUP_MATCHES: the same facing a pickup (an Ace,
#: or a 2/Jack that matches).
_MATCHES: list[list[bool]] = [[False] * 64 for _ in range(64)]
_PICKUP_MATCHES: list[list[bool]] = [[False] * 64 for _ in range(64)]
for _top in standard_deck():
    for _card in standard_deck():
        _fits = _card.rank is Rank.ACE or _card.suit is _top.suit or _card.rank is _top.rank
        _MATCHES[_top._key][_card._key] = _fits
        _PICKUP_MATCHES[_top._key][_card._key] = _card.rank is Rank.ACE or (_card.rank in PICKUP_RANKS and _fits)

def rank_words(rank: Rank, plural: bool = False) -> str:
    """Words for sentences, in the current language: rank_words(Rank.ACE) == 'Ace', plural 'Aces'."""
    return rank_name(rank, plural)


# --------------------------------------------------------------------------- the game


class BlackjackGame(Game):
    key = "blackjack"
    title = "Blackjack"
    min_players = 2
    max_players = 10

    def __init__(self) -> None:
        # Use new() or from_dict(); __init__ only declares the fields.
        self.players: list[int] = []
        self.removed: list[int] = []
        self.options: dict[str, str] = {}
        self.seed: int | str = 0
        self.hands: dict[int, list[Card]] = {}
        self.deck: list[Card] = []
        self.discard: list[Card] = []
        self.chosen_suit: Suit | None = None  # the suit named for an Ace on top
        self.pickup = 0
        self.offset = 1
        self.current: int = 0
        self.phase = START
        self.resume_phase = START  # where the turn goes once the Ace's suit is named
        self.chain_rank: Rank | None = None  # value of the card that opened the current chain
        self.turn_cards: list[Card] = []
        self.reshuffles = 0
        self.debts: dict[int, int] = {}
        self.winner: int | None = None
        self.turn_number = 1
        # The current player's legal actions, computed at most once per state. Only
        # _apply and remove_player change a game after new()/from_dict(), and both
        # drop this on entry and (in a finally) on exit, so it cannot go stale.
        self._legal_cache: list[Action] | None = None

    # -- construction ----------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[int],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> Self:
        """A fresh game from ``seed`` (whole deck dealt round-robin from the first seat,
        first player drawn with ``seeded_rng(seed, "first")``) or a stacked ``deal``::

            {"hands": {pid: ["9h", ...]}, "deck": [bottom ... top], "discard": [bottom ... top],
             "first": pid, "pickup": 0, "offset": 1, "chosen_suit": "h", "debts": {pid: 0}, "seed": 0}

        Only ``hands`` is required; reshuffles in a stacked deal use ``deal["seed"]``.
        """
        cls.check_player_count(players)
        if (seed is None) == (deal is None):
            raise RuleError(_("Start a game with either a seed or a stacked deal, not both or neither."))
        game = cls()
        game.players = [int(p) for p in players]
        game.options = cls._read_options(options or {})
        game.debts = {p: 0 for p in game.players}
        if deal is None:
            game.seed = seed  # type: ignore[assignment]
            deck = shuffled(standard_deck(), seed, "deal")  # type: ignore[arg-type]
            game.hands = {p: [] for p in game.players}
            for i, card in enumerate(deck):
                game.hands[game.players[i % len(game.players)]].append(card)
            game.current = game.players[seeded_rng(seed, "first").randrange(len(game.players))]  # type: ignore[arg-type]
        else:
            game.seed = deal.get("seed", 0)
            hands = {int(p): codes_to_cards(codes) for p, codes in deal["hands"].items()}
            if set(hands) - set(game.players):
                raise RuleError(_("The stacked deal has a hand for someone who is not seated."))
            game.hands = {p: hands.get(p, []) for p in game.players}
            game.deck = codes_to_cards(deal.get("deck", []))
            game.discard = codes_to_cards(deal.get("discard", []))
            game.pickup = int(deal.get("pickup", 0))
            game.offset = int(deal.get("offset", 1))
            suit = deal.get("chosen_suit")
            game.chosen_suit = Suit.parse(suit) if suit else None
            for p, owed in deal.get("debts", {}).items():
                game.debts[int(p)] = int(owed)
            first = int(deal.get("first", game.players[0]))
            if first not in game.players:
                raise RuleError(_("The stacked deal's first player is not seated."))
            game.current = first
        return game

    @staticmethod
    def _read_options(options: Mapping[str, Any]) -> dict[str, str]:
        chosen = {}
        for rule in HOUSE_RULES:
            value = str(options.get(rule.key, rule.default))
            chosen[rule.key] = value if value in rule.choices else rule.default
        return chosen

    # -- queries -----------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def current_players(self) -> frozenset[int]:
        return frozenset() if self.phase == OVER else frozenset((self.current,))

    def top_card(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def suit_to_match(self) -> Suit | None:
        """The top card's suit, or the suit named for an Ace on top."""
        top = self.top_card()
        if top is None:
            return None
        if top.rank is _ACE and self.chosen_suit is not None:
            return self.chosen_suit
        return top.suit

    def playable_cards(self) -> list[Card]:
        """The current player's cards that may be played now, unsorted (hand order)."""
        hand = self.hands[self.current]
        phase = self.phase
        if phase == SUIT or phase == OVER:
            return []
        if phase == ANY_CARD:
            return list(hand)
        if phase == CHAIN:
            rank = self.chain_rank
            return [c for c in hand if c.rank is rank]
        discard = self.discard
        facing_pickup = phase == START and self.pickup > 0
        if not discard:  # the very first play of the game: anything goes
            if facing_pickup:
                return [c for c in hand if c.rank is _ACE or c.rank in PICKUP_RANKS]
            return list(hand)
        top = discard[-1]
        row = top._key
        if self.chosen_suit is not None and top.rank is _ACE:  # suit_to_match(): the named suit
            row = (row & ~3) + _SUIT_PLACE[self.chosen_suit._value_]
        # Step 3: facing a pickup only an Ace, or a 2/Jack that is itself a valid play,
        # avoids it. Otherwise an Ace, the suit to match or the top card's rank.
        fits = (_PICKUP_MATCHES if facing_pickup else _MATCHES)[row]
        return [c for c in hand if fits[c._key]]

    def _draw_is_legal(self, can_play: bool) -> bool:
        if self.phase == START and self.pickup > 0:
            return True  # taking the pickup is always allowed
        if self.phase in (START, MUST_PLAY, ANY_CARD):
            return not can_play or self.options["voluntary_draw"] == "yes"
        return False

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player != self.current:
            return []
        return list(self._current_legal())  # a copy: callers may change their list

    def _current_legal(self) -> list[Action]:
        """The current player's legal actions (the game is not over), from the cache
        when this state already worked them out. The returned list is the cache's own."""
        actions = self._legal_cache
        if actions is not None:
            return actions
        if self.phase == SUIT:
            actions = list(SUIT_ACTIONS)
        else:
            playable = self.playable_cards()
            # Display order (see _SUIT_BASE), and the shared play action of each card.
            display_at = _DISPLAY_AT
            order = [display_at[c._key] for c in playable]
            order.sort()
            play_at = _PLAY_AT
            actions = [play_at[i] for i in order]
            if self._draw_is_legal(bool(playable)):
                actions.append(DRAW)
            if self.phase == CHAIN or self.phase == FREE:
                actions.append(END)
        self._legal_cache = actions
        return actions

    # -- validation & explanations ----------------------------------------------

    def validate(self, player: int, action: Action) -> None:
        # Fast path, accepting exactly what Game.validate accepts for the player to
        # move, without copying the cached legal list. Legal actions are shared
        # module-level objects, so an identity scan usually finds the action before
        # any (slow, Python-level) dataclass comparison is needed.
        if self.phase != OVER and player == self.current and player in self.players:
            legal = self._legal_cache
            if legal is None:
                legal = self._current_legal()
            for allowed in legal:
                if allowed is action:
                    return
            if action in legal:
                return
        # The turn timer's forced draw (see timeout_action) is accepted where it is the
        # timer's move, even when the player could have played; nowhere else.
        if action == TIMEOUT_DRAW and self.phase in (START, MUST_PLAY, ANY_CARD) and action == self.timeout_action(player):
            if player not in self.players:
                raise UnknownPlayer(_("You are not playing in this game."))
            if player != self.current:
                raise NotYourTurn(self.why_not_your_turn(player))
            return
        super().validate(player, action)

    def why_not_your_turn(self, player: int) -> str:
        return _("It is not your turn yet: wait for the player whose turn it is.")

    def why_illegal(self, player: int, action: Action) -> str:
        kind = action.kind
        if kind not in ("play", "draw", "end", "suit"):
            return _("Blackjack has no '{kind}' action: play a card, draw, end your turn, or name a suit after an Ace.", kind=kind)
        if self.phase == SUIT and kind != "suit":
            return _("Name a suit for your Ace first.")
        if kind == "suit":
            if self.phase != SUIT:
                return _("There is no Ace waiting for a suit.")
            return _("'{arg}' is not a suit: choose clubs, diamonds, hearts or spades.", arg=action.arg)
        if kind == "play":
            return self._why_card_illegal(player, action)
        if kind == "draw":
            if action.cards or action.arg not in ("", "timeout"):  # a forged code: no draw of this game carries it
                return super().why_illegal(player, action)
            if action.arg == "timeout" and DRAW in self.legal_actions(player):
                # The timer's forced draw, sent where a plain draw is what is allowed.
                return _("Only the turn timer draws that way: use the Draw button.")
            if self.phase in (CHAIN, FREE):
                return _("You don't need to draw: end your turn instead.")
            example = sorted_cards(self.playable_cards())
            return _(
                "You can play a card (for example {card}), so you may not draw: "
                "at this table you draw only when you cannot play.",
                card=example[0].display(),
            )
        # end
        if self.phase == START:
            return _("You haven't played yet: play a card or draw.")
        if self.phase == ANY_CARD:
            return _("You played a Queen, so you must play another card (any card will do).")
        last = self.turn_cards[-1] if self.turn_cards else None
        if last is not None and last.rank is Rank.THREE:
            return _("You played a 3, so you must play another card ({hint}) or draw one.", hint=self._match_hint())
        if self.chain_rank:
            return _(
                "You played more than one {rank} in a row, so you must play again ({hint}) or draw one.",
                rank=rank_words(self.chain_rank), hint=self._match_hint(),
            )
        return _("You played more than one card in a row, so you must play again ({hint}) or draw one.", hint=self._match_hint())

    def _match_hint(self) -> str:
        top = self.top_card()
        suit = self.suit_to_match()
        if top is None or suit is None:
            return _("any card")
        # Translators: {suit} is one suit ("heart"), {suits} the plural ("hearts"): use either.
        if top.rank is Rank.ACE:
            return _("a {suit} or an Ace", suit=suit_name(suit, plural=False), suits=suit_name(suit))
        return _("{rank} or a {suit}, or an Ace", rank=rank_with_article(top.rank), suit=suit_name(suit, plural=False),
                 suits=suit_name(suit))

    def _why_card_illegal(self, player: int, action: Action) -> str:
        if len(action.cards) != 1:
            return _("Play one card at a time.")
        card = action.cards[0]
        if card not in self.hands.get(player, ()):
            return _("You don't have {card}.", card=card.display())
        top = self.top_card()
        if self.phase == CHAIN and self.chain_rank is not None:
            ranks = rank_words(self.chain_rank, plural=True)
            if top is None:
                return _("After that card you may only add more {ranks} this turn, or end your turn.", ranks=ranks)
            return _("After {card} you may only add more {ranks} this turn, or end your turn.", card=top.display(), ranks=ranks)
        if top is None:
            if self.phase == START and self.pickup > 0:
                return _("There are {n} cards to pick up: only an Ace, a 2 or a Jack avoids them.", n=self.pickup)
            return _("You cannot play {card} now.", card=card.display())
        if self.phase == START and self.pickup > 0:
            return _(
                "There are {n} cards to pick up: only an Ace, or a 2 or Jack that matches "
                "{card}, avoids them. Otherwise take the pickup with Draw.",
                n=self.pickup, card=top.display(),
            )
        if top.rank is Rank.ACE and self.chosen_suit is not None:
            return _(
                "{card} does not match the {top} ({suit} named) on the pile: play {hint}.",
                card=card.display(), top=top.display(), suit=suit_name(self.chosen_suit), hint=self._match_hint(),
            )
        return _("{card} does not match the {top} on the pile: play {hint}.", card=card.display(), top=top.display(),
                 hint=self._match_hint())

    # -- moves -------------------------------------------------------------------

    @changes_state
    def _apply(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action.kind
        if kind == "play":
            self._play(player, action.cards[0], events)
        elif kind == "suit":
            self.chosen_suit = Suit.parse(action.arg)
            self.phase = self.resume_phase
            events.append(Event("suit", player, {"suit": self.chosen_suit.value}))
        elif kind == "draw":
            if self.phase == START and self.pickup > 0:
                self._take_pickup(player, events)
            else:
                reason = "timeout" if action.arg == "timeout" else ("voluntary" if self.playable_cards() else "cannot_play")
                self._draw_for(player, 1, reason, events)
                self._finish_turn(events)
        elif kind == "end":
            self._finish_turn(events)
        self._auto_continue(player, events)
        return events

    def _play(self, player: int, card: Card, events: list[Event]) -> None:
        remove_one(self.hands[player], card)
        self.discard.append(card)
        self.turn_cards.append(card)
        self.chosen_suit = None
        previous_phase = self.phase
        rank = card.rank
        data: dict[str, Any] = {"card": CODE_BY_KEY[card._key]}
        if rank is _TWO or rank is _JACK:  # rank in PICKUP_RANKS
            self.pickup += pickup_value(card)
        elif self.pickup:
            data["cancelled"] = self.pickup  # any card but a 2/Jack wipes the pickup
            self.pickup = 0
        data["pickup"] = self.pickup
        events.append(Event("play", player, data))
        if rank is _EIGHT:
            self.offset += _sign(self.offset)
            events.append(Event("skip", player, {"offset": self.offset}))
        elif rank is _KING:
            self.offset = -self.offset
            events.append(Event("reverse", player, {"direction": _sign(self.offset)}))

        if rank is _THREE:
            next_phase = MUST_PLAY
        elif rank is _QUEEN:
            next_phase = ANY_CARD
        elif previous_phase == CHAIN:
            # A same-value card at step 5; step 6 then ends the choice unless it was a 2/Jack.
            next_phase = FREE if rank is _TWO or rank is _JACK else MUST_PLAY  # rank in PICKUP_RANKS
        elif previous_phase in (FREE, MUST_PLAY) and rank is self.chain_rank:
            # Either one more step-5 card or a fresh step-4 card: the player gets the
            # freedoms of both readings (continue with a match, or stop here).
            next_phase = FREE
        else:
            next_phase = CHAIN  # a step-4 card opens a new chain of its value
        self.chain_rank = rank
        if rank is _ACE:
            self.resume_phase = next_phase
            self.phase = SUIT
        else:
            self.phase = next_phase

    def _auto_continue(self, player: int, events: list[Event]) -> None:
        """Mid-turn, when nothing but ending (or step 4's forced draw) is possible, do it."""
        phase = self.phase
        if phase == OVER or self.current != player or not self.turn_cards:
            return
        if (phase == CHAIN or phase == FREE) and not self.playable_cards():
            self._finish_turn(events)
        elif (phase == MUST_PLAY or phase == ANY_CARD) and not self.playable_cards():
            self._draw_for(player, 1, "cannot_play", events)
            self._finish_turn(events)

    def _take_pickup(self, player: int, events: list[Event]) -> None:
        owed = self.pickup
        self.pickup = 0
        drawn = self._draw_for(player, owed, "pickup", events)
        events.append(Event("pickup_taken", player, {"count": owed, "drawn": len(drawn)}))
        self._finish_turn(events)  # step 3: straight to step 8

    # -- drawing ------------------------------------------------------------------

    def _draw_cards(self, count: int, events: list[Event]) -> list[Card]:
        """Up to ``count`` cards off the deck, reshuffling the discard (all but its top
        card) into the deck whenever the deck runs out."""
        drawn: list[Card] = []
        while len(drawn) < count:
            if not self.deck:
                if len(self.discard) <= 1:
                    break
                self.reshuffles += 1
                self.deck = shuffled(self.discard[:-1], self.seed, f"reshuffle-{self.reshuffles}")
                del self.discard[:-1]
                events.append(Event("reshuffle", None, {"cards": len(self.deck), "number": self.reshuffles}))
            take = min(count - len(drawn), len(self.deck))
            drawn.extend(reversed(self.deck[-take:]))
            del self.deck[-take:]
        return drawn

    def _draw_for(self, player: int, count: int, reason: str, events: list[Event]) -> list[Card]:
        drawn = self._draw_cards(count, events)
        self.hands[player].extend(drawn)
        short = count - len(drawn)
        if short and self.options["pickup_shortfall"] == SHORTFALL_DEBT and reason != "debt":
            self.debts[player] += short
        public = {"count": len(drawn), "reason": reason, "short": short}
        events.append(Event("draw", player, {**public, "cards": card_codes(drawn)}, private=True, public_data=public))
        return drawn

    def _pay_debts(self, first: int, events: list[Event]) -> None:
        """Debt house rule: owed cards are drawn, in playing order from ``first``, at the
        end of every turn (and when a leaving player's cards enter the deck)."""
        if self.options["pickup_shortfall"] != SHORTFALL_DEBT or not any(self.debts.values()):
            return
        start = self.players.index(first)
        step = _sign(self.offset)
        for i in range(len(self.players)):
            if not self._cards_available():
                return
            debtor = self.players[(start + i * step) % len(self.players)]
            owed = self.debts[debtor]
            if owed:
                drawn = self._draw_for(debtor, owed, "debt", events)
                self.debts[debtor] = owed - len(drawn)

    def _cards_available(self) -> bool:
        return bool(self.deck) or len(self.discard) > 1

    # -- ending turns -------------------------------------------------------------

    def _finish_turn(self, events: list[Event]) -> None:
        """Steps 7-9: the played cards are already on the discard pile."""
        player = self.current
        if not self.hands[player]:
            last = self.turn_cards[-1] if self.turn_cards else None
            if last is not None and is_power(last):
                self._draw_for(player, 1, "power_last", events)  # step 8's "unless"
            elif not self.debts[player]:
                self._win(player, events)
                return
        self._pay_debts(player, events)
        seat = self.players.index(player)
        self._start_turn(self.players[(seat + self.offset) % len(self.players)], events)

    def _start_turn(self, player: int, events: list[Event]) -> None:
        self.current = player
        self.offset = 1 if self.offset >= 0 else -1  # step 1: _sign(offset)
        self.phase = START
        self.chain_rank = None
        self.turn_cards = []
        self.turn_number += 1
        events.append(Event("turn", player, {"player": player}))

    def _win(self, player: int, events: list[Event]) -> None:
        self.winner = player
        self.phase = OVER
        events.append(Event("won", player, {"player": player}))
        events.append(Event("game_over", None, {"winner": player, "placements": self.placements()}))

    # -- platform hooks -------------------------------------------------------------

    def placements(self) -> list[list[int]]:
        """The winner, then everyone else by fewest cards (owed cards count), ties together."""
        rest = [p for p in self.players if p != self.winner]
        size = {p: len(self.hands[p]) + self.debts.get(p, 0) for p in rest}
        groups: list[list[int]] = [[self.winner]] if self.winner is not None else []
        for p in sorted(rest, key=size.__getitem__):
            if groups and groups[-1][0] != self.winner and size[groups[-1][0]] == size[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        return groups

    def timeout_action(self, player: int) -> Action:
        """The turn timer's move: name the suit held most, end when ending is allowed,
        otherwise draw (taking any pickup). Never raises."""
        if self.phase == OVER or player != self.current:
            return DRAW
        if self.phase == SUIT:
            counts = Counter(c.suit for c in self.hands.get(player, ()))
            top = self.top_card()
            fallback = top.suit if top is not None else Suit.CLUBS
            best = max(SUIT_ACTIONS, key=lambda a: (counts[Suit(a.arg)], Suit(a.arg) is fallback))
            return best
        if self.phase in (CHAIN, FREE):
            return END
        if DRAW in self.legal_actions(player):
            return DRAW
        return TIMEOUT_DRAW

    @changes_state
    def remove_player(self, player: int) -> list[Event]:
        """The leaver's cards go to the bottom of the deck; a turn in progress passes on
        as if ended (a pickup they were facing leaves with them)."""
        if player not in self.players:
            return []
        return self._remove_seated(player)

    def _remove_seated(self, player: int) -> list[Event]:
        events: list[Event] = []
        was_their_turn = self.phase != OVER and player == self.current
        seat = self.players.index(player)
        returned = self.hands.pop(player)
        self.deck[0:0] = returned
        self.debts.pop(player, None)
        self.players.remove(player)
        self.removed.append(player)
        events.append(Event("player_removed", player, {"player": player, "cards": len(returned)}))
        if self.phase == OVER:
            return events
        if len(self.players) == 1:
            self._win(self.players[0], events)
            return events
        if was_their_turn:
            if self.phase == SUIT:
                self.chosen_suit = None  # the Ace keeps its own suit
            if not self.turn_cards:
                self.pickup = 0
            # Count ``offset`` seats from the leaver's old seat among those remaining.
            step = self.offset - 1 if self.offset > 0 else self.offset
            nxt = self.players[(seat + step) % len(self.players)]
            self._pay_debts(nxt, events)
            self._start_turn(nxt, events)
        else:
            self._pay_debts(self.current, events)
        return events

    # -- views -------------------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        top = self.top_card()
        over = self.phase == OVER
        obs: dict[str, Any] = {
            "game": self.key,
            "viewer": player if player in self.hands else None,
            "players": list(self.players),
            "seats": [
                {"player": p, "cards": len(self.hands[p]), "debt": self.debts.get(p, 0)} for p in self.players
            ],
            "current": [] if over else [self.current],
            "phase": self.phase,
            "top": str(top) if top else None,
            "suit": self.suit_to_match().value if top else None,
            "chosen_suit": self.chosen_suit.value if self.chosen_suit and top and top.rank is Rank.ACE else None,
            "chain_rank": self.chain_rank.label if self.chain_rank and self.phase in (CHAIN, FREE) else None,
            "turn_cards": cards_to_codes(self.turn_cards),
            "discard_size": len(self.discard),
            "deck_size": len(self.deck),
            "pickup": self.pickup,
            "offset": self.offset,
            "direction": _sign(self.offset),
            "turn_number": self.turn_number,
            "reshuffles": self.reshuffles,
            "winner": self.winner,
            "over": over,
            "rules": dict(self.options),
        }
        if player is not None and player in self.hands:
            obs["hand"] = cards_to_codes(sorted_cards(self.hands[player]))
        return obs

    # -- persistence ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "version": 1,
            "players": list(self.players),
            "removed": list(self.removed),
            "options": dict(self.options),
            "seed": self.seed,
            "hands": {str(p): cards_to_codes(h) for p, h in self.hands.items()},
            "deck": cards_to_codes(self.deck),
            "discard": cards_to_codes(self.discard),
            "chosen_suit": self.chosen_suit.value if self.chosen_suit else None,
            "pickup": self.pickup,
            "offset": self.offset,
            "current": self.current,
            "phase": self.phase,
            "resume_phase": self.resume_phase,
            "chain_rank": int(self.chain_rank) if self.chain_rank else None,
            "turn_cards": cards_to_codes(self.turn_cards),
            "reshuffles": self.reshuffles,
            "debts": {str(p): d for p, d in self.debts.items()},
            "winner": self.winner,
            "turn_number": self.turn_number,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        game = cls()
        game.players = [int(p) for p in data["players"]]
        game.removed = [int(p) for p in data.get("removed", [])]
        game.options = cls._read_options(data.get("options", {}))
        game.seed = data["seed"]
        game.hands = {int(p): codes_to_cards(codes) for p, codes in data["hands"].items()}
        game.deck = codes_to_cards(data["deck"])
        game.discard = codes_to_cards(data["discard"])
        game.chosen_suit = Suit(data["chosen_suit"]) if data.get("chosen_suit") else None
        game.pickup = int(data["pickup"])
        game.offset = int(data["offset"])
        game.current = int(data["current"])
        game.phase = data["phase"]
        game.resume_phase = data.get("resume_phase", START)
        game.chain_rank = Rank(data["chain_rank"]) if data.get("chain_rank") else None
        game.turn_cards = codes_to_cards(data["turn_cards"])
        game.reshuffles = int(data["reshuffles"])
        game.debts = {int(p): int(d) for p, d in data["debts"].items()}
        game.winner = data.get("winner")
        game.turn_number = int(data["turn_number"])
        if game.phase not in PHASES:
            raise RuleError(_("Saved Blackjack game has an unknown phase '{phase}'.", phase=game.phase))
        return game

    def clone(self) -> Self:
        """A copy for search: containers copied, cards (immutable) shared."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.players = list(self.players)
        copy.removed = list(self.removed)
        copy.hands = {p: list(h) for p, h in self.hands.items()}
        copy.deck = list(self.deck)
        copy.discard = list(self.discard)
        copy.turn_cards = list(self.turn_cards)
        copy.debts = dict(self.debts)
        copy._legal_cache = None
        return copy

    # -- seat swaps (a computer takes a leaver's seat) ------------------------------

    def _replace_player(self, old: int, new: int) -> None:
        """``new`` sits in ``old``'s seat: same hand, same debts, same turn."""
        from bot.rules.engine import swap_id, swap_ids, swap_keys

        self.players = swap_ids(self.players, old, new)
        self.hands = swap_keys(self.hands, old, new)
        self.debts = swap_keys(self.debts, old, new)
        self.current = swap_id(self.current, old, new)
        self.winner = swap_id(self.winner, old, new)
        self._legal_cache = None
