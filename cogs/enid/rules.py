"""Enid, and Mike Taylor's "natural" Blackjack it is built on (``seeds/enid.txt``).

Pure rules: no Discord, asyncio, sqlite or clock. The player-facing text, with every
decision where the seed is silent, is ``docs/rules/enid.md``.

Two modes, one engine (``options["mode"]``):

``plain``  7 cards each, one card turned up, follow suit or rank, draw one when you
           cannot; Ace names a suit, Two +2 (stacking), Seven reverses, Eight must be
           followed by any card, Ten lays more of its suit, black Jack +7 (stacking, a
           red Jack takes 7 off), Queen skips one, King skips two; "Last card".
``enid``   the same, renamed, plus the typed rituals: naming every card, middle
           names, the Church's shout, John Buckle's cry, limericks, the Enid Blyton
           and its chain, "Last St. Francis of Assisi".

How rituals work here
---------------------
Time never enters the rules. A ritual is an *obligation* (``new_event("obligation",
player, {"id", "seconds", "ritual"})``); the platform arms a timer and applies
``Action("timeout", arg=id)`` when it fires; ``obligation_closed`` says it is over.
Words arrive as ``Action("say", arg=text)`` from any seated player: they are judged
only for rituals that player owes, and chat that answers none is refused with a
``RuleError`` (the platform ignores it quietly). ``say`` and ``timeout`` are accepted
by :meth:`EnidGame.validate` without being listed in ``legal_actions`` (free text
cannot be listed; timeouts are the platform's).

Naming a laid card, writing a limerick's first line and reciting a limerick *hold*
the turn: nobody is current until they end (by words or the timer). A card's magic
happens only once it is named right, so the turn passes after that. Votes make their
voters current. "Last St. Francis", the Church's shout and John Buckle's cry do not
hold anything: they end when met, when their timer fires, or ("last") when the next
player moves.

Piles are lists from bottom to top: ``deck[-1]`` is drawn next, ``discard[-1]`` is
the face-up card to follow (also in ``to_dict`` and stacked deals).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.rules.cards import (
    CODE_BY_KEY,
    SUIT_RANK_INDEX,
    Card,
    Rank,
    Suit,
    card_codes,
    parse_card,
    remove_one,
    seeded_rng,
    shuffled,
    standard_deck,
)
from bot.rules.engine import (
    Action,
    Event,
    Game,
    GameOver,
    HouseRule,
    IllegalAction,
    NotYourTurn,
    RuleError,
    UnknownPlayer,
    cards_to_codes,
    changes_state,
    codes_to_cards,
    new_event,
)
from bot.words.i18n import N_, _
from cogs.enid import limerick as limerick_hint
from cogs.enid.names import (
    LAST_CARD_CALL,
    LAST_ENID_CALL,
    MIDDLE_INITIAL,
    WATER_BUFFALO,
    WRONG_NAME,
    Names,
    hear_card,
    hear_enid,
    mentions,
    middle_name_problem,
    misnamed_part,
    name_key,
    said_cry,
    said_last,
    said_shout,
    without,
    words,
)

# --------------------------------------------------------------------------- options

PLAIN = "plain"
ENID = "enid"
MODES = (ENID, PLAIN)

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        key="voluntary_draw",
        description=N_("'no' = you may draw only when you cannot lay a card (the seed); 'yes' = you may draw instead of laying."),
        choices=("no", "yes"),
        default="no",
        choice_descriptions=(
            N_("You may draw only when you cannot lay a card."),
            N_("You may draw a card instead of laying one."),
        ),
    ),
    HouseRule(
        key="beginner_names",
        description=N_("'naming' = the hand that must name a card says that card's name; 'yes' = hands show every card's Enid name beside its face (for learners); 'no' = names from memory (the seed: no reading names off a list)."),
        choices=("no", "naming", "yes"),
        default="naming",
        choice_descriptions=(
            N_("Hands show card faces only: Enid names come from memory."),
            N_("The hand that must name a card says that card's Enid name."),
            N_("Hands show each card's Enid name beside its face, for learners."),
        ),
    ),
    HouseRule(
        key="ritual_seconds",
        description=N_("Seconds to type a card's name, a limerick's first line, the Church's shout, John Buckle's cry or \"Last St. Francis of Assisi\"."),
        choices=("15", "20", "30", "45", "60", "90"),
        default="30",
        choice_descriptions=(
            N_("Rituals (a card's name, a shout, a cry) must be typed within 15 seconds."),
            N_("Rituals (a card's name, a shout, a cry) must be typed within 20 seconds."),
            N_("Rituals (a card's name, a shout, a cry) must be typed within 30 seconds."),
            N_("Rituals (a card's name, a shout, a cry) must be typed within 45 seconds."),
            N_("Rituals (a card's name, a shout, a cry) must be typed within 60 seconds."),
            N_("Rituals (a card's name, a shout, a cry) must be typed within 90 seconds."),
        ),
    ),
    HouseRule(
        key="limerick_seconds",
        description=N_("Seconds a poet has to type all five lines of a limerick."),
        choices=("60", "120", "180", "300"),
        default="180",
        choice_descriptions=(
            N_("A poet has 60 seconds to type all five lines of a limerick."),
            N_("A poet has 120 seconds to type all five lines of a limerick."),
            N_("A poet has 180 seconds to type all five lines of a limerick."),
            N_("A poet has 300 seconds to type all five lines of a limerick."),
        ),
    ),
    HouseRule(
        key="vote_seconds",
        description=N_("Seconds a vote (a limerick, a challenged middle name) stays open."),
        choices=("20", "30", "45", "60", "120"),
        default="30",
        choice_descriptions=(
            N_("A vote on a limerick or a middle name stays open 20 seconds."),
            N_("A vote on a limerick or a middle name stays open 30 seconds."),
            N_("A vote on a limerick or a middle name stays open 45 seconds."),
            N_("A vote on a limerick or a middle name stays open 60 seconds."),
            N_("A vote on a limerick or a middle name stays open 120 seconds."),
        ),
    ),
    HouseRule(
        key="builtin_names",
        description=N_("With server names for the Aces, Jacks or Queen: 'keep' = the seed's names are still accepted; 'drop' = only the server's names."),
        choices=("keep", "drop"),
        default="keep",
        choice_descriptions=(
            N_("The seed's names for the Aces, Jacks and Queen still count beside the server's names."),
            N_("Only the server's names count for renamed Aces, Jacks and Queen."),
        ),
    ),
)

# --------------------------------------------------------------------------- card facts

_ACE, _TWO, _SIX, _SEVEN, _EIGHT, _NINE, _TEN = Rank.ACE, Rank.TWO, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN
_JACK, _QUEEN, _KING = Rank.JACK, Rank.QUEEN, Rank.KING
SUIT_ORDER = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
_DISPLAY = {c: (SUIT_ORDER[c.suit], int(c.rank)) for c in standard_deck()}


def sorted_cards(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=_DISPLAY.__getitem__)


_CARD = {str(c): c for c in standard_deck()}  # card code -> Card, without parsing
PLAY_ACTIONS: dict[Card, Action] = {c: Action("play", (c,)) for c in standard_deck()}
# Per-move paths read cards through ``Card._key`` (rank * 4 + suit place) and these
# tables: Card and Suit hash and compare through Python code.
#: The shared play action of each card, by its place in display order (SUIT_RANK_INDEX).
_PLAY_AT: list[Action | None] = [None] * 64
for _card, _action in PLAY_ACTIONS.items():
    _PLAY_AT[SUIT_RANK_INDEX[_card._key]] = _action
#: _FOLLOWS[rank * 4 + suit place][card._key]: does the card follow that suit or rank?
_FOLLOWS: list[list[bool]] = [[False] * 64 for _ in range(64)]
for _top in standard_deck():
    for _card in standard_deck():
        _FOLLOWS[_top._key][_card._key] = _card.suit is _top.suit or _card.rank is _top.rank
_SUIT_PLACE = {c.suit.value: c._key & 3 for c in standard_deck()}  # by suit letter: Suit hashes in Python
_IS_RED = [False] * 64
for _card in standard_deck():
    _IS_RED[_card._key] = _card.is_red
DRAW = Action("draw")
END = Action("end")
RECITE = Action("recite")
VOTE_YES = Action("vote", arg="yes")
VOTE_NO = Action("vote", arg="no")
#: "may force": the layer of a black Turing owes a limerick's first line, or declines it.
NO_LIMERICK = Action("no_limerick")
#: What the turn timer applies: a draw, accepted even after an Eight (which otherwise
#: must be followed by a card) so a silent player never blocks the table.
TIMEOUT_DRAW = Action("draw", arg="timeout")
SUIT_ACTIONS = tuple(Action("suit", arg=s.value) for s in sorted(Suit, key=SUIT_ORDER.__getitem__))

# Phases of the current player's turn.
PLAY = "play"  # lay a matching card (or a defence when something is pending), or draw
SUIT = "suit"  # an Ace was named: name a suit
EIGHT = "eight"  # an Eight was named: lay any other card
TEN = "ten"  # a Ten was named: lay more of its suit, or end
OVER = "over"
PHASES = (PLAY, SUIT, EIGHT, TEN, OVER)

#: Obligations that hold the turn (nobody is current while one is open).
HOLDING = frozenset({"name", "first_line", "limerick"})
#: The order a message is judged in; a limerick line or first line only takes words
#: that no other ritual used.
_JUDGE_ORDER = {"name": 0, "last": 1, "church": 2, "cry": 3, "first_line": 8, "limerick": 9}

#: By ``Card._key``: cards that do nothing when laid (Threes, Fours and Fives; the Enid
#: is a Nine, and a Six starts or ends limericks).
_NO_MAGIC = [False] * 64
for _card in standard_deck():
    _NO_MAGIC[_card._key] = _card.rank in (Rank.THREE, Rank.FOUR, Rank.FIVE)

LAST_CARD_PICKUP = 7
WATER_BUFFALO_PICKUP = 7


class EnidGame(Game):
    key = "enid"
    title = "Enid"
    min_players = 2
    max_players = 5
    hand_size = 7

    # Kept out of __dict__: CPython 3.11 specialises attribute and method lookups only
    # while an instance has at most 29 attributes there (see tests/ai/test_fast_paths.py),
    # and Enid has more. These are read rarely on a playout's path.
    __slots__ = ("removed", "seed", "results", "_names", "_keyword_cache", "_patterns", "_heard_memo")

    def __init__(self) -> None:
        self.players: list[int] = []
        self.removed: list[int] = []
        self.options: dict[str, Any] = {}
        self.seed: int | str = 0
        self.hands: dict[int, list[Card]] = {}
        self.deck: list[Card] = []
        self.discard: list[Card] = []
        self.enid: Card | None = None
        self.chosen_suit: Suit | None = None
        self.current = 0
        self.direction = 1
        self.phase = PLAY
        self.ten_suit: Suit | None = None
        self.skip = 0
        self.pickup = 0
        self.pickup_kind: str | None = None  # "two" or "jack"
        self.limerick: dict[str, Any] | None = None  # pending for the current player: {"first_line", "by"}
        self.obligations: list[dict[str, Any]] = []
        self.vote: dict[str, Any] | None = None
        self.challengeable: list[dict[str, Any]] = []
        self.chain: list[dict[str, Any]] = []  # session: [{"words": [...], "author": pid}]
        self.middle_names: list[dict[str, Any]] = []  # session: [{"key", "words", "author", "card"}]
        self.results: list[dict[str, Any]] = []  # session: earlier games' placements
        self.counter = 0
        self.reshuffles = 0
        self.winner: int | None = None
        self.turn_number = 1
        self._names: Names | None = None
        self._keyword_cache: frozenset[str] | None = None
        self._patterns: dict[Card, list[list[str]]] | None = None  # card_patterns by card, for this table's names
        self._legal_cache: list[Action] | None = None
        #: The last naming judged, ((obligation id, words, chain length), result): a
        #: message is judged when validated and again when applied.
        self._heard_memo: tuple[tuple[str, tuple[str, ...], int], Any] | None = None

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
        """A fresh game from ``seed`` (7 cards each dealt round-robin from the first
        seat, one card turned up, the rest the deck; first player from
        ``seeded_rng(seed, "first")``) or a stacked ``deal``::

            {"hands": {pid: ["9h", ...]}, "deck": [bottom ... top], "discard": [bottom ... top],
             "first": pid, "seed": 0}

        The Enid is the nine of the suit of ``discard[0]`` (the first card turned up).
        ``options``: ``mode`` ("enid" or "plain"), the house rules of :data:`HOUSE_RULES`,
        ``renames`` ({slot: name or [names]}, see ``names.RENAMEABLE``), and ``carry``
        (the session, from :meth:`carry_out` of the channel's previous game).
        """
        cls.check_player_count(players)
        if (seed is None) == (deal is None):
            raise RuleError("Start a game with either a seed or a stacked deal, not both or neither.")
        options = options or {}
        game = cls()
        game.players = [int(p) for p in players]
        game.options = cls._read_options(options)
        game._read_carry(options.get("carry") or {})
        if deal is None:
            game.seed = seed  # type: ignore[assignment]
            deck = shuffled(standard_deck(), seed, "deal")  # type: ignore[arg-type]
            game.hands = {p: [] for p in game.players}
            for _ in range(cls.hand_size):
                for p in game.players:
                    game.hands[p].append(deck.pop())
            game.discard = [deck.pop()]
            game.deck = deck
            game.current = game.players[seeded_rng(seed, "first").randrange(len(game.players))]  # type: ignore[arg-type]
        else:
            game.seed = deal.get("seed", 0)
            hands = {int(p): codes_to_cards(codes) for p, codes in deal["hands"].items()}
            if set(hands) - set(game.players):
                raise RuleError("The stacked deal has a hand for someone who is not seated.")
            game.hands = {p: hands.get(p, []) for p in game.players}
            game.deck = codes_to_cards(deal.get("deck", []))
            game.discard = codes_to_cards(deal.get("discard", []))
            if not game.discard:
                raise RuleError("A stacked Enid deal needs a face-up card (discard).")
            first = int(deal.get("first", game.players[0]))
            if first not in game.players:
                raise RuleError("The stacked deal's first player is not seated.")
            game.current = first
        if game.options["mode"] == ENID:
            game.enid = Card(_NINE, game.discard[0].suit)
        starter = game.discard[-1]
        opening = {"card": str(starter), "first": game.current}
        if game.enid is not None:
            opening["enid_suit"] = game.enid.suit.value
        game.opening_events = (new_event("turned_up", None, opening), new_event("turn", game.current, {"player": game.current}))
        return game

    @staticmethod
    def _read_options(options: Mapping[str, Any]) -> dict[str, Any]:
        chosen: dict[str, Any] = {}
        mode = str(options.get("mode", ENID))
        chosen["mode"] = mode if mode in MODES else ENID
        for rule in HOUSE_RULES:
            value = str(options.get(rule.key, rule.default))
            chosen[rule.key] = value if value in rule.choices else rule.default
        renames = Names.from_options(options.get("renames") if isinstance(options.get("renames"), Mapping) else None)
        chosen["renames"] = {k: list(v) for k, v in renames.renames.items()}
        return chosen

    def _read_carry(self, carry: Mapping[str, Any]) -> None:
        self.chain = [
            {"words": [str(w) for w in e["words"]], "author": e.get("author"), "heard_by": [int(p) for p in e.get("heard_by", [])]}
            for e in carry.get("chain", [])
        ]
        self.middle_names = [dict(e) for e in carry.get("middle_names", [])]
        self.results = [dict(e) for e in carry.get("results", [])]

    @property
    def names(self) -> Names:
        if self._names is None:
            self._names = Names.from_options(self.options.get("renames"), self.options["builtin_names"] == "keep")
        return self._names

    def _keywords(self) -> frozenset[str]:
        if self._keyword_cache is None:
            self._keyword_cache = self.names.keywords()
        return self._keyword_cache

    @property
    def enid_mode(self) -> bool:
        return self.options["mode"] == ENID

    def _seconds(self, key: str) -> int:
        return int(self.options[key])

    # -- queries -----------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def held(self) -> dict[str, Any] | None:
        """The obligation holding the turn, if any."""
        for o in self.obligations:
            if o["kind"] in HOLDING:
                return o
        return None

    def current_players(self) -> frozenset[int]:
        return self._current_players()

    def _current_players(self) -> frozenset[int]:
        if self.phase == OVER:
            return frozenset()
        if self.vote is not None:
            votes = self.vote["votes"]
            return frozenset(v for v in self.vote["voters"] if str(v) not in votes)
        if self.held() is not None:
            return frozenset()
        return frozenset((self.current,))

    def _is_enid(self, card: Card) -> bool:
        """``card == self.enid``, without the dataclass's Python-level comparison."""
        enid = self.enid
        return enid is not None and card._key == enid._key

    def top_card(self) -> Card:
        return self.discard[-1]

    def suit_to_match(self) -> Suit:
        top = self.discard[-1]
        if top.rank is _ACE and self.chosen_suit is not None:
            return self.chosen_suit
        return top.suit

    def facing(self) -> str | None:
        """What the current player faces at the start of their turn: "pickup", "limerick" or None."""
        if self.phase != PLAY:
            return None
        if self.pickup:
            return "pickup"
        if self.limerick is not None:
            return "limerick"
        return None

    def playable_cards(self) -> list[Card]:
        hand = self.hands[self.current]
        phase = self.phase
        if phase == EIGHT:
            return list(hand)
        if phase == TEN:
            suit = self.ten_suit
            return [c for c in hand if c.suit is suit]
        if phase != PLAY:
            return []
        enid = self.enid
        if self.pickup:
            rank = _TWO if self.pickup_kind == "two" else _JACK
            return [c for c in hand if c.rank is rank or c == enid]
        if self.limerick is not None:
            return [c for c in hand if c.rank is _SIX or c == enid]
        follows = self._follows()
        return [c for c in hand if follows[c._key]]

    def _follows(self) -> list[bool]:
        """By ``Card._key``: does the card follow the suit to match or the top card's rank?"""
        top = self.discard[-1]
        row = top._key
        if top.rank is _ACE and self.chosen_suit is not None:  # suit_to_match(): the named suit
            row = (row & ~3) + _SUIT_PLACE[self.chosen_suit._value_]
        return _FOLLOWS[row]

    def legal_actions(self, player: int) -> list[Action]:
        return self._legal_for(player)

    def _legal_for(self, player: int) -> list[Action]:
        if self.phase == OVER or player not in self.hands:
            return []
        vote = self.vote
        if vote is not None:
            if player in vote["voters"] and str(player) not in vote["votes"]:
                return [VOTE_YES, VOTE_NO]
            return []
        actions: list[Action] = []
        held = self.held()
        if player == self.current and held is None:
            actions.extend(self._turn_actions())
        elif held is not None and held["kind"] == "first_line" and held["player"] == player:
            actions.append(NO_LIMERICK)  # the limerick is the layer's choice: it may be declined
        for entry in self.challengeable:
            if entry["player"] != player:
                actions.append(Action("challenge", arg=entry["id"]))
        return actions

    def _turn_actions(self) -> list[Action]:
        cached = self._legal_cache
        if cached is not None:
            return cached
        phase = self.phase
        if phase == SUIT:
            actions = list(SUIT_ACTIONS)
            self._legal_cache = actions
            return actions
        # Each playable card's place in display order (sorted_cards), then its shared
        # play action; after them a draw, recite or end where those are legal.
        index = SUIT_RANK_INDEX
        order = []
        if phase == PLAY and not self.pickup and self.limerick is None:
            # The usual turn (playable_cards, inline): follow the suit or the rank.
            follows = self._follows()
            for c in self.hands[self.current]:
                key = c._key
                if follows[key]:
                    order.append(index[key])
            extra = (DRAW,) if not order or self.options["voluntary_draw"] == "yes" else ()
        else:
            for c in self.playable_cards():
                order.append(index[c._key])
            extra = ()
            if phase == PLAY:
                if self.facing() == "limerick":
                    extra = (RECITE, DRAW)
                else:  # facing a pickup
                    extra = (DRAW,)
            elif phase == TEN:
                extra = (END,)
            elif phase == EIGHT and not order:
                extra = (DRAW,)
        if len(order) > 1:
            order.sort()
        play_at = _PLAY_AT
        actions = []
        for i in order:
            actions.append(play_at[i])
        actions.extend(extra)
        self._legal_cache = actions
        return actions

    # -- validation & explanations ----------------------------------------------

    def apply(self, player: int, action: Action) -> list[Event]:
        # The usual move, by the player whose turn it is, one of the very action
        # objects their turn listed (a listing cached is of this state: changes_state
        # drops it), is accepted here as validate would accept it, a call earlier.
        legal = self._legal_cache
        if (
            legal is not None
            and player == self.current
            and self.phase != OVER
            and self.vote is None
            and not self.challengeable
            and (not self.obligations or self.held() is None)
        ):
            for allowed in legal:
                if allowed is action:
                    return self._apply(player, action)
        self.validate(player, action)
        return self._apply(player, action)

    def validate(self, player: int, action: Action) -> None:
        if self.phase == OVER:
            raise GameOver(_("This game is over."))
        if player not in self.hands:
            raise UnknownPlayer(_("You are not playing at this table."))
        if action.kind == "say":
            owed = self._owed(player)
            if not owed:
                raise RuleError(_("Nobody is waiting for words from you just now."))
            if not self._would_hear(owed, action.arg):
                raise RuleError(_("That doesn't answer what you owe ({rituals}).",
                                  rituals=", ".join(self._ritual_words(o["kind"]) for o in owed)))
            return
        if action.kind == "timeout":
            o = self._obligation(action.arg)
            if o is None:
                raise RuleError(_("That ritual is already over."))
            if o["player"] != player and not (o["kind"] == "vote" and self.vote and player in self.vote["voters"]):
                raise RuleError(_("That ritual is not yours."))
            return
        if player == self.current and self.vote is None and not self.challengeable and (not self.obligations or self.held() is None):
            legal = self._legal_cache
            if legal is None:
                legal = self._turn_actions()
            # Listed actions are shared objects: an identity scan finds them without
            # the dataclass's Python-level comparisons.
            for allowed in legal:
                if allowed is action:
                    return
            if action in legal:
                return
        elif action in self._legal_for(player):
            return
        if self.vote is not None and action.kind != "vote":
            raise NotYourTurn(_("A vote is open: vote, then play goes on."))
        if action == TIMEOUT_DRAW and self._current_players() == {player} and self.vote is None and self.phase in (PLAY, EIGHT):
            return
        if player not in self._current_players():
            raise NotYourTurn(self.why_not_your_turn(player))
        raise IllegalAction(self.why_illegal(player, action))

    def why_not_your_turn(self, player: int) -> str:
        if self.vote is not None:
            if player in self.vote["voters"]:
                return _("You have already voted.")
            return _("A vote is open; wait for it to close.")
        hold = self.held()
        if hold is not None:
            if hold["player"] == player:
                return _("First {ritual}: type it in the channel.", ritual=self._ritual_words(hold["kind"]))
            mention = f"<@{hold['player']}>"
            return _("Wait: {player} must {ritual} first.", player=mention, ritual=_(_THEIR_RITUAL[hold["kind"]]))
        return _("It is not your turn.")

    def _ritual_words(self, kind: str) -> str:
        """What ``kind`` asks of its owner, as a verb phrase in the current language."""
        if kind == "last":
            return _('say "{call}"', call=LAST_ENID_CALL if self.enid_mode else LAST_CARD_CALL)
        return _(_RITUAL_WORDS[kind])

    def why_illegal(self, player: int, action: Action) -> str:
        if action.kind == "challenge":
            return _("There is no middle name of someone else's to challenge now.")
        if action.kind == "play" and action.cards:
            card = action.cards[0]
            if card not in self.hands[player]:
                return _("You don't have {card}.", card=card.display())
            if self.phase == SUIT:
                return _("Name a suit for your Ace first.")
            if self.phase == TEN:
                return _("After a Ten you may only lay more {suit} cards, or end your turn.", suit=self.ten_suit.title if self.ten_suit else "")
            facing = self.facing()
            if facing == "pickup":
                if self.pickup_kind == "two":
                    if self.enid:
                        return _("You face a pickup of {n}: lay a Two or the Enid, or draw to take it.", n=self.pickup)
                    return _("You face a pickup of {n}: lay a Two, or draw to take it.", n=self.pickup)
                if self.enid:
                    return _("You face a pickup of {n}: lay a Jack or the Enid, or draw to take it.", n=self.pickup)
                return _("You face a pickup of {n}: lay a Jack, or draw to take it.", n=self.pickup)
            if facing == "limerick":
                if self.enid:
                    return _("You face a limerick: lay a Six or the Enid, recite, or draw one to refuse.")
                return _("You face a limerick: lay a Six, recite, or draw one to refuse.")
            return _("{card} does not follow {top}: match its suit ({suit}) or its rank.", card=card.display(),
                     top=self.top_card().display(), suit=self.suit_to_match().title)
        if action.kind == "draw":
            return _("You have a card you can lay; this table does not let you draw instead.")
        if action.kind == "end":
            return _("You can end your turn only while laying extra cards after a Ten.")
        return _("You cannot do that now ({action}).", action=action.code())

    # -- moves ---------------------------------------------------------------------

    @changes_state
    def _apply(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        kind = action.kind
        if kind == "play":
            if self.obligations or self.challengeable:
                self._moved(player, events)
            self._lay(player, action.cards[0], events)
        elif kind == "say":
            self._hear(player, action.arg, events)
        elif kind == "timeout":
            self._timeout(player, action.arg, events)
        elif kind == "vote":
            self._cast(player, action.arg, events)
        elif kind == "challenge":
            self._challenge(player, action.arg, events)
        elif kind == "no_limerick":
            self._no_limerick(player, events)
        else:
            if self.obligations or self.challengeable:
                self._moved(player, events)
            if kind == "suit":
                self.chosen_suit = Suit(action.arg)
                events.append(new_event("suit", player, {"suit": action.arg, "enid": self.enid_mode}))
                self._end_turn(player, events)
            elif kind == "draw":
                self._draw_move(player, action.arg, events)
            elif kind == "end":
                self._end_turn(player, events)
            elif kind == "recite":
                self._recite(player, events)
        return events

    def _moved(self, player: int, events: list[Event]) -> None:
        """A turn move by ``player``: other players' "last card" windows close unmet,
        and middle names of others can no longer be challenged."""
        for o in list(self.obligations):
            if o["kind"] == "last" and o["player"] != player:
                self._close(o, events)
                events.append(new_event("ritual_failed", o["player"], {"ritual": "last", "why": "next_moved"}))
                self._draw_for(o["player"], LAST_CARD_PICKUP, "last_card", events)
        self.challengeable = [e for e in self.challengeable if e["player"] == player]

    def _lay(self, player: int, card: Card, events: list[Event]) -> None:
        hand = self.hands[player]
        remove_one(hand, card)
        self.discard.append(card)
        phase = self.phase
        context = "ten" if phase == TEN else ("eight" if phase == EIGHT else "normal")
        if phase != PLAY:  # facing(), inline
            facing = None
        else:
            facing = "pickup" if self.pickup else ("limerick" if self.limerick is not None else None)
        self.chosen_suit = None
        self.phase = PLAY
        code = CODE_BY_KEY[card._key]
        left = len(hand)
        events.append(new_event("play", player, {"card": code, "context": context, "left": left}))
        if left == 1 and not (self.obligations and any(o["kind"] == "last" and o["player"] == player for o in self.obligations)):
            self._open(player, "last", self._seconds("ritual_seconds"), events)
        if self.options["mode"] == ENID:  # enid_mode, inline
            self._open(player, "name", self._seconds("ritual_seconds"), events, card=code, context=context, facing=facing)
        else:
            self._after_lay(player, card, context, facing, True, events)

    def _after_lay(self, player: int, card: Card, context: str, facing: str | None, magic: bool, events: list[Event]) -> None:
        """A laid card's magic (if it was named right and not laid under a Ten), then
        what the turn does next."""
        hand = self.hands[player]
        rank = card.rank
        if magic and context != "ten" and not _NO_MAGIC[card._key]:
            if rank is _ACE:
                self.phase = SUIT
                return
            if rank is _TWO:
                self.pickup += 2
                self.pickup_kind = "two"
                events.append(new_event("pickup", player, {"pickup": self.pickup}))
            elif rank is _JACK and not _IS_RED[card._key]:
                self.pickup += 7
                self.pickup_kind = "jack"
                events.append(new_event("pickup", player, {"pickup": self.pickup}))
            elif rank is _JACK and self.pickup_kind == "jack" and self.pickup:
                self.pickup -= 7
                if not self.pickup:
                    self.pickup_kind = None
                events.append(new_event("rafter_cancelled", player, {"pickup": self.pickup}))
                if self.enid_mode:
                    self._open(player, "cry", self._seconds("ritual_seconds"), events)
            elif rank is _SEVEN:
                target = self._seat_after(player, self.direction, 1)
                self.direction = -self.direction
                events.append(new_event("reverse", player, {"direction": self.direction}))
                if self.enid_mode:
                    self._open(player, "church", self._seconds("ritual_seconds"), events, target=target)
            elif rank is _EIGHT:
                if not hand:
                    self._draw_for(player, 1, "eight_last", events)
                else:
                    self.phase = EIGHT
                    events.append(new_event("eight", player, {}))
                    return
            elif rank is _TEN:
                if any(c.suit is card.suit for c in hand):
                    self.phase = TEN
                    self.ten_suit = card.suit
                    events.append(new_event("ten", player, {"suit": card.suit.value, "enid": self.enid_mode}))
                    return
            elif rank is _QUEEN:
                self.skip += 1
                events.append(new_event("skip", player, {"skip": self.skip}))
            elif rank is _KING:
                self.skip += 2
                events.append(new_event("skip", player, {"skip": self.skip}))
            elif self.enid is not None and card._key == self.enid._key:  # card == self.enid
                cancelled = {}
                if self.pickup:
                    cancelled["pickup"] = self.pickup
                if self.limerick is not None:
                    cancelled["limerick"] = True
                self.pickup, self.pickup_kind, self.limerick = 0, None, None
                events.append(new_event("enid", player, {"cancelled": cancelled}))
                for other in self._order_from(player)[1:]:
                    self._draw_for(other, 1, "enid", events)
            elif rank is _SIX and self.enid_mode:
                if not _IS_RED[card._key]:
                    if facing == "limerick":
                        events.append(new_event("limerick_passed", player, {}))
                    else:
                        self._open(player, "first_line", self._seconds("ritual_seconds"), events)
                        return  # the turn waits for the first line (or its timer)
                elif facing == "limerick":
                    self.limerick = None
                    events.append(new_event("limerick_cancelled", player, {}))
        if context == "ten" and self.ten_suit is not None and any(c.suit is self.ten_suit for c in hand):
            self.phase = TEN
            return
        self._end_turn(player, events)

    def _draw_move(self, player: int, action_arg: str, events: list[Event]) -> None:
        if self.phase == PLAY and self.pickup:
            owed = self.pickup
            self.pickup, self.pickup_kind = 0, None
            self._draw_for(player, owed, "pickup", events)
        elif self.phase == PLAY and self.limerick is not None:
            self.limerick = None
            events.append(new_event("limerick_refused", player, {}))
            self._draw_for(player, 1, "limerick_refused", events)
        else:
            if action_arg == "timeout":
                reason = "timeout"
            elif self.options["voluntary_draw"] == "no":
                # Without the house rule a draw (not the timer's) is legal only with no
                # card to lay: no need to look at the hand again.
                reason = "cannot_play"
            else:
                reason = "voluntary" if self.playable_cards() else "cannot_play"
            self._draw_for(player, 1, reason, events)
        self._end_turn(player, events)

    def _recite(self, player: int, events: list[Event]) -> None:
        assert self.limerick is not None
        first = self.limerick["first_line"]
        self.limerick = None
        self._open(player, "limerick", self._seconds("limerick_seconds"), events, lines=[first], first_line=first)

    def _end_turn(self, player: int, events: list[Event]) -> None:
        if self.phase == OVER:
            return
        hand = self.hands.get(player)
        if hand is not None and not hand:
            self._win(player, events)
            return
        steps = 1 + self.skip
        self.skip = 0
        self.phase = PLAY
        self.ten_suit = None
        base = player if hand is not None else self.current
        players = self.players  # _seat_after, inline
        current = self.current = players[(players.index(base) + self.direction * steps) % len(players)]
        self.turn_number += 1
        events.append(new_event("turn", current, {"player": current}))

    def _seat_after(self, player: int, direction: int, steps: int) -> int:
        seat = self.players.index(player)
        return self.players[(seat + direction * steps) % len(self.players)]

    def _order_from(self, player: int) -> list[int]:
        seat = self.players.index(player)
        n = len(self.players)
        return [self.players[(seat + i * self.direction) % n] for i in range(n)]

    def _win(self, player: int, events: list[Event]) -> None:
        self.winner = player
        self.phase = OVER
        for o in list(self.obligations):
            self._close(o, events)
        self.vote = None
        self.challengeable = []
        events.append(new_event("won", player, {"player": player}))
        events.append(new_event("game_over", None, {"winner": player, "placements": self.placements()}))

    # -- obligations -----------------------------------------------------------------

    def _open(self, player: int, kind: str, seconds: int, events: list[Event], **extra: Any) -> dict[str, Any]:
        self.counter += 1
        o = {"id": f"{kind}-{self.counter}", "kind": kind, "player": player, **extra}
        self.obligations.append(o)
        data: dict[str, Any] = {"id": o["id"], "seconds": seconds, "ritual": kind}
        if kind == "church":
            data["target"] = extra["target"]
        if kind == "name":
            data["card"] = extra["card"]
        events.append(new_event("obligation", player, data))
        return o

    def _close(self, o: dict[str, Any], events: list[Event]) -> None:
        if o in self.obligations:
            self.obligations.remove(o)
            events.append(new_event("obligation_closed", o["player"], {"id": o["id"], "ritual": o["kind"]}))

    def _obligation(self, oid: str) -> dict[str, Any] | None:
        for o in self.obligations:
            if o["id"] == oid:
                return o
        return None

    def _owed(self, player: int) -> list[dict[str, Any]]:
        owed = [o for o in self.obligations if o["player"] == player and o["kind"] in _JUDGE_ORDER]
        if len(owed) > 1:
            owed.sort(key=lambda o: _JUDGE_ORDER[o["kind"]])
        return owed

    def _next_owed(self, player: int, seen: set[str]) -> dict[str, Any] | None:
        """The first of ``_owed(player)`` whose id is not in ``seen``, in one pass."""
        first = None
        first_order = 0
        for o in self.obligations:
            if o["player"] == player:
                order = _JUDGE_ORDER.get(o["kind"])
                if order is not None and (first is None or order < first_order) and o["id"] not in seen:
                    first, first_order = o, order
        return first

    def _spans(self, said: Sequence[str]) -> list[tuple[int, int] | None]:
        return [said_shout(said), said_cry(said), said_last(said, self.enid_mode)]

    def _would_hear(self, owed: list[dict[str, Any]], text: str) -> bool:
        """Whether ``text`` answers any of ``owed`` (a player's ``_owed``)."""
        said = words(text)
        if not said:
            return False
        for o in owed:
            if o["kind"] in ("first_line", "limerick"):
                return True
            if o["kind"] == "name":
                if self._heard_name(o, said) is not None:
                    return True
            elif self._ritual_span(o["kind"], said) is not None:
                return True
        return False

    def _ritual_span(self, kind: str, said: Sequence[str]) -> tuple[int, int] | None:
        if kind == "last":
            return said_last(said, self.enid_mode)
        if kind == "church":
            return said_shout(said)
        if kind == "cry":
            return said_cry(said)
        return None

    def _heard_name(self, o: dict[str, Any], said: Sequence[str]) -> tuple[bool, tuple[str, ...]] | None:
        """(right, middle words) for a naming attempt, or None when the words are no
        attempt at naming a card (they mention no name word outside other rituals)."""
        # validate judges a message and _apply judges it again, in the same state: the
        # answer depends only on the card (the obligation), the words and the chain
        # (which only grows).
        key = (o["id"], said, len(self.chain))
        memo = self._heard_memo
        if memo is not None and memo[0] == key:
            return memo[1]
        result: tuple[bool, tuple[str, ...]] | None
        card = _CARD[o["card"]]
        if self._is_enid(card):
            heard = hear_enid(said, [e["words"] for e in self.chain])
        else:
            patterns = self._patterns
            if patterns is None:
                patterns = self._patterns = _patterns_for(self.names)
            heard = hear_card(said, card, self.names, patterns)
        if heard.right:
            result = True, heard.middle
        elif self._keywords().intersection(without(said, self._spans(said))):
            result = False, ()
        else:
            result = None
        self._heard_memo = (key, result)
        return result

    def _hear(self, player: int, text: str, events: list[Event]) -> None:
        said = words(text)
        events.append(new_event("said", player, {"text": text}))
        used = False
        seen: set[str] = set()
        while True:
            o = self._next_owed(player, seen)
            if o is None or self.phase == OVER:
                break
            seen.add(o["id"])
            kind = o["kind"]
            if kind == "name":
                heard = self._heard_name(o, said)
                if heard is not None:
                    used = True
                    self._judge_name(o, heard[0], heard[1], events, said)
            elif kind in ("last", "cry"):
                if self._ritual_span(kind, said) is not None:
                    used = True
                    self._close(o, events)
                    events.append(new_event("ritual_met", player, {"ritual": kind}))
            elif kind == "church":
                if said_shout(said) is not None:
                    used = True
                    self._close(o, events)
                    if o["target"] in mentions(text):
                        events.append(new_event("ritual_met", player, {"ritual": "church"}))
                    else:
                        events.append(new_event("ritual_failed", player, {"ritual": "church", "why": "wrong_player", "target": o["target"]}))
                        self._draw_for(player, 1, "church", events)
            elif kind == "first_line" and not used:
                used = True
                line = text.strip().splitlines()[0].strip() if text.strip() else text
                self._close(o, events)
                self.limerick = {"first_line": line, "by": player}
                events.append(new_event("limerick_set", player, {"first_line": line}))
                self._end_turn(player, events)
            elif kind == "limerick" and not used:
                used = True
                lines = [ln.strip() for ln in text.splitlines() if words(ln)]
                # The poet may start at line two or retype the given first line.
                if len(o["lines"]) == 1 and lines and words(lines[0]) == words(o["first_line"]):
                    lines = lines[1:]
                o["lines"] = (o["lines"] + lines)[:5]
                if len(o["lines"]) >= 5:
                    self._close(o, events)
                    self._open_vote(player, "limerick", events, lines=list(o["lines"]), hint=limerick_hint.hint(o["lines"]))

    def _judge_name(self, o: dict[str, Any], right: bool, middle: tuple[str, ...], events: list[Event], said: Sequence[str] = ()) -> None:
        player = o["player"]
        card = _CARD[o["card"]]
        self._close(o, events)
        why = None
        if right and self._is_enid(card):
            self.chain.append({"words": list(middle), "author": player, "heard_by": list(self.players)})
            events.append(new_event("named", player, {"card": o["card"], "chain_length": len(self.chain)}))
        elif right and card.rank in MIDDLE_INITIAL:
            key = name_key(middle)
            if card.rank is Rank.FOUR and key == WATER_BUFFALO:
                events.append(new_event("water_buffalo", player, {"card": o["card"]}))
                self._draw_for(player, WATER_BUFFALO_PICKUP, "water_buffalo", events)
            else:
                why = middle_name_problem(card.rank, middle, (m["key"] for m in self.middle_names))
                if why is None:
                    self.counter += 1
                    entry = {
                        "id": f"middle-{self.counter}", "key": key, "words": list(middle), "author": player, "card": o["card"],
                        "heard_by": list(self.players),
                    }
                    self.middle_names.append(entry)
                    self.challengeable.append({"id": entry["id"], "player": player, "name": " ".join(middle)})
                    events.append(new_event("named", player, {"card": o["card"], "middle": " ".join(middle), "middle_id": entry["id"]}))
                else:
                    right = False
        elif right:
            events.append(new_event("named", player, {"card": o["card"]}))
        else:
            why = misnamed_part(said, card, self.names, enid=self._is_enid(card))  # which part, never the chain
        if not right:
            self._misnamed(player, card, why or WRONG_NAME, events)
        self._after_lay(player, card, o["context"], o.get("facing"), right, events)

    def _misnamed(self, player: int, card: Card, why: str, events: list[Event]) -> None:
        count = max(1, len(self.chain)) if self._is_enid(card) else 1
        events.append(new_event("misnamed", player, {"card": str(card), "why": why, "draws": count}))
        self._draw_for(player, count, "misnamed", events)

    def _no_limerick(self, player: int, events: list[Event]) -> None:
        """The black Turing's layer forces no limerick (as if the time ran out, said at once)."""
        o = self.held()
        assert o is not None and o["kind"] == "first_line"
        self._close(o, events)
        events.append(new_event("limerick_declined", player, {}))
        self._end_turn(player, events)

    def _timeout(self, player: int, oid: str, events: list[Event]) -> None:
        o = self._obligation(oid)
        assert o is not None
        kind = o["kind"]
        owner = o["player"]
        if kind == "vote":
            self._close_vote(events)
            return
        events.append(new_event("ritual_timeout", owner, {"ritual": kind, "id": oid}))
        if kind == "name":
            self._close(o, events)
            card = _CARD[o["card"]]
            self._misnamed(owner, card, "time ran out", events)
            self._after_lay(owner, card, o["context"], o.get("facing"), False, events)
        elif kind == "last":
            self._close(o, events)
            self._draw_for(owner, LAST_CARD_PICKUP, "last_card", events)
        elif kind in ("church", "cry"):
            self._close(o, events)
            self._draw_for(owner, 1, kind, events)
        elif kind == "first_line":
            self._close(o, events)  # "may force": no line, no limerick
            self._end_turn(owner, events)
        elif kind == "limerick":
            self._close(o, events)
            self._draw_for(owner, 1, "limerick_unfinished", events)
            self._end_turn(owner, events)

    # -- votes -------------------------------------------------------------------------

    def _open_vote(self, subject: int, about: str, events: list[Event], **extra: Any) -> None:
        voters = [p for p in self.players if p != subject]
        o = self._open(subject, "vote", self._seconds("vote_seconds"), events)
        self.vote = {"id": o["id"], "about": about, "subject": subject, "voters": voters, "votes": {}, **extra}
        events.append(new_event("vote_open", subject, {"id": o["id"], "about": about, "voters": voters, **extra}))

    def _cast(self, player: int, choice: str, events: list[Event]) -> None:
        assert self.vote is not None
        self.vote["votes"][str(player)] = choice
        events.append(new_event("vote_cast", player, {"id": self.vote["id"]}))
        if all(str(v) in self.vote["votes"] for v in self.vote["voters"]):
            self._close_vote(events)

    def _close_vote(self, events: list[Event]) -> None:
        vote = self.vote
        assert vote is not None
        self.vote = None
        o = self._obligation(vote["id"])
        if o is not None:
            self._close(o, events)
        tally = Counter(vote["votes"].values())
        against = tally["no"] > tally["yes"]
        subject = vote["subject"]
        events.append(
            new_event("vote_closed", subject, {"id": vote["id"], "about": vote["about"], "yes": tally["yes"], "no": tally["no"], "against": against})
        )
        if against and subject in self.hands:
            self._draw_for(subject, 1, "vote_" + vote["about"], events)
        if vote["about"] == "limerick" and subject in self.hands and self.current == subject:
            self._end_turn(subject, events)

    def _challenge(self, player: int, middle_id: str, events: list[Event]) -> None:
        entry = next(e for e in self.challengeable if e["id"] == middle_id)
        self.challengeable.remove(entry)
        events.append(new_event("challenge", player, {"id": middle_id, "of": entry["player"], "name": entry["name"]}))
        self._open_vote(entry["player"], "middle", events, name=entry["name"], challenger=player)

    # -- drawing ------------------------------------------------------------------

    def _draw_cards(self, count: int, events: list[Event]) -> list[Card]:
        deck = self.deck
        if len(deck) >= count:  # the usual case, no reshuffle: the top ``count`` cards, top first
            start = len(deck) - count
            drawn = deck[start:]
            drawn.reverse()
            del deck[start:]
            return drawn
        drawn: list[Card] = []
        while len(drawn) < count:
            if not self.deck:
                if len(self.discard) <= 1:
                    break
                self.reshuffles += 1
                self.deck = shuffled(self.discard[:-1], self.seed, f"reshuffle-{self.reshuffles}")
                del self.discard[:-1]
                events.append(new_event("reshuffle", None, {"cards": len(self.deck), "number": self.reshuffles}))
            drawn.append(self.deck.pop())
        return drawn

    def _draw_for(self, player: int, count: int, reason: str, events: list[Event]) -> list[Card]:
        drawn = self._draw_cards(count, events)
        hand = self.hands[player]
        hand.extend(drawn)
        public = {"count": len(drawn), "reason": reason, "short": count - len(drawn)}
        events.append(new_event("draw", player, {**public, "cards": card_codes(drawn)}, True, public))
        # A hand that grew past one card owes no "last card" any more.
        if self.obligations and len(hand) != 1:
            for o in list(self.obligations):
                if o["kind"] == "last" and o["player"] == player:
                    self._close(o, events)
        return drawn

    # -- platform hooks -------------------------------------------------------------

    def placements(self) -> list[list[int]]:
        rest = [p for p in self.players if p != self.winner]
        size = {p: len(self.hands[p]) for p in rest}
        groups: list[list[int]] = [[self.winner]] if self.winner is not None else []
        for p in sorted(rest, key=size.__getitem__):
            if groups and groups[-1][0] != self.winner and size[groups[-1][0]] == size[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        return groups

    def timeout_action(self, player: int) -> Action:
        """The turn timer's move: draw (taking a pickup, refusing a limerick); name the
        suit held most for an Ace; end after a Ten; close a vote with the votes cast."""
        if self.phase == OVER:
            return DRAW
        if self.vote is not None and player in self.vote["voters"]:
            return Action("timeout", arg=self.vote["id"])
        if player == self.current and self.phase == SUIT:
            counts = Counter(c.suit for c in self.hands.get(player, ()))
            return max(SUIT_ACTIONS, key=lambda a: (counts[Suit(a.arg)], -SUIT_ORDER[Suit(a.arg)]))
        if player == self.current and self.phase == TEN:
            return END
        return TIMEOUT_DRAW

    @changes_state
    def remove_player(self, player: int) -> list[Event]:
        """The leaver's cards go to the bottom of the deck; their rituals and votes end
        without effect; a turn of theirs passes on, and what they faced leaves with them."""
        if player not in self.players:
            return []
        return self._remove(player)

    def _remove(self, player: int) -> list[Event]:
        events: list[Event] = []
        was_current = self.phase != OVER and player == self.current
        seat = self.players.index(player)
        returned = self.hands.pop(player)
        self.deck[0:0] = returned
        self.players.remove(player)
        self.removed.append(player)
        events.append(new_event("player_removed", player, {"player": player, "cards": len(returned)}))
        if self.phase == OVER:
            return events
        for o in list(self.obligations):
            if o["player"] == player:
                self._close(o, events)
        self.challengeable = [e for e in self.challengeable if e["player"] != player]
        vote = self.vote
        if vote is not None:
            if vote["subject"] == player:
                self.vote = None
            else:
                vote["voters"] = [v for v in vote["voters"] if v != player]
                vote["votes"].pop(str(player), None)
                if all(str(v) in vote["votes"] for v in vote["voters"]):
                    self._close_vote(events)
        if len(self.players) == 1:
            self._win(self.players[0], events)
            return events
        if was_current:
            self.pickup, self.pickup_kind, self.limerick = 0, None, None
            self.skip = 0
            self.phase = PLAY
            self.ten_suit = None
            step = 0 if self.direction > 0 else -1
            self.current = self.players[(seat + step) % len(self.players)]
            self.turn_number += 1
            events.append(new_event("turn", self.current, {"player": self.current}))
        return events

    def carry_out(self) -> dict[str, Any]:
        """The session: the Enid chain with its authors, the middle names used, and
        the results of every finished game so far."""
        results = list(self.results)
        if self.phase == OVER:
            results.append({"winner": self.winner, "placements": self.placements()})
        return {
            "chain": [dict(e) for e in self.chain],
            "middle_names": [dict(e) for e in self.middle_names],
            "results": results,
        }

    # -- views -------------------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        over = self.phase == OVER
        top = self.discard[-1]
        vote = None
        if self.vote is not None:
            v = self.vote
            vote = {k: v[k] for k in ("id", "about", "subject", "voters") }
            vote["voted"] = sorted(int(p) for p in v["votes"])
            for key in ("lines", "hint", "name", "challenger"):
                if key in v:
                    vote[key] = v[key]
        reciting = None
        for o in self.obligations:
            if o["kind"] == "limerick":
                reciting = {"poet": o["player"], "lines": len(o["lines"]), "first_line": o["first_line"]}
        obs: dict[str, Any] = {
            "game": self.key,
            "mode": self.options["mode"],
            "viewer": player if player in self.hands else None,
            "players": list(self.players),
            "seats": [{"player": p, "cards": len(self.hands[p])} for p in self.players],
            "current": sorted(self._current_players()),
            "turn": None if over else self.current,
            "phase": self.phase,
            "top": str(top),
            "suit": self.suit_to_match().value,
            "chosen_suit": self.chosen_suit.value if self.chosen_suit and top.rank is _ACE else None,
            "ten_suit": self.ten_suit.value if self.ten_suit else None,
            "enid_suit": self.enid.suit.value if self.enid else None,
            "direction": self.direction,
            "pickup": self.pickup,
            "pickup_kind": self.pickup_kind,
            "limerick": dict(self.limerick) if self.limerick else None,
            "reciting": reciting,
            "vote": vote,
            "obligations": [{"id": o["id"], "player": o["player"], "ritual": o["kind"]} for o in self.obligations],
            "challengeable": [dict(e) for e in self.challengeable],
            "chain_length": len(self.chain),
            "middle_names_used": len(self.middle_names),
            "deck_size": len(self.deck),
            "discard_size": len(self.discard),
            "turn_number": self.turn_number,
            "reshuffles": self.reshuffles,
            "winner": self.winner,
            "over": over,
            "rules": {k: v for k, v in self.options.items() if k != "renames"},
            "renames": {k: list(v) for k, v in self.options["renames"].items()},
        }
        if player is not None and player in self.hands:
            hand = sorted_cards(self.hands[player])
            obs["hand"] = cards_to_codes(hand)
            if self.enid_mode and self.options["beginner_names"] == "yes":
                obs["hand_names"] = [self.names.display(c, self.enid) for c in hand]
            if self.enid_mode:
                obs["heard"] = self.heard(player)
        return obs

    def heard(self, player: int) -> dict[str, Any]:
        """What ``player`` heard said this session while seated: the chain's names
        (None where they were not at the table when it was added; a person cannot
        remember what they never heard) and the middle names used. For a player's own
        memory (a computer seat's); never shown by the bot (the chain stays secret)."""
        return {
            "chain": [list(e["words"]) if player in e.get("heard_by", ()) else None for e in self.chain],
            "middle_names": [m["key"] for m in self.middle_names if player in m.get("heard_by", ())],
        }

    # -- self-play helpers -----------------------------------------------------------

    def ritual_owers(self) -> frozenset[int]:
        """Players who owe words or a timeout now (beside ``current_players``)."""
        return frozenset(o["player"] for o in self.obligations)

    def ritual_answers(self, player: int, only: str | None = None) -> list[tuple[str, Action]]:
        """For self-play and tests: for each obligation ``player`` owes, the right
        words, some wrong words (where words can be wrong) and the timeout, each
        tagged "right", "wrong" or "late". ``only``: just the answers of that tag
        (the same, in the same order, without making the others)."""
        out: list[tuple[str, Action]] = []
        right = only is None or only == "right"
        wrong = only is None or only == "wrong"
        for o in self.obligations:
            if o["player"] != player:
                continue
            kind = o["kind"]
            if kind == "name":
                card = _CARD[o["card"]]
                if right:
                    out.append(("right", Action("say", arg=self.right_name(card))))
                if wrong:
                    out.append(("wrong", Action("say", arg=self.wrong_name(card))))
            elif kind == "last":
                if right:
                    out.append(("right", Action("say", arg="Last St. Francis of Assisi!" if self.enid_mode else "Last card!")))
            elif kind == "church":
                if right:
                    out.append(("right", Action("say", arg=f"Haaargh! Be Alonzo Churched! (a bit) <@{o['target']}>")))
                if wrong:
                    out.append(("wrong", Action("say", arg="Haaargh! Be Alonzo Churched! (a bit)")))
            elif kind == "cry":
                if right:
                    out.append(("right", Action("say", arg="My John Buckle casts your Mark Rafter to type void!")))
            elif kind == "first_line":
                if right:
                    out.append(("right", Action("say", arg="There once was a coder from Warwick")))
            elif kind == "limerick":
                if right:
                    out.append(("right", Action("say", arg="\n".join(["a line that goes on"] * (5 - len(o["lines"]))))))
            if only is None or only == "late":
                out.append(("late", Action("timeout", arg=o["id"])))
        return out

    def random_move(self, rng: Any, right: float = 0.8, wrong: float = 0.1) -> tuple[int, Action]:
        """One random move for self-play (bench, property tests). Rituals are
        answered right with probability ``right``, wrong with ``wrong``, else late
        (the timer); owed rituals usually come first, so "Last St. Francis" is
        sometimes beaten by the next player. Turn moves are uniform over the legal
        ones; votes are random; a middle name is challenged now and then."""
        if not self.obligations and not self.challengeable and self.phase != OVER:
            # The common case, kept cheap: the current player's uniform legal move.
            return self.current, rng.choice(self._turn_actions())
        owers = []  # sorted({o["player"] for o in self.obligations if o["kind"] != "vote"}), for a few
        for o in self.obligations:
            if o["kind"] != "vote" and o["player"] not in owers:
                owers.append(o["player"])
        if len(owers) > 1:
            owers.sort()
        current = sorted(self._current_players())
        if owers and (not current or rng.random() < 0.8):
            player = rng.choice(owers)
            roll = rng.random()
            want = "right" if roll < right else ("wrong" if roll < right + wrong else "late")
            pool = [a for tag, a in self.ritual_answers(player, want) if tag != "late" or self._obligation(a.arg)["kind"] != "vote"]
            if not pool:
                answers = self.ritual_answers(player)
                pool = [a for tag, a in answers if tag != "late"] or [a for _, a in answers]
            return player, rng.choice(pool)
        if self.vote is not None and rng.random() < 0.05:
            return self.vote["subject"], Action("timeout", arg=self.vote["id"])
        if self.challengeable and self.vote is None and rng.random() < 0.05:
            challengers = [p for p in self.players if any(a.kind == "challenge" for a in self._legal_for(p))]
            if challengers:
                player = rng.choice(challengers)
                return player, rng.choice([a for a in self._legal_for(player) if a.kind == "challenge"])
        if not current:  # only a vote's subject could end things: the vote's timer
            assert self.vote is not None
            return self.vote["subject"], Action("timeout", arg=self.vote["id"])
        player = current[0] if len(current) == 1 else rng.choice(current)
        legal = [a for a in self._legal_for(player) if a.kind != "challenge"]
        return player, rng.choice(legal)

    def right_name(self, card: Card) -> str:
        """A correct name for ``card`` now, with a fresh middle name where one is needed."""
        fresh = f"{self.counter}{len(self.middle_names)}{len(self.chain)}"
        if self._is_enid(card):
            chain = " ".join(" ".join(e["words"]) for e in self.chain)
            return f"Enid {chain} Zed{fresh} Blyton".replace("  ", " ")
        name = self.names.display(card)
        if card.rank in MIDDLE_INITIAL:
            initial = MIDDLE_INITIAL[card.rank].upper()
            name = name.replace(f" {initial}. ", f" {initial}ungo{fresh} ")
        return name

    def wrong_name(self, card: Card) -> str:
        other = Card(Rank.FIVE if card.rank is not Rank.FIVE else Rank.KING, card.suit)
        return self.names.display(other)

    # -- persistence ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "version": 1,
            "players": list(self.players),
            "removed": list(self.removed),
            "options": {k: (dict(v) if isinstance(v, dict) else v) for k, v in self.options.items()},
            "seed": self.seed,
            "hands": {str(p): cards_to_codes(h) for p, h in self.hands.items()},
            "deck": cards_to_codes(self.deck),
            "discard": cards_to_codes(self.discard),
            "enid": str(self.enid) if self.enid else None,
            "chosen_suit": self.chosen_suit.value if self.chosen_suit else None,
            "current": self.current,
            "direction": self.direction,
            "phase": self.phase,
            "ten_suit": self.ten_suit.value if self.ten_suit else None,
            "skip": self.skip,
            "pickup": self.pickup,
            "pickup_kind": self.pickup_kind,
            "limerick": dict(self.limerick) if self.limerick else None,
            "obligations": [dict(o) for o in self.obligations],
            "vote": dict(self.vote) if self.vote else None,
            "challengeable": [dict(e) for e in self.challengeable],
            "chain": [dict(e) for e in self.chain],
            "middle_names": [dict(e) for e in self.middle_names],
            "results": [dict(e) for e in self.results],
            "counter": self.counter,
            "reshuffles": self.reshuffles,
            "winner": self.winner,
            "turn_number": self.turn_number,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        import copy

        data = copy.deepcopy(dict(data))
        game = cls()
        game.players = [int(p) for p in data["players"]]
        game.removed = [int(p) for p in data.get("removed", [])]
        game.options = cls._read_options(data.get("options", {}))
        game.seed = data["seed"]
        game.hands = {int(p): codes_to_cards(codes) for p, codes in data["hands"].items()}
        game.deck = codes_to_cards(data["deck"])
        game.discard = codes_to_cards(data["discard"])
        game.enid = parse_card(data["enid"]) if data.get("enid") else None
        game.chosen_suit = Suit(data["chosen_suit"]) if data.get("chosen_suit") else None
        game.current = int(data["current"])
        game.direction = int(data["direction"])
        game.phase = data["phase"]
        game.ten_suit = Suit(data["ten_suit"]) if data.get("ten_suit") else None
        game.skip = int(data["skip"])
        game.pickup = int(data["pickup"])
        game.pickup_kind = data.get("pickup_kind")
        game.limerick = data.get("limerick")
        game.obligations = list(data.get("obligations", []))
        game.vote = data.get("vote")
        game.challengeable = list(data.get("challengeable", []))
        game.chain = list(data.get("chain", []))
        game.middle_names = list(data.get("middle_names", []))
        game.results = list(data.get("results", []))
        game.counter = int(data["counter"])
        game.reshuffles = int(data["reshuffles"])
        game.winner = data.get("winner")
        game.turn_number = int(data["turn_number"])
        if game.phase not in PHASES:
            raise RuleError(f"Saved Enid game has an unknown phase '{game.phase}'.")
        return game

    # -- seat swaps (a computer takes a leaver's seat) -------------------------------

    #: Keys of ``to_dict`` (at any depth) whose values are player ids.
    #: Not "target": a Church shout aimed at the leaver still names the leaver, since
    #: people can @mention a person but not a computer seat.
    _ID_KEYS = frozenset({"players", "removed", "current", "winner", "player", "by",
                          "subject", "voters", "challenger"})
    #: The session's history keeps who did what (the chain's authors, middle names,
    #: earlier results), and the options name no one.
    _KEPT_ON_SWAP = ("chain", "middle_names", "results", "options")

    def _replace_player(self, old: int, new: int) -> None:
        """``new`` sits in ``old``'s seat: same hand, same turn, and every ritual,
        vote and challenge owed by or aimed at the seat is now the newcomer's to
        answer. A Church shout aimed at the seat still names ``old`` (whom people can
        @mention), and the session's history (the chain's authors, middle names used)
        still names ``old`` too."""
        from bot.rules.engine import swap_in_record

        data = self.to_dict()
        kept = {key: data.pop(key) for key in self._KEPT_ON_SWAP}
        fresh = type(self).from_dict({**swap_in_record(data, old, new, self._ID_KEYS), **kept})
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        for name in EnidGame.__slots__:
            setattr(self, name, getattr(fresh, name))


#: card_patterns by card, for each set of names in use, shared by every table with
#: those names (most tables use the built-in ones): hear_card fills them in, and a
#: card's patterns never change. A bot serves few sets of names; the cap is a backstop.
_PATTERNS: dict[tuple[Any, ...], dict[Card, list[list[str]]]] = {}


def _patterns_for(names: Names) -> dict[Card, list[list[str]]]:
    key = (tuple(sorted(names.renames.items())), names.keep_builtin)
    found = _PATTERNS.get(key)
    if found is None:
        if len(_PATTERNS) >= 64:
            _PATTERNS.clear()
        found = _PATTERNS[key] = {}
    return found


#: What each ritual asks of its owner ("last" is said with the mode's call, see _ritual_words).
_RITUAL_WORDS = {
    "name": N_("name the card you laid"),
    "church": N_("shout the Church at the player it skipped"),
    "cry": N_("cry John Buckle's cry"),
    "first_line": N_("type the limerick's first line"),
    "limerick": N_("recite your limerick"),
    "vote": N_("let the vote finish"),
}

#: The rituals that hold the turn, said of someone else.
_THEIR_RITUAL = {"name": N_("name their card"), "first_line": N_("type a limerick's first line"), "limerick": N_("recite their limerick")}
