"""Idiot: the pure rules engine. The rules for players are in docs/rules/idiot.md.

Pure: no Discord, asyncio, sqlite or clock. The only randomness is the deal,
``shuffled(standard_deck(decks), seed, "deal")``, so a game is a pure function of
its seed (or stacked deal), its options and its actions.

Action vocabulary (``Action.code()`` in brackets)
-------------------------------------------------
Swap phase (simultaneous; ``current_players()`` is everyone not yet ready):

- ``Action("swap", cards=(face_up, hand))`` [``swap:Kc.4h``]: exchange one of your
  face-up cards with one of your hand cards. Repeatable.
- ``Action("ready")`` [``ready``]: done swapping. Play starts once everyone is ready.

Play phase (one player at a time):

- ``Action("play", cards=(c1, c2, ...))`` [``play:7h.7c``]: one or several cards of one
  value from your current stage (your hand; your face-up cards once the hand is
  empty). ``legal_actions`` lists one canonical action per (value, count), taking
  copies in suit order; ``validate`` also accepts any other copies of that value you
  hold, since suits never matter in Idiot.
- ``Action("pickup")`` [``pickup``]: take the whole play pile into your hand. Legal
  only when you cannot play (unless the ``voluntary_pickup`` house rule is on) and
  the pile is not empty.
- ``Action("blind", arg="2")`` [``blind::2``]: turn your face-down card at position
  1-3 (only once hand and face-up cards are gone). It is played if it may be;
  otherwise it and the pile go to your hand.

Stacked deal (``IdiotGame.new(players, deal=...)``), for tests and worked examples::

    {
        "hands":     {id: ["7h", ...]},          # any number of cards
        "face_up":   {id: ["Kc", ...]},          # 0-3 cards
        "face_down": {id: ["3s", None, "9d"]},   # positions 1-3; None = already gone
        "draw":      ["5c", ...],                # draw pile, top card first
        "pile":      ["8h"],                     # play pile, bottom first (the starter)
        "burned":    [],                         # optional
        "phase":     "swap" | "play",            # optional, default "swap"
        "first":     id,                         # optional: who plays first
    }

Player ids may be ints or their decimal strings (JSON object keys). A seat left out of
a mapping has no cards there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.rules.cards import Card, Rank, Suit, parse_card, rank_with_article, remove_one, shuffled, standard_deck
from bot.rules.engine import (
    Action,
    Event,
    Game,
    HouseRule,
    IllegalAction,
    RuleError,
    cards_to_codes,
    changes_state,
    codes_to_cards,
)
from bot.words.i18n import N_, _

# --------------------------------------------------------------------------- options

FINISH = "finish"
FIRST_OUT = "first_out"
LAST_IDIOT = "last_idiot"
VOLUNTARY_PICKUP = "voluntary_pickup"

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        key=FINISH,
        description=N_("When the game ends."),
        choices=(FIRST_OUT, LAST_IDIOT),
        default=FIRST_OUT,
        choice_descriptions=(
            N_("The first player to get rid of all their cards wins, and the game ends."),
            N_(
                "Play goes on until one player is left holding cards, the Idiot; "
                "everyone is placed in the order they went out."
            ),
        ),
    ),
    HouseRule(
        key=VOLUNTARY_PICKUP,
        description=N_("Whether a player may pick up the pile when they could play."),
        choices=("off", "on"),
        default="off",
        choice_descriptions=(
            N_("You pick up the pile only when you cannot play."),
            N_("You may also choose to pick up the pile on your turn."),
        ),
    ),
)

HAND_SIZE = 3
TABLE_SLOTS = 3
#: Up to this many players share one deck; more players get two decks.
ONE_DECK_MAX_PLAYERS = 4
#: The game ends as a stalemate after this many play-phase actions in a row with no
#: progress (no burn, no card drawn, no card leaving the table, nobody going out).
STALEMATE_TURNS = 200
#: How many pile cards observations show (enough to see a four of a kind building).
PILE_TOP_SHOWN = 4

PHASE_SWAP = "swap"
PHASE_PLAY = "play"
PHASE_OVER = "over"

STAGE_HAND = "hand"
STAGE_FACE_UP = "face_up"
STAGE_FACE_DOWN = "face_down"
STAGE_OUT = "out"

SPECIAL_RANKS = (Rank.TWO, Rank.TEN)
_TEN = Rank.TEN.value


def card_value(rank: Rank) -> int:
    """Idiot order: two lowest, ace high (14)."""
    return 14 if rank is Rank.ACE else int(rank)


def sort_key(card: Card) -> tuple[int, str]:
    return (card_value(card.rank), card.suit.value)


# Hot paths (legal actions are listed for every move a search tries) look cards up by
# ``Card._key`` (rank * 4 + suit letter order), never through Card's Python-level
# hash or comparisons. _ORDER_AT[key] sorts exactly like sort_key.
_ORDER_AT = [0] * 64
_CODE_AT = [""] * 64
for _card in standard_deck():
    _ORDER_AT[_card._key] = card_value(_card.rank) * 4 + "cdhs".index(_card.suit.value)
    _CODE_AT[_card._key] = str(_card)
_VALUE_OF = {rank: card_value(rank) for rank in Rank}
_VALUE_AT = [0] * 64
for _card in standard_deck():
    _VALUE_AT[_card._key] = card_value(_card.rank)
#: Shared Actions, so listing legal actions builds no new objects: plays keyed by the
#: cards' keys, swaps by their order (see _list_legal).
_PLAY_ACTIONS: dict[tuple[int, ...], Action] = {}
_SWAP_ACTIONS: dict[int, Action] = {}
_READY = Action("ready")
#: current_players() in the play phase: one frozenset per player id, shared.
_JUST: dict[int, frozenset[int]] = {}
_JUST_MAX = 100_000
_PICKUP = Action("pickup")
_BLIND = {pos: Action("blind", arg=str(pos)) for pos in range(1, 4)}


def _codes(cards: Sequence[Card]) -> list[str]:
    """``cards_to_codes`` without a Python-level ``str(card)`` per card."""
    code_at = _CODE_AT
    return [code_at[c._key] for c in cards]


def _in_order(cards: Sequence[Card]) -> list[Card]:
    """``sorted_cards``, fast: a stable sort by the precomputed order."""
    order = _ORDER_AT
    keys = sorted(order[c._key] * 256 + i for i, c in enumerate(cards))
    return [cards[k & 255] for k in keys]


# Playable sets as numbers: a card of order key k (value * 4 + suit) adds 1 << 2k, so a
# hand is the sum over its cards (two bits a card: two decks hold at most two copies),
# and a value's copies are one byte of it.
_BIT_AT = [0] * 64
for _card in standard_deck():
    _BIT_AT[_card._key] = 1 << (2 * _ORDER_AT[_card._key])
#: The fields of the cards that may be played on a top card of value ``lowest``
#: (0: an empty pile): that value and up, and always twos and tens.
_PLAYABLE_MASK = [
    sum(255 << (8 * v) for v in range(2, 15) if v >= lowest or v == 2 or v == 10) for lowest in range(15)
]
#: Play actions listed for a playable set (the sum above). Random games and searches
#: meet the same sets again and again; the memo is bounded, and kept small: at 200,000
#: lists Python's full garbage collections scanned them for 200-340 ms, stalling the
#: bot and pushing hard past its 100 ms budget (16,384 lists: under 25 ms, same speed).
_PLAYS_OF: dict[int, list[Action]] = {}
_PLAYS_OF_MAX = 16_384
_RANK_OF_VALUE = {card_value(rank): rank for rank in Rank}
_SUITS_IN_ORDER = sorted(Suit, key=lambda suit: "cdhs".index(suit.value))
#: The play actions of one value's byte (copies per suit), counts 1 and up.
_GROUP_PLAYS: dict[int, list[Action]] = {}


def _group_plays(value: int, byte: int) -> list[Action]:
    cards = [
        Card(_RANK_OF_VALUE[value], suit)
        for index, suit in enumerate(_SUITS_IN_ORDER)
        for _ in range((byte >> (2 * index)) & 3)
    ]
    actions = []
    for count in range(1, len(cards) + 1):
        key = tuple(c._key for c in cards[:count])
        action = _PLAY_ACTIONS.get(key)
        if action is None:
            action = _PLAY_ACTIONS[key] = Action("play", tuple(cards[:count]))
        actions.append(action)
    return actions


#: Values split in parts, each with its own memo of play actions per byte pattern:
#: a new playable set is then a few lookups away.
_PARTS = ((2, 7), (7, 11), (11, 15))
_PART_PLAYS: list[dict[int, list[Action]]] = [{} for _ in _PARTS]


def _part_plays(first: int, end: int, bits: int) -> list[Action]:
    actions: list[Action] = []
    groups = _GROUP_PLAYS
    for value in range(first, end):
        byte = (bits >> (8 * value)) & 255
        if byte:
            index = value * 256 + byte
            plays = groups.get(index)
            if plays is None:
                plays = groups[index] = _group_plays(value, byte)
            actions.extend(plays)
    return actions


def _plays_of(playable: int) -> list[Action]:
    """One play action per (value, count) of this playable set, copies in suit order,
    values ascending (the shared actions of _PLAY_ACTIONS)."""
    actions: list[Action] = []
    for (first, end), memo in zip(_PARTS, _PART_PLAYS):
        bits = playable & ((1 << (8 * end)) - (1 << (8 * first)))
        if bits:
            plays = memo.get(bits)
            if plays is None:
                if len(memo) >= _PLAYS_OF_MAX:
                    memo.clear()
                plays = memo[bits] = _part_plays(first, end, bits)
            actions.extend(plays)
    return actions


def sorted_cards(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=sort_key)


def decks_for(player_count: int) -> int:
    return 1 if player_count <= ONE_DECK_MAX_PLAYERS else 2


def _int_keys(mapping: Mapping[Any, Any] | None) -> dict[int, Any]:
    return {int(key): value for key, value in (mapping or {}).items()}


# --------------------------------------------------------------------------- the game


class IdiotGame(Game):
    key = "idiot"
    title = "Idiot"
    min_players = 2
    max_players = 8

    def __init__(self, players: Sequence[int], options: Mapping[str, Any]) -> None:
        self.players = list(players)
        self.options = self._normal_options(options)
        self.seed: int | str | None = None
        self.decks = decks_for(len(self.players))
        self.phase = PHASE_SWAP
        self.hands: dict[int, list[Card]] = {p: [] for p in self.players}
        self.face_up: dict[int, list[Card]] = {p: [] for p in self.players}
        # Fixed positions 1-3; None marks a face-down card already turned.
        self.face_down: dict[int, list[Card | None]] = {p: [None] * TABLE_SLOTS for p in self.players}
        self.draw: list[Card] = []  # top card first
        self.pile: list[Card] = []  # bottom first, top card last
        self.burned: list[Card] = []
        self.ready: set[int] = set()
        self.turn: int | None = None
        self.dealer: int = self.players[-1]
        self.first: int = self.players[0]
        self.finished: list[int] = []  # in the order they went out
        self.removed: list[int] = []
        self.idle_turns = 0
        self.stalemate = False
        self._progress = False  # set by any move that brings the game closer to its end
        # (player, their legal actions) for this state. Only _apply and remove_player
        # change a game after new()/from_dict(); both drop it, so it cannot go stale.
        self._legal_cache: tuple[int, list[Action]] | None = None

    # -- construction ----------------------------------------------------------------

    @staticmethod
    def _normal_options(options: Mapping[str, Any] | None) -> dict[str, str]:
        options = options or {}
        chosen: dict[str, str] = {}
        for rule in HOUSE_RULES:
            value = str(options.get(rule.key, rule.default))
            if value not in rule.choices:
                raise RuleError(
                    _("'{value}' is not a choice for the house rule {rule}: use {choices}.",
                      value=value, rule=rule.key, choices=" or ".join(rule.choices))
                )
            chosen[rule.key] = value
        return chosen

    @classmethod
    def new(
        cls,
        players: Sequence[int],
        options: Mapping[str, Any] | None = None,
        *,
        seed: int | str | None = None,
        deal: Mapping[str, Any] | None = None,
    ) -> Self:
        cls.check_player_count(players)
        if (seed is None) == (deal is None):
            raise ValueError(_("IdiotGame.new needs exactly one of seed= or deal=."))
        game = cls(players, options or {})
        # The dealer passes to the left between games in a channel (see carry_out);
        # play starts with the player to the dealer's left.
        carried = ((options or {}).get("carry") or {}).get("dealer")
        if carried in game.players:
            game.dealer = carried
        game.first = game._seat_after(game.dealer)
        if seed is not None:
            game.seed = seed
            game._deal_shuffled(seed)
        else:
            game._deal_stacked(deal or {})
        return game

    def _deal_shuffled(self, seed: int | str) -> None:
        deck = shuffled(standard_deck(self.decks), seed, "deal")
        order = self._seat_order_from(self.first)
        for slot in range(TABLE_SLOTS):  # face down first, then face up on top of them
            for player in order:
                self.face_down[player][slot] = deck.pop(0)
        for _ in range(TABLE_SLOTS):
            for player in order:
                self.face_up[player].append(deck.pop(0))
        for _ in range(HAND_SIZE):
            for player in order:
                self.hands[player].append(deck.pop(0))
        self.pile = [deck.pop(0)]
        self.draw = deck

    def _deal_stacked(self, deal: Mapping[str, Any]) -> None:
        for player, codes in _int_keys(deal.get("hands")).items():
            self.hands[player] = codes_to_cards(codes)
        for player, codes in _int_keys(deal.get("face_up")).items():
            self.face_up[player] = codes_to_cards(codes)
        for player, codes in _int_keys(deal.get("face_down")).items():
            slots: list[Card | None] = [parse_card(c) if c else None for c in codes]
            self.face_down[player] = (slots + [None] * TABLE_SLOTS)[:TABLE_SLOTS]
        self.draw = codes_to_cards(deal.get("draw", []))
        self.pile = codes_to_cards(deal.get("pile", []))
        self.burned = codes_to_cards(deal.get("burned", []))
        if "first" in deal:
            self.first = int(deal["first"])
        if deal.get("phase", PHASE_SWAP) == PHASE_PLAY:
            self._begin_play()

    # -- seats -----------------------------------------------------------------------

    def _active(self) -> list[int]:
        """Players still holding cards, in seat order."""
        return [p for p in self.players if p not in self.finished and p not in self.removed]

    def active_players(self) -> list[int]:
        """Players still taking part (the platform's /leave asks this): not those who
        went out or left, who stay in ``players`` for the record."""
        return self._active()

    def _seat_after(self, player: int) -> int:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def _seat_order_from(self, player: int) -> list[int]:
        start = self.players.index(player)
        return self.players[start:] + self.players[:start]

    def _next_active_after(self, player: int) -> int:
        """The first player after ``player`` in seat order (``player`` last) still holding cards."""
        players, finished, removed = self.players, self.finished, self.removed
        count = len(players)
        start = players.index(player)
        if not finished and not removed:  # everybody still plays: the next seat
            return players[(start + 1) % count]
        for step in range(1, count + 1):
            candidate = players[(start + step) % count]
            if candidate not in finished and candidate not in removed:
                return candidate
        raise StopIteration  # as next() on no active player did

    def stage(self, player: int) -> str:
        """Where ``player`` plays from now: hand, then face-up, then face-down cards."""
        if player in self.finished or player in self.removed:
            return STAGE_OUT
        if self.hands[player]:
            return STAGE_HAND
        if self.face_up[player]:
            return STAGE_FACE_UP
        if any(self.face_down[player]):
            return STAGE_FACE_DOWN
        return STAGE_OUT

    def _stage_cards(self, player: int) -> list[Card]:
        stage = self.stage(player)
        if stage == STAGE_HAND:
            return self.hands[player]
        if stage == STAGE_FACE_UP:
            return self.face_up[player]
        return []

    def _has_cards(self, player: int) -> bool:
        return bool(self.hands[player] or self.face_up[player] or any(self.face_down[player]))

    def _card_count(self, player: int) -> int:
        return len(self.hands[player]) + len(self.face_up[player]) + sum(1 for c in self.face_down[player] if c)

    def _face_down_positions(self, player: int) -> list[int]:
        return [i + 1 for i, card in enumerate(self.face_down[player]) if card is not None]

    # -- queries ---------------------------------------------------------------------

    def current_players(self) -> frozenset[int]:
        phase = self.phase
        if phase == PHASE_PLAY and self.turn is not None:
            # frozenset({self.turn}), one shared (immutable) set per player id
            just = _JUST.get(self.turn)
            if just is None:
                if len(_JUST) >= _JUST_MAX:
                    _JUST.clear()
                just = _JUST[self.turn] = frozenset((self.turn,))
            return just
        if phase == PHASE_SWAP:
            # == frozenset(p for p in self._active() if p not in self.ready), in one pass
            ready, finished, removed = self.ready, self.finished, self.removed
            return frozenset([p for p in self.players if p not in ready and p not in finished and p not in removed])
        return frozenset()

    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def top_card(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def can_play_rank(self, rank: Rank) -> bool:
        """Twos and tens go on anything; anything goes on an empty pile; otherwise
        the value must be equal to or higher than the top card's."""
        top = self.top_card()
        return top is None or rank in SPECIAL_RANKS or card_value(rank) >= card_value(top.rank)

    def _play_actions(self, player: int) -> list[Action]:
        """One action per (value, count) that may be played, copies taken in suit order
        (the order of ``sorted_cards``), values ascending."""
        return self._plays_from(self._stage_cards(player))

    def _plays_from(self, cards: list[Card]) -> list[Action]:
        """_play_actions for these stage cards (a new list)."""
        return list(self._shared_plays(cards)) if cards else []

    def _shared_plays(self, cards: list[Card]) -> list[Action]:
        """The memo's own list of plays for these (non-empty) stage cards: never
        change it, copy it."""
        pile = self.pile
        lowest = _VALUE_AT[pile[-1]._key] if pile else 0
        bit_at = _BIT_AT
        playable = 0
        for c in cards:  # a plain loop: a comprehension is one more call in CPython 3.11
            playable += bit_at[c._key]
        playable &= _PLAYABLE_MASK[lowest]
        listed = _PLAYS_OF.get(playable)
        if listed is None:
            if len(_PLAYS_OF) >= _PLAYS_OF_MAX:
                _PLAYS_OF.clear()
            listed = _PLAYS_OF[playable] = _plays_of(playable)
        return listed

    def legal_actions(self, player: int) -> list[Action]:
        cached = self._legal_cache
        if cached is not None and cached[0] == player:
            return list(cached[1])  # a copy: callers may change their list
        if self.phase == PHASE_PLAY and player == self.turn:
            # The common case of _list_legal, without copying the memo's list twice:
            # the cache may hold the shared list itself, as nothing changes a cached list.
            cards = self.hands[player] or self.face_up[player]
            if cards:
                actions = self._shared_plays(cards)
                if self.pile and (not actions or self.options[VOLUNTARY_PICKUP] == "on"):
                    actions = [*actions, _PICKUP]
                self._legal_cache = (player, actions)
                return list(actions)
        actions = self._list_legal(player)
        self._legal_cache = (player, actions)
        return list(actions)

    def _list_legal(self, player: int) -> list[Action]:
        if self.phase == PHASE_PLAY:
            if player != self.turn:
                return []
            # The stages, without naming them: a player who is out holds no cards.
            cards = self.hands[player] or self.face_up[player]
            if cards:
                plays = self._plays_from(cards)
                if self.pile and (not plays or self.options[VOLUNTARY_PICKUP] == "on"):
                    plays.append(_PICKUP)
                return plays
            actions = [_BLIND[pos] for pos in self._face_down_positions(player)]
            if self.pile and (not actions or self.options[VOLUNTARY_PICKUP] == "on"):
                actions.append(_PICKUP)
            return actions
        elif self.phase == PHASE_SWAP:
            # == player in current_players(), without building the set
            if player not in self.players or player in self.ready or player in self.finished or player in self.removed:
                return []
            return self._swaps(self.face_up[player], self.hands[player])
        return []  # the game is over

    @staticmethod
    def _swaps(ups: list[Card], held_cards: list[Card]) -> list[Action]:
        """The swap phase's actions for these face-up and hand cards: distinct
        (face-up, hand) pairs of unequal cards (exchanging equal cards changes
        nothing), ordered by (sort_key(up), sort_key(held)), then ready."""
        order = _ORDER_AT
        known = _SWAP_ACTIONS
        actions = []
        for key in sorted({order[u._key] * 256 + order[h._key] for u in ups for h in held_cards if u._key != h._key}):
            action = known.get(key)
            if action is None:  # made once per pair of cards, from the first such pair held
                pair = next((u, h) for u in ups for h in held_cards if order[u._key] * 256 + order[h._key] == key)
                action = known[key] = Action("swap", pair)
            actions.append(action)
        actions.append(_READY)
        return actions

    # -- validation ------------------------------------------------------------------

    def _canonical(self, player: int, action: Action) -> Action:
        """Map a play of held copies to the canonical legal action of that value and
        count (suits never matter), so '7c' is accepted where the list says '7h'."""
        if action.kind != "play" or not action.cards or action.arg or player not in self.hands:
            return action  # (a stranger's play: Game.validate refuses it as UnknownPlayer)
        stage_cards = self._stage_cards(player)
        ranks = {card.rank for card in action.cards}
        if len(ranks) != 1 or Counter(action.cards) - Counter(stage_cards):
            return action
        copies = [c for c in sorted_cards(stage_cards) if c.rank in ranks]
        return Action("play", tuple(copies[: len(action.cards)]))

    def validate(self, player: int, action: Action) -> None:
        # Fast path: the very action object listed as legal (callers usually pass one
        # back) is accepted without canonicalising; anything else takes the full road.
        cached = self._legal_cache
        if cached is not None and cached[0] == player:
            for allowed in cached[1]:
                if allowed is action:
                    return
        try:
            super().validate(player, self._canonical(player, action))
        except IllegalAction:
            raise IllegalAction(self.why_illegal(player, action)) from None

    def why_not_your_turn(self, player: int) -> str:
        if player in self.removed:
            return _("You have left this game.")
        if player in self.finished:
            return _("You have already played out all your cards.")
        if self.phase == PHASE_SWAP:
            return _("You are ready: play starts when everyone else is ready too.")
        return _("It is not your turn.")

    def why_illegal(self, player: int, action: Action) -> str:
        kind = action.kind
        if kind in ("pickup", "ready") and (action.cards or action.arg):
            if kind == "pickup":
                return _("'{kind}' takes no cards and no choice: just pick up.", kind=kind)
            return _("'{kind}' takes no cards and no choice: just say ready.", kind=kind)
        if kind == "blind" and action.cards:
            return _("A face-down card is chosen by its position (1-3), not by naming it: nobody has seen it.")
        if self.phase == PHASE_SWAP:
            if kind == "swap":
                return self._why_bad_swap(player, action)
            if kind in ("play", "pickup", "blind"):
                return _("Play has not started yet: swap face-up cards with your hand, then press Ready.")
            return _("Idiot has no action called '{kind}': swap cards or say you are ready.", kind=kind)
        if kind in ("swap", "ready"):
            return _("The swap phase is over: cards can only be exchanged before play starts.")
        stage = self.stage(player)
        if kind == "play":
            return self._why_bad_play(player, action, stage)
        if kind == "pickup":
            if not self.pile:
                return _("The pile is empty, so there is nothing to pick up: start a new pile with any card.")
            if stage == STAGE_FACE_DOWN:
                return _("You play your face-down cards blind: turn one over (it is picked up with the pile if it cannot be played).")
            example = self._play_actions(player)[0].cards[0].display()
            return _("You can still play (for example {card}), so you cannot pick up the pile.", card=example)
        if kind == "blind":
            if stage != STAGE_FACE_DOWN:
                if stage == STAGE_HAND:
                    return _("You still have cards in your hand: play those before turning a face-down card.")
                return _("You still have cards in your face-up cards: play those before turning a face-down card.")
            # Translators: between the positions a player may choose ("1 or 3").
            choices = _(" or ").join(str(p) for p in self._face_down_positions(player))
            return _("There is no face-down card at position '{arg}': choose {positions}.", arg=action.arg, positions=choices)
        return _("Idiot has no action called '{kind}': play cards, pick up the pile or turn a face-down card.", kind=kind)

    def _why_bad_swap(self, player: int, action: Action) -> str:
        if len(action.cards) != 2 or action.arg:
            return _("A swap names two cards: one of your face-up cards, then one card from your hand.")
        up, held = action.cards
        if up not in self.face_up[player]:
            return _("{card} is not one of your face-up cards.", card=up.display())
        if held not in self.hands[player]:
            return _("{card} is not in your hand.", card=held.display())
        return _("Swapping {card} for an equal card changes nothing.", card=up.display())

    def _why_bad_play(self, player: int, action: Action, stage: str) -> str:
        if stage == STAGE_FACE_DOWN:
            return _("Your face-down cards are played blind: choose a position to turn over.")
        if not action.cards or action.arg:
            return _("Choose at least one card to play (and nothing else).")
        ranks = {c.rank for c in action.cards}
        if len(ranks) > 1:
            first, second = (c.display() for c in action.cards[:2])
            return _("Cards played together must all have the same value: {first} and {second} differ.", first=first, second=second)
        stage_cards = self._stage_cards(player)
        missing = Counter(action.cards) - Counter(stage_cards)
        if missing:
            card = next(iter(missing))
            if stage == STAGE_HAND and card in self.face_up[player]:
                return _("{card} is face up on the table: play the cards in your hand first.", card=card.display())
            fewer = card in stage_cards
            if stage == STAGE_HAND:
                if fewer:
                    return _("{card} is not in your hand (you hold fewer copies).", card=card.display())
                return _("{card} is not in your hand.", card=card.display())
            if fewer:
                return _("{card} is not in your face-up cards (you hold fewer copies).", card=card.display())
            return _("{card} is not in your face-up cards.", card=card.display())
        card = action.cards[0]
        top = self.top_card()
        if top is not None and not self.can_play_rank(card.rank):
            if not self._play_actions(player):
                return _(
                    "{card} is lower than the {top} on the pile: play {rank} or higher, a 2 or a 10, or pick up the pile.",
                    card=card.display(), top=top.display(), rank=rank_with_article(top.rank),
                )
            return _("{card} is lower than the {top} on the pile: play {rank} or higher, a 2 or a 10.",
                     card=card.display(), top=top.display(), rank=rank_with_article(top.rank))
        return _("You cannot play {card} now.", card=card.display())

    # -- moves -----------------------------------------------------------------------

    @changes_state
    def _apply(self, player: int, action: Action) -> list[Event]:
        if action.kind == "swap":
            return self._swap(player, action.cards[0], action.cards[1])
        if action.kind == "ready":
            return self._ready(player)
        self._progress = False
        if action.kind == "play":
            events = self._play(player, list(action.cards))
        elif action.kind == "pickup":
            events = self._pickup(player)
        else:
            events = self._blind(player, int(action.arg))
        if self.phase == PHASE_PLAY:
            self.idle_turns = 0 if self._progress else self.idle_turns + 1
            if self.idle_turns >= STALEMATE_TURNS:
                self.stalemate = True
                events.append(Event("stalemate", data={"turns": self.idle_turns}))
                events.extend(self._end_game("stalemate"))
        return events

    def _swap(self, player: int, up: Card, held: Card) -> list[Event]:
        self.face_up[player][self.face_up[player].index(up)] = held
        self.hands[player][self.hands[player].index(held)] = up
        # Both cards are public: one was face up, the other is face up now.
        return [Event("swap", player, {"to_hand": str(up), "to_table": str(held)})]

    def _ready(self, player: int) -> list[Event]:
        self.ready.add(player)
        events = [Event("ready", player)]
        if not self.current_players():
            events.extend(self._begin_play())
        return events

    def _begin_play(self) -> list[Event]:
        self.phase = PHASE_PLAY
        self.ready.clear()
        events = [Event("play_begins", data={"first": self.first})]
        # A starting card that would burn if played (a ten, or a stacked four of a
        # kind) burns at once, and the first player starts a fresh pile.
        reason = self._burn_reason()
        if reason:
            events.append(self._burn(None, "starter"))
        self.turn = self.first if self.first in self._active() else self._next_active_after(self.first)
        events.append(Event("turn", self.turn))
        return events

    def _play(self, player: int, cards: list[Card]) -> list[Event]:
        hand = self.hands[player]
        if hand and player not in self.finished and player not in self.removed:
            stage, source = STAGE_HAND, hand  # == self.stage(player), its first case
        else:
            stage = self.stage(player)
            source = hand if stage == STAGE_HAND else self.face_up[player]
        for card in cards:
            remove_one(source, card)
        if stage == STAGE_FACE_UP:
            self._progress = True
        self.pile.extend(cards)
        code_at = _CODE_AT
        codes = [code_at[cards[0]._key]] if len(cards) == 1 else [code_at[c._key] for c in cards]
        events = [Event("play", player, {"cards": codes, "from": stage})]
        if len(hand) < HAND_SIZE and self.draw:  # else _refill draws nothing
            events.extend(self._refill(player))
        events.extend(self._after_pile_grew(player))
        return events

    def _blind(self, player: int, position: int) -> list[Event]:
        card = self.face_down[player][position - 1]
        assert card is not None  # validated: the position is legal
        self.face_down[player][position - 1] = None
        self._progress = True
        if self.can_play_rank(card.rank):
            self.pile.append(card)
            events = [Event("blind", player, {"position": position, "card": str(card), "played": True})]
            events.extend(self._refill(player))
            events.extend(self._after_pile_grew(player))
            return events
        picked = [*self.pile, card]
        self.hands[player].extend(picked)
        self.pile.clear()
        events = [
            Event(
                "blind",
                player,
                {"position": position, "card": str(card), "played": False, "picked_up": len(picked)},
            )
        ]
        events.extend(self._pass_turn(player))
        return events

    def _pickup(self, player: int) -> list[Event]:
        picked = list(self.pile)
        self.hands[player].extend(picked)
        self.pile.clear()
        events = [
            Event(
                "pickup",
                player,
                {"cards": _codes(picked), "count": len(picked)},
                private=True,
                public_data={"count": len(picked)},
            )
        ]
        events.extend(self._pass_turn(player))
        return events

    def _refill(self, player: int) -> list[Event]:
        """Draw back up to three cards while the draw pile lasts."""
        hand, draw = self.hands[player], self.draw
        missing = HAND_SIZE - len(hand)
        if missing <= 0 or not draw:
            return []
        drawn = draw[:missing]
        del draw[:missing]
        hand.extend(drawn)
        self._progress = True
        return [
            Event(
                "draw",
                player,
                {"cards": _codes(drawn), "count": len(drawn)},
                private=True,
                public_data={"count": len(drawn)},
            )
        ]

    def _burn_reason(self) -> str | None:
        pile = self.pile
        if not pile:
            return None
        # Card._key >> 2 is the rank's number.
        rank = pile[-1]._key >> 2
        if rank == _TEN:
            return "ten"
        if len(pile) >= 4 and pile[-2]._key >> 2 == rank and pile[-3]._key >> 2 == rank and pile[-4]._key >> 2 == rank:
            return "four"
        return None

    def _burn(self, player: int | None, reason: str) -> Event:
        count = len(self.pile)
        self.burned.extend(self.pile)
        self.pile.clear()
        self._progress = True
        return Event("burn", player, {"reason": reason, "count": count})

    def _after_pile_grew(self, player: int) -> list[Event]:
        """Burn if a ten or a four of a kind is on top; then the same player goes
        again after a burn, or the turn passes. A player with no cards left is out."""
        events = []
        reason = self._burn_reason()
        if reason:
            events.append(self._burn(player, reason))
        if not (self.hands[player] or self.face_up[player] or any(self.face_down[player])):  # _has_cards
            events.extend(self._go_out(player))
            return events
        if reason:
            events.append(Event("turn", player, {"again": True}))
            return events
        self.turn = turn = self._next_active_after(player)  # _pass_turn
        events.append(Event("turn", turn))
        return events

    def _go_out(self, player: int) -> list[Event]:
        self.finished.append(player)
        self._progress = True
        events = [Event("out", player, {"place": len(self.finished)})]
        if self.options[FINISH] == FIRST_OUT or len(self._active()) < 2:
            events.extend(self._end_game("finished"))
        else:
            events.extend(self._pass_turn(player))
        return events

    def _pass_turn(self, player: int) -> list[Event]:
        self.turn = self._next_active_after(player)
        return [Event("turn", self.turn)]

    def _end_game(self, reason: str) -> list[Event]:
        self.phase = PHASE_OVER
        self.turn = None
        self.ready.clear()
        data: dict[str, Any] = {"reason": reason, "placements": self.placements()}
        if reason == "stalemate":
            data["cards_left"] = {str(p): n for p, n in self.cards_left().items()}
        remaining = self._active()
        if self.options[FINISH] == LAST_IDIOT and reason == "finished" and len(remaining) == 1:
            data["idiot"] = remaining[0]
        return [Event("game_over", data=data)]

    # -- results ---------------------------------------------------------------------

    def placements(self) -> list[list[int]]:
        """Players who went out, in order; then those still holding cards, tied (after
        a stalemate too: nobody won it, so it rates as a tie; :meth:`cards_left` says
        how many each held); then players who left, tied last."""
        groups = [[p] for p in self.finished]
        remaining = self._active()
        if remaining:
            groups.append(remaining)
        if self.removed:
            groups.append(list(self.removed))
        return groups

    def cards_left(self) -> dict[int, int]:
        """Cards each player still in the game holds (all three stages)."""
        return {p: self._card_count(p) for p in self._active()}

    def carry_out(self) -> dict[str, Any]:
        # This game's first player (the dealer's left) deals the next one.
        return {"dealer": self.first}

    # -- platform defaults -----------------------------------------------------------

    def timeout_action(self, player: int) -> Action:
        """Swap phase: ready. Play: the lowest single card, keeping twos and tens
        (in that order) for last; else turn the first face-down card; else pick up."""
        if self.phase == PHASE_SWAP:
            return Action("ready")
        legal = self.legal_actions(player)
        singles = [a for a in legal if a.kind == "play" and len(a.cards) == 1]
        if singles:
            special_order = {Rank.TWO: 1, Rank.TEN: 2}

            def preference(action: Action) -> tuple[int, int]:
                rank = action.cards[0].rank
                return (special_order.get(rank, 0), card_value(rank))

            return min(singles, key=preference)
        blinds = [a for a in legal if a.kind == "blind"]
        if blinds:
            return blinds[0]
        return Action("pickup")

    @changes_state
    def remove_player(self, player: int) -> list[Event]:
        """The leaver's cards are taken out of the game into the burned zone (face
        down ones unseen); the game goes on while two players still hold cards."""
        if self.is_over() or player not in self.players or player in self.removed or player in self.finished:
            return []
        return self._remove_seated(player)

    def _remove_seated(self, player: int) -> list[Event]:
        was_turn = self.turn == player
        self.burned.extend(self.hands[player])
        self.burned.extend(self.face_up[player])
        self.burned.extend(c for c in self.face_down[player] if c is not None)
        self.hands[player] = []
        self.face_up[player] = []
        self.face_down[player] = [None] * TABLE_SLOTS
        self.removed.append(player)
        self.ready.discard(player)
        events = [Event("player_removed", player)]
        if len(self._active()) < 2:
            events.extend(self._end_game("players_left"))
        elif self.phase == PHASE_SWAP:
            if not self.current_players():
                events.extend(self._begin_play())
        elif was_turn:
            events.extend(self._pass_turn(player))
        return events

    # -- observation -----------------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        seats = []
        for p in self.players:
            seats.append(
                {
                    "id": p,
                    "hand_count": len(self.hands[p]),
                    "face_up": cards_to_codes(sorted_cards(self.face_up[p])),
                    # Positions only: a face-down card is seen by nobody, not even its owner.
                    "face_down": self._face_down_positions(p),
                    "stage": self.stage(p),
                    "ready": p in self.ready,
                    "finished": self.finished.index(p) + 1 if p in self.finished else None,
                    "removed": p in self.removed,
                }
            )
        top = self.top_card()
        observation: dict[str, Any] = {
            "game": self.key,
            "phase": self.phase,
            "players": list(self.players),
            "current": sorted(self.current_players()),
            "seats": seats,
            "pile_top": cards_to_codes(self.pile[-PILE_TOP_SHOWN:]),  # top card last
            "pile_size": len(self.pile),
            "to_beat": str(top) if top is not None else None,
            "draw_size": len(self.draw),
            "burned_count": len(self.burned),
            "decks": self.decks,
            "options": dict(self.options),
            "idle_turns": self.idle_turns,
            "stalemate_turns": STALEMATE_TURNS,
            "placements": self.placements() if self.is_over() else None,
            "viewer": player,
        }
        if self.is_over() and self.stalemate:
            # Only then: every other observation stays as it was (tests/ai's digests).
            observation["cards_left"] = {str(p): n for p, n in self.cards_left().items()}
        if player is not None and player in self.players:
            observation["hand"] = cards_to_codes(sorted_cards(self.hands[player]))
            observation["stage"] = self.stage(player)
        return observation

    # -- persistence -----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.key,
            "version": 1,
            "players": list(self.players),
            "options": dict(self.options),
            "seed": self.seed,
            "decks": self.decks,
            "phase": self.phase,
            "hands": {str(p): cards_to_codes(self.hands[p]) for p in self.players},
            "face_up": {str(p): cards_to_codes(self.face_up[p]) for p in self.players},
            "face_down": {str(p): [str(c) if c else None for c in self.face_down[p]] for p in self.players},
            "draw": cards_to_codes(self.draw),
            "pile": cards_to_codes(self.pile),
            "burned": cards_to_codes(self.burned),
            "ready": sorted(self.ready),
            "turn": self.turn,
            "dealer": self.dealer,
            "first": self.first,
            "finished": list(self.finished),
            "removed": list(self.removed),
            "idle_turns": self.idle_turns,
            "stalemate": self.stalemate,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        game = cls(data["players"], data["options"])
        game.seed = data["seed"]
        game.decks = data["decks"]
        game.phase = data["phase"]
        game.hands = {int(p): codes_to_cards(c) for p, c in data["hands"].items()}
        game.face_up = {int(p): codes_to_cards(c) for p, c in data["face_up"].items()}
        game.face_down = {
            int(p): [parse_card(c) if c else None for c in slots] for p, slots in data["face_down"].items()
        }
        game.draw = codes_to_cards(data["draw"])
        game.pile = codes_to_cards(data["pile"])
        game.burned = codes_to_cards(data["burned"])
        game.ready = set(data["ready"])
        game.turn = data["turn"]
        game.dealer = data["dealer"]
        game.first = data["first"]
        game.finished = list(data["finished"])
        game.removed = list(data["removed"])
        game.idle_turns = data["idle_turns"]
        game.stalemate = data["stalemate"]
        return game

    def clone(self) -> Self:
        """A copy for search: containers copied, cards (immutable) shared."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.players = list(self.players)
        copy.hands = {p: list(h) for p, h in self.hands.items()}
        copy.face_up = {p: list(h) for p, h in self.face_up.items()}
        copy.face_down = {p: list(h) for p, h in self.face_down.items()}
        copy.draw = list(self.draw)
        copy.pile = list(self.pile)
        copy.burned = list(self.burned)
        copy.ready = set(self.ready)
        copy.finished = list(self.finished)
        copy.removed = list(self.removed)
        copy._legal_cache = None
        return copy

    # -- helpers for tests and the platform ------------------------------------------

    def all_zones(self) -> list[list[Card]]:
        """Every place a card can be, for conservation checks."""
        zones: list[list[Card]] = [self.draw, self.pile, self.burned]
        for p in self.players:
            zones.append(self.hands[p])
            zones.append(self.face_up[p])
            zones.append([c for c in self.face_down[p] if c is not None])
        return zones

    # -- seat swaps (a computer takes a leaver's seat) -------------------------------

    def _replace_player(self, old: int, new: int) -> None:
        """``new`` sits in ``old``'s seat: same hand, face-up and face-down cards (in
        their positions), same readiness in the swap phase, same turn."""
        from bot.rules.engine import swap_id, swap_ids, swap_keys

        self.players = swap_ids(self.players, old, new)
        self.hands = swap_keys(self.hands, old, new)
        self.face_up = swap_keys(self.face_up, old, new)
        self.face_down = swap_keys(self.face_down, old, new)
        self.ready = set(swap_ids(sorted(self.ready), old, new))
        self.turn = swap_id(self.turn, old, new)
        self.dealer = swap_id(self.dealer, old, new)
        self.first = swap_id(self.first, old, new)
        self.finished = swap_ids(self.finished, old, new)
        self.removed = swap_ids(self.removed, old, new)
        self._legal_cache = None
